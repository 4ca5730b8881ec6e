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

/// The seed's rules (003): filtering by category, the sum of a filtered set, only pinned
/// transactions count, the category order, per-currency totals, and safe category slugs.
@Suite struct TransactionsRulesTests {
    let clock = LocalClock(identifier: "Europe/London")!

    func transaction(_ id: Int, _ category: String, _ amount: Int64, _ date: String, pinned: Bool = true,
                     currency: Currency = .gbp, name: String? = nil) -> Transaction {
        let when: Transaction.When = date.count == 10 ? .day(CivilDate(iso8601: date)!) : .instant(Instant(iso8601: date)!)
        return Transaction(id: "\(id)", name: name ?? "t\(id)", category: category,
                           amount: Money(minorUnits: amount, currency: currency), date: when, accountName: "Visa Gold",
                           provider: "Amazon", pinned: pinned)
    }

    func items(_ transactions: [Transaction], starling: [AccountData] = []) -> [SpendingItem] {
        var dataset = Dataset(settings: Settings(), accounts: starling)
        dataset.transactions = TransactionsData(transactions: transactions)
        return TransactionsRules.items(from: dataset, clock: clock)
    }

    /// The app's sample: a few transactions in the five categories.
    var sample: [SpendingItem] {
        items([
            transaction(1, "food", 7_400, "2026-11-01T12:00:00Z"),
            transaction(2, "food", 2_550, "2026-11-02T12:00:00Z"),
            transaction(3, "health", 1_999, "2026-11-03T12:00:00Z"),
            transaction(4, "entertainment", 8_250, "2026-11-04T12:00:00Z"),
            transaction(5, "shopping", 12_000, "2026-11-05T12:00:00Z"),
            transaction(6, "travel", 53_000, "2026-11-06T12:00:00Z"),
            transaction(7, "food", 1_000, "2026-11-07T12:00:00Z", pinned: false),
        ])
    }

