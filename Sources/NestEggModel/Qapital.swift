import NestEggSupport
/// A Qapital savings goal (`GET /savingsgoals`). Amounts are in the `qapital` source's currency.
public struct QapitalGoal: Sendable, Hashable {
    public enum Status: String, Sendable, CaseIterable { case active, deleted }

    public var id: Int
    public var name: String
    /// `goalImageURL` as written; the report shows it only when it is http(s) (``SafeURL``).
    public var imageURL: String?
    /// The owner (`userId`).
    public var ownerId: Int
    /// `targetAmount`; `nil` when the API says null (a goal without a target).
    public var target: Money?
    /// `currentBalance`: how much has been saved.
    public var saved: Money
    /// `created`, written by the API as `[year, month, day]`.
    public var created: CivilDate?
    public var status: Status
    /// `connectedUsers`: the users the goal is shared with (null in the API means none), without the owner.
    public var connectedUserIds: [Int]

    public init(id: Int, name: String, imageURL: String? = nil, ownerId: Int, target: Money?, saved: Money,
                created: CivilDate? = nil, status: Status = .active, connectedUserIds: [Int] = []) {
        self.id = id
        self.name = name
        self.imageURL = imageURL
        self.ownerId = ownerId
        self.target = target
        self.saved = saved
        self.created = created
        self.status = status
        self.connectedUserIds = connectedUserIds
    }
}

/// One event on a goal's feed (`GET /savingsgoals/:id/feed`), or an item of the later `/activities` shape.
public struct QapitalFeedItem: Sendable, Hashable {
    public var id: String
    /// `"saving"` in every known response.
    public var type: String
    public var timestamp: Instant
    /// The message as the API writes it, with HTML (`<strong>You</strong> made a roundup.`).
    /// The report turns it into Markdown with ``RichText/markdown(fromHTML:)``.
    public var messageHTML: String
    public var amount: Money
    /// Who saved it (may differ from the goal's owner).
    public var userId: Int
    /// The rule that triggered it; `nil` for a manual transfer (the API leaves the key out).
    public var ruleId: Int?

    public init(id: String, type: String = "saving", timestamp: Instant, messageHTML: String, amount: Money,
                userId: Int, ruleId: Int? = nil) {
        self.id = id
        self.type = type
        self.timestamp = timestamp
        self.messageHTML = messageHTML
        self.amount = amount
        self.userId = userId
        self.ruleId = ruleId
    }
}

/// A savings rule (`GET /savingsrules`).
public struct QapitalRule: Sendable, Hashable {
    public var id: Int
    /// `roundup` or `guilty_pleasure` (other values are kept and shown as written).
    public var type: RuleType
    /// For a round-up, the amount purchases are rounded up to; otherwise how much each trigger saves.
    public var amount: Money

    public init(id: Int, type: RuleType, amount: Money) {
        self.id = id
        self.type = type
        self.amount = amount
    }
}

/// A user (`GET /users/:id`).
public struct QapitalUser: Sendable, Hashable {
    public var id: Int
    public var displayName: String
    /// `avatarUrl` as written; the report shows it only when it is http(s).
    public var avatarURL: String?

    public init(id: Int, displayName: String, avatarURL: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.avatarURL = avatarURL
    }
}

/// Everything loaded from qapital/: savings goals, their feeds, rules and users.
public struct QapitalData: Sendable {
    /// The currency of every amount (Qapital's amounts carry none): `currencies.qapital`, USD by default.
    public var currency: Currency
    /// In the order of `savingsgoals.json`, duplicates of an id left out.
    public var goals: [QapitalGoal]
    /// Each goal's feed, by goal id, newest first (ties by item id).
    public var feeds: [Int: [QapitalFeedItem]]
    public var rules: [Int: QapitalRule]
    public var users: [Int: QapitalUser]

    public init(currency: Currency = .usd, goals: [QapitalGoal] = [], feeds: [Int: [QapitalFeedItem]] = [:],
                rules: [Int: QapitalRule] = [:], users: [Int: QapitalUser] = [:]) {
        self.currency = currency
        self.goals = goals
        self.feeds = feeds
        self.rules = rules
        self.users = users
    }

    public var isEmpty: Bool { goals.isEmpty }

    /// A goal's feed, newest first (empty when the goal has no feed file).
    public func feed(of goalId: Int) -> [QapitalFeedItem] { feeds[goalId] ?? [] }

    /// The newest item's time on a goal's feed.
    public func lastActivity(of goalId: Int) -> Instant? { feeds[goalId]?.first?.timestamp }

    /// The latest moment in this source, for the start page's "data as of" and the goals' "last N weeks".
    public var latestInstant: Instant? {
        feeds.values.compactMap { $0.map(\.timestamp).max() }.max()
    }

    /// Orders a feed newest first, ties broken by id, so output never depends on file order.
    public static func newestFirst(_ items: [QapitalFeedItem]) -> [QapitalFeedItem] {
        items.sorted { ($0.timestamp, $1.id) > ($1.timestamp, $0.id) }
    }
}
