import Foundation
import Testing
@testable import NestEggImport

// MARK: Helpers

/// The folder of OFX samples: found by walking up from this file to a folder with a `Samples`
/// child, else from the `NESTEGG_SAMPLES` environment variable (the `Samples` folder itself).
private func ofxSamplesFolder(file: String = #filePath) -> URL {
    var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    while folder.path != "/" {
        let samples = folder.appendingPathComponent("Samples")
        if FileManager.default.fileExists(atPath: samples.appendingPathComponent("imports/ofx").path) {
            return samples.appendingPathComponent("imports/ofx")
        }
        folder = folder.deletingLastPathComponent()
    }
    let fromEnvironment = ProcessInfo.processInfo.environment["NESTEGG_SAMPLES"] ?? "Tests/Samples"
    return URL(fileURLWithPath: fromEnvironment).appendingPathComponent("imports/ofx")
}

private func ofxSampleBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: ofxSamplesFolder().appendingPathComponent(name)))
}

private func ofxSample(_ name: String) throws -> [ImportedStatement] {
    try OFXParser.parse(try ofxSampleBytes(name))
}

private func ofxProblem(_ bytes: [UInt8]) -> ImportProblem? {
    do {
        _ = try OFXParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func ofxProblem(_ text: String) -> ImportProblem? { ofxProblem(Array(text.utf8)) }

private func ofxAmount(_ text: String) -> DecimalAmount {
    DecimalAmount(parsing: text) ?? DecimalAmount(significand: Int64.min, scale: 0)
}

private func ofxDay(_ year: Int, _ month: Int, _ day: Int) -> ImportDate? {
    ImportDate(year: year, month: month, day: day)
}

/// An OFX 1.02 SGML file (LF line ends) with a checking account statement holding `transactions`
/// (SGML text of `<STMTTRN>`s). The header is lines 1–10, `<OFX>` line 11, `<STMTRS>` line 12,
/// the transactions start on line 16.
private func ofxSGML(_ transactions: String, currency: String = "<CURDEF>USD", account: String = "<ACCTID>42<ACCTTYPE>CHECKING",
                     after: String = "") -> String {
    """
    OFXHEADER:100
    DATA:OFXSGML
    VERSION:102
    SECURITY:NONE
    ENCODING:USASCII
    CHARSET:1252
    COMPRESSION:NONE
    OLDFILEUID:NONE
    NEWFILEUID:NONE

    <OFX>
    <BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS>
    \(currency)
    <BANKACCTFROM><BANKID>9<BRANCHID>1\(account)</BANKACCTFROM>
    <BANKTRANLIST><DTSTART>20240101<DTEND>20240131
    \(transactions)
    </BANKTRANLIST>\(after)
    </STMTRS></STMTTRNRS></BANKMSGSRSV1>
    </OFX>

    """
}

/// One `<STMTTRN>` on one line.
private func ofxTransaction(_ fields: String = "<TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1.00<FITID>1<NAME>Shop") -> String {
    "<STMTTRN>\(fields)</STMTTRN>"
}

/// A deterministic pseudo-random sequence (SplitMix64), for the robustness tests.
private struct OFXTestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

private let ofxSampleNames = [
    "sgml-102-cp1252-crlf.ofx", "sgml-one-line.ofx", "xml-211.ofx", "quicken.qfx", "credit-card.ofx", "two-accounts.ofx",
    "status-error.ofx", "signon-only.ofx", "latin1-comma-decimals.ofx", "concatenated.ofx",
]

// MARK: Recognising

@Suite struct OFXRecognitionTests {
    @Test func recognisesEverySample() throws {
        for name in ofxSampleNames {
            #expect(OFXParser.recognises(try ofxSampleBytes(name)), "\(name)")
        }
    }

    @Test func recognisesHeaderlessAndBOMAndLowercase() {
        #expect(OFXParser.recognises(Array("<OFX><SIGNONMSGSRSV1>".utf8)))
        #expect(OFXParser.recognises([0xEF, 0xBB, 0xBF] + Array("\r\nOFXHEADER:100\r\nDATA:OFXSGML".utf8)))
        #expect(OFXParser.recognises(Array("  ofxheader:100\n".utf8)))
        #expect(OFXParser.recognises(Array("<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?><OFX>".utf8)))
    }

    @Test func refusesOtherFormats() {
        let others = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>",
            "{1:F01BANKBEBBAXXX0000000000}{4:\n:20:STARTUMS\n:25:10020030/1234567\n:28C:1\n:60F:C240101EUR100,00\n",
            ":20:STARTUMS\r\n:25:10020030/1234567\r\n",
            "!Type:Bank\nD01/05/2024\nT-12.00\nPShop\n^\n",
            "Date,Description,Amount\n2024-01-05,Shop,-12.00\n",
            "{\"transactions\": [{\"amount\": -12.0}]}",
            "[]",
            "",
            "OFX,is,mentioned,in,a,csv\n",
        ]
        for text in others {
            #expect(!OFXParser.recognises(Array(text.utf8)), "\(text.prefix(30))")
        }
    }

    @Test func looksAtTheFirstKilobytesOnly() {
        let late = Array(String(repeating: " ", count: 10_000).utf8) + Array("OFXHEADER:100".utf8)
        // Leading blanks are skipped, but only within the first 4 KB.
        #expect(!OFXParser.recognises(late))
    }
}

// MARK: Samples, field by field

@Suite struct OFXSampleTests {
    @Test func sgml102WithWindows1252AndCRLF() throws {
        let statements = try ofxSample("sgml-102-cp1252-crlf.ofx")
        #expect(statements.count == 1)
        let statement = try #require(statements.first)
        #expect(statement.line == 29)
        #expect(statement.account == ImportedAccount(number: "999988", bank: "121099999", currency: "USD", kind: .current))
        #expect(statement.opening == nil)
        #expect(statement.closing == StatedBalance(date: try #require(ofxDay(2024, 1, 31)), amount: ofxAmount("1234.56"), line: 80))
        #expect(statement.entries.count == 5)
        #expect(statement.entries.map(\.line) == [39, 48, 56, 64, 72])

        let check = statement.entries[0]
        #expect(check == ImportedEntry(id: "00002", date: try #require(ofxDay(2024, 1, 4)), amount: ofxAmount("-200.00"),
                                       description: "January rent", payee: "Landlord LLC", reference: "1000", kind: "CHECK",
                                       status: .booked, line: 39))
        let atm = statement.entries[1]
        #expect(atm.date == ofxDay(2024, 1, 10))  // DTPOSTED, not DTUSER (the 9th)
        #expect(atm.valueDate == nil)
        #expect(atm.description == "ATM WITHDRAWAL")  // NAME, as there is no MEMO
        #expect(atm.payee == "ATM WITHDRAWAL")
        #expect(atm.reference == nil)
        #expect(statement.entries[2].payee == "Café Rouge")  // byte 0xE9 in Windows-1252
        #expect(statement.entries[2].description == "Coffee & croissant")
        #expect(statement.entries[3].description == "Card used abroad: €12.00")  // byte 0x80 is € in Windows-1252
        #expect(statement.entries[4].amount == ofxAmount("1500.00"))
        #expect(statement.entries[4].kind == "DIRECTDEP")
    }

    @Test func oneLineSGMLWithoutEndTags() throws {
        let statement = try #require(try ofxSample("sgml-one-line.ofx").first)
        #expect(statement.line == 11)
        #expect(statement.account == ImportedAccount(number: "555-0101", bank: "021000021", currency: "USD", kind: .savings))
        #expect(statement.entries.count == 3)
        #expect(statement.entries.allSatisfy { $0.line == 11 })
        #expect(statement.entries[0].amount == ofxAmount("250.00"))  // written +250.00
        #expect(statement.entries[0].reference == "T0205")  // REFNUM
        #expect(statement.entries[1].payee == "AT&T Mobility")  // a bare & is kept
        #expect(statement.entries[1].description == "Bill <Feb> #2")
        #expect(statement.entries[2].amount == DecimalAmount(significand: 37, scale: 2))  // written .37
        #expect(statement.entries[2].description == "Interest")  // <MEMO> written empty
        #expect(statement.closing?.amount == ofxAmount("5200.37"))
        #expect(statement.closing?.line == 11)
    }

    @Test func xml211() throws {
        let statement = try #require(try ofxSample("xml-211.ofx").first)
        #expect(statement.line == 25)
        #expect(statement.account == ImportedAccount(number: "CH9300762011623852957", bank: "00700", currency: "CHF", kind: .other))
        #expect(statement.entries.map(\.line) == [37, 53, 61])
        let rent = statement.entries[0]
        #expect(rent.payee == "Immobilien Müller AG")  // PAYEE/NAME
        #expect(rent.description == "Miete März <Wohnung 3>")  // &#228; &lt; &gt;
        #expect(rent.valueDate == ofxDay(2024, 3, 6))  // DTAVAIL
        #expect(rent.amount == ofxAmount("-1250.00"))
        #expect(rent.id == "2024030500001")
        #expect(rent.kind == "PAYMENT")
        #expect(statement.entries[1].payee == "Arbeitgeber & Co.")
        #expect(statement.entries[1].description == "Lohn <März>")  // CDATA, kept literally
        #expect(statement.entries[2].description == "Kontoführung")  // <MEMO/> is empty
        #expect(statement.closing == StatedBalance(date: try #require(ofxDay(2024, 3, 31)), amount: ofxAmount("10145.00"), line: 70))
    }

    @Test func qfxWithIntuitElementsAndEndTags() throws {
        let statement = try #require(try ofxSample("quicken.qfx").first)
        #expect(statement.line == 36)
        #expect(statement.account == ImportedAccount(number: "000123456789", bank: "322271627", currency: "USD", kind: .current))
        #expect(statement.entries.map(\.line) == [46, 54, 61])
        #expect(statement.entries.map(\.date) == [ofxDay(2023, 12, 18), ofxDay(2023, 12, 29), ofxDay(2024, 1, 5)])
        #expect(statement.entries.map(\.amount) == [ofxAmount("-61.42"), ofxAmount("2210.00"), ofxAmount("-85.00")])
        #expect(statement.entries[0].description == "POS PURCHASE 12/17")
        #expect(statement.entries[0].payee == "GROCERY OUTLET #123")
        #expect(statement.entries[2].reference == "2043")
        #expect(statement.closing?.amount == ofxAmount("3021.77"))
        #expect(statement.closing?.date == ofxDay(2024, 1, 15))
        #expect(statement.closing?.line == 70)
    }

    @Test func creditCard() throws {
        let statement = try #require(try ofxSample("credit-card.ofx").first)
        #expect(statement.line == 29)
        #expect(statement.account == ImportedAccount(number: "4111111111111111", bank: nil, currency: "EUR", kind: .creditCard))
        #expect(statement.entries.map(\.line) == [37, 46, 57])
        #expect(statement.entries[0].payee == "Müller Bäckerei")  // ENCODING:UTF-8
        #expect(statement.entries[0].amount == ofxAmount("-23.80"))  // a purchase: money out
        #expect(statement.entries[1].description == "Bahn Tickets")  // ORIGCURRENCY passed over
        #expect(statement.entries[2].amount == ofxAmount("500.00"))  // a payment to the card: money in
        #expect(statement.closing == StatedBalance(date: try #require(ofxDay(2024, 1, 31)), amount: ofxAmount("-356.20"), line: 65))
    }

    @Test func twoAccountsWithCRLineEnds() throws {
        let statements = try ofxSample("two-accounts.ofx")
        #expect(statements.map(\.account.number) == ["1111", "2222"])
        #expect(statements.map(\.account.kind) == [.current, .savings])
        #expect(statements.map(\.line) == [29, 66])
        #expect(statements[0].entries.map(\.line) == [39, 46])
        #expect(statements[0].entries.map(\.id) == ["C-510", "C-515"])
        #expect(statements[1].entries.map(\.line) == [76])
        #expect(statements[1].entries.first?.amount == ofxAmount("1000.00"))
        #expect(statements[0].entries.first?.amount == ofxAmount("-1000.00"))
        #expect(statements.map { $0.closing?.line } == [54, 84])
        #expect(statements.map { $0.closing?.amount } == [ofxAmount("4100.00"), ofxAmount("11000.00")])
    }

    @Test func europeanBankLatin1CommaDecimals() throws {
        let statement = try #require(try ofxSample("latin1-comma-decimals.ofx").first)
        #expect(statement.account == ImportedAccount(number: "00010087654", bank: "30004", currency: "EUR", kind: .current))
        #expect(statement.entries.map(\.amount) == [DecimalAmount(significand: -4590, scale: 2), DecimalAmount(significand: 215_000, scale: 2)])
        #expect(statement.entries.map(\.description) == ["Prélèvement électricité", "Virement reçu"])
        #expect(statement.entries.map(\.line) == [40, 48])
        #expect(statement.closing?.amount == DecimalAmount(significand: 183_427, scale: 2))
    }

    @Test func concatenatedDocuments() throws {
        let statements = try ofxSample("concatenated.ofx")
        #expect(statements.count == 2)
        #expect(statements.map(\.line) == [29, 83])
        #expect(statements.allSatisfy { $0.account.number == "7777" })
        #expect(statements.map { $0.entries.map(\.line) } == [[39], [93]])
        #expect(statements.map { $0.closing?.date } == [ofxDay(2024, 7, 31), ofxDay(2024, 8, 31)])
    }

    @Test func nonZeroStatusIsAnError() throws {
        let problem = try #require(ofxProblem(try ofxSampleBytes("status-error.ofx")))
        #expect(problem.line == 26)
        #expect(problem.element == "STMTTRNRS/STATUS/CODE")
        #expect(problem.message == "the bank answered with status 2000: \"General error: statement not available\" instead of a statement; expected status 0 (success)")
    }

    @Test func signOnOnlyHasNoStatements() throws {
        #expect(try ofxSample("signon-only.ofx").isEmpty)
    }
}

