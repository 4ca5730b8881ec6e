// One message of an MT940/MT942 file becomes one `ImportedStatement`: the fields are read in
// order, each `:61:` becoming an entry that the `:86:` right after it describes.

/// Builds the statement of one message, checking what SWIFT requires of its order and sums.
struct MT940StatementBuilder {
    let bytes: [UInt8]
    let message: MT940Message

    private var account: ImportedAccount?
    private var accountField: MT940Field?
    private var currency: String?
    private var opening: StatedBalance?
    private var closing: StatedBalance?
    private var entries: [ImportedEntry] = []
    private var lastTag = ""
    private var interimMarker = false
    private var debitTotal: (MT940Total, MT940Field)?
    private var creditTotal: (MT940Total, MT940Field)?

    init(bytes: [UInt8], message: MT940Message) {
        self.bytes = bytes
        self.message = message
    }

    /// The message's statement, or the first thing wrong with it.
    mutating func build() throws(ImportProblem) -> ImportedStatement {
        try checkType()
        for field in message.fields {
            try read(field)
            lastTag = field.tag
        }
        return try finish()
    }

    /// Whether this is an interim report (MT942): by its header, else by its MT942-only fields.
    private var isInterim: Bool {
        if let declared = message.declaredType { return declared == "942" }
        return interimMarker
    }

    private func checkType() throws(ImportProblem) {
        guard let declared = message.declaredType, !["940", "942", "950"].contains(declared) else { return }
        throw ImportProblem(line: message.line, element: "{2:}",
                            "the SWIFT header declares message type MT\(declared); expected MT940, MT942 or MT950")
    }

    private mutating func read(_ field: MT940Field) throws(ImportProblem) {
        switch field.tag {
        case "25":
            if let accountField {
                throw ImportProblem(line: field.line, element: ":25:",
                                    "a second account in one statement (the first on line \(accountField.line)); expected one :25: per message")
            }
            accountField = field
        case "60F", "60M":
            try readOpening(field)
        case "61":
            try readStatementLine(field)
        case "86":
            if lastTag == "61", let index = entries.indices.last {
                let information = MT940Information.read(field, bytes: bytes)
                if !information.description.isEmpty { entries[index].description = information.description }
                entries[index].payee = information.payee
            }
            // else: information about the whole statement, not about an entry
        case "62F", "62M":
            try readClosing(field)
        case "34F":
            interimMarker = true
            try adopt(MT940Fields.floorLimitCurrency(field, bytes: bytes), field)
        case "13D", "13":
            interimMarker = true
        case "90D", "90C":
            interimMarker = true
            let total = try MT940Fields.total(field, bytes: bytes)
            if field.tag == "90D" { debitTotal = (total, field) } else { creditTotal = (total, field) }
        default:
            break  // :20:, :21:, :28:, :28C:, :64:, :65:, :NS: and other banks' own fields
        }
    }

    /// Takes `found` as the statement's currency, or checks it against the one already taken.
    private mutating func adopt(_ found: String, _ field: MT940Field) throws(ImportProblem) {
        if let currency, currency != found {
            throw ImportProblem(line: field.line, element: ":\(field.tag):",
                                "the currency \(found) differs from the statement's \(currency); expected one currency per statement")
        }
        currency = found
    }

    private mutating func readOpening(_ field: MT940Field) throws(ImportProblem) {
        if let opening {
            throw ImportProblem(line: field.line, element: ":\(field.tag):",
                                "a second opening balance (the first on line \(opening.line)); expected one :60F:/:60M: per statement")
        }
        let balance = try MT940Fields.balance(field, bytes: bytes)
        try adopt(balance.currency, field)
        opening = StatedBalance(date: balance.date, amount: balance.amount, line: field.line)
    }

