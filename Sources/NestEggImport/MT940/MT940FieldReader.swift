// Reading the content of one MT940/MT942 field, byte by byte, left to right: dates `YYMMDD`,
// amounts with a decimal comma, currency codes, marks. Each read either succeeds and moves on, or
// throws an `ImportProblem` at the field's line and the column where the reading stopped.

/// A cursor over the first line of a field's content (after the tag), with what it needs to
/// complain precisely.
struct MT940FieldReader {
    let bytes: [UInt8]
    let field: MT940Field
    /// How the tag is named in problems: `:61:`.
    let element: String
    /// The next byte to read.
    private(set) var position: Int
    /// The end of the first line's content, trailing blanks dropped.
    let end: Int
    private let start: Int
    private let startColumn: Int

    init(bytes: [UInt8], field: MT940Field) {
        self.bytes = bytes
        self.field = field
        element = ":\(field.tag):"
        let first = field.pieces.first ?? MT940Piece(line: field.line, column: 1, range: 0..<0)
        var end = first.range.upperBound
        while end > first.range.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        self.end = end
        start = first.range.lowerBound
        startColumn = first.column
        position = start
    }

    var atEnd: Bool { position >= end }
    var next: UInt8? { position < end ? bytes[position] : nil }

    /// The whole first line's content, to quote in a problem (long ones shortened).
    var quoted: String {
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return "\"" + (text.count > 60 ? text.prefix(57) + "…" : text) + "\""
    }

    /// A problem at the current position: `"<content>" <found>; expected <expected>`.
    func problem(_ message: String) -> ImportProblem {
        var column = startColumn
        for index in start..<min(position, end) where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return ImportProblem(line: field.line, column: column, element: element, "\(quoted) \(message)")
    }

    /// Exactly `count` ASCII digits as a number, or `nil` (and nothing read) when they are not there.
    mutating func digits(_ count: Int) -> Int? {
        guard position + count <= end else { return nil }
        var value = 0
        for index in position..<(position + count) {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += count
        return value
    }

    /// Whether the next `count` bytes are ASCII digits.
    func digitsFollow(_ count: Int) -> Bool {
        guard position + count <= end else { return false }
        return bytes[position..<(position + count)].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A date `YYMMDD`; years 00–79 are 2000–2079, 80–99 are 1980–1999.
    ///
    /// With `februaryMonthEnd`, 29 and 30 February of a year without such a day are read as the
    /// last day of February: German banks date interest and fees "30 February" by the 30-day
    /// months of their interest convention (a value date, never a booking date).
    mutating func date(_ what: String, februaryMonthEnd: Bool = false) throws(ImportProblem) -> ImportDate {
        let before = position
        guard let yy = digits(2), let mm = digits(2), let dd = digits(2) else {
            position = before
            throw problem("has no \(what) where expected; expected six digits YYMMDD, e.g. 240131")
        }
        let monthEnd = februaryMonthEnd && mm == 2 && (dd == 29 || dd == 30)
        guard let date = ImportDate(year: Self.century(yy), month: mm, day: dd)
            ?? (monthEnd ? ImportDate(year: Self.century(yy), month: 2, day: 29) ?? ImportDate(year: Self.century(yy), month: 2, day: 28) : nil) else {
            position = before
            throw problem("has \(what) \(String(decoding: bytes[before..<(before + 6)], as: UTF8.self)), which is no date; expected YYMMDD, e.g. 240131")
        }
        return date
    }

    /// The full year of a two-digit one: 00–79 → 20YY, 80–99 → 19YY.
    static func century(_ yy: Int) -> Int { yy < 80 ? 2000 + yy : 1900 + yy }

    /// `C` (credit, +1) or `D` (debit, −1), as balances and totals mark their sign.
    mutating func creditDebitMark() throws(ImportProblem) -> Int64 {
        switch next {
        case UInt8(ascii: "C"): position += 1; return 1
        case UInt8(ascii: "D"): position += 1; return -1
        default: throw problem("has no credit/debit mark where expected; expected C or D")
        }
    }

    /// Three upper-case letters (ISO 4217).
    mutating func currency() throws(ImportProblem) -> String {
        guard position + 3 <= end, bytes[position..<(position + 3)].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw problem("has no currency where expected; expected three capital letters, e.g. EUR")
        }
        defer { position += 3 }
        return String(decoding: bytes[position..<(position + 3)], as: UTF8.self)
    }

    /// An amount as SWIFT writes it: digits with a decimal comma (`1234,56`, `0,5`, `100,`); a
    /// whole number without the comma is taken too. Kept at the scale written.
    mutating func amount() throws(ImportProblem) -> DecimalAmount {
        let before = position
        var significand: Int64 = 0
        var scale = 0
        var wholeDigits = 0
        var seenComma = false
        while let byte = next {
            if byte >= 0x30, byte <= 0x39 {
                let (times, o1) = significand.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int64(byte - 0x30))
                guard !o1, !o2, sum <= DecimalAmount.maximumSignificand, scale < 18 else {
                    position = before
                    throw problem("has an amount too large or too long to read exactly; expected at most 17 digits")
                }
                significand = sum
                if seenComma { scale += 1 } else { wholeDigits += 1 }
            } else if byte == UInt8(ascii: ","), !seenComma {
                seenComma = true
            } else {
                break
            }
            position += 1
        }
        guard wholeDigits > 0 else {
            position = before
            throw problem("has no amount where expected; expected digits with a decimal comma, e.g. 1234,56")
        }
        if !seenComma, next == UInt8(ascii: "."), position + 1 < end, bytes[position + 1] >= 0x30, bytes[position + 1] <= 0x39 {
            throw problem("has a decimal point in its amount; expected a decimal comma, e.g. 1234,56")
        }
        return DecimalAmount(significand: significand, scale: scale)
    }

    /// Throws unless the first line is read to its end and no other line follows.
    func expectEnd() throws(ImportProblem) {
        if !atEnd {
            throw problem("has \"\(String(decoding: bytes[position..<end], as: UTF8.self))\" after its last part; expected nothing more")
        }
        try expectOneLine()
    }

    /// Throws when the field goes on over more lines than its first.
    func expectOneLine() throws(ImportProblem) {
        guard field.pieces.count > 1 else { return }
        let extra = field.pieces[1]
        let text = String(decoding: bytes[extra.range], as: UTF8.self)
        throw ImportProblem(line: extra.line, column: 1, element: element,
                            "\"\(text.count > 60 ? text.prefix(57) + "…" : text)\" continues a field of one line; expected the next field (a line starting with a tag like :61:)")
    }

    /// Moves past `count` bytes (checked by the caller), never beyond the line.
    mutating func skip(_ count: Int) {
        position = min(position + count, end)
    }

    /// The rest of the first line, from the current position.
    mutating func rest() -> ArraySlice<UInt8> {
        defer { position = end }
        return bytes[position..<end]
    }
}
