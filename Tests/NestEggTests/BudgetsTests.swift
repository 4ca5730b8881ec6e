import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

@Suite struct BudgetsTests {
    /// The budgets' months of `dataset` as the site works them out: from the spending of both sources.
    static func months(_ dataset: Dataset, context: ReportContext) -> [BudgetsReport.Month] {
        let totals = SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock))
        return BudgetsReport.months(MonthlySpent(totals, rates: dataset.rates, base: context.settings.baseCurrency, progress: context.progress),
                                    budgets: context.settings.budgets)
    }

    /// What the fixtures spent per month and category, in GBP pence, read independently: the bank
    /// accounts' payments out (settled or pending, not internal transfers) and the transactions
    /// app's pinned entries, each month's sum per category and currency converted at the rate of
    /// the month's last day (the as-of date in its month), by `Decimal`.
    static func expectedSpent(asOf: String) -> [String: [String: Int]] {
        var sums: [String: [String: [String: Int]]] = [:]  // month → category → currency → minor units
        for account in HouseholdCheck.accounts {
            for item in account.items where item.out && ["SETTLED", "PENDING"].contains(item.status) && item.source != "INTERNAL_TRANSFER" {
                sums[String(item.day.prefix(7)), default: [:]][CashFlowTests.humanized(item.category), default: [:]][item.currency, default: 0] += item.minor
            }
        }
        for entry in HouseholdCheck.json("transactions/transactions.json") as! [[String: Any]] where entry["pinned"] as? Bool ?? true {
            let date = entry["date"] as! String
            // A date alone is that day; a time with an offset is read as an instant, its day London's.
            let day = date.count == 10 ? date : HouseholdCheck.localDay(date.replacingOccurrences(of: #"(:\d\d)(Z|[+-]\d\d:\d\d)$"#, with: "$1.000$2", options: .regularExpression))
            let raw = entry["category"] as! String
            let category = raw.prefix(1).uppercased() + raw.dropFirst()
            let minor = NSDecimalNumber(decimal: Decimal(string: "\(entry["amount"] as! Double)")! * 100).intValue
            sums[String(day.prefix(7)), default: [:]][category, default: [:]][entry["currency"] as? String ?? "GBP", default: 0] += minor
        }
        return sums.reduce(into: [:]) { result, month in
            let day = min(HouseholdCheck.lastDay(month.key), asOf)
            result[month.key] = month.value.mapValues { currencies in
                currencies.reduce(0) { $0 + HouseholdCheck.toGBP($1.value, $1.key, on: day)!.pence }
            }
        }
    }

    /// Every budget line of the fixtures, from the raw JSON and the settings file as text.
    @Test func everyLineEqualsAnIndependentCheck() throws {
        let dataset = try NetWorthTests.fixtures()
        let context = ReportContext(dataset: dataset)
        let asOf = try #require(context.progress.asOf)
        let settings = HouseholdCheck.json("nestegg.json") as! [String: Any]
        let budgets = (settings["budgets"] as! [String: String]).mapValues { Int((Decimal(string: $0)! * 100 as NSDecimalNumber).intValue) }
        #expect(budgets.count == 4)
        let expected = Self.expectedSpent(asOf: asOf.description)
        let months = Self.months(dataset, context: context)
        // Every month of the spending, the app's first (June) to the as-of date's.
        #expect(months.map(\.month.description) == ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"])
        for month in months {
            let check = try #require(expected[month.month.description])
            let days = Int(HouseholdCheck.lastDay(month.month.description).suffix(2))!
            let inProgress = month.month == CalendarMonth(asOf)
            #expect(month.complete == !inProgress)
            let through = inProgress ? asOf.day : days
            for line in month.lines {
                let budget = try #require(budgets[line.category])
                var share = Decimal(budget) * Decimal(through) / Decimal(days)
                var rounded = Decimal()
                NSDecimalRound(&rounded, &share, 0, .plain)
                #expect(line.budget.minorUnits == Int128(budget))
                #expect(line.prorated.minorUnits == Int128(NSDecimalNumber(decimal: rounded).intValue), "\(line.category) \(month.month)")
                #expect(line.spent.minorUnits == Int128(check[line.category] ?? 0), "\(line.category) \(month.month)")
                #expect(line.left.minorUnits == line.prorated.minorUnits - line.spent.minorUnits)
            }
            // Every category's spending, budgeted or not, is the month's whole figure.
            #expect(month.allSpent.minorUnits == Int128(check.values.reduce(0, +)), "\(month.month)")
        }
        // The page and the start page show them.
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == BudgetsReport.section.path })
        let markdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(page).markdown)
        #expect(markdown.contains("| Travel | £120.00 | £120.00 | £148.55 | -£28.55 | **Over budget** |"), "\(markdown)")
        // November, 21 of 30 days: travel's £120.00 less £80.93 spent is £39.07 for 9 days, £4.34 a day (rounded down).
        #expect(markdown.contains("| Travel | £120.00 | £84.00 | £80.93 | £3.07 | £4.34 a day for the 9 days left |"), "\(markdown)")
        #expect(markdown.contains("| Food | £1,100.00 | £770.00 | £1,163.79 | -£393.79 | **Over budget so far** |"), "\(markdown)")
        // The whole month's figure is the start page's, per currency, with its conversion.
        #expect(markdown.contains("Spent in every category in Nov 2026 so far: £2,505.98 (£2,114.52 · €451.27 before conversion"), "\(markdown)")
        #expect(markdown.contains("| Category, Nov 2026 so far | Budget |"))
        #expect(!markdown.contains("months of the data"), "six months: every one on the page")
        #expect(markdown.contains("each budget counts 21 of its 30 days so far"))
        let start = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(try #require(site.pages.first { $0.path == "index" })).markdown)
        #expect(start.contains("Spent in Nov 2026 so far:** **[£2,114.52 · €451.27]"), "\(start)")
        #expect(start.contains("Spent in budgeted categories: **[£2,038.90]"), "\(start)")
        #expect(!start.contains("  - Spent: "), "no figure of a narrower scope is just \"Spent\"")
    }

    /// Every month of the data is shown: the newest twelve on the budgets page, which says so and
    /// links to the months before, on a page of their own.
    @Test func monthsPastAYearGoOnAPageOfTheirOwn() throws {
        var months: [BudgetsReport.Month] = []
        for number in 1...14 {
            let month = CalendarMonth(year: 2025 + (number - 1) / 12, month: 1 + (number - 1) % 12)
            let line = BudgetsReport.Line(category: "Food", budget: gbp(10_000), prorated: gbp(10_000), spent: gbp(Int64(number) * 1_000))
            months.append(BudgetsReport.Month(month: month, throughDay: 28, days: 28, complete: true, lines: [line], allSpent: line.spent,
                                              unconverted: MoneyTotals([line.spent]), rates: [], notConverted: MoneyTotals([])))
        }
        let context = ReportContext(settings: Settings())
        let pages = BudgetsReport.pages(months, context: context)
        #expect(pages.map(\.path) == ["budgets/index", "budgets/older"])
        let index = try #require(pages[0].view as? BudgetsReport.View), older = try #require(pages[1].view as? BudgetsReport.View)
        #expect(index.months.count == 12 && older.months.count == 2)
        #expect(index.months.first?.heading.hasPrefix("Feb 2026") == true)
        #expect(older.months.map { $0.heading } == ["Feb 2025", "Jan 2025"])
        #expect(index.shown == "The newest 12 months of the data's 14 are here." && index.older?.href == "budgets/older.md")
        #expect(older.newer?.href == "budgets/index.md" && older.older == nil)
    }

    @Test func prorationRoundsHalvesUp() {
        #expect(BudgetsReport.prorate(gbp(25_000), day: 21, of: 30).minorUnits == 17_500)
        #expect(BudgetsReport.prorate(gbp(100), day: 1, of: 8).minorUnits == 13, "12.5 pence: a half, up")
        #expect(BudgetsReport.prorate(gbp(100), day: 1, of: 3).minorUnits == 33)
        #expect(BudgetsReport.prorate(gbp(100), day: 31, of: 31).minorUnits == 100)
    }

    @Test func budgetsAreReadInTheBaseCurrencyWhereverItIsSet() throws {
        let (doc, log) = document(#"{"budgets": {"Groceries": "250.00", "eating out": 120}, "baseCurrency": "EUR"}"#)
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(!log.hasErrors)
        #expect(settings.budgets == ["Groceries": Money(minorUnits: 25_000, currency: .eur), "eating out": Money(minorUnits: 12_000, currency: .eur)])
        let (wrong, wrongLog) = document(#"{"budgets": {"Groceries": "-5", "Shopping": "1.234", "": "3", "Fun": true}}"#)
        _ = SettingsLoader.settings(in: try #require(wrong))
        #expect(wrongLog.errors.map(\.path) == ["$.budgets.Groceries", "$.budgets.Shopping", "$.budgets['']", "$.budgets.Fun"],
                "\(wrongLog.errors.map(\.description))")
        // Without budgets there is no page and no start-page card.
        var dataset = try NetWorthTests.fixtures()
        dataset.settings.budgets = [:]
        #expect(!SiteReport.build(dataset).pages.contains { $0.path == BudgetsReport.section.path })
    }

    /// A budget naming a category the data does not have is a warning at its amount, saying which
    /// categories there are; one the data has, or a mapping names, is not.
    @Test func aBudgetForACategoryNoTransactionHasIsAWarningAtItsPlace() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: HouseholdCheck.fixtures, to: data)
        let settings = """
        {"budgets": {"Food": "450.00", "Fod": "1.00", "Groceries": "2.00",
                     "Pets": "3.00", "Eating out": "4.00", "Travel": "5.00"}}
        """
        try write(settings, to: data.appendingPathComponent("nestegg.json"))
        // As `nestegg check` and a build load: the load, then the report's check of the budgets.
        let load = { (folder: URL) throws -> [Diagnostic] in
            var options = BuildOptions(data: folder, output: work.appendingPathComponent("out"))
            options.dataLabel = "data"
            return try Build(options: options).load().1
        }
        let notes = try load(data).filter { $0.path?.hasPrefix("$.budgets") == true }
        #expect(notes.map(\.path) == ["$.budgets.Fod", "$.budgets.Groceries", "$.budgets.Pets"], "\(notes.map(\.description))")
        #expect(notes.allSatisfy { $0.severity == .warning && $0.file == "data/nestegg.json" })
        #expect(notes.map(\.line) == [1, 1, 2])
        #expect(notes.map(\.column) == [39, 60, 22])
        #expect(notes[0].message.contains("did you mean \"Food\"?"))
        #expect(notes[1].message.contains("GROCERIES is counted under \"Food\""))
        #expect(!notes[2].message.contains("did you mean"))
        #expect(notes[2].message.contains("(categories: Bills and services, Eating out, Entertainment, Family, Food, Gifts & donations, Health, Shopping, Travel)"))
        // The fixtures' own budgets all name categories the data has.
        #expect(try !load(HouseholdCheck.fixtures).contains { $0.path?.hasPrefix("$.budgets") == true })
        // The report's check alone gives the same notes, at the places the load recorded.
        let dataset = DataLoader.load(try DataFolder(root: data), log: DiagnosticLog())
        #expect(BudgetCategories.notes(dataset).map(\.path) == notes.map(\.path))
        #expect(BudgetCategories.notes(dataset).map(\.message) == notes.map(\.message))
        // The load itself does not check budgets against categories (the report's mapping does).
        let loadOnly = DiagnosticLog()
        _ = DataLoader.load(try DataFolder(root: data), log: loadOnly)
        #expect(!loadOnly.diagnostics.contains { $0.path?.hasPrefix("$.budgets") == true })
    }
}

