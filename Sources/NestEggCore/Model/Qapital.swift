/// Everything loaded from qapital/ (issue 3): savings goals, their feeds, rules and users.
public struct QapitalData: Sendable {
    public init() {}

    /// The latest moment in this source, for the start page's "data as of".
    public var latestInstant: Instant? { nil }
}
