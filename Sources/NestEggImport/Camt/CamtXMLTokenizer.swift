// A byte-level XML tokenizer for what camt files are: elements, attributes, text, the five
// predefined entities and character references, CDATA sections, comments and processing
// instructions, in UTF-8, ISO-8859-1 or Windows-1252. It checks what well-formedness needs
// (one root, matching end tags, quoted attributes given once, no `<` or stray `&` in text, only
// characters XML allows, nothing left open at the end) and says where it is wrong. A DOCTYPE is
// refused: without one there are no other entities, so nothing is ever expanded.
//
// Nothing is made a String while tokenizing: names stay byte ranges of the input, and text is
// decoded only while the reader asks for it (`beginCapture`), into one reused byte buffer. Every
// loop moves forward over the input, and open elements are an explicit stack, so the cost is
// linear and input nesting never recurses.

/// The encodings a camt file's text can be in.
enum CamtEncoding: Sendable, Equatable {
    case utf8, latin1, windows1252

    /// The encoding an XML declaration names (`UTF-8`, `ISO-8859-1`, `windows-1252` and their
    /// other spellings; US-ASCII is read as the UTF-8 it is a part of); `nil` for any other.
    init?(declared name: String) {
        let key = String(name.uppercased().unicodeScalars.filter { ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        switch key {
        case "UTF8", "USASCII", "ASCII": self = .utf8
        case "ISO88591", "LATIN1", "ISOLATIN1", "L1", "88591", "ISOIR100", "CP819", "IBM819": self = .latin1
        case "WINDOWS1252", "CP1252", "1252", "MSANSI", "XCP1252": self = .windows1252
        default: return nil
        }
    }
}

/// An element's local name as it stands in the input (`Ntry` of `ns2:Ntry`), compared with the
/// names the reader knows byte by byte.
struct CamtName {
    let start: UnsafePointer<UInt8>
    let count: Int

    static func == (name: CamtName, known: StaticString) -> Bool {
        guard known.utf8CodeUnitCount == name.count else { return false }
        let bytes = known.utf8Start
        for offset in 0..<name.count where bytes[offset] != name.start[offset] { return false }
        return true
    }

    /// Lets a `switch` over a name have string literal cases.
    static func ~= (known: StaticString, name: CamtName) -> Bool { name == known }

    /// The name as text, for messages and positions.
    var string: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }
}

/// One attribute of the last start tag: byte offsets of its name and of its value between the quotes.
struct CamtXMLAttribute {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
}

/// Reads an XML document from bytes, one tag at a time (`next()`).
struct CamtXMLTokenizer {
    /// What `next()` found.
    enum Event {
        /// A start tag (`<Ntry>`; `<BkTxCd/>` when `selfClosing`): `localName`, `qualifiedName`,
        /// `tagLine`, `tagColumn` and `attribute(_:)` describe it.
        case start(selfClosing: Bool)
        /// The end tag of the innermost open element.
        case end
        /// The end of a well-formed document.
        case finished
    }

    /// A hard bound on open elements, whatever the reader allows: the stack of names stays small.
    static let maximumDepth = 1024
    /// More attributes than this on one tag are checked for duplicates by hash, not pairwise.
    private static let pairwiseAttributeLimit = 8

    private let base: UnsafePointer<UInt8>
    private let end: Int
    let encoding: CamtEncoding
    /// Whether bytes that are not UTF-8 (in `.utf8`) are to be reported by `notUTF8` rather than
    /// only as a problem: a document that declares no encoding is read again as Windows-1252.
    private let fallbackAllowed: Bool
    /// Set when a problem was thrown because the bytes are not UTF-8.
    private(set) var notUTF8 = false

    private var index: Int
    /// Where the XML declaration may stand: the first byte, after a UTF-8 byte-order mark.
    private let declarationOffset: Int
    /// The line `index` is on (LF, CR and CRLF each end one), and the offset that line starts at.
    private(set) var line = 1
    private var lineStart = 0

    // The last start tag.
    private var tagStart = 0
    private(set) var tagLine = 1
    private var tagLineStart = 0
    private var nameStart = 0
    private var localStart = 0
    private var nameEnd = 0
    /// The attributes of the last start tag: the first `attributeCount` (the array is reused).
    private var attributes: [CamtXMLAttribute] = []
    private var attributeCount = 0
    private var attributeHashes: Set<Int> = []

