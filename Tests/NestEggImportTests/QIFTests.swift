import Foundation
import Testing
@testable import NestEggImport

/// The QIF samples folder: found by walking up from this file to a folder with `Samples/imports/qif`
/// (the repository's `Tests`), else under `$NESTEGG_SAMPLES` (when this file is compiled from a link).
private enum QIFSamples {
    static func folder() -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("Samples/imports/qif")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let root = ProcessInfo.processInfo.environment["NESTEGG_SAMPLES"] ?? "Tests/Samples"
        return URL(fileURLWithPath: root).appendingPathComponent("imports/qif")
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder().appendingPathComponent(name)))
    }

    static func parse(_ name: String, _ options: QIFOptions = QIFSamples.options) throws -> [ImportedStatement] {
        try QIFParser.parse(bytes(name), options: options)
    }

    static let options = QIFOptions(currency: "USD", accountName: "From settings")

    static func parse(text: String, _ options: QIFOptions = QIFSamples.options) throws(ImportProblem) -> [ImportedStatement] {
        try QIFParser.parse(Array(text.utf8), options: options)
    }

    /// The problem `text` is refused with (nil when it is read).
    static func problem(_ text: String, _ options: QIFOptions = QIFSamples.options) -> ImportProblem? {
        do {
            _ = try parse(text: text, options)
            return nil
        } catch {
            return error
        }
    }

    static func amount(_ text: String) -> DecimalAmount { DecimalAmount(parsing: text)! }
    static func date(_ y: Int, _ m: Int, _ d: Int) -> ImportDate { ImportDate(year: y, month: m, day: d)! }
}

@Suite struct QIFTests {
    // MARK: samples

    @Test func quickenAutoSwitchFileHasOneStatementPerAccount() throws {
        let statements = try QIFSamples.parse("quicken-autoswitch.qif")
        #expect(statements.count == 2)
        let checking = statements[0], card = statements[1]
        #expect(checking.account == ImportedAccount(currency: "USD", name: "Checking", kind: .current))
        #expect(card.account == ImportedAccount(currency: "USD", name: "Visa Card", kind: .creditCard))
        #expect(checking.line == 31)
        #expect(card.line == 84)
        #expect(checking.opening == StatedBalance(date: QIFSamples.date(2023, 12, 31), amount: QIFSamples.amount("1500.00"), line: 32))
        #expect(card.opening == StatedBalance(date: QIFSamples.date(2023, 12, 31), amount: QIFSamples.amount("-820.15"), line: 85))
        #expect(checking.closing == nil)
        #expect(checking.entries.map(\.amount) == ["-45.67", "2750.00", "-120.00", "-300.00", "-500.00"].map(QIFSamples.amount))
        #expect(card.entries.map(\.amount) == ["-64.20", "-19.99", "500.00"].map(QIFSamples.amount))
        #expect(card.entries.map(\.date) == [QIFSamples.date(2024, 1, 3), QIFSamples.date(2024, 1, 13), QIFSamples.date(2024, 1, 28)])
    }

