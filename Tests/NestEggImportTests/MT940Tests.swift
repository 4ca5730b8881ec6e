import Foundation
import Testing
@testable import NestEggImport

// Tests of the SWIFT MT940/MT942 parser: the samples in Tests/Samples/imports/mt940/ (one per
// bank shape, see its README.md) and small inline messages for each rule and each problem.

/// The folder `Samples/imports/mt940`: found by walking up from this file to a folder that has a
/// `Samples` folder (the repository's `Tests`), else under `$NESTEGG_SAMPLES` (a scratch package
/// that links this file in, where `#filePath` is the link's path).
private func mt940SamplesFolder(_ filePath: String = #filePath) -> URL {
    var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while folder.path != "/" {
        let candidate = folder.appendingPathComponent("Samples")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("imports/mt940").path) {
            return candidate.appendingPathComponent("imports/mt940")
        }
        folder = folder.deletingLastPathComponent()
    }
    let root = ProcessInfo.processInfo.environment["NESTEGG_SAMPLES"] ?? "/work/main/Tests/Samples"
    return URL(fileURLWithPath: root).appendingPathComponent("imports/mt940")
}

private func mt940SampleBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: mt940SamplesFolder().appendingPathComponent(name)))
}

private func mt940Sample(_ name: String) throws -> [ImportedStatement] {
    try MT940Parser.parse(try mt940SampleBytes(name))
}

/// Parses lines joined with LF.
private func mt940Parse(_ lines: [String]) throws -> [ImportedStatement] {
    try MT940Parser.parse(Array((lines.joined(separator: "\n") + "\n").utf8))
}

/// The problem parsing the lines throws, or nil when they parse.
private func mt940Problem(_ lines: [String]) -> ImportProblem? {
    do {
        _ = try MT940Parser.parse(Array((lines.joined(separator: "\n") + "\n").utf8))
        return nil
    } catch {
        return error
    }
}

private func mt940Amount(_ text: String) -> DecimalAmount {
    DecimalAmount(parsing: text) ?? DecimalAmount(significand: Int64.min, scale: 0)
}

private func mt940Date(_ text: String) -> ImportDate? { ImportDate(iso: text) }

/// A minimal valid MT940 around the given statement lines (opening 100,00 EUR).
private func mt940Statement(_ body: [String], closing: String = ":62F:C240131EUR100,00") -> [String] {
    [":20:REF", ":25:DEUTDEFF/1234567", ":28C:1/1", ":60F:C231231EUR100,00"] + body + [closing, "-"]
}

/// Whether opening plus entries is closing, exactly.
private func mt940Balances(_ statement: ImportedStatement) -> Bool {
    guard let opening = statement.opening, let closing = statement.closing else { return false }
    var sum = opening.amount
    for entry in statement.entries {
        guard let next = sum.adding(entry.amount) else { return false }
        sum = next
    }
    return sum.isSameNumber(as: closing.amount)
}

@Suite("MT940 samples")
struct MT940SampleTests {
    @Test("ABN AMRO shape: preamble lines, '-' between pages, 60F/62M then 60M/62F, CRLF")
    func abnAmroPages() throws {
        let statements = try mt940Sample("abnamro-style-two-pages.sta")
        #expect(statements.count == 2)
        let first = statements[0], second = statements[1]
        #expect(first.line == 4)
        #expect(second.line == 20)
        #expect(first.account.number == "517852257")
        #expect(first.account.iban == nil)
        #expect(first.account.bank == nil)
        #expect(first.account.currency == "EUR")
        #expect(first.account.kind == .current)
        #expect(first.opening == StatedBalance(date: ImportDate(year: 2024, month: 1, day: 2)!, amount: mt940Amount("3236.28"), line: 7))
        #expect(first.closing == StatedBalance(date: ImportDate(year: 2024, month: 1, day: 3)!, amount: mt940Amount("4227.28"), line: 15))
        #expect(second.opening?.amount == mt940Amount("4227.28"))
        #expect(second.closing?.amount == mt940Amount("4201.78"))
        #expect(first.entries.count == 2)
        #expect(second.entries.count == 1)
        #expect(statements.allSatisfy(mt940Balances))

        let giro = first.entries[0]
        #expect(giro.amount == DecimalAmount(significand: -9, scale: 0))
        #expect(giro.kind == "N192")
        #expect(giro.reference == nil)
        #expect(giro.id == nil)
        #expect(giro.date == mt940Date("2024-01-03"))
        #expect(giro.valueDate == nil)
        #expect(giro.line == 8)
        #expect(giro.payee == nil)
        #expect(giro.description
            == "GIRO  428428 KPN - DIGITENNE    BETALINGSKENM.  0000000421886595314606715  BETREFT FACTUUR D.D. 20-12-2023 INCL. 1,44 BTW")

