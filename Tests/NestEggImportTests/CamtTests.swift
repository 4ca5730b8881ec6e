import Foundation
import Testing
@testable import NestEggImport

// camt.052/.053: the samples in Tests/Samples/imports/camt (see its README), inline documents for
// each rule and variant, and the problems bad input gives.

// MARK: - Helpers

/// Tests/Samples: found by walking up from this file (a symlinked copy of it elsewhere has no
/// Samples next to it, so then the environment's NESTEGG_SAMPLES names it).
private func camtSamplesFolder(filePath: String = #filePath) -> URL {
    var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while folder.path != "/" {
        let candidate = folder.appendingPathComponent("Samples")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("imports/camt").path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: ProcessInfo.processInfo.environment["NESTEGG_SAMPLES"] ?? "Tests/Samples")
}

private func camtSample(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: camtSamplesFolder().appendingPathComponent("imports/camt/\(name)")))
}

private func camtParseSample(_ name: String) throws -> [ImportedStatement] {
    try CamtParser.parse(camtSample(name))
}

private let camtSampleNames = [
    "camt053-v01.xml", "camt053-v02-de-giro.xml", "camt053-v02-latin1.xml", "camt053-v02-two-accounts.xml",
    "camt053-v04-nl-batch.xml", "camt053-v08-reversal.xml", "camt052-v02-pending.xml",
]

/// The 1-based lines on which `needle` starts in `text` (lines ended by LF, CRLF or CR).
private func camtLines(of needle: String, in bytes: [UInt8]) -> [Int] {
    let text = ImportText.decode(bytes)
    return ImportText.lines(text).filter { $0.text.contains(needle) }.map(\.number)
}

private func camtDecimal(_ text: String) -> DecimalAmount {
    DecimalAmount(parsing: text) ?? DecimalAmount(significand: Int64.min, scale: 0)
}

private func camtDate(_ text: String) -> ImportDate? { ImportDate(iso: text) }

/// The problem `parse` throws for `xml`, or `nil` when it parses.
private func camtProblem(_ xml: String) -> ImportProblem? {
    do {
        _ = try CamtParser.parse(Array(xml.utf8))
        return nil
    } catch {
        return error
    }
}

private func camtParse(_ xml: String) throws -> [ImportedStatement] {
    try CamtParser.parse(Array(xml.utf8))
}

/// A camt.053 (or .052) document of one statement: `account` and `balances` default to an EUR
/// IBAN account without balances; `entries` is the XML of the entries. Each part starts on its
/// own line, so that lines can be counted: the document's first `<Ntry>` is on line 8 when
/// `account` and `balances` are one line each.
private func camtDocument(_ entries: String, version: String = "053.001.08",
                          account: String = "<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>",
                          balances: String = "") -> String {
    let report = version.hasPrefix("052")
    let message = report ? "BkToCstmrAcctRpt" : "BkToCstmrStmt"
    let statement = report ? "Rpt" : "Stmt"
    return """
    <?xml version="1.0" encoding="UTF-8"?>
    <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.\(version)">
    <\(message)><GrpHdr><MsgId>T</MsgId><CreDtTm>2026-01-01T00:00:00</CreDtTm></GrpHdr>
    <\(statement)>
    <Id>S1</Id>
    \(account)
    \(balances)
    \(entries)
    </\(statement)>
    </\(message)>
    </Document>
    """
}

/// One entry, its parts replaceable; the defaults make a booked debit of 10.00 EUR on 2026-01-05.
private func camtEntry(amount: String = "<Amt Ccy=\"EUR\">10.00</Amt>", indicator: String = "<CdtDbtInd>DBIT</CdtDbtInd>",
                       status: String = "<Sts><Cd>BOOK</Cd></Sts>", booking: String = "<BookgDt><Dt>2026-01-05</Dt></BookgDt>",
                       value: String = "", extra: String = "", details: String = "", info: String = "") -> String {
    "<Ntry>\(amount)\(indicator)\(extra)\(status)\(booking)\(value)<BkTxCd/>\(details)\(info)</Ntry>"
}

private func camtBalance(_ code: String, _ amount: String, _ indicator: String = "CRDT", date: String = "<Dt>2026-01-31</Dt>",
                         currency: String = "EUR") -> String {
    "<Bal><Tp><CdOrPrtry><Cd>\(code)</Cd></CdOrPrtry></Tp><Amt Ccy=\"\(currency)\">\(amount)</Amt><CdtDbtInd>\(indicator)</CdtDbtInd><Dt>\(date)</Dt></Bal>"
}

