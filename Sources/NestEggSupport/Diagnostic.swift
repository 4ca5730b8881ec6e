import Foundation

/// One problem found in the input, placed as precisely as the input allows.
///
/// Printed in the form compilers and editors understand:
/// `starling/feed/a.json:12:20: error: expected an integer, found a string (at $.feedItems[3].amount.minorUnits)`
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable {
        case error, warning
    }

    public var severity: Severity
    public var file: String
    public var line: Int?
    public var column: Int?
    public var path: String?
    public var message: String
    /// How many problems this line stands for: 1, or more for the closing line of a file whose
    /// later diagnostics were only counted (``DiagnosticLog``).
    public var count = 1

    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    public var description: String {
        var location = Self.printable(file)
        if let line { location += ":\(line)" }
        if let line, line > 0, let column { location += ":\(column)" }
        var text = "\(location): \(severity.rawValue): \(Self.printable(message))"
        if let path { text += " (at \(Self.printable(path)))" }
        return text
    }

    /// The diagnostic as a GitHub Actions annotation:
    /// `::error file=Fixtures/a.json,line=2,col=68::expected an integer, found a string (at $.x)`.
    /// File, message and path show control characters as ``description`` does (ESC, BEL, C1 and
    /// line breaks included, so data can neither forge a workflow command nor colour the log);
    /// then the annotation's own escapes apply (`%`, and `:` and `,` in a property).
    public var githubAnnotation: String {
        var properties = ["file=\(Self.annotationProperty(Self.printable(file)))"]
        if let line, line > 0 { properties.append("line=\(line)") }
        if let column, line ?? 0 > 0 { properties.append("col=\(column)") }
        var text = Self.printable(message)
        if let path { text += " (at \(Self.printable(path)))" }
        return "::\(severity.rawValue) \(properties.joined(separator: ","))::\(Self.annotationData(text))"
    }

    static func annotationData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func annotationProperty(_ text: String) -> String {
        annotationData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// Messages quote data; control characters in it (a newline, an ANSI escape) are shown as
    /// escapes, so data can neither forge a log line (or a CI command) nor colour the terminal.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Text.isControl) else {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where Text.isControl(control):
                result += "\\u{\(String(control.value, radix: 16, uppercase: true))}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Collects diagnostics during one stage; loaders report into it and go on, so
/// that one run shows every error rather than only the first.
///
/// A file shows its first ``perFileLimit`` diagnostics in full; the rest are counted into one
/// closing line for that file ("… and 12,345 more errors"), so that a broken export of millions
/// of records stays readable and its report costs no more than the count. Callers may ask
/// ``showsInFull(_:)`` first and skip placing a diagnostic that would only be counted.
public final class DiagnosticLog {
    /// What was reported, in order, with each file's closing count line where it began.
    public var diagnostics: [Diagnostic] {
        var result = entries
        for (key, hidden) in hidden {
            result[hidden.index].count = hidden.count
            result[hidden.index].message = "… and \(hidden.count) more \(key.severity.rawValue)\(hidden.count == 1 ? "" : "s") in this file, "
                + "not shown (the first \(Self.perFileLimit) are)"
        }
        return result
    }
    private var entries: [Diagnostic] = []
    public static let perFileLimit = 100
    private var shown: [String: Int] = [:]
    /// Per file and severity: where its closing line is, and how many it stands for.
    private var hidden: [HiddenKey: (index: Int, count: Int)] = [:]
    private struct HiddenKey: Hashable {
        let file: String
        let severity: Diagnostic.Severity
    }

    public init() {}

    /// Whether a diagnostic for `file` reported now would be shown in full.
    public func showsInFull(_ file: String) -> Bool { shown[file, default: 0] < Self.perFileLimit }

    public func report(_ diagnostic: Diagnostic) {
        let alreadyShown = shown[diagnostic.file, default: 0]
        if alreadyShown < Self.perFileLimit {
            shown[diagnostic.file] = alreadyShown + 1
            entries.append(diagnostic)
        } else {
            count(diagnostic.severity, in: diagnostic.file)
        }
    }

    /// Counts a diagnostic that is not shown (see ``showsInFull(_:)``): one closing line per file
    /// and severity says how many there were.
    public func count(_ severity: Diagnostic.Severity, in file: String) {
        let key = HiddenKey(file: file, severity: severity)
        if let index = hidden.index(forKey: key) {
            hidden.values[index].count += 1
        } else {
            hidden[key] = (index: entries.count, count: 1)
            entries.append(Diagnostic(severity, file: file, message: ""))
        }
    }

    /// Takes over the diagnostics of another log, in order (the work of one concurrent task).
    public func absorb(_ other: DiagnosticLog) { absorb(other.diagnostics) }

    /// Takes over diagnostics another log collected (its ``diagnostics``), in order.
    public func absorb(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            entries.append(diagnostic)
            shown[diagnostic.file, default: 0] += 1
        }
    }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// How many errors and warnings were reported, those only counted included.
    public static func tally(_ diagnostics: [Diagnostic]) -> (errors: Int, warnings: Int) {
        diagnostics.reduce(into: (0, 0)) { tally, diagnostic in
            if diagnostic.severity == .error { tally.0 += diagnostic.count } else { tally.1 += diagnostic.count }
        }
    }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var hasErrors: Bool { entries.contains { $0.severity == .error } }
}
