import NestEggModel
import NestEggSupport

/// The start page's headline, above every report's section: what a household looks for first.
///
/// - **Balance**: the accounts' balances on the data's as-of date, one figure per currency (never
///   added across currencies), with the change since the end of the month before, from the
///   statements' running balances (accounts without a balance file are left out, and say so).
/// - **Balance over time**: the month-end balances of the last twelve months, in the main
///   currency, as columns (the month in progress ends on the as-of date).
/// - **Spending**: this month so far against last month, the same days of it and all of it, so a
///   month in progress is compared fairly.
enum HeadlineReport {
    struct View: Sendable, Encodable {
        let balances: [BalanceView]
        let hasBalances: Bool
        let balanceDate: String?
        /// `since 31 Oct 2026`, when an earlier month-end balance exists.
        let changeSince: String?
        let balanceChart: Chart?
        let balanceChartCaption: String?
        /// Each column's month and balance, written out under the chart (a phone cannot hover).
        let balanceValues: [MonthValue]
        let excludedAccounts: String?
        let spending: SpendingView?
        /// The statements' index, where the balances come from (`.md`, and `.html` for raw HTML).
        let href: String?
        let htmlHref: String?
    }

    struct MonthValue: Sendable, Encodable {
        let month: String
        let amount: String
    }

    struct BalanceView: Sendable, Encodable {
        let amount: String
        /// `+£123.45` or `-£3.20`; nil without an earlier month-end.
        let change: String?
        let isDown: Bool
    }

    struct SpendingView: Sendable, Encodable {
        let month: String
        let spent: String
        let previousMonth: String
        let previousSpent: String
        /// `£1,900.00 by 21 Oct`, for a month in progress.
        let previousToDate: String?
        let href: String
        let htmlHref: String
        /// What the figure is made of, by source: `Bank accounts £1,357.83 · €451.27, the transactions app £756.69`.
        let sources: String?
        /// What "spent" counts, in one sentence (``definition``).
        let definition: String
        /// How the figure meets the statements' money out of the same month, when there are statements.
        let statements: String?
        /// The three sentences above as lines for the Markdown page (``Prose``); the HTML page
        /// shows each as one paragraph.
        let sourcesLines: [String]
        let definitionLines: [String]
        let statementsLines: [String]
    }

    /// What "spent" means wherever the site shows it (the start page, the insights, the
    /// transactions lists): money paid to others, never money moved between the household's own
    /// accounts and goals; a Starling payment counts from the moment it is made (pending too), a
    /// transactions app entry only when it is pinned (the app's own rule).
    static let definition = "Spent counts payments out of the bank accounts (pending ones too; not moves between your own accounts and savings goals) and the transactions app's pinned entries."

    /// How many month-ends the balance chart shows.
    static let chartMonths = 12

    static func view(for dataset: Dataset, spending items: [SpendingItem], context: ReportContext) -> View? {
        view(statements: StatementsReport.accounts(dataset, context: context), spending: SpendingTotals(items),
             app: SpendingTotals(items.filter { $0.source == .transactions }), context: context)
    }

    /// `app`: the transactions app's part of `totals` (the rest is the bank accounts').
    static func view(statements: StatementsReport.Computed?, spending totals: SpendingTotals, app: SpendingTotals? = nil,
                     context: ReportContext) -> View? {
        let balance = balances(statements, context: context)
        let spending = spendingView(totals, app: app, statements: statements, context: context)
        guard balance != nil || spending != nil else { return nil }
        let statements = ReportContext.href(StatementsReport.section.path)
        return View(
            balances: balance?.balances ?? [], hasBalances: !(balance?.balances.isEmpty ?? true),
            balanceDate: balance?.date, changeSince: balance?.since, balanceChart: balance?.chart,
            balanceChartCaption: balance?.caption, balanceValues: balance?.values ?? [], excludedAccounts: balance?.excluded, spending: spending,
            href: balance == nil ? nil : statements, htmlHref: balance == nil ? nil : Page.htmlLink(statements))
    }

