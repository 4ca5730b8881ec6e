/// Everything loaded from transfers/ (issue 6): the transfer app's users and transfers.
public struct TransfersData: Sendable {
    public init() {}

    /// The latest moment in this source, for the start page's "data as of".
    public var latestInstant: Instant? { nil }
}