/// The budgets' bars: the track is the whole budget, the fill what was spent (full and in the
/// colour for bad news when over), the pace marked while the month runs, the value in words.
@Suite struct BudgetBarTests {
    @Test func aBarShowsSpentAgainstTheBudgetWithThePaceMarked() {
        let svg = ChartSVG.draw(.budget([
            Chart.BudgetBar(label: "Food", spent: 36_000, budget: 45_000, pace: 31_500, isOver: false, valueText: "£360.00 of £450.00"),
            Chart.BudgetBar(label: "Fun <b>", spent: 90_000, budget: 20_000, pace: 14_000, isOver: true, valueText: "£900.00 of £200.00, over"),
        ], title: "Nov 2026 so far: spent against each budget"))
        #expect(svg.contains(#"<rect class="series-1" x="0" y="34" width="200""#), "360 of 450 fills four fifths of 250: \(svg)")
        #expect(svg.contains(#"<rect class="chart-over" x="0" y="92" width="250""#), "over: the whole track, in the colour for bad news")
        #expect(svg.contains(#"<line class="chart-pace" x1="175""#), "the pace: 315 of 450")
        #expect(svg.contains("£900.00 of £200.00, over") && svg.contains("Fun &lt;b&gt;") && !svg.contains("<b>"))
        let finished = ChartSVG.draw(.budget([Chart.BudgetBar(label: "Food", spent: 1, budget: 45_000, pace: 45_000, isOver: false, valueText: "")], title: "Oct"))
        #expect(!finished.contains("chart-pace"), "a finished month has no pace to mark")
    }
}