/// A camt.053.001.08 statement of `count` entries, each with the details a bank gives (references,
/// both parties, a bank transaction code, two remittance lines), alternating credits and debits.
func camtGeneratedStatement(entries count: Int) -> [UInt8] {
    var xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
    <BkToCstmrStmt><GrpHdr><MsgId>GEN</MsgId><CreDtTm>2026-01-01T00:00:00</CreDtTm></GrpHdr>
    <Stmt><Id>GEN-1</Id>
    <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy><Ownr><Nm>Generated Holder</Nm></Ownr></Acct>
    <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-12-31</Dt></Dt></Bal>

    """
    xml.reserveCapacity(count * 1_100 + 1_000)
    for index in 0..<count {
        let credit = index % 2 == 0
        let day = 1 + index % 28
        let date = "2026-01-\(day < 10 ? "0" : "")\(day)"
        let cents = 100 + index % 9_900
        let amount = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
        xml += """
            <Ntry>
              <NtryRef>\(index)</NtryRef>
              <Amt Ccy="EUR">\(amount)</Amt>
              <CdtDbtInd>\(credit ? "CRDT" : "DBIT")</CdtDbtInd>
              <Sts><Cd>BOOK</Cd></Sts>
              <BookgDt><Dt>\(date)</Dt></BookgDt>
              <ValDt><Dt>\(date)</Dt></ValDt>
              <AcctSvcrRef>REF-\(index)</AcctSvcrRef>
              <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>\(credit ? "RCDT" : "ICDT")</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
              <NtryDtls>
                <TxDtls>
                  <Refs><EndToEndId>E2E-\(index)</EndToEndId></Refs>
                  <RltdPties>
                    <Dbtr><Pty><Nm>Debtor \(index)</Nm></Pty></Dbtr>
                    <DbtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></DbtrAcct>
                    <Cdtr><Pty><Nm>Creditor \(index)</Nm></Pty></Cdtr>
                    <CdtrAcct><Id><IBAN>DE02500105170137075030</IBAN></Id></CdtrAcct>
                  </RltdPties>
                  <RmtInf><Ustrd>Invoice \(index) of January 2026</Ustrd><Ustrd>Customer 4711 &amp; thanks</Ustrd></RmtInf>
                </TxDtls>
              </NtryDtls>
            </Ntry>

        """
    }
    xml += "</Stmt>\n</BkToCstmrStmt>\n</Document>\n"
    return Array(xml.utf8)
}

/// Opening balance plus the booked entries, in cents.
private func camtBookedTotal(_ statement: ImportedStatement) -> Int64? {
    guard let opening = statement.opening?.amount.minorUnits(minorDigits: 2) else { return nil }
    var total = opening
    for entry in statement.entries where entry.status == .booked {
        guard let cents = entry.amount.minorUnits(minorDigits: 2) else { return nil }
        let (sum, overflow) = total.addingReportingOverflow(cents)
        guard !overflow else { return nil }
        total = sum
    }
    return total
}

// MARK: - Samples

@Suite struct CamtSampleTests {
    @Test func everySampleIsRecognisedAndIdentified() throws {
        let expected: [String: CamtDocumentKind] = [
            "camt053-v01.xml": .init(message: .statement, version: 1),
            "camt053-v02-de-giro.xml": .init(message: .statement, version: 2),
            "camt053-v02-latin1.xml": .init(message: .statement, version: 2),
            "camt053-v02-two-accounts.xml": .init(message: .statement, version: 2),
            "camt053-v04-nl-batch.xml": .init(message: .statement, version: 4),
            "camt053-v08-reversal.xml": .init(message: .statement, version: 8),
            "camt052-v02-pending.xml": .init(message: .report, version: 2),
        ]
        for name in camtSampleNames {
            let bytes = try camtSample(name)
            #expect(CamtParser.recognises(bytes), "\(name)")
            #expect(CamtParser.identify(bytes) == expected[name], "\(name)")
        }
    }

    @Test func everySampleFolderFileIsTestedAndDescribed() throws {
        let folder = camtSamplesFolder().appendingPathComponent("imports/camt")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(files == camtSampleNames.sorted())
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for name in files { #expect(readme.contains("`\(name)`"), "README.md does not describe \(name)") }
    }

    @Test func balancesAddUpInEverySample() throws {
        for name in camtSampleNames {
            for statement in try camtParseSample(name) {
                guard let closing = statement.closing else { continue }
                #expect(camtBookedTotal(statement) == closing.amount.minorUnits(minorDigits: 2), "\(name) line \(statement.line)")
            }
        }
    }

    @Test func germanGiroStatementVersion2() throws {
        let bytes = try camtSample("camt053-v02-de-giro.xml")
        let statements = try CamtParser.parse(bytes)
        #expect(statements.count == 1)
        let statement = try #require(statements.first)
        #expect(statement.account == ImportedAccount(iban: "DE74100200300987654321", bank: "NESTDEFFXXX", currency: "EUR", holder: "Erika Mustermann"))
        #expect(statement.line == camtLines(of: "<Stmt>", in: bytes).first)
        // No OPBD: the previous closing balance (PRCD) opens.
        #expect(statement.opening == StatedBalance(date: try #require(camtDate("2026-02-28")), amount: camtDecimal("1000.00"),
                                                   line: camtLines(of: "<Bal>", in: bytes)[0]))
        #expect(statement.closing?.amount == camtDecimal("2831.70"))
        #expect(statement.closing?.date == camtDate("2026-03-31"))
        #expect(statement.entries.map(\.line) == camtLines(of: "<Ntry>", in: bytes))

        let e = statement.entries
        #expect(e.count == 5)
        #expect(e[0] == ImportedEntry(id: "2026030200012345", date: try #require(camtDate("2026-03-02")), valueDate: nil,
                                      amount: camtDecimal("2450.00"), description: "GUTSCHR. UEBERWEISUNG",
                                      payee: "Muster Maschinenbau GmbH", reference: "LOHN-2026-03-0042",
                                      kind: "PMNT/RCDT/ESCT", status: .booked, line: e[0].line))
        #expect(e[1].amount == camtDecimal("-89.90"))
        #expect(e[1].valueDate == camtDate("2026-03-02"))
        #expect(e[1].date == camtDate("2026-03-03"))
        #expect(e[1].description == "Abschlag Strom März 2026 Kundennr. 4711")
        #expect(e[1].payee == "Stadtwerke Musterstadt")
        #expect(e[1].kind == "PMNT/IDDT/ESDD")
        #expect(e[2].id == "NR-000003")
        #expect(e[2].reference == nil)  // NOTPROVIDED
        #expect(e[2].payee == "BÄCKEREI KORN")
        #expect(e[3].id == "TX-20260305-77")  // the one transaction's AcctSvcrRef
        #expect(e[3].reference == "MIETE-2026-03")
        #expect(e[4].kind == "NCHG+805+00931")  // proprietary code only
        #expect(e[4].description == "Kontoführungsentgelt 03/2026")
        #expect(e[4].payee == nil)
    }

    @Test func dutchBatchStatementVersion4() throws {
        let statement = try #require(try camtParseSample("camt053-v04-nl-batch.xml").first)
        #expect(statement.account.name == "Gezamenlijke rekening")
        #expect(statement.account.holder == "J. de Vries & A. Jansen")
        #expect(statement.account.bank == "NEGGNL2A")
        #expect(statement.opening?.amount == camtDecimal("-75.10"))  // DBIT: overdrawn
        #expect(statement.opening?.date == camtDate("2026-04-01"))
        #expect(statement.closing?.amount == camtDecimal("36.38"))  // CLBD, not CLAV or FWAV
        let batch = statement.entries[0]
        #expect(batch.amount == camtDecimal("150.00"))
        #expect(batch.id == "NL-0401-BATCH-0007")
        #expect(batch.description == "Contributie Q2 lid 017 Contributie Q2 lid 018 Contributie Q2 lid 021")
        #expect(batch.payee == nil)  // three debtors
        #expect(batch.reference == nil)  // three end-to-end ids
        #expect(batch.kind == "PMNT/RCDT/BOOK")
        let ideal = statement.entries[1]
        #expect(ideal.date == camtDate("2026-04-02"))  // from BookgDt/DtTm
        #expect(ideal.valueDate == nil)  // the same day
        #expect(ideal.description == "Bestelling 88812 Webwinkel")  // Ustrd before AddtlTxInf
        #expect(ideal.payee == "Webwinkel B.V.")
        #expect(ideal.amount == camtDecimal("-39.95"))
        let interest = statement.entries[2]
        #expect(interest.description == "Rente 1e kwartaal 2026")  // AddtlTxInf when there is nothing else
        #expect(interest.valueDate == camtDate("2026-03-31"))
        #expect(interest.kind == "ACMT/MCOP/INTR")
    }

    @Test func version8WithReversal() throws {
        let statement = try #require(try camtParseSample("camt053-v08-reversal.xml").first)
        #expect(statement.account == ImportedAccount(iban: "DE18760500000012345678", bank: "NESTDEM1XXX", currency: "EUR",
                                                     name: "Girokonto", holder: "Jonas Beispiel"))
        let e = statement.entries
        #expect(e.map(\.status) == [.booked, .booked, .booked, .booked])  // Sts/Cd
        #expect(e[0].amount == camtDecimal("-42.00"))
        #expect(e[0].payee == "Fitnessstudio Beispiel GmbH")  // Cdtr/Pty/Nm
        #expect(e[0].id == "V08-20260401-0001")  // AcctSvcrRef before NtryRef
        // The returned direct debit: a credit, its sign as CdtDbtInd says, its other party the creditor.
        #expect(e[1].amount == camtDecimal("42.00"))
        #expect(e[1].kind == "PMNT/IDDT/UPDD reversal")
        #expect(e[1].payee == "Fitnessstudio Beispiel GmbH")
        #expect(e[1].valueDate == camtDate("2026-04-01"))
        #expect(e[2].payee == "Beispiel Versicherung AG")  // Dbtr/Pty/Nm, not UltmtDbtr
        #expect(e[2].date == camtDate("2026-04-15"))
        #expect(e[2].reference == "BV-SCHADEN-2026-0815")
        #expect(e[3].id == "4")  // NtryRef when there is no AcctSvcrRef
        #expect(e[3].description == "Entgelt Kontoführung April")
        #expect(e[3].kind == "ACMT/MDOP/CHRG")
    }

    @Test func intradayReportWithPendingEntries() throws {
        let bytes = try camtSample("camt052-v02-pending.xml")
        let statement = try #require(try CamtParser.parse(bytes).first)
        #expect(statement.account.currency == "CHF")
        #expect(statement.account.iban == "CH9300762011623852957")
        #expect(statement.opening?.amount == camtDecimal("5230.15"))
        #expect(statement.closing == nil)  // ITBD is no closing balance
        let e = statement.entries
        #expect(e.map(\.status) == [.booked, .pending, .pending])
        #expect(e[1].date == camtDate("2026-06-13"))  // PDNG without BookgDt: its ValDt
        #expect(e[1].valueDate == nil)
        #expect(e[1].description == "Debitkarte Bergbahnen Beispiel AG 12.06.2026")
        #expect(e[1].payee == "Bergbahnen Beispiel AG")
        #expect(e[2].date == camtDate("2026-06-15"))  // INFO: pending, dated by BookgDt
        #expect(e[2].id == "INFO-20260615-01")
        #expect(e[2].amount == camtDecimal("300.00"))
        #expect(statement.entries.map(\.line) == camtLines(of: "<Ntry>", in: bytes))
    }

    @Test func twoStatementsOfTwoAccountsWithNamespacePrefix() throws {
        let bytes = try camtSample("camt053-v02-two-accounts.xml")
        let statements = try CamtParser.parse(bytes)
        #expect(statements.count == 2)
        #expect(statements.map(\.line) == camtLines(of: "<ns2:Stmt>", in: bytes))
        #expect(statements[0].account == ImportedAccount(iban: "AT611904300234573201", bank: "NESTATWWXXX", currency: "EUR",
                                                         name: "Haushaltskonto", holder: "Familie Huber"))
        #expect(statements[0].entries.map(\.amount) == [camtDecimal("-78.29")])
        // No IBAN, no Acct/Ccy: the number as written, the currency of the amounts.
        #expect(statements[1].account == ImportedAccount(number: "0012345678", bank: "NESTATWWXXX", currency: "USD",
                                                         name: "Fremdwährungskonto USD"))
        #expect(statements[1].entries.first?.valueDate == camtDate("2026-07-02"))
        #expect(statements[1].entries.first?.payee == "Example Consulting LLC")
    }

    @Test func latin1Declaration() throws {
        let bytes = try camtSample("camt053-v02-latin1.xml")
        #expect(String(validating: bytes, as: UTF8.self) == nil)  // the file really is Latin-1
        let statement = try #require(try CamtParser.parse(bytes).first)
        #expect(statement.account.holder == "Jürgen Müller")
        let entry = try #require(statement.entries.first)
        #expect(entry.payee == "Grünwald & Söhne Straßenbau")
        #expect(entry.description == "Rückerstattung Überzahlung Rechnung 4471")
        #expect(entry.reference == nil)
        #expect(statement.opening?.amount == camtDecimal("-15.00"))
        #expect(entry.line == camtLines(of: "<Ntry>", in: bytes).first)  // CRLF lines counted once
    }

    @Test func version1Shapes() throws {
        let statement = try #require(try camtParseSample("camt053-v01.xml").first)
        #expect(statement.account.number == "7654321-01")  // PrtryAcct/Id
        #expect(statement.account.currency == "GBP")
        #expect(statement.account.bank == "NESTGB2L")
        #expect(statement.opening?.amount == camtDecimal("100.00"))  // Bal/Tp/Cd
        #expect(statement.closing?.amount == camtDecimal("87.66"))
        let entry = try #require(statement.entries.first)
        #expect(entry.payee == "Example Books Ltd")  // Ntry/TxDtls, no NtryDtls
        #expect(entry.reference == "BOOKS-0109")
        #expect(entry.description == "Order 5521")
    }
}

// MARK: - recognises

@Suite struct CamtRecognitionTests {
    @Test func otherFormatsAreNotCamt() {
        let others = [
            "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1></BANKMSGSRSV1></OFX>",
            "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n<OFX><SIGNONMSGSRSV1/></OFX>",
            ":20:STARTUMSE\n:25:10020030/0987654321\n:28C:00001/001\n:60F:C260228EUR1000,00\n",
            "!Type:Bank\nD03/02/2026\nT-89.90\nPStadtwerke\n^\n",
            "Buchungstag;Valuta;Betrag\n02.03.2026;02.03.2026;2450,00\n",
            "{\"transactions\": [{\"amount\": \"12.50\"}]}",
            "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.054.001.02\"><BkToCstmrDbtCdtNtfctn/></Document>",
            "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.03\"><CstmrCdtTrfInitn/></Document>",
            "<?xml version=\"1.0\"?><Document><CstmrCdtTrfInitn/></Document>",
            "<html><body>camt.053</body></html>",
            "",
            "<",
            "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.\">",
            "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.00\"/>",
        ]
        for text in others { #expect(!CamtParser.recognises(Array(text.utf8)), "\(text)") }
        #expect(!CamtParser.recognises([0x00, 0xFF, 0x3C, 0x12, 0x80]))
    }

    @Test func camtDocumentsInEveryWritingAreRecognised() {
        let documents: [(String, CamtDocumentKind)] = [
            ("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.13\"><BkToCstmrStmt/></Document>", .init(message: .statement, version: 13)),
            ("\u{FEFF}<?xml version='1.0' encoding='UTF-8'?>\r\n<!-- exported 2026-01-01 -->\r\n<?bank export?>\r\n<Document xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n  xmlns='urn:iso:std:iso:20022:tech:xsd:camt.052.001.06'>",
             .init(message: .report, version: 6)),
            ("<x:Document xmlns:x=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.05\"><x:BkToCstmrStmt>", .init(message: .statement, version: 5)),
            ("<?xml version=\"1.0\"?>\n<Document>\n  <!-- no namespace -->\n  <BkToCstmrStmt>", .init(message: .statement, version: nil)),
            ("<Document><BkToCstmrAcctRpt>", .init(message: .report, version: nil)),
        ]
        for (text, kind) in documents {
            let bytes = Array(text.utf8)
            #expect(CamtParser.recognises(bytes), "\(text)")
            #expect(CamtParser.identify(bytes) == kind, "\(text)")
        }
    }

    @Test func onlyTheFirstKilobytesAreLookedAt() {
        let late = "<!--" + String(repeating: "x", count: 10_000) + "-->" + "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"/>"
        #expect(!CamtParser.recognises(Array(late.utf8)))
        let early = "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">" + String(repeating: " ", count: 100_000)
        #expect(CamtParser.recognises(Array(early.utf8)))
    }
}

// MARK: - Rules and variants

@Suite struct CamtRuleTests {
    @Test func statusAsTextUpToVersion6AndAsCodeFrom7() throws {
        let v6 = try camtParse(camtDocument(camtEntry(status: "<Sts>PDNG</Sts>"), version: "053.001.06"))
        #expect(v6.first?.entries.first?.status == .pending)
        let v7 = try camtParse(camtDocument(camtEntry(status: "<Sts>\n  <Cd>PDNG</Cd>\n</Sts>"), version: "053.001.07"))
        #expect(v7.first?.entries.first?.status == .pending)
        let booked = try camtParse(camtDocument(camtEntry(status: "<Sts> BOOK </Sts>"), version: "053.001.03"))
        #expect(booked.first?.entries.first?.status == .booked)
    }

    @Test func documentWithoutNamespace() throws {
        let xml = camtDocument(camtEntry()).replacingOccurrences(of: " xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"", with: "")
        let statements = try camtParse(xml)
        #expect(statements.first?.entries.first?.amount == camtDecimal("-10.00"))
    }

    @Test func reportUsesRptAndOnlyOpeningAndClosingBalances() throws {
        let balances = camtBalance("OPBD", "5.00") + camtBalance("ITBD", "7.00") + camtBalance("CLBD", "9.00")
        let report = try camtParse(camtDocument(camtEntry(), version: "052.001.08", balances: balances))
        #expect(report.first?.opening?.amount == camtDecimal("5.00"))
        #expect(report.first?.closing?.amount == camtDecimal("9.00"))
    }

    @Test func openingIsOPBDElsePRCD() throws {
        let both = camtBalance("PRCD", "1.00", date: "<Dt>2026-01-30</Dt>") + camtBalance("OPBD", "2.00")
        #expect(try camtParse(camtDocument("", balances: both)).first?.opening?.amount == camtDecimal("2.00"))
        let previous = camtBalance("PRCD", "1.00", date: "<Dt>2026-01-30</Dt>")
        let statement = try camtParse(camtDocument("", balances: previous)).first
        #expect(statement?.opening?.amount == camtDecimal("1.00"))
        #expect(statement?.opening?.date == camtDate("2026-01-30"))
        #expect(statement?.closing == nil)
    }

    @Test func balanceSignDateTimeAndLine() throws {
        let xml = camtDocument("", balances: camtBalance("CLBD", "12.34", "DBIT", date: "<DtTm>2026-01-31T23:59:59.000+01:00</DtTm>"))
        let closing = try #require(try camtParse(xml).first?.closing)
        #expect(closing.amount == camtDecimal("-12.34"))
        #expect(closing.date == camtDate("2026-01-31"))
        #expect(closing.line == 7)
    }

    @Test func ibanIsNormalisedAndTextTrimmed() throws {
        let account = "<Acct><Id><IBAN> de89 3704 0044 0532 0130 00 </IBAN></Id><Ccy>EUR</Ccy><Nm>\n   Joint   account \n</Nm><Ownr><Nm>  A &amp; B  </Nm></Ownr></Acct>"
        let statement = try #require(try camtParse(camtDocument("", account: account)).first)
        #expect(statement.account.iban == "DE89370400440532013000")
        #expect(statement.account.name == "Joint   account")  // inner spaces kept as written
        #expect(statement.account.holder == "A & B")
    }

    @Test func currencyFromTheAmountsWhenTheAccountHasNone() throws {
        let account = "<Acct><Id><Othr><Id>12345</Id></Othr></Id></Acct>"
        let fromEntry = try camtParse(camtDocument(camtEntry(amount: "<Amt Ccy=\"SEK\">10.00</Amt>"), account: account))
        #expect(fromEntry.first?.account.currency == "SEK")
        #expect(fromEntry.first?.account.number == "12345")
        let fromBalance = try camtParse(camtDocument("", account: account, balances: camtBalance("OPBD", "1.00", currency: "NOK")))
        #expect(fromBalance.first?.account.currency == "NOK")
    }

    @Test func idPrefersAcctSvcrRefThenNtryRefThenTheOneTransaction() throws {
        let both = camtEntry(extra: "", details: "").replacingOccurrences(of: "<Ntry>", with: "<Ntry><NtryRef>N1</NtryRef>")
            .replacingOccurrences(of: "<BkTxCd/>", with: "<AcctSvcrRef>A1</AcctSvcrRef><BkTxCd/>")
        #expect(try camtParse(camtDocument(both)).first?.entries.first?.id == "A1")
        let twoTransactions = camtEntry(details: "<NtryDtls><TxDtls><Refs><AcctSvcrRef>T1</AcctSvcrRef></Refs></TxDtls><TxDtls><Refs><AcctSvcrRef>T2</AcctSvcrRef></Refs></TxDtls></NtryDtls>")
        #expect(try camtParse(camtDocument(twoTransactions)).first?.entries.first?.id == nil)
        let oneTransaction = camtEntry(details: "<NtryDtls><TxDtls><Refs><AcctSvcrRef>T1</AcctSvcrRef></Refs></TxDtls></NtryDtls>")
        #expect(try camtParse(camtDocument(oneTransaction)).first?.entries.first?.id == "T1")
    }

    @Test func kindPrefersTheDomainCode() throws {
        let code = "<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn><Prtry><Cd>NTRF</Cd></Prtry></BkTxCd>"
        let entry = camtEntry().replacingOccurrences(of: "<BkTxCd/>", with: code)
        #expect(try camtParse(camtDocument(entry, version: "053.001.02")).first?.entries.first?.kind == "PMNT/ICDT/ESCT")
        let proprietary = camtEntry().replacingOccurrences(of: "<BkTxCd/>", with: "<BkTxCd><Prtry><Cd>NTRF+020</Cd></Prtry></BkTxCd>")
        #expect(try camtParse(camtDocument(proprietary)).first?.entries.first?.kind == "NTRF+020")
        #expect(try camtParse(camtDocument(camtEntry())).first?.entries.first?.kind == nil)
        let reversal = camtEntry(extra: "<RvslInd>1</RvslInd>")
        #expect(try camtParse(camtDocument(reversal)).first?.entries.first?.kind == "reversal")
    }

    @Test func payeeIsTheOtherPartyByDirection() throws {
        let parties = "<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Payer</Nm></Dbtr><Cdtr><Nm>Payee</Nm></Cdtr></RltdPties></TxDtls></NtryDtls>"
        let debit = try camtParse(camtDocument(camtEntry(details: parties), version: "053.001.04"))
        #expect(debit.first?.entries.first?.payee == "Payee")
        let credit = try camtParse(camtDocument(camtEntry(indicator: "<CdtDbtInd>CRDT</CdtDbtInd>", details: parties), version: "053.001.04"))
        #expect(credit.first?.entries.first?.payee == "Payer")
        // A reversed credit (booked as a debit) gives the money back to the one who paid it: the debtor.
        let reversedCredit = try camtParse(camtDocument(camtEntry(extra: "<RvslInd>true</RvslInd>", details: parties), version: "053.001.04"))
        #expect(reversedCredit.first?.entries.first?.payee == "Payer")
        #expect(reversedCredit.first?.entries.first?.amount == camtDecimal("-10.00"))
        // A batch whose transactions all name the same creditor has that payee.
        let sameCreditor = "<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Tax Office</Nm></Cdtr></RltdPties></TxDtls><TxDtls><RltdPties><Cdtr><Nm>Tax Office</Nm></Cdtr></RltdPties></TxDtls></NtryDtls>"
        #expect(try camtParse(camtDocument(camtEntry(details: sameCreditor))).first?.entries.first?.payee == "Tax Office")
    }

    @Test func descriptionOrderAndCDATA() throws {
        let details = "<NtryDtls><TxDtls><RmtInf><Ustrd><![CDATA[Invoice <42> & more]]></Ustrd></RmtInf><AddtlTxInf>Tx info</AddtlTxInf></TxDtls></NtryDtls>"
        let fromUstrd = try camtParse(camtDocument(camtEntry(details: details)))
        #expect(fromUstrd.first?.entries.first?.description == "Invoice <42> & more")
        let fromEntry = try camtParse(camtDocument(camtEntry(details: details, info: "<AddtlNtryInf>Entry info</AddtlNtryInf>")))
        #expect(fromEntry.first?.entries.first?.description == "Entry info")
        #expect(try camtParse(camtDocument(camtEntry())).first?.entries.first?.description == "")
    }

    @Test func severalStatementsOfOneAccount() throws {
        let xml = camtDocument(camtEntry()).replacingOccurrences(of: "</Stmt>", with: "</Stmt><Stmt><Id>S2</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\(camtEntry(indicator: "<CdtDbtInd>CRDT</CdtDbtInd>"))</Stmt>")
        let statements = try camtParse(xml)
        #expect(statements.count == 2)
        #expect(statements.map { $0.entries.first?.amount } == [camtDecimal("-10.00"), camtDecimal("10.00")])
        #expect(statements[0].account.iban == statements[1].account.iban)
    }

    @Test func latin1BytesWithoutDeclarationAreReadAsWindows1252() throws {
        var bytes = Array(camtDocument("", account: "<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy><Ownr><Nm>M#ller</Nm></Ownr></Acct>")
            .replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: "<?xml version=\"1.0\"?>").utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes[hash] = 0xFC }
        #expect(try CamtParser.parse(bytes).first?.account.holder == "Müller")
    }

    @Test func windows1252Declaration() throws {
        var bytes = Array(camtDocument(camtEntry(info: "<AddtlNtryInf>Fee #5</AddtlNtryInf>"))
            .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"windows-1252\"").utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes[hash] = 0x80 }
        #expect(try CamtParser.parse(bytes).first?.entries.first?.description == "Fee €5")
    }

    @Test func generatedStatementOf10000Entries() throws {
        let statements = try CamtParser.parse(camtGeneratedStatement(entries: 10_000))
        let statement = try #require(statements.first)
        #expect(statement.entries.count == 10_000)
        #expect(statement.entries[9_999].id == "REF-9999")
        #expect(statement.entries[1].payee == "Creditor 1")
        #expect(statement.entries[0].description == "Invoice 0 of January 2026 Customer 4711 & thanks")
        var cents: Int64 = 0
        for entry in statement.entries { cents += entry.amount.minorUnits(minorDigits: 2) ?? 0 }
        var expected: Int64 = 0
        for index in 0..<10_000 { expected += Int64(100 + index % 9_900) * (index % 2 == 0 ? 1 : -1) }
        #expect(cents == expected)
    }
}

// MARK: - Problems

@Suite struct CamtProblemTests {
    /// Entries start on line 8 of `camtDocument` (see there).
    private let entryLine = 8

    @Test func missingAmountOrIndicator() {
        let noAmount = camtProblem(camtDocument(camtEntry(amount: "")))
        #expect(noAmount?.line == entryLine)
        #expect(noAmount?.element == "Ntry")
        #expect(noAmount?.message.contains("no Amt") == true)
        let noIndicator = camtProblem(camtDocument(camtEntry(indicator: "")))
        #expect(noIndicator?.line == entryLine)
        #expect(noIndicator?.message.contains("no CdtDbtInd; expected CRDT or DBIT") == true)
    }

    @Test func badAmounts() {
        for text in ["12,50", "-5.00", "+5.00", "1e3", "", "12.50 EUR", "99999999999999999999"] {
            let problem = camtProblem(camtDocument(camtEntry(amount: "<Amt Ccy=\"EUR\">\(text)</Amt>")))
            #expect(problem?.element == "Ntry/Amt", "\(text)")
            #expect(problem?.line == entryLine, "\(text)")
            #expect(problem?.message.hasPrefix("\"\(text)\" is no amount; expected a decimal") == true, "\(text)")
        }
    }

    @Test func amountCurrencyMustBeTheAccounts() {
        let other = camtProblem(camtDocument(camtEntry(amount: "<Amt Ccy=\"USD\">1.00</Amt>")))
        #expect(other?.element == "Ntry/Amt")
        #expect(other?.message.contains("in USD, not in EUR") == true)
        let none = camtProblem(camtDocument(camtEntry(amount: "<Amt>1.00</Amt>")))
        #expect(none?.message.contains("no Ccy attribute") == true)
        #expect(none?.line == entryLine)
        let lower = camtProblem(camtDocument(camtEntry(amount: "<Amt Ccy=\"eur\">1.00</Amt>")))
        #expect(lower?.message == "\"eur\" is no currency; expected an ISO 4217 code like EUR")
        let balance = camtProblem(camtDocument("", balances: camtBalance("OPBD", "1.00", currency: "CHF")))
        #expect(balance?.element == "Bal/Amt")
        #expect(balance?.line == 7)
    }

    @Test func badIndicatorReversalAndStatus() {
        let indicator = camtProblem(camtDocument(camtEntry(indicator: "<CdtDbtInd>CREDIT</CdtDbtInd>")))
        #expect(indicator?.element == "Ntry/CdtDbtInd")
        #expect(indicator?.message == "\"CREDIT\" is no credit/debit indicator; expected CRDT or DBIT")
        let reversal = camtProblem(camtDocument(camtEntry(extra: "<RvslInd>yes</RvslInd>")))
        #expect(reversal?.element == "Ntry/RvslInd")
        let future = camtProblem(camtDocument(camtEntry(status: "<Sts><Cd>FUTR</Cd></Sts>")))
        #expect(future?.element == "Ntry/Sts/Cd")
        #expect(future?.message == "\"FUTR\" is no entry status this reader knows; expected BOOK, PDNG or INFO")
        let text = camtProblem(camtDocument(camtEntry(status: "<Sts>BOOKED</Sts>"), version: "053.001.02"))
        #expect(text?.element == "Ntry/Sts")
        #expect(text?.line == entryLine)
        let none = camtProblem(camtDocument(camtEntry(status: "")))
        #expect(none?.message.contains("no Sts") == true)
    }

    @Test func datesAreRequiredAndReal() {
        let booked = camtProblem(camtDocument(camtEntry(booking: "", value: "<ValDt><Dt>2026-01-05</Dt></ValDt>")))
        #expect(booked?.line == entryLine)
        #expect(booked?.message == "the booked entry has no BookgDt; expected BookgDt/Dt or BookgDt/DtTm")
        let pending = camtProblem(camtDocument(camtEntry(status: "<Sts><Cd>PDNG</Cd></Sts>", booking: "")))
        #expect(pending?.message.contains("neither BookgDt nor ValDt") == true)
        let invalid = camtProblem(camtDocument(camtEntry(booking: "<BookgDt><Dt>2026-02-30</Dt></BookgDt>")))
        #expect(invalid?.element == "Ntry/BookgDt/Dt")
        #expect(invalid?.message == "\"2026-02-30\" is no date; expected a date like 2026-03-31")
        let dateTime = camtProblem(camtDocument(camtEntry(value: "<ValDt><DtTm>yesterday</DtTm></ValDt>")))
        #expect(dateTime?.element == "Ntry/ValDt/DtTm")
        let balance = camtProblem(camtDocument("", balances: "<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">1</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>"))
        #expect(balance?.element == "Bal")
        #expect(balance?.message.contains("no date") == true)
    }

    @Test func accountWithoutIdOrCurrency() {
        let noId = camtProblem(camtDocument("", account: "<Acct><Ccy>EUR</Ccy></Acct>"))
        #expect(noId?.element == "Stmt")
        #expect(noId?.line == 4)
        #expect(noId?.message.contains("neither Acct/Id/IBAN nor Acct/Id/Othr/Id") == true)
        let noCurrency = camtProblem(camtDocument("", account: "<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>"))
        #expect(noCurrency?.message.contains("names no currency") == true)
        let badCurrency = camtProblem(camtDocument("", account: "<Acct><Id><IBAN>X</IBAN></Id><Ccy>EURO</Ccy></Acct>"))
        #expect(badCurrency?.element == "Acct/Ccy")
    }

    @Test func notWellFormedXML() {
        let mismatch = camtProblem(camtDocument("<Ntry><Amt Ccy=\"EUR\">1.00</Amount></Ntry>"))
        #expect(mismatch?.line == entryLine)
        #expect(mismatch?.message.hasPrefix("the XML is not well-formed") == true)
        let document = camtDocument(camtEntry())
        let truncated = camtProblem(String(document.prefix(document.count - 30)))
        #expect(truncated?.message.hasPrefix("the XML is not well-formed") == true)
        #expect(truncated?.line == 9)  // where the file ends: "</Stmt" 
        let badUTF8 = Array(camtDocument(camtEntry(info: "<AddtlNtryInf>M#ller</AddtlNtryInf>")).utf8).map { $0 == UInt8(ascii: "#") ? 0xFC : $0 }
        do {
            _ = try CamtParser.parse(badUTF8)
            Issue.record("bytes that are not UTF-8 in a document that says it is were read")
        } catch {
            #expect(error.line == entryLine)
            #expect(error.message.hasPrefix("the XML is not well-formed") == true)
        }
    }

    @Test func doctypeIsRefused() {
        let bomb = """
        <?xml version="1.0"?>
        <!DOCTYPE Document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Acct><Nm>&b;</Nm></Acct></Stmt></BkToCstmrStmt></Document>
        """
        let problem = camtProblem(bomb)
        #expect(problem?.line == 2)
        #expect(problem?.element == "DOCTYPE")
        #expect(problem?.message.contains("no DOCTYPE") == true)
    }

    @Test func otherDocumentsAreRefusedSayingWhatTheyAre() {
        let notification = camtProblem("<?xml version=\"1.0\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.054.001.02\"><BkToCstmrDbtCdtNtfctn/></Document>")
        #expect(notification?.line == 2)
        #expect(notification?.message.hasPrefix("found <Document> in the namespace urn:iso:std:iso:20022:tech:xsd:camt.054.001.02; expected") == true)
        #expect(camtProblem("not xml at all")?.message.hasPrefix("no XML root element found") == true)
        let wrongMessage = camtProblem(camtDocument("").replacingOccurrences(of: "BkToCstmrStmt", with: "BkToCstmrAcctRpt"))
        #expect(wrongMessage?.line == 3)
        #expect(wrongMessage?.message == "found BkToCstmrAcctRpt in a camt.053 document; expected BkToCstmrStmt")
        let noStatement = camtProblem("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt><GrpHdr/></BkToCstmrStmt></Document>")
        #expect(noStatement?.message.contains("no Stmt") == true)
    }

    @Test func deepNestingIsRefusedNotFollowed() {
        let deep = String(repeating: "<X>", count: 200) + String(repeating: "</X>", count: 200)
        let problem = camtProblem(camtDocument(camtEntry(details: "<NtryDtls><TxDtls>\(deep)</TxDtls></NtryDtls>")))
        #expect(problem?.line == entryLine)
        #expect(problem?.message.contains("nest deeper than") == true)
    }

    /// Every cut of a sample, and every byte of it changed, either parses or gives a problem with a
    /// line: nothing traps.
    @Test func damagedSamplesNeverCrash() throws {
        let bytes = try camtSample("camt053-v08-reversal.xml")
        var problems = 0
        for length in stride(from: 0, to: bytes.count, by: 53) {
            do { _ = try CamtParser.parse(Array(bytes[..<length])) } catch {
                problems += 1
                #expect(error.line >= 1)
            }
        }
        #expect(problems == (bytes.count + 52) / 53)  // every cut is incomplete
        for position in stride(from: 0, to: bytes.count, by: 41) {
            for replacement: UInt8 in [0x00, UInt8(ascii: "<"), UInt8(ascii: "-"), 0xC3] {
                var damaged = bytes
                damaged[position] = replacement
                do { _ = try CamtParser.parse(damaged) } catch { #expect(error.line >= 1) }
            }
        }
    }
}

// MARK: - The XML tokenizer's own rules

/// A document whose account name (`Acct/Nm`, line 6) is `name` as written in the XML.
private func camtNamed(_ name: String) -> String {
    camtDocument("", account: "<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy><Nm>\(name)</Nm></Acct>")
}

private func camtAccountName(_ xml: String) throws -> String? {
    try camtParse(xml).first?.account.name
}

private func camtAccountName(bytes: [UInt8]) throws -> String? {
    try CamtParser.parse(bytes).first?.account.name
}

/// `xml` as bytes with each `~` replaced by `byte` (to write bytes that are not UTF-8).
private func camtBytes(_ xml: String, replacingTildeWith byte: UInt8) -> [UInt8] {
    Array(xml.utf8).map { $0 == UInt8(ascii: "~") ? byte : $0 }
}

@Suite struct CamtXMLTokenizerTests {
    /// The account name's line in `camtNamed`.
    private let nameLine = 6

    @Test func predefinedEntitiesAndCharacterReferences() throws {
        #expect(try camtAccountName(camtNamed("&amp;&lt;&gt;&quot;&apos;")) == "&<>\"'")
        #expect(try camtAccountName(camtNamed("Caf&#233; &#xe9;&#xE9; &#x1F600;")) == "Café éé 😀")
        #expect(try camtAccountName(camtNamed("&#32;padded&#32;")) == "padded")  // trimmed after decoding
        let amount = camtDocument(camtEntry(amount: "<Amt Ccy=\"&#69;U&#x52;\">1.00</Amt>"))
        #expect(try camtParse(amount).first?.entries.first?.amount == camtDecimal("-1.00"))
    }

    @Test func referencesXMLDoesNotDefineAreRefused() {
        let undefined = camtProblem(camtNamed("Caf&eacute;"))
        #expect(undefined?.line == nameLine)
        #expect(undefined?.message.contains("&eacute; is no entity XML defines") == true)
        for reference in ["&#0;", "&#x1;", "&#xD800;", "&#xFFFE;", "&#x110000;", "&#99999999999;", "&#;", "&#x;", "&#12a;", "&#XE9;"] {
            let problem = camtProblem(camtNamed("A\(reference)B"))
            #expect(problem?.line == nameLine, "\(reference)")
            #expect(problem?.message.hasPrefix("the XML is not well-formed") == true, "\(reference)")
        }
        let bare = camtProblem(camtNamed("AT&T"))
        #expect(bare?.message.contains("a '&' that starts no reference") == true)
        #expect(bare?.line == nameLine)
        // Also where the reader takes no text: every reference is checked.
        let ignored = camtProblem(camtDocument(camtEntry(extra: "<AddtlInfInd>&nbsp;</AddtlInfInd>")))
        #expect(ignored?.line == 8)
        #expect(ignored?.message.contains("&nbsp;") == true)
    }

    @Test func cdataSectionsAndCommentsInText() throws {
        #expect(try camtAccountName(camtNamed("A <![CDATA[<b> & ]]]]>&amp; C")) == "A <b> & ]]& C")
        #expect(try camtAccountName(camtNamed("Jo<!-- a <comment> & more -->int<?note x?> account")) == "Joint account")
        #expect(try camtAccountName(camtNamed("<![CDATA[]]>")) == nil)  // empty: no name
        let doubleHyphen = camtProblem(camtNamed("Jo<!-- a -- b -->int"))
        #expect(doubleHyphen?.line == nameLine)
        #expect(doubleHyphen?.message.contains("'--' inside a comment") == true)
        let unterminatedCDATA = camtProblem(camtNamed("<![CDATA[never closed") + "\n\n")
        #expect(unterminatedCDATA?.line == nameLine)
        #expect(unterminatedCDATA?.message.contains("the file ends inside the CDATA section") == true)
        let unterminatedComment = camtProblem(camtNamed("<!-- never closed"))
        #expect(unterminatedComment?.line == nameLine)
        #expect(unterminatedComment?.message.contains("the file ends inside the comment") == true)
        let outside = camtProblem(camtNamed("A") + "<![CDATA[x]]>")
        #expect(outside?.line == 11)
        #expect(outside?.message == "the XML is not well-formed: a CDATA section outside the root element")
    }

    @Test func processingInstructionsAndTheDeclaration() throws {
        #expect(try camtAccountName(camtNamed("A").replacingOccurrences(of: "<Stmt>", with: "<?bank export='1'?><Stmt>")) == "A")
        let late = camtProblem(camtNamed("A<?xml version=\"1.0\"?>"))
        #expect(late?.line == nameLine)
        #expect(late?.message.contains("not at the very start") == true)
        let unterminated = camtProblem(camtNamed("A<?note"))
        #expect(unterminated?.message.contains("the file ends inside the processing instruction <?note") == true)
        #expect(unterminated?.line == nameLine)
    }

    @Test func endTagsMustMatchAndTheRootBeOne() {
        let mismatch = camtProblem(camtDocument("<Ntry><Amt Ccy=\"EUR\">1.00</Amount></Ntry>"))
        #expect(mismatch?.line == 8)
        #expect(mismatch?.column == 26)
        #expect(mismatch?.message == "the XML is not well-formed: the end tag </Amount> does not match the start tag <Amt>; elements must close in the order they opened")
        let prefixMismatch = camtProblem(camtNamed("A").replacingOccurrences(of: "</Nm>", with: "</x:Nm>"))
        #expect(prefixMismatch?.message.contains("does not match the start tag <Nm>") == true)
        let spaced = try? camtAccountName(camtNamed("A").replacingOccurrences(of: "</Nm>", with: "</Nm \n >"))
        #expect(spaced == "A")
        let secondRoot = camtProblem(camtNamed("A") + "\n<Document/>")
        #expect(secondRoot?.line == 12)
        #expect(secondRoot?.message.contains("after the root element") == true)
        let textAfter = camtProblem(camtNamed("A") + "\ntrailing")
        #expect(textAfter?.line == 12)
        #expect(textAfter?.message.contains("text after the root element") == true)
        #expect((try? camtParse(camtNamed("A") + "\n<!-- done -->\n<?end?>\n")) != nil)
        let lessThan = camtProblem(camtNamed("a < b"))
        #expect(lessThan?.line == nameLine)
        #expect(lessThan?.message.contains("a '<' not followed by an element name") == true)
        let cut = camtProblem(String(camtNamed("A").dropLast(12)))
        #expect(cut?.message.contains("the file ends before <Document> is closed") == true)
    }

    @Test func attributeForms() throws {
        func entryWith(_ amount: String) -> String { camtDocument(camtEntry(amount: amount)) }
        for accepted in ["<Amt Ccy='EUR'>1.00</Amt>", "<Amt Ccy = \"EUR\" >1.00</Amt>", "<Amt\n  Ccy=\"EUR\"\n  xsi:type=\"x\">1.00</Amt>",
                         "<Amt Ccy=\" EUR \">1.00</Amt>", "<Amt Ccy=\"EUR\" Other='a \"quoted\" b'>1.00</Amt>"] {
            #expect(try camtParse(entryWith(accepted)).first?.entries.first?.amount == camtDecimal("-1.00"), "\(accepted)")
        }
        let refused: [(String, String)] = [
            ("<Amt Ccy=EUR>1.00</Amt>", "is not in quotes"),
            ("<Amt Ccy>1.00</Amt>", "has no value"),
            ("<Amt Ccy=\"EUR\" Ccy=\"EUR\">1.00</Amt>", "the attribute Ccy is given twice"),
            ("<Amt Ccy=\"E<R\">1.00</Amt>", "a '<' in the value of the attribute Ccy"),
            ("<Amt Ccy=\"EUR\"x=\"1\">1.00</Amt>", "not separated from what is before it by a space"),
            ("<Amt Ccy=\"EUR\" / >1.00</Amt>", "not followed by '>'"),
            ("<Amt Ccy=\"EUR\" =\"1\">1.00</Amt>", "expected an attribute"),
            ("<Amt Ccy=\"EUR&\">1.00</Amt>", "starts no reference"),
        ]
        for (amount, message) in refused {
            let problem = camtProblem(entryWith(amount))
            #expect(problem?.line == 8, "\(amount)")
            #expect(problem?.message.hasPrefix("the XML is not well-formed") == true, "\(amount)")
            #expect(problem?.message.contains(message) == true, "\(amount): \(problem?.message ?? "parsed")")
        }
        // Many attributes: duplicates are still found (by hash), in linear time.
        let many = (0..<5_000).map { " a\($0)=\"\($0)\"" }.joined()
        #expect(try camtParse(entryWith("<Amt Ccy=\"EUR\"\(many)>1.00</Amt>")).first?.entries.count == 1)
        let repeated = camtProblem(entryWith("<Amt Ccy=\"EUR\"\(many) a4711=\"x\">1.00</Amt>"))
        #expect(repeated?.message.contains("the attribute a4711 is given twice") == true)
    }

    @Test func encodings() throws {
        let latin1 = camtBytes(camtNamed("M~ller").replacingOccurrences(of: "UTF-8", with: "ISO-8859-1"), replacingTildeWith: 0xFC)
        #expect(try camtAccountName(bytes: latin1) == "Müller")
        let latin1C1 = camtBytes(camtNamed("A~B").replacingOccurrences(of: "UTF-8", with: "latin1"), replacingTildeWith: 0x80)
        #expect(try camtAccountName(bytes: latin1C1) == "A\u{80}B")  // Latin-1 has no euro sign
        let cp1252 = camtBytes(camtNamed("~5 &#8364;5 &amp;").replacingOccurrences(of: "UTF-8", with: "cp1252"), replacingTildeWith: 0x80)
        #expect(try camtAccountName(bytes: cp1252) == "€5 €5 &")
        let bom = [0xEF, 0xBB, 0xBF] + Array(camtNamed("Gr\u{FC}n").utf8)
        #expect(try camtAccountName(bytes: bom) == "Grün")
        let unknown = camtProblem(camtNamed("A").replacingOccurrences(of: "UTF-8", with: "Shift_JIS"))
        #expect(unknown?.line == 1)
        #expect(unknown?.message == "the XML declaration names the encoding \"Shift_JIS\"; expected UTF-8, ISO-8859-1 or windows-1252")
        // Declared UTF-8: an overlong form, a surrogate, a cut sequence are refused where they are.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBF, 0xBF]] {
            var bytes = Array(camtNamed("A#B").utf8)
            if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.replaceSubrange(hash...hash, with: bad) }
            do {
                _ = try CamtParser.parse(bytes)
                Issue.record("\(bad) was read as UTF-8")
            } catch {
                #expect(error.line == nameLine)
                #expect(error.message.contains("not UTF-8") == true)
            }
        }
        let control = camtProblem(camtNamed("A\u{1}B"))
        #expect(control?.line == nameLine)
        #expect(control?.message.contains("the control character U+01") == true)
    }

    @Test func lineEndsInTextAreLineFeeds() throws {
        let details = "<NtryDtls><TxDtls><RmtInf><Ustrd>one\r\ntwo\rthree\nfour</Ustrd></RmtInf></TxDtls></NtryDtls>"
        let document = camtDocument(camtEntry(details: "DETAILS")).replacingOccurrences(of: "\n", with: "\r\n")
        let bytes = Array(document.replacingOccurrences(of: "DETAILS", with: details).utf8)
        let entry = try #require(try CamtParser.parse(bytes).first?.entries.first)
        #expect(entry.description == "one\ntwo\nthree\nfour")
        #expect(entry.line == 8)  // CRLF counted as one line end
    }

    @Test func deepNestingOf200000IsRefusedWithoutACrash() {
        let deep = String(repeating: "<X>", count: 200_000) + String(repeating: "</X>", count: 200_000)
        let problem = camtProblem(camtDocument(camtEntry(details: deep)))
        #expect(problem?.line == 8)
        #expect(problem?.element == "X")
        #expect(problem?.message.contains("nest deeper than 64 levels") == true)
        // Unclosed, straight under the root: the same.
        let open = camtProblem("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>" + String(repeating: "<a>", count: 200_000))
        #expect(open?.message.contains("nest deeper than") == true)
    }

    /// A file where every element is wrong in some way the reader does not read (or stops at):
    /// the cost stays that of reading it once.
    @Test func wrongEverywhereStaysFast() throws {
        var junk = ""
        for index in 0..<40_000 {
            junk += "<Zz a='\(index)' b=\"&amp;&#x41;\"><![CDATA[<x>]]><!-- c --><?p?>&lt;&#65;\(index)</Zz>\n"
        }
        let clock = ContinuousClock()
        let start = clock.now
        // Ignored elements everywhere, then a mismatched end tag on the last line.
        let mismatched = camtProblem(camtDocument(camtEntry(details: "<NtryDtls>\n" + junk + "</Ntry>")))
        #expect(mismatched?.line == 9 + 40_000)
        // One unterminated comment of 2 MB, and an attribute value that never ends.
        let comment = camtProblem(camtNamed("<!--" + String(repeating: "- ", count: 1_000_000)))
        #expect(comment?.line == nameLine)
        let entry = camtDocument(camtEntry())
        let cut = try #require(entry.range(of: "Ccy=\""))
        let value = camtProblem(String(entry[..<cut.upperBound]) + String(repeating: "E", count: 2_000_000))
        #expect(value?.line == 8)
        #expect(value?.message.contains("the file ends inside the start tag <Amt") == true)
        // Every entry's amount wrong: the first stops the parse.
        let wrongAmounts = String(repeating: camtEntry(amount: "<Amt Ccy=\"EUR\">1,00</Amt>") + "\n", count: 40_000)
        let first = camtProblem(camtDocument(wrongAmounts))
        #expect(first?.line == 8)
        #expect(clock.now - start < .seconds(10))  // a debug build; quadratic cost would take minutes
    }
}
