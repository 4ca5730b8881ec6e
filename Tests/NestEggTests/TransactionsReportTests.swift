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

@Suite struct TransactionsReportTests {
    /// Builds a data folder through the whole pipeline and returns the site's files as text.
    func build(_ transactionsJSON: String, extra: [String: String] = [:]) throws -> [String: String] {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write(transactionsJSON, to: data.appendingPathComponent("transactions/transactions.json"))
        for (path, text) in extra { try write(text, to: data.appendingPathComponent(path)) }
        var build = Build(options: BuildOptions(data: data, output: work.appendingPathComponent("site")))
        build.progress = { _ in }
        _ = try build.run()
        return snapshot(work.appendingPathComponent("site")).mapValues { unpadded(String(decoding: $0, as: UTF8.self)) }
    }

    static let json = """
    [
      {"id": 1, "name": "Weekly shop", "category": "food", "amount": 74.00, "date": "2026-11-01T12:00:00Z", "accountName": "Visa Gold", "provider": "Whole Foods"},
      {"id": 2, "name": "Lunch", "category": "food", "amount": 25.50, "date": "2026-11-02", "accountName": "Visa Gold", "provider": "Pret"},
      {"id": 3, "name": "Snack", "category": "food", "amount": 10, "date": "2026-11-03", "accountName": "Visa Gold", "pinned": false, "provider": "Corner Shop"},
      {"id": 4, "name": "Croissant", "category": "food", "amount": 3.20, "currency": "EUR", "date": "2026-10-03", "accountName": "Travel", "provider": "Paul"},
      {"id": 5, "name": "Gift for *Sam*", "category": "Gifts & <b>donations</b>", "amount": 20, "date": "2026-09-03", "accountName": "Visa Gold"},
      {"id": 6, "name": "Flights", "category": "travel", "amount": 300, "date": "2026-06-03", "accountName": "Visa Gold", "pinned": false}
    ]
    """

    @Test func everyCategoryGetsAPageWithFilterButtonsAndThePinnedSum() throws {
        let site = try build(Self.json)
        for path in ["transactions/index", "transactions/food", "transactions/travel", "transactions/gifts-b-donations-b",
                     "insights/index", "insights/2026-06", "insights/2026-11"] {
            #expect(site[path + ".md"] != nil && site[path + ".html"] != nil, "missing \(path)")
        }
        let food = try #require(site["transactions/food.md"])
        #expect(food.contains("# Transactions: Food\n"))
        #expect(food.contains("[All (6)](../transactions/index.md) ·\n**Food (4)** ·\n[Travel (1)](../transactions/travel.md)"),
                "All first, then the categories in the app's order, the current one marked, one a line")
        #expect(food.contains("| 3 Nov 2026 | [Corner Shop][p1] *(not counted)* | Snack | "), "the provider is the payee and opens its payments; the app's words say what for")
        #expect(food.contains("\n[p1]: ../payees/occasional.md#payee-corner-shop\n"), "a payee paid once: its row on the occasional page")
        #expect(food.contains("| Visa Gold | Transactions app | -£74.00 |"), "money out is negative in the list, as on a statement: \(food)")
        #expect(food.contains("**Spent in 3 pinned transactions in Food: £99.50 · €3.20** (1 not pinned in the app, so not counted)"), "\(food)")
        // Newest first.
        let order = ["Corner Shop", "Pret", "Whole Foods", "Paul"].map { food.range(of: "| [\($0)]")!.lowerBound }
        #expect(order == order.sorted())
        let all = try #require(site["transactions/index.md"])
        #expect(all.contains("**All (6)** ·\n[Food (4)]"))
        #expect(all.contains("**Spent in 4 pinned transactions: £119.50 · €3.20** (2 not pinned in the app, so not counted)"))

