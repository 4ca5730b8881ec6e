import Foundation
import Testing
@testable import NestEggImport
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggSupport

/// `berlingroup/` and `simplefin/` (``OpenBankingLoader``), read from the samples of
/// Tests/Samples/berlingroup and Tests/Samples/simplefin laid out as a data folder: every account
/// with its name, currency and IBAN or number; booked entries settled and pending ones pending,
/// with their signed amounts and days; each balance the stated closing one plus the entries booked
/// after it; an account's pages one download; and every mistake in an answer at its file, line and
/// JSON path.
@Suite struct OpenBankingLoaderTests {
    static let giro = "9c7e4b1a-53d2-4f8e-a6b0-2d91c3e57f08"
    static let savings = "e1a05f6c-8b3d-47a2-9f14-6c2b8d0e3a71"
    static let card = "5b2f8d93-0c6e-4a17-b4d5-81e7a9c2f640"
    static let simpleFIN = "simplefin/accounts-2026-11-05.json"

    /// A temporary data folder holding copies of the samples' `sources` folders.
    static func dataFolder(_ sources: [String] = ["berlingroup", "simplefin"]) throws -> URL {
        let work = try temporaryFolder()
        for source in sources {
            try FileManager.default.copyItem(at: samplesRoot.appendingPathComponent(source), to: work.appendingPathComponent(source))
        }
        return work
    }

    static func load(_ root: URL) throws -> (Dataset, DiagnosticLog) {
        let log = DiagnosticLog()
        return (DataLoader.load(try DataFolder(root: root), log: log), log)
    }

