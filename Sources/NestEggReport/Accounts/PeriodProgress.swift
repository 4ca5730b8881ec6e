import NestEggModel
import NestEggSupport

/// Whether a period of the data — a week, a month — is over, by the one rule every report
/// uses: a period is complete when the data's "as of" date (the site's "data as of": the latest
/// date in the data, on the site's clock) is past its last day. Until then it is in progress, and
/// its figures are "so far", never final: a week's round-up is not yet a transfer to make, a
/// month's spending is "Spent in Nov so far".
///
/// An account's own pages go by its own latest data instead (``ReportContext/account(_:figures:)``),
/// and a Qapital goal's page by Qapital's (``GoalsReport``): a page of one source shows nothing
/// that another source's data decides.
/// Without an "as of" date (no dated data at all) every period counts as complete.
public struct PeriodProgress: Sendable, Hashable {
    /// The data's latest date on the site's clock.
    public let asOf: CivilDate?

    public init(asOf: CivilDate?) { self.asOf = asOf }

    /// Whether the period that ends on `lastDay` (inclusive) is over.
    /// The one rule, ``ReportingPeriod/status(asOf:)``: complete once the as-of date is past the
    /// period's last day (and, with no date in the data, everything is).
    public func isComplete(_ period: ReportingPeriod) -> Bool {
        guard let asOf else { return true }
        return period.status(asOf: asOf).isFinal
    }

    public func isComplete(_ week: ISOWeek) -> Bool { isComplete(ReportingPeriod(week)) }
    public func isComplete(_ month: CalendarMonth) -> Bool { isComplete(ReportingPeriod(month)) }

    public func isInProgress(_ week: ISOWeek) -> Bool { !isComplete(week) }
    public func isInProgress(_ month: CalendarMonth) -> Bool { !isComplete(month) }

    /// `" so far"` for a period in progress, else nothing: `"Spent in Nov 2026" + soFar(month)`.
    public func soFar(_ week: ISOWeek) -> String { isComplete(week) ? "" : " so far" }
    public func soFar(_ month: CalendarMonth) -> String { isComplete(month) ? "" : " so far" }
}
