import NestEggModel
import NestEggSupport
/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// It exists so that every value keeps its byte offset (for `file:line:column`
/// errors), numbers keep their text (for exact money), and large inputs parse
/// without Foundation's bridging cost.
public struct JSONParser {
    public struct SyntaxError: Error, Sendable {
        public let offset: Int
        public let message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        // A UTF-8 byte order mark is tolerated, as many editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw SyntaxError(offset: parser.index, message: "unexpected \(parser.describeCurrent()) after the top-level value")
        }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        guard index < bytes.count else {
            throw SyntaxError(offset: index, message: "expected a value, found end of file")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw SyntaxError(offset: index, message: "expected a value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            index + count <= bytes.count && bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else {
            throw SyntaxError(offset: index, message: "expected a value, found \(describeCurrent())")
        }
        index += count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw SyntaxError(offset: index, message: "values nested deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONNode {
        let start = index
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(kind: .object(members), offset: start)
        }
        // Names seen so far, once the object has too many to compare each new one with all of them.
        var names: Set<String>?
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw SyntaxError(offset: index, message: "expected a quoted member name, found \(describeCurrent())")
            }
            let keyOffset = index
            let key = try parseString()
            if Self.isDuplicate(key, in: members, names: &names) {
                throw SyntaxError(offset: keyOffset, message: "the member name \"\(key.count > 80 ? key.prefix(80) + "…" : key)\" appears twice in one object; "
                                  + "readers disagree on which value counts (each name may appear once)")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw SyntaxError(offset: index, message: "expected ':' after member name \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key: key, value: try parseValue()))
            skipWhitespace()
            guard index < bytes.count else {
                throw SyntaxError(offset: index, message: "expected ',' or '}' to close the object opened here, found end of file")
            }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw SyntaxError(offset: index, message: "expected ',' or '}' in object, found \(describeCurrent())")
        }
        return JSONNode(kind: .object(members), offset: start)
    }

    /// Whether an object whose members so far are `members` already has the name `key`. (RFC 8259
    /// leaves a repeated name to the reader, and readers differ: one takes the first value, another
    /// the last. A file that reads two ways is refused.) Names compare as Swift strings compare,
    /// so two spellings of one name (`é` composed or not) are the same name. Small objects are
    /// searched; from 16 members on, a set keeps the cost linear.
    private static func isDuplicate(_ key: String, in members: [JSONMember], names: inout Set<String>?) -> Bool {
        if names == nil {
            if members.count < 16 { return members.contains { $0.key == key } }
            names = Set(members.map(\.key))
        }
        return !names!.insert(key).inserted
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONNode {
        let start = index
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(kind: .array(elements), offset: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw SyntaxError(offset: index, message: "expected ',' or ']' to close the array, found end of file")
            }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw SyntaxError(offset: index, message: "expected ',' or ']' in array, found \(describeCurrent())")
        }
        return JSONNode(kind: .array(elements), offset: start)
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONNode {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw SyntaxError(offset: index, message: "expected a digit in number, found \(describeCurrent())")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw SyntaxError(offset: index, message: "a number may not have a leading zero")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw SyntaxError(offset: index, message: "expected a digit after the decimal point, found \(describeCurrent())")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw SyntaxError(offset: index, message: "expected a digit in the exponent, found \(describeCurrent())")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        return JSONNode(kind: .number(text), offset: start)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func parseString() throws(SyntaxError) -> String {
        let open = index
        index += 1
        let contentStart = index
        // Fast path: no escapes (and, when every byte is ASCII, nothing to validate).
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = bytes[contentStart..<index]
                index += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw SyntaxError(offset: contentStart, message: "string is not valid UTF-8")
                }
                return text
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw SyntaxError(offset: index, message: "control character in string (write it as an escape such as \\n)")
            }
            index += 1
        }
        guard index < bytes.count else {
            throw SyntaxError(offset: open, message: "string is not closed before the end of file")
        }
        var buffer = Array(bytes[contentStart..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw SyntaxError(offset: contentStart, message: "string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw SyntaxError(offset: index - 2, message: "invalid escape sequence '\\\(Character(Unicode.Scalar(escape)))' in string")
                }
            default:
                if byte < 0x20 {
                    throw SyntaxError(offset: index, message: "control character in string (write it as an escape such as \\n)")
                }
                buffer.append(byte)
                index += 1
            }
        }
        throw SyntaxError(offset: open, message: "string is not closed before the end of file")
    }

    private mutating func readHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw SyntaxError(offset: index, message: "expected four hex digits after \\u")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw SyntaxError(offset: index, message: "expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
        let start = index - 2
        let first = try readHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw SyntaxError(offset: start, message: "unpaired UTF-16 surrogate in \\u escape")
            }
            index += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw SyntaxError(offset: start, message: "unpaired UTF-16 surrogate in \\u escape")
            }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(combined)!
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw SyntaxError(offset: start, message: "unpaired UTF-16 surrogate in \\u escape")
        }
        return scalar
    }
}
