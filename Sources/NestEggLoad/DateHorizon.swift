import Foundation
import NestEggModel

/// The latest date data may hold: a year after the day of the build.
///
/// The reports run from each account's first date to the data's latest (a statement for every
/// month, a round-up week for every week), so one date far in the future — `9998` for `2026`, a
/// swapped digit — would have every account render a page for every month up to it: hundreds of
/// thousands of pages from one value. A date later than the horizon is refused at its
/// `file:line:column`, so it never becomes a period. A year leaves room for what feeds date ahead
/// (Starling's `UPCOMING` payments, a goal's target date is not read as a date of the data).
///
/// The day of the build is the system clock's, or `SOURCE_DATE_EPOCH` (seconds since 1970) where it
/// is set, as reproducible builds set it. It decides only whether data is accepted: what a build
/// writes from accepted data never depends on it.
public enum DateHorizon {
    /// How far after the day of the build a date may be.
    public static let days = 366

    /// The day of the build, in UTC.
    public static let today: CivilDate = {
        let seconds: Int64
        if let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let epoch = Int64(text), epoch >= 0, epoch < 253_370_764_800 {
            seconds = epoch
        } else {
            seconds = Int64(Date().timeIntervalSince1970)
        }
        return CivilDate(daysSinceEpoch: Int(seconds / 86_400))
    }()

    /// The last date data may hold (its whole day, in any zone).
    public static let lastDay: CivilDate = today.adding(days: days)

    /// The first instant past the horizon: the day after ``lastDay``, less the widest zone offset,
    /// so that no instant before it is later than ``lastDay`` anywhere.
    static let firstInstantPast = Instant(secondsSinceEpoch: Int64(lastDay.adding(days: 1).daysSinceEpoch) * 86_400 + Int64(Instant.largestOffsetMinutes) * 60)

    /// Whether `date` is past the horizon.
    public static func isPast(_ date: CivilDate) -> Bool { date > lastDay }

    /// Whether `instant` is past the horizon.
    public static func isPast(_ instant: Instant) -> Bool { instant >= firstInstantPast }

    /// What a date past the horizon is told: `found` is the value as written.
    static func message(_ found: String) -> String {
        "\(found) is more than a year after the day of this build (\(today)); a date that far ahead is a mistake in the data, "
            + "and the reports would run to it (set SOURCE_DATE_EPOCH to build as of another day)"
    }
}

extension JSONValue {
    /// `instant`, or `nil` with an error at this value when it is past ``DateHorizon``.
    func withinHorizon(_ instant: Instant, _ found: @autoclosure () -> String) -> Instant? {
        guard DateHorizon.isPast(instant) else { return instant }
        error(DateHorizon.message(found()))
        return nil
    }

    /// `date`, or `nil` with an error at this value when it is past ``DateHorizon``.
    func withinHorizon(_ date: CivilDate, _ found: @autoclosure () -> String) -> CivilDate? {
        guard DateHorizon.isPast(date) else { return date }
        error(DateHorizon.message(found()))
        return nil
    }
}

extension JSONValue {
    /// The first day an account's statements may start: 1 January 1970. An account's statements run
    /// from its opening (or first transaction) to the data's latest date, one for every month, so
    /// one `createdAt` in the year 2 would make an account of 24,000 statements (48,813 files from
    /// a 508 KB data folder); before 1970 a bank account's date here is a mistake.
    static let firstStatementInstant = Instant(secondsSinceEpoch: 0)

    /// `instant`, or `nil` with an error at this value when it is before 1970 (``firstStatementInstant``).
    func statementDate(_ instant: Instant?) -> Instant? {
        guard let instant else { return nil }
        guard instant >= Self.firstStatementInstant else {
            error("\(string.map { "\"\($0)\"" } ?? "this date") is before 1970, the earliest a bank account's statements may start "
                  + "(one statement a month from it to the latest date in the data): a mistake in the data")
            return nil
        }
        return instant
    }
}
