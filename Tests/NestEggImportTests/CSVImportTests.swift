import Foundation
import Testing
@testable import NestEggImport

/// The CSV samples folder: found by walking up from this file to a folder with `Samples/imports/csv`
/// (the repository's `Tests`), else under `$NESTEGG_SAMPLES` (when this file is compiled from a link).
private enum CSVSamples {
    static func folder() -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Samples/imports/csv")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let root = ProcessInfo.processInfo.environment["NESTEGG_SAMPLES"] ?? "Tests/Samples"
        return URL(fileURLWithPath: root).appendingPathComponent("imports/csv")
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder().appendingPathComponent(name)))
    }

    static func statement(_ name: String, _ mapping: CSVMapping) throws -> ImportedStatement {
        let statements = try CSVImportParser.parse(bytes(name), mapping: mapping)
        #expect(statements.count == 1)
        return try #require(statements.first)
    }

    static func statement(text: String, _ mapping: CSVMapping = CSVSamples.simple) throws(ImportProblem) -> ImportedStatement? {
        try CSVImportParser.parse(Array(text.utf8), mapping: mapping).first
    }

    /// The problem `text` is refused with (nil when it is read).
    static func problem(_ text: String, _ mapping: CSVMapping = CSVSamples.simple) -> ImportProblem? {
        do {
            _ = try statement(text: text, mapping)
            return nil
        } catch {
            return error
        }
    }

    static func amount(_ text: String) -> DecimalAmount { DecimalAmount(parsing: text)! }
    static func date(_ y: Int, _ m: Int, _ d: Int) -> ImportDate { ImportDate(year: y, month: m, day: d)! }

    /// `Date,Text,Amount[,Balance]` with ISO dates: for the inline tests.
    static let simple = CSVMapping(date: "Date", dateFormat: "YYYY-MM-DD", amount: "Amount", description: ["Text"],
                                   account: ImportedAccount(currency: "GBP"))
    static var withBalance: CSVMapping {
        var mapping = simple
        mapping.balance = "Balance"
        return mapping
    }

    // The mappings of the sample files, as a household's settings would give them.

    static let ukBank = CSVMapping(date: "Date", dateFormat: "DD/MM/YYYY", amount: "Amount", description: ["Description"],
                                   balance: "Balance", grouping: ",",
                                   account: ImportedAccount(number: "12345678", bank: "20-00-00", currency: "GBP", name: "Current"))
    static let ing = CSVMapping(date: "Datum", dateFormat: "YYYYMMDD", amount: "Bedrag (EUR)", debitCreditColumn: "Af Bij",
                                debitMarkers: ["Af"], description: ["Naam / Omschrijving", "Mededelingen"], payee: "Naam / Omschrijving",
                                kind: "Mutatiesoort", balance: "Saldo na mutatie", decimal: ",", grouping: ".",
                                account: ImportedAccount(iban: "NL69INGB0123456789", currency: "EUR"))
    static let volksbank = CSVMapping(delimiter: ";", skipLines: 4, charset: "ISO-8859-1", date: "Buchungstag", dateFormat: "DD.MM.YYYY",
                                      valueDate: "Valuta", amount: "Umsatz", debitCreditColumn: "soll/haben", debitMarkers: ["S"],
                                      description: ["Verwendungszweck"], payee: "Auftraggeber/Zahlungsempfänger", decimal: ",", grouping: ".",
                                      account: ImportedAccount(iban: "DE02120300000000202051", currency: "EUR"))
    static let usBank = CSVMapping(date: "Posting Date", dateFormat: "MM/DD/YYYY", amount: "Amount", description: ["Description"],
                                   kind: "Type", balance: "Balance", account: ImportedAccount(currency: "USD", name: "Checking"))
    static let buildingSociety = CSVMapping(skipLines: 4, date: "Date", dateFormat: "DD MMM YYYY", moneyIn: "Paid in", moneyOut: "Paid out",
                                            description: ["Description"], kind: "Transaction type", balance: "Balance", grouping: ",",
                                            account: ImportedAccount(currency: "GBP", name: "FlexDirect"))
    static let chargeCard = CSVMapping(date: "Date", dateFormat: "MM/DD/YYYY", amount: "Amount", amountOutIsPositive: true,
                                       description: ["Description"], account: ImportedAccount(currency: "USD", kind: .creditCard))
}

