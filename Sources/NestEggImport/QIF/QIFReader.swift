// The first pass over a QIF file: lines into sections and records, field values as written.
// Amounts and the day/month order are settled afterwards (the order needs every date of the file).

/// A field's value as written (trimmed) and its line.
struct QIFRawField: Sendable, Hashable {
    var text: String
    var line: Int
}

/// One record (`…` up to `^`) of a transaction section.
struct QIFRawRecord: Sendable {
    var line: Int
    var date: (value: QIFWrittenDate, text: String, line: Int)?
    var amount: QIFRawField?
    var amountU: QIFRawField?
    /// `M`, `P` and `N`; several lines of one (writers wrap long text) are joined with a space.
    var memo: String?
    var payee: String?
    var number: String?
    var category: String?
    var splitCategories = 0
    var splitAmounts: [QIFRawField] = []

    init(line: Int) { self.line = line }

    var isEmpty: Bool {
        date == nil && amount == nil && amountU == nil && memo == nil && payee == nil && number == nil && category == nil
            && splitCategories == 0 && splitAmounts.isEmpty
    }
}

/// One transaction section (`!Type:Bank` …) with the account it belongs to.
struct QIFRawSection: Sendable {
    var kind: ImportedAccount.Kind
    var accountName: String
    /// Whether the name came from the file's `!Account` block (else from the options).
    var named: Bool
    /// The header's line.
    var line: Int
    var records: [QIFRawRecord] = []
}

/// The first date of the file that can only be day first, and the first that can only be month first.
struct QIFDateEvidence: Sendable {
    var dayFirst: (line: Int, text: String)?
    var monthFirst: (line: Int, text: String)?
}

struct QIFReader {
    private enum Mode {
        /// Before the first header.
        case start
        case transactions
        /// An `!Account` block: `N` names the account of the sections that follow.
        case accountList
        /// A list section (categories, classes, memorized transactions, prices…).
        case skipping
    }

    /// The section names that hold lists, not transactions.
    static let listSections: Set<String> = [
        "cat", "class", "memorized", "prices", "security", "budget", "invitem", "template", "bill", "invoice", "payee",
    ]

    private let bytes: [UInt8]
    private let defaultAccountName: String
    private var mode = Mode.start
    private var accountName: String?
    private var pendingAccountName: String?
    private var section: QIFRawSection?
    private var record: QIFRawRecord?
    private(set) var sections: [QIFRawSection] = []
    private(set) var evidence = QIFDateEvidence()

    init(bytes: [UInt8], defaultAccountName: String) {
        self.bytes = bytes
        self.defaultAccountName = defaultAccountName
    }

    /// Reads every line (CRLF, CR or LF ending each).
    mutating func read() throws(ImportProblem) {
        let count = bytes.count
        var index = 0
        var number = 1
        while index < count {
            let start = index
            while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            let end = index
            if index < count {
                index += (bytes[index] == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A) ? 2 : 1
            }
            try line(number, trimmed(start, end))
            number += 1
        }
        finishSection()
    }

