import NestEggSupport
/// A Starling account (`GET /api/v2/accounts`).
public struct StarlingAccount: Sendable, Hashable {
    public var uid: String
    public var type: String
    public var currency: Currency
    public var name: String
    public var createdAt: Instant?

    public init(uid: String, type: String, currency: Currency, name: String, createdAt: Instant? = nil) {
        self.uid = uid
        self.type = type
        self.currency = currency
        self.name = name
        self.createdAt = createdAt
    }
}

/// A Starling feed item (`GET /api/v2/feed/account/{accountUid}/category/{categoryUid}`).
/// Its fields are shared between copies (see ``SharedRecord``).
@dynamicMemberLookup
public struct FeedItem: Sendable, SharedRecord {
    public enum Direction: String, Sendable, CaseIterable { case `in` = "IN", out = "OUT" }

    public struct Fields: Sendable, Hashable {
        public var uid: String
        public var amount: Money
        public var direction: Direction
        public var transactionTime: Instant
        /// SETTLED, PENDING, DECLINED, UPCOMING, REVERSED, REFUNDED…: kept as written, since the API adds values.
        public var status: FeedStatus
        /// MASTER_CARD, DIRECT_DEBIT, FASTER_PAYMENTS_IN, INTERNAL_TRANSFER…
        public var source: FeedSource
        public var counterPartyName: String
        public var reference: String
        public var spendingCategory: String?
        /// What was paid or received before conversion (`sourceAmount`), when the feed gives one.
        public var sourceAmount: Money? = nil
        /// Whether the source gives the day only (a bank's export file): `transactionTime` is then
        /// noon UTC of that day, plus a millisecond per entry before it that day to keep the
        /// file's order, and no time of day is shown.
        public var dateOnly = false
    }

    private var box: SharedBox<Fields>

    public var fields: Fields {
        // Read in place (no copy of the fields for each one read).
        _read { yield box.value }
        set { box = SharedBox(newValue) }
    }

    public init(uid: String, amount: Money, direction: Direction, transactionTime: Instant, status: FeedStatus, source: FeedSource,
                counterPartyName: String, reference: String, spendingCategory: String?, sourceAmount: Money? = nil, dateOnly: Bool = false) {
        box = SharedBox(Fields(uid: uid, amount: amount, direction: direction, transactionTime: transactionTime, status: status,
                               source: source, counterPartyName: counterPartyName, reference: reference,
                               spendingCategory: spendingCategory, sourceAmount: sourceAmount, dateOnly: dateOnly))
    }

    /// The amount with its sign: negative when money leaves the account.
    public var signedAmount: Money { self.direction == .out ? -self.amount : self.amount }
}

/// A Starling balance (`GET /api/v2/accounts/{accountUid}/balance`).
public struct StarlingBalance: Sendable, Hashable {
    public var cleared: Money
    public var effective: Money?

    public init(cleared: Money, effective: Money? = nil) {
        self.cleared = cleared
        self.effective = effective
    }
}

/// A Starling savings goal (`GET /api/v2/account/{accountUid}/savings-goals`).
public struct StarlingSavingsGoal: Sendable, Hashable {
    public var uid: String
    public var name: String
    public var target: Money?
    public var totalSaved: Money
    public var savedPercentage: Int?
    public var state: String?

    public init(uid: String, name: String, target: Money? = nil, totalSaved: Money, savedPercentage: Int? = nil, state: String? = nil) {
        self.uid = uid
        self.name = name
        self.target = target
        self.totalSaved = totalSaved
        self.savedPercentage = savedPercentage
        self.state = state
    }
}

/// A postal address as Starling's `GET /api/v2/addresses` writes it: up to three lines, the post
/// town, the postcode and the ISO 3166 country code.
public struct PostalAddress: Sendable, Hashable, Codable {
    /// `line1`, `line2`, `line3`, the empty ones left out.
    public var lines: [String]
    public var postTown: String
    public var postCode: String
    public var countryCode: String

    public init(lines: [String], postTown: String, postCode: String, countryCode: String) {
        self.lines = lines
        self.postTown = postTown
        self.postCode = postCode
        self.countryCode = countryCode
    }

    /// The address as a letter is addressed in the UK: the lines, the post town in capitals, the
    /// postcode, and the country only when it is not the issuer's (`home`).
    public func printedLines(home: String = "GB") -> [String] {
        lines + [postTown.uppercased(), postCode] + (countryCode == home ? [] : [countryCode])
    }
}

/// Where an account's data comes from.
public enum AccountOrigin: String, Sendable, Hashable, Codable {
    /// `starling/`: Starling's API answers (round-ups are Starling's feature).
    case starling
    /// `imports/`: a bank's export files (OFX, camt, MT940, QIF, CSV).
    case imported
}

/// Everything loaded for one account, whatever its source (Starling's API or a bank's export
/// files, ``AccountOrigin``): the account, its transactions, its balance and its goals.
public struct AccountData: Sendable {
    public var account: StarlingAccount
    public var feed: [FeedItem]
    public var balance: StarlingBalance?
    public var savingsGoals: [StarlingSavingsGoal]
    /// `starling/identifiers/<accountUid>.json`: sort code, account number, IBAN, BIC.
    public var identifiers: StarlingIdentifiers? = nil
    /// `starling/account-holder.json`'s `accountHolderName` (one holder for the folder's accounts).
    public var holderName: String? = nil
    /// `starling/addresses.json`'s `current` address: where the holder lives (one for the folder's accounts).
    public var holderAddress: PostalAddress? = nil
    /// The data folder's files this account's own data is read from (feed, balance, savings goals,
    /// identifiers), whether each is there or not: what a page of this account alone depends on
    /// besides the rest of the folder (a build keeps such a page while they are unchanged).
    public var sources: [String] = []
    /// Where the account comes from: Starling's API, or a bank's export files in `imports/`.
    public var origin: AccountOrigin = .starling
    /// Whether the site shows the account's round-ups: Starling's feature, for its accounts; for
    /// another bank's only when `nestegg.json`'s `imports` rule asks (`"roundUps": true`).
    public var roundUps = true
    /// The latest transaction time in the account's feed as loaded.
    public var latestFeedInstant: Instant? { feed.lazy.map(\.transactionTime).max() }

    public init(account: StarlingAccount, feed: [FeedItem], balance: StarlingBalance? = nil, savingsGoals: [StarlingSavingsGoal],
                identifiers: StarlingIdentifiers? = nil, holderName: String? = nil) {
        self.account = account
        self.feed = feed
        self.balance = balance
        self.savingsGoals = savingsGoals
        self.identifiers = identifiers
        self.holderName = holderName
    }
}
