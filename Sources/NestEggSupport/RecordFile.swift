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
        var writer = Writer(format: format)
        for value in values { writer.append(value) }
        return writer.text
    }

    /// One value's line: its JSON, keys sorted, without the line break.
    public static func line(_ value: some Encodable) -> String {
        line(value, encoder: encoder())
    }

    /// ``line(_:)``'s bytes, for ``pieces(lines:format:)``.
    public static func lineBytes(_ value: some Encodable) -> Data {
        // Values of ours hold strings, integers and booleans only: encoding them does not fail.
        guard let json = try? encoder().encode(value) else { preconditionFailure("a record does not encode as JSON") }
        return json
    }

    /// The file's pieces for lines made by ``lineBytes(_:)`` (on several cores, say), in their
    /// order: the format's line, each line and its break, and last the signature line, hashed as
    /// they are listed and never joined, so that a large record (a scale-100 build's cache, 170 MB)
    /// is written piece by piece (`StagedFile.stage(pieces:at:)`), not copied into one buffer.
    public static func pieces(lines: [Data], format: String) -> [Data] {
        let lineBreak = Data([UInt8(ascii: "\n")])
        let pieces = [Data((format + "\n").utf8)] + lines.flatMap { [$0, lineBreak] }
        var hasher = SHA256()
        for piece in pieces { hasher.update(data: piece) }
        return pieces + [Data(signatureLine(hasher.finalize()).utf8)]
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static func line(_ value: some Encodable, encoder: JSONEncoder) -> String {
        // Values of ours hold strings, integers and booleans only: encoding them does not fail.
        guard let json = try? encoder.encode(value) else { preconditionFailure("a record does not encode as JSON") }
        return String(decoding: json, as: UTF8.self)
    }

    /// A file's text built a value at a time, one JSON line each, then signed (``text``).
    public struct Writer {
        private let encoder = RecordFile.encoder()
        private var body: String

        public init(format: String) {
            body = format + "\n"
        }

        public mutating func append(_ value: some Encodable) {
            append(line: RecordFile.line(value, encoder: encoder))
        }

        /// Appends a line made by ``RecordFile/line(_:)``.
        public mutating func append(line: String) {
            body += line
            body += "\n"
        }

        /// The lines appended, with the signature line.
        public var text: String { signed(body) }
    }

    /// The value a file of `format` holds; `nil` for anything else (see ``RecordFile``).
    public static func value<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], format: String) -> Value? {
        value(type, from: bytes, format: format, line: 0, of: 1)
    }

    /// The value of JSON line `line` of a file of `format` that holds `count` of them; `nil` for
    /// anything else. The whole file's signature is checked, whichever line is read.
    public static func value<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], format: String, line: Int, of count: Int) -> Value? {
        guard let lines = lines(of: bytes, format: format, count: count), lines.indices.contains(line) else { return nil }
        return value(type, line: lines[line])
    }

    /// The JSON lines of a file of `format` that holds `count` of them, its signature checked
    /// once for all (decode each with ``value(_:line:)``, on a core of its own if need be); `nil`
    /// for anything else.
    public static func lines(of bytes: [UInt8], format: String, count: Int) -> [ArraySlice<UInt8>]? {
        guard let body = body(of: bytes), bytes.starts(with: Array((format + "\n").utf8)) else { return nil }
        let lines = body.dropFirst(format.utf8.count + 1).dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return lines.count == count ? lines : nil
    }

    /// The value one of ``lines(of:format:count:)`` holds; `nil` if it holds none.
    public static func value<Value: Decodable>(_ type: Value.Type, line: ArraySlice<UInt8>) -> Value? {
        try? JSONDecoder().decode(type, from: Data(line))
    }

    /// `body` (the format's line and the JSON line, each with its break) with its signature line.
    public static func signed(_ body: String) -> String {
        var body = body
        return body + body.withUTF8 { signatureLine(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }

    /// The signature line of lines whose SHA-256 is `digest`: `sha256 `, the digest in hexadecimal, a break.
    static func signatureLine(_ digest: SHA256.Digest) -> String {
        signaturePrefix + Text.hex(digest) + "\n"
    }

    static let signaturePrefix = "sha256 "
    /// The length of every signature line (``signatureLine(_:)``).
    static let signatureLength = signaturePrefix.utf8.count + 2 * SHA256.Digest.byteCount + 1

    /// The SHA-256 a signature line (`sha256 …`) gives, in hexadecimal; `nil` if it is not one.
    public static func signature(_ line: Substring) -> Substring? {
        guard line.utf8.starts(with: signaturePrefix.utf8) else { return nil }
        return line.dropFirst(signaturePrefix.count)
    }

    /// The lines a file's signature line signs, if it has one and it is theirs.
    static func body(of bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count > signatureLength, bytes.last == UInt8(ascii: "\n") else { return nil }
        let body = bytes[..<(bytes.count - signatureLength)]
        guard body.last == UInt8(ascii: "\n"),
              bytes[body.endIndex...].elementsEqual(signatureLine(SHA256.hash(data: body)).utf8) else { return nil }
        return body
    }
}

extension RecordFile {
    /// A file's lines (or a text's), read one at a time and hashed as they go, so that a file of
    /// millions of lines is never held whole: ``next()`` gives each line without its break;
    /// ``digest`` is then the SHA-256 of the bytes of the lines before it, so the signature line
    /// (``signature(_:)``) is checked as it is read. ``mark()`` notes where the reading stands
    /// (the offset and the hash so far), so that a later reader can go on from there
    /// (``init(path:from:)``) and still check the signature of the whole file.
    public final class Lines {
        /// Where a reading stands: the offset of the next line and the hash of the lines before it.
        /// `@unchecked`: Crypto's `SHA256` is a value (its state copied on write) not marked `Sendable`.
        public struct Mark: @unchecked Sendable {
            public let offset: Int64
            fileprivate let hasher: SHA256
        }

        private var file: UnsafeMutablePointer<FILE>?
        private var text: Substring.UTF8View?
        /// `getline`'s buffer, kept from line to line.
        private var buffer: UnsafeMutablePointer<CChar>?
        private var capacity = 0
        /// The line ``next()`` gave last, not hashed yet. `raw`: its bytes as read, where they are
        /// not UTF-8 (the line is their repair, and they are what is hashed).
        private var current: (line: String, hasBreak: Bool, raw: [UInt8]?)?
        private var hasher = SHA256()
        /// The bytes not hashed yet: hashed 64 KiB at a time, as a line at a time costs more than
        /// the hashing itself (a file of millions of short lines).
        private var unhashed: [UInt8] = []
        /// Where the line ``next()`` gave last starts, in bytes from the start of the file (or text).
        public private(set) var offset: Int64
        /// Whether the line ``next()`` gave last ended with a line break (a file's last may not).
        public var hasBreak: Bool { current?.hasBreak ?? false }
        /// Why the file could not be read, if it could not.
        public private(set) var failure: String?

        /// Only a regular file is read (``FileBytes/openRegular(_:)``: a FIFO named like a record
        /// file would hang the reader), from the start or from `mark`.
        public init(path: String, from mark: Mark? = nil) {
            offset = mark?.offset ?? 0
            if let mark { hasher = mark.hasher }
            switch FileBytes.openRegular(path) {
            case .success(let (descriptor, _)):
                file = fdopen(descriptor, "rb")
                if file == nil {
                    failure = "cannot read it: \(systemReason(errno))"
                    close(descriptor)
                } else if offset > 0, fseeko(file, off_t(offset), SEEK_SET) != 0 {
                    failure = "cannot read it: \(systemReason(errno))"
                }
            case .failure(let reading):
                failure = "cannot read it: \(reading.reason)"
            }
        }

        public init(text: String, from mark: Mark? = nil) {
            offset = mark?.offset ?? 0
            if let mark { hasher = mark.hasher }
            self.text = text.utf8.dropFirst(Int(offset))
        }

        deinit {
            if let file { fclose(file) }
            free(buffer)
        }

        /// The next line, without its break; `nil` at the end (or at a ``failure``).
        public func next() -> Substring? {
            passCurrent()
            current = read()
            return current?.line[...]
        }

        /// Where the reading stands after the line ``next()`` gave last.
        public func mark() -> Mark {
            passCurrent()
            hashUnhashed()
            return Mark(offset: offset, hasher: hasher)
        }

        /// The SHA-256 of the lines before the one ``next()`` gave last, in hexadecimal.
        public var digest: String {
            hashUnhashed()
            return Text.hex(hasher.finalize())
        }

        /// Hashes the line ``next()`` gave last and moves the offset past it.
        private func passCurrent() {
            guard let (line, hasBreak, raw) = current else { return }
            if let raw {
                unhashed += raw
            } else {
                var bytes = line
                bytes.withUTF8 { unhashed += $0 }
                if hasBreak { unhashed.append(UInt8(ascii: "\n")) }
            }
            offset += Int64(raw?.count ?? line.utf8.count + (hasBreak ? 1 : 0))
            current = nil
            if unhashed.count >= 1 << 16 { hashUnhashed() }
        }

        private func hashUnhashed() {
            hasher.update(data: unhashed)
            unhashed.removeAll(keepingCapacity: true)
        }

        /// The next line as read, without its break; `nil` at the end.
        private func read() -> (line: String, hasBreak: Bool, raw: [UInt8]?)? {
            if let rest = text {
                guard !rest.isEmpty else { return nil }
                let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
                let line = String(Substring(rest[..<(newline ?? rest.endIndex)]))
                text = newline.map { rest[rest.index(after: $0)...] } ?? rest[rest.endIndex...]
                return (line, newline != nil, nil)
            }
            guard failure == nil, let file else { return nil }
            let length = getline(&buffer, &capacity, file)
            guard length > 0, let buffer else {
                if ferror(file) != 0 { failure = "cannot read it: \(systemReason(errno))" }
                fclose(file)
                self.file = nil
                return nil
            }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length)
            let hasBreak = bytes.last == UInt8(ascii: "\n")
            let body = UnsafeBufferPointer(rebasing: bytes[..<(hasBreak ? length - 1 : length)])
            if let line = String(validating: body, as: UTF8.self) { return (line, hasBreak, nil) }
            return (String(decoding: body, as: UTF8.self), hasBreak, Array(bytes))
        }
    }
}

