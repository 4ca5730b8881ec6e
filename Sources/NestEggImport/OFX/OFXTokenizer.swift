// OFX 1.x is SGML whose elements (leaves) need no end tag, OFX 2.x is XML: one tokenizer reads
// both. It turns the text into tags and text runs and, as it goes, works out which start tags are
// closed later, which an SGML reader without the DTD cannot know at the start tag.

/// One tag or text run of an OFX body.
struct OFXToken {
    enum Kind: UInt8 {
        case start, end, text
    }

    var kind: Kind
    var flags: UInt8 = 0
    /// The tag's number (`OFXTagNames`); 0 for text.
    var tag: UInt32
    /// 1-based line where the token starts (its first non-blank character, for text).
    var line: Int32
    /// Byte offsets in the body: the text without surrounding blanks, or the tag from `<` to `>`.
    var start: Int32
    var end: Int32

    /// A start tag whose end tag the file has: an aggregate, or an element written `<X>…</X>`.
    static let closed: UInt8 = 1
    /// A start tag directly followed by text: an element with a value.
    static let holdsText: UInt8 = 2
    /// An end tag that closes the element just before it (`<NAME>Shop</NAME>`), nothing else.
    static let closesElement: UInt8 = 4
    /// Text from a CDATA section: entities are not decoded.
    static let literal: UInt8 = 8

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
}

/// Tokenizes an OFX body (header, `<?…?>`, `<!…>` and comments are skipped). Errors are thrown
/// for what no reading can make sense of: an unterminated tag, an end tag that closes nothing, an
/// aggregate (`OFXElement.isAggregate`) left unclosed, the file ending inside an aggregate.
struct OFXTokenizer {
    private(set) var tokens: [OFXToken] = []
    private(set) var names = OFXTagNames()

    /// Start tags (token indices) without text, waiting for their end tag (SGML aggregates, XML
    /// elements) or for their parent's end tag (SGML elements written empty, without end tag).
    private var open: [Int] = []
    /// The start tag just read, before we know what follows it.
    private var pending: Int?
    /// The element whose text was just read: its end tag may follow (`<NAME>Shop</NAME>`).
    private var elementAwaitingEnd: UInt32?
    /// Which tag numbers have held text (`<TRNAMT>-5`): their end tags, where they close nothing,
    /// are read past.
    private var heldText: [Bool] = []

    private var line = 1
    private var lineStart = 0

    static func tokenize(_ body: UnsafeBufferPointer<UInt8>) throws(ImportProblem) -> OFXTokenizer {
        var tokenizer = OFXTokenizer()
        try tokenizer.run(body)
        return tokenizer
    }

    private mutating func run(_ body: UnsafeBufferPointer<UInt8>) throws(ImportProblem) {
        guard body.count < Int(Int32.max) else {
            throw ImportProblem(line: 1, "the file is larger than 2 GB; expected a bank statement")
        }
        var index = 0
        while index < body.count {
            if body[index] == UInt8(ascii: "<") {
                index = try readMarkup(body, at: index)
            } else {
                index = try readText(body, from: index)
            }
        }
        try finish()
    }

    // MARK: Reading

    /// Reads a text run up to the next `<`; records it when it is more than blanks.
    private mutating func readText(_ body: UnsafeBufferPointer<UInt8>, from start: Int) throws(ImportProblem) -> Int {
        var index = start
        var first = -1
        var last = -1
        var firstLine = line
        while index < body.count {
            let byte = body[index]
            if byte == UInt8(ascii: "<") { break }
            if byte == 0x0A || byte == 0x0D {
                countLineEnd(body, at: index)
            } else if byte != 0x20 && byte != 0x09 {
                if first < 0 {
                    first = index
                    firstLine = line
                }
                last = index
            }
            index += 1
        }
        if first >= 0 {
            try addText(OFXToken(kind: .text, tag: 0, line: Int32(firstLine), start: Int32(first), end: Int32(last + 1)))
        }
        return index
    }

