import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct CalendarTests {
    @Test func parsesAPITimestamps() {
        #expect(Instant(iso8601: "1970-01-01T00:00:00Z")?.millisecondsSinceEpoch == 0)
        #expect(Instant(iso8601: "2015-03-10T14:55:16.025Z")?.millisecondsSinceEpoch == 1_425_999_316_025)
        #expect(Instant(iso8601: "2022-02-14T00:00:00+00:00")?.secondsSinceEpoch == 1_644_796_800)
        #expect(Instant(iso8601: "2022-02-14T01:00:00+01:00")?.secondsSinceEpoch == 1_644_796_800)
        #expect(Instant(iso8601: "2022-02-14T00:00:00") == nil)  // no zone: ambiguous
        #expect(Instant(iso8601: "2022-02-30T00:00:00Z") == nil)
        #expect(Instant(iso8601: "yesterday") == nil)
    }

    @Test func civilDatesRoundTrip() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2026, month: 11, day: 16)?.isoWeekday == 1)
    }

    @Test func isoWeeks() {
        #expect("\(ISOWeek(containing: CivilDate(year: 2026, month: 11, day: 22)!))" == "2026-W47")
        #expect("\(ISOWeek(containing: CivilDate(year: 2026, month: 1, day: 1)!))" == "2026-W01")
        #expect("\(ISOWeek(containing: CivilDate(year: 2027, month: 1, day: 1)!))" == "2026-W53")
        #expect("\(ISOWeek(containing: CivilDate(year: 2024, month: 12, day: 30)!))" == "2025-W01")
        #expect(ISOWeek(year: 2026, week: 47).monday == CivilDate(year: 2026, month: 11, day: 16))
        #expect(ISOWeek(year: 2025, week: 1).monday == CivilDate(year: 2024, month: 12, day: 30))
    }

    @Test func localTimeFollowsTheClockChange() {
        let london = LocalClock(identifier: "Europe/London")!
        // 23:30 UTC on Sunday 18 Oct 2026 is 00:30 BST on Monday 19 Oct.
        let beforeChange = london.localDateTime(of: Instant(iso8601: "2026-10-18T23:30:00Z")!)
        #expect(beforeChange.date == CivilDate(year: 2026, month: 10, day: 19))
        #expect(beforeChange.timeText == "00:30")
        // After the clocks go back on 25 Oct, London is on UTC again.
        let afterChange = london.localDateTime(of: Instant(iso8601: "2026-10-25T23:30:00Z")!)
        #expect(afterChange.date == CivilDate(year: 2026, month: 10, day: 25))
        #expect(afterChange.timeText == "23:30")
    }

    @Test func formatsDateRanges() {
        let locale = SiteLocale.enGB
        let monday = CivilDate(year: 2026, month: 11, day: 16)!
        #expect(locale.formatRange(monday, monday.adding(days: 6)) == "16–22 Nov 2026")
        let september = CivilDate(year: 2026, month: 9, day: 28)!
        #expect(locale.formatRange(september, september.adding(days: 6)) == "28 Sep – 4 Oct 2026")
        let december = CivilDate(year: 2025, month: 12, day: 29)!
        #expect(locale.formatRange(december, december.adding(days: 6)) == "29 Dec 2025 – 4 Jan 2026")
    }
}
