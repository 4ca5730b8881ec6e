// The parts of a statement as the reader collects them, element by element, and the rules that
// make them an `ImportedStatement` once their end tag is reached: which balance opens and closes,
// an entry's sign, status, date, id, kind, description, payee and reference.

/// Where a value stands in the file, for the message if it is wrong. The element's path
/// (`Ntry/BookgDt/Dt`) is only made when there is a message.
struct CamtPosition: Sendable {
    var line: Int
    var column: Int?
    var node: CamtNode
    /// The element's local name, as written.
    var name: String

    var element: String { node.path(name) }

    func problem(_ message: String) -> ImportProblem {
        ImportProblem(line: line, column: column, element: element, message)
    }
}

/// Turns the texts of amounts, indicators, dates and codes into values, or says what is wrong.
enum CamtValues {
    /// An amount as camt writes it: digits with an optional `.` and fraction, never a sign (the
    /// sign is `CdtDbtInd`'s).
    static func amount(_ text: String, at position: CamtPosition) throws(ImportProblem) -> DecimalAmount {
        guard let first = text.utf8.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "+"),
              let amount = DecimalAmount(parsing: text) else {
            throw position.problem("\(quoted(text)) is no amount; expected a decimal without a sign like 12.50 (the sign is CdtDbtInd's)")
        }
        return amount
    }

    /// `CRDT` → true (money in), `DBIT` → false.
    static func isCredit(_ text: String, at position: CamtPosition) throws(ImportProblem) -> Bool {
        switch text {
        case "CRDT": return true
        case "DBIT": return false
        default: throw position.problem("\(quoted(text)) is no credit/debit indicator; expected CRDT or DBIT")
        }
    }

    /// The date of an ISO date (`Dt`) or date-time (`DtTm`, its date part as written).
    static func date(_ text: String, at position: CamtPosition) throws(ImportProblem) -> ImportDate {
        guard let date = ImportDate(iso: text) else {
            let expected = position.element.hasSuffix("DtTm") ? "a date-time like 2026-03-31T18:00:00" : "a date like 2026-03-31"
            throw position.problem("\(quoted(text)) is no date; expected \(expected)")
        }
        return date
    }

    /// An XML Schema boolean (`RvslInd`).
    static func boolean(_ text: String, at position: CamtPosition) throws(ImportProblem) -> Bool {
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw position.problem("\(quoted(text)) is no indicator; expected true or false")
        }
    }

    /// An ISO 4217 code: three capital letters.
    static func currency(_ text: String, at position: CamtPosition) throws(ImportProblem) -> String {
        guard text.utf8.count == 3, text.utf8.allSatisfy({ (65...90).contains($0) }) else {
            throw position.problem("\(quoted(text)) is no currency; expected an ISO 4217 code like EUR")
        }
        return text
    }

    /// `BOOK` → booked; `PDNG` and `INFO` (an entry not on the books yet, or only for
    /// information) → pending.
    static func status(_ text: String, at position: CamtPosition) throws(ImportProblem) -> ImportedEntry.Status {
        switch text {
        case "BOOK": return .booked
        case "PDNG", "INFO": return .pending
        default: throw position.problem("\(quoted(text)) is no entry status this reader knows; expected BOOK, PDNG or INFO")
        }
    }

    /// Text for a message: quoted, cut to 60 characters.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 60 ? text.prefix(60) + "…" : text) + "\""
    }
}

/// One `Bal` while it is read.
struct CamtBalanceBuilder {
    var line: Int
    var code: String?
    var amount: DecimalAmount?
    var isCredit: Bool?
    var date: ImportDate?

    /// The balance's type code and the balance, signed (a debit balance is an overdrawn account).
    func finish(at position: CamtPosition) throws(ImportProblem) -> (code: String?, balance: StatedBalance) {
        guard let amount else { throw position.problem("the balance has no Amt; expected one like <Amt Ccy=\"EUR\">100.00</Amt>") }
        guard let isCredit else { throw position.problem("the balance has no CdtDbtInd; expected CRDT or DBIT") }
        guard let date else { throw position.problem("the balance has no date; expected Dt/Dt or Dt/DtTm") }
        return (code, StatedBalance(date: date, amount: isCredit ? amount : amount.negated, line: line))
    }
}

/// One `TxDtls` of an entry.
struct CamtTransactionDetails {
    var servicerReference: String?
    var endToEndId: String?
    var debtorName: String?
    var creditorName: String?
    var unstructured: [String] = []
    var information: String?
}

/// One `Ntry` while it is read.
struct CamtEntryBuilder {
    var line: Int
    var entryReference: String?
    var amount: DecimalAmount?
    var isCredit: Bool?
    var isReversal = false
    var status: ImportedEntry.Status?
    /// Whether `Sts` had a child (`Cd`/`Prtry`, .07 on): then its own text is not the status.
    var statusFromChild = false
    var bookingDate: ImportDate?
    var valueDate: ImportDate?
    var servicerReference: String?
    var domainCode: String?
    var familyCode: String?
    var subFamilyCode: String?
    var proprietaryCode: String?
    var information: String?
    var transactions: [CamtTransactionDetails] = []