    @Test func quickenEntryFieldsAreKeptAsWritten() throws {
        let checking = try QIFSamples.parse("quicken-autoswitch.qif")[0]
        let lunch = checking.entries[0]
        // Windows-1252 `é`, memo as description, payee, number as reference and kind, no id.
        #expect(lunch == ImportedEntry(id: nil, date: QIFSamples.date(2024, 1, 2), amount: QIFSamples.amount("-45.67"),
                                       description: "Lunch with Ana", payee: "Café Rouge", reference: "1001", kind: "1001",
                                       status: .booked, line: 39))
        let pay = checking.entries[1]
        #expect(pay.description == "ACME Payroll") // no memo: the payee
        #expect(pay.kind == "DEP")
        #expect(pay.amount == DecimalAmount(significand: 275_000, scale: 2)) // "2,750.00" with its grouping comma
        let split = checking.entries[3]
        #expect(split.description == "January bill")
        #expect(split.line == 62)
        #expect(checking.entries[4].reference == "XFER")
    }

    @Test func dayFirstBankExportTakesTheNameFromTheOptions() throws {
        let statements = try QIFSamples.parse("uk-bank-dayfirst.qif", QIFOptions(currency: "GBP", accountName: "Joint current"))
        #expect(statements.count == 1)
        let statement = statements[0]
        #expect(statement.account.name == "Joint current")
        #expect(statement.account.currency == "GBP")
        #expect(statement.opening == nil)
        #expect(statement.entries.map(\.date) == [QIFSamples.date(2024, 1, 2), QIFSamples.date(2024, 1, 15),
                                                  QIFSamples.date(2024, 1, 31), QIFSamples.date(2024, 1, 31)])
        #expect(statement.entries[0].amount == QIFSamples.amount("-1234.56"))
        #expect(statement.entries[0].description == "STANDING ORDER RENT")
        #expect(statement.entries[0].payee == "LANDLORD LETTINGS")
        #expect(statement.entries[3].payee == nil)
        #expect(statement.entries[3].description == "INTEREST")
        #expect(statement.entries[3].line == 18)
    }

    @Test func otherAccountKindsWithClassicMacLineEnds() throws {
        let statements = try QIFSamples.parse("money-other-accounts.qif")
        #expect(statements.map(\.account.name) == ["Petty cash", "House", "Mortgage"])
        #expect(statements.map(\.account.kind) == [.other, .other, .other])
        #expect(statements.map { $0.opening?.amount } == ["200.00", "350000.00", "-240000.00"].map(QIFSamples.amount))
        // 03/31/2024 decides: month first.
        #expect(statements[0].opening?.date == QIFSamples.date(2024, 1, 4))
        #expect(statements[1].entries.map(\.date) == [QIFSamples.date(2024, 3, 31)])
        #expect(statements[2].entries[0].amount == QIFSamples.amount("812.34"))
        #expect(statements[2].entries[0].kind == "EFT")
        #expect(statements[2].entries[0].line == 40)
    }

    @Test func isoDatesAndWholeAmounts() throws {
        let entries = try QIFSamples.parse("iso-dates.qif")[0].entries
        #expect(entries.map(\.date) == [QIFSamples.date(2024, 3, 1), QIFSamples.date(2024, 3, 2)])
        #expect(entries[1].amount == DecimalAmount(significand: 1000, scale: 0))
        #expect(entries[1].description == "Deposit refund")
    }

    @Test func commaDecimalsWithDottedDates() throws {
        let options = QIFOptions(currency: "EUR", accountName: "Girokonto", decimalSeparator: ",")
        let entries = try QIFSamples.parse("european-comma-decimal.qif", options)[0].entries
        #expect(entries.map(\.amount) == ["-1234.56", "3100.00"].map(QIFSamples.amount))
        #expect(entries.map(\.date) == [QIFSamples.date(2024, 1, 5), QIFSamples.date(2024, 1, 15)])
        #expect(entries[0].payee == "Hausverwaltung Müller")
        // Read with the default `.`, `-1.234,56` is no amount.
        #expect(throws: ImportProblem.self) { try QIFSamples.parse("european-comma-decimal.qif") }
    }

    @Test func investmentAccountsAreRefused() throws {
        let bytes = try QIFSamples.bytes("investment.qif")
        #expect(QIFParser.recognises(bytes))
        do {
            _ = try QIFParser.parse(bytes, options: QIFSamples.options)
            Issue.record("an investment account was read")
        } catch {
            #expect(error.line == 5)
            #expect(error.message.hasPrefix("investment accounts are not read"))
        }
    }

    // MARK: recognising

    @Test func recognisesQIFHeadersOnly() throws {
        for name in ["quicken-autoswitch.qif", "uk-bank-dayfirst.qif", "money-other-accounts.qif", "iso-dates.qif",
                     "european-comma-decimal.qif"] {
            #expect(QIFParser.recognises(try QIFSamples.bytes(name)), "\(name)")
        }
        #expect(QIFParser.recognises([0xEF, 0xBB, 0xBF] + Array("\r\n\r\n!type:bank\r\n".utf8)))
        #expect(QIFParser.recognises(Array("!Account\nNChecking\n^\n".utf8)))
        #expect(QIFParser.recognises(Array("!Option:AutoSwitch\n".utf8)))
        for other in ["OFXHEADER:100\nDATA:OFXSGML\n", "<?xml version=\"1.0\"?><Document/>", "{1:F01BANKBEBB}{4:\n:20:X\n-}",
                      ":20:STATEMENT\n:25:NL69INGB0123456789\n", "Date,Description,Amount\n", "{\"transactions\": []}",
                      "!Ty", "", "!Unknown:Bank\n", "D01/02/2024\n", "D01/02/2024,Shop,1\n^\n", "D01/02/2024\n^\nT1\n"] {
            #expect(!QIFParser.recognises(Array(other.utf8)), "\(other)")
        }
    }

    // MARK: dates

    @Test func everyDateFormQuickenAndOthersWrite() {
        func read(_ text: String, dayFirst: Bool = false) -> ImportDate? { QIFWrittenDate(text)?.date(dayFirst: dayFirst) }
        #expect(read("01/31/24") == QIFSamples.date(2024, 1, 31))
        #expect(read("1/31'24") == QIFSamples.date(2024, 1, 31))
        #expect(read("01/31'2024") == QIFSamples.date(2024, 1, 31))
        #expect(read(" 1/ 5' 4") == QIFSamples.date(2004, 1, 5))
        #expect(read(" 1/ 5/98") == QIFSamples.date(1998, 1, 5))
        #expect(read("12/31/79") == QIFSamples.date(2079, 12, 31))
        #expect(read("12/31/80") == QIFSamples.date(1980, 12, 31))
        #expect(read("01/05/2004") == QIFSamples.date(2004, 1, 5))
        #expect(read("01/05/2004", dayFirst: true) == QIFSamples.date(2004, 5, 1))
        #expect(read("31.01.2004", dayFirst: true) == QIFSamples.date(2004, 1, 31))
        #expect(read("2004-01-31", dayFirst: true) == QIFSamples.date(2004, 1, 31))
        #expect(read("01-31-2004") == QIFSamples.date(2004, 1, 31))
        #expect(read("02/30/2024") == nil)
        for bad in ["", "2024/13", "1/2/3/4", "abc", "1/2'", "'1/2/24", "1//2/24", "1 5/98", "123/1/2024", "1/2/123", "1/2/24x", "12345/1/1"] {
            #expect(QIFWrittenDate(bad) == nil, "\(bad)")
        }
    }

    @Test func dateOrderFromTheOptionsOrTheFile() throws {
        let text = "!Type:Bank\nD03/04/2024\nT1\n^\n"
        #expect(try QIFSamples.parse(text: text)[0].entries[0].date == QIFSamples.date(2024, 3, 4)) // neither decides: month first
        let dayFirst = QIFOptions(currency: "GBP", accountName: "A", dateOrder: .dayFirst)
        #expect(try QIFSamples.parse(text: text, dayFirst)[0].entries[0].date == QIFSamples.date(2024, 4, 3))
        let monthFirst = QIFOptions(currency: "GBP", accountName: "A", dateOrder: .monthFirst)
        #expect(try QIFSamples.parse(text: text + "D04/05/2024\nT1\n^\n", monthFirst)[0].entries[1].date == QIFSamples.date(2024, 4, 5))
        // One day-first date decides for the whole file, also for dates before it.
        #expect(try QIFSamples.parse(text: text + "D13/04/2024\nT1\n^\n")[0].entries[0].date == QIFSamples.date(2024, 4, 3))
        // A date read the explicit way that cannot be: an error at its line.
        let problem = QIFSamples.problem("!Type:Bank\nD01/02/2024\nT1\n^\nD13/04/2024\nT1\n^\n", monthFirst)
        #expect(problem?.line == 5)
        #expect(problem?.message == "\"13/04/2024\" is no date on the calendar when read as month, day, year")
    }

    @Test func datesThatDisagreeOnTheirOrderAreAnError() {
        let problem = QIFSamples.problem("!Type:Bank\nD13/01/2024\nT1\n^\nD01/02/2024\nT1\n^\nD01/31/2024\nT1\n^\n")
        #expect(problem?.line == 8)
        #expect(problem?.message.contains("\"13/01/2024\" (line 2) can only be day first") == true)
        #expect(problem?.message.contains("\"01/31/2024\" (line 8) only month first") == true)
    }

    // MARK: fields and records

    @Test func amountsTAndU() throws {
        let both = try QIFSamples.parse(text: "!Type:Bank\nD1/2/24\nT-1,234.5\nU-1234.50\n^\n")[0].entries[0]
        #expect(both.amount == QIFSamples.amount("-1234.5"))
        let onlyU = try QIFSamples.parse(text: "!Type:Bank\nD1/2/24\nU7.25\n^\n")[0].entries[0]
        #expect(onlyU.amount == QIFSamples.amount("7.25"))
        let problem = QIFSamples.problem("!Type:Bank\nD1/2/24\nT-12.50\nU-12.55\n^\n")
        #expect(problem?.line == 4)
        #expect(problem?.element == "U")
        #expect(problem?.message == "the amount U -12.55 differs from T -12.50 (line 3); expected the same amount in both")
    }

    @Test func badAmountsAndDatesNameTheirLine() {
        let amount = QIFSamples.problem("!Type:Bank\nD1/2/24\nT12.3.4\n^\n")
        #expect(amount == ImportProblem(line: 3, element: "T", "\"12.3.4\" is no amount; expected a decimal like -1,234.56"))
        let date = QIFSamples.problem("!Type:Bank\nD\nT1\n^\nDyesterday\nT1\n^\n")
        #expect(date?.line == 2)
        #expect(date?.message.hasPrefix("\"\" is no date; expected a date like") == true)
        let split = QIFSamples.problem("!Type:Bank\nD1/2/24\nT-10\nSA\n$-4\nSB\n$x\n^\n")
        #expect(split?.line == 7)
        #expect(split?.element == "$")
    }

    @Test func recordsWithoutDateOrAmountAreErrors() {
        let noDate = QIFSamples.problem("!Type:Bank\nD1/2/24\nT1\n^\nT-5.00\nPShop\n^\n")
        #expect(noDate == ImportProblem(line: 5, "a record has no D (date) line; expected every transaction to have one"))
        let noAmount = QIFSamples.problem("!Type:Bank\nPShop\nD1/2/24\n^\n")
        #expect(noAmount == ImportProblem(line: 2, "a record has no T (amount) line; expected every transaction to have one"))
        let missingEnd = QIFSamples.problem("!Type:Bank\nD1/2/24\nT1\nD1/3/24\nT2\n^\n")
        #expect(missingEnd?.line == 4)
        #expect(missingEnd?.message == "a record has a second D line (the first is on line 2); expected ^ to end the record before it")
    }

    @Test func splitsMustAddUpToTheAmount() throws {
        let good = "!Type:Bank\nD1/2/24\nT-100.00\nPShop\nSFood\nEbread\n$-60.00\nSHome\n%40\n$-40\n^\n"
        let entries = try QIFSamples.parse(text: good)[0].entries
        #expect(entries.count == 1)
        #expect(entries[0].amount == QIFSamples.amount("-100.00"))
        let wrong = QIFSamples.problem("!Type:Bank\nD1/2/24\nT-100.00\nSFood\n$-60.00\nSHome\n$-30.00\n^\n")
        #expect(wrong == ImportProblem(line: 5, element: "$",
                                       "the split amounts ($ lines) add up to -90.00, but the transaction's amount is -100.00; expected them to be equal"))
        let noAmounts = QIFSamples.problem("!Type:Bank\nD1/2/24\nT-100.00\nSFood\n^\n")
        #expect(noAmounts?.line == 2)
        #expect(noAmounts?.element == "S")
    }

    @Test func openingBalanceOnlyAsTheFirstRecordOfItsOwnAccount() throws {
        // Without an !Account block any bracketed name is the account's own.
        let unnamed = try QIFSamples.parse(text: "!Type:Bank\nD1/1/24\nT10\nPOpening Balance\nL[Whatever]\n^\nD1/2/24\nT5\n^\n")[0]
        #expect(unnamed.opening == StatedBalance(date: QIFSamples.date(2024, 1, 1), amount: QIFSamples.amount("10"), line: 2))
        #expect(unnamed.entries.count == 1)
        // Named: a transfer from another account's opening is an entry.
        let other = try QIFSamples.parse(text: "!Account\nNChecking\n^\n!Type:Bank\nD1/1/24\nT10\nPOpening Balance\nL[Savings]\n^\n")[0]
        #expect(other.opening == nil)
        #expect(other.entries.count == 1)
        // Not first: an entry.
        let later = try QIFSamples.parse(text: "!Type:Bank\nD1/1/24\nT1\n^\nD1/2/24\nT10\nPOpening Balance\nL[Checking]\n^\n")[0]
        #expect(later.opening == nil)
        #expect(later.entries.count == 2)
    }

    @Test func memoAndPayeeLinesRepeatedAreJoined() throws {
        let entry = try QIFSamples.parse(text: "!Type:Bank\nD1/2/24\nT1\nMfirst part\nMsecond part\nP  Shop  \nA1 Road\nCX\nFflag\n^\n")[0].entries[0]
        #expect(entry.description == "first part second part")
        #expect(entry.payee == "Shop")
        #expect(entry.reference == nil)
    }

    @Test func sectionsListsAndHeaders() throws {
        // An empty section is an account with no entries; a last record without ^ still counts.
        let statements = try QIFSamples.parse(text: "!Type:Cat\nNFood\n^\n!Type:Bank\n!Type:Cash\nD1/2/24\nT1")
        #expect(statements.count == 2)
        #expect(statements[0].entries.isEmpty)
        #expect(statements[1].entries.count == 1)
        #expect(try QIFSamples.parse(text: "!Type:Class\nNX\n^\n!Type:Memorized\nT1\n^\n").isEmpty)
        // Several sections after one !Account keep its name.
        let two = try QIFSamples.parse(text: "!Account\nNSavings\nTBank\n^\n!Type:Bank\n!Type:Bank\n")
        #expect(two.map(\.account.name) == ["Savings", "Savings"])
        #expect(two.map(\.account.kind) == [.current, .current])
        #expect(try QIFSamples.parse(text: "!Type:Oth L\n!Type:CCard\n").map(\.account.kind) == [.other, .creditCard])
    }

    @Test func unknownHeadersAndStrayLinesAreErrors() {
        let stray = QIFSamples.problem("T1\nD1/2/24\n^\n")
        #expect(stray == ImportProblem(line: 1, "\"T1\" comes before any section header; expected a header such as !Type:Bank first"))
        let unknownType = QIFSamples.problem("!Type:Bank\n^\n!Type:Stocks\n")
        #expect(unknownType?.line == 3)
        #expect(unknownType?.message.hasPrefix("\"!Type:Stocks\" is no section this reader knows") == true)
        let unknown = QIFSamples.problem("!Type:Bank\n!Something\n")
        #expect(unknown?.line == 2)
        #expect(QIFSamples.problem("!Type:Bank\nD1/2/24\nT1\n^\n", QIFOptions(currency: "EUR", accountName: "A", decimalSeparator: "'")) != nil)
    }

    @Test func neverCrashesOnOddInput() {
        for text in ["", "!", "^", "!Type:", "!Type:Bank\n^^^\n", "!Type:Bank\nD\nT\n^", "!Type:Bank\n\u{0}\u{1}\n", "!Type:Bank\nT99999999999999999999999\nD1/1/24\n^",
                     "!Type:Bank\nD1/1/24\nT1\nS\n$99999999999999999\nS\n$99999999999999999\n$-99999999999999999\n^"] {
            _ = QIFSamples.problem(text)
        }
        #expect(QIFSamples.problem("!Type:Bank\nT99999999999999999999999\nD1/1/24\n^")?.line == 2)
    }

    @Test func byteDecimalParserAgreesWithTheCore() {
        let texts = ["0", "-0", "+5", "12", "-12.50", ".5", "5.", "1,234.56", "1.234,56", ",5", "1,,2", "12.3.4", "", "-", "+-1", "1-",
                     "99999999999999999", "100000000000000000", "100000000000000001", "0.000000000000000001", "0.0000000000000000001",
                     "1 234", "١٢", "12€", "1'234.5", "--1", "1e5", " 1", "1 "]
        for text in texts {
            for (decimal, grouping) in [(Character("."), Character?.none), (".", ","), (",", "."), (",", " "), (".", "'"), (".", "\u{A0}")] {
                #expect(QIFDecimal.parse(text, decimal: decimal, grouping: grouping) == DecimalAmount(parsing: text, decimal: decimal, grouping: grouping),
                        "\(text) \(decimal) \(String(describing: grouping))")
            }
        }
    }

    @Test func randomTokenSoupNeverCrashes() {
        let tokens = ["!Type:Bank\n", "!Type:CCard\n", "!Account\n", "!Type:Cat\n", "!Option:AutoSwitch\n", "^\n", "D1/2'24\n", "D31/12/2024\n",
                      "D12/31/2024\n", "D2024-02-30\n", "T-1,234.56\n", "U-1,234.56\n", "T12.3.4\n", "$-1\n", "SFood\n", "NChecking\n",
                      "POpening Balance\n", "L[Checking]\n", "M\u{E9}t\u{E9}\n", "\r", "\r\n", " ", "\u{0}", "\u{FF}", "!", "D", "T"]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var read = 0, refused = 0
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(seed % 40) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes += Array(tokens[Int((seed >> 33) % UInt64(tokens.count))].utf8)
            }
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if (seed >> 40) % 7 == 0 { bytes.append(UInt8(truncatingIfNeeded: seed >> 16)) }
            do {
                _ = try QIFParser.parse(bytes, options: QIFSamples.options)
                read += 1
            } catch {
                #expect(error.line >= 1)
                refused += 1
            }
        }
        #expect(read + refused == 2_000)
        #expect(read > 0 && refused > 0)
    }

    @Test func manyLinesInOneRecordStayLinear() throws {
        let text = "!Type:Bank\nD1/2/24\nT1\n" + String(repeating: "Mpart\n", count: 50_000) + "^\n"
        let entry = try QIFSamples.parse(text: text)[0].entries[0]
        #expect(entry.description.count == 50_000 * 5 - 1)
    }

    // MARK: size

    @Test func tenThousandEntriesParse() throws {
        var text = "!Account\nNBig\nTBank\n^\n!Type:Bank\n"
        for index in 0..<10_000 {
            text += "D\(index % 12 + 1)/\(index % 28 + 1)'24\nT-\(index).\(index % 100 < 10 ? "0" : "")\(index % 100)\nPPayee \(index)\nMMemo\n^\n"
        }
        let statements = try QIFSamples.parse(text: text)
        #expect(statements.count == 1)
        #expect(statements[0].entries.count == 10_000)
        #expect(statements[0].entries.last?.amount == QIFSamples.amount("-9999.99"))
        #expect(statements[0].entries.last?.line == 5 + 9_999 * 5 + 1)
    }
}

