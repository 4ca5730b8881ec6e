import NestEggSupport

/// Why a fetch stopped: what to print (the diagnostics, then the message) and the exit status
/// that tells a script what kind of failure it was (the codes of `sysexits.h`).
public struct FetchError: Error, Sendable, CustomStringConvertible {
    /// The exit status (one list for every command: ``ExitStatus``).
    public typealias Status = ExitStatus

    public let status: Status
    public var exitCode: Int32 { status.rawValue }
    public var message: String
    /// Problems placed in a file or a response (`/api/v2/accounts:1:2: error: …`), shown first.
    public var diagnostics: [Diagnostic] = []
    /// Whether the data folder is as it was before the fetch. Only a failure while files were
    /// being renamed into place makes it false (each file is still whole: old or new).
    public var dataUnchanged = true

    init(_ status: Status, _ message: String, diagnostics: [Diagnostic] = []) {
        self.status = status
        self.message = message
        self.diagnostics = diagnostics
    }

    public var description: String { message }

    /// The error with the token scrubbed from everything it would print.
    func redacting(_ token: AccessToken?) -> FetchError {
        guard let token else { return self }
        var copy = self
        copy.message = token.redact(message)
        copy.diagnostics = diagnostics.map { diagnostic in
            var scrubbed = diagnostic
            scrubbed.file = token.redact(diagnostic.file)
            scrubbed.message = token.redact(diagnostic.message)
            scrubbed.path = diagnostic.path.map(token.redact)
            return scrubbed
        }
        return copy
    }
}
