// What a camt file's first bytes say before any XML parser sees them: the XML declaration's
// encoding, whether there is a DOCTYPE (a camt file never has one, and a DTD is where entity
// bombs live), the root element and its namespace, and — for a document without a namespace —
// the name of the root's first child. Read on bytes, so that `recognises` costs a few kilobytes.

/// Which camt message a document is, as its root's namespace (or, without one, its message
/// element) says.
public struct CamtDocumentKind: Sendable, Hashable, CustomStringConvertible {
    public enum Message: String, Sendable, Hashable {
        /// camt.053, BankToCustomerStatement: `BkToCstmrStmt/Stmt`.
        case statement = "camt.053"
        /// camt.052, BankToCustomerAccountReport (intraday): `BkToCstmrAcctRpt/Rpt`.
        case report = "camt.052"
    }

    public var message: Message
    /// The message version, `NN` of `camt.053.001.NN`; `nil` when the document has no namespace.
    public var version: Int?

    public init(message: Message, version: Int?) {
        self.message = message
        self.version = version
    }

    /// The names the message element has: the version 1 schemas call it `BkToCstmrStmtV01` and
    /// `BkToCstmrAcctRptV01`, later ones drop the suffix.
    var messageElementNames: [String] {
        switch message {
        case .statement: ["BkToCstmrStmt", "BkToCstmrStmtV01"]
        case .report: ["BkToCstmrAcctRpt", "BkToCstmrAcctRptV01"]
        }
    }

    /// The element of one account's statement or report inside the message.
    var statementElementName: String { message == .statement ? "Stmt" : "Rpt" }

    /// Whether `name` is one of `messageElementNames`.
    func isMessageElement(_ name: CamtName) -> Bool {
        switch message {
        case .statement: name == "BkToCstmrStmt" || name == "BkToCstmrStmtV01"
        case .report: name == "BkToCstmrAcctRpt" || name == "BkToCstmrAcctRptV01"
        }
    }

    /// Whether `name` is the `statementElementName`.
    func isStatementElement(_ name: CamtName) -> Bool {
        message == .statement ? name == "Stmt" : name == "Rpt"
    }

    public var description: String {
        message.rawValue + (version.map { $0 < 10 ? ".001.0\($0)" : ".001.\($0)" } ?? " (no namespace)")
    }

    static let namespacePrefix = "urn:iso:std:iso:20022:tech:xsd:"

    /// `urn:iso:std:iso:20022:tech:xsd:camt.053.001.NN` (or `camt.052`), `NN` two digits from 01.
    init?(namespace: String) {
        guard namespace.hasPrefix(Self.namespacePrefix) else { return nil }
        let rest = Array(namespace.utf8.dropFirst(Self.namespacePrefix.utf8.count))
        guard rest.count == 15, Array(rest[0..<6]) == Array("camt.0".utf8), Array(rest[8..<13]) == Array(".001.".utf8) else { return nil }
        let message: Message
        switch (rest[6], rest[7]) {
        case (UInt8(ascii: "5"), UInt8(ascii: "3")): message = .statement
        case (UInt8(ascii: "5"), UInt8(ascii: "2")): message = .report
        default: return nil
        }
        guard let tens = CamtProlog.digit(rest[13]), let ones = CamtProlog.digit(rest[14]), tens * 10 + ones >= 1 else { return nil }
        self.init(message: message, version: tens * 10 + ones)
    }

    /// The kind a namespace-less document is, by its message element.
    init?(messageElement localName: Substring) {
        switch localName {
        case "BkToCstmrStmt", "BkToCstmrStmtV01": self.init(message: .statement, version: nil)
        case "BkToCstmrAcctRpt", "BkToCstmrAcctRptV01": self.init(message: .report, version: nil)
        default: return nil
        }
    }
}

/// The prolog of an XML document and its root element's start tag, as far as a camt reader needs them.
struct CamtProlog {
    /// The XML declaration's `encoding`, if it has one.
    var declaredEncoding: String?
    /// The line of a `<!DOCTYPE`, if there is one.
    var doctypeLine: Int?
    /// The root element's name as written (`Document`, `ns2:Document`).
    var rootName: String
    var rootLine: Int
    /// The namespace the root element is in (the default one, or its prefix's), if declared on it.
    var namespace: String?
    /// The local name of the root's first child element, when it was looked for (no namespace) and found.
    var firstChildName: String?

    var rootLocalName: Substring { Self.localName(rootName) }

    /// The camt message this is; `nil` when it is none.
    var kind: CamtDocumentKind? {
        guard rootLocalName == "Document" else { return nil }
        if let namespace { return CamtDocumentKind(namespace: namespace) }
        guard let firstChildName else { return nil }
        return CamtDocumentKind(messageElement: Substring(firstChildName))
    }

    static func localName(_ name: String) -> Substring {
        name.firstIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
    }

    static func digit(_ byte: UInt8) -> Int? {
        (48...57).contains(byte) ? Int(byte - 48) : nil
    }

