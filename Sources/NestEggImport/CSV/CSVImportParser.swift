// CSV exports of banks, read through a `CSVMapping` the household's settings give for each bank,
// and the statement CSV NestEgg writes itself, which is recognised by its header.

/// Reads a CSV file into one statement, the columns interpreted as a `CSVMapping` says.
///
/// - Records are RFC 4180: fields split at the delimiter, `"…"` quoting with `""` inside, line
///   ends inside quotes kept (line numbers stay those of the file), CRLF, LF or CR line ends, a
///   last line with or without one. Blank lines, and rows whose every cell is empty (`;;;;`), are
///   skipped. A row with fewer fields than the header is an error; more fields are allowed only
///   when the extra ones are empty (a trailing delimiter).
/// - Cells are trimmed. Problems name the 1-based line, the column by its position (1-based,
///   as `ImportProblem.column`) and its header name (as `ImportProblem.element`).
/// - Balance (when mapped): the balance after each booked row. The rows are put in date order —
///   the file's order when its first date is before its last, the reverse (a newest-first
///   download) when after, and when the two are the same day whichever order the balances agree
///   with — and each stated balance must equal the one before plus the row's amount (rows
///   without a balance carry the computed one on). The first row's balance less its amount is the
///   statement's `opening` (dated that row's day: the balance at its start, before the file's
///   first entry); the last row's balance is its `closing`. Pending rows are left out of the
///   check and of both balances, since banks state balances of booked entries.
/// - No ids are invented: `id` is the mapped id column's text, else nil.
public enum CSVImportParser {
    /// How much of a file `recognises` looks at.
    static let recognitionWindow = 4096

    /// True only for NestEgg's own statement CSV (recognised by its header); every other CSV is
    /// read only through a mapping from the settings, as a header alone says too little.
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        nestEggMapping(bytes) != nil
    }

    /// A NestEgg statement CSV (see `nestEggStatementMapping(forHeader:)`).
    public static func parse(_ bytes: [UInt8]) throws(ImportProblem) -> [ImportedStatement] {
        guard let mapping = nestEggMapping(bytes) else {
            throw ImportProblem(line: 1, "the header is not that of a NestEgg statement CSV (Date,Counter Party,Reference,Type,Amount (GBP),…); "
                + "expected it, or a CSV mapping for this bank in the settings")
        }
        return try parse(bytes, mapping: mapping)
    }

    /// The mapping for NestEgg's statement CSV when `header` (its first line) is NestEgg's
    /// statement header with some currency code in `Amount (…)`, `Balance (…)` and
    /// `Exchange Rate (… per unit)`; nil for any other header.
    public static func nestEggStatementMapping(forHeader header: String) -> CSVMapping? {
        var reader = CSVRecordReader(bytes: Array(header.utf8), delimiter: UInt8(ascii: ","))
        guard let record = try? reader.next(), record.fields.count == 13 else { return nil }
        let names = record.fields.map { String(reader.text($0).csvTrimmed) }
        let amount = names[4]
        guard amount.hasPrefix("Amount ("), amount.hasSuffix(")") else { return nil }
        let code = String(amount.dropFirst("Amount (".count).dropLast())
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }), names == CSVMapping.nestEggHeader(currency: code) else {
            return nil
        }
        return CSVMapping.nestEggStatement(currency: code)
    }

    /// The statement `bytes` hold, read with `mapping`.
    public static func parse(_ bytes: [UInt8], mapping: CSVMapping) throws(ImportProblem) -> [ImportedStatement] {
        let settings = try CSVSettings(mapping)
        let text = Array(ImportText.decode(bytes, charset: mapping.charset).utf8)
        var reader = CSVRecordReader(bytes: text, delimiter: UInt8(ascii: ","))
        reader.skipLines(mapping.skipLines)
        let delimiter = settings.delimiter ?? detectDelimiter(text, from: reader.position)
        reader = CSVRecordReader(bytes: text, delimiter: delimiter, position: reader.position, line: reader.line)
        guard let headerRecord = try reader.next() else {
            throw ImportProblem(line: reader.line, "the file has no header row after \(mapping.skipLines) skipped line(s); expected one naming the columns")
        }
        let header = headerRecord.fields.map { String(reader.text($0).csvTrimmed) }
        let columns = try CSVColumns(mapping, header: header, line: headerRecord.line)
        var rows = CSVRowReader(mapping: mapping, settings: settings, columns: columns, header: header)
        var entries: [ImportedEntry] = []
        while let record = try reader.next() {
            if let entry = try rows.entry(record, reader: reader) { entries.append(entry) }
        }
        var statement = ImportedStatement(account: mapping.account, entries: entries, line: headerRecord.line)
        if let balanceColumn = columns.balance {
            let balances = try CSVBalanceCheck.balances(rows.balanceRows, column: header[balanceColumn], columnIndex: balanceColumn)
            statement.opening = balances.opening
            statement.closing = balances.closing
        }
        return [statement]
    }

    /// `,`, `;` or tab: whichever the header line has most of outside quotes (`,` on a tie or none).
    static func detectDelimiter(_ bytes: [UInt8], from start: Int) -> UInt8 {
        var index = start
        while index < bytes.count, bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, 0x09: 0]
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, byte == 0x0A || byte == 0x0D { break }
            if !quoted, let count = counts[byte] { counts[byte] = count + 1 }
            index += 1
        }
        let comma = counts[UInt8(ascii: ",")] ?? 0, semicolon = counts[UInt8(ascii: ";")] ?? 0, tab = counts[0x09] ?? 0
        if semicolon > comma, semicolon >= tab { return UInt8(ascii: ";") }
        if tab > comma, tab > semicolon { return 0x09 }
        return UInt8(ascii: ",")
    }

    /// The NestEgg mapping for a file whose first line is NestEgg's statement header.
    static func nestEggMapping(_ bytes: [UInt8]) -> CSVMapping? {
        var window = bytes.prefix(recognitionWindow)
        if window.starts(with: [0xEF, 0xBB, 0xBF]) { window = window.dropFirst(3) }
        let end = window.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? window.endIndex
        guard let header = String(validating: window[window.startIndex..<end], as: UTF8.self) else { return nil }
        return nestEggStatementMapping(forHeader: header)
    }
}

