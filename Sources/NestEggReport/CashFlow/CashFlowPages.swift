import NestEggModel
import NestEggSupport
/// The cash-flow pages' view data (``CashFlowReport``).
extension CashFlowReport {
    struct MonthRow: Sendable, Encodable {
        let label: String
        let href: String
        let income: String
        let spending: String
        let net: String
        let savingsRate: String
        let movedOut: String
    }

    struct IndexView: Sendable, Encodable {
        let title: String
        let base: String
        let rule: [String]
        let months: [MonthRow]
        let notConverted: String?
    }

    struct FlowRow: Sendable, Encodable {
        let from: String
        let to: String
        let amount: String
    }

    struct CompareRow: Sendable, Encodable {
        let category: String
        let now: String
        let previous: String
        let previousChange: String
        let previousPercent: String
        let lastYear: String
        let lastYearChange: String
        let lastYearPercent: String
        let isTotal: Bool
    }

    struct MonthView: Sendable, Encodable {
        let title: String
        let base: String
        let rule: [String]
        let income: String
        let spending: String
        let net: String
        let savingsRate: String
        let movedOut: String
        let movedIn: String
        let chart: Chart?
        let flows: [FlowRow]
        let flowTotal: String
        let hasFlows: Bool
        /// The sentence naming the rates used (``ReportContext/ratesUsed(_:of:lead:)``), as lines.
        let rates: [String]
        let hasRates: Bool
        let notConverted: String?
        let compareNote: [String]
        let previousLabel: String
        let lastYearLabel: String
        let comparison: [CompareRow]
        let hasComparison: Bool
        /// Whether the data reaches the same month a year before: its columns are shown only then.
        let hasLastYear: Bool
        let previous: LinkView?
        let next: LinkView?
        let reconciliation: ReconciliationView?
        /// What a move between two accounts of different currencies gained or lost to the exchange rates, in words.
        let exchangeNotes: [[String]]
    }

    /// ``Reconciliation`` as a table: a column per currency.
    struct ReconciliationView: Sendable, Encodable {
        struct Row: Sendable, Encodable {
            let label: String
            let amounts: [String]
            let isTotal: Bool
        }
        /// The first column's head: the month.
        let heading: String
        let currencies: [String]
        let rows: [Row]
        let note: [String]
    }

    static func reconciliationView(_ month: Month, _ figures: Reconciliation, context: ReportContext) -> ReconciliationView? {
        guard !figures.spent.isEmpty || !figures.statementsOut.isEmpty else { return nil }
        let base = context.settings.baseCurrency
        var all = MoneyTotals()
        for totals in [figures.spent, figures.app, figures.notSettled, figures.moneyOut, figures.movedOut, figures.statementsOut] {
            for amount in totals.amounts { all.add(Money(minorUnits: 0, currency: amount.currency)) }
        }
        let currencies = TransactionsRules.ordered(all.amounts.map(\.currency), preferred: base)
        func row(_ label: String, _ totals: MoneyTotals, less: Bool = false, total: Bool = false) -> ReconciliationView.Row {
            .init(label: label, amounts: currencies.map { context.money(less ? -totals[$0] : totals[$0]) }, isTotal: total)
        }
        let label = TransactionsInsightsReport.monthLabel(month.month, context: context)
        let note = "Money out above, \(context.money(month.spending)), is the settled money out of the bank accounts, each currency "
            + "converted into \(base.code) at the month's rate. Spent is the figure the start page, the insights and the budgets give for "
            + "\(label). \(HeadlineReport.definition)"
        return ReconciliationView(
            heading: label + context.progress.soFar(month.month), currencies: currencies.map(\.code),
            rows: [row("Spent", figures.spent, total: true),
                   row("Less the transactions app's pinned entries", figures.app, less: true),
                   row("Less payments pending, or in another currency than their account's (the statements list them apart)", figures.notSettled, less: true),
                   row("Money out of the bank accounts, settled", figures.moneyOut, total: true),
                   row("Plus moves to savings goals and your own accounts", figures.movedOut),
                   row("The statements' money out", figures.statementsOut, total: true)],
            note: Prose.lines(note))
    }

