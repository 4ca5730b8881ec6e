// What the fields of an MT940/MT942 message say, one reader per kind of field. Field layouts are
// the SWIFT MT940/MT942 standard's (Category 9, Cash Management); the notes say where banks'
// published formats go beyond it and what of that is accepted.

/// A balance (`:60F:`, `:60M:`, `:62F:`, `:62M:`): `C240131EUR1234,56`.
struct MT940Balance {
    var date: ImportDate
    var currency: String
    /// Signed: `D` (debit, the account overdrawn) is negative.
    var amount: DecimalAmount
}

/// A statement line `:61:`: `2401020102D12,50NTRFREF123//BANKREF` and its supplementary details.
struct MT940StatementLine {
    var valueDate: ImportDate
    /// The entry (booking) date, when written (`MMDD`, its year worked out from the value date's).
    var entryDate: ImportDate?
    /// Signed: `D` and `RC` are money out (negative), `C` and `RD` money in.
    var amount: DecimalAmount
    /// The transaction type as written: `NTRF`, `FCHK`, `S103`…
    var kind: String
    /// The account owner's reference, unless `NONREF`.
    var customerReference: String?
    /// The bank's reference (after `//`).
    var bankReference: String?
    /// The line after, when there is one (SWIFT subfield 9, 34 characters).
    var supplementaryDetails: String?
}

/// A sum of an MT942 (`:90D:` debits, `:90C:` credits): `3EUR1234,56`.
struct MT940Total {
    var count: Int
    var currency: String
    /// Unsigned, as written.
    var amount: DecimalAmount
}

enum MT940Fields {
    /// `:60F:`, `:60M:`, `:62F:`, `:62M:`: mark, date, currency, amount (`:64:` and `:65:` have the
    /// same layout but are not read: available balances are not booked ones).
    static func balance(_ field: MT940Field, bytes: [UInt8]) throws(ImportProblem) -> MT940Balance {
        var reader = MT940FieldReader(bytes: bytes, field: field)
        let sign = try reader.creditDebitMark()
        let date = try reader.date("date")
        let currency = try reader.currency()
        let amount = try reader.amount()
        try reader.expectEnd()
        return MT940Balance(date: date, currency: currency, amount: sign < 0 ? amount.negated : amount)
    }

    /// `:61:` — value date `YYMMDD`, optional entry date `MMDD`, mark `C`/`D`/`RC`/`RD`, optional
    /// funds code (the third letter of the currency), amount, transaction type (`N`, `F` or `S`
    /// and three characters), the owner's reference, `//` and the bank's reference; then, on the
    /// next line, supplementary details.
    static func statementLine(_ field: MT940Field, bytes: [UInt8]) throws(ImportProblem) -> MT940StatementLine {
        var reader = MT940FieldReader(bytes: bytes, field: field)
        let valueDate = try reader.date("value date", februaryMonthEnd: true)
        let entryDate = try entryDate(&reader, valueDate: valueDate)
        let sign = try statementLineMark(&reader)
        if let byte = reader.next, byte >= 0x41, byte <= 0x5A { reader.skip(1) }  // funds code
        let amount = try reader.amount()
        let kind = try transactionType(&reader)
        let (customer, bank) = references(reader.rest())
        if field.pieces.count > 2 {
            let extra = field.pieces[2]
            throw ImportProblem(line: extra.line, column: 1, element: ":61:",
                                "\"\(String(decoding: bytes[extra.range], as: UTF8.self).mt940Trimmed())\" is a third line of a statement line; expected at most one line of supplementary details after :61:, then the next field")
        }
        let supplementary = field.pieces.dropFirst()
            .map { String(decoding: bytes[$0.range], as: UTF8.self).mt940Trimmed() }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        return MT940StatementLine(valueDate: valueDate, entryDate: entryDate, amount: sign < 0 ? amount.negated : amount, kind: kind,
                                  customerReference: customer, bankReference: bank,
                                  supplementaryDetails: supplementary.isEmpty ? nil : supplementary)
    }

