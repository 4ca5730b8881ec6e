import Foundation
import Testing
@testable import NestEggImport
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggSupport

/// `imports/`, through the `nestegg` binary and the loader: a folder of bank downloads alone is a
/// whole site; every booked entry of each file is on the statements with its date and signed
/// amount, and the statements' balances are the ones the files state; overlapping downloads are
/// one account; a file that contradicts itself, or is no format NestEgg reads, is refused by name;
/// and NestEgg's own statement CSV and camt.053 read back to the same statements.
@Suite(.serialized) struct ImportsEndToEndTests {
    static let household = repositoryRoot.appendingPathComponent("Tests/Samples/imports/household")

    /// The (date, signed amount, balance) lines of every statement CSV of one account's folder, oldest first.
    static func statementLines(_ folder: URL) throws -> [(date: String, amount: String, balance: String)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") && !$0.hasPrefix("index") }.sorted()
        var lines: [(String, String, String)] = []
        for file in files {
            let statements = try CSVImportParser.parse(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
            for statement in statements {
                var balance = statement.opening?.amount
                for entry in statement.entries {
                    balance = balance.map { DecimalAmount(significand: $0.significand + entry.amount.significand, scale: 2) }
                    lines.append(("\(entry.date)", "\(entry.amount)", balance.map(\.description) ?? ""))
                }
            }
        }
        return lines
    }

    static func copy(_ source: URL) throws -> URL {
        let work = try temporaryFolder()
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: source, to: data)
        return work
    }