    static func monthPath(_ month: CalendarMonth) -> String { "cashflow/\(month)" }

    static func rule(_ base: Currency) -> String {
        "Money in and out of the bank accounts, settled payments only. Moving money to or from a savings goal or between "
            + "your own accounts is neither income nor spending; it is shown on its own, a move between two of the accounts "
            + "named by the other account (one to an account the data does not hold counts with the savings goals). Net is money in less money out; the savings "
            + "rate is net as a share of money in, shown as – while a month in progress has more out than in (its income has not "
            + "come yet) and below −100%. Amounts in other currencies are converted into \(base.code) at the rate of the "
            + "month's last day (the latest day of the data, in the month in progress)."
    }

    static func name(_ end: Flow.End) -> String {
        switch end {
        case .source(let name), .account(let name), .category(let name): return name
        case .movedIn: return "From savings goals"
        case .movedOut: return "To savings goals"
        case .fromOwnAccount(let name): return "From \(name)"
        case .toOwnAccount(let name): return "To \(name)"
        case .fromBalance: return "From the accounts' balances"
        case .leftOver: return "Left in the accounts"
        }
    }

    /// "£450.00 went from Personal to Euro Travel and arrived as €522.90. At the month's rate that is
    /// £450.00 sent and £455.69 arrived: the £5.69 more is the difference between the rate the bank
    /// used and the month's, not money earned or spent."
    static func exchangeNote(_ move: ExchangeDifference, context: ReportContext) -> String {
        let difference = move.difference
        let between = difference.isZero ? "they are the same"
            : "the \(context.money(difference.isNegative ? -difference : difference)) \(difference.isNegative ? "less" : "more") is the difference "
                + "between the rate the bank used and the month's, not money earned or spent"
        return "\(context.money(move.sent)) went from \(move.from) to \(move.to) and arrived as \(context.money(move.received)). "
            + "At the month's rate that is \(context.money(move.sentInBase)) sent and \(context.money(move.receivedInBase)) arrived: \(between)."
    }

    static func percentText(_ value: Int?) -> String { value.map { "\($0 > 0 ? "+" : "")\($0)%" } ?? "–" }

    /// The diagram of a month's flows: sources and moves in (column 0), accounts (1), categories, moves out and what was left (2).
    static func chart(_ month: Month, context: ReportContext) -> Chart? {
        guard !month.flows.isEmpty else { return nil }
        var index: [Flow.End: Int] = [:]
        var values: [Flow.End: Int128] = [:]
        var order: [Flow.End] = []
        func column(_ end: Flow.End) -> Int {
            switch end {
            case .source, .movedIn, .fromOwnAccount, .fromBalance: return 0
            case .account: return 1
            case .category, .movedOut, .toOwnAccount, .leftOver: return 2
            }
        }
        for flow in month.flows {
            for end in [flow.from, flow.to] where index[end] == nil {
                index[end] = order.count
                order.append(end)
            }
            // A node's size is what enters it, or for a source what leaves it.
            values[column(flow.to) == 0 ? flow.from : flow.to, default: 0] += flow.amount.minorUnits
            if column(flow.from) == 0 { values[flow.from, default: 0] += flow.amount.minorUnits }
        }
        // Columns in a stable order: the largest first, names breaking ties.
        func rank(_ end: Flow.End) -> Int {
            switch end {
            case .fromBalance, .leftOver: return 2
            case .movedIn, .movedOut, .fromOwnAccount, .toOwnAccount: return 1
            default: return 0
            }
        }
        let sorted = order.sorted { a, b in
            (column(a), rank(a), -(values[a] ?? 0), name(a)) < (column(b), rank(b), -(values[b] ?? 0), name(b))
        }
        var position: [Flow.End: Int] = [:]
        for (offset, end) in sorted.enumerated() { position[end] = offset }
        let nodes = sorted.map { end -> Chart.Flow.Node in
            let colour: Int
            switch end {
            case .source: colour = 3
            case .account: colour = 1
            case .category: colour = 2
            case .movedIn, .movedOut, .fromOwnAccount, .toOwnAccount: colour = 4
            case .fromBalance, .leftOver: colour = 8
            }
            let value = values[end] ?? 0
            return Chart.Flow.Node(column: column(end), label: name(end), value: value,
                                   valueText: context.money(Money(minorUnits: value, currency: month.income.currency)), colorIndex: colour)
        }
        let links = month.flows.sorted { (position[$0.from]!, position[$0.to]!) < (position[$1.from]!, position[$1.to]!) }.map {
            Chart.Flow.Link(from: position[$0.from]!, to: position[$0.to]!, value: $0.amount.minorUnits, valueText: context.money($0.amount))
        }
        return .flow(Chart.Flow(nodes: nodes, links: links),
                     title: "Where the money came from and went in \(TransactionsInsightsReport.monthLabel(month.month, context: context)), in \(month.income.currency.code)")
    }

