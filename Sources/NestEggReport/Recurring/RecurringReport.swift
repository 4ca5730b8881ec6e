import NestEggModel
import NestEggSupport
/// Recurring payments (`recurring/index`): every account's ``RecurringRule/Found`` together, the
/// subscriptions and bills first by yearly cost, the regular income apart, and the payments the
/// bank has scheduled (`UPCOMING`) as such. The yearly costs are added up per currency and, with
/// rates, in the base currency at the rate of the data's date, the rate shown.
public enum RecurringReport {
    public static let section = Section(id: "recurring", title: "Recurring", path: "recurring/index")

    struct Row: Sendable, Encodable {
        let counterparty: String
        /// The counterparty's page (``PayeesReport``), or its rows on an occasional page; empty when it has neither.
        let counterpartyHref: String
        let hasCounterpartyHref: Bool
        let account: String
        let every: String
        let typical: String
        let last: String
        let next: String
        let yearly: String
        let count: Int
        let stopped: Bool
    }

    struct UpcomingRow: Sendable, Encodable {
        let date: String
        let counterparty: String
        let counterpartyHref: String
        let hasCounterpartyHref: Bool
        let account: String
        let amount: String
        let direction: String
    }

    struct View: Sendable, Encodable {
        let title: String
        let payments: [Row]
        let hasPayments: Bool
        let income: [Row]
        let hasIncome: Bool
        let upcoming: [UpcomingRow]
        let hasUpcoming: Bool
        let yearlyTotal: String
        let yearlyInBase: String?
        let rates: String?
    }

    /// Every account's series, as its figures carry them (``AccountFigures``, by UID; without
    /// them, worked out from every account's feed), in the data's order.
    static func found(_ dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]?) -> [RecurringRule.Found] {
        let figures = figures ?? AccountFigures.of(dataset, context: context)
        return dataset.accounts.compactMap { figures[$0.account.uid]?.recurring }
    }

    /// Whether a series has stopped: its next date is more than one interval's slack behind the data's date.
    static func stopped(_ series: RecurringRule.Series, asOf: CivilDate?) -> Bool {
        guard let asOf else { return false }
        let slack = series.interval.days.upperBound - series.interval.days.lowerBound
        return series.next.adding(days: slack) < asOf
    }

    /// `payee` gives where a counterparty's payments are (``PayeesReport/Directory/path(of:)``: its page, or its rows on an occasional page), if anywhere.
    public static func pages(for dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]? = nil,
                             payee: (String) -> String? = { _ in nil }) -> [Page] {
        let found = found(dataset, context: context, figures: figures)
        let series = found.flatMap(\.series)
        let upcoming = found.flatMap(\.upcoming).sorted { ($0.date, $0.counterparty, $0.account) < ($1.date, $1.counterparty, $1.account) }
        guard !series.isEmpty || !upcoming.isEmpty else { return [] }
        let asOf = context.progress.asOf
        func row(_ series: RecurringRule.Series) -> Row {
            let stopped = stopped(series, asOf: asOf)
            let next = series.scheduled.map { "\(context.date($0.date)) (scheduled by the bank)" }
                ?? (stopped ? "– (none since \(context.date(series.last)))" : context.date(series.next))
            return Row(counterparty: series.counterparty, counterpartyHref: payee(series.counterparty).map(ReportContext.href) ?? "",
                       hasCounterpartyHref: payee(series.counterparty) != nil, account: series.account, every: series.interval.label,
                       typical: context.money(series.typical), last: context.date(series.last), next: next,
                       yearly: context.money(series.yearlyCost), count: series.count, stopped: stopped)
        }
        let order: (RecurringRule.Series, RecurringRule.Series) -> Bool = {
            ($0.yearlyCost.currency, -$0.yearlyCost.minorUnits, $0.counterparty, $0.account) < ($1.yearlyCost.currency, -$1.yearlyCost.minorUnits, $1.counterparty, $1.account)
        }
        let payments = series.filter { !$0.incoming }.sorted(by: order)
        let income = series.filter(\.incoming).sorted(by: order)
        let active = payments.filter { !stopped($0, asOf: asOf) }
        let totals = MoneyTotals(active.map(\.yearlyCost))
        var inBase: String?
        var rates: String?
        if let asOf {
            let base = context.settings.baseCurrency
            let conversions = totals.amounts.map { dataset.rates?.convert($0, on: asOf) ?? ($0.currency == base ? Conversion(original: $0, rate: nil, converted: $0) : nil) }
            if !totals.isEmpty, conversions.allSatisfy({ $0 != nil }) {
                inBase = context.money(conversions.reduce(Money.zero(base)) { $0 + $1!.converted })
                let used = conversions.compactMap { $0?.rate }.map(context.rate)
                rates = used.isEmpty ? nil : used.joined(separator: "; ")
            }
        }
        let view = View(
            title: "Recurring payments", payments: payments.map(row), hasPayments: !payments.isEmpty, income: income.map(row), hasIncome: !income.isEmpty,
            upcoming: upcoming.map { UpcomingRow(date: context.date($0.date), counterparty: $0.counterparty,
                                                 counterpartyHref: payee($0.counterparty).map(ReportContext.href) ?? "",
                                                 hasCounterpartyHref: payee($0.counterparty) != nil, account: $0.account,
                                                 amount: context.money($0.amount), direction: $0.incoming ? "In" : "Out") },
            // The total row says it already when every amount is in the base currency: then there is no other line.
            hasUpcoming: !upcoming.isEmpty, yearlyTotal: context.money(totals),
            yearlyInBase: totals.amounts.allSatisfy { $0.currency == context.settings.baseCurrency } ? nil : inBase, rates: rates)
        return [Page(path: section.path, title: "Recurring payments", template: "recurring-index", section: section.id,
                     breadcrumbs: [Link("Dashboard", "index")], view: view)]
    }

    /// The start page's recurring payments: how many, and what they cost a year.
    public static func dashboard(for dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]? = nil) -> DashboardSection? {
        let found = found(dataset, context: context, figures: figures)
        let payments = found.flatMap(\.series).filter { !$0.incoming && !stopped($0, asOf: context.progress.asOf) }
        guard !payments.isEmpty else { return nil }
        let upcoming = found.flatMap(\.upcoming)
        var figures: [DashboardSection.Figure] = [
            .init(label: "Recurring payments", value: context.count(payments.count), count: payments.count, id: "recurring-payments"),
            .init(label: "Their cost a year", value: context.money(MoneyTotals(payments.map(\.yearlyCost))), id: "yearly-cost"),
        ]
        if let next = upcoming.min(by: { $0.date < $1.date }) {
            figures.append(.init(label: "Scheduled next", value: "\(next.counterparty), \(context.money(next.amount)) on \(context.date(next.date))", id: "scheduled-next"))
        }
        return DashboardSection(title: "Recurring payments", href: ReportContext.href(section.path),
                                linkText: "Subscriptions, bills and regular income", figures: figures)
    }
}
