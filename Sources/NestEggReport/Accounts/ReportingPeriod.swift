import NestEggModel
import NestEggSupport
/// A span of calendar days that a report covers — a month, an ISO week, or a part of one (an
/// account's first statement starts on the day it was opened) — and the one rule for whether the
/// data covers all of it.
///
/// The rule: a period is **final** when the data's "as of" date (``Dataset/latestInstant`` on the
/// site's clock for the site-wide pages; an account's own latest data for its own pages,
/// ``ReportContext/account(_:figures:)``) is past its last day; a period that has begun
/// but not ended by then is **provisional**, its figures known only up to the as-of date. Pages that
/// show weeks or months use this type so that they all draw the line in the same place.
public struct ReportingPeriod: Hashable, Sendable, CustomStringConvertible {
    /// The first day of the period.
    public let first: CivilDate
    /// The last day of the period (included).
    public let last: CivilDate

    /// A period of the days `first` to `last`; `last` before `first` is taken as the single day `first`.
    public init(first: CivilDate, last: CivilDate) {
        self.first = first
        self.last = max(first, last)
    }

    /// The whole of a calendar month.
    public init(_ month: CalendarMonth) { self.init(first: month.firstDay, last: month.lastDay) }

    /// The whole of an ISO week, Monday to Sunday.
    public init(_ week: ISOWeek) { self.init(first: week.monday, last: week.sunday) }

    /// How much of a period the data covers.
    public enum Status: Hashable, Sendable {
        /// The as-of date is past the period's last day: nothing more can happen in it.
        case final
        /// The period has begun, but the data ends inside it: its figures are as of `through`.
        case provisional(through: CivilDate)
        /// The period begins after the as-of date.
        case notStarted

        public var isFinal: Bool { self == .final }
        public var isProvisional: Bool { if case .provisional = self { return true } else { return false } }
        /// The word pages print for it: `final`, `provisional`, `not started`.
        public var word: String {
            switch self {
            case .final: return "final"
            case .provisional: return "provisional"
            case .notStarted: return "not started"
            }
        }
    }

    /// The period's status when the data runs to `asOf` (a date on the site's clock).
    public func status(asOf: CivilDate) -> Status {
        if asOf > last { return .final }
        if asOf < first { return .notStarted }
        return .provisional(through: asOf)
    }

    /// The days the data covers: the whole period when it is final, its first day to the as-of
    /// date when provisional, `nil` when it has not started.
    public func covered(asOf: CivilDate) -> ReportingPeriod? {
        switch status(asOf: asOf) {
        case .final: return self
        case .provisional(let through): return ReportingPeriod(first: first, last: through)
        case .notStarted: return nil
        }
    }

    /// Whether `date` lies in the period.
    public func contains(_ date: CivilDate) -> Bool { first <= date && date <= last }

    /// `2026-10-01/2026-10-31` (ISO 8601's interval of dates).
    public var description: String { "\(first)/\(last)" }
}

extension CalendarMonth {
    /// The month's number counted from January of year 0: consecutive months have consecutive indexes.
    public var index: Int { year * 12 + month - 1 }

    /// The month of an ``index``.
    public init(index: Int) { self.init(year: index / 12, month: index % 12 + 1) }
}