    /// Reads `bytes[..<limit]` up to the root's start tag (and, without a namespace, its first
    /// child's name). `nil` when that is not there: no XML, or a root beyond `limit`.
    static func scan(_ bytes: [UInt8], limit: Int) -> CamtProlog? {
        var scanner = ByteScanner(bytes: bytes, end: min(limit, bytes.count))
        if scanner.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index += 3 }
        var declaredEncoding: String?
        var doctypeLine: Int?
        while true {
            scanner.skipWhitespace()
            if scanner.starts(with: Array("<?".utf8)) {
                let isDeclaration = scanner.starts(with: Array("<?xml".utf8)) && scanner.index == declarationStart(bytes)
                let start = scanner.index
                guard scanner.skip(past: Array("?>".utf8)) else { return nil }
                if isDeclaration { declaredEncoding = pseudoAttribute("encoding", in: bytes[start..<scanner.index]) }
            } else if scanner.starts(with: Array("<!--".utf8)) {
                guard scanner.skip(past: Array("-->".utf8)) else { return nil }
            } else if scanner.starts(with: Array("<!DOCTYPE".utf8)) {
                doctypeLine = doctypeLine ?? scanner.line
                guard scanner.skipDoctype() else { return nil }
            } else if scanner.starts(with: Array("<".utf8)) {
                break
            } else {
                return nil
            }
        }
        let rootLine = scanner.line
        scanner.index += 1
        guard let rootName = scanner.name() else { return nil }
        guard let attributes = scanner.attributes() else { return nil }
        let prefix = rootName.firstIndex(of: ":").map { String(rootName[..<$0]) }
        let namespace = attributes.list.first { $0.name == (prefix.map { "xmlns:" + $0 } ?? "xmlns") }?.value
        var prolog = CamtProlog(declaredEncoding: declaredEncoding, doctypeLine: doctypeLine, rootName: rootName,
                                rootLine: rootLine, namespace: namespace, firstChildName: nil)
        if namespace == nil, !attributes.selfClosing {
            prolog.firstChildName = scanner.firstChildElementName().map { String(localName($0)) }
        }
        return prolog
    }

    /// Where an XML declaration has to start: the first byte, after a UTF-8 byte-order mark.
    private static func declarationStart(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// `name="value"` (or single quotes) inside an XML declaration.
    private static func pseudoAttribute(_ name: String, in declaration: ArraySlice<UInt8>) -> String? {
        let pattern = Array(name.utf8)
        guard let found = declaration.indices.first(where: { declaration[$0...].starts(with: pattern) }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var rest = declaration[(found + pattern.count)...].drop(while: isSpace)
        guard rest.first == UInt8(ascii: "=") else { return nil }
        rest = rest.dropFirst().drop(while: isSpace)
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else { return nil }
        return String(decoding: rest[..<close], as: UTF8.self)
    }
}

/// A cursor over bytes that counts lines (LF, CR and CRLF each end one), bounded by `end`.
private struct ByteScanner {
    let bytes: [UInt8]
    let end: Int
    var index = 0
    var line = 1

    init(bytes: [UInt8], end: Int) {
        self.bytes = bytes
        self.end = end
    }

    func starts(with pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= end else { return false }
        for (offset, byte) in pattern.enumerated() where bytes[index + offset] != byte { return false }
        return true
    }

    var current: UInt8? { index < end ? bytes[index] : nil }

    /// Moves one byte on, counting a line end.
    mutating func advance() {
        guard index < end else { return }
        let byte = bytes[index]
        if byte == 0x0A || (byte == 0x0D && (index + 1 >= end || bytes[index + 1] != 0x0A)) { line += 1 }
        index += 1
    }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    /// Moves past the next `pattern`; false when it does not occur before `end`.
    mutating func skip(past pattern: [UInt8]) -> Bool {
        while index < end {
            if starts(with: pattern) {
                for _ in pattern { advance() }
                return true
            }
            advance()
        }
        return false
    }

    /// Moves past a DOCTYPE declaration, its internal subset (`[…]`) included.
    mutating func skipDoctype() -> Bool {
        var inSubset = false
        var quote: UInt8?
        while let byte = current {
            advance()
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">"), !inSubset {
                return true
            }
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"))
    }

    /// An element or attribute name; `nil` when there is none here.
    mutating func name() -> String? {
        let start = index
        while let byte = current, Self.isNameByte(byte) { advance() }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// The attributes of a start tag up to its `>` (after which the scanner stands); `nil` when
    /// the tag is malformed or runs past `end`.
    mutating func attributes() -> (list: [(name: String, value: String)], selfClosing: Bool)? {
        var list: [(name: String, value: String)] = []
        while true {
            skipWhitespace()
            guard let byte = current else { return nil }
            if byte == UInt8(ascii: ">") {
                advance()
                return (list, false)
            }
            if starts(with: Array("/>".utf8)) {
                advance()
                advance()
                return (list, true)
            }
            guard let name = name() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: "=") else { return nil }
            advance()
            skipWhitespace()
            guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            advance()
            let start = index
            while let value = current, value != quote { advance() }
            guard current == quote else { return nil }
            list.append((name, String(decoding: bytes[start..<index], as: UTF8.self)))
            advance()
        }
    }

    /// The name of the next element start tag, past text, comments and processing instructions.
    mutating func firstChildElementName() -> String? {
        while index < end {
            if starts(with: Array("<!--".utf8)) {
                guard skip(past: Array("-->".utf8)) else { return nil }
            } else if starts(with: Array("<?".utf8)) {
                guard skip(past: Array("?>".utf8)) else { return nil }
            } else if current == UInt8(ascii: "<") {
                advance()
                guard let byte = current, byte != UInt8(ascii: "/"), byte != UInt8(ascii: "!") else { return nil }
                return name()
            } else {
                advance()
            }
        }
        return nil
    }
}
