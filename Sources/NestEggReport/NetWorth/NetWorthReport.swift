import NestEggModel
import NestEggSupport
/// Net worth (`networth/index`, `networth/<yyyy-mm>`): at each month-end, every account's balance
/// in its own currency, the exchange rate used, the amount in the base currency, and the total;
/// today's holdings with the savings goals and the Kiva credit as their own lines.
///
/// The site-wide step works from each account's ``AccountBalances`` alone (plus the Qapital goals,
/// the Kiva balance, the rates and the settings). Conversion is the one place currencies meet: an
/// amount in another currency is divided by the ECB rate of the day or the last one before it
/// (``ExchangeRates/convert(_:on:)``), and the page shows that rate beside it. Without a rate, an
/// amount is not converted, is left out of the total, and is shown apart.
public enum NetWorthReport {
    public static let section = Section(id: "networth", title: "Net worth", path: "networth/index")

    // MARK: Figures

    /// One holding at one day, converted or not.
    public struct Line: Sendable, Hashable {
        public enum Kind: String, Sendable { case account = "Account", goal = "Savings goal", qapital = "Qapital goal", kiva = "Kiva credit" }
        public let kind: Kind
        public let name: String
        public let amount: Money
        /// `nil` when there is no rate for the amount's currency on or before the day.
        public let conversion: Conversion?
    }

    /// The holdings on one day and their total in the base currency.
    public struct Holdings: Sendable, Hashable {
        public let month: CalendarMonth
        /// The month's last day, or the data's as-of date in the month in progress.
        public let day: CivilDate
        public let lines: [Line]
        /// The converted lines' sum, in the base currency.
        public let total: Money
        /// What could not be converted, per currency (empty when everything was).
        public let notConverted: MoneyTotals
        public var isComplete: Bool { notConverted.isEmpty }
    }

    public struct Figures: Sendable {
        public let base: Currency
        /// Whether the data folder has rates at all.
        public let hasRates: Bool
        /// The accounts' balances at each month-end, oldest first (accounts only: goals have no history).
        public let months: [Holdings]
        /// Every holding as of the data's date: the accounts, their savings goals, Qapital goals, the Kiva credit.
        public let now: Holdings?
        /// Accounts without a cleared balance in their own currency: no balance is known.
        public let withoutBalance: [String]
    }

    /// Converts `amount` on `day` with `rates` (none: only the base currency converts).
    static func line(_ kind: Line.Kind, _ name: String, _ amount: Money, on day: CivilDate, rates: ExchangeRates?, base: Currency) -> Line {
        let conversion: Conversion?
        if amount.currency == base {
            conversion = Conversion(original: amount, rate: nil, converted: amount)
        } else {
            conversion = rates?.convert(amount, on: day)
        }
        return Line(kind: kind, name: name, amount: amount, conversion: conversion)
    }

    static func holdings(_ lines: [Line], month: CalendarMonth, day: CivilDate, base: Currency) -> Holdings {
        var total = Money.zero(base)
        var notConverted = MoneyTotals()
        for line in lines {
            if let conversion = line.conversion { total += conversion.converted } else { notConverted.add(line.amount) }
        }
        return Holdings(month: month, day: day, lines: lines, total: total, notConverted: notConverted)
    }

    /// The site-wide figures from every account's ``AccountBalances`` and the other holdings.
    public static func figures(accounts: [AccountBalances], qapitalGoals: [QapitalGoal], kivaBalance: Money?,
                               rates: ExchangeRates?, base: Currency, asOf: CivilDate?) -> Figures {
        let known = accounts.filter { !$0.monthEnds.isEmpty }
        let withoutBalance = accounts.filter { $0.monthEnds.isEmpty }.map(\.name)
        let hasRates = rates.map { !$0.isEmpty } ?? false
        let last = asOf ?? known.compactMap(\.through).max()
        var months: [Holdings] = []
        if let first = known.compactMap({ $0.monthEnds.first?.month }).min(), let last {
            var month = first
            while month <= CalendarMonth(last) {
                let day = min(month.lastDay, last)
                let lines = known.compactMap { account in
                    account.balance(atEndOf: month).map { line(.account, account.name, $0, on: day, rates: rates, base: base) }
                }
                months.append(holdings(lines, month: month, day: day, base: base))
                month = month.next
            }
        }
        var now: Holdings?
        if let last {
            var lines = months.last?.lines ?? []
            for account in accounts {
                lines += account.goals.map { line(.goal, "\($0.name) (\(account.name))", $0.saved, on: last, rates: rates, base: base) }
            }
            lines += qapitalGoals.filter { $0.status == .active }.map { line(.qapital, $0.name, $0.saved, on: last, rates: rates, base: base) }
            if let kivaBalance { lines.append(line(.kiva, "Kiva lender balance", kivaBalance, on: last, rates: rates, base: base)) }
            if !lines.isEmpty { now = holdings(lines, month: CalendarMonth(last), day: last, base: base) }
        }
        return Figures(base: base, hasRates: hasRates, months: months, now: now, withoutBalance: withoutBalance)
    }