        let salary = first.entries[1]
        #expect(salary.amount == mt940Amount("1000.00"))
        #expect(salary.payee == "J. JANSEN")
        #expect(salary.description == "SALARIS JANUARI 2024")
        #expect(second.entries[0].description == "BEA   NR:XXXX01   04.01.24/12.04 ALBERT HEIJN 1234,PAS123")
        #expect(second.entries[0].amount == mt940Amount("-25.50"))
    }

    @Test("Deutsche Bank shape: SWIFT envelope, ?-structured :86:, Latin-1, two accounts, year end, RC/RD")
    func deutscheBank() throws {
        let statements = try mt940Sample("deutschebank-style-swift-envelope-latin1.sta")
        #expect(statements.count == 2)
        let first = statements[0], second = statements[1]
        #expect(first.line == 1)
        #expect(first.account.bank == "DEUTDEFF")
        #expect(first.account.number == "0532013000")
        #expect(second.account.bank == "10070000")
        #expect(second.account.number == "9876543210")
        #expect(statements.allSatisfy(mt940Balances))

        let debit = first.entries[0]
        #expect(debit.amount == mt940Amount("-45.00"))
        #expect(debit.id == "DB0000001")
        #expect(debit.kind == "NDDT")
        #expect(debit.date == mt940Date("2023-12-29"))
        #expect(debit.description
            == "EREF+RG-2023-12-001 MREF+M-4711 CRED+DE98ZZZ09999999999 SVWZ+Abschlag Strom Dezember 2023 Kundennr. 4711")
        #expect(debit.payee == "Stadtwerke München GmbH")

        let acrossYearEnd = first.entries[1]
        #expect(acrossYearEnd.date == mt940Date("2024-01-02"))
        #expect(acrossYearEnd.valueDate == mt940Date("2023-12-30"))
        #expect(acrossYearEnd.amount == mt940Amount("2500.00"))
        #expect(acrossYearEnd.description == "EREF+LOHN-2023-12 SVWZ+Lohn/Gehalt 12/2023")
        #expect(acrossYearEnd.payee == "Ingenieurbüro Weißenfels GmbH & Co. KG")

        let reversedCredit = first.entries[2]
        #expect(reversedCredit.amount == mt940Amount("-100.00"))
        #expect(reversedCredit.description == "SVWZ+Rueckbuchung Gutschrift")
        #expect(reversedCredit.payee == "Muster GmbH")

        let reversedDebit = first.entries[3]
        #expect(reversedDebit.amount == mt940Amount("45.00"))
        #expect(reversedDebit.description == "Rueckgabe Lastschrift Widerspruch")
        #expect(reversedDebit.payee == nil)

        #expect(second.opening?.amount == mt940Amount("-120.50"))
        #expect(second.entries[0].description == "Kontoführungsgebühr Januar")
        #expect(second.entries[0].kind == "NMSC")
        #expect(second.entries[1].amount == DecimalAmount(significand: 500, scale: 0))
        #expect(second.entries[1].reference == "ABC-123")
        #expect(second.entries[1].description == "Umbuchung vom Tagesgeld")
        #expect(second.entries[1].date == mt940Date("2024-01-03"))
    }

    @Test("Rabobank/ING shape: IBAN with currency, /NAME/ and /CNTP/ :86:, Windows-1252, split by :20:")
    func rabobankIng() throws {
        let statements = try mt940Sample("rabobank-ing-style-1252.swi")
        #expect(statements.count == 2)
        #expect(statements[0].account.iban == "NL44RABO0123456789")
        #expect(statements[0].account.number == nil)
        #expect(statements[1].account.iban == "NL69INGB0123456789")
        #expect(statements[1].line == 16)
        #expect(statements.allSatisfy(mt940Balances))

        let refund = statements[0].entries[0]
        #expect(refund.payee == "P. de Vries")
        #expect(refund.description == "Terugbetaling etentje € 25,00 pp")
        #expect(refund.reference == "EREF")
        #expect(refund.id == "00000000001001")
        #expect(refund.date == mt940Date("2024-01-05"))

        let order = statements[0].entries[1]
        #expect(order.payee == "Bol.com BV")
        #expect(order.description == "Bestelling 4012345678")
        #expect(order.amount == mt940Amount("-74.99"))

        let gift = statements[1].entries[0]
        #expect(gift.payee == "J Jansen")
        #expect(gift.description == "Verjaardagscadeau")
        #expect(gift.id == "INGREF0000001")
    }

    @Test("MT942: no balances, booked entries, :90D:/:90C: agreeing with them")
    func interim() throws {
        let statements = try mt940Sample("ing-style-mt942-interim.sta")
        #expect(statements.count == 1)
        let report = statements[0]
        #expect(report.opening == nil)
        #expect(report.closing == nil)
        #expect(report.account.iban == "NL69INGB0123456789")
        #expect(report.account.currency == "EUR")
        #expect(report.entries.map(\.amount) == ["-15.00", "-4.50", "100.00", "4.50"].map(mt940Amount))
        #expect(report.entries.allSatisfy { $0.status == .booked })
        #expect(report.entries[0].payee == "Parkeerbedrijf Amsterdam")
        #expect(report.entries[0].description == "Parkeren 08-01")
        #expect(report.entries[3].description == "Storno Koffie")
        #expect(report.entries[3].id == "ING942-4")
    }

    @Test("recognises every sample")
    func recognisesSamples() throws {
        for name in ["abnamro-style-two-pages.sta", "deutschebank-style-swift-envelope-latin1.sta",
                     "rabobank-ing-style-1252.swi", "ing-style-mt942-interim.sta"] {
            #expect(MT940Parser.recognises(try mt940SampleBytes(name)), "\(name)")
        }
    }
}

