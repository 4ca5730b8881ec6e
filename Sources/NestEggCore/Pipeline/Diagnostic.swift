/// One problem found in the input, placed as precisely as the input allows.
///
/// Printed in the form compilers and editors understand:
/// `starling/feed/a.json:12:20: error: expected an integer, found a string (at $.feedItems[3].amount.minorUnits)`
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    public var severity: Severity
    public var file: String
    public var line: Int?
    public var column: Int?
    public var path: String?
    public var message: String

    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let line, line > 0, let column { location += ":\(column)" }
        var text = "\(location): \(severity.rawValue): \(message)"
        if let path { text += " (at \(path))" }
        return text
    }
}

/// Collects diagnostics during one stage; loaders report into it and go on, so
/// that one run shows every error rather than only the first.
public final class DiagnosticLog {
    public private(set) var diagnostics: [Diagnostic] = []

    public init() {}

    public func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    public func append(contentsOf other: [Diagnostic]) { diagnostics.append(contentsOf: other) }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
