// The first pass over an MT940/MT942 file: its lines become messages, each a list of tagged fields
// (`:61:` and its text, continuation lines included). What the fields mean is read later
// (`MT940StatementBuilder`); this pass only knows where a message and a field start and end.

/// A stretch of one line that belongs to a field: the text after the tag on the tag's own line, or
/// a whole continuation line.
struct MT940Piece {
    /// 1-based line number.
    var line: Int
    /// 1-based column (in characters) where `range` starts.
    var column: Int
    /// The bytes of the piece in the file's UTF-8 text, without the line end.
    var range: Range<Int>
}

/// One tagged field: `:61:2401020102D12,50NTRFNONREF//B1` and any lines that continue it.
struct MT940Field {
    /// The tag between the colons: `20`, `61`, `60F`, `NS`.
    var tag: String
    /// The line of the tag.
    var line: Int
    /// The first piece is the rest of the tag's line (possibly empty); then each continuation line.
    var pieces: [MT940Piece]
}

/// One message: a statement (MT940/MT950) or an interim report (MT942).
struct MT940Message {
    /// Where it starts: its SWIFT header, else its first field.
    var line: Int
    /// `940`, `942`, `950`… from the application header `{2:I940…}` / `{2:O940…}`, when there is one.
    var declaredType: String?
    var fields: [MT940Field] = []
}

/// Splits a file's UTF-8 bytes into messages.
///
/// A message ends at a line `-` (alone, or `-}` closing SWIFT block 4, with the trailer `{5:…}`
/// after it or not), at a SWIFT header line (`{1:`, `{2:` or `{4:`), at a new `:20:` once the
/// current message has fields, and at the end of the file. A field starts with a tag at the start
/// of a line (`:NN:` or `:NNa:`, and `:NS:`, the non-SWIFT field some German banks add); other
/// lines continue the field before them. Lines before a message's first field (a bank's own
/// preamble such as `ABNANL2A` / `940`, or Rabobank's `:940:`) and blank lines are read past.
struct MT940Scanner {
    let bytes: [UInt8]
    private(set) var messages: [MT940Message] = []
    private var current: MT940Message?
    private var field: MT940Field?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads the whole file into `messages`.
    mutating func scan() {
        var index = 0
        var number = 0
        let count = bytes.count
        while index < count {
            number += 1
            let start = index
            while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            let end = index
            if index < count {
                index += (bytes[index] == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A) ? 2 : 1
            }
            handleLine(number, start..<end)
        }
        endMessage()
    }

    /// Blanks around a line, and the SOH (0x01) and ETX (0x03) that frame a message in files
    /// taken from a SWIFT link (mBank writes SOH alone on the first line and `-` ETX at the end).
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x01 || byte == 0x03 }

    private mutating func handleLine(_ number: Int, _ range: Range<Int>) {
        var last = range.upperBound
        while last > range.lowerBound, Self.isBlank(bytes[last - 1]) { last -= 1 }
        var first = range.lowerBound
        while first < last, Self.isBlank(bytes[first]) { first += 1 }
        guard first < last else { return }
        if bytes[first] == UInt8(ascii: "-"), first + 1 == last || bytes[first + 1] == UInt8(ascii: "}") {
            endMessage()
        } else if bytes[first] == UInt8(ascii: "{") {
            header(number, first..<last, lineStart: range.lowerBound)
        } else if let (tag, contentStart) = tag(at: range.lowerBound, end: range.upperBound) {
            startField(tag, line: number, column: contentStart - range.lowerBound + 1, range: contentStart..<range.upperBound)
        } else if field != nil {
            field?.pieces.append(MT940Piece(line: number, column: 1, range: range))
        }
        // else: a preamble line before a message's first field
    }

    /// The tag of a line starting at `start` (`:61:` → `61`) and where its content starts, if the
    /// line starts with a tag.
    private func tag(at start: Int, end: Int) -> (String, Int)? {
        guard start < end, bytes[start] == UInt8(ascii: ":") else { return nil }
        var index = start + 1
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        if index + 2 < end, bytes[index] == UInt8(ascii: "N"), bytes[index + 1] == UInt8(ascii: "S"),
           bytes[index + 2] == UInt8(ascii: ":") {
            return ("NS", index + 3)
        }
        guard index + 2 < end, isDigit(bytes[index]), isDigit(bytes[index + 1]) else { return nil }
        index += 2
        if bytes[index] >= UInt8(ascii: "A"), bytes[index] <= UInt8(ascii: "Z") { index += 1 }
        guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
        return (String(decoding: bytes[(start + 1)..<index], as: UTF8.self), index + 1)
    }

    /// A line starting with `{`: SWIFT's basic, application and user headers and the start of the
    /// text block (`{1:…}{2:I940…N}{3:{108:…}}{4:`) start a message; a trailer (`{5:…}`) is read past.
    private mutating func header(_ number: Int, _ range: Range<Int>, lineStart: Int) {
        let line = bytes[range]
        let application = find([0x7B, 0x32, 0x3A], in: line)  // {2:
        let text = find([0x7B, 0x34, 0x3A], in: line)  // {4:
        guard find([0x7B, 0x31, 0x3A], in: line) != nil || application != nil || text != nil else { return }
        if current.map({ !$0.fields.isEmpty }) ?? false || field != nil { endMessage() }
        if current == nil { current = MT940Message(line: number) }
        if let application, application + 7 <= range.upperBound {
            let direction = bytes[application + 3]
            let digits = bytes[(application + 4)..<(application + 7)]
            if direction == UInt8(ascii: "I") || direction == UInt8(ascii: "O"), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                current?.declaredType = String(decoding: digits, as: UTF8.self)
            }
        }
        // `{4::20:REF` — a field on the header's own line.
        if let text, let (tag, contentStart) = tag(at: text + 3, end: range.upperBound) {
            startField(tag, line: number, column: characterCount(lineStart..<contentStart) + 1, range: contentStart..<range.upperBound)
        }
    }

    private func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private func characterCount(_ range: Range<Int>) -> Int {
        var count = 0
        for index in range where bytes[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    private mutating func startField(_ tag: String, line: Int, column: Int, range: Range<Int>) {
        flushField()
        if tag == "20", current.map({ !$0.fields.isEmpty }) ?? false { endMessage() }
        if current == nil { current = MT940Message(line: line) }
        field = MT940Field(tag: tag, line: line, pieces: [MT940Piece(line: line, column: column, range: range)])
    }

    private mutating func flushField() {
        if let field { current?.fields.append(field) }
        field = nil
    }

    private mutating func endMessage() {
        flushField()
        if let current, !current.fields.isEmpty { messages.append(current) }
        current = nil
    }
}
