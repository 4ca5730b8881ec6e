import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct TransactionsLoaderTests {
    func load(_ json: String, currency: Currency = .gbp) -> ([Transaction], DiagnosticLog) {
        let (doc, log) = document(json, file: "transactions/transactions.json")
        guard let doc else { return ([], log) }
        return (TransactionsLoader.transactions(in: doc, currency: currency), log)
    }

    @Test func readsTheAppsModelWithDefaults() throws {
        let (list, log) = load("""
        [
          {"id": 1, "name": "Broken Sword", "category": "entertainment", "amount": 12.50,
           "date": "2026-11-16T08:30:00Z", "accountName": "Visa Gold", "provider": "Amazon"},
          {"id": "t-2", "name": "Croissant", "category": "food", "amount": "3.2", "currency": "EUR",
           "date": "2026-11-17", "accountName": "Travel card", "pinned": false, "someFieldWeIgnore": [1, 2]}
        ]
        """)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(list.count == 2)
        let first = try #require(list.first)
        #expect(first.id == "1")
        #expect(first.amount == gbp(1250))
        #expect(first.date == .instant(Instant(iso8601: "2026-11-16T08:30:00Z")!))
        #expect(first.provider == "Amazon")
        #expect(first.pinned, "pinned defaults to true")
        let second = list[1]
        #expect(second.id == "t-2")
        #expect(second.amount == Money(minorUnits: 320, currency: .eur))
        #expect(second.date == .day(CivilDate(year: 2026, month: 11, day: 17)!))
        #expect(second.provider == nil)
        #expect(!second.pinned)
    }

    @Test func theDefaultCurrencyComesFromTheSettings() {
        let (list, _) = load(#"[{"id": 1, "name": "x", "category": "food", "amount": 5, "date": "2026-01-01", "accountName": "A"}]"#,
                             currency: .usd)
        #expect(list.first?.amount == Money(minorUnits: 500, currency: .usd))
    }

    @Test func aPlainDateIsThatDateOnTheSiteClockAndADateTimeIsConverted() {
        let clock = LocalClock(identifier: "Europe/London")!
        #expect(Transaction.When.day(CivilDate(year: 2026, month: 6, day: 30)!).date(on: clock) == CivilDate(year: 2026, month: 6, day: 30))
        // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
        #expect(Transaction.When.instant(Instant(iso8601: "2026-06-30T23:30:00Z")!).date(on: clock) == CivilDate(year: 2026, month: 7, day: 1))
    }

    @Test func aBadValueIsReportedWithFileLineAndPathAndTheRestIsRead() {
        let (list, log) = load("""
        [
          {"id": 1, "name": "a", "category": "food", "amount": "twelve", "date": "2026-11-16", "accountName": "A"},
          {"id": 2, "name": "b", "category": "food", "amount": 1.234, "date": "2026-11-16", "accountName": "A"},
          {"id": 3, "name": "c", "category": "food", "amount": 1, "date": "16/11/2026", "accountName": "A"},
          {"id": 4, "name": "d", "category": "", "amount": 1, "date": "2026-11-16", "accountName": "A", "pinned": "yes"},
          {"id": 5, "name": "e", "amount": 1, "date": "2026-11-16", "accountName": "A", "currency": "pounds"},
          {"id": 6, "name": "f", "category": "food", "amount": 2, "date": "2026-11-16T10:00:00+01:00", "accountName": "A"}
        ]
        """)
        let messages = log.diagnostics.map(\.description)
        #expect(list.map(\.id) == ["6"])
        #expect(messages.contains(
            "transactions/transactions.json:2:56: error: amount twelve expected a decimal amount such as 12.50 (GBP) (at $[0].amount)"),
            "\(messages)")
        #expect(messages.contains { $0.hasPrefix("transactions/transactions.json:3:") && $0.contains("has more decimal places") && $0.contains("$[1].amount") })
        #expect(messages.contains { $0.hasPrefix("transactions/transactions.json:4:") && $0.contains("found \"16/11/2026\"") && $0.contains("$[2].date") })
        #expect(messages.contains { $0.contains("expected a category such as \"food\", found an empty string") && $0.contains("$[3].category") })
        #expect(messages.contains { $0.contains("expected true or false") && $0.contains("$[3].pinned") })
        #expect(messages.contains { $0.contains("missing required field \"category\"") && $0.hasPrefix("transactions/transactions.json:6:") })
        #expect(messages.contains { $0.contains("expected an ISO 4217 currency code") && $0.contains("$[4].currency") })
        #expect(log.diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func aRepeatedIdIsAWarningAndCountsOnce() {
        let (list, log) = load("""
        [{"id": 7, "name": "a", "category": "food", "amount": 1, "date": "2026-11-16", "accountName": "A"},
         {"id": "7", "name": "b", "category": "food", "amount": 2, "date": "2026-11-16", "accountName": "A"}]
        """)
        #expect(list.map(\.name) == ["a"])
        #expect(log.diagnostics.count == 1)
        #expect(log.diagnostics.first?.severity == .warning)
        #expect(log.diagnostics.first?.message.contains("duplicate transaction id \"7\"") == true)
    }

    @Test func theFileMustBeAnArray() {
        let (list, log) = load(#"{"transactions": []}"#)
        #expect(list.isEmpty)
        #expect(log.diagnostics.first?.message == "expected an array, found an object")
    }

    @Test func aTransactionsFolderWithoutTheFileIsAnError() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write("[]", to: work.appendingPathComponent("transactions/other.json"))
        let log = DiagnosticLog()
        _ = TransactionsLoader.load(from: try DataFolder(root: work), settings: Settings(), log: log)
        #expect(log.diagnostics.contains { $0.file == "transactions/transactions.json" && $0.severity == .error })
    }

    /// Tests/Samples/transactions: the transactions app's model as documented (no saved response of
    /// this app was found to mirror): an optional currency, a date-time with an offset or a bare date,
    /// an id as a number or a string, `pinned` absent, true or false, `provider` absent or null.
    @Test func readsTheSample() throws {
        let (doc, log) = try sample("transactions/transactions.json")
        let list = TransactionsLoader.transactions(in: doc, currency: .gbp)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(list.map(\.id) == ["1", "2", "3", "4"])
        #expect(list.map(\.amount) == [gbp(1840), Money(minorUnits: 12_990, currency: .eur), gbp(1100), gbp(625)])
        #expect(list[1].date == .instant(Instant(iso8601: "2024-09-12T17:40:00Z")!))
        #expect(list[2].date == .day(CivilDate(year: 2024, month: 9, day: 14)!))
        #expect(list.map(\.pinned) == [true, true, false, true])
        #expect(list.map(\.provider) == ["Hillside Market", "ÖBB", nil, nil])
        #expect(list[0].name == "Farmers' market")
    }

    /// The fixture must load cleanly and hold what the issue asks for.
    @Test func theFixtureLoadsAndHasWhatTheIssueAsksFor() throws {
        let folder = try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures"))
        let log = DiagnosticLog()
        let data = TransactionsLoader.load(from: folder, settings: Settings(), log: log)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let list = data.transactions
        #expect(list.count >= 120)
        #expect(Set(list.map(\.category)).isSuperset(of: TransactionsRules.appOrder))
        #expect(list.contains { !$0.pinned })
        #expect(list.contains { $0.amount.currency != .gbp })
        #expect(list.contains { if case .day = $0.date { return true } else { return false } })
        let clock = LocalClock(identifier: "Europe/London")!
        let months = Set(list.map { CalendarMonth($0.date.date(on: clock)) })
        #expect(months.count >= 6)
    }
}
