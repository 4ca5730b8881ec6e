// Reading a camt.052/.053 document as XMLParser streams it by: a stack of `CamtNode`s says where
// each element is, the texts wanted are collected, checked when their end tag comes and put into
// the statement being built. The first problem stops the parse.
//
// The delegate object is a thin shell: all state is one struct, `CamtReadState`, so that a
// callback costs one exclusive access to the delegate's memory, not one per property.

import Foundation  // Data, NSObject, NSError
#if canImport(FoundationXML)
import FoundationXML  // XMLParser, outside Foundation on Linux
#endif

final class CamtReader: NSObject, XMLParserDelegate {
    private var state: CamtReadState

    init(kind: CamtDocumentKind) {
        state = CamtReadState(kind: kind)
    }

    /// Parses the whole document; the statements in file order, or the first problem.
    func read(_ bytes: [UInt8]) throws(ImportProblem) -> [ImportedStatement] {
        // A stream, not `XMLParser(data:)`: that hands libxml2 the whole file as one chunk, which it
        // refuses beyond 10 MB ("huge input lookup"); a stream goes in chunks of 128 KB.
        let parser = XMLParser(stream: InputStream(data: Data(bytes)))
        parser.shouldResolveExternalEntities = false
        // Names as written (`ns2:Ntry`), their prefix dropped here: the namespace was checked on the
        // root already, and leaving it to XMLParser costs two strings per element.
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = self
        let finished = parser.parse()
        parser.delegate = nil
        return try state.result(finished: finished, parser)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        if !state.start(elementName, attributeDict, parser) { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if !state.end(parser) { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        state.characters(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        state.characters(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if !state.xmlError(parseError, parser) { parser.abortParsing() }
    }
}

/// Everything the reader knows while a document streams by.
struct CamtReadState {
    /// Deeper than any camt document nests (about 15 levels); more is refused, not followed.
    static let maximumDepth = 64

    private let kind: CamtDocumentKind
    private var stack: [CamtNode] = []
    private var statementCount = 0

    // The element whose text is being collected.
    private var text = ""
    private var capturing = false
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
    private var problem: ImportProblem?

    init(kind: CamtDocumentKind) {
        self.kind = kind
        stack.reserveCapacity(32)
    }

    /// The statements once the parse is over, or what went wrong.
    func result(finished: Bool, _ parser: XMLParser) throws(ImportProblem) -> [ImportedStatement] {
        if let problem { throw problem }
        guard finished else {
            throw ImportProblem(line: max(1, parser.lineNumber), column: parser.columnNumber, Self.malformed(parser.parserError))
        }
        guard statementCount > 0 else {
            throw ImportProblem(line: max(1, parser.lineNumber), element: kind.messageElementNames[0],
                                "the document has no \(kind.statementElementName); expected at least one account's \(kind.statementElementName)")
        }
        return statements
    }

    // MARK: Callbacks: each returns false when the parse is to stop.

    mutating func start(_ qualifiedName: String, _ attributes: [String: String], _ parser: XMLParser) -> Bool {
        guard problem == nil else { return false }
        guard stack.count < Self.maximumDepth else {
            return fail(position(parser, qualifiedName).problem("elements nest deeper than \(Self.maximumDepth) levels; a camt document nests about 15"))
        }
        capturing = false
        if stack.last == .ignored {  // everything inside an element not read is not read either
            stack.append(.ignored)
            return true
        }
        let name = Self.localName(qualifiedName)
        let node: CamtNode
        switch stack.last {
        case nil:
            node = .document
        case .document?:
            guard kind.messageElementNames.contains(name) else {
                return fail(position(parser, name).problem(
                    "found \(name) in a \(kind.message.rawValue) document; expected \(kind.messageElementNames[0])"))
            }
            node = .message
        case .message?:
            node = name == kind.statementElementName ? .statement : .ignored
        case let parent?:
            node = parent.child(name)
        }
        stack.append(node)
        guard node != .ignored else { return true }
        return begin(node, name, attributes, parser)
    }

    mutating func end(_ parser: XMLParser) -> Bool {
        guard problem == nil, let node = stack.popLast() else { return false }
        defer { capturing = false }
        guard node != .ignored else { return true }
        do throws(ImportProblem) {
            try end(node)
            return true
        } catch {
            return fail(error)
        }
    }

    mutating func characters(_ string: String) {
        if capturing { text += string }
    }

    mutating func xmlError(_ error: Error, _ parser: XMLParser) -> Bool {
        guard problem == nil else { return false }
        return fail(ImportProblem(line: max(1, parser.lineNumber), column: parser.columnNumber, Self.malformed(error)))
    }

    // MARK: Elements

    private func position(_ parser: XMLParser, _ element: String) -> CamtPosition {
        CamtPosition(line: max(1, parser.lineNumber), column: parser.columnNumber, node: .ignored, name: element)
    }

    /// Keeps the first problem; false, to stop the parse.
    private mutating func fail(_ problem: ImportProblem) -> Bool {
        if self.problem == nil { self.problem = problem }
        return false
    }

    /// A start tag the reader wants: opens a statement, balance, entry or transaction, notes an
    /// amount's currency, starts collecting text.
    private mutating func begin(_ node: CamtNode, _ name: String, _ attributes: [String: String], _ parser: XMLParser) -> Bool {
        let here = CamtPosition(line: max(1, parser.lineNumber), column: parser.columnNumber, node: node, name: name)
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
            guard let code = attributes["Ccy"] else {
                return fail(here.problem("the amount has no Ccy attribute; expected one like <Amt Ccy=\"EUR\">"))
            }
            amountCurrency = code.trimmingCamtWhitespace()
        default:
            break
        }
        if node.capturesText {
            capturing = true
            text = ""
            textPosition = here
        }
        return true
    }

    /// `Ntry` of `ns2:Ntry`.
    private static func localName(_ name: String) -> String {
        guard let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }

    /// An end tag the reader wants: the collected text goes where it belongs; a finished
    /// balance, entry or statement is checked and kept.
    private mutating func end(_ node: CamtNode) throws(ImportProblem) {
        let value = node.capturesText ? text.trimmingCamtWhitespace() : ""
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

    /// A sentence for an error of the XML itself, by libxml2's error number (which XMLParser's are).
    static func malformed(_ error: Error?) -> String {
        let code = (error as NSError?)?.code ?? 0
        let what: String
        switch code {
        case 4: what = "the file holds no XML document"
        case 5: what = "the document ends before its elements are closed (is the file cut short?)"
        case 9: what = "a character XML does not allow, or bytes that are not in the declared encoding"
        case 26, 27: what = "a reference to an entity that is not declared"
        case 31, 32: what = "an encoding the XML parser does not know"
        case 38, 39, 40, 41: what = "an attribute without a quoted value"
        case 42: what = "an attribute given twice"
        case 68: what = "a '<' not followed by a name"
        case 73: what = "a tag not closed by '>'"
        case 76: what = "an end tag that does not match its start tag"
        case 77: what = "a start tag without its end tag"
        case 85: what = "elements not properly nested"
        case 86: what = "content after the document's root element"
        case 201, 202, 203: what = "a namespace prefix that is not declared"
        default: what = "an XML syntax error"
        }
        return "the XML is not well-formed: \(what) (XML parser error \(code))"
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