/// A value a record can hold as one line of text (no line break in it): a column of them is
/// written as one JSON string (``Lines``), which Foundation encodes and decodes many times faster
/// than an array of tens of thousands of values.
public protocol LineCodable {
    /// The value as a line; ``Lines`` writes an array as its elements' lines only when none holds a line break.
    var line: String { get }
    init?(line: Substring)
}

extension String: LineCodable {
    public var line: String { self }
    public init?(line: Substring) { self = String(line) }
}

/// A list of lines in a record: one JSON string, each line after a line break (`""` for no line,
/// `"\n"` for one empty line), or, when a value holds a line break, a JSON array.
public struct Lines<Element: LineCodable & Codable>: Codable {
    public let elements: [Element]

    public init(_ elements: [Element]) { self.elements = elements }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let lines = elements.map(\.line)
        if lines.contains(where: { $0.utf8.contains(UInt8(ascii: "\n")) }) {
            try container.encode(elements)
        } else {
            var text = ""
            text.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
            for line in lines { text += "\n"; text += line }
            try container.encode(text)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            // Split at the line-break byte: as Characters, a "\r" before it would join the two lines.
            let bytes = text.utf8
            guard let first = bytes.first else { elements = []; return }
            guard first == UInt8(ascii: "\n") else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "lines start with a line break") }
            var elements: [Element] = []
            var start = bytes.index(after: bytes.startIndex)
            while true {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                let line = Substring(bytes[start..<end])
                guard let element = Element(line: line) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a value: \(line.prefix(40))")
                }
                elements.append(element)
                guard end != bytes.endIndex else { break }
                start = bytes.index(after: end)
            }
            self.elements = elements
        } else {
            elements = try container.decode([Element].self)
        }
    }
}

