import NestEggModel
import NestEggSupport
/// Budgets (`budgets/index`): each month's spending per budgeted category against the monthly
/// amount `nestegg.json` sets (`"budgets"`, in the base currency). Spending is what the site calls
/// spent everywhere (``HeadlineReport/definition``: the bank accounts' payments, pending ones too,
/// and the transactions app's pinned entries, from ``SpendingTotals``), each category's sum in
/// another currency converted at the rate of the month's last day (the as-of date in the month in
/// progress); a month in progress is held against the budget prorated to its day
/// (`budget × day ÷ days in the month`, rounded to the minor unit, halves up). A site-wide step
/// over the spending's totals only.
public enum BudgetsReport {
    public static let section = Section(id: "budgets", title: "Budgets", path: "budgets/index")

    public struct Line: Sendable {
        public let category: String
        /// The whole month's budget.
        public let budget: Money
        /// The budget to the day the month's figures run through (the whole budget in a month that is over).
        public let prorated: Money
        public let spent: Money
        public var left: Money { prorated - spent }
        public var isOver: Bool { spent.minorUnits > prorated.minorUnits }
    }

    public struct Month: Sendable {
        public let month: CalendarMonth
        public let throughDay: Int
        public let days: Int
        public let complete: Bool
        public let lines: [Line]
        /// Spent in every category, budgeted or not, in the base currency: the month's figure that
        /// the start page and the insights show per currency (``unconverted``).
        public let allSpent: Money
        public let unconverted: MoneyTotals
        /// The rates used, by currency.
        public let rates: [ExchangeRate]
        public let notConverted: MoneyTotals
        public var budget: Money { lines.dropFirst().reduce(lines[0].prorated) { $0 + $1.prorated } }
        /// The whole month's budgets together.
        public var wholeBudget: Money { lines.dropFirst().reduce(lines[0].budget) { $0 + $1.budget } }
        public var spent: Money { lines.dropFirst().reduce(lines[0].spent) { $0 + $1.spent } }
    }