@Suite("MT940 rules")
struct MT940RuleTests {
    @Test("recognises no other format")
    func recognisesNotOthers() {
        let others = [
            "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><SIGNONMSGSRSV1>",
            "<?xml version=\"1.0\"?>\n<OFX>\n<BANKMSGSRSV1>",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">",
            "!Type:Bank\nD01/02/2024\nT-12.50\n^\n",
            "Date,Description,Amount\n2024-01-02,Coffee,-3.50\n",
            "{\"transactions\": [{\"amount\": -3.5}]}",
            "[{\"a\": 1}]",
            "",
            ":20:REF\nno account here\n",
            "Buchungstag;Wertstellung;Betrag\n:20:;:25:;x\n",
        ]
        for text in others {
            #expect(!MT940Parser.recognises(Array(text.utf8)), "\(text)")
        }
        #expect(MT940Parser.recognises(Array("\u{FEFF}\n\n:20:X\n:25:1\n".utf8)))
        #expect(MT940Parser.recognises(Array("{1:F01BANKBEBBAXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n:20:X\n:25:1\n".utf8)))
    }

    @Test("a UTF-8 byte-order mark, CR line ends and blank lines are read")
    func lineEnds() throws {
        let text = "\u{FEFF}" + mt940Statement([":61:240110C5,00NTRFNONREF//X1", "", ":86:Pay"],
                                              closing: ":62F:C240131EUR105,00").joined(separator: "\r")
        let statements = try MT940Parser.parse(Array(text.utf8))
        #expect(statements.count == 1)
        #expect(statements[0].entries[0].description == "Pay")
        #expect(statements[0].entries[0].line == 5)
        #expect(statements[0].closing?.line == 8)
    }

