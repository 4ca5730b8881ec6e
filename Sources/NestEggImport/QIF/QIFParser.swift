// QIF, the Quicken Interchange Format (Intuit, 1990s; still exported by Quicken, Microsoft Money,
// GnuCash, many banks' "download for Quicken"). A file is lines, each a one-letter field code and
// its value (`D01/31/2024`, `T-12.50`, `PTesco`); `^` ends a record; `!Type:Bank` and similar
// header lines start a section. The file carries no currency, no account number and no
// transaction id: `QIFOptions` supplies what the household knows.

/// Reads QIF files of bank, credit-card, cash and other asset/liability accounts.
///
/// - Sections `!Type:Bank` (→ `.current`), `!Type:CCard` (→ `.creditCard`), `!Type:Cash`,
///   `!Type:Oth A`, `!Type:Oth L` (→ `.other`) each become one statement. Its account's name is
///   the `N` line of the latest `!Account` block before it (Quicken writes one before each
///   account's transactions, with `!Option:AutoSwitch`/`!Clear:AutoSwitch` around its list of
///   accounts), else `QIFOptions.accountName`.
/// - List sections — `!Type:Cat`, `!Type:Class`, `!Type:Memorized`, `!Type:Prices`,
///   `!Type:Security`, `!Type:Budget`, `!Type:Invitem`, `!Type:Template`, `!Type:Bill`,
///   `!Type:Invoice`, `!Type:Payee` — hold no transactions and are skipped whole.
///   `!Type:Invst` (investment accounts) is refused with an `ImportProblem`.
/// - Fields: `D` date, `T` amount (`U`, Quicken's second copy of it, must agree when both are
///   there), `M` memo (→ description), `P` payee (→ payee, and description when there is no
///   memo), `N` number (cheque number or `ATM`, `DEP`, `XFER`… → reference and kind), `C`
///   cleared, `L` category, `A` address, `E`/`%` split memo and percent: read past. `S`/`$`
///   splits: their `$` amounts must add up to `T`; the transaction stays one entry of amount `T`.
///   Other letters are read past (writers add their own, e.g. `F`, `K`).
/// - Quicken's first record of an account, payee `Opening Balance` with category
///   `[<account name>]`, is the statement's `opening`: the balance at the START of its own date
///   (before any entry of that day). QIF states no closing balance.
/// - Every entry is `.booked` (QIF is the register of an account; `C` says whether the owner has
///   reconciled it, not whether the bank has booked it) and has no id (QIF has none).
/// - A record without `^` before the next header or the end of the file still ends there.
public enum QIFParser {
    /// How much of a file `recognises` looks at.
    static let recognitionWindow = 4096