    private mutating func readClosing(_ field: MT940Field) throws(ImportProblem) {
        if let closing {
            throw ImportProblem(line: field.line, element: ":\(field.tag):",
                                "a second closing balance (the first on line \(closing.line)); expected one :62F:/:62M: per statement")
        }
        let balance = try MT940Fields.balance(field, bytes: bytes)
        try adopt(balance.currency, field)
        closing = StatedBalance(date: balance.date, amount: balance.amount, line: field.line)
    }

    private mutating func readStatementLine(_ field: MT940Field) throws(ImportProblem) {
        guard accountField != nil, currency != nil else {
            throw ImportProblem(line: field.line, element: ":61:",
                                "a statement line before the statement's account and currency; expected :25: and :60F: (MT942: :34F:) before the first :61:")
        }
        if let closing {
            throw ImportProblem(line: field.line, element: ":61:",
                                "a statement line after the closing balance (line \(closing.line)); expected every :61: before :62F:")
        }
        let line = try MT940Fields.statementLine(field, bytes: bytes)
        let date = line.entryDate ?? line.valueDate
        entries.append(ImportedEntry(
            id: line.bankReference, date: date, valueDate: line.valueDate == date ? nil : line.valueDate, amount: line.amount,
            description: line.supplementaryDetails ?? "", reference: line.customerReference, kind: line.kind,
            status: .booked, line: field.line))
    }

    private mutating func finish() throws(ImportProblem) -> ImportedStatement {
        guard let accountField else {
            throw ImportProblem(line: message.line, element: ":25:", "a statement without an account; expected a :25: field")
        }
        if isInterim {
            guard let currency = currency ?? debitTotal?.0.currency ?? creditTotal?.0.currency else {
                throw ImportProblem(line: message.line, element: ":34F:", "an interim report (MT942) without a currency; expected a :34F: floor limit")
            }
            self.currency = currency
            try checkTotal(debitTotal, debits: true)
            try checkTotal(creditTotal, debits: false)
        } else {
            guard opening != nil else {
                throw ImportProblem(line: message.line, element: ":60F:", "a statement without an opening balance; expected :60F: or :60M:")
            }
            guard closing != nil else {
                throw ImportProblem(line: message.line, element: ":62F:", "a statement without a closing balance; expected :62F: or :62M: before its end")
            }
        }
        let account = try MT940Fields.account(accountField, bytes: bytes, currency: currency ?? "")
        return ImportedStatement(account: account, opening: opening, closing: closing, entries: entries, line: message.line)
    }

    /// Checks an MT942's `:90D:`/`:90C:` against its entries: as many debits (credits), adding up
    /// to the sum it states. `RC` entries are debits and `RD` credits, as their signs say.
    private func checkTotal(_ stated: (MT940Total, MT940Field)?, debits: Bool) throws(ImportProblem) {
        guard let (total, field) = stated else { return }
        let element = ":\(field.tag):"
        if let currency, total.currency != currency {
            throw ImportProblem(line: field.line, element: element,
                                "the currency \(total.currency) differs from the report's \(currency); expected one currency per report")
        }
        var count = 0
        var sum = DecimalAmount(significand: 0, scale: 0)
        for entry in entries where debits ? entry.amount.significand < 0 : entry.amount.significand > 0 {
            count += 1
            guard let next = sum.adding(debits ? entry.amount.negated : entry.amount) else {
                throw ImportProblem(line: entry.line, element: ":61:", "the sum of the \(debits ? "debits" : "credits") is too large to add up exactly")
            }
            sum = next
        }
        let what = debits ? "debit" : "credit"
        guard count == total.count, sum.isSameNumber(as: total.amount) else {
            throw ImportProblem(
                line: field.line, element: element,
                "states \(total.count) \(what) entries of \(total.amount.mt940Comma) \(total.currency), but the report has \(count) \(what) entries of \(sum.mt940Comma) \(total.currency); expected the two to agree")
        }
    }
}

extension DecimalAmount {
    /// As SWIFT writes it: `1234,56`.
    var mt940Comma: String {
        String(description.map { $0 == "." ? "," : $0 })
    }
}
