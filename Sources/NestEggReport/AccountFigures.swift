import NestEggModel
import NestEggSupport
/// What the site-wide pages need of a Starling account's feed: its round-up weeks and its
/// statements without their items, and its spending.
///
/// A share of a sharded build renders the pages of its own accounts only (``Page/entity``). It
/// keeps their feeds; of every other account it reads the feed, works out these figures and lets
/// the feed go, so what it holds of the accounts grows with its share, not with the data.
public struct AccountFigures: Sendable {
    /// ``RoundUpRule/weeks(of:currency:clock:)``, each ``RoundUpRule/Week/trimmed()``.
    let weeks: [RoundUpRule.Week]
    /// ``StatementPeriods/statements(for:clock:asOf:)`` to the data's as-of date, each ``StatementPeriods/Statement/trimmed()``.
    let statements: [StatementPeriods.Statement]
    /// The account's part of the spending list (``TransactionsRules/items(from:clock:elsewhere:)``).
    let spending: [SpendingItem]

    /// `context` must be the whole data's (``ReportContext/init(dataset:)``): statements run to its as-of date.
    public init(_ data: StarlingAccountData, context: ReportContext) {
        weeks = RoundUpRule.weeks(of: data.keptFeed, currency: data.account.currency, clock: context.clock).map { $0.trimmed() }
        statements = StatementPeriods.statements(for: data, clock: context.clock, asOf: context.progress.asOf).map { $0.trimmed() }
        var categories = TransactionsRules.StarlingCategories(settings: context.settings)
        spending = TransactionsRules.starlingItems(of: data, clock: context.clock, categories: &categories)
    }
}

extension StarlingAccountData {
    /// The feed, for the reports that work from it; reading one that was not kept (a share's
    /// account of another share, whose figures come from ``AccountFigures``) is a programming
    /// error, not an account without transactions.
    var keptFeed: [FeedItem] {
        precondition(feedNotKept == nil, "the feed of account \(account.uid) was not kept: its figures come from AccountFigures")
        return feed
    }
}