    @Test func aFolderOfBankDownloadsAloneBuildsTheWholeSite() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", Self.household.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let start = try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8)
        for section in ["## Statements", "Net worth", "Cash flow", "Spending by category"] {
            #expect(start.contains(section), "the start page has \(section)")
        }
        for name in ["Barclays current", "Girokonto", "Joint current", "Account ending 2257", "Account ending 1111"] {
            #expect(start.contains(name), "the start page lists \(name)")
        }
        // Round-ups are Starling's: no rule asks for them here.
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("roundups").path))
        for page in ["search.html", "payees/index.html", "networth/index.html", "statements/index.html", "transactions/index.html"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(page).path), "\(page)")
        }
        // A bank's download dates its entries without a time of day: its statements have no Time column.
        let statements = try FileManager.default.subpathsOfDirectory(atPath: output.appendingPathComponent("statements").path)
            .filter { $0.hasSuffix(".md") && $0.contains("/20") }
        #expect(!statements.isEmpty)
        for path in statements {
            let page = try String(contentsOf: output.appendingPathComponent("statements/" + path), encoding: .utf8)
            #expect(!page.contains(" Time "), "\(path)")
        }
    }

    @Test func everyBookedEntryIsOnTheStatementsWithTheFilesBalances() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", Self.household.path, "--output", output.path])
        try #require(result.status == 0, "\(result.stderr)")
        // What each file says, read by its parser alone.
        let files: [(slug: String, path: String, read: ([UInt8]) throws -> [ImportedStatement])] = [
            ("girokonto", "ing-de/2026-03.xml", { try CamtParser.parse($0) }),
            ("account-ending-2257", "abnamro/statement.sta", { try MT940Parser.parse($0) }),
            ("account-ending-1111", "amex/activity.ofx", { try OFXParser.parse($0) }),
            ("joint-current", "quicken/joint.qif", { try QIFParser.parse($0, options: QIFOptions(currency: "GBP", accountName: "Joint current", dateOrder: .dayFirst)) }),
        ]
        for (slug, path, read) in files {
            let statements = try read(Array(try Data(contentsOf: Self.household.appendingPathComponent("imports/" + path))))
            let booked = statements.flatMap(\.entries).filter { $0.status == .booked }
            let lines = try Self.statementLines(output.appendingPathComponent("statements/\(slug)"))
            #expect(lines.map { "\($0.date) \($0.amount)" }.sorted() == booked.map { "\($0.date) \(DecimalAmount(significand: $0.amount.minorUnits(minorDigits: 2)!, scale: 2))" }.sorted(),
                    "\(path): every booked entry, once, with its date and signed amount")
            if let closing = statements.compactMap(\.closing).max(by: { $0.date < $1.date }) {
                let last = lines.last { $0.date <= "\(closing.date)" }
                #expect(last?.balance == DecimalAmount(significand: closing.amount.minorUnits(minorDigits: 2)!, scale: 2).description,
                        "\(path): the balance on \(closing.date) is the file's")
            }
        }
    }

    @Test func aFileThatContradictsItselfIsRefusedByName() throws {
        let work = try Self.copy(Self.household)
        defer { try? FileManager.default.removeItem(at: work) }
        let camt = work.appendingPathComponent("data/imports/ing-de/2026-03.xml")
        let text = try String(contentsOf: camt, encoding: .utf8)
        try text.replacingOccurrences(of: "<Amt Ccy=\"EUR\">2831.70</Amt>", with: "<Amt Ccy=\"EUR\">2831.07</Amt>")
            .write(to: camt, atomically: true, encoding: .utf8)
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", work.appendingPathComponent("data").path, "--output", output.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("imports/ing-de/2026-03.xml:"), "\(result.stderr)")
        #expect(result.stderr.contains("2831.07") && result.stderr.contains("2831.70"), "names the stated and the computed balance: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing written")
    }

    @Test func aFileOfNoKnownFormatIsRefusedByNameAndCheckListsEveryBadFile() throws {
        let work = try Self.copy(Self.household)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("Date;Betrag\n01.02.2024;-1,00\n".utf8).write(to: work.appendingPathComponent("data/imports/unknown.csv"))
        try Data("OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240101<TRNAMT>abc<FITID>1</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n".utf8)
            .write(to: work.appendingPathComponent("data/imports/broken.ofx"))
        let result = try NestEggBinary.run(["check", "--data", work.appendingPathComponent("data").path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("imports/unknown.csv") && result.stderr.contains("not a bank export NestEgg reads"), "\(result.stderr)")
        #expect(result.stderr.contains("imports/broken.ofx:"), "\(result.stderr)")
    }

    /// Two overlapping downloads of one account (OFX, by `FITID`), and a QIF (no ids) whose same
    /// payment is twice in one file and once in an overlapping one.
    @Test func overlappingDownloadsAreOneAccountEachPaymentOnce() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let imports = work.appendingPathComponent("imports")
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        func ofx(_ entries: [(String, String, String)], balance: String, asOf: String) -> String {
            "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>GBP"
                + "<BANKACCTFROM><BANKID>200000<ACCTID>55779911<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>"
                + entries.map { "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\($0.1)<TRNAMT>\($0.2)<FITID>\($0.0)<NAME>Shop</STMTTRN>" }.joined()
                + "</BANKTRANLIST><LEDGERBAL><BALAMT>\(balance)<DTASOF>\(asOf)</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
        }
        try ofx([("a1", "20261001", "-10.00"), ("a2", "20261005", "-5.00")], balance: "85.00", asOf: "20261005")
            .write(to: imports.appendingPathComponent("october.ofx"), atomically: true, encoding: .utf8)
        try ofx([("a2", "20261005", "-5.00"), ("a3", "20261010", "-20.00")], balance: "65.00", asOf: "20261010")
            .write(to: imports.appendingPathComponent("later.ofx"), atomically: true, encoding: .utf8)
        let qif = "!Type:Bank\nD10/01/2026\nT-3.00\nPCoffee\n^\nD10/01/2026\nT-3.00\nPCoffee\n^\n"
        try qif.write(to: imports.appendingPathComponent("a.qif"), atomically: true, encoding: .utf8)
        try "!Type:Bank\nD10/01/2026\nT-3.00\nPCoffee\n^\nD10/02/2026\nT-4.00\nPTea\n^\n".write(to: imports.appendingPathComponent("b.qif"), atomically: true, encoding: .utf8)
        try #"{"imports": [{"files": "*.qif", "account": {"name": "Cash book", "currency": "GBP"}, "qif": {"dateOrder": "monthFirst"}}]}"#
            .write(to: work.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: work), log: log)
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(dataset.accounts.count == 2)
        let bank = try #require(dataset.accounts.first { $0.identifiers?.accountIdentifier == "55779911" })
        #expect(bank.feed.map(\.uid).sorted() == ["a1", "a2", "a3"])
        #expect(bank.balance?.cleared == Money(minorUnits: 6500, currency: .gbp))
        let cash = try #require(dataset.accounts.first { $0.account.name == "Cash book" })
        #expect(cash.feed.map(\.signedAmount.minorUnits).sorted() == [-400, -300, -300], "twice in a.qif is twice; once again in b.qif is not a third")
        #expect(Set(cash.sources) == ["imports/a.qif", "imports/b.qif"])
    }

    /// Two downloads of one account whose balances disagree with the entries between them.
    @Test func downloadsThatContradictEachOtherAreRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let imports = work.appendingPathComponent("imports")
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        func ofx(_ id: String, _ date: String, _ amount: String, balance: String) -> String {
            "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP<BANKACCTFROM><BANKID>1<ACCTID>9<ACCTTYPE>CHECKING</BANKACCTFROM>"
                + "<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\(date)<TRNAMT>\(amount)<FITID>\(id)</STMTTRN></BANKTRANLIST>"
                + "<LEDGERBAL><BALAMT>\(balance)<DTASOF>\(date)</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
        }
        try ofx("x1", "20261001", "-10.00", balance: "90.00").write(to: imports.appendingPathComponent("1.ofx"), atomically: true, encoding: .utf8)
        try ofx("x2", "20261002", "-10.00", balance: "70.00").write(to: imports.appendingPathComponent("2.ofx"), atomically: true, encoding: .utf8)
        let log = DiagnosticLog()
        _ = DataLoader.load(try DataFolder(root: work), log: log)
        let error = try #require(log.errors.first)
        #expect(error.file == "imports/1.ofx")
        #expect(error.message.contains("90.00") && error.message.contains("80.00") && error.message.contains("imports/2.ofx"), "\(error.message)")
    }

    /// NestEgg's own statements of the fixtures' "Personal" account, as CSV and as camt.053, in
    /// `imports/` of an empty folder: each gives back the same lines and balances.
    @Test(arguments: ["csv", "camt053.xml"]) func nestEggsOwnStatementsReadBackTheSame(_ suffix: String) throws {
        let original = repositoryRoot.appendingPathComponent("Output/statements/personal")
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let imports = work.appendingPathComponent("data/imports")
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: original.path) where file.hasSuffix("." + suffix) && !file.hasPrefix("index") {
            try FileManager.default.copyItem(at: original.appendingPathComponent(file), to: imports.appendingPathComponent(file))
        }
        try #"{"imports": [{"files": "*", "account": {"name": "Personal"}}]}"#
            .write(to: work.appendingPathComponent("data/nestegg.json"), atomically: true, encoding: .utf8)
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", work.appendingPathComponent("data").path, "--output", output.path])
        try #require(result.status == 0, "\(result.stderr)")
        let before = try Self.statementLines(original)
        let after = try Self.statementLines(output.appendingPathComponent("statements/personal"))
        #expect(after.map { "\($0.date) \($0.amount) \($0.balance)" } == before.map { "\($0.date) \($0.amount) \($0.balance)" })
        #expect(!after.isEmpty)
    }

    /// Shares without a census read every file, bank downloads included, and merge to the site one
    /// machine builds; a census, which holds Starling accounts only, is refused.
    @Test func sharesWithoutACensusMergeToTheSameSiteAndACensusIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = Self.household.path
        let single = work.appendingPathComponent("single")
        try #require(try NestEggBinary.run(["build", "-q", "--data", data, "--output", single.path]).status == 0)
        var parts: [String] = []
        for index in 0..<2 {
            let part = work.appendingPathComponent("part-\(index)").path
            let result = try NestEggBinary.run(["build", "-q", "--data", data, "--output", part, "--shard", "\(index)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            parts.append(part)
        }
        let merged = work.appendingPathComponent("merged")
        let merge = try NestEggBinary.run(["merge", "-q"] + parts + ["--output", merged.path])
        try #require(merge.status == 0, "\(merge.stderr)")
        #expect(snapshot(merged) == snapshot(single))
        let census = try NestEggBinary.run(["census", "-q", "--data", data, "--output", work.appendingPathComponent("0.census").path, "--shard", "0/1"])
        #expect(census.status == 64)
        #expect(census.stderr.contains("imports/") && census.stderr.contains("without a census"), "\(census.stderr)")
    }

    /// Loads a data folder of the given files (path → text).
    static func load(_ files: [String: String]) throws -> (Dataset, DiagnosticLog) {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        for (path, text) in files {
            let url = work.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let log = DiagnosticLog()
        return (DataLoader.load(try DataFolder(root: work), log: log), log)
    }

    static func ofx(bank: String, entries: [(id: String, date: String, amount: String)], balance: String? = nil, asOf: String = "20261010") -> String {
        "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP<BANKACCTFROM><BANKID>\(bank)<ACCTID>12345678<ACCTTYPE>CHECKING</BANKACCTFROM>"
            + "<BANKTRANLIST>" + entries.map { "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\($0.date)<TRNAMT>\($0.amount)<FITID>\($0.id)<NAME>Shop</STMTTRN>" }.joined()
            + "</BANKTRANLIST>" + (balance.map { "<LEDGERBAL><BALAMT>\($0)<DTASOF>\(asOf)</LEDGERBAL>" } ?? "") + "</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    }

    /// A date-only entry is on its own date in every zone a site can be read in (noon UTC is the
    /// next day in Auckland).
    @Test func anEntryKeepsItsDateInAucklandToo() throws {
        let (dataset, log) = try Self.load(["imports/a.ofx": Self.ofx(bank: "1", entries: [("x", "20260731", "-5.00")]),
                                            "nestegg.json": #"{"timeZone": "Pacific/Auckland"}"#])
        #expect(!log.hasErrors, "\(log.errors)")
        let item = try #require(dataset.accounts.first?.feed.first)
        #expect(dataset.settings.clock.date(of: item.transactionTime) == CivilDate(year: 2026, month: 7, day: 31))
    }

    /// A typo's year would make a statement for every month until then: refused with its line.
    @Test func aDateBeyondAYearFromTodayIsRefused() throws {
        let (_, log) = try Self.load(["imports/a.ofx": Self.ofx(bank: "1", entries: [("x", "29260101", "-5.00")])])
        let error = try #require(log.errors.first)
        #expect(error.file == "imports/a.ofx" && error.line != nil && error.message.contains("2926-01-01"), "\(error)")
    }

    /// The same account written two ways (a sort code with and without hyphens), an amount as
    /// `-12.5` and `-12.50`, and a CSV without ids beside an OFX with them: one account, each payment once.
    @Test func oneAccountWrittenTwoWaysAndFilesWithAndWithoutIdsMeet() throws {
        let csv = "Date,Amount,Memo\n05/10/2026,-12.5,Coffee shop\n10/10/2026,-20.00,Books\n"
        let (dataset, log) = try Self.load([
            "imports/bank.ofx": Self.ofx(bank: "203206", entries: [("a", "20261005", "-12.50"), ("b", "20261010", "-20.00")], balance: "67.50"),
            "imports/bank.csv": csv,
            "nestegg.json": #"{"imports": [{"files": "*.csv", "account": {"currency": "GBP", "number": "12345678", "bank": "20-32-06"}, "csv": {"date": "Date", "dateFormat": "DD/MM/YYYY", "amount": "Amount", "description": ["Memo"]}}]}"#,
        ])
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(dataset.accounts.count == 1)
        #expect(dataset.accounts.first?.feed.map(\.signedAmount.minorUnits).sorted() == [-2000, -1250])
        #expect(dataset.accounts.first?.balance?.cleared == Money(minorUnits: 6750, currency: .gbp))
    }

    /// Berlin Group banks send `""` for no id: such entries are not taken for one another.
    @Test func emptyBerlinGroupIdsAreNoIds() throws {
        let (dataset, log) = try Self.load([
            "berlingroup/accounts.json": #"{"accounts": [{"resourceId": "r1", "iban": "DE89370400440532013000", "currency": "EUR"}]}"#,
            "berlingroup/transactions/r1.json": #"{"transactions": {"booked": [{"transactionId": "", "bookingDate": "2026-10-01", "transactionAmount": {"currency": "EUR", "amount": "-5.00"}}, {"transactionId": "", "bookingDate": "2026-10-02", "transactionAmount": {"currency": "EUR", "amount": "-7.00"}}]}}"#,
        ])
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(dataset.accounts.first?.feed.map(\.signedAmount.minorUnits).sorted() == [-700, -500])
    }

    /// An account with round-ups after one of the same name without: its statements link to the
    /// round-up weeks the round-ups report writes (both allocate slugs over every account).
    @Test func roundUpLinksOfStatementsLeadToTheirWeeks() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let qif = "!Type:Bank\nD10/05/2026\nT-3.40\nPCoffee\n^\n"
        for folder in ["a", "b"] {
            let url = work.appendingPathComponent("data/imports/\(folder)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try qif.write(to: url.appendingPathComponent("x.qif"), atomically: true, encoding: .utf8)
        }
        try #"{"imports": [{"files": "a/*", "account": {"name": "Joint", "currency": "GBP"}}, {"files": "b/*", "account": {"name": "joint", "currency": "EUR", "roundUps": true}}]}"#
            .write(to: work.appendingPathComponent("data/nestegg.json"), atomically: true, encoding: .utf8)
        let site = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "-q", "--data", work.appendingPathComponent("data").path, "--output", site.path])
        try #require(result.status == 0, "\(result.stderr)")
        var links = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("statements").path).sorted() {
            let statements = site.appendingPathComponent("statements/\(folder)")
            for file in (try? FileManager.default.contentsOfDirectory(atPath: statements.path)) ?? [] where file.hasSuffix(".md") && file != "index.md" {
                let text = try String(contentsOf: statements.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: /\(\.\.\/\.\.\/(roundups\/[^)]+\.md)\)/) {
                    links += 1
                    #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(String(match.1)).path), "\(folder)/\(file) links \(match.1)")
                }
            }
        }
        #expect(links > 0, "the round-up account's statement links its weeks")
    }
}