        let html = try #require(site["transactions/food.html"])
        #expect(html.contains(#"<nav class="tx-filters" aria-label="Filter by category">"#))
        #expect(html.contains(#"<a href="../transactions/index.html">All (6)</a> <strong>Food (4)</strong>"#))
        #expect(html.contains(#"<a href="../payees/occasional.html#payee-corner-shop">Corner Shop</a> <span class="tx-unpinned">not counted</span>"#), "the link keeps its row's anchor")
        #expect(html.contains(#"<div class="tx-sum" role="status">"#))
    }

    @Test func categoryNamesFromDataAreEscaped() throws {
        let site = try build(Self.json)
        let md = try #require(site["transactions/gifts-b-donations-b.md"])
        #expect(md.contains("# Transactions: Gifts & <b>donations</b>\n") == false)
        #expect(md.contains("**Gifts & \\<b>donations\\</b> (1)**"), "\(md)")
        #expect(md.contains("Gift for \\*Sam\\*"))
        for (path, text) in site where path.hasSuffix(".html") {
            #expect(!text.contains("<b>donations</b>"), "unescaped category in \(path)")
        }
        let insights = try #require(site["insights/index.html"])
        #expect(insights.contains("Gifts &amp; &lt;b&gt;donations&lt;/b&gt;"))
    }

    @Test func insightsCountOnlyPinnedTransactionsPerCurrency() throws {
        let site = try build(Self.json)
        let md = try #require(site["insights/index.md"])
        #expect(md.contains("## Spending in GBP"))
        #expect(md.contains("## Spending in EUR"))
        #expect(md.range(of: "## Spending in GBP")!.lowerBound < md.range(of: "## Spending in EUR")!.lowerBound, "the site's currency first")
        // £74.00 + £25.50 food (the £10 snack is unpinned), £20 gifts; the £300 flights are unpinned.
        #expect(md.contains("| [Food](../transactions/food.md) | £99.50 | 83% | 2 |"), "\(md)")
        #expect(md.contains("| **Total** | **£119.50** | **100%** | **3** |"))
        #expect(md.contains("| [Food](../transactions/food.md) | €3.20 | 100% | 1 |"))
        #expect(!md.contains("£300") && !md.contains("[Travel]"), "unpinned travel is not in the insights")
        #expect(md.contains("| Category | Jun 2026 | Jul 2026 | Aug 2026 | Sep 2026 | Oct 2026 | Nov 2026 so far |"))
        #expect(md.contains("| Food | – | – | – | – | – | £99.50 |"))
        #expect(md.contains("| **Total** | **£0.00** | **£0.00** | **£0.00** | **£20.00** | **£0.00** | **£99.50** |"))
        let html = try #require(site["insights/index.html"])
        #expect(html.contains(#"class="chart chart-ring""#))
        #expect(html.contains(#"class="chart chart-stacked""#))
        let month = try #require(site["insights/2026-11.md"])
        #expect(month.contains("# Spending by category, Nov 2026"))
        #expect(month.contains("2 payments counted,\n1 not pinned in the app left out"), "\(month)")
        #expect(month.contains("[← Oct 2026](../insights/2026-10.md)"))
        let dashboard = try #require(site["index.md"])
        #expect(dashboard.contains("## Spending by category"))
        #expect(dashboard.contains("- Spent in Nov 2026 so far (bank accounts and the app's pinned entries): **[£99.50](insights/2026-11.md)**"), "\(dashboard)")
        #expect(dashboard.contains("| Food | £99.50 | 100% | 2 |"))
    }

    /// A chart colours its categories by their size in it: the eight largest one colour each by
    /// rank, a ninth on its own in the neutral colour, and only past nine does "Other" gather the
    /// smallest, so no category in "Other" is larger than one drawn on its own.
    @Test func aChartColoursItsCategoriesBySizeAndHidesNoLargeOne() {
        let context = ReportContext(settings: Settings())
        // Listed in the stable order, not by size: C3 is the largest, C1 the smallest.
        func totals(_ count: Int) -> [TransactionsRules.CategoryTotal] {
            TransactionsRules.largestFirst((1...count).map { n in
                TransactionsRules.CategoryTotal(category: SpendingCategory(key: "c\(n)", name: "C\(n)"),
                                                amount: gbp(Int64(n == 3 ? 100_000 : n * 100)), count: 1)
            })
        }
        let ten = TransactionsInsightsReport.segments(totals(10), currency: .gbp, context: context)
        #expect(ten.count == 9)
        #expect(ten.first?.label == "C3" && ten.first?.colorIndex == 0, "the largest has the first colour")
        #expect(ten.dropLast().map(\.colorIndex) == (0..<8).map { Optional($0) })
        #expect(ten.last?.label == "Other (2 categories)")
        #expect(ten.last?.value == 300, "Other holds the two smallest, C1 and C2")
        #expect(ten.last?.colorIndex == Chart.otherColour)
        let nine = TransactionsInsightsReport.segments(totals(9), currency: .gbp, context: context)
        #expect(nine.count == 9 && nine.last?.label == "C1", "a ninth category stands under its own name")
        #expect(nine.last?.colorIndex == Chart.otherColour)
        let svg = ChartSVG.draw(Chart.ring(ten, title: "x"))
        #expect(svg.contains("ring-other") && svg.contains("swatch-other"))
        // The legend writes a share too small to show as 1% as the table does.
        let small = ChartSVG.draw(Chart.ring([.init(label: "A", value: 100_000, valueText: "£1,000.00"),
                                              .init(label: "B", value: 1, valueText: "£0.01")], title: "x"))
        #expect(small.contains("B · £0.01 (&lt;1%)"), "\(small)")
    }

    @Test func moneyAxesStepRoundly() {
        let ticks = Chart.moneyAxis(upTo: gbp(687_510), format: { ReportContext(settings: Settings()).money($0) })
        #expect(ticks.map(\.text) == ["£0.00", "£2,000.00", "£4,000.00", "£6,000.00", "£8,000.00"])
        #expect(Chart.moneyAxis(upTo: gbp(0), format: { _ in "" }).isEmpty)
        #expect(Chart.moneyAxis(upTo: gbp(1), format: { _ in "" }).map(\.value) == [0, 100])
        // Near the top of the range, no overflow and no endless loop.
        #expect(Chart.moneyAxis(upTo: Money(minorUnits: Int128.max, currency: .gbp), format: { _ in "" }).count <= 5)
    }

    @Test func sharesAreRoundedDownAndNeverAFalseZero() {
        #expect(TransactionsInsightsReport.share(gbp(1), of: gbp(3)) == "33%")
        #expect(TransactionsInsightsReport.share(gbp(1), of: gbp(1_000)) == "<1%")
        #expect(TransactionsInsightsReport.share(gbp(0), of: gbp(1_000)) == "0%")
        #expect(TransactionsInsightsReport.share(gbp(1), of: gbp(0)) == "–")
    }

    /// A value axis's labels stand in a gutter left of every column, and column labels that would
    /// meet are thinned: the newest always labelled, the phone's extra ones marked to hide.
    @Test func axisLabelsStandClearOfTheColumnsAndLabelsNeverMeet() throws {
        let context = ReportContext(settings: Settings())
        let bars = (0..<12).map { week in Chart.Bar(label: "\(week + 1) Sep", value: Int128(week * 1_000), valueText: context.money(gbp(Int64(week * 1_000)))) }
        let svg = ChartSVG.draw(Chart.columns(bars, title: "t", axis: Chart.moneyAxis(upTo: gbp(11_000), format: context.money)))
        func numbers(_ pattern: String) -> [Int] {
            let regex = try! Regex(pattern)
            return svg.matches(of: regex).compactMap { Int($0.output[1].substring ?? "") }
        }
        let columnsLeft = try #require(numbers(#"<rect class="series-1" x="(\d+)""#).min())
        let tickRight = try #require(numbers(#"<text class="chart-tick" x="(\d+)""#).max())
        #expect(tickRight < columnsLeft, "tick labels end (text-anchor end) left of the first column")
        let labels = svg.components(separatedBy: "class=\"chart-label").count - 1
        #expect(labels < 12 && labels >= 4, "twelve week labels do not fit side by side: \(labels) drawn")
        #expect(svg.contains(">12 Sep</text>"), "the newest column is always labelled")
        #expect(svg.contains("chart-label chart-label-wide") || labels <= 6, "a phone hides more of them")
    }

    @Test func theStackedChartEscapesItsLabelsAndStacksEachValue() {
        let svg = ChartSVG.draw(Chart.stackedColumns(
            [Chart.StackedColumn(label: "Oct", values: [100, 0, 50], valueTexts: ["£1", "£0", "£0.50"], totalText: "£1.50"),
             Chart.StackedColumn(label: "Nov", values: [200, 10, -5], valueTexts: ["£2", "£0.10", "-£0.05"], totalText: "£2.05")],
            series: [Chart.Series(label: "A & <B>", colorIndex: 0), Chart.Series(label: "C", colorIndex: 3),
                     Chart.Series(label: "D", colorIndex: 9)],
            title: "Per month"))
        #expect(svg.hasPrefix(#"<figure class="chart-figure"><svg class="chart chart-stacked""#))
        #expect(svg.contains("A &amp; &lt;B&gt;"))
        #expect(!svg.contains("<B>"))
        #expect(svg.components(separatedBy: "<rect").count - 1 == 4, "four non-zero values")
        #expect(svg.components(separatedBy: "<span class=\"swatch ").count - 1 == 3, "three legend keys, in HTML beside the chart")
        #expect(svg.contains(#"class="series-4""#) && svg.contains(#"class="series-2""#), "colours from the series, wrapping at eight")
        #expect(ChartSVG.draw(Chart.stackedColumns([], series: [], title: "x")) == "")
    }

    /// Six months' totals of nine characters (`£2,222.74`) fit over their columns at the chart's
    /// own size (12 px text in a slot of some 85 units) and are drawn; a year's do not, and are
    /// left to the table.
    @Test func theStackedChartShowsEachMonthsTotalWhileItFits() {
        func svg(months: Int) -> String {
            ChartSVG.draw(Chart.stackedColumns(
                (1...months).map { Chart.StackedColumn(label: "M\($0)", values: [222_274], valueTexts: ["£2,222.74"], totalText: "£2,222.74") },
                series: [Chart.Series(label: "Food", colorIndex: 0)], title: "Per month",
                axis: [Chart.Tick(value: 100_000, text: "£1,000.00"), Chart.Tick(value: 300_000, text: "£3,000.00")]))
        }
        #expect(svg(months: 6).components(separatedBy: #"<text class="chart-value""#).count - 1 == 6)
        #expect(!svg(months: 12).contains("chart-value"))
    }

    /// A column chart's values: in full while they fit at a phone's size, shortened (`£6.2k`) while
    /// those fit, on a wide screen only (`chart-label-wide`) while only there, none beyond.
    @Test func columnsCarryTheirValuesShortenedWhereTheFullOnesDoNotFit() {
        func svg(_ count: Int) -> String {
            ChartSVG.draw(Chart.columns((1...count).map { Chart.Bar(label: "M\($0)", value: 618_670, valueText: "£6,186.70", shortText: "£6.2k") },
                                        title: "Balances", axis: [Chart.Tick(value: 0, text: "£0"), Chart.Tick(value: 800_000, text: "£8k")]))
        }
        func values(_ svg: String, _ classes: String) -> Int { svg.components(separatedBy: "<text class=\"\(classes)\"").count - 1 }
        #expect(values(svg(4), "chart-value") == 4 && svg(4).contains(">£6,186.70<"))
        #expect(values(svg(6), "chart-value") == 6 && svg(6).contains(">£6.2k<") && !svg(6).contains(">£6,186.70<"), "the full figure only in the tooltip")
        #expect(values(svg(12), "chart-value chart-value-small chart-label-wide") == 12 && svg(12).contains(">£6.2k<"))
        #expect(!svg(30).contains("chart-value"))
    }

    @Test func noTransactionsAndNoStarlingMeansNoPages() {
        let site = SiteReport.build(Dataset())
        #expect(!site.sections.contains { $0.id == "transactions" || $0.id == "insights" })
    }
}

