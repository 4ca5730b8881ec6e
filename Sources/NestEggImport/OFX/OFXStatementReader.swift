// Walks the tokens of an OFX body as a tree (open, value, close) and collects the bank and
// credit-card statements in it.

/// Reads statements from tokenized OFX. Elements are interpreted by their parent (and
/// grandparent) only, so unknown aggregates (QFX's `INTU.*`, `MKTGINFO`, `BANKACCTTO`) and
/// unknown elements are passed over without effect.
struct OFXStatementReader {
    private let body: UnsafeBufferPointer<UInt8>
    private let tokens: [OFXToken]
    private let names: OFXTagNames
    private let decoder: OFXTextDecoder
    /// Whether a character may take several bytes (columns count characters).
    private let multiByte: Bool

    /// The open elements: tag number, and line.
    private var path: [(tag: UInt32, line: Int)] = []
    private var statements: [ImportedStatement] = []
    private var response: ResponseInProgress?
    private var statement: StatementInProgress?
    private var entry: EntryInProgress?
    private var balance: BalanceInProgress?
    private var signOn: ResponseInProgress?
    private var sawOFX = false
    private var investmentLine: Int?

    init(body: UnsafeBufferPointer<UInt8>, tokenizer: OFXTokenizer, charset: String) {
        self.body = body
        self.tokens = tokenizer.tokens
        self.names = tokenizer.names
        self.decoder = OFXTextDecoder(charset: charset)
        self.multiByte = !OFXParser.isSingleByte(charset)
    }

    // MARK: What is being read

    /// A `STMTTRNRS`/`CCSTMTTRNRS` (or `SONRS`): its status, and the statements it holds.
    private struct ResponseInProgress {
        var element: OFXElement
        var depth: Int
        var line: Int
        var code: (value: Int, line: Int)?
        var message: String?
        var statements: [ImportedStatement] = []
    }

    private struct StatementInProgress {
        var isCard: Bool
        var depth: Int
        var line: Int
        var currency: String?
        var bankID: String?
        var accountID: String?
        var accountType: String?
        var closing: StatedBalance?
        var entries: [ImportedEntry] = []
        /// The currencies the entries name (`CURRENCY/CURSYM` at rate 1), and whether one names
        /// none: what the statement's currency is when its `CURDEF` is empty.
        var entryCurrencies: Set<String> = []
        var entryWithoutCurrency = false
        /// The fields seen (bit = element number), to refuse a second one.
        var seen: UInt64 = 0
    }

    private struct EntryInProgress {
        var depth: Int
        var line: Int
        var type: String?
        var posted: ImportDate?
        var available: ImportDate?
        var amount: DecimalAmount?
        var id: String?
        var checkNumber: String?
        var referenceNumber: String?
        var name: String?
        var payeeName: String?
        var memo: String?
        /// `CURRENCY/CURSYM` and `CURRENCY/CURRATE`, when the entry names its own currency.
        var currencySymbol: String?
        var currencyRate: DecimalAmount?
        var seen: UInt64 = 0
    }

    private struct BalanceInProgress {
        var depth: Int
        var line: Int
        var amount: DecimalAmount?
        var date: ImportDate?
        /// `BALAMT`/`DTASOF` written empty: a balance whose every value is empty is not stated.
        var emptyAmount: Value?
        var emptyDate: Value?
        var seen: UInt64 = 0
    }

    /// One element's value, and where it is.
    private struct Value {
        var element: OFXElement
        /// The element's tag number (below 64).
        var number: UInt32
        var text: String
        var line: Int
        /// Where the value starts in the body (for the column of a problem).
        var offset: Int
    }

    // MARK: Walking the tokens

