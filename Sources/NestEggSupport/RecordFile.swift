import Crypto
import Foundation

/// The one format of the files nestegg keeps for itself or hands from one step to the next (a
/// sharded build's part record, the build cache with its "what changed" snapshot):
///
///     nestegg-part 4
///     {"files":[…],…}
///     sha256 9f86d0…
///
/// the format's name and version; the value as a line of JSON (Foundation's `JSONEncoder`, keys
/// sorted, so the same value gives the same bytes), or several values a line each (JSON Lines, so
/// that a reader decodes only the line it needs); and the SHA-256 of the lines before it. A file
/// cut short, changed, of another format or version reads as no record at all (`nil`), never as a
/// part of one. JSON escapes every string it holds, so a line break or a tab in data is text.
public enum RecordFile {
    /// The file's text for `value`, in `format` (`name version`, no line break).
    public static func text<Value: Encodable>(_ value: Value, format: String) -> String {
        text([value], format: format)
    }

    /// The file's text for several values, one JSON line each (JSON Lines), so that a reader can
    /// decode the one it needs first (``value(_:from:format:line:of:)``); one signature for all.
    public static func text(_ values: [any Encodable], format: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body = format + "\n"
        for value in values {
            // Values of ours hold strings, integers and booleans only: encoding them does not fail.
            guard let json = try? encoder.encode(value) else { preconditionFailure("a \(format) record does not encode as JSON") }
            body += String(decoding: json, as: UTF8.self) + "\n"
        }
        return signed(body)
    }

    /// The value a file of `format` holds; `nil` for anything else (see ``RecordFile``).
    public static func value<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], format: String) -> Value? {
        value(type, from: bytes, format: format, line: 0, of: 1)
    }

    /// The value of JSON line `line` of a file of `format` that holds `count` of them; `nil` for
    /// anything else. The whole file's signature is checked, whichever line is read.
    public static func value<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], format: String, line: Int, of count: Int) -> Value? {
        guard let body = body(of: bytes), bytes.starts(with: Array((format + "\n").utf8)) else { return nil }
        let lines = body.dropFirst(format.utf8.count + 1).dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count == count, lines.indices.contains(line) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(lines[line]))
    }

    /// `body` (the format's line and the JSON line, each with its break) with its signature line.
    public static func signed(_ body: String) -> String {
        body + "sha256 " + Text.hex(SHA256.hash(data: Array(body.utf8))) + "\n"
    }

    /// The lines a file's signature line signs, if it has one and it is theirs.
    static func body(of bytes: [UInt8]) -> ArraySlice<UInt8>? {
        // "sha256 " and 64 hexadecimal digits, and the break.
        let signatureLength = 7 + 64 + 1
        guard bytes.count > signatureLength, bytes.last == UInt8(ascii: "\n") else { return nil }
        let body = bytes[..<(bytes.count - signatureLength)]
        guard body.last == UInt8(ascii: "\n"),
              Array(bytes[body.endIndex...]) == Array(("sha256 " + Text.hex(SHA256.hash(data: body)) + "\n").utf8) else { return nil }
        return body
    }
}
