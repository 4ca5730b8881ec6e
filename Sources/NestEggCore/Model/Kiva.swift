/// Everything loaded from kiva/ and restcountries/ (issue 5): loans, the lender, the cart and countries.
public struct KivaData: Sendable {
    public init() {}

    /// The latest moment in this source, for the start page's "data as of".
    public var latestInstant: Instant? { nil }
}