    /// `budget × day ÷ days`, halves up (amounts are never negative here).
    public static func prorate(_ budget: Money, day: Int, of days: Int) -> Money {
        guard day < days else { return budget }
        let numerator = budget.minorUnits * Int128(day)
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: Int128(days))
        return Money(minorUnits: quotient + (remainder * 2 >= Int128(days) ? 1 : 0), currency: budget.currency)
    }

    /// Every month of `spent` against the budgets; none without budgets.
    public static func months(_ spent: MonthlySpent, budgets: [String: Money]) -> [Month] {
        guard !budgets.isEmpty else { return [] }
        let ordered = budgets.sorted { TransactionsRules.categoryKey($0.key) < TransactionsRules.categoryKey($1.key) }
        return spent.months.map { month in
            let lines = ordered.map { name, budget in
                Line(category: name, budget: budget, prorated: prorate(budget, day: month.throughDay, of: month.days),
                     spent: month.byCategory[TransactionsRules.categoryKey(name)] ?? .zero(budget.currency))
            }
            return Month(month: month.month, throughDay: month.throughDay, days: month.days, complete: month.complete, lines: lines,
                         allSpent: month.all, unconverted: month.unconverted, rates: month.rates, notConverted: month.notConverted)
        }
    }

    // MARK: View data

    struct LineView: Sendable, Encodable {
        let category: String
        let budget: String
        let prorated: String
        let spent: String
        /// What is left of the budget so far, signed: negative when over (a number in the table's CSV).
        let left: String
        /// In words: over budget, or what is left a day for the rest of the month, or within budget.
        let status: String
        let isOver: Bool
    }

    struct MonthView: Sendable, Encodable {
        let heading: String
        let note: String
        /// Each budget as a bar, its pace marked (HTML only; the table says the same).
        let chart: Chart?
        let lines: [LineView]
        let budget: String
        let spent: String
        let left: String
        let status: String
        let isOver: Bool
        /// Spent in every category, and the budgeted ones' part of it, in words.
        let allSpent: [String]
        /// The sentence naming the rates used (``ReportContext/ratesUsed(_:of:lead:)``), as lines.
        let rates: [String]
        let hasRates: Bool
        let notConverted: String?
    }

    struct View: Sendable, Encodable {
        let title: String
        let rule: [String]
        /// Which months the page shows of how many, when not every one.
        let shown: String?
        let months: [MonthView]
        /// The page of the months before, and the page of the newer ones.
        let older: LinkView?
        let newer: LinkView?
    }

    /// What a budget's state says in words: over (by pace, in a month in progress), or what is
    /// left of the whole month's `budget` a day for the days to come, or within budget.
    static func status(budget: Money, prorated: Money, spent: Money, month: Month, context: ReportContext) -> String {
        if spent.minorUnits > prorated.minorUnits { return month.complete ? "Over budget" : "Over budget so far" }
        let daysLeft = month.days - month.throughDay
        guard !month.complete, daysLeft > 0 else { return "Within budget" }
        let rest = budget - spent
        // Rounded down: never more a day than the budget holds.
        let perDay = Money(minorUnits: rest.isNegative ? 0 : rest.minorUnits / Int128(daysLeft), currency: rest.currency)
        return "\(context.money(perDay)) a day for the \(context.counted(daysLeft, "day")) left"
    }

    /// The month's whole spending, as the start page and the insights give it, and the budgeted
    /// categories' share of it: "Spent in every category in Nov 2026 so far: £2,505.98 (£2,114.52 ·
    /// €451.27 before conversion, as on the start page); £1,340.04 of it in the budgeted categories."
    static func allSpentText(_ month: Month, label: String, context: ReportContext) -> String {
        let preferred = context.settings.baseCurrency
        var text = "Spent in every category in \(label): \(context.money(month.allSpent))"
        if month.unconverted.amounts.contains(where: { $0.currency != preferred }) {
            text += " (\(TransactionsRules.text(month.unconverted, preferred: preferred, context: context)) before conversion, as the start page and the insights show it)"
        }
        return text + "; \(context.money(month.spent)) of it in the budgeted categories."
    }

    static func monthView(_ month: Month, context: ReportContext) -> MonthView {
        let label = TransactionsInsightsReport.monthHeading(month.month, context: context)
        let note = month.complete
            ? "The whole month's budget."
            : "The month is in progress: each budget counts \(month.throughDay) of its \(month.days) days so far."
        let left = month.budget - month.spent
        let bars = month.lines.map { line in
            Chart.BudgetBar(label: line.category, spent: line.spent.minorUnits, budget: line.budget.minorUnits, pace: line.prorated.minorUnits,
                            isOver: line.isOver, valueText: "\(context.money(line.spent)) of \(context.money(line.budget))\(line.isOver ? ", over" : "")")
        }
        let chartTitle = month.complete ? "\(label): spent against each budget"
            : "\(label): spent against each budget, the line marking the budget to day \(month.throughDay)"
        return MonthView(
            heading: label, note: note, chart: .budget(bars, title: chartTitle),
            lines: month.lines.map { LineView(category: $0.category, budget: context.money($0.budget), prorated: context.money($0.prorated),
                                              spent: context.money($0.spent), left: context.money($0.left),
                                              status: status(budget: $0.budget, prorated: $0.prorated, spent: $0.spent, month: month, context: context),
                                              isOver: $0.isOver) },
            budget: context.money(month.budget), spent: context.money(month.spent), left: context.money(left),
            status: status(budget: month.wholeBudget, prorated: month.budget, spent: month.spent, month: month, context: context),
            isOver: left.isNegative, allSpent: Prose.lines(allSpentText(month, label: label, context: context)),
            rates: Prose.lines(context.ratesUsed(month.rates, of: month.complete ? "the month's last day" : "the data's latest day")), hasRates: !month.rates.isEmpty,
            notConverted: month.notConverted.isEmpty ? nil : context.money(month.notConverted))
    }

    /// The budgets pages of what was spent each month (``MonthlySpent``), against the settings' budgets.
    public static func pages(_ spent: MonthlySpent, context: ReportContext) -> [Page] {
        pages(months(spent, budgets: context.settings.budgets), context: context)
    }

    /// The budgets pages of `months` (oldest first): the newest ``monthsShown`` on the budgets page, the rest on ``olderPath``.
    static func pages(_ months: [Month], context: ReportContext) -> [Page] {
        guard !months.isEmpty else { return [] }
        let rule = "Each month's spending per category against the monthly budgets set in the settings. \(HeadlineReport.definition) "
            + "Amounts in other currencies are converted into \(context.settings.baseCurrency.code) at the rate of the month's last day "
            + "(the latest day of the data, in the month in progress). Left is the budget so far less what was spent: negative when over. "
            + "Newest month first."
        let crumbs = [Link("Dashboard", "index")]
        // The newest year on the budgets page, the months before on a page of their own.
        let newest = months.suffix(monthsShown), older = months.dropLast(monthsShown)
        let olderLink = older.isEmpty ? nil : LinkView(title: "The \(context.counted(older.count, "month")) before", href: ReportContext.href(olderPath))
        var pages = [Page(path: section.path, title: "Budgets", template: "budgets-index", section: section.id, breadcrumbs: crumbs,
                          view: View(title: "Budgets", rule: Prose.lines(rule),
                                     shown: older.isEmpty ? nil : "The newest \(context.counted(newest.count, "month")) of the data's \(context.count(months.count)) are here.",
                                     months: newest.reversed().map { monthView($0, context: context) }, older: olderLink, newer: nil))]
        if !older.isEmpty {
            pages.append(Page(path: olderPath, title: "Budgets, older months", template: "budgets-index", section: section.id,
                              breadcrumbs: crumbs + [Link(section.title, section.path)],
                              view: View(title: "Budgets, older months", rule: Prose.lines(rule),
                                         shown: "The data's first \(context.counted(older.count, "month")), before the newest \(context.count(newest.count)).",
                                         months: older.reversed().map { monthView($0, context: context) }, older: nil,
                                         newer: LinkView(title: "The newest \(context.counted(newest.count, "month"))", href: ReportContext.href(section.path)))))
        }
        return pages
    }

    /// How many months the budgets page shows, newest first; the ones before are on ``olderPath``.
    static let monthsShown = 12
    static let olderPath = "budgets/older"

    /// The start page's words for what is left, as the page's total row says it: "-£729.90, over
    /// budget so far", "£10.89, within budget".
    static func leftText(_ month: Month, context: ReportContext) -> String {
        let state = status(budget: month.wholeBudget, prorated: month.budget, spent: month.spent, month: month, context: context)
        return "\(context.money(month.budget - month.spent)), \(state.prefix(1).lowercased() + state.dropFirst())"
    }

    /// The start page's budgets: the latest month's budget so far, spent and what is left.
    public static func dashboard(_ spent: MonthlySpent, context: ReportContext) -> DashboardSection? {
        guard let month = months(spent, budgets: context.settings.budgets).last else { return nil }
        let label = TransactionsInsightsReport.monthHeading(month.month, context: context)
        let over = month.lines.filter(\.isOver).map(\.category)
        var figures: [DashboardSection.Figure] = [
            .init(label: month.complete ? "Budget" : "Budget to day \(month.throughDay)", value: context.money(month.budget), amount: month.budget, id: "budget"),
            .init(label: "Spent in budgeted categories", value: context.money(month.spent), amount: month.spent, id: "spent"),
            .init(label: "Left", value: leftText(month, context: context), amount: month.budget - month.spent, id: "left"),
        ]
        if !over.isEmpty { figures.append(.init(label: "Over budget", value: over.joined(separator: ", "), id: "over")) }
        return DashboardSection(title: "Budgets, \(label)", href: ReportContext.href(section.path),
                                linkText: "Each category against its budget, month by month", figures: figures)
    }
}