    @Test(":25: — BIC/IBAN, IBAN with spaces, sort code/number, an IBAN-like number that fails the check")
    func accounts() throws {
        func account(_ text: String) throws -> ImportedAccount {
            try mt940Parse([":20:R", ":25:\(text)", ":60F:C240101GBP1,00", ":62F:C240101GBP1,00"])[0].account
        }
        let bicIban = try account("DEUTDEFFXXX/DE89370400440532013000")
        #expect(bicIban.iban == "DE89370400440532013000")
        #expect(bicIban.bank == "DEUTDEFFXXX")
        #expect(bicIban.number == nil)
        #expect(bicIban.currency == "GBP")
        #expect(try account("GB29 NWBK 6016 1331 9268 19").iban == "GB29NWBK60161331926819")
        #expect(try account("nl91abna0417164300").iban == "NL91ABNA0417164300")
        let sortCode = try account("601613/31926819")
        #expect(sortCode.bank == "601613")
        #expect(sortCode.number == "31926819")
        #expect(sortCode.iban == nil)
        let wrongCheck = try account("DE00370400440532013000")
        #expect(wrongCheck.iban == nil)
        #expect(wrongCheck.number == "DE00370400440532013000")
    }

    @Test("years 80–99 are 19YY, 00–79 20YY; an entry date before the value date's year end")
    func dates() throws {
        let old = try mt940Parse([":20:R", ":25:1", ":60F:C991231EUR0,", ":61:991231C1,NTRFNONREF", ":62F:C991231EUR1,"])
        #expect(old[0].opening?.date == mt940Date("1999-12-31"))
        #expect(old[0].entries[0].date == mt940Date("1999-12-31"))
        let late = try mt940Parse(mt940Statement([":61:7901021229D1,00NTRFNONREF"], closing: ":62F:C790102EUR99,00"))
        #expect(late[0].entries[0].date == mt940Date("2078-12-29"))
        #expect(late[0].entries[0].valueDate == mt940Date("2079-01-02"))
        let same = try mt940Parse(mt940Statement([":61:2401100110D1,00NTRFNONREF"], closing: ":62F:C240110EUR99,00"))
        #expect(same[0].entries[0].valueDate == nil)
        #expect(same[0].entries[0].date == mt940Date("2024-01-10"))
        let leap = try mt940Parse(mt940Statement([":61:2403010229D1,00NTRFNONREF"], closing: ":62F:C240301EUR99,00"))
        #expect(leap[0].entries[0].date == mt940Date("2024-02-29"))
    }

    @Test("the sign: C +, D −, RC −, RD +; the funds code is read past; balances D negative")
    func signs() throws {
        let statement = try mt940Parse([":20:R", ":25:1", ":60F:D240101EUR10,00",
                                        ":61:240102C1,00NTRFNONREF", ":61:240102D2,00NTRFNONREF",
                                        ":61:240102RC3,00NTRFNONREF", ":61:240102RD4,00NTRFNONREF",
                                        ":61:240102CR5,00NTRFNONREF", ":61:240102RDR6,00NTRFNONREF",
                                        ":62F:C240102EUR1,00"])[0]
        #expect(statement.opening?.amount == mt940Amount("-10.00"))
        #expect(statement.entries.map(\.amount) == ["1.00", "-2.00", "-3.00", "4.00", "5.00", "6.00"].map(mt940Amount))
        #expect(mt940Balances(statement))
    }

    @Test("amounts are kept at the scale written, more decimals too; the comma may end the amount")
    func amounts() throws {
        let statement = try mt940Parse(mt940Statement([":61:240102D0,125NTRFNONREF", ":61:240102C7,NTRFNONREF"],
                                                      closing: ":62F:C240131EUR106,875"))[0]
        #expect(statement.entries[0].amount == DecimalAmount(significand: -125, scale: 3))
        #expect(statement.entries[1].amount == DecimalAmount(significand: 7, scale: 0))
        #expect(statement.closing?.amount == DecimalAmount(significand: 106875, scale: 3))
    }