    /// The qualified names of the open elements, as (start, end) offsets; the root first.
    private var open: [(start: Int, end: Int)] = []
    private var rootSeen = false
    private var rootClosed = false

    // The text being collected for the reader: one plain stretch of the input (`captureStart`,
    // `captureEnd`; -1 when none yet) as long as it is that, else decoded into `captured`.
    private var capturing = false
    private var captureStart = -1
    private var captureEnd = -1
    private var captureInBuffer = false
    private var captured: [UInt8] = []

    /// Reads the `count` bytes at `base` (which outlive the tokenizer).
    init(_ base: UnsafePointer<UInt8>, count: Int, encoding: CamtEncoding, fallbackAllowed: Bool) {
        self.base = base
        end = count
        self.encoding = encoding
        self.fallbackAllowed = fallbackAllowed
        let bom = count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF
        index = bom ? 3 : 0
        declarationOffset = index
        lineStart = index
        open.reserveCapacity(32)
        attributes.reserveCapacity(8)
        captured.reserveCapacity(256)
    }

    // MARK: The last start tag

    var localName: CamtName { CamtName(start: base + localStart, count: nameEnd - localStart) }
    var qualifiedName: String { text(nameStart, nameEnd) }
    /// 1-based, counting bytes.
    var tagColumn: Int { tagStart - tagLineStart + 1 }

    /// The value of the attribute named `name` exactly (no prefix), entities decoded and
    /// whitespace characters made spaces (XML's attribute-value normalisation); `nil` when the tag
    /// has none.
    func attribute(_ name: StaticString) -> String? {
        for attribute in attributes[..<attributeCount] {
            let attributeName = CamtName(start: base + attribute.nameStart, count: attribute.nameEnd - attribute.nameStart)
            guard attributeName == name else { continue }
            var value: [UInt8] = []
            value.reserveCapacity(attribute.valueEnd - attribute.valueStart)
            var position = attribute.valueStart
            var runStart = position
            while position < attribute.valueEnd {
                let byte = base[position]
                if byte == UInt8(ascii: "&"), let (scalar, after) = entity(at: position) {
                    Self.append(base, runStart, position, encoding, spaces: true, to: &value)
                    Self.appendUTF8(scalar, to: &value)
                    position = after
                    runStart = after
                } else {
                    position += 1
                }
            }
            Self.append(base, runStart, attribute.valueEnd, encoding, spaces: true, to: &value)
            return String(decoding: value, as: UTF8.self)
        }
        return nil
    }

    // MARK: Text for the reader

    /// Collects the text (character data, references decoded, CDATA) from here on, until
    /// `endCapture`; what was collected before is dropped.
    mutating func beginCapture() {
        capturing = true
        captureStart = -1
        captureInBuffer = false
    }

    mutating func endCapture() { capturing = false }

    /// The text collected, without the XML whitespace around it.
    var capturedText: String {
        if captureInBuffer {
            return captured.withUnsafeBufferPointer { Self.trimmedText($0.baseAddress, 0, $0.count) }
        }
        guard captureStart >= 0 else { return "" }
        return Self.trimmedText(base, captureStart, captureEnd)
    }

    private static func trimmedText(_ bytes: UnsafePointer<UInt8>?, _ start: Int, _ stop: Int) -> String {
        guard let bytes else { return "" }
        var first = start
        var last = stop
        while first < last, isSpace(bytes[first]) { first += 1 }
        while last > first, isSpace(bytes[last - 1]) { last -= 1 }
        return String(decoding: UnsafeBufferPointer(start: bytes + first, count: last - first), as: UTF8.self)
    }

    /// Collects the characters of `start..<stop` of the input.
    private mutating func captureRaw(_ start: Int, _ stop: Int) {
        guard stop > start else { return }
        if !captureInBuffer {
            if captureStart < 0, Self.isPlain(base, start, stop, encoding) {
                captureStart = start
                captureEnd = stop
                return
            }
            moveCaptureToBuffer()
        }
        Self.append(base, start, stop, encoding, spaces: false, to: &captured)
    }

