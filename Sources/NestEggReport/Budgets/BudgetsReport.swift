import NestEggModel
import NestEggSupport
/// Budgets (`budgets/index`): each month's spending per budgeted category against the monthly
/// amount `nestegg.json` sets (`"budgets"`, in the base currency). Spending is the cash flow's
/// money out (``CashFlowReport``), converted as there; a month in progress is held against the
/// budget prorated to its day (`budget × day ÷ days in the month`, rounded to the minor unit,
/// halves up). A site-wide step over the months' figures only.
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
        public let notConverted: MoneyTotals
        public var budget: Money { lines.dropFirst().reduce(lines[0].prorated) { $0 + $1.prorated } }
        public var spent: Money { lines.dropFirst().reduce(lines[0].spent) { $0 + $1.spent } }
    }

    /// `budget × day ÷ days`, halves up (amounts are never negative here).
    public static func prorate(_ budget: Money, day: Int, of days: Int) -> Money {
        guard day < days else { return budget }
        let numerator = budget.minorUnits * Int128(day)
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: Int128(days))
        return Money(minorUnits: quotient + (remainder * 2 >= Int128(days) ? 1 : 0), currency: budget.currency)
    }

    /// Every month of the cash flow against the budgets; none without budgets.
    public static func months(_ flow: [CashFlowReport.Month], budgets: [String: Money], progress: PeriodProgress) -> [Month] {
        guard !budgets.isEmpty else { return [] }
        let ordered = budgets.sorted { TransactionsRules.categoryKey($0.key) < TransactionsRules.categoryKey($1.key) }
        return flow.map { month in
            var byKey: [String: Money] = [:]
            for (name, amount) in month.categories { byKey[TransactionsRules.categoryKey(name), default: .zero(amount.currency)] += amount }
            let days = month.month.lastDay.day
            let complete = progress.isComplete(month.month)
            let through = complete ? days : month.throughDay
            let lines = ordered.map { name, budget in
                Line(category: name, budget: budget, prorated: prorate(budget, day: through, of: days),
                     spent: byKey[TransactionsRules.categoryKey(name)] ?? .zero(budget.currency))
            }
            return Month(month: month.month, throughDay: through, days: days, complete: complete, lines: lines, notConverted: month.notConverted)
        }
    }

    // MARK: View data

    struct LineView: Sendable, Encodable {
        let category: String
        let budget: String
        let prorated: String
        let spent: String
        let left: String
        let status: String
        let isOver: Bool
    }

    struct MonthView: Sendable, Encodable {
        let heading: String
        let note: String
        let lines: [LineView]
        let budget: String
        let spent: String
        let left: String
        let status: String
        let notConverted: String?
    }

    struct View: Sendable, Encodable {
        let title: String
        let rule: [String]
        let months: [MonthView]
    }

    static func status(_ left: Money, context: ReportContext) -> String {
        left.isNegative ? "over by \(context.money(-left))" : "\(context.money(left)) left"
    }

    static func monthView(_ month: Month, context: ReportContext) -> MonthView {
        let label = TransactionsInsightsReport.monthHeading(month.month, context: context)
        let note = month.complete
            ? "The whole month's budget."
            : "The month is in progress: each budget counts \(month.throughDay) of its \(month.days) days so far."
        let left = month.budget - month.spent
        return MonthView(
            heading: label, note: note,
            lines: month.lines.map { LineView(category: $0.category, budget: context.money($0.budget), prorated: context.money($0.prorated),
                                              spent: context.money($0.spent), left: context.money($0.left),
                                              status: status($0.left, context: context), isOver: $0.isOver) },
            budget: context.money(month.budget), spent: context.money(month.spent), left: context.money(left),
            status: status(left, context: context),
            notConverted: month.notConverted.isEmpty ? nil : context.money(month.notConverted))
    }

    /// `cashFlow`: the cash flow's months when the caller has them, worked out here otherwise.
    static func months(_ dataset: Dataset, context: ReportContext,
                       cashFlow: [CashFlowReport.Month]? = nil) -> [Month] {
        guard !context.settings.budgets.isEmpty else { return [] }
        return months(cashFlow ?? CashFlowReport.months(dataset, context: context, figures: AccountFigures.of(dataset, context: context)), budgets: context.settings.budgets,
                      progress: context.progress)
    }

    public static func pages(for dataset: Dataset, context: ReportContext,
                             cashFlow: [CashFlowReport.Month]? = nil) -> [Page] {
        let months = months(dataset, context: context, cashFlow: cashFlow)
        guard !months.isEmpty else { return [] }
        let rule = "Each month's money out per category (as on the cash-flow pages: settled payments from the bank accounts, "
            + "in \(context.settings.baseCurrency.code), other currencies converted at the month's rate) against the monthly budgets "
            + "set in the settings. Newest month first."
        return [Page(path: section.path, title: "Budgets", template: "budgets-index", section: section.id, breadcrumbs: [Link("Dashboard", "index")],
                     view: View(title: "Budgets", rule: Prose.lines(rule), months: months.suffix(12).reversed().map { monthView($0, context: context) }))]
    }

    /// The start page's budgets: the latest month's budget so far, spent and what is left.
    public static func dashboard(for dataset: Dataset, context: ReportContext,
                                 cashFlow: [CashFlowReport.Month]? = nil) -> DashboardSection? {
        guard let month = months(dataset, context: context, cashFlow: cashFlow).last else { return nil }
        let label = TransactionsInsightsReport.monthHeading(month.month, context: context)
        let over = month.lines.filter(\.isOver).map(\.category)
        var figures: [DashboardSection.Figure] = [
            .init(label: month.complete ? "Budget" : "Budget to day \(month.throughDay)", value: context.money(month.budget), amount: month.budget, id: "budget"),
            .init(label: "Spent", value: context.money(month.spent), amount: month.spent, id: "spent"),
            .init(label: "Left", value: status(month.budget - month.spent, context: context), amount: month.budget - month.spent, id: "left"),
        ]
        if !over.isEmpty { figures.append(.init(label: "Over budget", value: over.joined(separator: ", "), id: "over")) }
        return DashboardSection(title: "Budgets, \(label)", href: ReportContext.href(section.path),
                                linkText: "Each category against its budget, month by month", figures: figures)
    }
}