    func finish(at position: CamtPosition) throws(ImportProblem) -> ImportedEntry {
        guard let amount else { throw position.problem("the entry has no Amt; expected one like <Amt Ccy=\"EUR\">12.50</Amt>") }
        guard let isCredit else { throw position.problem("the entry has no CdtDbtInd; expected CRDT or DBIT") }
        guard let status else { throw position.problem("the entry has no Sts; expected BOOK, PDNG or INFO") }
        let date: ImportDate
        switch status {
        case .booked:
            guard let bookingDate else { throw position.problem("the booked entry has no BookgDt; expected BookgDt/Dt or BookgDt/DtTm") }
            date = bookingDate
        case .pending:
            guard let day = bookingDate ?? valueDate else {
                throw position.problem("the pending entry has neither BookgDt nor ValDt; expected one of them")
            }
            date = day
        }
        return ImportedEntry(
            id: id, date: date, valueDate: valueDate == date ? nil : valueDate,
            amount: isCredit ? amount : amount.negated, description: description, payee: payee(isCredit: isCredit),
            reference: reference, kind: kind, status: status, line: line
        )
    }

    /// The bank's reference of the entry, else its `NtryRef`, else the one transaction's bank reference.
    private var id: String? {
        servicerReference ?? entryReference ?? (transactions.count == 1 ? transactions[0].servicerReference : nil)
    }

    /// The bank transaction code, `Domn/Fmly/SubFmly` (`PMNT/ICDT/ESCT`) or the proprietary code,
    /// with " reversal" added to a reversal's.
    private var kind: String? {
        let domain = [domainCode, familyCode, subFamilyCode].compactMap { $0 }
        let code = domain.isEmpty ? proprietaryCode : domain.joined(separator: "/")
        guard isReversal else { return code }
        return code.map { $0 + " reversal" } ?? "reversal"
    }

    /// `AddtlNtryInf`, else the transactions' unstructured remittance lines, else their `AddtlTxInf`.
    private var description: String {
        if let information { return information }
        let lines = transactions.flatMap(\.unstructured)
        if !lines.isEmpty { return lines.joined(separator: " ") }
        return transactions.compactMap(\.information).joined(separator: " ")
    }

    /// The other party: the creditor of money paid out, the debtor of money paid in. A reversal
    /// undoes the opposite movement, so its other party is the original's (a returned direct
    /// debit, booked as a credit, names the creditor who collected it). When the transactions of
    /// a batch name different parties, there is no one payee.
    private func payee(isCredit: Bool) -> String? {
        let paidIn = isCredit != isReversal
        return Self.single(transactions.map { paidIn ? $0.debtorName : $0.creditorName })
    }

    /// The end-to-end id the payer gave, unless it is camt's "NOTPROVIDED".
    private var reference: String? {
        Self.single(transactions.map { $0.endToEndId == "NOTPROVIDED" ? nil : $0.endToEndId })
    }

    /// The one value the transactions agree on, ignoring those without one; `nil` when they differ.
    private static func single(_ values: [String?]) -> String? {
        var found: String?
        for case let value? in values {
            if let found, found != value { return nil }
            found = value
        }
        return found
    }
}

/// One `Stmt` (camt.053) or `Rpt` (camt.052) while it is read.
struct CamtStatementBuilder {
    var line: Int
    var iban: String?
    var number: String?
    var bank: String?
    var name: String?
    var holder: String?
    /// `Acct/Ccy`, else the `Ccy` of the first amount.
    var currency: String?
    var currencyFromAccount = false
    var opening: StatedBalance?
    var previousClosing: StatedBalance?
    var closing: StatedBalance?
    var entries: [ImportedEntry] = []

    /// Takes an `Acct/Ccy`: it must be the currency the amounts read so far are in.
    mutating func setAccountCurrency(_ code: String, at position: CamtPosition) throws(ImportProblem) {
        if let currency, currency != code {
            throw position.problem("the account's currency \(code) is not that of its amounts read before, \(currency)")
        }
        currency = code
        currencyFromAccount = true
    }

    /// Checks an amount's `Ccy` against the account's currency (or makes it that, when the
    /// account names none).
    mutating func checkAmountCurrency(_ code: String, at position: CamtPosition) throws(ImportProblem) {
        guard let currency else {
            currency = code
            return
        }
        guard code == currency else {
            let source = currencyFromAccount ? "the account's currency (Acct/Ccy)" : "the currency of the statement's first amount"
            throw position.problem("the amount is in \(code), not in \(currency), \(source); expected one currency per statement")
        }
    }

    /// Keeps the first opening (`OPBD`), previous closing (`PRCD`) and closing (`CLBD`) balance.
    mutating func add(balance: StatedBalance, code: String?) {
        switch code {
        case "OPBD": if opening == nil { opening = balance }
        case "PRCD": if previousClosing == nil { previousClosing = balance }
        case "CLBD": if closing == nil { closing = balance }
        default: break
        }
    }

    func finish(at position: CamtPosition) throws(ImportProblem) -> ImportedStatement {
        guard iban != nil || number != nil else {
            throw position.problem("the statement's account has neither Acct/Id/IBAN nor Acct/Id/Othr/Id; expected one of them")
        }
        guard let currency else {
            throw position.problem("the statement names no currency: no Acct/Ccy and no amount with a Ccy; expected one of them")
        }
        let account = ImportedAccount(iban: iban, number: number, bank: bank, currency: currency, name: name, holder: holder)
        return ImportedStatement(account: account, opening: opening ?? previousClosing, closing: closing, entries: entries, line: line)
    }
}
