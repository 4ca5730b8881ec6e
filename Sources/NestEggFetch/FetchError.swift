import NestEggSupport

/// Why a fetch stopped: what to print (the diagnostics, then the message) and the exit status
/// that tells a script what kind of failure it was (the codes of `sysexits.h`).
public struct FetchError: Error, Sendable, CustomStringConvertible {
    public enum Status: Int32, Sendable {
        /// EX_USAGE: the command line is wrong (a `--since` that is no date, or in the future).
        case usage = 64
        /// EX_DATAERR: `nestegg.json`, or a feed already in the data folder, is wrong.
        case dataError = 65
        /// EX_UNAVAILABLE: the API could not be reached, or answered with an error.
        case unavailable = 69
        /// EX_SOFTWARE: a bug in nestegg.
        case software = 70
        /// EX_CANTCREAT: the data folder cannot be written.
        case cannotCreate = 73
        /// EX_PROTOCOL: the API answered with something other than JSON of the expected shape.
        case protocolError = 76
        /// EX_NOPERM: no token, a token file others may read, or a token the API refused.
        case noPermission = 77
    }

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