    static func balances(_ statements: StatementsReport.Computed?, context: ReportContext)
        -> (balances: [BalanceView], date: String, since: String?, chart: Chart?, caption: String?, values: [MonthValue], excluded: String?)? {
        guard let (asOf, accounts) = statements else { return nil }
        // Month-end balances per month, per currency, over the accounts that have a balance.
        var byMonth: [CalendarMonth: MoneyTotals] = [:]
        var excluded: [String] = []
        let latestMonth = CalendarMonth(asOf)
        for account in accounts {
            let statements = account.statements
            guard let last = statements.last, let lastClosing = last.closing else { excluded.append(account.data.account.name); continue }
            for statement in statements {
                if let closing = statement.closing { byMonth[statement.month, default: MoneyTotals()].add(closing) }
            }
            // Each account's statements run to its own latest data: after it, nothing moved, and
            // its last balance holds to the data's as-of month (as ``AccountBalances`` carries it).
            var month = last.month.next
            while month <= latestMonth {
                byMonth[month, default: MoneyTotals()].add(lastClosing)
                month = month.next
            }
        }
        guard let now = byMonth[latestMonth], !now.isEmpty else { return nil }
        let before = byMonth[latestMonth.previous]
        // The currency most accounts hold leads, and is the chart's (on a tie, the first account's).
        var held: [(currency: Currency, count: Int)] = []
        for account in accounts where now.amounts.contains(where: { $0.currency == account.data.account.currency }) {
            if let index = held.firstIndex(where: { $0.currency == account.data.account.currency }) { held[index].count += 1 }
            else { held.append((account.data.account.currency, 1)) }
        }
        let main = held.enumerated().max { a, b in a.element.count != b.element.count ? a.element.count < b.element.count : a.offset > b.offset }?.element.currency
        let ordered = now.amounts.filter { $0.currency == main } + now.amounts.filter { $0.currency != main }
        let balances = ordered.map { amount -> BalanceView in
            guard let before else { return BalanceView(amount: context.money(amount), change: nil, isDown: false) }
            let change = amount - before[amount.currency]
            return BalanceView(amount: context.money(amount), change: signed(change, context: context), isDown: change.isNegative)
        }
        var chart: Chart?, caption: String?, values: [MonthValue] = []
        if let main {
            let months = byMonth.keys.sorted().suffix(chartMonths)
            let bars = months.map { month in
                let amount = byMonth[month]?[main] ?? Money.zero(main)
                return Chart.Bar(label: context.locale.monthAbbreviations[month.month - 1], value: amount.minorUnits,
                                 valueText: context.money(amount), shortText: context.compactMoney(amount))
            }
            if bars.count > 1 {
                let title = "Balance in \(main.code) at each month's end, the last \(bars.count) months"
                let highest = Money(minorUnits: bars.map(\.value).max() ?? 0, currency: main)
                chart = Chart.columns(bars, title: title + (context.progress.isComplete(latestMonth) ? "" : " (this month: on \(context.date(asOf)))"),
                                      axis: Chart.moneyAxis(upTo: highest, format: context.compactMoney))
                // The figures the columns stand for, in words (nothing only in a tooltip).
                let label = { (month: CalendarMonth) in TransactionsInsightsReport.monthLabel(month, context: context) }
                let amounts = months.map { ($0, byMonth[$0]?[main] ?? Money.zero(main)) }
                values = amounts.map { MonthValue(month: label($0.0), amount: context.money($0.1)) }
                let low = amounts.min { $0.1.minorUnits < $1.1.minorUnits }!, high = amounts.max { $0.1.minorUnits < $1.1.minorUnits }!
                caption = "Balance in \(main.code) at the end of each month: lowest \(context.money(low.1)) (\(label(low.0))), "
                    + "highest \(context.money(high.1)) (\(label(high.0)))"
                    + (context.progress.isComplete(latestMonth) ? "." : "; \(label(latestMonth)) so far, on \(context.date(asOf)).")
            }
        }
        let since = before == nil ? nil : "since \(context.date(latestMonth.previous.lastDay))"
        return (balances, context.date(asOf), since, chart, caption, values,
                excluded.isEmpty ? nil : "Not counted (no balance in the data): \(excluded.joined(separator: ", ")).")
    }