    /// Collects the character of a reference.
    private mutating func captureScalar(_ scalar: UInt32) {
        if !captureInBuffer { moveCaptureToBuffer() }
        Self.appendUTF8(scalar, to: &captured)
    }

    private mutating func moveCaptureToBuffer() {
        captured.removeAll(keepingCapacity: true)
        if captureStart >= 0 {
            captured.append(contentsOf: UnsafeBufferPointer(start: base + captureStart, count: captureEnd - captureStart))
        }
        captureInBuffer = true
    }

    // MARK: Tokens

    /// The next start or end tag, past text, comments, CDATA and processing instructions; `.finished`
    /// at the end of a well-formed document.
    mutating func next() throws(ImportProblem) -> Event {
        while true {
            if open.isEmpty { try skipOutsideRoot() } else { try scanText() }
            guard index < end else { return try finish() }
            // base[index] is "<".
            guard index + 1 < end else { throw problem(at: index, "the file ends after a '<'; expected a tag") }
            switch base[index + 1] {
            case UInt8(ascii: "/"): return try endTag()
            case UInt8(ascii: "?"): try processingInstruction()
            case UInt8(ascii: "!"): try markupDeclaration()
            default: return try startTag()
            }
        }
    }

    /// Whitespace before or after the root element, up to the next `<`.
    private mutating func skipOutsideRoot() throws(ImportProblem) {
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "<") { return }
            guard Self.isSpace(byte) else {
                let place = rootClosed ? "after the root element" : "before the root element"
                throw problem(at: index, "text \(place) (\(describe(index))); an XML document's content is inside its one root element")
            }
            newline(byte, at: index)
            index += 1
        }
    }

    /// Character data inside the root, up to the next `<`: checked (characters, references) and,
    /// while capturing, decoded into `captured`.
    private mutating func scanText() throws(ImportProblem) {
        var position = index
        var runStart = position
        while position < end {
            let byte = base[position]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") {
                position += 1
                continue
            }
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                guard let (scalar, after) = entity(at: position) else { throw badReference(at: position) }
                if capturing {
                    captureRaw(runStart, position)
                    captureScalar(scalar)
                }
                position = after
                runStart = after
                continue
            }
            position = try character(at: position)
        }
        if capturing { captureRaw(runStart, position) }
        index = position
    }

    /// Checks the character at `position` that is not printable ASCII (a line end, a tab, a
    /// control character, a non-ASCII byte) and counts a line end; the offset after it.
    @inline(__always)
    private mutating func character(at position: Int) throws(ImportProblem) -> Int {
        let byte = base[position]
        if byte < 0x20 {
            guard byte == 0x0A || byte == 0x0D || byte == 0x09 else {
                throw problem(at: position, "the control character U+\(Self.hex(UInt32(byte))), which XML does not allow")
            }
            newline(byte, at: position)
            return position + 1
        }
        if byte < 0x80 || encoding != .utf8 { return position + 1 }
        let length = utf8Length(at: position)
        guard length > 0 else {
            notUTF8 = fallbackAllowed
            throw problem(at: position, "bytes that are not UTF-8 (0x\(Self.hex(UInt32(byte)))), or a character XML does not allow, in a document read as UTF-8; expected the encoding its XML declaration names")
        }
        return position + length
    }

    /// Counts the line end `byte` at `position` is, if it is one (a CR followed by LF is counted at the LF).
    @inline(__always)
    private mutating func newline(_ byte: UInt8, at position: Int) {
        if byte == 0x0A || (byte == 0x0D && (position + 1 >= end || base[position + 1] != 0x0A)) {
            line += 1
            lineStart = position + 1
        }
    }

    /// The length of the UTF-8 sequence of a character XML allows at `position` (its first byte
    /// 0x80 or more); 0 when there is none.
    private func utf8Length(at position: Int) -> Int {
        let lead = base[position]
        func continuation(_ offset: Int) -> UInt8? {
            guard position + offset < end else { return nil }
            let byte = base[position + offset]
            return byte & 0xC0 == 0x80 ? byte : nil
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) == nil ? 0 : 2
        case 0xE0...0xEF:
            guard let second = continuation(1), let third = continuation(2) else { return 0 }
            if lead == 0xE0, second < 0xA0 { return 0 }  // overlong
            if lead == 0xED, second >= 0xA0 { return 0 }  // a surrogate
            if lead == 0xEF, second == 0xBF, third >= 0xBE { return 0 }  // U+FFFE, U+FFFF: no XML characters
            return 3
        case 0xF0...0xF4:
            guard let second = continuation(1), continuation(2) != nil, continuation(3) != nil else { return 0 }
            if lead == 0xF0, second < 0x90 { return 0 }  // overlong
            if lead == 0xF4, second >= 0x90 { return 0 }  // beyond U+10FFFF
            return 4
        default:
            return 0
        }
    }

    // MARK: Tags

    private mutating func startTag() throws(ImportProblem) -> Event {
        let start = index
        guard !rootClosed else {
            throw problem(at: start, "an element after the root element has ended; an XML document has one root element")
        }
        var position = start + 1
        guard Self.isNameStart(base[position]) else {
            throw problem(at: start, "a '<' not followed by an element name (\(describe(position))); write &lt; for a '<' in text")
        }
        let (afterName, colon) = try scanName(from: position)
        tagStart = start
        tagLine = line
        tagLineStart = lineStart
        nameStart = position
        nameEnd = afterName
        localStart = colon.map { $0 + 1 } ?? position
        position = afterName
        attributeCount = 0
        var selfClosing = false
        while true {
            let spaced = skipSpaces(from: &position)
            guard position < end else { throw unterminated(start, "the start tag <\(qualifiedName)") }
            let byte = base[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard position + 1 < end, base[position + 1] == UInt8(ascii: ">") else {
                    throw problem(at: position, "a '/' in the start tag <\(qualifiedName)> not followed by '>'")
                }
                position += 2
                selfClosing = true
                break
            }
            guard Self.isNameStart(byte) else {
                throw problem(at: position, "\(describe(position)) in the start tag <\(qualifiedName)>; expected an attribute, '>' or '/>'")
            }
            guard spaced else {
                throw problem(at: position, "an attribute of <\(qualifiedName)> not separated from what is before it by a space")
            }
            try attribute(from: &position)
        }
        index = position
        if !selfClosing {
            guard open.count < Self.maximumDepth else {
                throw problem(at: start, "elements nest deeper than \(Self.maximumDepth) levels")
            }
            open.append((nameStart, nameEnd))
        }
        if !rootSeen {
            rootSeen = true
            rootClosed = selfClosing
        }
        return .start(selfClosing: selfClosing)
    }

    /// One `name="value"` (or `'value'`) of a start tag, its value checked; `position` is moved past it.
    private mutating func attribute(from position: inout Int) throws(ImportProblem) {
        let attributeStart = position
        let (attributeEnd, _) = try scanName(from: position)
        position = attributeEnd
        _ = skipSpaces(from: &position)
        guard position < end else { throw unterminated(tagStart, "the start tag <\(qualifiedName)") }
        guard base[position] == UInt8(ascii: "=") else {
            throw problem(at: position, "the attribute \(text(attributeStart, attributeEnd)) of <\(qualifiedName)> has no value; expected \(text(attributeStart, attributeEnd))=\"…\"")
        }
        position += 1
        _ = skipSpaces(from: &position)
        guard position < end else { throw unterminated(tagStart, "the start tag <\(qualifiedName)") }
        let quote = base[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw problem(at: position, "the value of the attribute \(text(attributeStart, attributeEnd)) of <\(qualifiedName)> is not in quotes; expected \(text(attributeStart, attributeEnd))=\"…\"")
        }
        position += 1
        let valueStart = position
        while true {
            guard position < end else { throw unterminated(tagStart, "the start tag <\(qualifiedName)") }
            let byte = base[position]
            if byte == quote { break }
            if byte == UInt8(ascii: "<") {
                throw problem(at: position, "a '<' in the value of the attribute \(text(attributeStart, attributeEnd)) of <\(qualifiedName)>; write &lt;")
            }
            if byte == UInt8(ascii: "&") {
                guard let (_, after) = entity(at: position) else { throw badReference(at: position) }
                position = after
            } else if byte >= 0x20, byte < 0x80 {
                position += 1
            } else {
                position = try character(at: position)
            }
        }
        let found = CamtXMLAttribute(nameStart: attributeStart, nameEnd: attributeEnd, valueStart: valueStart, valueEnd: position)
        if attributeCount < attributes.count { attributes[attributeCount] = found } else { attributes.append(found) }
        attributeCount += 1
        position += 1
        if isDuplicateAttribute() {
            throw problem(at: attributeStart, "the attribute \(text(attributeStart, attributeEnd)) is given twice in <\(qualifiedName)>")
        }
    }

    /// Whether the attribute just added has the name of one before it on the tag.
    private mutating func isDuplicateAttribute() -> Bool {
        let count = attributeCount
        guard count > 1 else { return false }
        let last = attributes[count - 1]
        if count <= Self.pairwiseAttributeLimit {
            return attributes[..<(count - 1)].contains { sameName($0, last) }
        }
        // Many attributes: a set of the names' hashes, so that a tag of thousands stays linear.
        if count == Self.pairwiseAttributeLimit + 1 {
            attributeHashes.removeAll(keepingCapacity: true)
            for attribute in attributes[..<(count - 1)] { attributeHashes.insert(nameHash(attribute)) }
        }
        let (inserted, _) = attributeHashes.insert(nameHash(last))
        if inserted { return false }
        return attributes[..<(count - 1)].contains { sameName($0, last) }
    }

    private func sameName(_ first: CamtXMLAttribute, _ second: CamtXMLAttribute) -> Bool {
        let length = first.nameEnd - first.nameStart
        guard second.nameEnd - second.nameStart == length else { return false }
        for offset in 0..<length where base[first.nameStart + offset] != base[second.nameStart + offset] { return false }
        return true
    }

    private func nameHash(_ attribute: CamtXMLAttribute) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: base + attribute.nameStart, count: attribute.nameEnd - attribute.nameStart))
        return hasher.finalize()
    }

    private mutating func endTag() throws(ImportProblem) -> Event {
        let start = index
        var position = start + 2
        guard position < end, Self.isNameStart(base[position]) else {
            throw problem(at: start, "a '</' not followed by an element name")
        }
        if let innermost = open.last {
            // The usual case first: `</Name>` exactly as the element opened.
            let after = position + (innermost.end - innermost.start)
            if after < end, base[after] == UInt8(ascii: ">"), sameBytes(innermost, (position, after)) {
                closeInnermost()
                index = after + 1
                return .end
            }
        }
        let (afterName, _) = try scanName(from: position)
        let name = (start: position, end: afterName)
        position = afterName
        _ = skipSpaces(from: &position)
        guard position < end else { throw unterminated(start, "the end tag </\(text(name.start, name.end))") }
        guard base[position] == UInt8(ascii: ">") else {
            throw problem(at: position, "\(describe(position)) in the end tag </\(text(name.start, name.end))>; expected '>'")
        }
        guard let innermost = open.last else {
            throw problem(at: start, "the end tag </\(text(name.start, name.end))> closes no open element")
        }
        guard sameBytes(innermost, name) else {
            throw problem(at: start, "the end tag </\(text(name.start, name.end))> does not match the start tag <\(text(innermost.start, innermost.end))>; elements must close in the order they opened")
        }
        closeInnermost()
        index = position + 1
        return .end
    }

    private mutating func closeInnermost() {
        open.removeLast()
        if open.isEmpty { rootClosed = true }
    }

    private func sameBytes(_ first: (start: Int, end: Int), _ second: (start: Int, end: Int)) -> Bool {
        let length = first.end - first.start
        guard second.end - second.start == length else { return false }
        for offset in 0..<length where base[first.start + offset] != base[second.start + offset] { return false }
        return true
    }

    /// The end of a name starting at `position` (a name-start byte), and the offset of its first colon.
    private mutating func scanName(from position: Int) throws(ImportProblem) -> (end: Int, colon: Int?) {
        var current = position
        var colon: Int?
        while current < end {
            let byte = base[current]
            if byte < 0x80 {
                guard Self.isNameByte(byte) else { break }
                if byte == UInt8(ascii: ":"), colon == nil { colon = current }
                current += 1
            } else {
                current = try character(at: current)
            }
        }
        return (current, colon)
    }

    /// Moves `position` past XML whitespace, counting lines; whether there was any.
    private mutating func skipSpaces(from position: inout Int) -> Bool {
        let start = position
        while position < end, Self.isSpace(base[position]) {
            newline(base[position], at: position)
            position += 1
        }
        return position > start
    }

    private mutating func finish() throws(ImportProblem) -> Event {
        if let innermost = open.last {
            throw problem(at: end, "the file ends before <\(text(innermost.start, innermost.end))> is closed (is the file cut short?)")
        }
        guard rootSeen else { throw problem(at: end, "the file holds no XML element") }
        return .finished
    }

    // MARK: Comments, CDATA, processing instructions

    /// `<?target …?>`: the XML declaration at the start of the file, or a processing instruction.
    private mutating func processingInstruction() throws(ImportProblem) {
        let start = index
        let targetStart = start + 2
        guard targetStart < end, Self.isNameStart(base[targetStart]) else {
            throw problem(at: start, "a '<?' not followed by a name; expected a processing instruction like <?xml version=\"1.0\"?>")
        }
        let (targetEnd, _) = try scanName(from: targetStart)
        let isXML = targetEnd - targetStart == 3 && (base[targetStart] | 0x20) == UInt8(ascii: "x")
            && (base[targetStart + 1] | 0x20) == UInt8(ascii: "m") && (base[targetStart + 2] | 0x20) == UInt8(ascii: "l")
        if isXML, start != declarationOffset {
            throw problem(at: start, "an XML declaration <?xml …?> that is not at the very start of the file")
        }
        index = try skip(past: "?>", from: targetEnd, opened: start, what: "the processing instruction <?\(text(targetStart, targetEnd))", capture: false)
    }

    /// `<!--`, `<![CDATA[` or `<!DOCTYPE` (refused).
    private mutating func markupDeclaration() throws(ImportProblem) {
        let start = index
        if startsWith("<!--", at: start) {
            index = try comment(from: start)
        } else if startsWith("<![CDATA[", at: start) {
            guard !open.isEmpty else { throw problem(at: start, "a CDATA section outside the root element") }
            index = try skip(past: "]]>", from: start + 9, opened: start, what: "the CDATA section", capture: capturing)
        } else if startsWith("<!DOCTYPE", at: start) {
            throw ImportProblem(line: line, column: start - lineStart + 1, element: "DOCTYPE",
                                "a camt document has no DOCTYPE; one with a document type declaration (and so perhaps entities) is not read")
        } else {
            throw problem(at: start, "a '<!' that starts no comment (<!--), CDATA section (<![CDATA[) or DOCTYPE")
        }
    }

    /// A comment's end: the first `--` in it must be its closing `-->`.
    private mutating func comment(from start: Int) throws(ImportProblem) -> Int {
        var position = start + 4
        while position < end {
            let byte = base[position]
            if byte == UInt8(ascii: "-"), position + 1 < end, base[position + 1] == UInt8(ascii: "-") {
                guard position + 2 < end else { break }
                guard base[position + 2] == UInt8(ascii: ">") else {
                    throw problem(at: position, "'--' inside a comment; a comment ends at the first '--', which must be followed by '>'")
                }
                return position + 3
            }
            position = byte >= 0x20 && byte < 0x80 ? position + 1 : try character(at: position)
        }
        throw unterminated(start, "the comment <!--")
    }

    /// The offset after the first `terminator` from `position` on, the characters before it
    /// checked (and collected when `capture`).
    private mutating func skip(past terminator: StaticString, from position: Int, opened start: Int, what: String,
                               capture: Bool) throws(ImportProblem) -> Int {
        let first = terminator.utf8Start[0]
        var current = position
        while current < end {
            let byte = base[current]
            if byte == first, startsWith(terminator, at: current) {
                if capture { captureRaw(position, current) }
                return current + terminator.utf8CodeUnitCount
            }
            current = byte >= 0x20 && byte < 0x80 ? current + 1 : try character(at: current)
        }
        throw unterminated(start, what)
    }

    private func startsWith(_ pattern: StaticString, at position: Int) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard position + count <= end else { return false }
        let bytes = pattern.utf8Start
        for offset in 0..<count where base[position + offset] != bytes[offset] { return false }
        return true
    }

    // MARK: References

    /// The character of the reference at `position` (`&`): `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`,
    /// `&#233;` or `&#xE9;` of a character XML allows; and the offset after its `;`. `nil` for
    /// anything else.
    private func entity(at position: Int) -> (UInt32, Int)? {
        let nameStart = position + 1
        var semicolon = nameStart
        // The longest reference read is `&#x0010FFFF;`; a longer one is refused, not searched on.
        while semicolon < end, semicolon - nameStart <= 12, base[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < end, base[semicolon] == UInt8(ascii: ";"), semicolon > nameStart else { return nil }
        let name = CamtName(start: base + nameStart, count: semicolon - nameStart)
        let scalar: UInt32
        switch name {
        case "amp": scalar = 0x26
        case "lt": scalar = 0x3C
        case "gt": scalar = 0x3E
        case "quot": scalar = 0x22
        case "apos": scalar = 0x27
        default:
            guard base[nameStart] == UInt8(ascii: "#"), let value = characterReference(nameStart + 1, semicolon) else { return nil }
            scalar = value
        }
        return (scalar, semicolon + 1)
    }

    /// The code point of `#233` or `#xE9` (given without the `#`), when XML allows it.
    private func characterReference(_ start: Int, _ stop: Int) -> UInt32? {
        var position = start
        let radix: UInt32
        if position < stop, base[position] == UInt8(ascii: "x") {
            radix = 16
            position += 1
        } else {
            radix = 10
        }
        guard position < stop else { return nil }
        var value: UInt32 = 0
        while position < stop {
            let byte = base[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit
            guard value <= 0x10FFFF else { return nil }
            position += 1
        }
        return Self.isXMLCharacter(value) ? value : nil
    }

    /// XML 1.0's `Char`: tab, line ends, and U+0020 to U+10FFFF without surrogates, U+FFFE and U+FFFF.
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private func badReference(at position: Int) -> ImportProblem {
        var stop = position + 1
        while stop < end, stop - position <= 12, base[stop] != UInt8(ascii: ";"), !Self.isSpace(base[stop]), base[stop] != UInt8(ascii: "<") {
            stop += 1
        }
        let isComplete = stop < end && base[stop] == UInt8(ascii: ";")
        if !isComplete {
            return problem(at: position, "a '&' that starts no reference; write &amp; for an ampersand")
        }
        let reference = text(position, stop + 1)
        if base[position + 1] == UInt8(ascii: "#") {
            return problem(at: position, "\(reference) is no character XML allows; expected a character reference like &#233; or &#xE9;")
        }
        return problem(at: position, "\(reference) is no entity XML defines (a camt document has no others); expected &amp; &lt; &gt; &quot; &apos; or a character reference like &#233;")
    }

    // MARK: Decoding

    /// Appends the characters of `start..<stop` as UTF-8: line ends made LF (XML's end-of-line
    /// handling), and with `spaces` tabs and line ends made spaces (attribute values); one-byte
    /// encodings transcoded.
    private static func append(_ base: UnsafePointer<UInt8>, _ start: Int, _ stop: Int, _ encoding: CamtEncoding, spaces: Bool,
                               to output: inout [UInt8]) {
        guard stop > start else { return }
        if isPlain(base, start, stop, encoding) {
            output.append(contentsOf: UnsafeBufferPointer(start: base + start, count: stop - start))
            return
        }
        var position = start
        while position < stop {
            let byte = base[position]
            position += 1
            switch byte {
            case 0x0D:
                if position < stop, base[position] == 0x0A { position += 1 }
                output.append(spaces ? 0x20 : 0x0A)
            case 0x09, 0x0A:
                output.append(spaces ? 0x20 : byte)
            case 0x80...0xFF where encoding != .utf8:
                Self.appendUTF8(encoding == .windows1252 ? Self.windows1252Scalar(byte) : UInt32(byte), to: &output)
            default:
                output.append(byte)
            }
        }
    }

    /// Whether `start..<stop` is UTF-8 as it stands: no line end or tab to translate, no byte of a
    /// one-byte encoding to transcode.
    private static func isPlain(_ base: UnsafePointer<UInt8>, _ start: Int, _ stop: Int, _ encoding: CamtEncoding) -> Bool {
        for position in start..<stop {
            let byte = base[position]
            if byte < 0x20 || (byte >= 0x80 && encoding != .utf8) { return false }
        }
        return true
    }

    /// The characters Windows-1252 has at 0x80–0x9F where Latin-1 has control characters (five
    /// codes unassigned: kept as the C1 control of the same number, as `ImportText` does).
    private static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        switch byte {
        case 0x80: 0x20AC
        case 0x82: 0x201A
        case 0x83: 0x0192
        case 0x84: 0x201E
        case 0x85: 0x2026
        case 0x86: 0x2020
        case 0x87: 0x2021
        case 0x88: 0x02C6
        case 0x89: 0x2030
        case 0x8A: 0x0160
        case 0x8B: 0x2039
        case 0x8C: 0x0152
        case 0x8E: 0x017D
        case 0x91: 0x2018
        case 0x92: 0x2019
        case 0x93: 0x201C
        case 0x94: 0x201D
        case 0x95: 0x2022
        case 0x96: 0x2013
        case 0x97: 0x2014
        case 0x98: 0x02DC
        case 0x99: 0x2122
        case 0x9A: 0x0161
        case 0x9B: 0x203A
        case 0x9C: 0x0153
        case 0x9E: 0x017E
        case 0x9F: 0x0178
        default: UInt32(byte)
        }
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (scalar >> 18)))
            output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: Bytes and problems

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// A byte a name may start with: a letter, `_`, `:` or the first byte of a non-ASCII character.
    @inline(__always)
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    /// An ASCII byte a name may go on with: those it may start with, digits, `-` and `.` (one bit
    /// per byte of 0–63 and of 64–127, so that a name byte costs a shift, not six comparisons).
    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        // 0x2D "-", 0x2E ".", 0x30–0x39 digits, 0x3A ":"
        let low: UInt64 = 0x07FF_6000_0000_0000
        // 0x41–0x5A "A"–"Z", 0x5F "_", 0x61–0x7A "a"–"z"
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        return byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : (high >> UInt64(byte & 63)) & 1 == 1
    }

    private func text(_ start: Int, _ stop: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: max(0, min(stop, end) - start)), as: UTF8.self)
    }

    /// What is at `position`, for a message: the character quoted, or "the end of the file".
    private func describe(_ position: Int) -> String {
        guard position < end else { return "the end of the file" }
        let byte = base[position]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "the byte 0x\(Self.hex(UInt32(byte)))"
    }

    /// Two hex digits for a byte, four or more for a code point.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        let width = value > 0xFF ? 4 : 2
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A well-formedness problem at `position`: mostly on the current line (the tokenizer has
    /// counted every line end before it), else counted afresh.
    private func problem(at position: Int, _ what: String) -> ImportProblem {
        let (line, column) = position >= lineStart ? (line, position - lineStart + 1) : lineOf(position)
        return ImportProblem(line: line, column: column, "the XML is not well-formed: \(what)")
    }

    /// A construct opened at `start` that the file ends inside of: said where it starts.
    private func unterminated(_ start: Int, _ what: String) -> ImportProblem {
        let startLine = lineOf(start)
        return ImportProblem(line: startLine.line, column: startLine.column,
                             "the XML is not well-formed: the file ends inside \(what) opened here (is the file cut short?)")
    }

    /// The line and byte column of an offset before `index`: counted afresh, for a message only.
    private func lineOf(_ offset: Int) -> (line: Int, column: Int) {
        var number = 1
        var start = 0
        var position = 0
        let stop = min(offset, end)
        while position < stop {
            let byte = base[position]
            if byte == 0x0A || (byte == 0x0D && (position + 1 >= end || base[position + 1] != 0x0A)) {
                number += 1
                start = position + 1
            }
            position += 1
        }
        return (number, offset - start + 1)
    }
}
