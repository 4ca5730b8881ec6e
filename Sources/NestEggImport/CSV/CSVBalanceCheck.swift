// A running-balance column checked against the amounts: the check that finds a misread sign, a
// wrong decimal separator or a missing row, and the source of the statement's opening and closing.

enum CSVBalanceCheck {
    /// The opening and closing balance of `rows` (booked rows, file order); throws at the first
    /// row whose stated balance does not follow from the one before and its amount.
    static func balances(_ rows: [CSVBalanceRow], column: String, columnIndex: Int) throws(ImportProblem) -> (opening: StatedBalance?, closing: StatedBalance?) {
        guard let first = rows.first, let last = rows.last, rows.contains(where: { $0.balance != nil }) else { return (nil, nil) }
        if first.date < last.date { return try chain(rows, column: column, columnIndex: columnIndex) }
        if last.date < first.date { return try chain(rows.reversed(), column: column, columnIndex: columnIndex) }
        // All on one day: whichever order the balances agree with.
        do {
            return try chain(rows, column: column, columnIndex: columnIndex)
        } catch {
            if let reversed = try? chain(rows.reversed(), column: column, columnIndex: columnIndex) { return reversed }
            throw error
        }
    }

    /// Checks `rows` in date order (oldest first).
    private static func chain(_ rows: [CSVBalanceRow], column: String, columnIndex: Int) throws(ImportProblem) -> (opening: StatedBalance?, closing: StatedBalance?) {
        guard let first = rows.first, let last = rows.last else { return (nil, nil) }
        var known: (amount: DecimalAmount, line: Int)?
        var sumBeforeFirstBalance = DecimalAmount(significand: 0, scale: 0)
        var opening: StatedBalance?
        for row in rows {
            if let previous = known {
                guard let computed = previous.amount.adding(row.amount) else {
                    throw ImportProblem(line: row.line, column: columnIndex + 1, element: column, "the running balance is too large to hold")
                }
                if let stated = row.balance, !stated.isSameNumber(as: computed) {
                    throw ImportProblem(line: row.line, column: columnIndex + 1, element: column,
                                        "the balance \(stated) does not follow from the balance \(previous.amount) after line \(previous.line) and this row's amount \(row.amount), which make \(computed); expected \(computed)")
                }
                known = (row.balance ?? computed, row.line)
                continue
            }
            guard let sum = sumBeforeFirstBalance.adding(row.amount) else {
                throw ImportProblem(line: row.line, column: columnIndex + 1, element: column, "the amounts add up to more than can be held")
            }
            sumBeforeFirstBalance = sum
            if let stated = row.balance {
                guard let start = stated.adding(sum.negated) else {
                    throw ImportProblem(line: row.line, column: columnIndex + 1, element: column, "the opening balance is too large to hold")
                }
                opening = StatedBalance(date: first.date, amount: start, line: first.line)
                known = (stated, row.line)
            }
        }
        let closing = known.map { StatedBalance(date: last.date, amount: $0.amount, line: last.line) }
        return (opening, closing)
    }
}