    /// Reads what starts with `<` at `start`; returns the index after it.
    private mutating func readMarkup(_ body: UnsafeBufferPointer<UInt8>, at start: Int) throws(ImportProblem) -> Int {
        let next = start + 1 < body.count ? body[start + 1] : 0
        switch next {
        case UInt8(ascii: "?"):
            return try skip(body, from: start, past: Array("?>".utf8), what: "the processing instruction <?")
        case UInt8(ascii: "!"):
            if matches(body, at: start, Array("<!--".utf8)) {
                return try skip(body, from: start, past: Array("-->".utf8), what: "the comment <!--")
            }
            if matches(body, at: start, Array("<![CDATA[".utf8)) {
                return try readCDATA(body, at: start)
            }
            return try skip(body, from: start, past: [UInt8(ascii: ">")], what: "the declaration <!")
        case UInt8(ascii: "/"):
            return try readEndTag(body, at: start)
        default:
            return try readStartTag(body, at: start)
        }
    }

    private mutating func readStartTag(_ body: UnsafeBufferPointer<UInt8>, at start: Int) throws(ImportProblem) -> Int {
        let tagLine = line
        let tagLineStart = lineStart
        let (tag, afterName) = try readName(body, from: start + 1, tagStart: start)
        // Attributes (OFX has none) are read past; `/>` ends an empty XML element.
        var index = afterName
        var lastNonBlank: UInt8 = 0
        while index < body.count, body[index] != UInt8(ascii: ">"), body[index] != UInt8(ascii: "<") {
            let byte = body[index]
            if byte == 0x0A || byte == 0x0D { countLineEnd(body, at: index) }
            if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { lastNonBlank = byte }
            index += 1
        }
        let selfClosing = lastNonBlank == UInt8(ascii: "/")
        guard index < body.count, body[index] == UInt8(ascii: ">") else {
            throw problem(at: start, line: tagLine, lineStart: tagLineStart, "the tag <\(names.name(of: tag)) has no closing \">\"; expected <\(names.name(of: tag))>")
        }
        let token = OFXToken(kind: .start, tag: tag, line: Int32(tagLine), start: Int32(start), end: Int32(index + 1))
        if tag == Self.ledgerBalanceTag { try closeTransactionListLeftOpen(before: token) }
        addStart(token)
        if selfClosing {
            try addEnd(OFXToken(kind: .end, tag: tag, line: Int32(tagLine), start: Int32(start), end: Int32(index + 1)))
        }
        return index + 1
    }

    private mutating func readEndTag(_ body: UnsafeBufferPointer<UInt8>, at start: Int) throws(ImportProblem) -> Int {
        let tagLine = line
        let tagLineStart = lineStart
        let (tag, afterName) = try readName(body, from: start + 2, tagStart: start)
        var index = afterName
        while index < body.count, body[index] == 0x20 || body[index] == 0x09 || body[index] == 0x0A || body[index] == 0x0D {
            if body[index] == 0x0A || body[index] == 0x0D { countLineEnd(body, at: index) }
            index += 1
        }
        guard index < body.count, body[index] == UInt8(ascii: ">") else {
            throw problem(at: start, line: tagLine, lineStart: tagLineStart, "the end tag </\(names.name(of: tag)) has no closing \">\"; expected </\(names.name(of: tag))>")
        }
        let token = OFXToken(kind: .end, tag: tag, line: Int32(tagLine), start: Int32(start), end: Int32(index + 1))
        if tag == Self.statementTag || tag == Self.cardStatementTag { try closeTransactionListLeftOpen(before: token) }
        try addEnd(token)
        return index + 1
    }

    /// The tag number of a known element (its place in `OFXElement`, as `OFXTagNames` numbers them).
    private static func number(of element: OFXElement) -> UInt32 {
        UInt32(OFXElement.allCases.firstIndex(of: element) ?? OFXElement.allCases.count)
    }