// MARK: Rules, one by one

@Suite struct OFXRuleTests {
    @Test func signConventionIsAsWritten() throws {
        let text = ofxSGML(ofxTransaction("<TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-12.50")
            + ofxTransaction("<TRNTYPE>CREDIT<DTPOSTED>20240106<TRNAMT>12.50")
            + ofxTransaction("<TRNTYPE>CREDIT<DTPOSTED>20240107<TRNAMT>+0.01")
            + ofxTransaction("<TRNTYPE>DEBIT<DTPOSTED>20240108<TRNAMT>-12,5"))
        let entries = try #require(try OFXParser.parse(Array(text.utf8)).first).entries
        #expect(entries.map(\.amount) == [DecimalAmount(significand: -1250, scale: 2), DecimalAmount(significand: 1250, scale: 2),
                                          DecimalAmount(significand: 1, scale: 2), DecimalAmount(significand: -125, scale: 1)])
        // No id, no description: nothing invented.
        #expect(entries[0].id == nil)
        #expect(entries[0].description == "")
        #expect(entries[0].payee == nil)
    }

    @Test func amounts() {
        #expect(OFXValues.amount("-12.00") == DecimalAmount(significand: -1200, scale: 2))
        #expect(OFXValues.amount("-12,50") == DecimalAmount(significand: -1250, scale: 2))
        #expect(OFXValues.amount("1000") == DecimalAmount(significand: 1000, scale: 0))
        #expect(OFXValues.amount("12.3.4") == nil)
        #expect(OFXValues.amount("1,234.56") == nil)
        #expect(OFXValues.amount("12,3,4") == nil)
        #expect(OFXValues.amount("") == nil)
        #expect(OFXValues.amount("$12") == nil)
        #expect(OFXValues.amount("1e5") == nil)
        #expect(OFXValues.amount("99999999999999999999") == nil)
    }

    @Test func dates() {
        let day = ofxDay(2024, 1, 15)
        for text in ["20240115", "202401151230", "20240115123000", "20240115123000.000", "20240115123000.000[-5:EST]",
                     "20240115000000[0:GMT]", "20240115[+1]", "20240115235959.999[-3.30:NST]"] {
            #expect(OFXValues.date(text) == day, "\(text)")
        }
        // The day as written, whatever the zone.
        #expect(OFXValues.date("20240131235959[-12:X]") == ofxDay(2024, 1, 31))
        for text in ["2024-01-15", "2024011", "20240230", "20241301", "x20240115", "20240115 12:00", "2024011512300099",
                     "20240115.5", "20240115123000[", "20240115123000[EST]", "20240115[-5]x", ""] {
            #expect(OFXValues.date(text) == nil, "\(text)")
        }
    }

    @Test func entities() throws {
        let text = ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>-1<NAME>A &amp; B &lt;C&gt; &quot;D&quot; &apos;E&apos; &#233;&#xE9; &unknown; & &#0; &#x110000;"))
        let entry = try #require(try OFXParser.parse(Array(text.utf8)).first?.entries.first)
        #expect(entry.payee == "A & B <C> \"D\" 'E' éé &unknown; & &#0; &#x110000;")
    }

    @Test func whitespaceAndLineBreaksAnywhere() throws {
        let transaction = "<STMTTRN>\n  <TRNTYPE>  DEBIT  \n\n  <DTPOSTED>\n20240105\n  <TRNAMT\n>\t-3.00\t\n<NAME>  Two  words  \n</STMTTRN>"
        let entry = try #require(try OFXParser.parse(Array(ofxSGML(transaction).utf8)).first?.entries.first)
        #expect(entry.kind == "DEBIT")
        #expect(entry.date == ofxDay(2024, 1, 5))
        #expect(entry.amount == ofxAmount("-3.00"))
        #expect(entry.payee == "Two  words")  // inner blanks kept
        #expect(entry.line == 16)
    }

    @Test func emptyElementsInSGML() throws {
        let text = ofxSGML("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1<FITID><NAME>Shop<MEMO></MEMO><CHECKNUM></STMTTRN>")
        let entry = try #require(try OFXParser.parse(Array(text.utf8)).first?.entries.first)
        #expect(entry.id == nil)
        #expect(entry.description == "Shop")
        #expect(entry.reference == nil)
    }

    @Test func unknownEmptyElementDoesNotSwallowItsSiblings() throws {
        // `<INTU.X>` has no value and no end tag: an empty element, not a parent of what follows.
        let text = ofxSGML("<STMTTRN><INTU.X><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1<NAME>Shop</STMTTRN>")
        let entry = try #require(try OFXParser.parse(Array(text.utf8)).first?.entries.first)
        #expect(entry.amount == ofxAmount("-1"))
        #expect(entry.payee == "Shop")
    }

    @Test func unknownAggregatesArePassedOver() throws {
        // BANKACCTTO's ACCTID is the other account, not this statement's.
        let text = ofxSGML("<STMTTRN><TRNTYPE>XFER<DTPOSTED>20240105<TRNAMT>-1<BANKACCTTO><BANKID>1<ACCTID>OTHER<ACCTTYPE>SAVINGS</BANKACCTTO><NAME>Shop</STMTTRN>")
        let statement = try #require(try OFXParser.parse(Array(text.utf8)).first)
        #expect(statement.account.number == "42")
        #expect(statement.entries.first?.payee == "Shop")
    }

    @Test func lowercaseTags() throws {
        let text = ofxSGML("<stmttrn><trntype>DEBIT<dtposted>20240105<trnamt>-7.00</stmttrn>", currency: "<curdef>eur")
        let statement = try #require(try OFXParser.parse(Array(text.utf8)).first)
        #expect(statement.account.currency == "EUR")
        #expect(statement.entries.first?.amount == ofxAmount("-7.00"))
    }

    @Test func accountTypes() throws {
        let kinds: [(String, ImportedAccount.Kind)] = [("CHECKING", .current), ("SAVINGS", .savings), ("MONEYMRKT", .other),
                                                        ("CREDITLINE", .other), ("CD", .other)]
        for (type, kind) in kinds {
            let text = ofxSGML("", account: "<ACCTID>42<ACCTTYPE>\(type)")
            #expect(try OFXParser.parse(Array(text.utf8)).first?.account.kind == kind, "\(type)")
        }
    }

    @Test func statementWithoutTransactions() throws {
        let statement = try #require(try OFXParser.parse(Array(ofxSGML("").utf8)).first)
        #expect(statement.entries.isEmpty)
        #expect(statement.closing == nil)
    }

    @Test func valueDateOnlyWhenItDiffers() throws {
        let text = ofxSGML(ofxTransaction("<DTPOSTED>20240105<DTAVAIL>20240105<TRNAMT>-1") + ofxTransaction("<DTPOSTED>20240105<DTAVAIL>20240107<TRNAMT>-1"))
        let entries = try #require(try OFXParser.parse(Array(text.utf8)).first).entries
        #expect(entries.map(\.valueDate) == [nil, ofxDay(2024, 1, 7)])
    }

    @Test func checkNumberBeforeReferenceNumber() throws {
        let text = ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>-1<REFNUM>R1<CHECKNUM>C1"))
        #expect(try OFXParser.parse(Array(text.utf8)).first?.entries.first?.reference == "C1")
    }

    @Test func charsetFromTheHeader() {
        let sgml = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:%@\n\n<OFX>"
        #expect(OFXParser.charset(of: Array(sgml.replacingOccurrences(of: "%@", with: "1252").utf8)) == "1252")
        #expect(OFXParser.charset(of: Array(sgml.replacingOccurrences(of: "%@", with: "ISO-8859-1").utf8)) == "ISO-8859-1")
        #expect(OFXParser.charset(of: Array(sgml.replacingOccurrences(of: "%@", with: "NONE").utf8)) == nil)
        #expect(OFXParser.charset(of: Array("OFXHEADER:100\nENCODING:UTF-8\nCHARSET:NONE\n\n<OFX>".utf8)) == "UTF-8")
        #expect(OFXParser.charset(of: Array("<?xml version=\"1.0\" encoding='ISO-8859-1'?><?OFX OFXHEADER=\"200\"?><OFX>".utf8)) == "ISO-8859-1")
        #expect(OFXParser.charset(of: Array("<?xml version=\"1.0\"?><?OFX OFXHEADER=\"200\"?><OFX>".utf8)) == "UTF-8")
    }

    @Test func latin1AndWindows1252DifferAt0x80() throws {
        func payee(charset: String) throws -> String? {
            let text = ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>-1<NAME>X")).replacingOccurrences(of: "CHARSET:1252", with: "CHARSET:\(charset)")
            var bytes = Array(text.utf8)
            let name = try #require(text.range(of: "<NAME>X"))
            bytes[text.utf8.distance(from: text.utf8.startIndex, to: name.upperBound.samePosition(in: text.utf8) ?? text.utf8.startIndex) - 1] = 0x80
            return try OFXParser.parse(bytes).first?.entries.first?.payee
        }
        #expect(try payee(charset: "1252") == "€")
        #expect(try payee(charset: "ISO-8859-1") == "\u{80}")
    }

    @Test func utf8MislabelledAs1252IsReadAsUTF8() throws {
        let text = ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>-1<NAME>Café"))
        #expect(text.contains("CHARSET:1252"))
        #expect(try OFXParser.parse(Array(text.utf8)).first?.entries.first?.payee == "Café")
    }

    @Test func undeclaredCharsetFallsBackToWindows1252WhenNotUTF8() throws {
        let text = "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><ACCTID>1</BANKACCTFROM>"
            + "<BANKTRANLIST><STMTTRN><DTPOSTED>20240105<TRNAMT>-1<NAME>Caf_ \u{80}</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
        var bytes = Array(text.utf8)
        let underscore = try #require(bytes.firstIndex(of: UInt8(ascii: "_")))
        bytes[underscore] = 0xE9
        let euro = try #require(bytes.firstIndex(of: 0xC2))
        bytes.replaceSubrange(euro...(euro + 1), with: [0x80])
        #expect(try OFXParser.parse(bytes).first?.entries.first?.payee == "Café €")
    }

    @Test func valueDecoderAgreesWithImportText() {
        var bytes: [UInt8] = Array(0x20...0xFF)
        bytes.removeAll { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }
        for charset in ["1252", "ISO-8859-1", "UTF-8"] {
            let decoded = bytes.withUnsafeBufferPointer { OFXTextDecoder(charset: charset).decode($0[...]) }
            #expect(decoded == ImportText.decode(bytes, charset: charset), "\(charset)")
        }
        let utf8 = Array("Zürich €".utf8)
        #expect(utf8.withUnsafeBufferPointer { OFXTextDecoder(charset: "UTF-8").decode($0[...]) } == "Zürich €")
    }

    @Test func fastAmountReadingAgreesWithDecimalAmount() {
        var random = OFXTestRandom(state: 7)
        let alphabet = Array("0123456789.-+,".utf8)
        for _ in 0..<20_000 {
            let length = 1 + random.below(22)
            let text = String(decoding: (0..<length).map { _ in alphabet[random.below(alphabet.count)] }, as: UTF8.self)
            if let fast = OFXValues.simpleAmount(text) {
                #expect(fast == DecimalAmount(parsing: text), "\(text)")
            }
        }
        #expect(OFXValues.simpleAmount("12345678901234567") == DecimalAmount(significand: 12_345_678_901_234_567, scale: 0))
        #expect(OFXValues.simpleAmount("123456789012345678") == nil)  // left to DecimalAmount(parsing:)
        #expect(OFXValues.amount("123456789012345678") == DecimalAmount(parsing: "123456789012345678"))
    }

    @Test func headerlessSGML() throws {
        let text = "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>1</BANKACCTFROM>"
            + "<BANKTRANLIST><STMTTRN><DTPOSTED>20240105<TRNAMT>-1</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
        let statement = try #require(try OFXParser.parse(Array(text.utf8)).first)
        #expect(statement.account.kind == .other)  // no ACCTTYPE: nothing assumed
        #expect(statement.account.bank == nil)
        #expect(statement.entries.count == 1)
    }

    @Test func xmlCommentsAndProcessingInstructionsAreSkipped() throws {
        let text = "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?>\n<!DOCTYPE x>\n<OFX><!-- <STMTRS> in a comment -->"
            + "<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD</CURDEF><BANKACCTFROM><ACCTID>1</ACCTID></BANKACCTFROM>"
            + "<BANKTRANLIST><STMTTRN><DTPOSTED>20240105</DTPOSTED><TRNAMT>-1</TRNAMT></STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
        #expect(try OFXParser.parse(Array(text.utf8)).count == 1)
    }

    @Test func tenThousandEntries() throws {
        var transactions = ""
        for index in 0..<10_000 {
            transactions += "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-\(index).25<FITID>\(index)<NAME>Shop \(index)</STMTTRN>\n"
        }
        let statement = try #require(try OFXParser.parse(Array(ofxSGML(transactions).utf8)).first)
        #expect(statement.entries.count == 10_000)
        #expect(statement.entries.last?.id == "9999")
        #expect(statement.entries.last?.amount == ofxAmount("-9999.25"))
        #expect(statement.entries.last?.line == 16 + 9_999)
    }
}