    static func spendingView(_ totals: SpendingTotals, app: SpendingTotals? = nil, statements: StatementsReport.Computed? = nil,
                             context: ReportContext) -> SpendingView? {
        guard let month = totals.lastMonths(count: 1).first else { return nil }
        let preferred = context.settings.currency(forSource: "transactions")
        let previous = month.previous
        var toDate: String?
        if !context.progress.isComplete(month), let asOf = context.progress.asOf {
            // The same days of the month before: up to the as-of day, or its last day if it has fewer.
            let day = CivilDate(year: previous.year, month: previous.month, day: min(asOf.day, previous.lastDay.day)) ?? previous.lastDay
            let sameDays = totals.pinnedSum(from: previous.firstDay, to: day)
            toDate = "\(TransactionsRules.text(sameDays, preferred: preferred, context: context)) by \(context.locale.formatShort(day))"
        }
        let bySource = app.flatMap { sources(totals, app: $0, month: month, preferred: preferred, context: context) }
        let note = statementsNote(statements, month: month, preferred: preferred, context: context)
        return SpendingView(
            month: TransactionsInsightsReport.monthHeading(month, context: context),
            spent: TransactionsRules.text(totals.pinnedSum(month: month), preferred: preferred, context: context),
            previousMonth: TransactionsInsightsReport.monthLabel(previous, context: context),
            previousSpent: TransactionsRules.text(totals.pinnedSum(month: previous), preferred: preferred, context: context),
            previousToDate: toDate, href: ReportContext.href(TransactionsInsightsReport.monthPath(month)),
            htmlHref: Page.htmlLink(ReportContext.href(TransactionsInsightsReport.monthPath(month))),
            sources: bySource, definition: definition, statements: note,
            sourcesLines: bySource.map { Prose.lines($0) } ?? [], definitionLines: Prose.lines(definition),
            statementsLines: note.map { Prose.lines($0) } ?? [])
    }

    /// The month's spending by source, when both have some: the bank accounts' part is the
    /// whole less the app's, per currency, so the two add up to the figure shown.
    static func sources(_ totals: SpendingTotals, app: SpendingTotals, month: CalendarMonth, preferred: Currency,
                        context: ReportContext) -> String? {
        let whole = totals.pinnedSum(month: month), fromApp = app.pinnedSum(month: month)
        var starling = MoneyTotals()
        for amount in whole.amounts where amount != fromApp[amount.currency] { starling.add(amount - fromApp[amount.currency]) }
        guard !starling.isEmpty, !fromApp.isEmpty else { return nil }
        var text = "Bank accounts \(TransactionsRules.text(starling, preferred: preferred, context: context)), "
            + "the transactions app \(TransactionsRules.text(fromApp, preferred: preferred, context: context))"
        var unpinned = MoneyTotals()
        for (cell, sum) in app.cells where cell.month == month && !cell.pinned { unpinned.add(Money(minorUnits: sum.minorUnits, currency: cell.currency)) }
        if !unpinned.isEmpty {
            text += " (not counting \(TransactionsRules.text(unpinned, preferred: preferred, context: context)) of its entries that are not pinned)"
        }
        return text + "."
    }

    /// The statements' money out in `month`, over every account, and why it differs from the
    /// spending: a statement lists what has settled, moves to the household's own accounts and
    /// goals included; spending counts pending payments and leaves those moves out.
    static func statementsNote(_ statements: StatementsReport.Computed?, month: CalendarMonth, preferred: Currency,
                               context: ReportContext) -> String? {
        guard let (_, accounts) = statements else { return nil }
        var out = MoneyTotals()
        for account in accounts {
            for statement in account.statements where statement.month == month { out.add(statement.moneyOut) }
        }
        guard !out.isEmpty else { return nil }
        return "The statements' money out in \(TransactionsInsightsReport.monthLabel(month, context: context)), "
            + "\(TransactionsRules.text(out, preferred: preferred, context: context)), is what has settled, moves to your own accounts "
            + "and goals included; Spent adds pending payments and the app's entries, and leaves those moves out."
    }

    /// `+£12.00`, `-£3.20`, `£0.00`.
    static func signed(_ amount: Money, context: ReportContext) -> String {
        amount.minorUnits > 0 ? "+" + context.money(amount) : context.money(amount)
    }
}