    /// `months`: the cash flow's months (``months(_:context:figures:)``); without them, worked out
    /// from every account's feed (a dataset that holds every feed).
    /// `reconciliations`: each month's money out against spent (``reconciliations(_:totals:app:months:)``);
    /// without them, worked out from every account's feed too.
    public static func pages(for dataset: Dataset, context: ReportContext, months: [Month]? = nil,
                             reconciliations: [CalendarMonth: Reconciliation]? = nil) -> [Page] {
        let figures = months == nil || reconciliations == nil ? AccountFigures.of(dataset, context: context) : [:]
        let months = months ?? self.months(dataset, context: context, figures: figures)
        let reconciliations = reconciliations ?? self.reconciliations(
            accounts(dataset, figures: figures), totals: SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock)),
            app: SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock, bankAccounts: false)), months: months.map(\.month))
        guard !months.isEmpty else { return [] }
        let base = context.settings.baseCurrency
        let crumbs = [Link("Dashboard", "index")]
        func label(_ month: CalendarMonth) -> String { TransactionsInsightsReport.monthLabel(month, context: context) + context.progress.soFar(month) }
        let notConverted = MoneyTotals(months.flatMap(\.notConverted.amounts))
        let rows = months.reversed().map { month in
            MonthRow(label: label(month.month), href: ReportContext.href(monthPath(month.month)), income: context.money(month.income),
                     spending: context.money(month.spending), net: HeadlineReport.signed(month.net, context: context),
                     savingsRate: month.savingsRate.map { "\($0)%" } ?? "–", movedOut: context.money(month.movedOut))
        }
        var pages = [Page(path: section.path, title: "Cash flow", template: "cashflow-index", section: section.id, breadcrumbs: crumbs,
                          view: IndexView(title: "Cash flow", base: base.code, rule: Prose.lines(rule(base)), months: rows,
                                          notConverted: notConverted.isEmpty ? nil : context.money(notConverted)))]
        let monthCrumbs = crumbs + [Link("Cash flow", section.path)]
        for (index, month) in months.enumerated() {
            let title = "Cash flow, \(label(month.month))"
            let complete = context.progress.isComplete(month.month)
            pages.append(Page(path: monthPath(month.month), title: title, template: "cashflow-month", section: section.id,
                              breadcrumbs: monthCrumbs, view: monthView(months, index: index, title: title, complete: complete,
                                                                          reconciliation: reconciliations[month.month], context: context)))
        }
        return pages
    }

    static func monthView(_ months: [Month], index: Int, title: String, complete: Bool, reconciliation: Reconciliation? = nil,
                          context: ReportContext) -> MonthView {
        let month = months[index]
        let base = month.income.currency
        let comparison = comparison(months, at: index, complete: complete)
        func row(_ row: Comparison.Row, total: Bool) -> CompareRow {
            CompareRow(category: row.category, now: context.money(row.previous.now),
                       previous: row.previous.then.map(context.money) ?? "–", previousChange: row.previous.change.map { HeadlineReport.signed($0, context: context) } ?? "–",
                       previousPercent: percentText(row.previous.percent),
                       lastYear: row.lastYear.then.map(context.money) ?? "–", lastYearChange: row.lastYear.change.map { HeadlineReport.signed($0, context: context) } ?? "–",
                       lastYearPercent: percentText(row.lastYear.percent), isTotal: total)
        }
        // The same month a year before only once the data reaches back to it.
        let against = comparison.hasLastYear ? "the month before and the same month a year before" : "the month before"
        let compareNote = Prose.lines(complete
            ? "Each category's settled money out, as above, against the whole of \(against)."
            : "This month is in progress: each category's settled money out, as above, on its days 1 to \(comparison.throughDay) against days 1 to "
                + "\(comparison.throughDay) of \(against).")
        let link = { (month: CalendarMonth) in LinkView(title: TransactionsInsightsReport.monthLabel(month, context: context), href: ReportContext.href(monthPath(month))) }
        let flowTotal = month.flows.filter { if case .account = $0.to { true } else { false } }.reduce(Money.zero(base)) { $0 + $1.amount }
        return MonthView(
            title: title, base: base.code, rule: Prose.lines(rule(base)), income: context.money(month.income), spending: context.money(month.spending),
            net: HeadlineReport.signed(month.net, context: context), savingsRate: month.savingsRate.map { "\($0)%" } ?? "–",
            movedOut: context.money(month.movedOut), movedIn: context.money(month.movedIn), chart: chart(month, context: context),
            flows: month.flows.map { FlowRow(from: name($0.from), to: name($0.to), amount: context.money($0.amount)) },
            flowTotal: context.money(flowTotal), hasFlows: !month.flows.isEmpty,
            rates: Prose.lines(context.ratesUsed(month.rates, of: month.inProgress ? "the data's latest day" : "the month's last day")), hasRates: !month.rates.isEmpty,
            notConverted: month.notConverted.isEmpty ? nil : context.money(month.notConverted),
            compareNote: compareNote,
            previousLabel: TransactionsInsightsReport.monthLabel(comparison.previousMonth, context: context),
            lastYearLabel: TransactionsInsightsReport.monthLabel(comparison.lastYearMonth, context: context),
            comparison: comparison.rows.map { row($0, total: false) } + [row(comparison.total, total: true)],
            hasComparison: !comparison.rows.isEmpty, hasLastYear: comparison.hasLastYear,
            previous: index > 0 ? link(months[index - 1].month) : nil,
            next: index + 1 < months.count ? link(months[index + 1].month) : nil,
            reconciliation: reconciliation.flatMap { reconciliationView(month, $0, context: context) },
            exchangeNotes: month.exchangeDifferences.map { Prose.lines(exchangeNote($0, context: context)) })
    }

    /// The start page's cash flow: the latest month's money in, out, net and savings rate.
    public static func dashboard(for dataset: Dataset, context: ReportContext, months: [Month]? = nil) -> DashboardSection? {
        guard let month = (months ?? self.months(dataset, context: context, figures: AccountFigures.of(dataset, context: context))).last else { return nil }
        let label = TransactionsInsightsReport.monthHeading(month.month, context: context)
        return DashboardSection(title: "Cash flow, \(label)", href: ReportContext.href(monthPath(month.month)),
                                linkText: "Where the money came from and went, month by month", figures: [
                                    .init(label: "Money in", value: context.money(month.income), amount: month.income, id: "money-in"),
                                    .init(label: "Money out", value: context.money(month.spending), amount: month.spending, id: "money-out"),
                                    .init(label: "Net", value: HeadlineReport.signed(month.net, context: context), amount: month.net, id: "net"),
                                    .init(label: "Savings rate", value: month.savingsRate.map { "\($0)%" } ?? "–", id: "savings-rate"),
                                ])
    }
}