// MARK: Bad input

@Suite struct OFXProblemTests {
    @Test func transactionWithoutDatePosted() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction() + "\n" + ofxTransaction("<TRNAMT>-1.00<NAME>No date"))))
        #expect(problem.line == 17)
        #expect(problem.element == "STMTTRN")
        #expect(problem.message == "the transaction has no DTPOSTED; expected the day it was posted, like <DTPOSTED>20240115")
    }

    @Test func transactionWithoutAmount() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<NAME>No amount"))))
        #expect(problem.line == 16)
        #expect(problem.element == "STMTTRN")
        #expect(problem.message == "the transaction has no TRNAMT; expected its amount, like <TRNAMT>-12.50")
    }

    @Test func badAmount() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>12.3.4"))))
        #expect(problem.line == 16)
        #expect(problem.column == 36)
        #expect(problem.element == "STMTTRN/TRNAMT")
        #expect(problem.message == "\"12.3.4\" is no amount; expected a decimal like -12.50")
        #expect(problem.description == "16:36: STMTTRN/TRNAMT: \"12.3.4\" is no amount; expected a decimal like -12.50")
    }

    @Test func emptyAmount() throws {
        let problem = try #require(ofxProblem(ofxSGML("<STMTTRN><DTPOSTED>20240105<TRNAMT></STMTTRN>")))
        #expect(problem.element == "STMTTRN/TRNAMT")
        #expect(problem.message == "\"\" is no amount; expected a decimal like -12.50")
    }

    @Test func badDate() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>2024-01-05<TRNAMT>-1"))))
        #expect(problem.line == 16)
        #expect(problem.element == "STMTTRN/DTPOSTED")
        #expect(problem.message.hasPrefix("\"2024-01-05\" is no OFX date; expected YYYYMMDD"))
    }

    @Test func badDateUserAndListDates() throws {
        #expect(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<DTUSER>20241305<TRNAMT>-1")))?.element == "STMTTRN/DTUSER")
        let list = ofxSGML("").replacingOccurrences(of: "<DTEND>20240131", with: "<DTEND>31.01.2024")
        #expect(ofxProblem(list)?.element == "BANKTRANLIST/DTEND")
    }

    @Test func secondAmountInOneTransaction() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>-1<TRNAMT>-2"))))
        #expect(problem.element == "STMTTRN/TRNAMT")
        #expect(problem.message == "a second TRNAMT in one STMTTRN; expected one")
    }

    @Test func truncatedFile() throws {
        let text = ofxSGML(ofxTransaction() + "\n<STMTTRN><DTPOSTED>20240105<TRNAMT>-1")
        let cut = String(text[..<(try #require(text.range(of: "<TRNAMT>-1\n")).upperBound)])
        let problem = try #require(ofxProblem(cut))
        #expect(problem.line == 17)
        #expect(problem.element == "STMTTRN")
        #expect(problem.message.hasPrefix("the file ends inside <STMTTRN> (opened here); expected </STMTTRN>"))
    }

    @Test func transactionNotClosedBeforeItsList() throws {
        let problem = try #require(ofxProblem(ofxSGML("<STMTTRN><DTPOSTED>20240105<TRNAMT>-1")))
        #expect(problem.line == 16)
        #expect(problem.element == "STMTTRN")
        #expect(problem.message == "<STMTTRN> is not closed: </BANKTRANLIST> at line 17 comes first; expected </STMTTRN> before it")
    }

    @Test func endTagThatClosesNothing() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction() + "</FOO>")))
        #expect(problem.line == 16)
        #expect(problem.column == 83)
        #expect(problem.message == "</FOO> closes nothing: no <FOO> is open here")
    }

    @Test func unterminatedTag() throws {
        let problem = try #require(ofxProblem("<OFX><BANKMSGSRSV1\n"))
        #expect(problem.line == 1)
        #expect(problem.column == 6)
        #expect(problem.message == "the tag <BANKMSGSRSV1 has no closing \">\"; expected <BANKMSGSRSV1>")
    }

    @Test func lessThanSignInText() throws {
        let problem = try #require(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>-1<NAME>A < B"))))
        #expect(problem.line == 16)
        #expect(problem.message.hasPrefix("\"<\" is followed by \" \"; expected a tag name"))
    }

    @Test func unterminatedComment() throws {
        let problem = try #require(ofxProblem("<OFX>\n<!-- never\nends"))
        #expect(problem.line == 2)
        #expect(problem.message == "the comment <!-- never ends; expected \"-->\"")
    }

    @Test func textBetweenElements() throws {
        let problem = try #require(ofxProblem(ofxSGML("<STMTTRN><DTPOSTED>20240105</DTPOSTED>stray<TRNAMT>-1</STMTTRN>")))
        #expect(problem.line == 16)
        #expect(problem.element == "STMTTRN")
        #expect(problem.message == "text \"stray\" stands between elements of <STMTTRN>; expected it inside an element")
    }

    @Test func aggregateHoldingText() throws {
        let problem = try #require(ofxProblem(ofxSGML("<STMTTRN>oops<DTPOSTED>20240105<TRNAMT>-1</STMTTRN>")))
        #expect(problem.line == 16)
        #expect(problem.element == "STMTTRN")
        #expect(problem.message == "<STMTTRN> is followed by text; expected the elements it holds, each in a tag")
    }

    @Test func missingCurrencyAndBadCurrency() throws {
        let missing = try #require(ofxProblem(ofxSGML("", currency: "")))
        #expect(missing.line == 12)
        #expect(missing.element == "STMTRS")
        #expect(missing.message == "the statement has no CURDEF; expected its currency, like <CURDEF>USD")
        let bad = try #require(ofxProblem(ofxSGML("", currency: "<CURDEF>US$")))
        #expect(bad.element == "STMTRS/CURDEF")
        #expect(bad.message == "\"US$\" is no currency code; expected three letters (ISO 4217) like USD")
    }

    @Test func missingAccountNumber() throws {
        let problem = try #require(ofxProblem(ofxSGML("", account: "<ACCTTYPE>CHECKING")))
        #expect(problem.line == 12)
        #expect(problem.message == "the statement has no BANKACCTFROM/ACCTID; expected the account's number")
    }

    @Test func balanceWithoutDate() throws {
        let problem = try #require(ofxProblem(ofxSGML("", after: "<LEDGERBAL><BALAMT>1.00</LEDGERBAL>")))
        #expect(problem.line == 17)
        #expect(problem.element == "LEDGERBAL")
        #expect(problem.message == "the balance has no DTASOF; expected the day it is of, like <DTASOF>20240131")
        let badAmount = try #require(ofxProblem(ofxSGML("", after: "<LEDGERBAL><BALAMT>1.0.0<DTASOF>20240131</LEDGERBAL>")))
        #expect(badAmount.element == "LEDGERBAL/BALAMT")
    }

    @Test func failedSignOn() throws {
        let text = "OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR<MESSAGE>Signon invalid</STATUS></SONRS></SIGNONMSGSRSV1></OFX>"
        let problem = try #require(ofxProblem(text))
        #expect(problem.line == 3)
        #expect(problem.element == "SONRS/STATUS/CODE")
        #expect(problem.message == "the bank answered with status 15500: \"Signon invalid\" to the sign-on; expected status 0 (success)")
    }

    @Test func statusCodeThatIsNoNumber() throws {
        let text = ofxSGML("").replacingOccurrences(of: "<CODE>0", with: "<CODE>OK")
        #expect(ofxProblem(text)?.message == "\"OK\" is no status code; expected a number like 0")
    }

    @Test func noOFXElement() throws {
        let problem = try #require(ofxProblem("OFXHEADER:100\n\n<FOO>bar</FOO>"))
        #expect(problem.message == "no <OFX> element; expected an OFX file (a header, then <OFX>…</OFX>)")
    }

    @Test func investmentStatementOnly() throws {
        let text = "OFXHEADER:100\n\n<OFX>\n<INVSTMTMSGSRSV1><INVSTMTTRNRS>\n<INVSTMTRS><CURDEF>USD</INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>"
        let problem = try #require(ofxProblem(text))
        #expect(problem.line == 5)
        #expect(problem.element == "INVSTMTRS")
    }

    /// Every prefix of every sample, and random damage to them, parses or throws: no trap, no hang.
    @Test func damagedSamplesNeverCrash() throws {
        var random = OFXTestRandom(state: 50)
        var outcomes = (parsed: 0, refused: 0)
        for name in ofxSampleNames {
            let bytes = try ofxSampleBytes(name)
            for length in stride(from: 0, to: bytes.count, by: 13) {
                if ofxProblem(Array(bytes[..<length])) == nil { outcomes.parsed += 1 } else { outcomes.refused += 1 }
            }
            let alphabet = Array("<>/&;#x0123456789.-,[]:? \n\rABCSTMTRN!".utf8) + [0x80, 0xE9, 0xFF, 0x00]
            for _ in 0..<120 {
                var damaged = bytes
                for _ in 0..<(1 + random.below(4)) where !damaged.isEmpty {
                    let at = random.below(damaged.count)
                    switch random.below(3) {
                    case 0: damaged[at] = alphabet[random.below(alphabet.count)]
                    case 1: damaged.remove(at: at)
                    default: damaged.insert(alphabet[random.below(alphabet.count)], at: at)
                    }
                }
                if ofxProblem(damaged) == nil { outcomes.parsed += 1 } else { outcomes.refused += 1 }
            }
        }
        #expect(outcomes.refused > 0)
        #expect(outcomes.parsed > 0)
    }

    @Test func deepNestingIsNoProblemForTheStack() throws {
        let deep = "<OFX>" + String(repeating: "<A>", count: 200_000) + String(repeating: "</A>", count: 200_000) + "</OFX>"
        #expect(try OFXParser.parse(Array(deep.utf8)).isEmpty)
        let unclosed = "<OFX>" + String(repeating: "<A>", count: 200_000) + "</OFX>"
        #expect(try OFXParser.parse(Array(unclosed.utf8)).isEmpty)
    }
}

