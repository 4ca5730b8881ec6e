import Crypto
import NestEggModel
import NestEggSupport
/// A JSON file, parsed, with what it takes to place an error in it:
/// the file's name, the line starts, and a way to rebuild the JSON path of any value.
public final class JSONDocument {
    public let file: String
    public let root: JSONNode
    private let bytes: [UInt8]
    let log: DiagnosticLog
    /// Where the last diagnostic was placed: the next one, usually further on, is placed from
    /// here, so that placing every diagnostic of a file costs one pass over it, not one each.
    private var cursor = Position(offset: 0, line: 1, column: 1)

    /// A byte offset with its 1-based line and column (in Unicode scalars).
    struct Position {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// Parses `bytes`; a syntax error is reported to `log` and gives `nil`.
    public static func parse(_ bytes: [UInt8], file: String, log: DiagnosticLog) -> JSONDocument? {
        do {
            let root = try JSONParser.parse(bytes)
            return JSONDocument(file: file, root: root, bytes: bytes, log: log)
        } catch {
            let (line, column) = Self.lineAndColumn(of: error.offset, in: bytes)
            log.report(Diagnostic(.error, file: file, line: line, column: column, message: "malformed JSON: \(error.message)"))
            return nil
        }
    }

    private init(file: String, root: JSONNode, bytes: [UInt8], log: DiagnosticLog) {
        self.file = file
        self.root = root
        self.bytes = bytes
        self.log = log
    }

    public var value: JSONValue { JSONValue(node: root, document: self) }

    /// The SHA-256 of the file's bytes, in hex: whether a second read of the file read the same.
    public var contentDigest: String { Text.hex(SHA256.hash(data: bytes)) }

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        let position = advance(Position(offset: 0, line: 1, column: 1), to: offset, in: bytes)
        return (position.line, position.column)
    }

    /// `start` moved forward to `offset` (not beyond the end of `bytes`).
    static func advance(_ start: Position, to offset: Int, in bytes: [UInt8]) -> Position {
        var position = start
        let end = min(offset, bytes.count)
        while position.offset < end {
            let byte = bytes[position.offset]
            if byte == 0x0A {
                position.line += 1
                position.column = 1
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
            position.offset += 1
        }
        return position
    }

    /// The line and column of `offset`, found from the last one placed when it lies behind.
    private func place(_ offset: Int) -> (Int, Int) {
        if offset < cursor.offset { cursor = Position(offset: 0, line: 1, column: 1) }
        cursor = Self.advance(cursor, to: offset, in: bytes)
        return (cursor.line, cursor.column)
    }

    /// The JSON path (`$.feedItems[3].amount`) of the value that starts at `offset`,
    /// found by walking down from the root; nothing is stored per value for it. Each level is a
    /// binary search (values lie in a file in the order of their offsets).
    func path(to offset: Int) -> String {
        var path = "$"
        var node = root
        while node.offset != offset {
            switch node.kind {
            case .array(let elements):
                guard let index = Self.lastIndex(in: elements.count, startingAtOrBefore: offset, { elements[$0].offset }) else { return path }
                path += "[\(index)]"
                node = elements[index]
            case .object(let members):
                guard let index = Self.lastIndex(in: members.count, startingAtOrBefore: offset, { members[$0].value.offset }) else { return path }
                path += Self.pathComponent(members[index].key)
                node = members[index].value
            default:
                return path
            }
        }
        return path
    }

    /// The last index whose offset is at most `offset`, of `count` increasing offsets.
    static func lastIndex(in count: Int, startingAtOrBefore offset: Int, _ offsetAt: (Int) -> Int) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if offsetAt(middle) <= offset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    static func pathComponent(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
        }
        if plain { return ".\(key)" }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        return "['\(escaped)']"
    }

    /// A diagnostic at `node` with its line, column and path, for a check that runs after the file
    /// is read (one that needs other files too) to report when it knows.
    func diagnostic(_ severity: Diagnostic.Severity, at node: JSONNode, _ message: String) -> Diagnostic {
        let (line, column) = place(node.offset)
        return Diagnostic(severity, file: file, line: line, column: column, path: path(to: node.offset), message: message)
    }

    func report(_ severity: Diagnostic.Severity, at node: JSONNode, member: String? = nil, _ message: @autoclosure () -> String) {
        guard log.showsInFull(file) else { return log.count(severity, in: file) }
        let (line, column) = place(node.offset)
        var path = path(to: node.offset)
        if let member { path += Self.pathComponent(member) }
        log.report(Diagnostic(severity, file: file, line: line, column: column, path: path, message: message()))
    }
}
