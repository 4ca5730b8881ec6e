import NestEggSupport
/// One transaction of the transactions app (`transactions/transactions.json`).
public struct Transaction: Sendable, Hashable {
    /// When it happened: a date-time with a zone, or only a calendar date (a day on the site's clock).
    public enum When: Sendable, Hashable {
        case instant(Instant)
        case day(CivilDate)

        /// The local date on `clock`.
        public func date(on clock: LocalClock) -> CivilDate {
            switch self {
            case .instant(let instant): return clock.date(of: instant)
            case .day(let date): return date
            }
        }
    }

    public var id: String
    public var name: String
    /// The category as written (`food`, `Eating out`, …).
    public var category: String
    public var amount: Money
    public var date: When
    public var accountName: String
    public var provider: String?
    /// Unpinned transactions are shown but left out of sums and insights.
    public var pinned: Bool

    public init(id: String, name: String, category: String, amount: Money, date: When, accountName: String,
                provider: String? = nil, pinned: Bool = true) {
        self.id = id
        self.name = name
        self.category = category
        self.amount = amount
        self.date = date
        self.accountName = accountName
        self.provider = provider
        self.pinned = pinned
    }
}

/// Everything loaded from transactions/: the transactions app's model.
public struct TransactionsData: Sendable {
    /// In file order.
    public var transactions: [Transaction] = []

    public init(transactions: [Transaction] = []) { self.transactions = transactions }

    /// The latest moment in this source, for the start page's "data as of". A date without a time
    /// counts as noon UTC on that date, which is the same calendar date in every zone within ±12 hours.
    public var latestInstant: Instant? {
        transactions.map { transaction -> Instant in
            switch transaction.date {
            case .instant(let instant): return instant
            case .day(let date): return Instant(secondsSinceEpoch: Int64(date.daysSinceEpoch) * 86_400 + 43_200)
            }
        }.max()
    }
}