    @Test(":61: references: owner's up to //, NONREF none, bank's after //; transaction types F and S")
    func references() throws {
        let entries = try mt940Parse(mt940Statement([
            ":61:240102D1,00FCHK000123//CHQ-9", ":61:240102D1,00S103INV 2024/7//B 77 ",
            ":61:240102D1,00NTRFNONREF//", ":61:240102D1,00NTRF",
        ], closing: ":62F:C240131EUR96,00"))[0].entries
        #expect(entries[0].reference == "000123")
        #expect(entries[0].id == "CHQ-9")
        #expect(entries[0].kind == "FCHK")
        #expect(entries[1].reference == "INV 2024/7")
        #expect(entries[1].id == "B 77")
        #expect(entries[1].kind == "S103")
        #expect(entries[2].reference == nil)
        #expect(entries[2].id == nil)
        #expect(entries[3].reference == nil)
        #expect(entries[3].description == "")
    }

    @Test(":86: forms: ?-structured with ?60–?63 and ?00 fallback, /BENM//NAME/, REMI STRD, no REMI, free text joined")
    func information() throws {
        let long = String(repeating: "x", count: 60) + "ABCDE"
        let entries = try mt940Parse(mt940Statement([
            ":61:240102D1,00NTRFNONREF", ":86:?20Miete?21Januar?60Wohnung 3?32Vermieter",
            ":61:240102D1,00NTRFNONREF", ":86:835?00ENTGELT?109999",
            ":61:240102D1,00NTRFNONREF", ":86:/BENM//NAME/Acme Ltd/REMI/STRD/CUR/1234567890/",
            ":61:240102D1,00NTRFNONREF", ":86:/TRTP/SEPA OVERBOEKING/NAME/Acme Ltd/",
            ":61:240102D1,00NTRFNONREF", ":86:" + long, "FG", "  next line  ",
            ":61:240102D1,00NTRFNONREF", "Supplementary only",
            ":61:240102D1,00NTRFNONREF", ":86:/ORDP/NAME/Single Slash/REMI/USTD//Rent/ID/",
        ], closing: ":62F:C240131EUR93,00"))[0].entries
        #expect(entries[0].description == "Miete Januar Wohnung 3")
        #expect(entries[0].payee == "Vermieter")
        #expect(entries[1].description == "ENTGELT")
        #expect(entries[1].payee == nil)
        #expect(entries[2].payee == "Acme Ltd")
        #expect(entries[2].description == "1234567890")
        #expect(entries[3].payee == "Acme Ltd")
        #expect(entries[3].description == "/TRTP/SEPA OVERBOEKING/NAME/Acme Ltd/")
        #expect(entries[4].description == long + "FG next line")
        #expect(entries[5].description == "Supplementary only")
        #expect(entries[6].payee == "Single Slash")
        #expect(entries[6].description == "Rent")
    }

    @Test(":86: before the first :61: or after :62F: is about the statement, not an entry")
    func statementInformation() throws {
        let statement = try mt940Parse([":20:R", ":25:1", ":60F:C240101EUR0,", ":86:Statement note",
                                        ":61:240102C1,NTRFNONREF", ":62F:C240102EUR1,", ":86:Closing note"])[0]
        #expect(statement.entries.count == 1)
        #expect(statement.entries[0].description == "")
    }

    @Test("statements split by '-', by the next :20:, and by SWIFT headers; unknown fields read past")
    func separation() throws {
        let one = [":20:A", ":25:1", ":60F:C240101EUR0,", ":62F:C240101EUR0,"]
        #expect(try mt940Parse(one + one + ["-"] + one).count == 3)
        let enveloped = ["{1:F01BANKBEBBAXXX0000000000}{2:O9401200240102BANKBEBBAXXX00000000002401021200N}", "{4:"] + one + ["-}",
                         "{1:F01BANKBEBBAXXX0000000000}{2:I940BANKDEFFXXXXN}{4::20:B", ":25:2", ":NS:22Kontoinhaber",
                         ":60F:C240101EUR0,", ":62F:C240101EUR0,", ":64:C240101EUR0,", ":65:C240102EUR0,", "-}{5:{CHK:1}}"]
        let statements = try mt940Parse(enveloped)
        #expect(statements.count == 2)
        #expect(statements[0].line == 1)
        #expect(statements[1].line == 8)
        #expect(statements[1].account.number == "2")
    }

