// Reading a camt.052/.053 document as `CamtXMLTokenizer` finds its tags: a stack of `CamtNode`s
// says where each element is, the texts wanted are collected, checked when their end tag comes and
// put into the statement being built. The first problem stops the parse.

enum CamtReader {
    /// Parses the whole document in `encoding`; the statements in file order, or the first problem.
    /// With `fallbackAllowed` (a document that declares no encoding), `nil` when its bytes turn out
    /// not to be UTF-8: then it is to be read again as Windows-1252.
    static func read(_ bytes: [UInt8], kind: CamtDocumentKind, encoding: CamtEncoding,
                     fallbackAllowed: Bool = false) throws(ImportProblem) -> [ImportedStatement]? {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ImportProblem) -> [ImportedStatement]? in
            guard let base = buffer.baseAddress else { throw ImportProblem(line: 1, "the file is empty; expected a camt document") }
            var tokenizer = CamtXMLTokenizer(base, count: buffer.count, encoding: encoding, fallbackAllowed: fallbackAllowed)
            var state = CamtReadState(kind: kind)
            do throws(ImportProblem) {
                while true {
                    switch try tokenizer.next() {
                    case .start(let selfClosing):
                        try state.start(&tokenizer)
                        if selfClosing { try state.end(&tokenizer) }
                    case .end:
                        try state.end(&tokenizer)
                    case .finished:
                        return try state.result(line: tokenizer.line)
                    }
                }
            } catch {
                if tokenizer.notUTF8 { return nil }
                throw error
            }
        }
    }
}

/// Everything the reader knows while a document is read.
struct CamtReadState {
    /// Deeper than any camt document nests (about 15 levels); more is refused, not followed.
    static let maximumDepth = 64

    private let kind: CamtDocumentKind
    private var stack: [CamtNode] = []
    private var statementCount = 0

    // Where the element whose text is being collected (by the tokenizer) is.
    private var textPosition = CamtPosition(line: 0, column: nil, node: .ignored, name: "")

    // The `Ccy` attribute of the `Amt` being read.
    private var amountCurrency = ""

    private var statement: CamtStatementBuilder?
    private var statementPosition = CamtPosition(line: 0, column: nil, node: .statement, name: "Stmt")
    private var balance: CamtBalanceBuilder?
    private var balancePosition = CamtPosition(line: 0, column: nil, node: .balance, name: "Bal")
    private var entry: CamtEntryBuilder?
    private var entryPosition = CamtPosition(line: 0, column: nil, node: .entry, name: "Ntry")
    private var transaction: CamtTransactionDetails?

    private var statements: [ImportedStatement] = []

    init(kind: CamtDocumentKind) {
        self.kind = kind
        stack.reserveCapacity(32)
    }

    /// The statements once the document has ended.
    func result(line: Int) throws(ImportProblem) -> [ImportedStatement] {
        guard statementCount > 0 else {
            throw ImportProblem(line: max(1, line), element: kind.messageElementNames[0],
                                "the document has no \(kind.statementElementName); expected at least one account's \(kind.statementElementName)")
        }
        return statements
    }

    // MARK: Tags

    /// A start tag: where it is in the tree, and what the reader does with it.
    mutating func start(_ tokenizer: inout CamtXMLTokenizer) throws(ImportProblem) {
        guard stack.count < Self.maximumDepth else {
            throw ImportProblem(line: tokenizer.tagLine, column: tokenizer.tagColumn, element: tokenizer.qualifiedName,
                                "elements nest deeper than \(Self.maximumDepth) levels; a camt document nests about 15")
        }
        tokenizer.endCapture()
        if stack.last == .ignored {  // everything inside an element not read is not read either
            stack.append(.ignored)
            return
        }
        let name = tokenizer.localName
        let node: CamtNode
        switch stack.last {
        case nil:
            node = .document
        case .document?:
            guard kind.isMessageElement(name) else {
                throw ImportProblem(line: tokenizer.tagLine, column: tokenizer.tagColumn, element: name.string,
                                    "found \(name.string) in a \(kind.message.rawValue) document; expected \(kind.messageElementNames[0])")
            }
            node = .message
        case .message?:
            node = kind.isStatementElement(name) ? .statement : .ignored
        case let parent?:
            node = parent.child(name)
        }
        stack.append(node)
        guard node != .ignored else { return }
        try begin(node, &tokenizer)
    }

    /// An end tag (the tokenizer has checked that it matches).
    mutating func end(_ tokenizer: inout CamtXMLTokenizer) throws(ImportProblem) {
        guard let node = stack.popLast() else { return }
        guard node != .ignored else {
            tokenizer.endCapture()
            return
        }
        let value = node.capturesText ? tokenizer.capturedText : ""
        tokenizer.endCapture()
        try end(node, value)
    }

    // MARK: Elements

