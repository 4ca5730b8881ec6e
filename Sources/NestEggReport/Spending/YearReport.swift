import NestEggModel
import NestEggSupport

/// A page per year of the data (`insights/<yyyy>`; the year in progress is the year to date):
/// what was spent in each category that year against the category's average month over the
/// last 3 and the last 12 whole months, and the money that came in by source, alike.
///
/// Spent is the site's one figure (``HeadlineReport/definition``), per month and category in
/// the base currency (``MonthlySpent``); income is the cash flow's (``CashFlowReport``): the bank
/// accounts' settled money in, by source. The averages run over the whole months that end the
/// year (for the year in progress, the months before the month in progress), as many as the
/// data has up to 3 and 12, across the year before where they reach it; each table says which.
public enum YearReport {
    public static func path(_ year: Int) -> String { "insights/\(year)" }

    struct Row: Sendable, Encodable {
        let name: String
        let href: String?
        let year: String
        let recent: String
        let longer: String
        let isTotal: Bool
    }

    struct Table: Sendable, Encodable {
        let yearLabel: String
        let recentLabel: String
        let longerLabel: String
        let rows: [Row]
    }

    struct View: Sendable, Encodable {
        let title: String
        let rule: [String]
        let spent: Table?
        let income: Table?
        let rates: [String]
        let notConverted: String?
        let previous: LinkView?
        let next: LinkView?
    }

    /// `sum ÷ count`, halves away from zero.
    static func average(_ sum: Money, over count: Int) -> Money {
        guard count > 1 else { return sum }
        let (quotient, remainder) = sum.minorUnits.quotientAndRemainder(dividingBy: Int128(count))
        let away: Int128 = remainder.magnitude * 2 >= UInt128(count) ? (sum.minorUnits < 0 ? -1 : 1) : 0
        return Money(minorUnits: quotient + away, currency: sum.currency)
    }

    /// "Aug–Oct 2026", "Nov 2025 – Oct 2026", "Oct 2026".
    static func span(_ months: [CalendarMonth], context: ReportContext) -> String {
        guard let first = months.first, let last = months.last else { return "" }
        let label = { (month: CalendarMonth) in TransactionsInsightsReport.monthLabel(month, context: context) }
        if first == last { return label(first) }
        if first.year == last.year { return "\(context.locale.monthAbbreviations[first.month - 1])–\(label(last))" }
        return "\(label(first)) – \(label(last))"
    }

