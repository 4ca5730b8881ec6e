import NestEggSupport
import Foundation

/// A point in time, in milliseconds since 1970-01-01T00:00:00Z.
public struct Instant: Hashable, Comparable, Sendable {
    public let millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }
    public init(secondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = secondsSinceEpoch * 1000 }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch }

    /// Parses RFC 3339 / ISO 8601 date-times as APIs write them:
    /// `2026-11-16T08:30:00Z`, `2015-03-10T14:55:16.025Z`, `2022-02-14T00:00:00+00:00`.
    /// A date-time without an offset is not accepted: it would mean a different instant in every zone.
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<from + count {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20,
              let year = number(0, 4), b[4] == UInt8(ascii: "-"),
              let month = number(5, 2), b[7] == UInt8(ascii: "-"),
              let day = number(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
              let hour = number(11, 2), b[13] == UInt8(ascii: ":"),
              let minute = number(14, 2), b[16] == UInt8(ascii: ":"),
              let second = number(17, 2),
              CivilDate.supportedYears.contains(year), let date = CivilDate(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var millis = 0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 100
            let start = index
            while index < b.count, b[index] >= 0x30 && b[index] <= 0x39 {
                millis += Int(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offsetSeconds = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHours = number(index + 1, 2) else { return nil }
            var next = index + 3
            if next < b.count, b[next] == UInt8(ascii: ":") { next += 1 }
            guard let offsetMinutes = number(next, 2), offsetMinutes < 60,
                  offsetHours * 60 + offsetMinutes <= Self.largestOffsetMinutes else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            index = next + 2
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        self.millisecondsSinceEpoch = seconds * 1000 + Int64(millis)
    }

    /// The largest offset from UTC a zone has (Kiribati's +14:00; the westernmost is −12:00): an
    /// offset beyond it (`+99:99`) is no zone's, and is refused rather than moving the day.
    public static let largestOffsetMinutes = 14 * 60

    public var secondsSinceEpoch: Int64 {
        let (quotient, remainder) = millisecondsSinceEpoch.quotientAndRemainder(dividingBy: 1000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}

/// A date on the calendar, with no time or zone: 2026-11-16.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A date of the years 1 to 9999 (the range every date format NestEgg reads can write);
    /// `nil` for anything else, so calendar arithmetic on data never leaves the range of `Int`.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The years a date or time in the data may fall in: every month, week and period the reports
    /// work out around them (six months back, a week on, a day either way for the time zone)
    /// stays within the years 1 to 9999 that a date can have. (Data from the year 1 or 9999
    /// is refused with an error, instead of stopping a report half-way.)
    public static let supportedYears = 2...9998

    /// The date `days` days after 1970-01-01 (H. Hinnant's civil-from-days).
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Parses `YYYY-MM-DD` exactly: four digits, a hyphen, two digits, a hyphen, two digits (no
    /// sign, no other width: `+202-06-02` and `2026-+6-+2` are no dates).
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = digits(0..<4), CivilDate.supportedYears.contains(y), let m = digits(5..<7), let d = digits(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// ISO weekday: Monday 1 … Sunday 7.
    public var isoWeekday: Int {
        let r = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday
        return (r < 0 ? r + 7 : r) + 1
    }

    public var lastDayOfMonth: CivilDate {
        CivilDate(year: year, month: month, day: CivilDate.daysIn(month: month, year: year))!
    }

    public var description: String {
        let y = String(year)
        let m = month < 10 ? "0\(month)" : "\(month)"
        let d = day < 10 ? "0\(day)" : "\(day)"
        return "\(String(repeating: "0", count: max(0, 4 - y.count)))\(y)-\(m)-\(d)"
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// An ISO 8601 week: Monday to Sunday, numbered within its week-based year (`2026-W47`).
public struct ISOWeek: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let week: Int

    public init(year: Int, week: Int) {
        self.year = year
        self.week = week
    }

    /// The week a date falls in (the week belongs to the year of its Thursday).
    public init(containing date: CivilDate) {
        let days = date.daysSinceEpoch
        let thursday = CivilDate(daysSinceEpoch: days - (date.isoWeekday - 1) + 3)
        let january1 = CivilDate(year: thursday.year, month: 1, day: 1)!
        self.year = thursday.year
        self.week = (thursday.daysSinceEpoch - january1.daysSinceEpoch) / 7 + 1
    }

    /// The Monday that starts the week.
    public var monday: CivilDate {
        let january4 = CivilDate(year: year, month: 1, day: 4)!
        let week1Monday = january4.daysSinceEpoch - (january4.isoWeekday - 1)
        return CivilDate(daysSinceEpoch: week1Monday + (week - 1) * 7)
    }

    public var sunday: CivilDate { monday.adding(days: 6) }

    public var description: String { "\(year)-W\(week < 10 ? "0" : "")\(week)" }

    public static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool { (lhs.year, lhs.week) < (rhs.year, rhs.week) }
}

/// A calendar month: `2026-11` — a statement's period, a column of the spending insights.
public struct CalendarMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The month a date falls in.
    public init(_ date: CivilDate) { self.init(year: date.year, month: date.month) }

    public var firstDay: CivilDate { CivilDate(year: year, month: month, day: 1)! }
    public var lastDay: CivilDate { firstDay.lastDayOfMonth }
    public var previous: CalendarMonth { month == 1 ? CalendarMonth(year: year - 1, month: 12) : CalendarMonth(year: year, month: month - 1) }
    public var next: CalendarMonth { month == 12 ? CalendarMonth(year: year + 1, month: 1) : CalendarMonth(year: year, month: month + 1) }

    public var description: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }

    public static func < (lhs: CalendarMonth, rhs: CalendarMonth) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}

/// Turns instants into local dates and times in one time zone, via Foundation's tz database.
public struct LocalClock: Sendable {
    public let timeZone: TimeZone

    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.timeZone = zone
    }

    public var identifier: String { timeZone.identifier }

    /// Offset from UTC, in seconds, in force at an instant.
    public func offsetSeconds(at instant: Instant) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch)))
    }

    public func localDateTime(of instant: Instant) -> LocalDateTime {
        let local = instant.secondsSinceEpoch + Int64(offsetSeconds(at: instant))
        let (days, seconds) = local.quotientAndRemainder(dividingBy: 86_400)
        let (d, s) = seconds < 0 ? (days - 1, seconds + 86_400) : (days, seconds)
        return LocalDateTime(date: CivilDate(daysSinceEpoch: Int(d)), hour: Int(s / 3600), minute: Int(s % 3600 / 60), second: Int(s % 60))
    }

    public func date(of instant: Instant) -> CivilDate { localDateTime(of: instant).date }
}

public struct LocalDateTime: Hashable, Sendable {
    public let date: CivilDate
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// `14:05`
    public var timeText: String {
        "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }
}
