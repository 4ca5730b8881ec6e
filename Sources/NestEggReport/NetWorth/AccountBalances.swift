import NestEggModel
import NestEggSupport
/// What net worth needs of one bank account (a pure function of that account's data alone):
/// its balance at the end of each month in its own currency, and its savings goals as they stand.
///
/// The balances are the statements' (``StatementPeriods``): worked back from the cleared balance
/// through the settled items in the account's currency, up to the account's own latest date.
public struct AccountBalances: Sendable, Hashable {
    public struct MonthEnd: Sendable, Hashable {
        public let month: CalendarMonth
        /// The balance at the end of the month's last day, or of ``AccountBalances/through`` in its last month.
        public let balance: Money
    }

    /// A savings goal's money as it stands (the data gives no history of it).
    public struct Goal: Sendable, Hashable {
        public let name: String
        public let saved: Money
    }

    public let uid: String
    public let name: String
    public let currency: Currency
    /// Oldest first, one a month from the month the account opened; empty without a cleared
    /// balance in the account's currency (then no balance is known).
    public let monthEnds: [MonthEnd]
    /// The last day the balances are known: the account's latest item (or opening) date.
    public let through: CivilDate?
    public let goals: [Goal]

    /// The account's month-end balances, to its own latest date.
    public static func of(_ data: AccountData, clock: LocalClock) -> AccountBalances {
        of(data, basis: StatementPeriods.basis(for: data, clock: clock))
    }

    /// The same from the account's statements' basis (``StatementPeriods/basis(for:clock:)``),
    /// however it was obtained.
    public static func of(_ data: AccountData, basis: StatementPeriods.Basis?) -> AccountBalances {
        let through = basis.map { max($0.opening, $0.latest ?? $0.opening) }
        let statements = StatementPeriods.statements(basis, asOf: through)
        let monthEnds = statements.compactMap { statement in statement.closing.map { MonthEnd(month: statement.month, balance: $0) } }
        let goals = data.savingsGoals.filter { $0.state != "ARCHIVED" }.map { Goal(name: $0.name, saved: $0.totalSaved) }
        return AccountBalances(uid: data.account.uid, name: data.account.name, currency: data.account.currency,
                               monthEnds: monthEnds, through: through, goals: goals)
    }

    /// The balance at the end of `month`: its own month's, or the latest one's carried on when the
    /// month is after the account's data (nothing moved since); `nil` before the account opened or
    /// without a balance.
    public func balance(atEndOf month: CalendarMonth) -> Money? {
        guard let first = monthEnds.first, month >= first.month, let last = monthEnds.last else { return nil }
        if month >= last.month { return last.balance }
        // One a month, from the first: the month's index is its offset.
        let offset = (month.year - first.month.year) * 12 + month.month - first.month.month
        return monthEnds[offset].balance
    }
}