@Suite struct QIFRealWorldShapeTests {
    @Test func amountWithALeadingGroupingSeparator() throws {
        // A French bank writes 100 to 999 as `,300.00` and `-,109.59`.
        let statements = try QIFSamples.parse(text: "!Type:Bank\nD07/05/08\nT,300.00\nPIn\n^\nD07/06/08\nT-,109.59\nPOut\n^\nD07/07/08\nT1,234.50\n^\n")
        #expect(statements.first?.entries.map(\.amount) == [QIFSamples.amount("300.00"), QIFSamples.amount("-109.59"), QIFSamples.amount("1234.50")])
        for bad in [",30.00", ",1,300.00", ",,300.00", ",3000", "-,"] {
            #expect(QIFSamples.problem("!Type:Bank\nD07/05/08\nT\(bad)\n^\n")?.element == "T", "\(bad)")
        }
    }

    @Test func recordsWithoutAHeaderAreOneBankAccount() throws {
        // A French bank's download: no !Type line, CRLF, records separated by blank lines.
        let text = "D06/05/08\r\nT-20.50\r\nMCheque 1\r\n^\r\n\r\nD05/30/08\r\nT45.00\r\nMTransfer in\r\n^\r\n"
        #expect(QIFParser.recognises(Array(text.utf8)))
        let statements = try QIFSamples.parse(text: text)
        #expect(statements.count == 1)
        #expect(statements.first?.account.kind == .current)
        #expect(statements.first?.account.name == "From settings")
        #expect(statements.first?.entries.map(\.date) == [QIFSamples.date(2008, 6, 5), QIFSamples.date(2008, 5, 30)])
        #expect(statements.first?.entries.map(\.amount) == [QIFSamples.amount("-20.50"), QIFSamples.amount("45.00")])
    }
}