    @Test("MT942 without an envelope is known by :34F:; its currency comes from there")
    func interimWithoutEnvelope() throws {
        let report = try mt940Parse([":20:R", ":25:1", ":28C:1", ":34F:CHF0,", ":13D:2401021200+0100",
                                     ":61:240102D3,00NTRFNONREF", ":90D:1CHF3,", ":90C:0CHF0,"])[0]
        #expect(report.account.currency == "CHF")
        #expect(report.entries.count == 1)
        #expect(report.closing == nil)
    }

    @Test("a generated file of 10,000 entries parses")
    func tenThousand() throws {
        var lines = [":20:BIG", ":25:NL91ABNA0417164300", ":60F:C240101EUR0,00"]
        for index in 0..<10_000 {
            lines.append(":61:2401020102C1,00NTRFREF\(index)//B\(index)")
            lines.append(":86:/NAME/Payer \(index)/REMI/Entry \(index)/")
        }
        lines.append(":62F:C240102EUR10000,00")
        let statement = try mt940Parse(lines)[0]
        #expect(statement.entries.count == 10_000)
        #expect(statement.entries[9_999].id == "B9999")
        #expect(statement.entries[9_999].payee == "Payer 9999")
        #expect(mt940Balances(statement))
    }
}

@Suite("MT940 problems")
struct MT940ProblemTests {
    @Test("an :61: before the account and the opening balance")
    func entryTooEarly() {
        let problem = mt940Problem([":20:R", ":61:240102C1,NTRFNONREF", ":25:1", ":60F:C240101EUR0,", ":62F:C240101EUR1,"])
        #expect(problem?.line == 2)
        #expect(problem?.element == ":61:")
        #expect(problem?.message.contains("before the statement's account") == true)
        let noOpening = mt940Problem([":20:R", ":25:1", ":61:240102C1,NTRFNONREF"])
        #expect(noOpening?.line == 3)
    }

    @Test("an MT940 without :62F:, and without :60F:")
    func missingBalances() {
        let noClosing = mt940Problem([":20:R", ":25:1", ":60F:C240101EUR0,", ":61:240102C1,NTRFNONREF", "-", ":20:S"])
        #expect(noClosing?.line == 1)
        #expect(noClosing?.element == ":62F:")
        #expect(noClosing?.message.contains("without a closing balance") == true)
        let noOpening = mt940Problem([":20:R", ":25:1", ":62F:C240101EUR0,"])
        #expect(noOpening?.element == ":60F:")
        let noAccount = mt940Problem([":20:R", ":60F:C240101EUR0,", ":62F:C240101EUR0,"])
        #expect(noAccount?.element == ":25:")
    }

    @Test(":90D:/:90C: disagreeing with the entries names both figures")
    func interimTotals() {
        let head = [":20:R", ":25:1", ":34F:EUR0,", ":61:240102D3,00NTRFNONREF", ":61:240102RC2,00NTRFNONREF", ":61:240102C1,NTRFNONREF"]
        let count = mt940Problem(head + [":90D:3EUR5,00"])
        #expect(count?.line == 7)
        #expect(count?.element == ":90D:")
        #expect(count?.message == "states 3 debit entries of 5,00 EUR, but the report has 2 debit entries of 5,00 EUR; expected the two to agree")
        let sum = mt940Problem(head + [":90D:2EUR5,00", ":90C:1EUR1,50"])
        #expect(sum?.line == 8)
        #expect(sum?.message == "states 1 credit entries of 1,50 EUR, but the report has 1 credit entries of 1 EUR; expected the two to agree")
        #expect(mt940Problem(head + [":90D:2EUR5,", ":90C:1EUR1,00"]) == nil)
        let currency = mt940Problem(head + [":90D:2USD5,00"])
        #expect(currency?.message.contains("USD differs") == true)
        let noCurrency = mt940Problem(["{2:I942BANKDEFFXXXXN}{4:", ":20:R", ":25:1", "-}"])
        #expect(noCurrency?.element == ":34F:")
    }

