/// A JSON file, parsed, with what it takes to place an error in it:
/// the file's name, the line starts, and a way to rebuild the JSON path of any value.
public final class JSONDocument {
    public let file: String
    public let root: JSONNode
    private let bytes: [UInt8]
    let log: DiagnosticLog

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

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }

    /// The JSON path (`$.feedItems[3].amount`) of the value that starts at `offset`,
    /// found by walking down from the root; nothing is stored per value for it.
    func path(to offset: Int) -> String {
        var path = "$"
        var node = root
        while node.offset != offset {
            switch node.kind {
            case .array(let elements):
                guard let index = elements.lastIndex(where: { $0.offset <= offset }) else { return path }
                path += "[\(index)]"
                node = elements[index]
            case .object(let members):
                guard let member = members.last(where: { $0.value.offset <= offset }) else { return path }
                path += Self.pathComponent(member.key)
                node = member.value
            default:
                return path
            }
        }
        return path
    }

    static func pathComponent(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
        }
        if plain { return ".\(key)" }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        return "['\(escaped)']"
    }

    func report(_ severity: Diagnostic.Severity, at node: JSONNode, member: String? = nil, _ message: String) {
        let (line, column) = Self.lineAndColumn(of: node.offset, in: bytes)
        var path = path(to: node.offset)
        if let member { path += Self.pathComponent(member) }
        log.report(Diagnostic(severity, file: file, line: line, column: column, path: path, message: message))
    }
}