    /// Whether the file starts (after a byte-order mark and blank lines) with a QIF header line:
    /// `!Type:`, `!Account`, `!Option:` or `!Clear:`; or, without a header, with a record: a date
    /// line `D` and a digit, and within the first few KB an amount line `T` and a record end `^`.
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        let end = min(bytes.count, recognitionWindow)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < end, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
        if index + 1 < end, bytes[index] == UInt8(ascii: "D"), (0x30...0x39).contains(bytes[index + 1]) {
            return startsHeaderlessRecords(bytes[index..<end])
        }
        guard index < end, bytes[index] == UInt8(ascii: "!") else { return false }
        let head = String(decoding: bytes[index..<min(end, index + 16)], as: UTF8.self).lowercased()
        return head.hasPrefix("!type:") || head.hasPrefix("!account") || head.hasPrefix("!option:") || head.hasPrefix("!clear:")
    }

    /// Whether `window` (starting at a `D` line) is lines of QIF fields: each line a field code
    /// letter, `^` or blank, an amount line `T` among them and a `^` after it.
    private static func startsHeaderlessRecords(_ window: ArraySlice<UInt8>) -> Bool {
        var sawAmount = false
        var lineStart = true
        for byte in window {
            if byte == 0x0A || byte == 0x0D {
                lineStart = true
                continue
            }
            guard lineStart else { continue }
            lineStart = false
            switch byte {
            case UInt8(ascii: "^"): if sawAmount { return true }
            case UInt8(ascii: "T"): sawAmount = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "$"), UInt8(ascii: "%"), 0x20, 0x09: break
            default: return false
            }
        }
        return false
    }

    /// The statements of the file's bank, credit-card, cash and other accounts, in file order.
    public static func parse(_ bytes: [UInt8], options: QIFOptions) throws(ImportProblem) -> [ImportedStatement] {
        guard options.decimalSeparator == "." || options.decimalSeparator == "," else {
            throw ImportProblem(line: 1, "the decimal separator \"\(options.decimalSeparator)\" is not supported; expected \".\" or \",\"")
        }
        var reader = QIFReader(bytes: Array(ImportText.decode(bytes).utf8), defaultAccountName: options.accountName)
        try reader.read()
        let dayFirst = try dayFirst(reader.evidence, order: options.dateOrder)
        var statements: [ImportedStatement] = []
        statements.reserveCapacity(reader.sections.count)
        for section in reader.sections {
            statements.append(try statement(section, dayFirst: dayFirst, options: options))
        }
        return statements
    }

    /// Whether dates are read day first, from the options and, for `.automatic`, the file's dates.
    static func dayFirst(_ evidence: QIFDateEvidence, order: QIFOptions.DateOrder) throws(ImportProblem) -> Bool {
        switch order {
        case .monthFirst: return false
        case .dayFirst: return true
        case .automatic:
            if let day = evidence.dayFirst, let month = evidence.monthFirst {
                let later = max(day.line, month.line)
                throw ImportProblem(line: later, element: "D",
                                    "the dates disagree on their order: \"\(day.text)\" (line \(day.line)) can only be day first, "
                                        + "\"\(month.text)\" (line \(month.line)) only month first; expected one order in the whole file")
            }
            return evidence.dayFirst != nil
        }
    }

    static func statement(_ section: QIFRawSection, dayFirst: Bool, options: QIFOptions) throws(ImportProblem) -> ImportedStatement {
        let grouping: Character = options.decimalSeparator == "," ? "." : ","
        var entries: [ImportedEntry] = []
        entries.reserveCapacity(section.records.count)
        var opening: StatedBalance?
        for (index, record) in section.records.enumerated() {
            guard let written = record.date else {
                throw ImportProblem(line: record.line, "a record has no D (date) line; expected every transaction to have one")
            }
            guard let date = written.value.date(dayFirst: dayFirst) else {
                let order = written.value.yearFirst ? "year, month, day" : (dayFirst ? "day, month, year" : "month, day, year")
                throw ImportProblem(line: written.line, element: "D", "\"\(written.text)\" is no date on the calendar when read as \(order)")
            }
            let amount = try amount(of: record, decimal: options.decimalSeparator, grouping: grouping)
            try checkSplits(of: record, total: amount, decimal: options.decimalSeparator, grouping: grouping)
            if index == 0, isOpeningBalance(record, section: section) {
                opening = StatedBalance(date: date, amount: amount, line: record.line)
                continue
            }
            entries.append(ImportedEntry(date: date, amount: amount, description: record.memo ?? record.payee ?? "",
                                         payee: record.payee, reference: record.number, kind: record.number, line: record.line))
        }
        let account = ImportedAccount(currency: options.currency, name: section.accountName, kind: section.kind)
        return ImportedStatement(account: account, opening: opening, entries: entries, line: section.line)
    }

    /// `T`, or `U` when there is no `T`; both must agree when both are given.
    static func amount(of record: QIFRawRecord, decimal: Character, grouping: Character) throws(ImportProblem) -> DecimalAmount {
        let t = try record.amount.map { field throws(ImportProblem) in (field, try decimalAmount(field, code: "T", decimal: decimal, grouping: grouping)) }
        let u = try record.amountU.map { field throws(ImportProblem) in (field, try decimalAmount(field, code: "U", decimal: decimal, grouping: grouping)) }
        switch (t, u) {
        case let (t?, u?):
            guard t.1.isSameNumber(as: u.1) else {
                throw ImportProblem(line: u.0.line, element: "U",
                                    "the amount U \(u.1) differs from T \(t.1) (line \(t.0.line)); expected the same amount in both")
            }
            return t.1
        case let (t?, nil): return t.1
        case let (nil, u?): return u.1
        case (nil, nil):
            throw ImportProblem(line: record.line, "a record has no T (amount) line; expected every transaction to have one")
        }
    }

    static func decimalAmount(_ field: QIFRawField, code: String, decimal: Character, grouping: Character) throws(ImportProblem) -> DecimalAmount {
        guard let value = QIFDecimal.parse(field.text, decimal: decimal, grouping: grouping) else {
            let example = decimal == "." ? "-1,234.56" : "-1.234,56"
            throw ImportProblem(line: field.line, element: code, "\"\(field.text)\" is no amount; expected a decimal like \(example)")
        }
        return value
    }

    /// A split transaction's `$` amounts must add up to its `T`.
    static func checkSplits(of record: QIFRawRecord, total: DecimalAmount, decimal: Character, grouping: Character) throws(ImportProblem) {
        guard record.splitCategories > 0 || !record.splitAmounts.isEmpty else { return }
        guard let first = record.splitAmounts.first else {
            throw ImportProblem(line: record.line, element: "S", "a split (S line) has no $ amount; expected a $ line for each split")
        }
        var sum = DecimalAmount(significand: 0, scale: 0)
        for field in record.splitAmounts {
            let part = try decimalAmount(field, code: "$", decimal: decimal, grouping: grouping)
            guard let next = sum.adding(part) else {
                throw ImportProblem(line: field.line, element: "$", "the split amounts add up to more than can be held")
            }
            sum = next
        }
        guard sum.isSameNumber(as: total) else {
            throw ImportProblem(line: first.line, element: "$",
                                "the split amounts ($ lines) add up to \(sum), but the transaction's amount is \(total); expected them to be equal")
        }
    }

    /// Quicken's opening-balance record: payee `Opening Balance`, category `[<this account>]`
    /// (any account name when the file names none, as the name then came from the options).
    static func isOpeningBalance(_ record: QIFRawRecord, section: QIFRawSection) -> Bool {
        guard let payee = record.payee, payee.lowercased() == "opening balance",
              let category = record.category, category.hasPrefix("["), category.hasSuffix("]"), category.count >= 2 else { return false }
        guard section.named else { return true }
        let name = category.dropFirst().dropLast()
        return name.lowercased() == section.accountName.lowercased()
    }
}
