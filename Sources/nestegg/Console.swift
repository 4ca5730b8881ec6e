import Foundation
import NestEggCore

/// Writes progress and diagnostics to standard error, in the form CI systems read:
/// colour only on a terminal (and never with NO_COLOR), and GitHub Actions annotations
/// (`::error file=…,line=…,col=…::…`) when GITHUB_ACTIONS is true.
struct Console {
    let quiet: Bool
    let colour: Bool
    let githubAnnotations: Bool

    init(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.quiet = quiet
        colour = isatty(STDERR_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
        githubAnnotations = environment["GITHUB_ACTIONS"] == "true"
    }

    func progress(_ line: String) {
        guard !quiet else { return }
        emit(line)
    }

    func report(_ diagnostic: Diagnostic) {
        var line = diagnostic.description
        if colour {
            let label = "\(diagnostic.severity.rawValue):"
            let code = diagnostic.severity == .error ? "31" : "33"
            line = line.replacingOccurrences(of: " \(label) ", with: " \u{1B}[1;\(code)m\(label)\u{1B}[0m ", options: [], range: nil)
        }
        emit(line)
        if githubAnnotations { emit(Self.annotation(diagnostic)) }
    }

    func failure(_ line: String) {
        emit("nestegg: " + line)
    }

    private func emit(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `::error file=Fixtures/a.json,line=2,col=68::expected an integer, found a string (at $.x)`
    static func annotation(_ diagnostic: Diagnostic) -> String {
        var properties = ["file=\(escapeProperty(diagnostic.file))"]
        if let line = diagnostic.line, line > 0 { properties.append("line=\(line)") }
        if let column = diagnostic.column, diagnostic.line ?? 0 > 0 { properties.append("col=\(column)") }
        var message = diagnostic.message
        if let path = diagnostic.path { message += " (at \(path))" }
        return "::\(diagnostic.severity.rawValue) \(properties.joined(separator: ","))::\(escapeData(message))"
    }

    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
