import NestEggModel
import NestEggSupport
/// Cash flow (`cashflow/index`, `cashflow/<yyyy-mm>`): per month, the money that came into the
/// household's bank accounts, the money that went out, the difference and the savings rate;
/// a money-flow diagram (sources → accounts → categories and savings) with its table; and each
/// spending category against the month before and the same month a year before.
///
/// The site-wide step works from each account's ``AccountCashFlow`` alone. Each account's sums
/// are converted into the base currency once per month, source and category, at the rate of the
/// month's last day (the as-of date in the month in progress; ``ExchangeRates/convert(_:on:)``),
/// and every total is a sum of those converted amounts, so the diagram, its table and the totals
/// agree to the penny.
public enum CashFlowReport {
    public static let section = Section(id: "cashflow", title: "Cash flow", path: "cashflow/index")

    // MARK: Figures

    /// One flow of the diagram, in the base currency.
    public struct Flow: Sendable, Hashable {
        public enum End: Sendable, Hashable {
            case source(String), account(String), category(String)
            /// Moves between savings goals and an account (goals are not accounts of the data).
            case movedIn, movedOut, fromBalance, leftOver
            /// A move from or to another of the household's accounts, named by it.
            case fromOwnAccount(String), toOwnAccount(String)
        }
        public let from: End
        public let to: End
        public let amount: Money
    }

    public struct Month: Sendable {
        public let month: CalendarMonth
        /// The day the rates are taken on: the month's last, or the as-of date.
        public let day: CivilDate
        /// Through which day of the month the figures run (the last, or the as-of date's).
        public let throughDay: Int
        public let income: Money
        public let spending: Money
        public let movedOut: Money
        public let movedIn: Money
        /// Spending per category, in the base currency.
        public let categories: [String: Money]
        /// Spending per category on days 1…`throughDay` of the month only, for comparisons.
        public let categoriesByDay: [String: [Int: Money]]
        public let flows: [Flow]
        /// The rates used, by currency.
        public let rates: [ExchangeRate]
        /// Sums that could not be converted (no rate), per currency: in none of the figures.
        public let notConverted: MoneyTotals
        /// Moves between two of the household's accounts in different currencies, each side in the
        /// base currency: what left one and what arrived in the other differ by the exchange rates'
        /// difference (the bank's rate against the month's), which is neither income nor spending.
        public let exchangeDifferences: [ExchangeDifference]

        public var net: Money { income - spending }
        /// Whether the figures stop before the month's last day (the data's as-of date is in it).
        public var inProgress: Bool { throughDay < month.lastDay.day }

        /// (income − spending) ÷ income as a whole percentage, rounded toward zero. `nil` without
        /// income; `nil` too while the month is in progress and more has gone out than come in
        /// (payday has not come yet: −721% would say nothing), and below −100% (more than twice the
        /// income spent: a rate tells less than the net beside it).
        public var savingsRate: Int? {
            guard let rate = ReportContext.percent(net.minorUnits, of: income.minorUnits) else { return nil }
            if inProgress && rate < 0 { return nil }
            return rate < -100 ? nil : rate
        }

        /// Spending per category on days 1…`day`.
        public func categories(throughDay day: Int) -> [String: Money] {
            day >= throughDay ? categories : categoriesByDay.compactMapValues { AccountCashFlow.sum($0.filter { $0.key <= day }.values) }
        }
    }

    /// A move between two of the household's accounts, as it left one and arrived in the other.
    public struct ExchangeDifference: Sendable, Hashable {
        public let from: String
        public let to: String
        /// What left `from`, and what arrived in `to` (in `to`'s currency), each also in the base currency.
        public let sent: Money
        public let received: Money
        public let sentInBase: Money
        public let receivedInBase: Money
        public var difference: Money { receivedInBase - sentInBase }
    }