/// A dictionary keyed by text, as a record holds it: its keys in byte order and their values in
/// the same order, two columns. Foundation decodes and encodes arrays faster than objects
/// (an object's keys each become a coding key, and `.sortedKeys` sorts them again as it writes),
/// and one string of lines faster still (``Lines``: the keys, and the values when they are
/// ``LineCodable``), which counts for the build cache's tens of thousands of files and pages.
public struct SortedColumns<Value: Codable>: Codable {
    public let keys: [String]
    public let values: [Value]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ColumnKey.self)
        try container.encode(Lines(keys), forKey: .keys)
        if let lines = self as? any LinesEncodable {
            try lines.encodeValues(into: &container)
        } else {
            try container.encode(values, forKey: .values)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ColumnKey.self)
        keys = try container.decode(Lines<String>.self, forKey: .keys).elements
        if let decoded = try Self.decodeValues(container) {
            values = decoded
        } else {
            values = try container.decode([Value].self, forKey: .values)
        }
    }

    /// The values as ``Lines`` when they are ``LineCodable``, else `nil`.
    static func decodeValues(_ container: KeyedDecodingContainer<ColumnKey>) throws -> [Value]? {
        guard let type = Value.self as? any (LineCodable & Codable).Type else { return nil }
        func decode<Element: LineCodable & Codable>(_: Element.Type) throws -> [Value]? {
            try container.decode(Lines<Element>.self, forKey: .values).elements as? [Value]
        }
        return try decode(type)
    }

    // (Inlinable, so that the sort is specialised where the value type is known: unspecialised,
    // copying each entry through its type's witnesses cost more than the encoding.)
    @inlinable
    public init(_ dictionary: [String: Value]) {
        // The places are sorted, not the entries: a sort moves each entry many times.
        let (unsortedKeys, unsortedValues) = (Array(dictionary.keys), Array(dictionary.values))
        let order = unsortedKeys.indices.sorted { Self.precedes(unsortedKeys[$0], unsortedKeys[$1]) }
        keys = order.map { unsortedKeys[$0] }
        values = order.map { unsortedValues[$0] }
    }

    /// Byte order of the keys' UTF-8 (one `memcmp`): the same order on every machine, and several
    /// times faster than `String`'s `<` over the tens of thousands of a site's paths.
    @inlinable
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }

    /// The dictionary; `nil` when the columns are not of the same length or a key comes twice (a
    /// record that is not one of ours).
    @inlinable
    public var dictionary: [String: Value]? {
        guard keys.count == values.count else { return nil }
        var result = [String: Value](minimumCapacity: keys.count)
        for (key, value) in zip(keys, values) {
            guard result.updateValue(value, forKey: key) == nil else { return nil }
        }
        return result
    }
}

extension SortedColumns: Sendable where Value: Sendable {}

/// A ``SortedColumns``' two fields.
enum ColumnKey: String, CodingKey { case keys, values }

/// ``SortedColumns`` whose values are ``LineCodable``: written as ``Lines``.
protocol LinesEncodable {
    func encodeValues(into container: inout KeyedEncodingContainer<ColumnKey>) throws
}

extension SortedColumns: LinesEncodable where Value: LineCodable {
    func encodeValues(into container: inout KeyedEncodingContainer<ColumnKey>) throws {
        try container.encode(Lines(values), forKey: .values)
    }
}