    /// The numbers of the tags that end a transaction list left open, worked out once.
    private static let ledgerBalanceTag = number(of: .ledgerBalance)
    private static let statementTag = number(of: .statement)
    private static let cardStatementTag = number(of: .cardStatement)
    private static let transactionListTag = number(of: .transactionList)

    /// Some banks (Nubank's credit-card downloads) never write `</BANKTRANLIST>`. When the
    /// statement's balance (`<LEDGERBAL>`) or its end tag comes while the transaction list is the
    /// innermost open aggregate, the list ends there, as if `</BANKTRANLIST>` stood before `token`.
    /// Only the innermost few open tags are looked at (empty elements left open lie above the
    /// list), so that a file of many such tags costs no more than linear time.
    private mutating func closeTransactionListLeftOpen(before token: OFXToken) throws(ImportProblem) {
        let candidates = (pending.map { [$0] } ?? []) + open.suffix(16).reversed()
        guard let innermost = candidates.first(where: { OFXElement(number: tokens[$0].tag)?.isAggregate ?? false }),
              tokens[innermost].tag == Self.transactionListTag else { return }
        try addEnd(OFXToken(kind: .end, tag: Self.transactionListTag, line: token.line, start: token.start, end: token.start))
    }

    /// Reads a tag name (letters, digits, `.`, `_`, `-`, `:`) starting at `from`.
    private mutating func readName(_ body: UnsafeBufferPointer<UInt8>, from: Int, tagStart: Int) throws(ImportProblem) -> (UInt32, Int) {
        var index = from
        while index < body.count, Self.isNameByte(body[index]) { index += 1 }
        guard index > from else {
            let found = from < body.count ? "\"" + String(decoding: [body[from]], as: UTF8.self) + "\"" : "the end of the file"
            throw problem(at: tagStart, line: line, lineStart: lineStart, "\"<\" is followed by \(found); expected a tag name like <STMTTRN> (write a \"<\" in text as &lt;)")
        }
        let tag = names.number(of: body[from..<index])
        return (tag, index)
    }

    private mutating func readCDATA(_ body: UnsafeBufferPointer<UInt8>, at start: Int) throws(ImportProblem) -> Int {
        let cdataLine = line
        let contentStart = start + 9
        let after = try skip(body, from: start, past: Array("]]>".utf8), what: "the CDATA section <![CDATA[")
        var token = OFXToken(kind: .text, tag: 0, line: Int32(cdataLine), start: Int32(contentStart), end: Int32(after - 3))
        token.flags = OFXToken.literal
        try addText(token)
        return after
    }

    /// Skips from `start` past the first `terminator`, counting lines.
    private mutating func skip(_ body: UnsafeBufferPointer<UInt8>, from start: Int, past terminator: [UInt8], what: String) throws(ImportProblem) -> Int {
        let startLine = line
        let startLineStart = lineStart
        var index = start + 1
        while index < body.count {
            if body[index] == terminator[0], matches(body, at: index, terminator) {
                return index + terminator.count
            }
            if body[index] == 0x0A || body[index] == 0x0D { countLineEnd(body, at: index) }
            index += 1
        }
        throw problem(at: start, line: startLine, lineStart: startLineStart, "\(what) never ends; expected \"\(String(decoding: terminator, as: UTF8.self))\"")
    }

    private func matches(_ body: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= body.count else { return false }
        for offset in 0..<pattern.count where body[index + offset] != pattern[offset] { return false }
        return true
    }