    public static func months(_ accounts: [AccountCashFlow], rates: ExchangeRates?, base: Currency, asOf: CivilDate?) -> [Month] {
        let firsts = accounts.compactMap { $0.months.first?.month }
        guard let first = firsts.min() else { return [] }
        let lastMonth = asOf.map(CalendarMonth.init) ?? accounts.compactMap { $0.months.last?.month }.max() ?? first
        var byAccount: [[CalendarMonth: AccountCashFlow.Month]] = accounts.map { Dictionary($0.months.map { ($0.month, $0) }, uniquingKeysWith: { a, _ in a }) }
        var result: [Month] = []
        var month = first
        while month <= lastMonth {
            let day = asOf.map { min(month.lastDay, $0) } ?? month.lastDay
            result.append(self.month(month, day: day, accounts: accounts, sums: byAccount.map { $0[month] }, rates: rates, base: base))
            month = month.next
        }
        byAccount = []
        return result
    }

    static func month(_ month: CalendarMonth, day: CivilDate, accounts: [AccountCashFlow], sums: [AccountCashFlow.Month?],
                      rates: ExchangeRates?, base: Currency) -> Month {
        var income = Money.zero(base), spending = Money.zero(base), movedOut = Money.zero(base), movedIn = Money.zero(base)
        var categories: [String: Money] = [:]
        var byDay: [String: [Int: Money]] = [:]
        var flows: [Flow] = []
        var used: [Currency: ExchangeRate] = [:]
        var notConverted = MoneyTotals()
        // The household's own accounts by name, and each move between two of them as sent and as received.
        struct Pair: Hashable { let from: String, to: String }
        // (A name two accounts share names neither: their moves count with the goals'.)
        var named: [String: Int] = [:]
        for account in accounts { named[account.name, default: 0] += 1 }
        let own = Set(named.filter { $0.value == 1 }.keys)
        var sent: [Pair: (Money, Money)] = [:], received: [Pair: (Money, Money)] = [:]
        func convert(_ amount: Money) -> Money? {
            if amount.currency == base { return amount }
            guard let conversion = rates?.convert(amount, on: day) else { notConverted.add(amount); return nil }
            if let rate = conversion.rate { used[rate.quote] = rate }
            return conversion.converted
        }
        for (account, sum) in zip(accounts, sums) {
            guard let sum else { continue }
            let name = account.name
            var into = Money.zero(base), outOf = Money.zero(base)
            for (source, amount) in sum.income.sorted(by: { $0.key < $1.key }) {
                guard let value = convert(amount) else { continue }
                flows.append(Flow(from: .source(source), to: .account(name), amount: value))
                income += value
                into += value
            }
            // Moves in: from another of the household's accounts by its name, from savings goals together.
            var fromGoals = Money.zero(base)
            for (other, amount) in sum.movedInFrom.sorted(by: { $0.key < $1.key }) where !amount.isZero {
                guard let value = convert(amount) else { continue }
                if own.contains(other) && other != name {
                    flows.append(Flow(from: .fromOwnAccount(other), to: .account(name), amount: value))
                    received[Pair(from: other, to: name)] = (amount, value)
                } else {
                    fromGoals += value
                }
                movedIn += value
                into += value
            }
            if !fromGoals.isZero { flows.append(Flow(from: .movedIn, to: .account(name), amount: fromGoals)) }
            for (category, amount) in sum.spending.sorted(by: { $0.key < $1.key }) {
                guard let value = convert(amount) else { continue }
                flows.append(Flow(from: .account(name), to: .category(category), amount: value))
                spending += value
                outOf += value
                categories[category] = (categories[category] ?? .zero(base)) + value
                // Each day's sum converted at the month's rate, for the same-days comparisons.
                for (dayOfMonth, amount) in sum.spendingByDay[category] ?? [:] {
                    if let value = convert(amount) { byDay[category, default: [:]][dayOfMonth] = (byDay[category]?[dayOfMonth] ?? .zero(base)) + value }
                }
            }
            var toGoals = Money.zero(base)
            for (other, amount) in sum.movedOutTo.sorted(by: { $0.key < $1.key }) where !amount.isZero {
                guard let value = convert(amount) else { continue }
                if own.contains(other) && other != name {
                    flows.append(Flow(from: .account(name), to: .toOwnAccount(other), amount: value))
                    sent[Pair(from: name, to: other)] = (amount, value)
                } else {
                    toGoals += value
                }
                movedOut += value
                outOf += value
            }
            if !toGoals.isZero { flows.append(Flow(from: .account(name), to: .movedOut, amount: toGoals)) }
            if into.minorUnits > outOf.minorUnits {
                flows.append(Flow(from: .account(name), to: .leftOver, amount: into - outOf))
            } else if outOf.minorUnits > into.minorUnits {
                flows.append(Flow(from: .fromBalance, to: .account(name), amount: outOf - into))
            }
        }
        // A move sent and received in one month between accounts of two currencies. Only when the
        // two sides are within a twentieth of each other: further apart, a move is likely missing
        // from one side (sent on the 31st, arrived on the 1st), and that is no rate's doing.
        let differences = sent.keys.sorted { ($0.from, $0.to) < ($1.from, $1.to) }.compactMap { pair -> ExchangeDifference? in
            guard let out = sent[pair], let arrived = received[pair], out.0.currency != arrived.0.currency else { return nil }
            let move = ExchangeDifference(from: pair.from, to: pair.to, sent: out.0, received: arrived.0, sentInBase: out.1, receivedInBase: arrived.1)
            guard move.difference.minorUnits.magnitude * 20 <= out.1.minorUnits.magnitude else { return nil }
            return move
        }
        // Per-day conversions of a foreign currency round each day apart: the by-day sums are for
        // comparing the same days of two months only, never shown as the month's total.
        return Month(month: month, day: day, throughDay: day.day, income: income, spending: spending, movedOut: movedOut, movedIn: movedIn,
                     categories: categories, categoriesByDay: byDay, flows: flows, rates: used.keys.sorted().map { used[$0]! },
                     notConverted: notConverted, exchangeDifferences: differences)
    }

