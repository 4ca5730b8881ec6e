// One data row of a bank CSV into an `ImportedEntry`, as the mapping says.

/// A booked row's amount and stated balance, for the balance check.
struct CSVBalanceRow: Sendable {
    var amount: DecimalAmount
    var balance: DecimalAmount?
    var date: ImportDate
    var line: Int
}

struct CSVRowReader {
    let mapping: CSVMapping
    let settings: CSVSettings
    let columns: CSVColumns
    let header: [String]
    /// Booked rows in file order, when a balance column is mapped.
    private(set) var balanceRows: [CSVBalanceRow] = []

    init(mapping: CSVMapping, settings: CSVSettings, columns: CSVColumns, header: [String]) {
        self.mapping = mapping
        self.settings = settings
        self.columns = columns
        self.header = header
    }

    /// The entry of `record`; nil for a row whose every cell is empty.
    mutating func entry(_ record: CSVRecord, reader: CSVRecordReader) throws(ImportProblem) -> ImportedEntry? {
        let fields = record.fields
        func blank(_ field: CSVField) -> Bool { reader.bytes[field.range].allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        if fields.allSatisfy(blank) { return nil }
        guard fields.count >= header.count else {
            throw ImportProblem(line: record.line,
                                "the row has \(fields.count) field(s), but the header has \(header.count) columns; expected one field per column (a quote or delimiter missing?)")
        }
        if fields.count > header.count, let extra = fields[header.count...].firstIndex(where: { !blank($0) }) {
            throw ImportProblem(line: record.line, column: extra + 1,
                                "the row has \(fields.count) fields, more than the header's \(header.count) columns; expected one field per column (an unquoted delimiter in a text?)")
        }
        let row = CSVRow(record: record, reader: reader, header: header)
        let date = try date(row, column: columns.date)
        let valueDate = try columns.valueDate.flatMap { column throws(ImportProblem) in row.cell(column).isEmpty ? nil : try self.date(row, column: column) }
        let amount = try amount(row)
        let pending = columns.status.map { settings.pendingMarkers.contains(row.cell($0).lowercased()) } ?? false
        if let column = columns.balance, !pending {
            let cell = row.cell(column)
            var balance: DecimalAmount?
            if !cell.isEmpty {
                guard let value = CSVAmount.parse(cell, decimal: mapping.decimal, grouping: mapping.grouping) else {
                    throw row.problem(column, "\"\(cell)\" is no balance; expected a decimal like \(example)")
                }
                balance = value
            }
            balanceRows.append(CSVBalanceRow(amount: amount, balance: balance, date: date, line: record.line))
        }
        let description = columns.description.compactMap { text(row, $0) }.joined(separator: " ")
        return ImportedEntry(id: columns.id.flatMap { text(row, $0) }, date: date, valueDate: valueDate, amount: amount,
                             description: description, payee: columns.payee.flatMap { text(row, $0) },
                             reference: columns.reference.flatMap { text(row, $0) }, kind: columns.kind.flatMap { text(row, $0) },
                             status: pending ? .pending : .booked, line: record.line)
    }

    private var example: String { mapping.decimal == "," ? "-12,50" : "-12.50" }

    private func date(_ row: CSVRow, column: Int) throws(ImportProblem) -> ImportDate {
        let cell = row.cell(column)
        guard let date = settings.dateFormat.date(cell) else {
            throw row.problem(column, "\"\(cell)\" is no date of the form \(settings.dateFormat.text)")
        }
        return date
    }

    /// The signed amount: from the amount column (turned by a debit/credit marker or
    /// `amountOutIsPositive`), or from the money-in/money-out pair.
    private func amount(_ row: CSVRow) throws(ImportProblem) -> DecimalAmount {
        if let column = columns.amount {
            var value = try number(row, column, required: true) ?? DecimalAmount(significand: 0, scale: 0)
            if let markerColumn = columns.debitCredit {
                let marker = row.cell(markerColumn)
                guard !marker.isEmpty else {
                    throw row.problem(markerColumn, "the debit/credit marker is empty; expected one of \(mapping.debitMarkers.joined(separator: ", ")) or a credit marker")
                }
                value = CSVAmount.magnitude(value)
                if settings.debitMarkers.contains(marker.lowercased()) { value = value.negated }
            } else if mapping.amountOutIsPositive {
                value = value.negated
            }
            return value
        }
        guard let inColumn = columns.moneyIn, let outColumn = columns.moneyOut else { return DecimalAmount(significand: 0, scale: 0) }
        let moneyIn = try number(row, inColumn, required: false)
        let moneyOut = try number(row, outColumn, required: false)
        let filledIn = moneyIn.map { $0.significand != 0 } ?? false
        let filledOut = moneyOut.map { $0.significand != 0 } ?? false
        if filledIn, filledOut {
            throw row.problem(outColumn, "both \"\(header[inColumn])\" (\(row.cell(inColumn))) and \"\(header[outColumn])\" (\(row.cell(outColumn))) are filled; expected only one of them")
        }
        if let moneyIn, filledIn || !filledOut && moneyOut == nil { return moneyIn }
        if let moneyOut { return CSVAmount.magnitude(moneyOut).negated }
        throw row.problem(inColumn, "neither \"\(header[inColumn])\" nor \"\(header[outColumn])\" has an amount; expected one of them filled")
    }

    private func number(_ row: CSVRow, _ column: Int, required: Bool) throws(ImportProblem) -> DecimalAmount? {
        let cell = row.cell(column)
        if cell.isEmpty {
            guard !required else { throw row.problem(column, "the amount is empty; expected a decimal like \(example)") }
            return nil
        }
        guard let value = CSVAmount.parse(cell, decimal: mapping.decimal, grouping: mapping.grouping) else {
            throw row.problem(column, "\"\(cell)\" is no amount; expected a decimal like \(example)")
        }
        return value
    }

    /// A text cell, without NestEgg's formula guard when the mapping says so; nil when empty.
    private func text(_ row: CSVRow, _ column: Int) -> String? {
        var text = row.cell(column)
        if mapping.removesFormulaGuard, text.first == "'", let next = text.dropFirst().first, ["=", "+", "-", "@", "\t", "\r"].contains(next) {
            text = text.dropFirst()
        }
        return text.isEmpty ? nil : String(text)
    }
}

/// One record's cells, read on demand.
struct CSVRow {
    let record: CSVRecord
    let reader: CSVRecordReader
    let header: [String]

    /// The trimmed text of the cell at `column` (0-based).
    func cell(_ column: Int) -> Substring {
        Substring(reader.trimmedText(record.fields[column]))
    }

    func problem(_ column: Int, _ message: String) -> ImportProblem {
        ImportProblem(line: record.line, column: column + 1, element: header[column], message)
    }
}