    /// Every bank account's ``AccountBalances``, from its balance and its figures' statements'
    /// basis (``AccountFigures``, by UID; without them, worked out from every account's feed).
    static func balances(_ dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]?) -> [AccountBalances] {
        let figures = figures ?? AccountFigures.of(dataset, context: context)
        return dataset.accounts.map { AccountBalances.of($0, basis: figures[$0.account.uid]?.statementBasis) }
    }

    static func figures(_ dataset: Dataset, context: ReportContext, accounts: [String: AccountFigures]?) -> Figures {
        figures(accounts: balances(dataset, context: context, figures: accounts), qapitalGoals: dataset.qapital.goals,
                kivaBalance: dataset.kiva.balance, rates: dataset.rates, base: context.settings.baseCurrency, asOf: context.progress.asOf)
    }

    // MARK: View data

    struct LineView: Sendable, Encodable {
        let kind: String
        let name: String
        let amount: String
        let rate: String
        let converted: String
    }

    struct MonthRow: Sendable, Encodable {
        let label: String
        let href: String
        let day: String
        let total: String
        let notConverted: String
        let accounts: Int
    }

    struct IndexView: Sendable, Encodable {
        let title: String
        let base: String
        let rateNote: [String]
        let hasNow: Bool
        let nowDay: String
        let now: [LineView]
        let nowTotal: String
        let nowNotConverted: String?
        let months: [MonthRow]
        let hasMonths: Bool
        /// Whether any month-end has an amount without a rate (the column is shown only then).
        let hasNotConverted: Bool
        let withoutBalance: String?
        let chart: Chart?
    }

    struct MonthView: Sendable, Encodable {
        let title: String
        let day: String
        let base: String
        let rateNote: [String]
        let lines: [LineView]
        let total: String
        let notConverted: String?
        let previous: LinkView?
        let next: LinkView?
    }

    static func monthPath(_ month: CalendarMonth) -> String { "networth/\(month)" }

    /// `1 GBP = 1.1362 EUR (ECB, 30 Oct 2026)`; `–` for the base currency; why not, without a rate.
    static func rateText(_ line: Line, context: ReportContext) -> String {
        guard let conversion = line.conversion else { return "no rate on or before the day" }
        guard let rate = conversion.rate else { return "–" }
        return context.rate(rate)
    }

    static func lineView(_ line: Line, context: ReportContext) -> LineView {
        LineView(kind: line.kind.rawValue, name: line.name, amount: context.money(line.amount), rate: rateText(line, context: context),
                 converted: line.conversion.map { context.money($0.converted) } ?? "not converted")
    }

    static func rateNote(_ figures: Figures, context: ReportContext) -> String {
        let base = figures.base.code
        guard figures.hasRates else {
            return "There are no exchange rates in the data folder (rates/), so amounts in currencies other than \(base) are not "
                + "converted and are left out of the totals, shown apart. `nestegg fetch rates` brings the ECB's reference rates."
        }
        return "Amounts in other currencies are converted into \(base) at the ECB's reference rate of the day, or of the last working "
            + "day before it, as Frankfurter publishes it: the amount divided by the rate, rounded to the nearest minor unit "
            + "(halves away from zero). Each line shows the rate used."
    }

    /// What was not converted, per currency; `nil` when everything was.
    static func notConvertedText(_ totals: MoneyTotals, context: ReportContext) -> String? {
        totals.isEmpty ? nil : context.money(totals)
    }

    public static func pages(for dataset: Dataset, context: ReportContext, figures accounts: [String: AccountFigures]? = nil) -> [Page] {
        guard !dataset.accounts.isEmpty else { return [] }
        let figures = figures(dataset, context: context, accounts: accounts)
        guard !figures.months.isEmpty || figures.now != nil else { return [] }
        let crumbs = [Link("Dashboard", "index")]
        var pages = [Page(path: section.path, title: "Net worth", template: "networth-index", section: section.id, breadcrumbs: crumbs,
                          view: indexView(figures, context: context))]
        let monthCrumbs = crumbs + [Link("Net worth", section.path)]
        for (index, holdings) in figures.months.enumerated() {
            let previous = index > 0 ? figures.months[index - 1].month : nil
            let next = index + 1 < figures.months.count ? figures.months[index + 1].month : nil
            // The accounts alone: a month-end has no goals or Kiva credit in the data, so it is not net worth.
            let title = "Account balances, \(TransactionsInsightsReport.monthLabel(holdings.month, context: context))\(context.progress.soFar(holdings.month))"
            pages.append(Page(path: monthPath(holdings.month), title: title, template: "networth-month", section: section.id,
                              breadcrumbs: monthCrumbs, view: MonthView(
                                title: title, day: context.date(holdings.day), base: figures.base.code, rateNote: Prose.lines(rateNote(figures, context: context)),
                                lines: holdings.lines.map { lineView($0, context: context) }, total: context.money(holdings.total),
                                notConverted: notConvertedText(holdings.notConverted, context: context),
                                previous: previous.map { LinkView(title: TransactionsInsightsReport.monthLabel($0, context: context), href: ReportContext.href(monthPath($0))) },
                                next: next.map { LinkView(title: TransactionsInsightsReport.monthLabel($0, context: context), href: ReportContext.href(monthPath($0))) })))
        }
        return pages
    }

    static func indexView(_ figures: Figures, context: ReportContext) -> IndexView {
        let now = figures.now
        let rows = figures.months.reversed().map { holdings in
            MonthRow(label: TransactionsInsightsReport.monthLabel(holdings.month, context: context) + context.progress.soFar(holdings.month),
                     href: ReportContext.href(monthPath(holdings.month)), day: context.date(holdings.day), total: context.money(holdings.total),
                     notConverted: notConvertedText(holdings.notConverted, context: context) ?? "", accounts: holdings.lines.count)
        }
        let maximum = figures.months.map(\.total.minorUnits).max() ?? 0
        let chart = figures.months.count < 2 ? nil : Chart.columns(
            // A column's label is its month's abbreviation (thirteen full labels overlap); the title names the span.
            figures.months.map { Chart.Bar(label: context.locale.monthAbbreviations[$0.month.month - 1], value: max(0, $0.total.minorUnits),
                                           valueText: context.money($0.total), shortText: context.compactMoney($0.total)) },
            title: "The accounts' total in \(figures.base.code) at each month-end, \(TransactionsInsightsReport.monthLabel(figures.months[0].month, context: context)) to "
                + "\(TransactionsInsightsReport.monthLabel(figures.months[figures.months.count - 1].month, context: context)), converted amounts only",
            axis: Chart.moneyAxis(upTo: Money(minorUnits: maximum, currency: figures.base), format: context.compactMoney))
        return IndexView(
            title: "Net worth", base: figures.base.code, rateNote: Prose.lines(rateNote(figures, context: context)),
            hasNow: now != nil, nowDay: now.map { context.date($0.day) } ?? "", now: now?.lines.map { lineView($0, context: context) } ?? [],
            nowTotal: now.map { context.money($0.total) } ?? "", nowNotConverted: now.flatMap { notConvertedText($0.notConverted, context: context) },
            months: rows, hasMonths: !rows.isEmpty, hasNotConverted: figures.months.contains { !$0.isComplete },
            withoutBalance: figures.withoutBalance.isEmpty ? nil : figures.withoutBalance.joined(separator: ", "),
            chart: chart)
    }

    /// The start page's net worth: the total as of the data's date, and what it leaves out.
    public static func dashboard(for dataset: Dataset, context: ReportContext, figures accounts: [String: AccountFigures]? = nil) -> DashboardSection? {
        let figures = figures(dataset, context: context, accounts: accounts)
        guard let now = figures.now else { return nil }
        var figuresShown = [DashboardSection.Figure(label: "Net worth on \(context.date(now.day))", value: context.money(now.total),
                                                    amount: now.total, id: "net-worth")]
        if !now.isComplete {
            figuresShown.append(.init(label: "Not converted (no rate)", value: context.money(now.notConverted), id: "not-converted"))
        }
        return DashboardSection(title: "Net worth", href: ReportContext.href(section.path),
                                linkText: "Each account, goal and rate, and every month-end", figures: figuresShown)
    }
}

extension CalendarMonth {
    /// The month after this one.
    var next: CalendarMonth { month == 12 ? CalendarMonth(year: year + 1, month: 1) : CalendarMonth(year: year, month: month + 1) }
}