    /// Every account's cash flow, as its figures carry it (``AccountFigures``, by UID), in the data's order.
    static func accounts(_ dataset: Dataset, figures: [String: AccountFigures]) -> [AccountCashFlow] {
        dataset.accounts.compactMap { figures[$0.account.uid]?.cashFlow }
    }

    static func months(_ dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]) -> [Month] {
        months(accounts(dataset, figures: figures), rates: dataset.rates, base: context.settings.baseCurrency, asOf: context.progress.asOf)
    }

    // MARK: Money out and spent

    /// How a month's money out meets what the site calls spent (``HeadlineReport/definition``),
    /// per currency, before any conversion: spent, less the transactions app's pinned entries and
    /// the payments not settled, is the bank accounts' settled money out; with the moves to savings
    /// goals and own accounts, the statements' money out.
    public struct Reconciliation: Sendable {
        public let spent: MoneyTotals
        public let app: MoneyTotals
        /// The bank accounts' part of spent that the cash flow does not count: payments pending,
        /// and any the bank gave in another currency than the account's (statements list both apart).
        public let notSettled: MoneyTotals
        public let moneyOut: MoneyTotals
        public let movedOut: MoneyTotals
        public let statementsOut: MoneyTotals
    }

    /// Each month's reconciliation: `totals` are the spending's (``SpendingTotals``), `app` the
    /// transactions app's part of them.
    public static func reconciliations(_ accounts: [AccountCashFlow], totals: SpendingTotals, app: SpendingTotals,
                                       months: [CalendarMonth]) -> [CalendarMonth: Reconciliation] {
        var settled: [CalendarMonth: (out: MoneyTotals, moved: MoneyTotals)] = [:]
        for account in accounts {
            for month in account.months {
                var sums = settled[month.month] ?? (MoneyTotals(), MoneyTotals())
                if let out = month.totalSpending { sums.out.add(out) }
                if !month.movedOut.isZero { sums.moved.add(month.movedOut) }
                settled[month.month] = sums
            }
        }
        var result: [CalendarMonth: Reconciliation] = [:]
        for month in months {
            let spent = totals.pinnedSum(month: month), fromApp = app.pinnedSum(month: month)
            let (out, moved) = settled[month] ?? (MoneyTotals(), MoneyTotals())
            var notSettled = MoneyTotals(), statementsOut = MoneyTotals()
            for amount in spent.amounts { notSettled.add(amount) }
            for amount in fromApp.amounts { notSettled.add(-amount) }
            for amount in out.amounts { notSettled.add(-amount); statementsOut.add(amount) }
            for amount in moved.amounts { statementsOut.add(amount) }
            result[month] = Reconciliation(spent: spent, app: fromApp, notSettled: notSettled, moneyOut: out, movedOut: moved,
                                           statementsOut: statementsOut)
        }
        return result
    }

    // MARK: Comparisons

    /// A figure against another: the change and its percentage of the other.
    public struct Change: Sendable {
        public let now: Money
        public let then: Money?
        public var change: Money? { then.map { now - $0 } }
        /// Rounded toward zero; `nil` when the other is missing or zero.
        public var percent: Int? {
            guard let then, then.minorUnits != 0 else { return nil }
            return Int(clamping: (now.minorUnits - then.minorUnits) * 100 / then.minorUnits.magnitude.clampedInt128)
        }
    }

    /// The month's spending per category (and in total) against the month before and the same
    /// month a year before; for a month in progress, against the same days of those months.
    public struct Comparison: Sendable {
        public struct Row: Sendable {
            public let category: String
            public let previous: Change
            public let lastYear: Change
        }
        public let rows: [Row]
        public let total: Row
        /// The day of the month the comparison runs through (the whole month: its last day).
        public let throughDay: Int
        public let previousMonth: CalendarMonth
        public let lastYearMonth: CalendarMonth
        public let hasPrevious: Bool
        public let hasLastYear: Bool
    }

    public static func comparison(_ months: [Month], at index: Int, complete: Bool) -> Comparison {
        let current = months[index]
        let base = current.spending.currency
        let previousMonth = current.month.previous
        let lastYearMonth = CalendarMonth(year: current.month.year - 1, month: current.month.month)
        let byMonth = Dictionary(months.map { ($0.month, $0) }, uniquingKeysWith: { a, _ in a })
        let day = complete ? 31 : current.throughDay
        let previous = byMonth[previousMonth]?.categories(throughDay: day)
        let lastYear = byMonth[lastYearMonth]?.categories(throughDay: day)
        let names = Set(current.categories.keys).union(previous?.keys ?? [:].keys).union(lastYear?.keys ?? [:].keys)
        func sum(_ values: [String: Money]?) -> Money? { values.map { AccountCashFlow.sum($0.values) ?? .zero(base) } }
        let rows = names.sorted().map { name in
            Comparison.Row(category: name,
                           previous: Change(now: current.categories[name] ?? .zero(base), then: previous.map { $0[name] ?? .zero(base) }),
                           lastYear: Change(now: current.categories[name] ?? .zero(base), then: lastYear.map { $0[name] ?? .zero(base) }))
        }
        let total = Comparison.Row(category: "Money out", previous: Change(now: current.spending, then: sum(previous)),
                                   lastYear: Change(now: current.spending, then: sum(lastYear)))
        return Comparison(rows: rows, total: total, throughDay: day, previousMonth: previousMonth,
                          lastYearMonth: lastYearMonth, hasPrevious: previous != nil, hasLastYear: lastYear != nil)
    }
}

extension UInt128 {
    var clampedInt128: Int128 { self > UInt128(Int128.max) ? Int128.max : Int128(self) }
}
