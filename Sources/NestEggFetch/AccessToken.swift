import Foundation
import NestEggSupport

/// A personal access token. It is sent only in the `Authorization` header: never a command-line
/// argument, never printed (its description, debug description and mirror are a placeholder),
/// never written to a file; messages are scrubbed of it before they are shown.
public struct AccessToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String
    /// Where it came from, for messages: "STARLING_TOKEN", or "the token file FILE".
    public let source: String

    init(_ value: String, source: String) {
        self.value = value
        self.source = source
    }

    public var description: String { "<token from \(source)>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["source": source]) }

    /// The largest token file read: a token is a line, not a document.
    static let maximumBytes = 16 * 1024

    /// The token in `file` when one is named, else in the environment variable `variable`.
    /// A file that its group or others may read or write is refused (it is a password), as is one
    /// that is not a regular file or holds more than one line of printable ASCII.
    public static func load(file: String?, environment: [String: String], variable: String) throws(FetchError) -> AccessToken {
        if let file {
            let source = "the token file \(file)"
            let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { throw FetchError(.noPermission, "cannot read \(source): \(systemReason(errno))") }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw FetchError(.noPermission, "cannot read \(source): \(systemReason(errno))") }
            guard status.st_mode & S_IFMT == S_IFREG else { throw FetchError(.noPermission, "\(source) is not a regular file") }
            let mode = status.st_mode & 0o777
            guard mode & 0o077 == 0 else {
                throw FetchError(.noPermission, "\(source) is open to its group or others (mode \(String(mode, radix: 8))); a token is a "
                    + "password: make it readable by you alone (chmod 600 \(file)) and fetch again")
            }
            // Read from the descriptor whose mode was checked, never the path again.
            var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
            var count = 0
            while count < bytes.count {
                let read = bytes.withUnsafeMutableBytes { buffer in Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count) }
                if read < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard read >= 0 else { throw FetchError(.noPermission, "cannot read \(source): \(systemReason(errno))") }
                if read == 0 { break }
                count += read
            }
            guard count <= maximumBytes else { throw FetchError(.noPermission, "\(source) is too large to hold a token") }
            return try token(String(decoding: bytes[..<count], as: UTF8.self), source: source)
        }
        guard let text = environment[variable] else {
            throw FetchError(.noPermission, "no token: set \(variable) to a personal access token, or name a file that holds one with --token-file")
        }
        return try token(text, source: variable)
    }

    /// The text trimmed of white space at both ends (a file ends in a newline); it must then be
    /// printable ASCII without spaces, the only thing a header may carry safely.
    static func token(_ text: String, source: String) throws(FetchError) -> AccessToken {
        let trimmed = Text.trimmed(text)
        guard !trimmed.isEmpty else { throw FetchError(.noPermission, "\(source) is empty: it must hold a personal access token") }
        guard trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw FetchError(.noPermission, "\(source) does not hold a token (one word of printable ASCII characters)")
        }
        return AccessToken(trimmed, source: source)
    }

    /// `text` with every occurrence of the token replaced by a placeholder.
    func redact(_ text: String) -> String {
        text.contains(value) ? text.replacingOccurrences(of: value, with: "<token>") : text
    }
}