/// Long lists are grouped by month. On the entry page each month has its count and pinned subtotal
/// over the whole list; on an older page, over the page's own rows (the whole month's figures would
/// change with newer rows); a month that runs over two pages says so on both.
@Suite struct TransactionsByMonthTests {
    @Test func monthsGroupRowsWithTheirWholeTotalsOnTheEntryPageAndOwnTotalsOnOlderPages() throws {
        func item(_ n: Int, month: Int, pinned: Bool = true) -> SpendingItem {
            SpendingItem(sourceID: "t\(n)", source: .transactions, name: "T\(n)", category: SpendingCategory(key: "food", name: "Food"),
                         amount: gbp(100), date: CivilDate(year: 2026, month: month, day: 1 + n % 28)!, instant: nil,
                         accountName: "A", provider: nil, pinned: pinned, pending: false)
        }
        // Newest first: 60 in November (one unpinned, on the 8th), then 160 in October; 100 rows to a
        // page counted from the oldest: the entry page holds the newest 120 (November's 60 and 60 of
        // October's), page 1 October's oldest 100.
        let items = ((0..<60).map { item($0, month: 11, pinned: $0 != 7) } + (60..<220).map { item($0, month: 10) })
            .sorted(by: TransactionsRules.newestFirst)
        let context = ReportContext(settings: Settings(), asOf: CivilDate(year: 2026, month: 12, day: 1))
        let pages = TransactionsReport.pages(for: items, context: context).filter { $0.path.hasPrefix("transactions/index") }
        #expect(pages.map(\.path) == ["transactions/index", "transactions/index.page1"])
        let entry = try #require(pages[0].view as? TransactionsReport.ListView)
        let older = try #require(pages[1].view as? TransactionsReport.ListView)
        #expect(entry.isEntry && !older.isEntry)
        #expect(entry.months.map(\.label) == ["Nov 2026", "Oct 2026"] && entry.months.map(\.rows.count) == [60, 60])
        #expect(entry.months.map(\.continues) == [false, true] && !entry.months[0].onThisPage)
        #expect(entry.months.map(\.count) == ["60 transactions", "160 transactions"], "the months' whole figures")
        #expect(entry.months.map(\.pinnedSum) == ["£59.00", "£160.00"])
        #expect(older.months.map(\.label) == ["Oct 2026"] && older.months.map(\.rows.count) == [100])
        #expect(older.months.map(\.continues) == [true] && older.months.allSatisfy(\.onThisPage))
        #expect(older.months.map(\.count) == ["100 transactions"] && older.months.map(\.pinnedSum) == ["£100.00"], "the page's own rows of the month")
        #expect(older.count == "" && older.pinnedSum == "" && older.filters.allSatisfy { !$0.counted && $0.count == "" },
                "no list-wide figure in an older page's view")
    }

    /// An older page carries its view apart from its rows (``ListRowsFrame``): the rows
    /// dated before the month after its newest row's, what its rows are drawn with, and its view
    /// without its rows. A build keeps it by that while those rows are the last build's; the entry
    /// page, which shows list-wide figures, names nothing.
    @Test func anOlderPageNamesTheRowsBeforeTheMonthAfterItsNewest() throws {
        func item(_ n: Int, month: Int) -> SpendingItem {
            SpendingItem(sourceID: "t\(n)", source: .transactions, name: "T\(n)", category: SpendingCategory(key: "food", name: "Food"),
                         amount: gbp(100), date: CivilDate(year: 2026, month: month, day: 1 + n % 28)!, instant: nil,
                         accountName: "A", provider: nil, pinned: false, pending: false)
        }
        // 340 rows, oldest first 90 in July, 90 in August, 90 in September, 70 in October: page 1
        // ends in August, page 2 in September, and the entry page holds the newest 140.
        let items = ((0..<90).map { item($0, month: 7) } + (90..<180).map { item($0, month: 8) } + (180..<270).map { item($0, month: 9) }
                     + (270..<340).map { item($0, month: 10) })
            .sorted(by: TransactionsRules.newestFirst)
        let context = ReportContext(settings: Settings(), asOf: CivilDate(year: 2026, month: 12, day: 1))
        let totals = SpendingTotals(items)
        let lists = try #require(TransactionsReport.lists(totals, rows: items))
        #expect(lists.fill([], keeps: { _ in true }) == nil)
        func pages(_ rowStyle: String?) -> [String: Page] {
            Dictionary(uniqueKeysWithValues: TransactionsReport.pages(for: lists, totals: totals, context: context, rowStyle: rowStyle)
                .filter { $0.path.hasPrefix("transactions/index") }.map { ($0.path, $0) })
        }
        func parts(_ frame: ListRowsFrame?) throws -> (month: CalendarMonth, style: String, frame: TemplateValue) {
            let frame = try #require(frame)
            return (frame.before, frame.style, TemplateValue(encoding: frame.frame()))
        }
        let named = pages("payees and accounts")
        #expect(named["transactions/index"]?.rowsFrame == nil, "the entry page is worked out each build")
        let first = try parts(named["transactions/index.page1"]?.rowsFrame), second = try parts(named["transactions/index.page2"]?.rowsFrame)
        #expect(first.month == CalendarMonth(year: 2026, month: 9))
        #expect(second.month == CalendarMonth(year: 2026, month: 10))
        #expect(first.frame != second.frame, "each page's place is in its view")
        #expect(try parts(pages("other payees")["transactions/index.page1"]?.rowsFrame).style != first.style, "what its rows are drawn with is in its style")
        #expect(pages(nil).values.allSatisfy { $0.rowsFrame == nil }, "without what the rows are drawn with, no page has its rows apart")
    }

    /// A rebuild that keeps the older pages by their key reads the rows no further back than the
    /// oldest page it renders: the merge stops there, and the pages it fills hold the rows a whole merge gives them.
    @Test func theMergeStopsAtTheOldestPageItFills() throws {
        func item(_ n: Int, month: Int) -> SpendingItem {
            SpendingItem(sourceID: "t\(n)", source: .transactions, name: "T\(n)", category: n % 2 == 0 ? SpendingCategory(key: "food", name: "Food") : SpendingCategory(key: "travel", name: "Travel"),
                         amount: gbp(100), date: CivilDate(year: 2026, month: month, day: 1 + n % 28)!, instant: nil,
                         accountName: "A", provider: nil, pinned: false, pending: false)
        }
        let items = (0..<450).map { item($0, month: 7 + $0 / 100) }.sorted(by: TransactionsRules.newestFirst)
        let totals = SpendingTotals(items)
        let whole = try #require(TransactionsReport.lists(totals, rows: []))
        #expect(whole.fill([items.makeIterator()], keeps: { _ in true }) == nil)
        // A run that counts the rows it gives.
        final class Counted: IteratorProtocol {
            var rest: IndexingIterator<[SpendingItem]>
            var given = 0
            init(_ items: [SpendingItem]) { rest = items.makeIterator() }
            func next() -> SpendingItem? {
                guard let item = rest.next() else { return nil }
                given += 1
                return item
            }
        }
        let run = Counted(items)
        let part = try #require(TransactionsReport.lists(totals, rows: []))
        // Entry pages of 150 (every row: November's 50 and a hundred more) and 125 rows (each category), and page 3 of every row.
        let newest: Set<String> = ["transactions/index", "transactions/index.page3", "transactions/food", "transactions/travel"]
        #expect(part.fill([run], keeps: newest.contains, toTheEnd: false) == nil)
        for path in newest { #expect(part.rows(of: path) == whole.rows(of: path), "\(path)") }
        #expect(run.given < 300, "the rows older than the kept pages are not read: \(run.given) of 450")
        // Read to the end, the same pages from the same rows, every row read.
        let all = Counted(items)
        #expect(try #require(TransactionsReport.lists(totals, rows: [])).fill([all], keeps: newest.contains) == nil && all.given == 450)
    }
}