    mutating func read() throws(ImportProblem) -> [ImportedStatement] {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .start:
                if token.has(OFXToken.holdsText), index + 1 < tokens.count {
                    try element(token, text: tokens[index + 1])
                    index += 2
                    continue
                }
                if token.has(OFXToken.closed) {
                    let emptyElement = index + 1 < tokens.count && tokens[index + 1].kind == .end
                        && !(OFXElement(number: token.tag)?.isAggregate ?? false)
                    if emptyElement {
                        try element(token, text: nil)
                        index += 2
                        continue
                    }
                    try open(token)
                } else {
                    // An SGML element written empty, without end tag.
                    try element(token, text: nil)
                }
            case .end:
                if !token.has(OFXToken.closesElement), path.popLast() != nil {
                    try close()
                }
            case .text:
                if let parent = path.last {
                    throw ImportProblem(line: Int(token.line), column: column(of: Int(token.start)), element: names.name(of: parent.tag),
                                        "text \"\(String(text(of: token).prefix(40)))\" stands between elements of <\(names.name(of: parent.tag))>; expected it inside an element")
                }
            }
            index += 1
        }
        guard sawOFX else {
            throw ImportProblem(line: 1, "no <OFX> element; expected an OFX file (a header, then <OFX>…</OFX>)")
        }
        if statements.isEmpty, let investmentLine {
            throw ImportProblem(line: investmentLine, element: "INVSTMTRS",
                                "the file holds an investment statement, which is not imported; expected a bank (STMTRS) or credit-card (CCSTMTRS) statement")
        }
        return statements
    }

    private func text(of token: OFXToken) -> String {
        let start = Int(token.start)
        let end = Int(token.end)
        guard start >= 0, start <= end, end <= body.count else { return "" }
        return OFXValues.text(body[start..<end], decoder: decoder, decodeEntities: !token.has(OFXToken.literal))
    }

    /// 1-based column of a byte offset (counting characters, not bytes).
    private func column(of offset: Int) -> Int {
        var index = min(offset, body.count)
        var column = 1
        while index > 0, body[index - 1] != 0x0A, body[index - 1] != 0x0D {
            index -= 1
            if !multiByte || body[index] & 0xC0 != 0x80 { column += 1 }
        }
        return column
    }

    private var parent: OFXElement? { path.last.flatMap { OFXElement(number: $0.tag) } }

    private var grandparent: OFXElement? {
        path.count >= 2 ? OFXElement(number: path[path.count - 2].tag) : nil
    }

    // MARK: Aggregates

    private mutating func open(_ token: OFXToken) throws(ImportProblem) {
        let line = Int(token.line)
        let known = OFXElement(number: token.tag)
        let parent = self.parent
        path.append((token.tag, line))
        let depth = path.count
        switch known {
        case .ofx:
            sawOFX = true
        case .signOnResponse:
            signOn = ResponseInProgress(element: .signOnResponse, depth: depth, line: line)
        case .statementResponse, .cardStatementResponse:
            if let response {
                throw ImportProblem(line: line, element: known?.rawValue, "a response inside the response opened at line \(response.line); expected it closed first")
            }
            response = ResponseInProgress(element: known ?? .statementResponse, depth: depth, line: line)
        case .statement, .cardStatement:
            if let statement {
                throw ImportProblem(line: line, element: known?.rawValue, "a statement inside the statement opened at line \(statement.line); expected it closed first")
            }
            statement = StatementInProgress(isCard: known == .cardStatement, depth: depth, line: line)
        case .transaction where parent == .transactionList && statement != nil:
            entry = EntryInProgress(depth: depth, line: line)
        case .ledgerBalance where statement != nil && (parent == .statement || parent == .cardStatement):
            if statement?.closing != nil || balance != nil {
                throw ImportProblem(line: line, element: "LEDGERBAL", "a second LEDGERBAL in one statement; expected one")
            }
            balance = BalanceInProgress(depth: depth, line: line)
        case .investmentStatement:
            investmentLine = investmentLine ?? line
        default:
            break
        }
    }

    /// Finishes what the element just popped from `path` was holding.
    private mutating func close() throws(ImportProblem) {
        let depth = path.count + 1
        if let current = entry, current.depth == depth {
            entry = nil
            let finished = try Self.finishEntry(current)
            statement?.entries.append(finished)
            if let symbol = current.currencySymbol, let rate = current.currencyRate, Self.isOne(rate) {
                statement?.entryCurrencies.insert(symbol.uppercased())
            } else {
                statement?.entryWithoutCurrency = true
            }
        } else if let current = balance, current.depth == depth {
            balance = nil
            let closing = try Self.finishBalance(current)
            statement?.closing = closing
        } else if let current = statement, current.depth == depth {
            statement = nil
            let finished = try Self.finishStatement(current)
            if response != nil { response?.statements.append(finished) } else { statements.append(finished) }
        } else if let current = response, current.depth == depth {
            response = nil
            try Self.requireSuccess(current, what: "instead of a statement")
            statements.append(contentsOf: current.statements)
        } else if let current = signOn, current.depth == depth {
            signOn = nil
            try Self.requireSuccess(current, what: "to the sign-on")
        }
    }

    // MARK: Elements

    private mutating func element(_ token: OFXToken, text textToken: OFXToken?) throws(ImportProblem) {
        guard let element = OFXElement(number: token.tag) else { return }
        if element.isAggregate {
            // `<STMTTRN/>` or an aggregate written empty: opened and closed at once.
            try open(token)
            if path.popLast() != nil { try close() }
            return
        }
        let value: Value
        if let textToken {
            value = Value(element: element, number: token.tag, text: text(of: textToken), line: Int(textToken.line), offset: Int(textToken.start))
        } else {
            value = Value(element: element, number: token.tag, text: "", line: Int(token.line), offset: Int(token.end))
        }
        do {
            try use(value)
        } catch {
            // The column is worked out only now: counting it for every value would cost a scan
            // back to the line start each time (the whole file, for a one-line file).
            var problem = error
            if problem.column == nil, problem.line == value.line { problem.column = column(of: value.offset) }
            throw problem
        }
    }

    /// Takes a value into what is being read, by the element's parent (and grandparent).
    private mutating func use(_ value: Value) throws(ImportProblem) {
        let element = value.element
        switch parent {
        case .status:
            try statusValue(value)
        case .statement, .cardStatement:
            if element == .defaultCurrency, statement != nil {
                let seen = try Self.marked(statement?.seen ?? 0, value, in: "STMTRS")
                statement?.seen = seen
                statement?.currency = value.text
            }
        case .bankAccount, .cardAccount:
            if statement != nil, grandparent == .statement || grandparent == .cardStatement {
                try accountValue(value)
            }
        case .transactionList:
            if element == .listStart || element == .listEnd, statement != nil, !value.text.isEmpty {
                _ = try Self.date(value, in: "BANKTRANLIST")
            }
        case .transaction:
            if entry != nil { try entryValue(value) }
        case .payee:
            if element == .name, entry != nil, grandparent == .transaction {
                let seen = try Self.marked(entry?.seen ?? 0, value, in: "STMTTRN/PAYEE")
                entry?.seen = seen
                entry?.payeeName = Self.nonEmpty(value.text)
            }
        case .ledgerBalance:
            if balance != nil { try balanceValue(value) }
        case .currency:
            if entry != nil, grandparent == .transaction {
                if element == .currencySymbol { entry?.currencySymbol = Self.nonEmpty(value.text) }
                if element == .currencyRate { entry?.currencyRate = OFXValues.amount(value.text) }
            }
        default:
            break
        }
    }

    private mutating func statusValue(_ value: Value) throws(ImportProblem) {
        let owner = grandparent
        guard owner == .statementResponse || owner == .cardStatementResponse || owner == .signOnResponse else { return }
        let place = "\(owner?.rawValue ?? "")/STATUS"
        switch value.element {
        case .code:
            guard let code = Int(value.text), code >= 0 else {
                throw Self.problem(value, in: place, "\"\(value.text)\" is no status code; expected a number like 0")
            }
            if owner == .signOnResponse { signOn?.code = (code, value.line) } else { response?.code = (code, value.line) }
        case .message:
            if owner == .signOnResponse { signOn?.message = value.text } else { response?.message = value.text }
        default:
            break
        }
    }

    private mutating func accountValue(_ value: Value) throws(ImportProblem) {
        let place = statement?.isCard == true ? "CCACCTFROM" : "BANKACCTFROM"
        switch value.element {
        case .bankID, .accountID, .accountType:
            let seen = try Self.marked(statement?.seen ?? 0, value, in: place)
            statement?.seen = seen
        default:
            return
        }
        switch value.element {
        case .bankID: statement?.bankID = Self.nonEmpty(value.text)
        case .accountID: statement?.accountID = Self.nonEmpty(value.text)
        case .accountType: statement?.accountType = Self.nonEmpty(value.text)
        default: break
        }
    }

    private mutating func entryValue(_ value: Value) throws(ImportProblem) {
        let place = "STMTTRN"
        switch value.element {
        case .transactionType, .datePosted, .dateUser, .dateAvailable, .amount, .financialInstitutionID, .checkNumber,
             .referenceNumber, .name, .memo:
            let seen = try Self.marked(entry?.seen ?? 0, value, in: place)
            entry?.seen = seen
        default:
            return
        }
        switch value.element {
        case .transactionType: entry?.type = Self.nonEmpty(value.text)
        case .datePosted:
            let posted = try Self.date(value, in: place)
            entry?.posted = posted
        case .dateUser: _ = try Self.date(value, in: place)
        case .dateAvailable:
            let available = try Self.date(value, in: place)
            entry?.available = available
        case .amount:
            let amount = try Self.amount(value, in: place)
            entry?.amount = amount
        case .financialInstitutionID: entry?.id = Self.nonEmpty(value.text)
        case .checkNumber: entry?.checkNumber = Self.nonEmpty(value.text)
        case .referenceNumber: entry?.referenceNumber = Self.nonEmpty(value.text)
        case .name: entry?.name = Self.nonEmpty(value.text)
        case .memo: entry?.memo = Self.nonEmpty(value.text)
        default: break
        }
    }

    private mutating func balanceValue(_ value: Value) throws(ImportProblem) {
        switch value.element {
        case .balanceAmount:
            let seen = try Self.marked(balance?.seen ?? 0, value, in: "LEDGERBAL")
            balance?.seen = seen
            if value.text.isEmpty {
                balance?.emptyAmount = value
                return
            }
            let amount = try Self.amount(value, in: "LEDGERBAL")
            balance?.amount = amount
        case .balanceDate:
            let seen = try Self.marked(balance?.seen ?? 0, value, in: "LEDGERBAL")
            balance?.seen = seen
            if value.text.isEmpty {
                balance?.emptyDate = value
                return
            }
            let date = try Self.date(value, in: "LEDGERBAL")
            balance?.date = date
        default:
            break
        }
    }

    // MARK: Finishing

    private static func finishEntry(_ entry: EntryInProgress) throws(ImportProblem) -> ImportedEntry {
        guard let posted = entry.posted else {
            throw ImportProblem(line: entry.line, element: "STMTTRN",
                                "the transaction has no DTPOSTED; expected the day it was posted, like <DTPOSTED>20240115")
        }
        guard let amount = entry.amount else {
            throw ImportProblem(line: entry.line, element: "STMTTRN",
                                "the transaction has no TRNAMT; expected its amount, like <TRNAMT>-12.50")
        }
        let payee = entry.name ?? entry.payeeName
        return ImportedEntry(
            id: entry.id, date: posted, valueDate: entry.available == posted ? nil : entry.available, amount: amount,
            description: entry.memo ?? payee ?? "", payee: payee, reference: entry.checkNumber ?? entry.referenceNumber,
            kind: entry.type, status: .booked, line: entry.line
        )
    }

    /// The balance; `nil` when every value of it is written empty (`<BALAMT></BALAMT>
    /// <DTASOF></DTASOF>`, as Australian banks' downloads have it): a balance not stated.
    private static func finishBalance(_ balance: BalanceInProgress) throws(ImportProblem) -> StatedBalance? {
        if balance.amount == nil, balance.date == nil, balance.emptyAmount != nil || balance.emptyDate != nil { return nil }
        if let empty = balance.emptyAmount { _ = try Self.amount(empty, in: "LEDGERBAL") }
        if let empty = balance.emptyDate { _ = try Self.date(empty, in: "LEDGERBAL") }
        guard let amount = balance.amount else {
            throw ImportProblem(line: balance.line, element: "LEDGERBAL", "the balance has no BALAMT; expected its amount, like <BALAMT>1234.56")
        }
        guard let date = balance.date else {
            throw ImportProblem(line: balance.line, element: "LEDGERBAL", "the balance has no DTASOF; expected the day it is of, like <DTASOF>20240131")
        }
        return StatedBalance(date: date, amount: amount, line: balance.line)
    }

    private static func finishStatement(_ statement: StatementInProgress) throws(ImportProblem) -> ImportedStatement {
        let element = statement.isCard ? "CCSTMTRS" : "STMTRS"
        guard var currencyText = statement.currency else {
            throw ImportProblem(line: statement.line, element: element, "the statement has no CURDEF; expected its currency, like <CURDEF>USD")
        }
        // An empty CURDEF (Australian banks write one) is the one currency every entry names
        // at rate 1 (`CURRENCY/CURSYM`), when they all name the same.
        if currencyText.isEmpty, !statement.entryWithoutCurrency, statement.entryCurrencies.count == 1,
           let named = statement.entryCurrencies.first {
            currencyText = named
        }
        let currency = currencyText.uppercased()
        guard currency.utf8.count == 3, currency.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw ImportProblem(line: statement.line, element: element + "/CURDEF",
                                "\"\(currencyText)\" is no currency code; expected three letters (ISO 4217) like USD")
        }
        let accountElement = statement.isCard ? "CCACCTFROM" : "BANKACCTFROM"
        guard let number = statement.accountID else {
            throw ImportProblem(line: statement.line, element: element,
                                "the statement has no \(accountElement)/ACCTID; expected the account's number")
        }
        let kind: ImportedAccount.Kind
        if statement.isCard {
            kind = .creditCard
        } else {
            switch statement.accountType?.uppercased() {
            case "CHECKING": kind = .current
            case "SAVINGS": kind = .savings
            default: kind = .other
            }
        }
        let account = ImportedAccount(number: number, bank: statement.isCard ? nil : statement.bankID, currency: currency, kind: kind)
        return ImportedStatement(account: account, closing: statement.closing, entries: statement.entries, line: statement.line)
    }

    private static func requireSuccess(_ response: ResponseInProgress, what: String) throws(ImportProblem) {
        guard let code = response.code, code.value != 0 else { return }
        let message = response.message.map { ": \"\($0)\"" } ?? ""
        throw ImportProblem(line: code.line, element: "\(response.element.rawValue)/STATUS/CODE",
                            "the bank answered with status \(code.value)\(message) \(what); expected status 0 (success)")
    }

    // MARK: Values

    /// `seen` with `value`'s element added; a problem when it was there already (a second
    /// TRNAMT in one STMTTRN is no value to choose from silently).
    private static func marked(_ seen: UInt64, _ value: Value, in place: String) throws(ImportProblem) -> UInt64 {
        let bit: UInt64 = 1 << UInt64(value.number)
        if seen & bit != 0 {
            throw Self.problem(value, in: place, "a second \(value.element.rawValue) in one \(place.split(separator: "/").last ?? ""); expected one")
        }
        return seen | bit
    }

    private static func date(_ value: Value, in place: String) throws(ImportProblem) -> ImportDate {
        guard let date = OFXValues.date(value.text) else {
            throw Self.problem(value, in: place, "\"\(value.text)\" is no OFX date; expected YYYYMMDD, optionally with a time and zone like 20240115120000.000[-5:EST]")
        }
        return date
    }

    private static func amount(_ value: Value, in place: String) throws(ImportProblem) -> DecimalAmount {
        guard let amount = OFXValues.amount(value.text) else {
            throw Self.problem(value, in: place, "\"\(value.text)\" is no amount; expected a decimal like -12.50")
        }
        return amount
    }

    private static func problem(_ value: Value, in place: String, _ message: String) -> ImportProblem {
        ImportProblem(line: value.line, element: "\(place)/\(value.element.rawValue)", message)
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// Whether `amount` is exactly 1 (`1`, `1.0000`).
    private static func isOne(_ amount: DecimalAmount) -> Bool {
        var unit: Int64 = 1
        for _ in 0..<min(amount.scale, 18) { unit *= 10 }
        return amount.significand == unit
    }
}