    @Test("malformed :61: fields: date, entry date, mark, amount, type — each with line and column")
    func badStatementLines() {
        func problem(_ line: String) -> ImportProblem? { mt940Problem(mt940Statement([line])) }
        let date = problem(":61:24013XC1,00NTRFNONREF")
        #expect(date?.line == 5)
        #expect(date?.column == 5)
        #expect(date?.element == ":61:")
        #expect(date?.message == "\"24013XC1,00NTRFNONREF\" has no value date where expected; expected six digits YYMMDD, e.g. 240131")
        let impossible = problem(":61:240431C1,00NTRFNONREF")
        #expect(impossible?.message == "\"240431C1,00NTRFNONREF\" has value date 240431, which is no date; expected YYMMDD, e.g. 240131")
        let entry = problem(":61:2302280229C1,00NTRFNONREF")
        #expect(entry?.column == 11)
        #expect(entry?.message.contains("entry date 0229 that is no date in 2023") == true)
        let mark = problem(":61:240102X1,00NTRFNONREF")
        #expect(mark?.column == 11)
        #expect(mark?.message.contains("expected C, D, RC or RD") == true)
        let reversal = problem(":61:240102RX1,00NTRFNONREF")
        #expect(reversal?.message.contains("not followed by C or D") == true)
        let amount = problem(":61:240102C,50NTRFNONREF")
        #expect(amount?.column == 12)
        #expect(amount?.message.contains("no amount") == true)
        let dotted = problem(":61:240102C1.50NTRFNONREF")
        #expect(dotted?.column == 13)
        #expect(dotted?.message.contains("expected a decimal comma") == true)
        let noType = problem(":61:240102C1,50-TRFNONREF")
        #expect(noType?.column == 16)
        #expect(noType?.message.contains("no transaction type") == true)
        let threeLines = mt940Problem(mt940Statement([":61:240102C1,50NTRFNONREF", "details", "61:240103C2,00NTRFNONREF"]))
        #expect(threeLines?.line == 7)
        #expect(threeLines?.message.contains("at most one line of supplementary details") == true)
        let huge = problem(":61:240102C999999999999999999,00NTRFNONREF")
        #expect(huge?.message.contains("too large") == true)
    }

    @Test("malformed balances, a second :25:, an :61: after :62F:, currencies that differ")
    func badStructure() {
        let balance = mt940Problem([":20:R", ":25:1", ":60F:C240101EU100,00"])
        #expect(balance?.line == 3)
        #expect(balance?.column == 13)
        #expect(balance?.message.contains("no currency") == true)
        let trailing = mt940Problem([":20:R", ":25:1", ":60F:C240101EUR100,00 extra"])
        #expect(trailing?.message.contains("after its last part") == true)
        let continued = mt940Problem([":20:R", ":25:1", ":60F:C240101EUR100,00", "oops", ":62F:C240101EUR100,00"])
        #expect(continued?.line == 4)
        #expect(continued?.message.contains("continues a field of one line") == true)
        let twoAccounts = mt940Problem([":20:R", ":25:1", ":25:2"])
        #expect(twoAccounts?.line == 3)
        let late = mt940Problem([":20:R", ":25:1", ":60F:C240101EUR0,", ":62F:C240101EUR0,", ":61:240102C1,NTRFNONREF"])
        #expect(late?.line == 5)
        #expect(late?.message.contains("after the closing balance") == true)
        let currencies = mt940Problem([":20:R", ":25:1", ":60F:C240101EUR0,", ":62F:C240101USD0,"])
        #expect(currencies?.line == 4)
        #expect(currencies?.message.contains("USD differs from the statement's EUR") == true)
        let twoOpenings = mt940Problem([":20:R", ":25:1", ":60F:C240101EUR0,", ":60M:C240101EUR0,"])
        #expect(twoOpenings?.line == 4)
        let emptyAccount = mt940Problem([":20:R", ":25: ", ":60F:C240101EUR0,", ":62F:C240101EUR0,"])
        #expect(emptyAccount?.line == 2)
        #expect(emptyAccount?.message.contains("no account") == true)
    }

    @Test("a file without messages, and another message type")
    func notStatements() {
        #expect(mt940Problem(["hello", "world"])?.message.contains("no MT940/MT942 message") == true)
        let other = mt940Problem(["{1:F01BANKBEBBAXXX0000000000}{2:I103BANKDEFFXXXXN}{4:", ":20:R", ":25:1", "-}"])
        #expect(other?.line == 1)
        #expect(other?.message.contains("MT103") == true)
    }