    /// Replaces `old` (which must be there, once) by `new` in the data folder's file `path`.
    static func edit(_ root: URL, _ path: String, replacing old: String, with new: String) throws {
        let url = root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        try #require(text.components(separatedBy: old).count == 2, "\(path) holds \(old) once")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The 1-based line of the first line of `path` (in the data folder) that contains `needle`.
    static func line(of needle: String, in root: URL, _ path: String) throws -> Int {
        let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(needle) }) + 1
    }

    /// `2026-10-05 -320`: an item's day (noon UTC for a date-only entry) and signed minor units.
    static func entries(_ account: AccountData, _ status: FeedStatus) -> [String] {
        account.feed.filter { $0.status == status }.map { item in
            "\(CivilDate(daysSinceEpoch: Int(item.transactionTime.millisecondsSinceEpoch / 86_400_000))) \(item.signedAmount.minorUnits)"
        }.sorted()
    }

    static func account(_ dataset: Dataset, iban: String) throws -> AccountData {
        try #require(dataset.accounts.first { $0.identifiers?.iban == iban }, "an account with IBAN \(iban)")
    }

    static func account(_ dataset: Dataset, number: String) throws -> AccountData {
        try #require(dataset.accounts.first { $0.identifiers?.accountIdentifier == number }, "an account numbered \(number)")
    }

    // MARK: The samples

    @Test func theSamplesLoadWithOnlyTheBridgesOwnMessage() throws {
        let root = try Self.dataFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, log) = try Self.load(root)
        #expect(log.errors.isEmpty, "\(log.errors)")
        // Every file is read (none "not part of the input contract"); the one warning is SimpleFIN's `errors`.
        let warning = try #require(log.warnings.count == 1 ? log.warnings.first : nil, "\(log.warnings)")
        #expect(warning.file == Self.simpleFIN && warning.path == "$.errors[0]" && warning.line == 3, "\(warning)")
        #expect(warning.message.contains("Northpoint Investing may need attention"), "\(warning.message)")
        #expect(dataset.accounts.count == 5)
        #expect(dataset.accounts.allSatisfy { $0.origin == .imported })
    }

    @Test func berlinGroupAccountsHaveTheirNamesCurrenciesAndIBANs() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(dataset.accounts.count == 3)

        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        #expect(giro.account.name == "Haushaltskonto")
        #expect(giro.account.currency == .eur)
        #expect(giro.account.type == "CURRENT")
        #expect(giro.identifiers?.bankIdentifier == "BSPLDEFFXXX")
        #expect(giro.holderName == "Lena Beispiel")

        let savings = try Self.account(dataset, iban: "DE03500999010481736213")
        #expect(savings.account.name == "Notgroschen", "displayName before name")
        #expect(savings.account.currency == .eur)
        #expect(savings.account.type == "SAVINGS")

        let card = try Self.account(dataset, number: "493812******7311")
        #expect(card.identifiers?.iban == nil)
        #expect(card.account.name == "Visa Classic")
        #expect(card.account.currency == .eur)
        #expect(card.account.type == "CREDIT_CARD")
    }

    @Test func simpleFINAccountsHaveTheirNamesCurrenciesAndBanks() throws {
        let root = try Self.dataFolder(["simplefin"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(dataset.accounts.map(\.account.name) == ["Everyday Checking", "Brokerage Cash"])
        let checking = try Self.account(dataset, number: "ACT-3b1f9c2e-8d47-4a6b-9e0f-2c5d7a1b4e93")
        #expect(checking.account.currency == .usd)
        #expect(checking.identifiers?.bankIdentifier == "lakeside-cu.example", "the org's domain")
        #expect(checking.identifiers?.iban == nil)
        let brokerage = try Self.account(dataset, number: "ACT-91e0d4a7-2c6f-4b83-a5e9-0f7c3d1b8e24")
        #expect(brokerage.identifiers?.bankIdentifier == "northpoint-invest.example")
        #expect(brokerage.account.currency == .usd)
    }

    // MARK: Entries and balances

    @Test func berlinGroupBookedEntriesAreSettledAndPendingOnesPending() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, _) = try Self.load(root)
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        #expect(Self.entries(giro, .settled) == ["2026-10-01 245000", "2026-10-02 -85000", "2026-10-05 -320", "2026-10-05 -320",
                                                 "2026-10-14 -6437", "2026-10-28 -12000", "2026-11-03 -4215"])
        #expect(Self.entries(giro, .pending) == ["2026-11-04 -1890", "2026-11-05 1500"], "pending entries dated by their valueDate")
        let salary = try #require(giro.feed.first { $0.uid == "BK-20261001-118822" })
        #expect(salary.direction == .in && salary.counterPartyName == "Muster Werkzeugbau GmbH", "money in is from the debtor")
        let power = try #require(giro.feed.first { $0.uid == "BK-20261014-120311" })
        #expect(power.direction == .out && power.counterPartyName == "Stadtwerke Beispielstadt", "money out is to the creditor")
        #expect(power.reference == "Abschlag Strom Vertragskonto 4471 0093 Oktober 2026", "the remittance array's lines, joined")

        let savings = try Self.account(dataset, iban: "DE03500999010481736213")
        #expect(Self.entries(savings, .settled) == ["2026-10-28 12000", "2026-10-31 187", "2026-11-02 5000"])
        #expect(Self.entries(savings, .pending).isEmpty)
        #expect(Set(savings.feed.map(\.uid)) == ["2026103100001", "2026102800318", "2026110200542"], "entryReference is the id")
        let interest = try #require(savings.feed.first { $0.uid == "2026103100001" })
        #expect(interest.counterPartyName == "Zinsgutschrift 10/2026", "no name: the additionalInformation")

        let card = try Self.account(dataset, number: "493812******7311")
        #expect(Self.entries(card, .settled) == ["2026-10-22 -8990", "2026-11-01 -12468", "2026-11-04 -999"])
        #expect(Self.entries(card, .pending) == ["2026-11-05 -3150"])
    }

    @Test func simpleFINPostedEntriesAreSettledAndAPendingOneIsDatedWhenItWasMade() throws {
        let root = try Self.dataFolder(["simplefin"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, _) = try Self.load(root)
        let checking = try Self.account(dataset, number: "ACT-3b1f9c2e-8d47-4a6b-9e0f-2c5d7a1b4e93")
        #expect(Self.entries(checking, .settled) == ["2026-10-30 -5421", "2026-11-01 221000", "2026-11-02 -145000", "2026-11-04 -2375"],
                "dated by posted (not transacted_at)")
        #expect(Self.entries(checking, .pending) == ["2026-11-05 -840"], "posted 0: dated by transacted_at")
        let rent = try #require(checking.feed.first { $0.uid == "TRN-c27f8a15-9b3e-4d60-a1f4-5d8e0b2c7f19" })
        #expect(rent.counterPartyName == "Maple Court Apartments" && rent.direction == .out)
        let brokerage = try Self.account(dataset, number: "ACT-91e0d4a7-2c6f-4b83-a5e9-0f7c3d1b8e24")
        #expect(Self.entries(brokerage, .settled) == ["2026-10-15 1234"], "the holdings are no entries")
        #expect(brokerage.feed.first?.counterPartyName == "DIVIDEND TOTAL MARKET INDEX FUND", "an empty payee: the description")
    }

    /// The stated closing balance (the sample's own, read here from its file) plus the entries
    /// booked after its day; the pending ones on top make the effective balance.
    @Test func theBalanceIsTheStatedClosingOnePlusTheEntriesBookedAfterIt() throws {
        let root = try Self.dataFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, _) = try Self.load(root)
        func json(_ path: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(path))) as? [String: Any])
        }
        func cents(_ amount: Any?) throws -> Int64 {
            let text = try #require((amount as? [String: Any])?["amount"] as? String)
            return try #require(Int64(text.replacingOccurrences(of: ".", with: "")))
        }
        let balances = try #require(try json("berlingroup/balances/\(Self.giro).json")["balances"] as? [[String: Any]])
        let closing = try #require(balances.first { $0["balanceType"] as? String == "closingBooked" })
        let day = try #require(closing["referenceDate"] as? String)
        var later: Int64 = 0
        var pending: Int64 = 0
        for page in ["1", "2"] {
            let transactions = try #require(try json("berlingroup/transactions/\(Self.giro)/\(page).json")["transactions"] as? [String: Any])
            for entry in transactions["booked"] as? [[String: Any]] ?? [] {
                if try #require(entry["bookingDate"] as? String) > day { later += try cents(entry["transactionAmount"]) }
            }
            for entry in transactions["pending"] as? [[String: Any]] ?? [] { pending += try cents(entry["transactionAmount"]) }
        }
        #expect(later == -4215 && pending == -390, "the sample has an entry booked after the closing balance, and pending ones")
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        let stated = try cents(closing["balanceAmount"])
        #expect(giro.balance?.cleared == Money(minorUnits: stated + later, currency: .eur))
        #expect(giro.balance?.cleared == Money(minorUnits: 214_241, currency: .eur))
        #expect(giro.balance?.effective == Money(minorUnits: 213_851, currency: .eur), "the answer's own `expected` balance")

        // closingBooked on 31 October (in the transactions answer) and 50.00 booked on 2 November.
        let savings = try Self.account(dataset, iban: "DE03500999010481736213")
        #expect(savings.balance?.cleared == Money(minorUnits: 512_187 + 5_000, currency: .eur))
        // closingBooked by lastChangeDateTime (3 November) and 9.99 booked on 4 November; 31.50 pending.
        let card = try Self.account(dataset, number: "493812******7311")
        #expect(card.balance?.cleared == Money(minorUnits: -21_458 - 999, currency: .eur))
        #expect(card.balance?.effective == Money(minorUnits: -21_458 - 999 - 3_150, currency: .eur))
        // balance-date 3 November; 23.75 posted on 4 November; 8.40 pending.
        let checking = try Self.account(dataset, number: "ACT-3b1f9c2e-8d47-4a6b-9e0f-2c5d7a1b4e93")
        #expect(checking.balance?.cleared == Money(minorUnits: 152_307 - 2_375, currency: .usd))
        #expect(checking.balance?.effective == Money(minorUnits: 152_307 - 2_375 - 840, currency: .usd))
        let brokerage = try Self.account(dataset, number: "ACT-91e0d4a7-2c6f-4b83-a5e9-0f7c3d1b8e24")
        #expect(brokerage.balance?.cleared == Money(minorUnits: 804_000, currency: .usd))
    }

    // MARK: Pages

    /// The two pages of the current account are one download: the card payment with no id that is
    /// on both (bought twice that day) is two payments, and each named entry is there once.
    @Test func anAccountsPagesAreOneDownload() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let (dataset, _) = try Self.load(root)
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        let settled = giro.feed.filter { $0.status == .settled }
        #expect(settled.count == 3 + 4, "page 1's three booked entries and page 2's four")
        #expect(settled.filter { $0.signedAmount.minorUnits == -320 }.count == 2, "the same payment on both pages, without an id, twice")
        #expect(Set(settled.map(\.uid)).count == settled.count)
        #expect(Set(settled.map(\.uid).filter { $0.hasPrefix("BK-") })
                == ["BK-20261001-118822", "BK-20261002-118907", "BK-20261014-120311", "BK-20261028-121540", "BK-20261103-122006"])
        #expect(giro.feed.filter { $0.status == .pending }.count == 2)
    }

    /// A third page that repeats an entry of the second (pages that overlap): the entry is there once.
    @Test func anEntryOnTwoOverlappingPagesIsOneEntry() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let third = """
            {"transactions": {"booked": [
              {"transactionId": "BK-20261103-122006", "bookingDate": "2026-11-03", "transactionAmount": {"currency": "EUR", "amount": "-42.15"},
               "creditorName": "Drogerie Sonnenschein"},
              {"transactionId": "BK-20261104-122101", "bookingDate": "2026-11-04", "transactionAmount": {"currency": "EUR", "amount": "-7.00"},
               "creditorName": "Parkhaus Mitte"}
            ], "_links": {"account": {"href": "/v1/accounts/\(Self.giro)"}}}}
            """
        try write(third, to: root.appendingPathComponent("berlingroup/transactions/\(Self.giro)/3.json"))
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        #expect(Self.entries(giro, .settled).filter { $0.hasPrefix("2026-11") } == ["2026-11-03 -4215", "2026-11-04 -700"])
        #expect(giro.feed.filter { $0.status == .settled }.count == 8)
        #expect(giro.balance?.cleared == Money(minorUnits: 218_456 - 4_215 - 700, currency: .eur))
    }

    // MARK: What an answer may hold

    /// A balances answer with `openingBooked` as well as `closingBooked`, and entries booked after
    /// the closing day: the balances are the bank's at the time of asking, not a statement around
    /// the entries, so the answer does not contradict itself.
    @Test func anOpeningBalanceBesideAClosingOneIsNoStatementToCheck() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.edit(root, "berlingroup/balances/\(Self.giro).json", replacing: "  \"balances\": [\n", with: """
              "balances": [
                {"balanceType": "openingBooked", "balanceAmount": {"currency": "EUR", "amount": "775.33"}, "referenceDate": "2026-10-01"},

            """)
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        #expect(giro.balance?.cleared == Money(minorUnits: 214_241, currency: .eur))
    }

    /// An opening balance alone: the entries from its day on are added to it.
    @Test func anOpeningBalanceAloneIsCountedFrom() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.edit(root, "berlingroup/balances/\(Self.giro).json", replacing: "\"closingBooked\"", with: "\"openingBooked\"")
        try Self.edit(root, "berlingroup/balances/\(Self.giro).json", replacing: "\"amount\": \"2184.56\"", with: "\"amount\": \"775.33\"")
        try Self.edit(root, "berlingroup/balances/\(Self.giro).json", replacing: "\"referenceDate\": \"2026-10-31\"", with: "\"referenceDate\": \"2026-10-01\"")
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        #expect(giro.balance?.cleared == Money(minorUnits: 214_241, currency: .eur))
    }

    /// `remittanceInformationStructured` as the v1.3 schema has it, an object with a `reference`.
    @Test func aStructuredRemittanceObjectIsItsReference() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.edit(root, "berlingroup/transactions/\(Self.giro)/1.json",
                      replacing: "\"remittanceInformationUnstructured\": \"Miete Oktober Whg 3 links\"",
                      with: "\"remittanceInformationStructured\": {\"reference\": \"RF71LINDENHOF3L\", \"referenceType\": \"SCOR\"}")
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        let rent = try #require(try Self.account(dataset, iban: "DE25500999010481736205").feed.first { $0.uid == "BK-20261002-118907" })
        #expect(rent.reference == "RF71LINDENHOF3L")
    }

    // MARK: Mistakes, each at its file, line and JSON path

    @Test func anAmountThatIsNoDecimalIsAnErrorAtIt() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let page = "berlingroup/transactions/\(Self.giro)/1.json"
        try Self.edit(root, page, replacing: "\"amount\": \"-850.00\"", with: "\"amount\": \"-850,00\"")
        let (dataset, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == page)
        let expectedLine = try Self.line(of: "\"-850,00\"", in: root, page)
        #expect(error.line == expectedLine)
        #expect(error.path == "$.transactions.booked[1].transactionAmount.amount")
        #expect(error.message.contains("-850,00"), "\(error.message)")
        let giro = try Self.account(dataset, iban: "DE25500999010481736205")
        #expect(!Self.entries(giro, .settled).contains("2026-10-02 -85000"))
    }

    /// An amount with more decimals than the currency has, on the second page: the error names that
    /// page (not the balances file the account's download is named by).
    @Test func anAmountWithTooManyDecimalsIsAnErrorOnItsOwnPage() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let page = "berlingroup/transactions/\(Self.giro)/2.json"
        try Self.edit(root, page, replacing: "\"amount\": \"-64.37\"", with: "\"amount\": \"-64.375\"")
        let (_, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == page)
        let expectedLine = try Self.line(of: "\"-64.375\"", in: root, page)
        #expect(error.line == expectedLine)
        #expect(error.path == "$.transactions.booked[1].transactionAmount.amount")
        #expect(error.message.contains("-64.375") && error.message.contains("EUR"), "\(error.message)")
    }

    @Test func aTransactionAmountInAnotherCurrencyIsAnError() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = "berlingroup/transactions/\(Self.card).json"
        try Self.edit(root, file, replacing: "\"currency\": \"EUR\",\n          \"amount\": \"-124.68\"",
                      with: "\"currency\": \"USD\",\n          \"amount\": \"-124.68\"")
        let (dataset, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == file)
        // The transactionAmount object of the second booked entry, which opens on the line before its currency.
        let expectedLine = try Self.line(of: "\"USD\"", in: root, file) - 1
        #expect(error.line == expectedLine)
        #expect(error.path == "$.transactions.booked[1].transactionAmount")
        #expect(error.message.contains("USD") && error.message.contains("EUR"), "\(error.message)")
        let card = try Self.account(dataset, number: "493812******7311")
        #expect(Self.entries(card, .settled) == ["2026-10-22 -8990", "2026-11-04 -999"])
    }

    @Test func aBookedEntryWithoutABookingDateIsAnError() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = "berlingroup/transactions/\(Self.savings).json"
        try Self.edit(root, file, replacing: "        \"bookingDate\": \"2026-11-02\",\n", with: "")
        let (_, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == file)
        // At the entry, which opens on the line before its entryReference.
        let expectedLine = try Self.line(of: "\"2026110200542\"", in: root, file) - 1
        #expect(error.line == expectedLine)
        #expect(error.path == "$.transactions.booked[2].bookingDate")
        #expect(error.message.contains("missing required field \"bookingDate\""), "\(error.message)")
    }

    @Test func aCustomSimpleFINCurrencyIsAnError() throws {
        let root = try Self.dataFolder(["simplefin"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.edit(root, Self.simpleFIN, replacing: "\"currency\": \"USD\",\n      \"balance\": \"8040.00\"",
                      with: "\"currency\": \"https://www.example.com/flight-miles\",\n      \"balance\": \"8040.00\"")
        let (dataset, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == Self.simpleFIN)
        let expectedLine = try Self.line(of: "flight-miles", in: root, Self.simpleFIN)
        #expect(error.line == expectedLine)
        #expect(error.path == "$.accounts[1].currency")
        #expect(error.message.contains("https://www.example.com/flight-miles") && error.message.contains("custom currencies"), "\(error.message)")
        #expect(dataset.accounts.map(\.account.name) == ["Everyday Checking"])
    }

    /// `posted` 0 on a transaction that is not pending, with no `transacted_at`: an error, never an
    /// entry on 1 January 1970 (which would give the account statements from 1970 on).
    @Test func aPostedTransactionWithoutATimeIsAnErrorNotNineteenSeventy() throws {
        let root = try Self.dataFolder(["simplefin"])
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.edit(root, Self.simpleFIN, replacing: "\"posted\": 1793793600", with: "\"posted\": 0")
        let (dataset, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == Self.simpleFIN)
        let expectedLine = try Self.line(of: "\"TRN-0d6b3e48", in: root, Self.simpleFIN) - 1
        #expect(error.line == expectedLine)
        #expect(error.path == "$.accounts[0].transactions[3]")
        #expect(error.message.contains("posted"), "\(error.message)")
        let checking = try Self.account(dataset, number: "ACT-3b1f9c2e-8d47-4a6b-9e0f-2c5d7a1b4e93")
        #expect(!Self.entries(checking, .settled).contains { $0.hasPrefix("1970") })
        #expect(Self.entries(checking, .settled).count == 3)
    }

    @Test func aBalancesFileOfAnUnknownAccountIsAWarning() throws {
        let root = try Self.dataFolder(["berlingroup"])
        defer { try? FileManager.default.removeItem(at: root) }
        let stray = "berlingroup/balances/0d1e2f30-aaaa-4bbb-8ccc-ddddeeeeffff.json"
        try write(#"{"balances": [{"balanceType": "closingBooked", "balanceAmount": {"currency": "EUR", "amount": "1.00"}, "referenceDate": "2026-10-31"}]}"#,
                  to: root.appendingPathComponent(stray))
        let (dataset, log) = try Self.load(root)
        #expect(!log.hasErrors, "\(log.errors)")
        let warning = try #require(log.warnings.count == 1 ? log.warnings.first : nil, "\(log.warnings)")
        #expect(warning.file == stray)
        #expect(warning.message.contains("no account \"0d1e2f30-aaaa-4bbb-8ccc-ddddeeeeffff\""), "\(warning.message)")
        #expect(dataset.accounts.count == 3)
    }

    @Test func aMissingAccountsListIsAnError() throws {
        let root = try Self.dataFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("berlingroup/accounts.json"))
        let (dataset, log) = try Self.load(root)
        let error = try #require(log.errors.count == 1 ? log.errors.first : nil, "\(log.errors)")
        #expect(error.file == "berlingroup/accounts.json")
        #expect(error.message.contains("missing") && error.message.contains("GET /v1/accounts"), "\(error.message)")
        #expect(dataset.accounts.map(\.account.name) == ["Everyday Checking", "Brokerage Cash"], "SimpleFIN's accounts are read still")
    }

    // MARK: Through the binary

    @Test func aFolderOfSimpleFINAnswersAloneBuildsASite() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: samplesRoot.appendingPathComponent("simplefin"), to: data.appendingPathComponent("simplefin"))
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the SimpleFIN Bridge said"), "the bridge's message is shown: \(result.stderr)")
        let start = try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8)
        for name in ["Everyday Checking", "Brokerage Cash"] {
            #expect(start.contains(name), "the start page lists \(name)")
        }
    }
}