    /// Items of the same moment are in the order of their ids (`starling:<uid>`, `transactions:<id>`),
    /// which the rule compares without writing the ids out: over generated ids, the same order; two
    /// spellings of one id (`é` composed or not), which `<` ties, in the order of their bytes.
    @Test func itemsOfOneMomentAreInTheOrderOfTheirIds() {
        let ids = PropertyStrings.mixtures(of: ["a", "B", "0", "-", ":", "é", "e\u{301}", "\u{301}", "ß", "Ω", "😀", "\u{0}", " "],
                                           seed: 21, count: 300, pieces: 4)
        let date = CivilDate(year: 2026, month: 11, day: 2)!
        let items = ids.enumerated().map { index, id in
            SpendingItem(sourceID: id, source: index % 3 == 0 ? .transactions : .bankAccount, name: "x", category: SpendingCategory(key: "c", name: "C"),
                         amount: Money(minorUnits: 100, currency: .gbp), date: date, instant: nil, accountName: "a", provider: nil,
                         pinned: true, pending: false)
        }
        for a in items {
            for b in items {
                #expect(TransactionsRules.newestFirst(a, b) == (a.id < b.id || (a.id == b.id && a.id.utf8.lexicographicallyPrecedes(b.id.utf8))),
                        "\(a.id) and \(b.id)")
            }
        }
    }

    @Test func filteringByCategoryKeepsOnlyThatCategory() {
        let food = TransactionsRules.filter(sample, category: "food")
        #expect(food.map(\.id) == ["transactions:7", "transactions:2", "transactions:1"])
        #expect(TransactionsRules.filter(sample, category: "travel").map(\.id) == ["transactions:6"])
        #expect(TransactionsRules.filter(sample, category: nil).count == 7, "All is every transaction")
        #expect(TransactionsRules.filter(sample, category: "Food").count == 3, "case does not matter")
        #expect(TransactionsRules.filter(sample, category: "groceries").isEmpty)
    }

    @Test func theSumOfAFilteredSetCountsOnlyItsPinnedTransactions() {
        let food = TransactionsRules.filter(sample, category: "food")
        #expect(TransactionsRules.pinnedSum(food).amounts == [gbp(9_950)], "£74.00 + £25.50; the unpinned £10.00 is left out")
        #expect(TransactionsRules.pinnedSum(sample).amounts == [gbp(85_199)])
        #expect(TransactionsRules.pinnedSum(TransactionsRules.filter(sample, category: "groceries")).isEmpty)
    }

    @Test func unpinningATransactionTakesItOutOfTheSumAndTheInsights() {
        let pinned = items([transaction(1, "food", 500, "2026-11-01"), transaction(2, "food", 300, "2026-11-02")])
        let oneUnpinned = items([transaction(1, "food", 500, "2026-11-01"), transaction(2, "food", 300, "2026-11-02", pinned: false)])
        #expect(TransactionsRules.pinnedSum(pinned)[.gbp] == gbp(800))
        #expect(TransactionsRules.pinnedSum(oneUnpinned)[.gbp] == gbp(500))
        let insight = TransactionsRules.spendingByCategory(oneUnpinned, currency: .gbp)
        #expect(insight.map(\.amount) == [gbp(500)])
        #expect(insight.map(\.count) == [1])
        // A category whose only transactions are unpinned has no insight at all.
        let allUnpinned = items([transaction(1, "health", 500, "2026-11-01", pinned: false)])
        #expect(TransactionsRules.spendingByCategory(allUnpinned, currency: .gbp).isEmpty)
        #expect(TransactionsRules.currencies(in: allUnpinned, preferred: .gbp).isEmpty)
    }

    @Test func categoriesComeInTheAppsOrderThenAlphabetically() {
        let mixed = items([
            transaction(1, "travel", 1, "2026-11-01"), transaction(2, "Zoo trips", 1, "2026-11-01"),
            transaction(3, "shopping", 1, "2026-11-01"), transaction(4, "bills", 1, "2026-11-01"),
            transaction(5, "entertainment", 1, "2026-11-01"), transaction(6, "health", 1, "2026-11-01"),
            transaction(7, "food", 1, "2026-11-01"), transaction(8, "Eating out", 1, "2026-11-01"),
        ])
        #expect(TransactionsRules.categories(in: mixed).map(\.name)
                == ["Food", "Health", "Entertainment", "Shopping", "Travel", "Bills", "Eating out", "Zoo trips"])
        // The same order whatever order the data comes in.
        #expect(TransactionsRules.categories(in: mixed.reversed()).map(\.key) == TransactionsRules.categories(in: mixed).map(\.key))
        #expect(TransactionsRules.spendingByCategory(mixed, currency: .gbp).map(\.category.key)
                == ["food", "health", "entertainment", "shopping", "travel", "bills", "eating out", "zoo trips"])
    }

    @Test func totalsAreKeptPerCurrency() {
        let list = items([
            transaction(1, "food", 1_000, "2026-11-01"), transaction(2, "food", 250, "2026-11-02", currency: .eur),
            transaction(3, "food", 2_000, "2026-11-03"), transaction(4, "travel", 9_900, "2026-11-04", currency: .eur),
        ])
        let sum = TransactionsRules.pinnedSum(list)
        #expect(sum[.gbp] == gbp(3_000))
        #expect(sum[.eur] == Money(minorUnits: 10_150, currency: .eur))
        #expect(TransactionsRules.spendingByCategory(list, currency: .gbp).map(\.amount) == [gbp(3_000)])
        #expect(TransactionsRules.spendingByCategory(list, currency: .eur).map(\.amount)
                == [Money(minorUnits: 250, currency: .eur), Money(minorUnits: 9_900, currency: .eur)])
        #expect(TransactionsRules.currencies(in: list, preferred: .gbp) == [.gbp, .eur], "the site's currency first")
        #expect(TransactionsRules.text(sum, preferred: .gbp, context: ReportContext(settings: Settings())) == "£30.00 · €101.50")
    }

    @Test func categoryNamesGetSafeUniqueSlugs() {
        let categories = [
            SpendingCategory(key: "food", name: "Food"), SpendingCategory(key: "index", name: "Index"),
            SpendingCategory(key: "café", name: "Café"), SpendingCategory(key: "cafe", name: "Cafe"),
            SpendingCategory(key: "../../etc", name: "../../etc"), SpendingCategory(key: "<b>x</b> & y", name: "<b>x</b> & y"),
            SpendingCategory(key: "€€€", name: "€€€"),
        ]
        let slugs = TransactionsRules.slugs(for: categories)
        #expect(categories.map { slugs[$0.key]! } == ["food", "index-2", "cafe", "cafe-2", "etc", "b-x-b-y", "category"])
        #expect(Set(slugs.values).count == categories.count)
    }

    @Test func spellingsOfOneCategoryAreOneCategory() {
        #expect(TransactionsRules.categoryKey("EATING_OUT") == "eating out")
        #expect(TransactionsRules.categoryKey("  Eating   Out ") == "eating out")
        #expect(TransactionsRules.starlingCategory("EATING_OUT").name == "Eating out")
        #expect(TransactionsRules.starlingCategory("BILLS_AND_SERVICES").name == "Bills and services")
        #expect(TransactionsRules.starlingCategory(nil).name == "Uncategorised")
        #expect(TransactionsRules.appCategory("food").name == "Food")
        #expect(TransactionsRules.appCategory("DIY").name == "DIY")
    }

    @Test func outgoingStarlingPaymentsJoinWithTheirSpendingCategory() throws {
        let account = StarlingAccount(uid: "a1", type: "PRIMARY", currency: .gbp, name: "Personal", createdAt: nil)
        var eating = feedItem(435, "2026-11-16T09:00:00Z", uid: "eat")
        eating.spendingCategory = "EATING_OUT"
        var shopping = feedItem(999, "2026-11-17T09:00:00Z", status: "PENDING", uid: "shop")
        shopping.spendingCategory = "SHOPPING"
        let feed = [
            eating, shopping,
            feedItem(285_000, "2026-11-16T10:00:00Z", direction: .in, uid: "salary"),
            feedItem(2_999, "2026-11-16T11:00:00Z", status: "DECLINED", uid: "declined"),
            feedItem(1_199, "2026-11-21T06:00:00Z", status: "UPCOMING", uid: "upcoming"),
            feedItem(45_000, "2026-11-16T12:00:00Z", source: "INTERNAL_TRANSFER", uid: "to-savings"),
        ]
        let list = items([transaction(1, "shopping", 2_000, "2026-11-15")],
                         starling: [AccountData(account: account, feed: feed, balance: nil, savingsGoals: [])])
        #expect(list.map(\.id) == ["starling:shop", "starling:eat", "transactions:1"])
        let eat = try #require(list.first { $0.id == "starling:eat" })
        #expect(eat.category.name == "Eating out")
        #expect(eat.source == .bankAccount)
        #expect(eat.accountName == "Personal")
        #expect(eat.pinned)
        #expect(list[0].pending)
        // Starling's SHOPPING and the app's "shopping" are one category.
        #expect(TransactionsRules.filter(list, category: "shopping").map(\.id) == ["starling:shop", "transactions:1"])
        #expect(TransactionsRules.categories(in: list).map(\.name) == ["Shopping", "Eating out"])
    }

    @Test func newestFirstWithDatesOnlyAfterTheTimedOnesOfTheirDay() {
        let list = items([
            transaction(1, "food", 1, "2026-11-16"), transaction(2, "food", 1, "2026-11-16T08:00:00Z"),
            transaction(3, "food", 1, "2026-11-16T18:00:00Z"), transaction(4, "food", 1, "2026-11-17"),
            transaction(5, "food", 1, "2026-11-16"),
        ])
        #expect(list.map(\.id) == ["transactions:4", "transactions:3", "transactions:2", "transactions:1", "transactions:5"])
    }

    @Test func theLastSixMonthsEndWithTheLatestTransactionsMonth() {
        let list = items([transaction(1, "food", 1, "2026-02-28"), transaction(2, "food", 1, "2025-06-01")])
        #expect(TransactionsRules.lastMonths(of: list).map(\.description)
                == ["2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02"])
        #expect(TransactionsRules.lastMonths(of: []).isEmpty)
        // A payment at 23:30 UTC on 30 June is in July on the London clock.
        let late = items([transaction(1, "food", 100, "2026-06-30T23:30:00Z")])
        #expect(TransactionsRules.items(late, in: CalendarMonth(year: 2026, month: 7)).count == 1)
    }

    @Test func largestFirstBreaksTiesInCategoryOrder() {
        let list = items([transaction(1, "travel", 500, "2026-11-01"), transaction(2, "food", 500, "2026-11-01"),
                          transaction(3, "health", 900, "2026-11-01")])
        let top = TransactionsRules.largestFirst(TransactionsRules.spendingByCategory(list, currency: .gbp))
        #expect(top.map(\.category.key) == ["health", "food", "travel"])
    }

    /// Generated items: a few categories under several spellings, a few months and currencies, pinned or not.
    static func generatedItems(_ count: Int, seed: UInt64) -> [SpendingItem] {
        var random = SplitMix64(seed: seed)
        let spellings = ["Food", "FOOD", "food", "Eating out", "EATING_OUT", "travel", "Gifts & <b>", "Ünïcode"]
        let currencies: [Currency] = [.gbp, .eur, .usd]
        return (0..<count).map { index in
            let name = spellings[Int(random.next() % UInt64(spellings.count))]
            let date = CivilDate(year: 2025 + Int(random.next() % 2), month: 1 + Int(random.next() % 12), day: 1 + Int(random.next() % 28))!
            return SpendingItem(sourceID: "\(index)", source: random.next() % 2 == 0 ? .bankAccount : .transactions, name: "n\(index)",
                                category: TransactionsRules.appCategory(name),
                                amount: Money(minorUnits: Int64(random.next() % 20_000) - 1_000, currency: currencies[Int(random.next() % 3)]),
                                date: date, instant: nil, accountName: "a", provider: nil, pinned: random.next() % 4 != 0, pending: false)
        }
    }

    /// The totals a share adds up from the others' (``SpendingTotals/add(_:)-(SpendingTotals)``) are the
    /// totals of all the items, however the items are split and in whatever order the parts come.
    @Test(arguments: [1, 2, 3, 7] as [UInt64]) func totalsOfThePartsAddUpToTheTotalsOfTheWhole(seed: UInt64) {
        let items = Self.generatedItems(400, seed: seed)
        let whole = SpendingTotals(items)
        var random = SplitMix64(seed: seed &* 31)
        var parts = Array(repeating: [SpendingItem](), count: 1 + Int(random.next() % 6))
        for item in items { parts[Int(random.next() % UInt64(parts.count))].append(item) }
        var added = SpendingTotals()
        for part in parts.reversed() { added.add(SpendingTotals(part)) }
        #expect(added == whole)
        #expect(SpendingTotals(items.reversed()) == whole)
    }

    /// What the reports read of the totals, against the same figures worked out from the items one by one.
    @Test(arguments: [5, 11] as [UInt64]) func theTotalsSayWhatTheItemsSay(seed: UInt64) {
        let items = TransactionsRules.unifyingCategoryNames(Self.generatedItems(300, seed: seed))
        let totals = SpendingTotals(items)
        #expect(totals.count() == items.count)
        #expect(totals.count(pinned: true) == items.filter(\.pinned).count)
        #expect(totals.dates == items.map(\.date).min()!...items.map(\.date).max()!)
        for month in Set(items.map { CalendarMonth($0.date) }) {
            let inMonth = items.filter { CalendarMonth($0.date) == month }
            #expect(totals.pinnedSum(month: month) == MoneyTotals(inMonth.filter(\.pinned).map(\.amount)))
            for key in Set(items.map(\.category.key)) {
                #expect(totals.count(category: key, month: month) == inMonth.filter { $0.category.key == key }.count)
            }
            for currency in [Currency.gbp, .eur, .usd] {
                let pinned = inMonth.filter { $0.pinned && $0.amount.currency == currency }
                let byCategory = totals.byCategory(currency: currency, month: month)
                #expect(byCategory.map(\.count).reduce(0, +) == pinned.count)
                #expect(byCategory.map(\.amount.minorUnits).reduce(0, +) == pinned.map(\.amount.minorUnits).reduce(0, +))
            }
        }
        for (first, last) in [(items.map(\.date).min()!, items.map(\.date).min()!.adding(days: 20)), (CivilDate(year: 2025, month: 2, day: 1)!, CivilDate(year: 2025, month: 2, day: 28)!)] {
            let expected = MoneyTotals(items.filter { $0.pinned && $0.date >= first && $0.date <= last }.map(\.amount))
            #expect(!expected.isEmpty && totals.pinnedSum(from: first, to: last) == expected)
        }
    }

    /// One name a category, whichever spelling comes first (``Text/precedes(_:_:)``), however the
    /// items come: worked out here from the items one by one, not unified first.
    @Test(arguments: [5, 11] as [UInt64]) func eachCategoryIsNamedByItsFirstSpelling(seed: UInt64) {
        let items = Self.generatedItems(300, seed: seed)
        var first: [String: String] = [:]
        for item in items where first[item.category.key].map({ Text.precedes(item.category.name, $0) }) ?? true {
            first[item.category.key] = item.category.name
        }
        #expect(Set(items.map(\.category.name)).count > first.count, "several spellings of one category")
        for order in [items, items.reversed(), items.shuffled()] {
            #expect(Dictionary(uniqueKeysWithValues: SpendingTotals(order).categories().map { ($0.key, $0.name) }) == first)
            #expect(Set(TransactionsRules.unifyingCategoryNames(order).map(\.category.name)) == Set(first.values))
        }
    }

    /// Totals encoded as JSON read back as themselves, and the same totals give the same bytes.
    @Test(arguments: [2, 9] as [UInt64]) func totalsReadBackFromTheirJSON(seed: UInt64) throws {
        let totals = SpendingTotals(Self.generatedItems(300, seed: seed))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(totals)
        let read = try JSONDecoder().decode(SpendingTotals.self, from: json)
        #expect(read == totals && !totals.isEmpty && json.count > 100)
        #expect(try encoder.encode(read) == json)
    }

    /// Newest first is a total order: one id in two accounts' feeds (or any two rows) is never a
    /// tie unless the rows show the same, so runs cut anyhow merge to one order.
    @Test func theOrderIsTotal() {
        func item(_ account: String, name: String = "Shop", amount: Int128 = 100, category: String = "Food") -> SpendingItem {
            SpendingItem(sourceID: "same-id", source: .bankAccount, name: name, category: TransactionsRules.appCategory(category),
                         amount: Money(minorUnits: amount, currency: .gbp), date: CivilDate(year: 2026, month: 3, day: 1)!,
                         instant: Instant(millisecondsSinceEpoch: 1_772_323_200_000), accountName: account, provider: nil, pinned: true, pending: false)
        }
        let rows = [item("B"), item("A"), item("A", name: "Sho\u{301}"), item("A", name: "Shó"), item("A", amount: 50), item("A", category: "Travel")]
        for (a, b) in zip(rows.indices, rows.indices.dropFirst()) {
            #expect(TransactionsRules.newestFirst(rows[a], rows[b]) != TransactionsRules.newestFirst(rows[b], rows[a]), "\(a) and \(b) tie")
        }
        let sorted = rows.sorted(by: TransactionsRules.newestFirst).map(\.fields)
        #expect(rows.reversed().sorted(by: TransactionsRules.newestFirst).map(\.fields) == sorted)
        #expect(rows.shuffled().sorted(by: TransactionsRules.newestFirst).map(\.fields) == sorted)
    }
}