/// `"categories"` in nestegg.json counts a bank category under the app's (or any) category.
@Suite struct CategoryMapTests {
    @Test func aMappedBankCategoryCountsUnderTheAppsCategory() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write(#"[{"id": 1, "name": "Weekly shop", "category": "food", "amount": 10.00, "date": "2026-11-02", "accountName": "Visa"}]"#,
                  to: data.appendingPathComponent("transactions/transactions.json"))
        try write(#"{"accounts": [{"accountUid": "acc-1", "accountType": "PRIMARY", "currency": "GBP", "name": "Personal"}]}"#,
                  to: data.appendingPathComponent("starling/accounts.json"))
        try write(#"""
            {"feedItems": [
              {"feedItemUid": "f1", "amount": {"currency": "GBP", "minorUnits": 500}, "direction": "OUT",
               "transactionTime": "2026-11-03T10:00:00.000Z", "status": "SETTLED", "counterPartyName": "Tesco", "spendingCategory": "GROCERIES"},
              {"feedItemUid": "f2", "amount": {"currency": "GBP", "minorUnits": 700}, "direction": "OUT",
               "transactionTime": "2026-11-04T10:00:00.000Z", "status": "SETTLED", "counterPartyName": "Odeon", "spendingCategory": "ENTERTAINMENT"}
            ]}
            """#, to: data.appendingPathComponent("starling/feed/acc-1.json"))
        try write(#"{"categories": {"GROCERIES": "Food"}}"#, to: data.appendingPathComponent("nestegg.json"))
        var build = Build(options: BuildOptions(data: data, output: work.appendingPathComponent("site")))
        build.progress = { _ in }
        _ = try build.run()
        let insights = unpadded(try String(contentsOf: work.appendingPathComponent("site/insights/index.md"), encoding: .utf8))
        #expect(insights.contains("| [Food](../transactions/food.md) | £15.00 | 68% | 2 |"), "Tesco's groceries join the app's food")
        #expect(!insights.contains("Groceries"))
        #expect(insights.contains("[Entertainment](../transactions/entertainment.md) | £7.00"))
    }

    @Test func aMapMustNameACategory() throws {
        let log = DiagnosticLog()
        let document = try #require(JSONDocument.parse(Array(#"{"categories": {"GROCERIES": " "}}"#.utf8), file: "nestegg.json", log: log))
        _ = SettingsLoader.settings(in: document)
        #expect(log.hasErrors)
    }
}

/// The entry pages' newest month, counted in one pass: the same as each list's months give.
@Suite struct NewestMonthCountTests {
    @Test func theNewestMonthOfEveryListInOnePass() {
        func item(_ n: Int, month: Int, category: String, pinned: Bool) -> SpendingItem {
            SpendingItem(sourceID: "t\(n)", source: .transactions, name: "T\(n)", category: SpendingCategory(key: category, name: category),
                         amount: gbp(100), date: CivilDate(year: 2026, month: month, day: 1 + n % 28)!, instant: nil,
                         accountName: "A", provider: nil, pinned: pinned, pending: false)
        }
        var random = SplitMix64(seed: 3)
        let items = (0..<500).map { n in
            item(n, month: 1 + random.next(below: 11), category: ["food", "fun", "rent"][random.next(below: 3)], pinned: random.next(below: 2) == 0)
        }
        let totals = SpendingTotals(items)
        let counts = totals.newestMonthCounts()
        #expect(counts.all == totals.months().max { $0.key < $1.key }?.value.count)
        for category in ["food", "fun", "rent"] {
            #expect(counts.byCategory[category] == totals.months(category: category).max { $0.key < $1.key }?.value.count, "\(category)")
        }
        #expect(SpendingTotals().newestMonthCounts().all == 0)
    }
}