    /// A start tag the reader wants: opens a statement, balance, entry or transaction, notes an
    /// amount's currency, starts collecting text.
    private mutating func begin(_ node: CamtNode, _ tokenizer: inout CamtXMLTokenizer) throws(ImportProblem) {
        let here = CamtPosition(line: tokenizer.tagLine, column: tokenizer.tagColumn, node: node, name: node.elementName(tokenizer.localName))
        switch node {
        case .statement:
            statementCount += 1
            statement = CamtStatementBuilder(line: here.line)
            statementPosition = here
        case .balance:
            balance = CamtBalanceBuilder(line: here.line)
            balancePosition = here
        case .entry:
            entry = CamtEntryBuilder(line: here.line)
            entryPosition = here
        case .transaction:
            transaction = CamtTransactionDetails()
        case .balanceAmount, .entryAmount:
            guard let code = tokenizer.attribute("Ccy") else {
                throw here.problem("the amount has no Ccy attribute; expected one like <Amt Ccy=\"EUR\">")
            }
            amountCurrency = code.trimmingCamtWhitespace()
        default:
            break
        }
        if node.capturesText {
            tokenizer.beginCapture()
            textPosition = here
        }
    }

    /// An end tag the reader wants: the collected text goes where it belongs; a finished
    /// balance, entry or statement is checked and kept.
    private mutating func end(_ node: CamtNode, _ value: String) throws(ImportProblem) {
        let at = textPosition
        switch node {
        case .statement:
            if let statement { statements.append(try statement.finish(at: statementPosition)) }
            statement = nil
        case .balance:
            if let balance {
                let (code, stated) = try balance.finish(at: balancePosition)
                statement?.add(balance: stated, code: code)
            }
            balance = nil
        case .entry:
            if let entry { statement?.entries.append(try entry.finish(at: entryPosition)) }
            entry = nil
        case .transaction:
            if let transaction { entry?.transactions.append(transaction) }
            transaction = nil
        case .iban, .otherAccountIdValue, .accountCurrency, .accountName, .ownerName, .servicerBIC:
            try endAccountField(node, value, at)
        case .balanceTypeCode, .balanceAmount, .balanceCreditDebit, .balanceDateValue:
            try endBalanceField(node, value, at)
        case .transactionServicerReference, .endToEndId, .debtorName, .creditorName, .unstructured, .transactionInformation:
            endTransactionField(node, value)
        default:
            try endEntryField(node, value, at)
        }
    }

    private mutating func endAccountField(_ node: CamtNode, _ value: String, _ at: CamtPosition) throws(ImportProblem) {
        let text = value.isEmpty ? nil : value
        switch node {
        case .iban: statement?.iban = text.map { String($0.uppercased().filter { $0 != " " }) }
        case .otherAccountIdValue: statement?.number = text
        case .accountCurrency: try statement?.setAccountCurrency(CamtValues.currency(value, at: at), at: at)
        case .accountName: statement?.name = text
        case .ownerName: statement?.holder = text
        case .servicerBIC: statement?.bank = text
        default: break
        }
    }

    private mutating func endBalanceField(_ node: CamtNode, _ value: String, _ at: CamtPosition) throws(ImportProblem) {
        switch node {
        case .balanceTypeCode: balance?.code = value
        case .balanceAmount:
            balance?.amount = try CamtValues.amount(value, at: at)
            try statement?.checkAmountCurrency(CamtValues.currency(amountCurrency, at: at), at: at)
        case .balanceCreditDebit: balance?.isCredit = try CamtValues.isCredit(value, at: at)
        case .balanceDateValue: balance?.date = try CamtValues.date(value, at: at)
        default: break
        }
    }

    private mutating func endEntryField(_ node: CamtNode, _ value: String, _ at: CamtPosition) throws(ImportProblem) {
        let text = value.isEmpty ? nil : value
        switch node {
        case .entryReference: entry?.entryReference = text
        case .entryAmount:
            entry?.amount = try CamtValues.amount(value, at: at)
            try statement?.checkAmountCurrency(CamtValues.currency(amountCurrency, at: at), at: at)
        case .entryCreditDebit: entry?.isCredit = try CamtValues.isCredit(value, at: at)
        case .entryReversal: entry?.isReversal = try CamtValues.boolean(value, at: at)
        case .entryStatusCode:
            entry?.status = try CamtValues.status(value, at: at)
            entry?.statusFromChild = true
        case .entryStatus:
            if entry?.statusFromChild != true { entry?.status = try CamtValues.status(value, at: at) }
        case .bookingDateValue: entry?.bookingDate = try CamtValues.date(value, at: at)
        case .valueDateValue: entry?.valueDate = try CamtValues.date(value, at: at)
        case .entryServicerReference: entry?.servicerReference = text
        case .bankDomainCode: entry?.domainCode = text
        case .bankFamilyCode: entry?.familyCode = text
        case .bankSubFamilyCode: entry?.subFamilyCode = text
        case .bankProprietaryCode: entry?.proprietaryCode = text
        case .entryInformation: entry?.information = text
        default: break
        }
    }

    private mutating func endTransactionField(_ node: CamtNode, _ value: String) {
        guard !value.isEmpty else { return }
        switch node {
        case .transactionServicerReference: transaction?.servicerReference = value
        case .endToEndId: transaction?.endToEndId = value
        case .debtorName: transaction?.debtorName = value
        case .creditorName: transaction?.creditorName = value
        case .unstructured: transaction?.unstructured.append(value)
        case .transactionInformation: transaction?.information = value
        default: break
        }
    }
}

extension String {
    /// The text without the XML whitespace (space, tab, CR, LF) around it.
    func trimmingCamtWhitespace() -> String {
        let utf8 = self.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        if first == utf8.startIndex, last == utf8.index(before: utf8.endIndex) { return self }
        return String(decoding: utf8[first...last], as: UTF8.self)
    }
}
