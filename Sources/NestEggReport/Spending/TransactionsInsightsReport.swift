import NestEggModel
import NestEggSupport
/// The insights tab of the transactions app (seed 003): spending per category over pinned
/// transactions only, per currency — `insights/index` for all the data plus the last six months
/// side by side, and `insights/<yyyy-mm>` for each of those months.
public enum TransactionsInsightsReport {
    public static let section = Section(id: "insights", title: "Insights", path: "insights/index")

    // MARK: View data

    struct IndexView: Sendable, Encodable {
        /// What "spent" counts (``HeadlineReport/definition``), the same sentence wherever the figure
        /// is shown, as lines for the Markdown page (``Prose``).
        let definition = Prose.lines(HeadlineReport.definition)
        let firstDate: String
        let lastDate: String
        let pinnedCount: String
        let unpinnedCount: String
        let hasUnpinned: Bool
        let currencies: [BreakdownView]
        let hasCurrencies: Bool
        let monthRange: String
        let months: [PeriodLink]
        let trends: [TrendView]
        let hasTrends: Bool
        /// The largest payees of the data's year (``PayeesReport/top(_:year:limit:)``) and the payees' index.
        let topPayees: [PayeesReport.TopTable]
        let hasTopPayees: Bool
        let topYear: String
        let payeesHref: String
        /// The year pages (``YearReport``), newest first.
        let years: [PeriodLink]
        let hasYears: Bool
    }

    /// Spending per category in one currency: the table and its ring.
    struct BreakdownView: Sendable, Encodable {
        let currency: String
        let rows: [CategoryRow]
        let total: String
        let totalCount: String
        let ring: Chart
    }

    struct CategoryRow: Sendable, Encodable {
        let name: String
        let href: String
        let amount: String
        let share: String
        let count: String
    }

    /// The last months side by side, in one currency: a table (rows built here, as the columns vary) and a chart.
    struct TrendView: Sendable, Encodable {
        let currency: String
        let header: TableRow
        let divider: TableDivider
        let rows: [TableLine]
        let totalLine: TableRow
        let chart: Chart
    }

    /// A link to a month's or a year's page.
    struct PeriodLink: Sendable, Encodable {
        let label: String
        let href: String
        let first: Bool
    }

    struct MonthView: Sendable, Encodable {
        let definition = Prose.lines(HeadlineReport.definition)
        let month: String
        let pinnedCount: String
        let unpinnedCount: String
        let hasUnpinned: Bool
        let currencies: [BreakdownView]
        let hasCurrencies: Bool
        let previous: PeriodLink?
        let next: PeriodLink?
    }

    // MARK: Building

    static func monthLabel(_ month: CalendarMonth, context: ReportContext) -> String {
        "\(context.locale.monthAbbreviations[month.month - 1]) \(month.year)"
    }

    /// The month as a heading names it: `Nov 2026 so far` while the month is in progress (``PeriodProgress``).
    static func monthHeading(_ month: CalendarMonth, context: ReportContext) -> String {
        monthLabel(month, context: context) + context.progress.soFar(month)
    }

    static func monthPath(_ month: CalendarMonth) -> String { "insights/\(month)" }

    /// A share as a whole percentage, rounded down; `–` when the total is not positive.
    /// A share too small to show as 1% reads `<1%`, not `0%`.
    static func share(_ part: Money, of whole: Money) -> String {
        guard let percent = ReportContext.percent(part.minorUnits, of: whole.minorUnits) else { return "–" }
        return percent == 0 && part.minorUnits > 0 ? "<1%" : "\(percent)%"
    }

    /// How many of the year's top payees the index names, per currency: where the money went, by whom.
    static let topPayeeCount = 5

