import NestEggModel
import NestEggSupport
/// What cash flow, comparisons and budgets need of one bank account (a pure function of that
/// account's data and the settings' category names): per month, the money that came in by
/// source, the money that went out by category, and what moved to and from savings goals, in the
/// account's own currency.
///
/// The rule: settled items in the account's currency count, as on its statements (pending,
/// upcoming, declined and reversed items do not; an item in another currency is apart there too).
/// An internal transfer (Starling's `INTERNAL_TRANSFER`: to or from a savings goal, or between the
/// household's own accounts) is a move, neither income nor spending. Every other incoming item is
/// income, named by its counterparty; every other outgoing item is spending, in its category
/// (``TransactionsRules``' names, the settings' `categories` applied).
public struct AccountCashFlow: Sendable, Hashable {
    public struct Month: Sendable, Hashable {
        public let month: CalendarMonth
        /// Income by source (counterparty), by name.
        public var income: [String: Money]
        /// Spending by category, by name.
        public var spending: [String: Money]
        /// Spending by counterparty, by name (``payee(of:)``): for the search and the counterparty pages.
        public var payees: [String: Money]
        /// Spending by category and day of the month (1…31), for comparing a month in progress with
        /// the same days of another month.
        public var spendingByDay: [String: [Int: Money]]
        /// Moved to savings goals or own accounts (out), and back (in), by the counterparty the
        /// feed names (a goal's name, another account's), so that a move between the household's
        /// own accounts can be named by the account.
        public var movedOutTo: [String: Money]
        public var movedInFrom: [String: Money]
        /// The account's currency: what a month without moves has moved.
        public let currency: Currency

        init(month: CalendarMonth, currency: Currency) {
            self.month = month
            self.currency = currency
            income = [:]
            spending = [:]
            payees = [:]
            spendingByDay = [:]
            movedOutTo = [:]
            movedInFrom = [:]
        }

        /// Every move out (to savings goals or own accounts), and every move back in.
        public var movedOut: Money { AccountCashFlow.sum(movedOutTo.values) ?? .zero(currency) }
        public var movedIn: Money { AccountCashFlow.sum(movedInFrom.values) ?? .zero(currency) }

        public var totalSpending: Money? { AccountCashFlow.sum(spending.values) }
    }

    public let uid: String
    public let name: String
    public let currency: Currency
    /// Months with at least one counted item, oldest first.
    public let months: [Month]

    /// The sum of amounts of one currency; `nil` for none.
    public static func sum<S: Sequence>(_ amounts: S) -> Money? where S.Element == Money {
        var total: Money?
        for amount in amounts { total = total.map { $0 + amount } ?? amount }
        return total
    }

    /// Whether an item is a move within the household rather than income or spending.
    public static func isMove(_ item: FeedItem) -> Bool { item.source == .internalTransfer }

    /// Who an outgoing item paid: its counterparty, or its reference when the feed names none.
    public static func payee(of item: FeedItem) -> String {
        let name = Text.trimmed(item.counterPartyName)
        if !name.isEmpty { return name }
        let reference = Text.singleLine(item.reference)
        return reference.isEmpty ? "Unnamed payee" : reference
    }

    public static func of(_ data: AccountData, clock: LocalClock, settings: Settings) -> AccountCashFlow {
        let currency = data.account.currency
        var categories = TransactionsRules.StarlingCategories(settings: settings)
        var months: [CalendarMonth: Month] = [:]
        for item in data.feed where StatementPeriods.apart(item, accountCurrency: currency) == nil {
            let date = clock.date(of: item.transactionTime)
            let key = CalendarMonth(date)
            var month = months[key] ?? Month(month: key, currency: currency)
            if isMove(item) {
                let other = Text.trimmed(item.counterPartyName)
                if item.direction == .in {
                    month.movedInFrom[other] = (month.movedInFrom[other].map { $0 + item.amount }) ?? item.amount
                } else {
                    month.movedOutTo[other] = (month.movedOutTo[other].map { $0 + item.amount }) ?? item.amount
                }
            } else if item.direction == .in {
                let source = Text.trimmed(item.counterPartyName).isEmpty ? "Unnamed payer" : Text.trimmed(item.counterPartyName)
                month.income[source] = (month.income[source].map { $0 + item.amount }) ?? item.amount
            } else {
                let name = categories.category(item.spendingCategory).name
                let payee = payee(of: item)
                month.payees[payee] = (month.payees[payee].map { $0 + item.amount }) ?? item.amount
                month.spending[name] = (month.spending[name].map { $0 + item.amount }) ?? item.amount
                month.spendingByDay[name, default: [:]][date.day] = (month.spendingByDay[name]?[date.day].map { $0 + item.amount }) ?? item.amount
            }
            months[key] = month
        }
        return AccountCashFlow(uid: data.account.uid, name: data.account.name, currency: currency,
                               months: months.values.sorted { $0.month < $1.month })
    }
}