/// What of a mapping is checked and compiled once before the rows are read.
struct CSVSettings {
    let dateFormat: CSVDateFormat
    let delimiter: UInt8?
    let debitMarkers: Set<String>
    let pendingMarkers: Set<String>

    init(_ mapping: CSVMapping) throws(ImportProblem) {
        guard let format = CSVDateFormat(mapping.dateFormat) else {
            throw ImportProblem(line: 1, element: "dateFormat",
                                "the mapping's date format \"\(mapping.dateFormat)\" is not usable; expected one year (YYYY or YY), month (MM, M or MMM) and day (DD or D), e.g. DD/MM/YYYY")
        }
        dateFormat = format
        if let delimiter = mapping.delimiter {
            guard let byte = delimiter.asciiValue, delimiter != "\"", delimiter != "\n", delimiter != "\r" else {
                throw ImportProblem(line: 1, element: "delimiter", "the mapping's delimiter \"\(delimiter)\" is not usable; expected , ; or a tab")
            }
            self.delimiter = byte
        } else {
            delimiter = nil
        }
        guard mapping.decimal == "." || mapping.decimal == ",", mapping.grouping != mapping.decimal else {
            throw ImportProblem(line: 1, element: "decimal", "the mapping's decimal \"\(mapping.decimal)\" with grouping \"\(mapping.grouping.map(String.init) ?? "")\" is not usable; expected . or , and a different grouping")
        }
        guard mapping.skipLines >= 0 else {
            throw ImportProblem(line: 1, element: "skipLines", "the mapping's skipLines is \(mapping.skipLines); expected 0 or more")
        }
        let single = mapping.amount != nil
        let split = mapping.moneyIn != nil || mapping.moneyOut != nil
        guard single != split, !split || (mapping.moneyIn != nil && mapping.moneyOut != nil) else {
            throw ImportProblem(line: 1, element: "amount", "the mapping names \(single ? "both an amount column and money-in/money-out columns" : "no complete amount columns"); expected either amount, or both moneyIn and moneyOut")
        }
        debitMarkers = Set(mapping.debitMarkers.map { String($0.csvTrimmed).lowercased() })
        pendingMarkers = Set(mapping.pendingMarkers.map { String($0.csvTrimmed).lowercased() })
    }
}

/// The mapped columns' positions in the header (0-based).
struct CSVColumns {
    var date: Int
    var valueDate: Int?
    var amount: Int?
    var moneyIn: Int?
    var moneyOut: Int?
    var debitCredit: Int?
    var description: [Int]
    var payee: Int?
    var reference: Int?
    var kind: Int?
    var id: Int?
    var balance: Int?
    var status: Int?

    init(_ mapping: CSVMapping, header: [String], line: Int) throws(ImportProblem) {
        func find(_ name: String?) throws(ImportProblem) -> Int? {
            guard let name else { return nil }
            return try Self.position(of: name, in: header, line: line)
        }
        date = try Self.position(of: mapping.date, in: header, line: line)
        valueDate = try find(mapping.valueDate)
        amount = try find(mapping.amount)
        moneyIn = try find(mapping.moneyIn)
        moneyOut = try find(mapping.moneyOut)
        debitCredit = try find(mapping.debitCreditColumn)
        description = []
        for name in mapping.description { description.append(try Self.position(of: name, in: header, line: line)) }
        payee = try find(mapping.payee)
        reference = try find(mapping.reference)
        kind = try find(mapping.kind)
        id = try find(mapping.id)
        balance = try find(mapping.balance)
        status = try find(mapping.status)
    }

    /// `#3` → 2; else the first header cell equal to `name` ignoring case and surrounding spaces.
    static func position(of name: String, in header: [String], line: Int) throws(ImportProblem) -> Int {
        let wanted = name.csvTrimmed
        if wanted.hasPrefix("#"), let number = Int(wanted.dropFirst()) {
            guard (1...header.count).contains(number) else {
                throw ImportProblem(line: line, element: name, "the mapping names column \(name), but the header has \(header.count) columns")
            }
            return number - 1
        }
        let lower = wanted.lowercased()
        guard let index = header.firstIndex(where: { $0.lowercased() == lower }) else {
            throw ImportProblem(line: line, element: name,
                                "the header has no column \"\(name)\"; its columns are \(header.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return index
    }
}