    /// Counts a line end at `index`: LF, CR, or CRLF (counted at its LF).
    private mutating func countLineEnd(_ body: UnsafeBufferPointer<UInt8>, at index: Int) {
        if body[index] == 0x0D, index + 1 < body.count, body[index + 1] == 0x0A { return }
        line += 1
        lineStart = index + 1
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    // MARK: Structure

    private mutating func addStart(_ token: OFXToken) {
        if let pending { open.append(pending) }
        tokens.append(token)
        pending = tokens.count - 1
        elementAwaitingEnd = nil
    }

    private mutating func addText(_ token: OFXToken) throws(ImportProblem) {
        if let pending {
            if let element = OFXElement(number: tokens[pending].tag), element.isAggregate {
                throw ImportProblem(line: Int(token.line), element: element.rawValue,
                                    "<\(element.rawValue)> is followed by text; expected the elements it holds, each in a tag")
            }
            tokens[pending].flags |= OFXToken.holdsText
            elementAwaitingEnd = tokens[pending].tag
            let tag = Int(tokens[pending].tag)
            if tag >= heldText.count { heldText += Array(repeating: false, count: tag + 1 - heldText.count) }
            heldText[tag] = true
            self.pending = nil
        } else {
            elementAwaitingEnd = nil
        }
        tokens.append(token)
    }

    private mutating func addEnd(_ token: OFXToken) throws(ImportProblem) {
        if let pending {
            open.append(pending)
            self.pending = nil
        }
        var token = token
        if elementAwaitingEnd == token.tag {
            elementAwaitingEnd = nil
            token.flags |= OFXToken.closesElement
            tokens.append(token)
            return
        }
        elementAwaitingEnd = nil
        // The nearest open start tag of the same name; what lies above it was never closed.
        var match = open.count - 1
        while match >= 0, tokens[open[match]].tag != token.tag { match -= 1 }
        // Files passed through an SGML-to-XML tool without the DTD close each element with text
        // late, after the elements that follow it (`<TRNAMT>-5 <FITID>1 </FITID></TRNAMT>`):
        // such an end tag of an element with a value, closing nothing, is read past.
        if match < 0, Int(token.tag) < heldText.count, heldText[Int(token.tag)], !(OFXElement(number: token.tag)?.isAggregate ?? false) {
            return
        }
        guard match >= 0 else {
            let name = names.name(of: token.tag)
            throw problem(at: Int(token.start), line: Int(token.line), lineStart: lineStart, "</\(name)> closes nothing: no <\(name)> is open here")
        }
        for unclosed in open[(match + 1)...] {
            try requireClosable(unclosed, closedBy: token)
        }
        tokens[open[match]].flags |= OFXToken.closed
        open.removeSubrange(match...)
        tokens.append(token)
    }

    /// An aggregate may not be left open by its parent's end tag.
    private func requireClosable(_ index: Int, closedBy end: OFXToken) throws(ImportProblem) {
        let start = tokens[index]
        guard let element = OFXElement(number: start.tag), element.isAggregate else { return }
        let outer = names.name(of: end.tag)
        throw ImportProblem(line: Int(start.line), element: element.rawValue,
                            "<\(element.rawValue)> is not closed: </\(outer)> at line \(end.line) comes first; expected </\(element.rawValue)> before it")
    }

    private mutating func finish() throws(ImportProblem) {
        if let pending { open.append(pending) }
        pending = nil
        // The innermost unclosed aggregate says best where the file stops making sense.
        for index in open.reversed() {
            let start = tokens[index]
            if let element = OFXElement(number: start.tag), element.isAggregate {
                throw ImportProblem(line: Int(start.line), element: element.rawValue,
                                    "the file ends inside <\(element.rawValue)> (opened here); expected </\(element.rawValue)> — is the download cut short?")
            }
        }
    }

    /// A problem at byte `offset` of `line`, which starts at byte `lineStart` (the column is
    /// counted in bytes, which is characters for the ASCII of tags).
    private func problem(at offset: Int, line: Int, lineStart: Int, _ message: String) -> ImportProblem {
        ImportProblem(line: line, column: offset >= lineStart ? offset - lineStart + 1 : nil, message)
    }
}