    /// The pages for the spending list's totals (``SpendingTotals``); `payees`, when given, for the
    /// index's table of the year's top payees.
    /// `spent` and `cashFlow`, when given: the year pages too (``YearReport``), linked from the index.
    static func pages(for totals: SpendingTotals, context: ReportContext, payees: [PayeesReport.Payee] = [],
                      spent: MonthlySpent? = nil, cashFlow: [CashFlowReport.Month] = []) -> [Page] {
        guard let dates = totals.dates else { return [] }
        let slugs = TransactionsRules.slugs(for: totals.categories())
        let categoryHref = { (category: SpendingCategory) in ReportContext.href("transactions/" + (slugs[category.key] ?? "index")) }
        let preferred = context.settings.currency(forSource: "transactions")
        let currencies = totals.currencies(preferred: preferred)
        let months = totals.lastMonths()
        let crumbs = [Link("Dashboard", "index")]
        let monthLinks = months.enumerated().map { index, month in
            PeriodLink(label: monthLabel(month, context: context), href: ReportContext.href(monthPath(month)), first: index == 0)
        }

        let pinned = totals.count(pinned: true), count = totals.count()
        let trends = currencies.compactMap { currency in
            trend(totals, months: months, currency: currency, context: context)
        }
        let yearPages = spent.map { YearReport.pages($0, cashFlow: cashFlow, context: context, categoryHref: categoryHref) } ?? []
        let yearLinks = yearPages.reversed().enumerated().map { index, page in
            PeriodLink(label: String(page.title.dropFirst("Spending and income, ".count)), href: ReportContext.href(page.path), first: index == 0)
        }
        let year = context.progress.asOf?.year
        let topPayees = year.map { PayeesReport.topTables(PayeesReport.top(payees, year: $0, limit: topPayeeCount, base: context.settings.baseCurrency), context: context) } ?? []
        let index = IndexView(
            firstDate: context.date(dates.lowerBound), lastDate: context.date(dates.upperBound),
            pinnedCount: context.count(pinned), unpinnedCount: context.count(count - pinned), hasUnpinned: pinned < count,
            currencies: currencies.map { breakdown(totals, currency: $0, categoryHref: categoryHref,
                                                   title: "Spending by category", context: context) },
            hasCurrencies: !currencies.isEmpty,
            monthRange: months.first.map { "\(monthLabel($0, context: context)) – \(monthLabel(months.last!, context: context))" } ?? "",
            months: monthLinks, trends: trends, hasTrends: !trends.isEmpty,
            topPayees: topPayees, hasTopPayees: !topPayees.isEmpty, topYear: year.map(String.init) ?? "",
            payeesHref: ReportContext.href(PayeesReport.indexPath), years: yearLinks, hasYears: !yearLinks.isEmpty)
        var pages = [Page(path: section.path, title: "Spending by category", template: "insights-index",
                          section: section.id, breadcrumbs: crumbs, view: index)]

        for (position, month) in months.enumerated() {
            let monthCount = totals.count(month: month), monthPinned = totals.count(month: month, pinned: true)
            let label = monthHeading(month, context: context)
            let view = MonthView(
                month: label, pinnedCount: context.count(monthPinned), unpinnedCount: context.count(monthCount - monthPinned),
                hasUnpinned: monthPinned < monthCount,
                currencies: totals.currencies(month: month, preferred: preferred).map {
                    breakdown(totals, month: month, currency: $0, categoryHref: categoryHref,
                              title: "Spending by category, \(label)", context: context)
                },
                hasCurrencies: monthPinned > 0,
                previous: position > 0 ? monthLinks[position - 1] : nil,
                next: position + 1 < monthLinks.count ? monthLinks[position + 1] : nil)
            pages.append(Page(path: monthPath(month), title: "Spending by category, \(label)", template: "insights-month",
                              section: section.id, breadcrumbs: crumbs + [Link(section.title, section.path)], view: view))
        }
        return pages + yearPages
    }

    /// The charts have eight colours for categories, and a neutral one for "Other".
    static let chartColours = 8

    /// The categories a chart draws on its own, from `totals` largest first: each of the eight
    /// largest in this chart gets a colour by its rank (the largest the first colour), so colours
    /// read as sizes in the chart at hand, and its legend names them; a ninth stands on its own
    /// in the neutral colour; more than nine, and those after the eighth share "Other". So no
    /// category is hidden in "Other" that is larger than one drawn on its own.
    static func ranked(_ totals: [TransactionsRules.CategoryTotal]) -> (own: [TransactionsRules.CategoryTotal], rest: [TransactionsRules.CategoryTotal]) {
        totals.count <= chartColours + 1 ? (totals, []) : (Array(totals.prefix(chartColours)), Array(totals.dropFirst(chartColours)))
    }

    /// The colour of the category ranked `rank` in its chart.
    static func colour(rank: Int) -> Int { rank < chartColours ? rank : Chart.otherColour }

    /// Ring segments, largest first: one per category drawn on its own (``ranked(_:)``), then "Other" for the rest.
    static func segments(_ totals: [TransactionsRules.CategoryTotal], currency: Currency, context: ReportContext) -> [Chart.Segment] {
        let (own, rest) = ranked(totals)
        var segments = own.enumerated().map { rank, entry in
            Chart.Segment(label: entry.category.name, value: entry.amount.minorUnits, valueText: context.money(entry.amount),
                          colorIndex: colour(rank: rank))
        }
        if !rest.isEmpty {
            let other = rest.reduce(Money.zero(currency)) { $0 + $1.amount }
            segments.append(Chart.Segment(label: otherLabel(rest.count), value: other.minorUnits, valueText: context.money(other),
                                          colorIndex: Chart.otherColour))
        }
        return segments
    }

    static func otherLabel(_ count: Int) -> String { count == 1 ? "Other (1 category)" : "Other (\(count) categories)" }

    /// Pinned spending by category in `currency`, in `month` (`nil`: over all the data).
    static func breakdown(_ spending: SpendingTotals, month: CalendarMonth? = nil, currency: Currency,
                          categoryHref: (SpendingCategory) -> String, title: String, context: ReportContext) -> BreakdownView {
        // The largest first: the answer before the detail.
        let totals = TransactionsRules.largestFirst(spending.byCategory(currency: currency, month: month))
        let total = totals.reduce(Money.zero(currency)) { $0 + $1.amount }
        let rows = totals.map { entry in
            CategoryRow(name: entry.category.name, href: categoryHref(entry.category), amount: context.money(entry.amount),
                        share: share(entry.amount, of: total), count: context.count(entry.count))
        }
        let segments = self.segments(totals, currency: currency, context: context)
        return BreakdownView(currency: currency.code, rows: rows, total: context.money(total),
                             totalCount: context.count(totals.reduce(0) { $0 + $1.count }),
                             ring: Chart.ring(segments, title: "\(title) (\(currency.code))", centerText: context.money(total)))
    }

