/// Everything loaded from transactions/ (issue 4): the transactions app's model.
public struct TransactionsData: Sendable {
    public init() {}

    /// The latest moment in this source, for the start page's "data as of".
    public var latestInstant: Instant? { nil }
}