    @Test("arbitrary bytes never crash")
    func garbage() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(":0123456789CDRNTF,/?{}-\n\r 2546186NSABC".utf8)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            _ = MT940Parser.recognises(bytes)
            _ = try? MT940Parser.parse(bytes)
            let prefixed = Array(":20:R\n:25:1\n:60F:C240101EUR0,\n:61:".utf8) + bytes
            _ = try? MT940Parser.parse(prefixed)
        }
        // :86: made of the pieces its structured forms are read by.
        let tokens = ["/NAME/", "/BENM/", "/REMI/", "/CNTP/", "/", "//", "USTD//", "STRD/CUR/", "?", "?2", "?20", "?32", "?00",
                      "166?", "x", " ", "\n", "\r\n", "ü", "-", "{", ":"]
        var described = 0
        for _ in 0..<500 {
            let information = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in tokens.randomElement(using: &generator) ?? "" }.joined()
            let text = ":20:R\n:25:1\n:60F:C240101EUR0,\n:61:240102C1,NTRFNONREF\n:86:\(information)\n:62F:C240102EUR1,\n"
            if let statements = try? MT940Parser.parse(Array(text.utf8)), statements.first?.entries.count == 1 { described += 1 }
        }
        #expect(described > 0)
    }
}

// MARK: Shapes of real banks' files

@Suite struct MT940RealWorldShapeTests {
    @Test func messageFramedBySOHAndETX() throws {
        // Files taken from a SWIFT link (mBank): SOH alone on the first line, `-` ETX at the end.
        let lines = ["\u{01}"] + mt940Statement([":61:2401020102C5,00NTRFNONREF//B1", ":86:In"], closing: ":62F:C240102EUR105,00")
        var text = lines.joined(separator: "\r\n")
        text = text.replacingOccurrences(of: "\r\n-", with: "\r\n-\u{03}")
        let bytes = Array(text.utf8)
        #expect(MT940Parser.recognises(bytes))
        let statements = try MT940Parser.parse(bytes)
        #expect(statements.count == 1)
        #expect(statements.first?.entries.first?.amount == mt940Amount("5.00"))
        #expect(statements.first?.closing?.amount == mt940Amount("105.00"))
    }

    @Test func valueDateThirtiethOfFebruaryIsTheMonthsEnd() throws {
        let statements = try mt940Parse(mt940Statement([":61:2402300301D6,00NCHGNONREF", ":86:Fees"], closing: ":62F:C240301EUR94,00"))
        #expect(statements.first?.entries.first?.date == mt940Date("2024-03-01"))
        #expect(statements.first?.entries.first?.valueDate == mt940Date("2024-02-29"))
        let alone = try mt940Parse(mt940Statement([":61:230230D6,00NCHGNONREF"], closing: ":62F:C230228EUR94,00"))
        #expect(alone.first?.entries.first?.date == mt940Date("2023-02-28"))
        // Only February: 31 April is still no date, nor is the 30th a booking (entry) date.
        #expect(mt940Problem(mt940Statement([":61:240431D6,00NCHGNONREF"]))?.message.contains("which is no date") == true)
        #expect(mt940Problem(mt940Statement([":61:2402280230D6,00NCHGNONREF"]))?.message.contains("entry date") == true)
    }

    @Test func transactionTypePaddedWithSpacesOrOfAnotherLetter() throws {
        let statements = try mt940Parse(mt940Statement([":61:2401020102DF2402,00S   X", ":61:2401020102D1,00MCI0NONREF//B7"],
                                                       closing: ":62F:D240102EUR2303,00"))
        #expect(statements.first?.entries.map(\.kind) == ["S", "MCI0"])
        #expect(statements.first?.entries.map(\.amount) == [mt940Amount("-2402.00"), mt940Amount("-1.00")])
        #expect(statements.first?.entries.first?.reference == "X")
        #expect(mt940Problem(mt940Statement([":61:240102D1,00ntrf"]))?.message.contains("no transaction type") == true)
    }
}