    static func trend(_ totals: SpendingTotals, months: [CalendarMonth], currency: Currency, context: ReportContext) -> TrendView? {
        let perMonth = months.map { totals.byCategory(currency: currency, month: $0) }
        let categories = totals.categories(months: Set(months), pinnedIn: currency)
        guard !categories.isEmpty else { return nil }
        let entry = { (month: Int, key: String) in perMonth[month].first { $0.category.key == key } }
        let labels = months.map { monthHeading($0, context: context) }
        let rows = categories.map { category in
            TableLine(line: TableRow(cells: [category.name] + months.indices.map { month in
                entry(month, category.key).map { context.money($0.amount) } ?? "–"
            }))
        }
        let monthTotals = perMonth.map { $0.reduce(Money.zero(currency)) { $0 + $1.amount } }
        let totalLine = TableRow(cells: ["Total"] + monthTotals.map(context.money), emphasised: true)

        // The chart: the categories ranked by their spending over these months, coloured by rank,
        // then "Other" for the rest, as on the ring (``ranked(_:)``).
        let sums = categories.map { category in
            TransactionsRules.CategoryTotal(category: category, amount: months.indices.reduce(Money.zero(currency)) { $0 + (entry($1, category.key)?.amount ?? .zero(currency)) },
                                            count: months.indices.reduce(0) { $0 + (entry($1, category.key)?.count ?? 0) })
        }
        let (ownTotals, restTotals) = ranked(TransactionsRules.largestFirst(sums))
        let own = ownTotals.map(\.category), rest = restTotals.map(\.category)
        var series = own.enumerated().map { Chart.Series(label: $1.name, colorIndex: colour(rank: $0)) }
        if !rest.isEmpty { series.append(Chart.Series(label: otherLabel(rest.count), colorIndex: Chart.otherColour)) }
        let columns = months.indices.map { month in
            var amounts = own.map { entry(month, $0.key)?.amount ?? .zero(currency) }
            if !rest.isEmpty {
                amounts.append(rest.reduce(Money.zero(currency)) { $0 + (entry(month, $1.key)?.amount ?? .zero(currency)) })
            }
            // Under a column its month's short name (the year is in the table beside it), so six fit a phone.
            return Chart.StackedColumn(label: context.locale.monthAbbreviations[months[month].month - 1], values: amounts.map(\.minorUnits), valueTexts: amounts.map(context.money),
                                       totalText: context.money(monthTotals[month]))
        }
        return TrendView(
            currency: currency.code, header: TableRow(cells: ["Category"] + labels),
            divider: TableDivider(rightAligned: [false] + Array(repeating: true, count: months.count)), rows: rows, totalLine: totalLine,
            chart: Chart.stackedColumns(columns, series: series, title: "Spending by category per month (\(currency.code))",
                                        axis: Chart.moneyAxis(upTo: monthTotals.max { $0.minorUnits < $1.minorUnits } ?? .zero(currency), format: context.compactMoney)))
    }

    /// The start page's part: this month's spending (the month of the latest transaction) and its top categories.
    static func dashboard(for spending: SpendingTotals, context: ReportContext) -> DashboardSection? {
        guard let month = spending.lastMonths(count: 1).first else { return nil }
        let label = monthHeading(month, context: context)
        var rows: [DashboardSection.Table.Row] = []
        let preferred = context.settings.currency(forSource: "transactions")
        let currencies = spending.currencies(month: month, preferred: preferred)
        for currency in currencies {
            let totals = spending.byCategory(currency: currency, month: month)
            let total = totals.reduce(Money.zero(currency)) { $0 + $1.amount }
            for entry in TransactionsRules.largestFirst(totals).prefix(3) {
                // With two currencies a category can be listed twice: each row says which it is.
                let name = currencies.count > 1 ? "\(entry.category.name) (\(currency.code))" : entry.category.name
                rows.append(.init([name, context.money(entry.amount), share(entry.amount, of: total), "\(entry.count)"]))
            }
        }
        return DashboardSection(
            title: "Spending by category", href: ReportContext.href(section.path), linkText: "Spending by category",
            figures: [.init(label: "Spent in \(label) (bank accounts and the app's pinned entries)",
                            value: TransactionsRules.text(spending.pinnedSum(month: month), preferred: preferred, context: context), href: ReportContext.href(monthPath(month)),
                            id: "latest-month-spent")],
            table: rows.isEmpty ? nil : .init(columns: ["Top categories, \(label)", "Spent", "Share", "Transactions"],
                                              numeric: [false, true, true, true], rows: rows))
    }
}
