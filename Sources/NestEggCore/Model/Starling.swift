/// A Starling account (`GET /api/v2/accounts`).
public struct StarlingAccount: Sendable, Hashable {
    public var uid: String
    public var type: String
    public var currency: Currency
    public var name: String
    public var createdAt: Instant?
}

/// A Starling feed item (`GET /api/v2/feed/account/{accountUid}/category/{categoryUid}`).
public struct FeedItem: Sendable, Hashable {
    public enum Direction: String, Sendable, CaseIterable { case `in` = "IN", out = "OUT" }

    public var uid: String
    public var amount: Money
    public var direction: Direction
    public var transactionTime: Instant
    /// SETTLED, PENDING, DECLINED, UPCOMING, REVERSED, REFUNDED…: kept as written, since the API adds values.
    public var status: String
    /// MASTER_CARD, DIRECT_DEBIT, FASTER_PAYMENTS_IN, INTERNAL_TRANSFER…
    public var source: String
    public var counterPartyName: String
    public var reference: String
    public var spendingCategory: String?

    /// The amount with its sign: negative when money leaves the account.
    public var signedAmount: Money { direction == .out ? -amount : amount }
}

/// A Starling balance (`GET /api/v2/accounts/{accountUid}/balance`).
public struct StarlingBalance: Sendable, Hashable {
    public var cleared: Money
    public var effective: Money?
}

/// A Starling savings goal (`GET /api/v2/account/{accountUid}/savings-goals`).
public struct StarlingSavingsGoal: Sendable, Hashable {
    public var uid: String
    public var name: String
    public var target: Money?
    public var totalSaved: Money
    public var savedPercentage: Int?
    public var state: String?
}

/// Everything loaded for one account: the account, its feed, its balance and its goals.
public struct StarlingAccountData: Sendable {
    public var account: StarlingAccount
    public var feed: [FeedItem]
    public var balance: StarlingBalance?
    public var savingsGoals: [StarlingSavingsGoal]
}