// MARK: Shapes of real banks' downloads

@Suite struct OFXRealWorldShapeTests {
    @Test func transactionListLeftOpenEndsAtTheBalance() throws {
        // A credit-card download that never writes </BANKTRANLIST> (Nubank's shape).
        let text = """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102

        <OFX>
        <CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
        <CCSTMTRS><CURDEF>BRL<CCACCTFROM><ACCTID>card-1</CCACCTFROM>
        <BANKTRANLIST><DTSTART>20240301<DTEND>20240331
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240305000000[-3:GMT]<TRNAMT>-10.00<FITID>a<MEMO>Cafe</STMTTRN>
        <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240306<TRNAMT>-2.50<FITID>b<MEMO>Bus</STMTTRN>
        <LEDGERBAL><BALAMT>-12.50<DTASOF>20240331</LEDGERBAL>
        </CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1>
        </OFX>
        """
        let statements = try OFXParser.parse(Array(text.utf8))
        #expect(statements.count == 1)
        #expect(statements.first?.entries.map(\.amount) == [ofxAmount("-10.00"), ofxAmount("-2.50")])
        #expect(statements.first?.closing?.amount == ofxAmount("-12.50"))
        #expect(statements.first?.closing?.date == ofxDay(2024, 3, 31))
    }

    @Test func transactionListLeftOpenEndsAtTheStatementsEnd() throws {
        let text = ofxSGML(ofxTransaction(), after: "").replacingOccurrences(of: "</BANKTRANLIST>", with: "")
        let statements = try OFXParser.parse(Array(text.utf8))
        #expect(statements.first?.entries.count == 1)
        #expect(statements.first?.entries.first?.amount == ofxAmount("-1.00"))
    }