    private func trimmed(_ start: Int, _ end: Int) -> Range<Int> {
        var start = start
        var end = end
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    private func text(_ range: Range<Int>) -> String {
        let value = trimmed(range.lowerBound, range.upperBound)
        return String(decoding: bytes[value], as: UTF8.self)
    }

    private mutating func line(_ number: Int, _ range: Range<Int>) throws(ImportProblem) {
        guard let code = range.first.map({ bytes[$0] }) else { return }
        if code == UInt8(ascii: "!") {
            try header(number, text(range))
            return
        }
        let value = (range.lowerBound + 1)..<range.upperBound
        if case .start = mode, code == UInt8(ascii: "D") {
            // A file of records without any header (BNP Paribas' "PM5" download): one bank
            // account's transactions, as if `!Type:Bank` stood first.
            mode = .transactions
            section = QIFRawSection(kind: .current, accountName: defaultAccountName, named: false, line: number)
        }
        switch mode {
        case .start:
            throw ImportProblem(line: number, "\"\(text(range))\" comes before any section header; expected a header such as !Type:Bank first")
        case .skipping:
            return
        case .accountList:
            if code == UInt8(ascii: "N") { pendingAccountName = text(value) }
            if code == UInt8(ascii: "^") {
                if let name = pendingAccountName, !name.isEmpty { accountName = name }
                pendingAccountName = nil
            }
        case .transactions:
            try field(code, value, line: number)
        }
    }

    private mutating func header(_ number: Int, _ text: String) throws(ImportProblem) {
        let lower = text.lowercased()
        if lower.hasPrefix("!option:") || lower.hasPrefix("!clear:") { return }
        if case .accountList = mode, let name = pendingAccountName, !name.isEmpty { accountName = name } // a last record without ^
        finishSection()
        if lower == "!account" {
            mode = .accountList
            pendingAccountName = nil
            return
        }
        guard lower.hasPrefix("!type:") else {
            throw ImportProblem(line: number, "\"\(text)\" is no QIF header; expected !Type:…, !Account, !Option:… or !Clear:…")
        }
        let name = String(lower.dropFirst(6)).trimmingQIFSpaces()
        let kind: ImportedAccount.Kind
        switch name {
        case "bank": kind = .current
        case "ccard": kind = .creditCard
        case "cash", "oth a", "oth l": kind = .other
        case "invst":
            throw ImportProblem(line: number, element: text,
                                "investment accounts are not read; expected a bank, credit-card, cash or other account (!Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A, !Type:Oth L)")
        default:
            if Self.listSections.contains(name) {
                mode = .skipping
                return
            }
            throw ImportProblem(line: number, element: text,
                                "\"\(text)\" is no section this reader knows; expected !Type:Bank, !Type:CCard, !Type:Cash, !Type:Oth A, !Type:Oth L or a list such as !Type:Cat")
        }
        mode = .transactions
        section = QIFRawSection(kind: kind, accountName: accountName ?? defaultAccountName, named: accountName != nil, line: number)
    }

    private mutating func field(_ code: UInt8, _ value: Range<Int>, line: Int) throws(ImportProblem) {
        if code == UInt8(ascii: "^") {
            finishRecord()
            return
        }
        var current = record ?? QIFRawRecord(line: line)
        record = nil // keeps `current` the only copy while it changes
        switch code {
        case UInt8(ascii: "D"):
            let written = text(value)
            if let earlier = current.date { throw twice("D", line: line, earlier: earlier.line) }
            guard let date = QIFWrittenDate(written) else {
                throw ImportProblem(line: line, element: "D",
                                    "\"\(written)\" is no date; expected a date like 01/31/2024, 1/31'24, 31.01.2024 or 2024-01-31")
            }
            note(date, text: written, line: line)
            current.date = (date, written, line)
        case UInt8(ascii: "T"):
            if let earlier = current.amount { throw twice("T", line: line, earlier: earlier.line) }
            current.amount = QIFRawField(text: text(value), line: line)
        case UInt8(ascii: "U"):
            if let earlier = current.amountU { throw twice("U", line: line, earlier: earlier.line) }
            current.amountU = QIFRawField(text: text(value), line: line)
        case UInt8(ascii: "M"): append(text(value), to: &current.memo)
        case UInt8(ascii: "P"): append(text(value), to: &current.payee)
        case UInt8(ascii: "N"): append(text(value), to: &current.number)
        case UInt8(ascii: "L"): current.category = text(value)
        case UInt8(ascii: "S"): current.splitCategories += 1
        case UInt8(ascii: "$"): current.splitAmounts.append(QIFRawField(text: text(value), line: line))
        default: break // C, A, E, %, and writers' own letters: not needed
        }
        record = current
    }

    private func twice(_ code: String, line: Int, earlier: Int) -> ImportProblem {
        ImportProblem(line: line, element: code,
                      "a record has a second \(code) line (the first is on line \(earlier)); expected ^ to end the record before it")
    }

    /// Appends a line's text after a space, in place (the record is the only holder of its
    /// strings while it is read, so a long run of lines stays linear). Empty values are none.
    private func append(_ value: String, to text: inout String?) {
        guard !value.isEmpty else { return }
        guard var existing = text else {
            text = value
            return
        }
        text = nil
        existing += " "
        existing += value
        text = existing
    }

    private mutating func note(_ date: QIFWrittenDate, text: String, line: Int) {
        guard !date.yearFirst else { return }
        if date.first > 12, evidence.dayFirst == nil { evidence.dayFirst = (line, text) }
        if date.second > 12, evidence.monthFirst == nil { evidence.monthFirst = (line, text) }
    }

    private mutating func finishRecord() {
        if let record, !record.isEmpty { section?.records.append(record) }
        record = nil
    }

    private mutating func finishSection() {
        finishRecord()
        if let section { sections.append(section) }
        section = nil
    }
}

extension String {
    /// Without spaces and tabs at either end.
    fileprivate func trimmingQIFSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