    /// The year pages of `spent` (its months) and `cashFlow` (the cash flow's months); `categoryHref`
    /// gives a category's transactions page.
    static func pages(_ spent: MonthlySpent, cashFlow: [CashFlowReport.Month], context: ReportContext,
                      categoryHref: (SpendingCategory) -> String?) -> [Page] {
        let spentByMonth = Dictionary(spent.months.map { ($0.month, $0) }, uniquingKeysWith: { a, _ in a })
        let flowByMonth = Dictionary(cashFlow.map { ($0.month, $0) }, uniquingKeysWith: { a, _ in a })
        // Each table's own months, oldest first: an average counts only months its figures cover.
        let spentMonths = spent.months.map(\.month).sorted(), flowMonths = cashFlow.map(\.month).sorted()
        // A year with figures of either (a month of the data between two far apart makes no page of its own).
        let years = Set(spent.months.filter { !$0.unconverted.isEmpty }.map(\.month.year)
                        + cashFlow.filter { !$0.flows.isEmpty }.map(\.month.year)).sorted()
        guard !years.isEmpty else { return [] }
        /// The months of `months` (sorted) in `year`, and the whole ones up to its end (before a
        /// month in progress), newest last: found by halving, so that a year's page costs no pass over every month.
        func months(_ months: [CalendarMonth], of year: Int) -> (year: ArraySlice<CalendarMonth>, whole: ArraySlice<CalendarMonth>) {
            func first(_ isAfter: (CalendarMonth) -> Bool) -> Int {
                var (low, high) = (0, months.count)
                while low < high { let middle = (low + high) / 2; if isAfter(months[middle]) { high = middle } else { low = middle + 1 } }
                return low
            }
            let start = first { $0.year >= year }, end = first { $0.year > year }
            let complete = first { !context.progress.isComplete($0) }
            return (months[start..<end], months[..<min(end, complete)])
        }
        let base = context.settings.baseCurrency
        let crumbs = [Link("Dashboard", "index"), Link(TransactionsInsightsReport.section.title, TransactionsInsightsReport.section.path)]
        return years.enumerated().map { index, year in
            let spentYear = months(spentMonths, of: year).year, flowYear = months(flowMonths, of: year).year
            let inProgress = (spentYear + flowYear).contains { !context.progress.isComplete($0) }
            let title = "\(year)\(inProgress ? " so far" : "")"
            let yearLabel = inProgress ? "\(year) so far" : "\(year)"
            func label(_ months: [CalendarMonth], of wanted: Int) -> String {
                "A month, \(span(months, context: context))" + (months.count < wanted ? " (\(context.counted(months.count, "month")))" : "")
            }

            /// Each key's sum over `months` of what `ofMonth` gives a month.
            func sums(_ months: [CalendarMonth], _ ofMonth: (CalendarMonth) -> [String: Money]) -> [String: Money] {
                var sums: [String: Money] = [:]
                for month in months { for (key, amount) in ofMonth(month) { sums[key, default: .zero(base)] += amount } }
                return sums
            }
            /// The table of `months` (the year's and the whole ones before its end) of what `ofMonth`
            /// gives each month by key: a row per key, in the order `ordered` gives them (with the
            /// year's sums), named by `row`, then the total named `total`. `nil` without any key.
            func table(_ months: (year: ArraySlice<CalendarMonth>, whole: ArraySlice<CalendarMonth>),
                       _ ofMonth: (CalendarMonth) -> [String: Money], total: String,
                       ordered: ([String], [String: Money]) -> [String], row: (String) -> (name: String, href: String?)) -> Table? {
                let (recent, longer) = (Array(months.whole.suffix(3)), Array(months.whole.suffix(12)))
                let (inYear, inRecent, inLonger) = (sums(Array(months.year), ofMonth), sums(recent, ofMonth), sums(longer, ofMonth))
                let keys = Set(inYear.keys).union(inLonger.keys)
                guard !keys.isEmpty else { return nil }
                func all(_ sums: [String: Money]) -> Money { sums.values.reduce(Money.zero(base), +) }
                func line(_ name: String, href: String?, isTotal: Bool, _ amount: ([String: Money]) -> Money) -> Row {
                    Row(name: name, href: href, year: context.money(amount(inYear)),
                        recent: recent.isEmpty ? "–" : context.money(average(amount(inRecent), over: recent.count)),
                        longer: longer.isEmpty ? "–" : context.money(average(amount(inLonger), over: longer.count)), isTotal: isTotal)
                }
                let rows = ordered(Array(keys), inYear).map { key in
                    let (name, href) = row(key)
                    return line(name, href: href, isTotal: false) { $0[key] ?? .zero(base) }
                }
                return Table(yearLabel: yearLabel, recentLabel: recent.isEmpty ? "A month, last 3" : label(recent, of: 3),
                             longerLabel: longer.isEmpty ? "A month, last 12" : label(longer, of: 12),
                             rows: rows + [line(total, href: nil, isTotal: true, all)])
            }

            // Spent: each category's sum in the year and its averages, the year's largest first (names breaking ties).
            let spentTable = table(months(spentMonths, of: year), { spentByMonth[$0]?.byCategory ?? [:] }, total: "Spent", ordered: { keys, inYear in
                let year = { (key: String) in inYear[key]?.minorUnits ?? 0 }
                return keys.map { SpendingCategory(key: $0, name: spent.names[$0] ?? $0) }
                    .sorted { year($0.key) != year($1.key) ? year($0.key) > year($1.key) : TransactionsRules.precedes($0, $1) }.map(\.key)
            }, row: { key in
                let category = SpendingCategory(key: key, name: spent.names[key] ?? key)
                return (category.name, categoryHref(category))
            })
            // Income: the cash flow's money in by source, over the cash flow's months, by name.
            let incomeTable = table(months(flowMonths, of: year), { month in
                var sums: [String: Money] = [:]
                for flow in flowByMonth[month]?.flows ?? [] {
                    if case .source(let name) = flow.from { sums[name, default: .zero(base)] += flow.amount }
                }
                return sums
            }, total: "Money in", ordered: { keys, _ in keys.sorted(by: Text.precedes) }, row: { ($0, nil) })

            var rates: [Currency: ExchangeRate] = [:]
            var notConverted = MoneyTotals()
            // The year's own months: their rates and what they could not convert.
            for month in Set(spentYear + flowYear).sorted() {
                for rate in (spentByMonth[month]?.rates ?? []) + (flowByMonth[month]?.rates ?? []) { rates[rate.quote] = rate }
                for amount in (spentByMonth[month]?.notConverted.amounts ?? []) + (flowByMonth[month]?.notConverted.amounts ?? []) { notConverted.add(amount) }
            }
            let rule = "What was spent in each category in \(yearLabel), and each category's average month over the last 3 and the last 12 "
                + "whole months the data has (the month in progress left out; the months of the spending for it, of the bank accounts' "
                + "cash flow for the money in). \(HeadlineReport.definition) "
                + "Below, the money that came in, by source, as the cash flow counts it: the bank accounts' settled payments in. "
                + "Amounts in other currencies are converted into \(base.code) month by month, at the rate of each month's last day."
            let link = { (year: Int) in LinkView(title: "\(year)", href: ReportContext.href(path(year))) }
            // Each month is converted at its own rate; the page names the newest, each month's page its own.
            let ratesText = context.ratesUsed(rates.keys.sorted().map { rates[$0]! }, of: inProgress ? "the data's latest day" : "the month's last day",
                                              lead: "The newest rates used")
                + (rates.isEmpty ? "" : " Each month is converted at its own, named on its cash-flow page.")
            let view = View(title: "Spending and income, \(title)", rule: Prose.lines(rule), spent: spentTable, income: incomeTable,
                            rates: Prose.lines(ratesText), notConverted: notConverted.isEmpty ? nil : context.money(notConverted),
                            previous: index > 0 ? link(years[index - 1]) : nil,
                            next: index + 1 < years.count ? link(years[index + 1]) : nil)
            return Page(path: path(year), title: "Spending and income, \(title)", template: "insights-year", section: TransactionsInsightsReport.section.id,
                        breadcrumbs: crumbs, view: view)
        }
    }
}