    @Test func unclosedTransactionInsideAnOpenListIsStillRefused() {
        let text = ofxSGML("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1.00").replacingOccurrences(of: "</BANKTRANLIST>", with: "")
        #expect(ofxProblem(text)?.message.contains("is not closed") == true)
    }

    @Test func balanceWrittenAllEmptyIsNotStated() throws {
        let statements = try OFXParser.parse(Array(ofxSGML(ofxTransaction(), after: "<LEDGERBAL><BALAMT></BALAMT><DTASOF></DTASOF></LEDGERBAL>").utf8))
        #expect(statements.first?.closing == nil)
        #expect(statements.first?.entries.count == 1)
        // An empty amount beside a real date is still no amount.
        let half = ofxProblem(ofxSGML(ofxTransaction(), after: "<LEDGERBAL><BALAMT> </BALAMT><DTASOF>20240131</DTASOF></LEDGERBAL>"))
        #expect(half?.element == "LEDGERBAL/BALAMT")
        #expect(half?.message.contains("is no amount") == true)
    }

    @Test func emptyCurrencyIsTheOneEveryEntryNamesAtRateOne() throws {
        let aud = "<CURRENCY><CURRATE>1.0000</CURRATE><CURSYM>AUD</CURSYM></CURRENCY>"
        let named = try OFXParser.parse(Array(ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>12.34<FITID>1\(aud)"),
                                                      currency: "<CURDEF></CURDEF>").utf8))
        #expect(named.first?.account.currency == "AUD")
        #expect(named.first?.entries.first?.amount == ofxAmount("12.34"))
        // Another rate, or an entry naming none: the currency stays unknown, and the file is refused.
        let converted = "<CURRENCY><CURRATE>0.65</CURRATE><CURSYM>AUD</CURSYM></CURRENCY>"
        #expect(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>12.34<FITID>1\(converted)"), currency: "<CURDEF></CURDEF>"))?
            .element == "STMTRS/CURDEF")
        #expect(ofxProblem(ofxSGML(ofxTransaction("<DTPOSTED>20240105<TRNAMT>1<FITID>1\(aud)") + ofxTransaction(),
                                   currency: "<CURDEF></CURDEF>"))?.element == "STMTRS/CURDEF")
    }

    @Test func elementsWithValuesClosedLateInNestingOrder() throws {
        // SGML passed through a tool that closes every element, in nesting order (an Amex
        // download as some tools save it): the late end tags of elements with values are read past.
        let transaction = """
        <STMTTRN>
         <TRNTYPE>DEBIT
          <DTPOSTED>20240105
           <TRNAMT>-143.94
            <FITID>T1
             <NAME>Restaurant
             </NAME>
            </FITID>
           </TRNAMT>
          </DTPOSTED>
         </TRNTYPE>
        </STMTTRN>
        """
        let statements = try OFXParser.parse(Array(ofxSGML(transaction).utf8))
        #expect(statements.first?.entries.first?.amount == ofxAmount("-143.94"))
        #expect(statements.first?.entries.first?.id == "T1")
        #expect(statements.first?.entries.first?.payee == "Restaurant")
        // An end tag of an element never seen with a value, or of an aggregate, still closes nothing.
        #expect(ofxProblem(ofxSGML(ofxTransaction() + "</FOO>"))?.message == "</FOO> closes nothing: no <FOO> is open here")
        #expect(ofxProblem(ofxSGML(ofxTransaction() + "</PAYEE>"))?.message == "</PAYEE> closes nothing: no <PAYEE> is open here")
    }

    @Test func recognisesAHeaderAfterAMangledByteOrderMark() {
        let text = Array(ofxSGML(ofxTransaction()).utf8)
        #expect(OFXParser.recognises([0xEF, 0x9C, 0xAD] + text))
        #expect(!OFXParser.recognises([0xEF, 0x9C, 0xAD, 0x80, 0x80] + text))
    }
}