/// The one sentence every page that converts names its rates with (``ReportContext/ratesUsed(_:of:lead:)``).
@Suite struct RatesUsedTests {
    @Test func namesEachRateItsDayAndWhoseItIsInOneSentence() throws {
        let context = ReportContext(settings: Settings())
        let day = try #require(CivilDate(year: 2026, month: 10, day: 30))
        let euro = try #require(ExchangeRate(base: .gbp, quote: .eur, date: day, decimal: "1.1475"))
        let dollar = try #require(ExchangeRate(base: .gbp, quote: .usd, date: day, decimal: "1.2946"))
        #expect(context.ratesUsed([], of: "the month's last day").isEmpty)
        #expect(context.ratesUsed([euro], of: "the month's last day")
                == "Rates used: 1 GBP = 1.1475 EUR (ECB, 30 Oct 2026), the European Central Bank's reference rate of the month's last day "
                + "or the working day before.")
        let two = context.ratesUsed([euro, dollar], of: "the data's latest day", lead: "The newest rates used")
        #expect(two.hasPrefix("The newest rates used: 1 GBP = 1.1475 EUR (ECB, 30 Oct 2026); 1 GBP = 1.2946 USD (ECB, 30 Oct 2026), "))
        #expect(two.contains("reference rates of the data's latest day") && two.hasSuffix("before."))
    }
}