@Suite struct CSVImportTests {
    // MARK: samples

    @Test func ukBankWithBOMGroupingQuotesAndBlankLine() throws {
        let statement = try CSVSamples.statement("uk-bank.csv", CSVSamples.ukBank)
        #expect(statement.account == CSVSamples.ukBank.account)
        #expect(statement.line == 1)
        #expect(statement.entries.count == 5)
        #expect(statement.entries.map(\.line) == [2, 3, 4, 6, 7])
        #expect(statement.entries[1] == ImportedEntry(date: CSVSamples.date(2024, 2, 2), amount: CSVSamples.amount("-42.18"),
                                                      description: "TESCO STORES 2291, LONDON", line: 3))
        #expect(statement.entries[3].amount == CSVSamples.amount("2450.00"))
        #expect(statement.opening == StatedBalance(date: CSVSamples.date(2024, 2, 1), amount: CSVSamples.amount("1520.00"), line: 2))
        #expect(statement.closing == StatedBalance(date: CSVSamples.date(2024, 2, 28), amount: CSVSamples.amount("3876.52"), line: 7))
    }

    @Test func ingAfBijNewestFirstWithMultiLineQuotedFields() throws {
        let statement = try CSVSamples.statement("nl-ing.csv", CSVSamples.ing)
        let entries = statement.entries
        #expect(entries.map(\.line) == [2, 3, 6])
        #expect(entries.map(\.amount) == ["-23.47", "2850.00", "-1100.00"].map(CSVSamples.amount))
        #expect(entries.map(\.date) == [CSVSamples.date(2024, 1, 31), CSVSamples.date(2024, 1, 25), CSVSamples.date(2024, 1, 2)])
        #expect(entries[1].description == "Werkgever B.V. Naam: Werkgever B.V.\r\nOmschrijving: Salaris januari 2024\r\nIBAN: NL20RABO0300065264")
        #expect(entries[2].payee == "Huurder \"De Linde\" Verhuur")
        #expect(entries[2].kind == "Incasso")
        #expect(entries.allSatisfy { $0.id == nil && $0.status == .booked })
        // Newest first: the oldest row's balance less its amount opens, the newest row's closes.
        #expect(statement.opening == StatedBalance(date: CSVSamples.date(2024, 1, 2), amount: CSVSamples.amount("175.58"), line: 6))
        #expect(statement.closing == StatedBalance(date: CSVSamples.date(2024, 1, 31), amount: CSVSamples.amount("1902.11"), line: 2))
    }

    @Test func volksbankSollHabenLatin1WithPreamble() throws {
        let statement = try CSVSamples.statement("de-volksbank.csv", CSVSamples.volksbank)
        let entries = statement.entries
        #expect(statement.line == 5)
        #expect(entries.map(\.line) == [6, 8, 9])
        #expect(entries.map(\.amount) == ["-84.00", "3250.75", "-7.90"].map(CSVSamples.amount))
        #expect(entries[2].payee == "Café am Markt")
        #expect(entries[2].description == "Kartenzahlung girocard\r\n20.01.2024 12:31")
        #expect(entries[2].date == CSVSamples.date(2024, 1, 20))
        #expect(entries[2].valueDate == CSVSamples.date(2024, 1, 22))
        #expect(statement.opening == nil && statement.closing == nil)
        // Without the charset the bytes are not UTF-8 and are read as Windows-1252: the same text.
        var guessed = CSVSamples.volksbank
        guessed.charset = nil
        #expect(try CSVSamples.statement("de-volksbank.csv", guessed).entries == entries)
    }

    @Test func usBankNewestFirstWithoutFinalLineEnd() throws {
        let statement = try CSVSamples.statement("us-bank-newest-first.csv", CSVSamples.usBank)
        #expect(statement.entries.count == 5)
        #expect(statement.entries.last?.description == "MOBILE DEPOSIT")
        #expect(statement.entries.last?.kind == "CHECK_DEPOSIT")
        #expect(statement.opening == StatedBalance(date: CSVSamples.date(2024, 2, 1), amount: CSVSamples.amount("3226.11"), line: 6))
        #expect(statement.closing == StatedBalance(date: CSVSamples.date(2024, 2, 14), amount: CSVSamples.amount("4180.25"), line: 2))
    }

    @Test func moneyInMoneyOutWithPoundSignsAndMonthNames() throws {
        let statement = try CSVSamples.statement("uk-money-in-out-latin1.csv", CSVSamples.buildingSociety)
        let entries = statement.entries
        #expect(entries.map(\.amount) == ["-3.45", "-146.00", "2091.45", "-2000.00"].map(CSVSamples.amount))
        #expect(entries[0].description == "Café Nero Kingsway")
        #expect(entries[0].kind == "Contactless Payment")
        #expect(entries.map(\.date) == [CSVSamples.date(2024, 1, 2), CSVSamples.date(2024, 1, 5), CSVSamples.date(2024, 1, 31),
                                        CSVSamples.date(2024, 2, 1)])
        #expect(entries.map(\.line) == [6, 7, 8, 9])
        #expect(statement.opening?.amount == CSVSamples.amount("2000.00"))
        #expect(statement.closing?.amount == CSVSamples.amount("1942.00"))
    }

    @Test func chargeCardWritesChargesPositive() throws {
        let entries = try CSVSamples.statement("card-charges-positive.csv", CSVSamples.chargeCard).entries
        #expect(entries.map(\.amount) == ["-29.99", "-48.10", "512.35", "29.99"].map(CSVSamples.amount))
        // The same file read as signed: the other way round.
        var signed = CSVSamples.chargeCard
        signed.amountOutIsPositive = false
        #expect(try CSVSamples.statement("card-charges-positive.csv", signed).entries[0].amount == CSVSamples.amount("29.99"))
    }

    // MARK: NestEgg's own CSV

    @Test func nestEggStatementIsRecognisedAndReadWithoutAMapping() throws {
        let bytes = try CSVSamples.bytes("nestegg-statement-eur.csv")
        #expect(CSVImportParser.recognises(bytes))
        let statements = try CSVImportParser.parse(bytes)
        let statement = try #require(statements.first)
        #expect(statement.account.currency == "EUR")
        #expect(statement.entries.count == 3)
        #expect(statement.entries[0] == ImportedEntry(id: "5b2e4f0c-8a1d-5d6e-9a77-3c2f1e0d9b11", date: CSVSamples.date(2026, 8, 1),
                                                      amount: CSVSamples.amount("-8.40"), description: "CB PAUL 0108 PARIS",
                                                      payee: "Boulangerie Paul", reference: "CB PAUL 0108 PARIS", kind: "MASTER_CARD", line: 2))
        // NestEgg's formula guard is taken off again; a quoted comma stays.
        #expect(statement.entries[1].payee == "=Formula Shop")
        #expect(statement.entries[1].reference == "TICKET 12, QUAI")
        #expect(statement.entries[2].reference == "-MIETE AUGUST")
        #expect(statement.opening?.amount == CSVSamples.amount("1300.00"))
        #expect(statement.closing == StatedBalance(date: CSVSamples.date(2026, 8, 3), amount: CSVSamples.amount("1720.60"), line: 4))
    }

    @Test func nestEggHeaderGivesTheCurrency() throws {
        let gbp = "Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes,Time,Transaction ID,Source Amount,Source Currency,Exchange Rate (GBP per unit)"
        #expect(CSVImportParser.nestEggStatementMapping(forHeader: gbp) == CSVMapping.nestEggStatement)
        let usd = gbp.replacingOccurrences(of: "GBP", with: "USD")
        let mapping = try #require(CSVImportParser.nestEggStatementMapping(forHeader: usd))
        #expect(mapping.account.currency == "USD")
        #expect(mapping.amount == "Amount (USD)")
        #expect(mapping.balance == "Balance (USD)")
        #expect(mapping.id == "Transaction ID")
        // Quoted header cells are the same header.
        #expect(CSVImportParser.nestEggStatementMapping(forHeader: "\"Date\"," + gbp.dropFirst(5)) != nil)
        for other in [gbp.replacingOccurrences(of: "Exchange Rate (GBP", with: "Exchange Rate (EUR"),
                      gbp.replacingOccurrences(of: "GBP", with: "gbp"), String(gbp.dropLast(30)),
                      "Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes", ""] {
            #expect(CSVImportParser.nestEggStatementMapping(forHeader: other) == nil, "\(other)")
        }
        #expect(CSVImportParser.recognises([0xEF, 0xBB, 0xBF] + Array((usd + "\r\n").utf8)))
    }

    @Test func onlyNestEggsHeaderIsRecognised() throws {
        for name in ["uk-bank.csv", "nl-ing.csv", "de-volksbank.csv", "us-bank-newest-first.csv", "uk-money-in-out-latin1.csv",
                     "card-charges-positive.csv"] {
            let bytes = try CSVSamples.bytes(name)
            #expect(!CSVImportParser.recognises(bytes), "\(name)")
            #expect(throws: ImportProblem.self) { try CSVImportParser.parse(bytes) }
        }
        for other in ["!Type:Bank\nD1/2/24\n", "OFXHEADER:100\n", "<?xml version=\"1.0\"?>", ":20:X\n", "{\"a\":1}", ""] {
            #expect(!CSVImportParser.recognises(Array(other.utf8)))
        }
    }

    // MARK: records

    @Test func quotingLineEndsAndLineNumbers() throws {
        let text = "Date,Text,Amount\r\n2024-01-01,\"two\nlines\",1\r2024-01-02,\"say \"\"hi\"\"\",2\n\n2024-01-03, \"spaced\" ,3"
        let entries = try #require(try CSVSamples.statement(text: text)).entries
        #expect(entries.map(\.line) == [2, 4, 6])
        #expect(entries.map(\.description) == ["two\nlines", "say \"hi\"", "spaced"])
        // A delimiter ending the last line leaves an empty extra field: allowed.
        #expect(try CSVSamples.statement(text: "Date,Text,Amount\n2024-01-01,a,1,")?.entries.count == 1)
        // Rows of empty cells are skipped like blank lines.
        #expect(try CSVSamples.statement(text: "Date,Text,Amount\n,,\n2024-01-01,a,1\n\"\",,\n")?.entries.count == 1)
        #expect(try CSVSamples.statement(text: "Date,Text,Amount\n")?.entries.isEmpty == true)
    }

    @Test func malformedRecordsNameTheirLine() {
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,a,1\n2024-01-02,b\n")
            == ImportProblem(line: 3, "the row has 2 field(s), but the header has 3 columns; expected one field per column (a quote or delimiter missing?)"))
        let extra = CSVSamples.problem("Date,Text,Amount\n2024-01-01,Smith, J,1\n")
        #expect(extra?.line == 2)
        #expect(extra?.column == 4)
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,a,1\n2024-01-02,\"open\n,2\n")
            == ImportProblem(line: 3, "a quoted field opened on this line is never closed; expected a closing \" before the end of the file"))
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,\"a\"b,1\n")?.line == 2)
        #expect(CSVSamples.problem("")?.message.hasPrefix("the file has no header row") == true)
    }

    @Test func columnsByNameOrPosition() throws {
        var mapping = CSVSamples.simple
        mapping.date = "  DATE "
        mapping.description = ["#2", "Extra"]
        let entry = try #require(try CSVSamples.statement(text: "\u{FEFF}date , text ,AMOUNT,extra\n2024-01-01,a,1,b\n", mapping)).entries[0]
        #expect(entry.description == "a b")
        mapping.description = ["Missing"]
        #expect(CSVSamples.problem("Date,Text,Amount\n", mapping)
            == ImportProblem(line: 1, element: "Missing", "the header has no column \"Missing\"; its columns are \"Date\", \"Text\", \"Amount\""))
        mapping.description = ["#4"]
        #expect(CSVSamples.problem("Date,Text,Amount\n", mapping)?.message == "the mapping names column #4, but the header has 3 columns")
    }

    @Test func delimiterDetectedFromTheHeader() throws {
        #expect(try CSVSamples.statement(text: "Date\tText\tAmount\n2024-01-01\ta,b;c\t-1.5\n")?.entries[0].description == "a,b;c")
        #expect(try CSVSamples.statement(text: "Date;Text;Amount\n2024-01-01;a,b;-1.5\n")?.entries[0].amount == CSVSamples.amount("-1.5"))
        #expect(CSVImportParser.detectDelimiter(Array("\"a;b;c\",d\n;;;".utf8), from: 0) == UInt8(ascii: ",")) // quoted ; and later lines do not count
        #expect(CSVImportParser.detectDelimiter(Array("a;b,c;d".utf8), from: 0) == UInt8(ascii: ";"))
        #expect(CSVImportParser.detectDelimiter(Array("a,b;c".utf8), from: 0) == UInt8(ascii: ","))
        var mapping = CSVSamples.simple
        mapping.delimiter = "|"
        #expect(try CSVSamples.statement(text: "Date|Text|Amount\n2024-01-01|a,b|2\n", mapping)?.entries[0].description == "a,b")
    }

    // MARK: dates

    @Test func dateFormats() {
        func read(_ format: String, _ cell: Substring) -> ImportDate? { CSVDateFormat(format)?.date(cell) }
        #expect(read("DD/MM/YYYY", "31/01/2024") == CSVSamples.date(2024, 1, 31))
        #expect(read("DD/MM/YYYY", "1/2/2024") == CSVSamples.date(2024, 2, 1))
        #expect(read("MM/DD/YYYY", "01/31/2024") == CSVSamples.date(2024, 1, 31))
        #expect(read("YYYY-MM-DD", "2024-01-31 14:05:00") == CSVSamples.date(2024, 1, 31))
        #expect(read("YYYY-MM-DD", "2024-01-31T14:05:00Z") == CSVSamples.date(2024, 1, 31))
        #expect(read("YYYYMMDD", "20240131") == CSVSamples.date(2024, 1, 31))
        #expect(read("D MMM YYYY", "5 jan 2024") == CSVSamples.date(2024, 1, 5))
        #expect(read("D MMM YYYY", "05  SEPTEMBER  2024") == CSVSamples.date(2024, 9, 5))
        #expect(read("DD-MMM-YY", "05-Dec-85") == CSVSamples.date(1985, 12, 5))
        #expect(read("DD.MM.YY", "05.12.24") == CSVSamples.date(2024, 12, 5))
        for (format, cell) in [("DD/MM/YYYY", "31/02/2024"), ("DD/MM/YYYY", "2024-01-31"), ("DD/MM/YYYY", "31/01/24"),
                               ("D MMM YYYY", "5 Foo 2024"), ("D MMM YYYY", "5 Ja 2024"), ("YYYY-MM-DD", "2024-01-31x"),
                               ("YYYY-MM-DD", ""), ("YYYY-MM-DD", "2024-01")] {
            #expect(read(format, Substring(cell)) == nil, "\(format) \(cell)")
        }
        for format in ["DD/MM", "YYYY-MM-DD-DD", "Y-MM-DD", "YYYY-DD", ""] {
            #expect(CSVDateFormat(format) == nil, "\(format)")
        }
    }

    @Test func badDatesAndUnusableFormats() {
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,a,1\n31/01/2024,b,2\n")
            == ImportProblem(line: 3, column: 1, element: "Date", "\"31/01/2024\" is no date of the form YYYY-MM-DD"))
        var mapping = CSVSamples.simple
        mapping.dateFormat = "DD/MM"
        #expect(CSVSamples.problem("Date,Text,Amount\n", mapping)?.element == "dateFormat")
    }

    // MARK: amounts

    @Test func amountForms() {
        func read(_ cell: Substring, decimal: Character = ".", grouping: Character? = ",") -> String? {
            CSVAmount.parse(cell, decimal: decimal, grouping: grouping)?.description
        }
        #expect(read("-12.50") == "-12.50")
        #expect(read(" (12.50) ") == "-12.50")
        #expect(read("£1,234.56") == "1234.56")
        #expect(read("-£3.45") == "-3.45")
        #expect(read("£-3.45") == "-3.45")
        #expect(read("-€5,00", decimal: ",", grouping: ".") == "-5.00")
        #expect(read("1.234,56 €", decimal: ",", grouping: ".") == "1234.56")
        #expect(read("12.50 EUR") == "12.50")
        #expect(read("EUR -12.50") == "-12.50")
        #expect(read("USD12.50") == "12.50")
        #expect(read("12.50-") == "-12.50")
        #expect(read("\u{2212}3.00") == "-3.00")
        #expect(read("+7") == "7")
        #expect(read("$ 1,000") == "1000")
        for bad in ["", "abc", "--12", "-12-", "(-12)", "12.3.4", "£", "EUR", "1e5", "12 34", "€-", "ABCD12"] {
            #expect(read(Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test func badAmountsNameLineAndColumn() {
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,a,12.3.4\n")
            == ImportProblem(line: 2, column: 3, element: "Amount", "\"12.3.4\" is no amount; expected a decimal like -12.50"))
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,a,\n")?.message == "the amount is empty; expected a decimal like -12.50")
    }

    @Test func moneyInAndOutColumns() throws {
        let mapping = CSVMapping(date: "Date", dateFormat: "YYYY-MM-DD", moneyIn: "In", moneyOut: "Out", description: ["Text"],
                                 account: ImportedAccount(currency: "GBP"))
        let text = "Date,Text,In,Out\n2024-01-01,a,5.00,\n2024-01-02,b,,3.00\n2024-01-03,c,,-4.00\n2024-01-04,d,0.00,2.00\n2024-01-05,e,0,0\n"
        let entries = try #require(try CSVSamples.statement(text: text, mapping)).entries
        #expect(entries.map(\.amount.description) == ["5.00", "-3.00", "-4.00", "-2.00", "0"])
        #expect(CSVSamples.problem("Date,Text,In,Out\n2024-01-01,a,5.00,1.00\n", mapping)
            == ImportProblem(line: 2, column: 4, element: "Out", "both \"In\" (5.00) and \"Out\" (1.00) are filled; expected only one of them"))
        #expect(CSVSamples.problem("Date,Text,In,Out\n2024-01-01,a,,\n", mapping)?.message
            == "neither \"In\" nor \"Out\" has an amount; expected one of them filled")
        var both = mapping
        both.amount = "In"
        #expect(CSVSamples.problem("Date,Text,In,Out\n", both)?.element == "amount")
        var half = mapping
        half.moneyOut = nil
        #expect(CSVSamples.problem("Date,Text,In,Out\n", half)?.element == "amount")
    }

    @Test func debitCreditMarkers() throws {
        var mapping = CSVSamples.simple
        mapping.debitCreditColumn = "DC"
        mapping.debitMarkers = ["DR", "Debit"]
        let text = "Date,Text,Amount,DC\n2024-01-01,a,5.00,dr\n2024-01-02,b,-3.00,CR\n2024-01-03,c,2.00, debit \n"
        let entries = try #require(try CSVSamples.statement(text: text, mapping)).entries
        #expect(entries.map(\.amount.description) == ["-5.00", "3.00", "-2.00"])
        #expect(CSVSamples.problem("Date,Text,Amount,DC\n2024-01-01,a,5.00,\n", mapping)?.column == 4)
    }

    // MARK: text fields and status

    @Test func textFieldsStatusAndIds() throws {
        var mapping = CSVSamples.simple
        mapping.description = ["Text", "Memo"]
        mapping.payee = "Payee"
        mapping.reference = "Ref"
        mapping.id = "Id"
        mapping.status = "State"
        mapping.pendingMarkers = ["pending", "Vorgemerkt"]
        let text = "Date,Text,Memo,Payee,Ref,Id,State,Amount\n2024-01-01, Shop ,,  ACME , R1 ,T-9,Booked,-1\n2024-01-02,,,,,,VORGEMERKT,-2\n"
        let entries = try #require(try CSVSamples.statement(text: text, mapping)).entries
        #expect(entries[0] == ImportedEntry(id: "T-9", date: CSVSamples.date(2024, 1, 1), amount: CSVSamples.amount("-1"), description: "Shop",
                                            payee: "ACME", reference: "R1", status: .booked, line: 2))
        #expect(entries[1] == ImportedEntry(date: CSVSamples.date(2024, 1, 2), amount: CSVSamples.amount("-2"), description: "",
                                            status: .pending, line: 3))
        // Without the mapping's say-so, a leading ' stays.
        #expect(try CSVSamples.statement(text: "Date,Text,Amount\n2024-01-01,'=x,1\n")?.entries[0].description == "'=x")
    }

    // MARK: balances

    @Test func balanceContradictionNamesLineStatedAndComputed() {
        let problem = CSVSamples.problem("Date,Text,Amount,Balance\n2024-01-01,a,-10.00,90.00\n2024-01-02,b,-5.00,80.00\n", CSVSamples.withBalance)
        #expect(problem == ImportProblem(line: 3, column: 4, element: "Balance",
                                         "the balance 80.00 does not follow from the balance 90.00 after line 2 and this row's amount -5.00, which make 85.00; expected 85.00"))
        // Newest first: checked in reverse.
        let reversed = CSVSamples.problem("Date,Text,Amount,Balance\n2024-01-02,b,-5.00,84.00\n2024-01-01,a,-10.00,90.00\n", CSVSamples.withBalance)
        #expect(reversed?.line == 2)
        #expect(reversed?.message.contains("which make 85.00") == true)
        #expect(CSVSamples.problem("Date,Text,Amount,Balance\n2024-01-01,a,1,x\n", CSVSamples.withBalance)?.message
            == "\"x\" is no balance; expected a decimal like -12.50")
    }

    @Test func balancesWithGapsSameDayAndPendingRows() throws {
        // A row without a balance carries the computed one on; the opening comes from the first stated one.
        let gaps = try #require(try CSVSamples.statement(text: "Date,Text,Amount,Balance\n2024-01-01,a,-1,\n2024-01-02,b,-2,7\n2024-01-03,c,-3,\n2024-01-04,d,1,5\n",
                                                         CSVSamples.withBalance))
        #expect(gaps.opening == StatedBalance(date: CSVSamples.date(2024, 1, 1), amount: CSVSamples.amount("10"), line: 2))
        #expect(gaps.closing == StatedBalance(date: CSVSamples.date(2024, 1, 4), amount: CSVSamples.amount("5"), line: 5))
        // All on one day, newest first: only the reverse order agrees.
        let sameDay = try #require(try CSVSamples.statement(text: "Date,Text,Amount,Balance\n2024-01-01,b,-2,7\n2024-01-01,a,-1,9\n",
                                                            CSVSamples.withBalance))
        #expect(sameDay.opening?.amount == CSVSamples.amount("10"))
        #expect(sameDay.closing == StatedBalance(date: CSVSamples.date(2024, 1, 1), amount: CSVSamples.amount("7"), line: 2))
        // A pending row is out of the check and of both balances.
        var mapping = CSVSamples.withBalance
        mapping.status = "State"
        let pending = try #require(try CSVSamples.statement(text: "Date,Text,Amount,Balance,State\n2024-01-01,a,-1,9,\n2024-01-02,b,-50,,Pending\n2024-01-02,c,-2,7,\n",
                                                            mapping))
        #expect(pending.entries.count == 3)
        #expect(pending.closing?.amount == CSVSamples.amount("7"))
        #expect(pending.closing?.line == 4)
        // No balance at all: none stated.
        let none = try #require(try CSVSamples.statement(text: "Date,Text,Amount,Balance\n2024-01-01,a,-1,\n", CSVSamples.withBalance))
        #expect(none.opening == nil && none.closing == nil)
    }

    @Test func mappingSettingsAreChecked() {
        var mapping = CSVSamples.simple
        mapping.decimal = ","
        mapping.grouping = ","
        #expect(CSVSamples.problem("Date,Text,Amount\n", mapping)?.element == "decimal")
        mapping = CSVSamples.simple
        mapping.delimiter = "\""
        #expect(CSVSamples.problem("Date,Text,Amount\n", mapping)?.element == "delimiter")
        mapping = CSVSamples.simple
        mapping.skipLines = -1
        #expect(CSVSamples.problem("Date,Text,Amount\n", mapping)?.element == "skipLines")
        mapping = CSVSamples.simple
        mapping.skipLines = 5
        #expect(CSVSamples.problem("a\nb\n", mapping)?.message.hasPrefix("the file has no header row after 5 skipped line(s)") == true)
    }

    @Test func neverCrashesOnOddInput() {
        for text in ["\"", "\"\"\"", ",,,\n,,,", "Date,Text,Amount\n\"", "Date,Text,Amount\n2024-01-01,a,99999999999999999999",
                     "Date,Text,Amount,Balance\n2024-01-01,a,99999999999999999,99999999999999999\n2024-01-02,a,99999999999999999,\n2024-01-03,a,-1,1",
                     "\r\r\r", "Date,Text,Amount\n\u{0}\u{1}", "Date,Text,Amount\n2024-01-01,\"a\"\"", "Date,Text,Amount\n2024-01-01,a,(12"] {
            _ = CSVSamples.problem(text, CSVSamples.withBalance)
            _ = CSVSamples.problem(text)
        }
        #expect(CSVSamples.problem("Date,Text,Amount\n2024-01-01,a,99999999999999999999")?.line == 2)
        let overflow = CSVSamples.problem("Date,Text,Amount,Balance\n2024-01-01,a,99999999999999999,99999999999999999\n2024-01-02,a,99999999999999999,\n2024-01-03,a,99999999999999999,1\n",
                                          CSVSamples.withBalance)
        #expect(overflow != nil)
    }

    @Test func byteDecimalParserAgreesWithTheCore() {
        let texts = ["0", "-0", "+5", "12", "-12.50", ".5", "5.", "1,234.56", "1.234,56", ",5", "1,,2", "12.3.4", "", "-", "+-1", "1-",
                     "99999999999999999", "100000000000000000", "100000000000000001", "0.000000000000000001", "0.0000000000000000001",
                     "1 234", "١٢", "12€", "1'234.5", "--1", "1e5", " 1", "1 "]
        for text in texts {
            for (decimal, grouping) in [(Character("."), Character?.none), (".", ","), (",", "."), (",", " "), (".", "'"), (".", "\u{A0}")] {
                #expect(CSVDecimal.parse(text, decimal: decimal, grouping: grouping) == DecimalAmount(parsing: text, decimal: decimal, grouping: grouping),
                        "\(text) \(decimal) \(String(describing: grouping))")
            }
        }
    }

    @Test func randomTokenSoupNeverCrashes() {
        let tokens = ["Date,Text,Amount,Balance\n", "2024-01-01", "2024-13-01", ",", ";", "\"", "\"\"", "\n", "\r\n", "\r", "-1.50", "(2.00)",
                      "\u{A3}3", "99999999999999999", "x", " ", "\t", "caf\u{E9}", "\u{FEFF}", "'=1"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var read = 0, refused = 0
        for _ in 0..<2_000 {
            var bytes: [UInt8] = Array("Date,Text,Amount,Balance\n".utf8)
            for _ in 0..<Int(seed % 60) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes += Array(tokens[Int((seed >> 33) % UInt64(tokens.count))].utf8)
            }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if (seed >> 40) % 7 == 0 { bytes.append(UInt8(truncatingIfNeeded: seed >> 16)) }
            do {
                _ = try CSVImportParser.parse(bytes, mapping: CSVSamples.withBalance)
                read += 1
            } catch {
                #expect(error.line >= 1)
                refused += 1
            }
            _ = CSVImportParser.recognises(bytes)
        }
        #expect(read + refused == 2_000)
        #expect(read > 0 && refused > 0)
    }

    // MARK: size

    @Test func tenThousandRowsParse() throws {
        var text = "Date,Text,Amount,Balance\r\n"
        var balance = 0
        for index in 0..<10_000 {
            balance += index % 2 == 0 ? 250 : -125
            let amount = index % 2 == 0 ? "2.50" : "-1.25"
            text += "2024-\(index % 12 + 1 < 10 ? "0" : "")\(index % 12 + 1)-01,\"Row \(index), quoted\",\(amount),\(balance / 100).\(balance % 100 < 10 ? "0" : "")\(balance % 100)\r\n"
        }
        var mapping = CSVSamples.withBalance
        mapping.dateFormat = "YYYY-MM-DD"
        // Dates cycle through the months: the first (January) is before the last (April), so file order.
        let statement = try #require(try CSVSamples.statement(text: text, mapping))
        #expect(statement.entries.count == 10_000)
        #expect(statement.entries.last?.line == 10_001)
        #expect(statement.closing?.amount == DecimalAmount(significand: Int64(balance), scale: 2))
    }
}