    /// The optional `MMDD` after the value date. Its year is the value date's, moved by one when
    /// the two lie across a year end (value 231229, entry 0102 → 2024-01-02; value 240102, entry
    /// 1229 → 2023-12-29): the nearer of the three candidate years.
    private static func entryDate(_ reader: inout MT940FieldReader, valueDate: ImportDate) throws(ImportProblem) -> ImportDate? {
        guard reader.digitsFollow(4) else { return nil }
        let before = reader
        guard let month = reader.digits(2), let day = reader.digits(2) else { return nil }
        var year = valueDate.year
        if month - valueDate.month > 6 { year -= 1 } else if valueDate.month - month > 6 { year += 1 }
        guard let date = ImportDate(year: year, month: month, day: day) else {
            throw before.problem("has an entry date \(pad(month))\(pad(day)) that is no date in \(year); expected MMDD, e.g. 0131")
        }
        return date
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// `C` (+1), `D` (−1), `RC` (reversal of a credit: −1), `RD` (reversal of a debit: +1).
    private static func statementLineMark(_ reader: inout MT940FieldReader) throws(ImportProblem) -> Int64 {
        if reader.next == UInt8(ascii: "R") {
            reader.skip(1)
            switch reader.next {
            case UInt8(ascii: "C"): reader.skip(1); return -1
            case UInt8(ascii: "D"): reader.skip(1); return 1
            default: throw reader.problem("has a reversal mark R not followed by C or D; expected C, D, RC or RD")
            }
        }
        switch reader.next {
        case UInt8(ascii: "C"): reader.skip(1); return 1
        case UInt8(ascii: "D"): reader.skip(1); return -1
        default: throw reader.problem("has no debit/credit mark where expected; expected C, D, RC or RD after the date(s)")
        }
    }

    /// `N`, `F` or `S` and three letters or digits: `NTRF`, `FCHK`, `S103`, `N078`. Banks also
    /// write other capital letters first (`MCI0`) and pad a short code with spaces (Sberbank's
    /// `S   `): both are read, the code kept without the padding.
    private static func transactionType(_ reader: inout MT940FieldReader) throws(ImportProblem) -> String {
        let start = reader.position
        let bytes = reader.bytes
        let isAlphanumeric = { (byte: UInt8) in (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
        guard start + 4 <= reader.end, bytes[start] >= 0x41, bytes[start] <= 0x5A,
              bytes[(start + 1)..<(start + 4)].allSatisfy({ isAlphanumeric($0) || $0 == 0x20 }) else {
            throw reader.problem("has no transaction type after the amount; expected N, F or S and three characters, e.g. NTRF")
        }
        reader.skip(4)
        return String(decoding: bytes[start..<(start + 4)], as: UTF8.self).mt940Trimmed()
    }

    /// The owner's reference (up to `//`; `NONREF` means none) and the bank's (after `//`).
    private static func references(_ text: ArraySlice<UInt8>) -> (customer: String?, bank: String?) {
        var split: Int?
        var index = text.startIndex
        while index + 1 < text.endIndex {
            if text[index] == UInt8(ascii: "/"), text[index + 1] == UInt8(ascii: "/") { split = index; break }
            index += 1
        }
        let customerBytes = split.map { text[text.startIndex..<$0] } ?? text
        let customer = String(decoding: customerBytes, as: UTF8.self).mt940Trimmed()
        let bank = split.map { String(decoding: text[($0 + 2)...], as: UTF8.self).mt940Trimmed() }
        return (customer.isEmpty || customer == "NONREF" ? nil : customer, bank?.isEmpty ?? true ? nil : bank)
    }

    /// `:34F:` (MT942 floor limit): currency, optional `D`/`C`, amount. Only the currency is used.
    static func floorLimitCurrency(_ field: MT940Field, bytes: [UInt8]) throws(ImportProblem) -> String {
        var reader = MT940FieldReader(bytes: bytes, field: field)
        let currency = try reader.currency()
        if reader.next == UInt8(ascii: "D") || reader.next == UInt8(ascii: "C") { reader.skip(1) }
        _ = try reader.amount()
        try reader.expectEnd()
        return currency
    }

    /// `:90D:`/`:90C:` (MT942): the number of entries (up to five digits), currency, sum.
    static func total(_ field: MT940Field, bytes: [UInt8]) throws(ImportProblem) -> MT940Total {
        var reader = MT940FieldReader(bytes: bytes, field: field)
        var count = 0
        var digits = 0
        while digits < 5, let value = reader.digits(1) {
            count = count * 10 + value
            digits += 1
        }
        guard digits > 0 else { throw reader.problem("has no number of entries where expected; expected up to five digits, e.g. 3EUR1234,56") }
        let currency = try reader.currency()
        let amount = try reader.amount()
        try reader.expectEnd()
        return MT940Total(count: count, currency: currency, amount: amount)
    }

    /// `:25:` — `BIC/number`, `sortcode/number`, an IBAN (ING and others append the currency:
    /// `NL69INGB0123456789EUR`), or a plain number. The part after the first `/` is the IBAN when
    /// it checks as one (ISO 13616, mod 97), else the number; the part before is the bank.
    static func account(_ field: MT940Field, bytes: [UInt8], currency: String) throws(ImportProblem) -> ImportedAccount {
        let reader = MT940FieldReader(bytes: bytes, field: field)
        try reader.expectOneLine()
        let text = String(decoding: bytes[reader.position..<reader.end], as: UTF8.self).mt940Trimmed()
        guard !text.isEmpty else { throw reader.problem("has no account; expected an IBAN, a number, or BIC/number") }
        var bank: String?
        var number = Substring(text)
        if let slash = text.firstIndex(of: "/") {
            let before = text[..<slash].mt940Trimmed()
            bank = before.isEmpty ? nil : before
            number = text[text.index(after: slash)...]
        }
        let trimmed = String(number).mt940Trimmed()
        guard !trimmed.isEmpty else { throw reader.problem("has no account number after the bank; expected BIC/number") }
        let compact = trimmed.filter { $0 != " " }.uppercased()
        if MT940IBAN.isValid(compact) {
            return ImportedAccount(iban: compact, bank: bank, currency: currency)
        }
        if compact.count > 3, compact.suffix(3).allSatisfy({ $0 >= "A" && $0 <= "Z" }), MT940IBAN.isValid(String(compact.dropLast(3))) {
            return ImportedAccount(iban: String(compact.dropLast(3)), bank: bank, currency: currency)
        }
        return ImportedAccount(number: trimmed, bank: bank, currency: currency)
    }
}

/// IBAN checks (ISO 13616): two letters, two check digits, 11 to 30 letters and digits, and the
/// whole, rearranged, mod 97 equal to 1.
enum MT940IBAN {
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (15...34).contains(bytes.count),
              bytes[0] >= 0x41, bytes[0] <= 0x5A, bytes[1] >= 0x41, bytes[1] <= 0x5A,
              bytes[2] >= 0x30, bytes[2] <= 0x39, bytes[3] >= 0x30, bytes[3] <= 0x39 else { return false }
        var remainder = 0
        for byte in bytes[4...] + bytes[..<4] {
            if byte >= 0x30, byte <= 0x39 {
                remainder = (remainder * 10 + Int(byte - 0x30)) % 97
            } else if byte >= 0x41, byte <= 0x5A {
                remainder = (remainder * 100 + Int(byte - 0x41 + 10)) % 97
            } else {
                return false
            }
        }
        return remainder == 1
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it.
    func mt940Trimmed() -> String {
        let isBlank = { (c: Character) in c == " " || c == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
