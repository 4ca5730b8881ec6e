import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct ReportingPeriodTests {
    func date(_ text: String) -> CivilDate { CivilDate(iso8601: text)! }

    /// A period is final once the as-of date is past its last day, provisional while the as-of
    /// date is inside it (its last day included: that day may not be over), not started before.
    @Test func aPeriodIsFinalOnlyWhenTheAsOfDateIsPastItsEnd() {
        let november = ReportingPeriod(CalendarMonth(year: 2026, month: 11))
        #expect("\(november)" == "2026-11-01/2026-11-30")
        #expect(november.status(asOf: date("2026-12-01")) == .final)
        #expect(november.status(asOf: date("2026-11-30")) == .provisional(through: date("2026-11-30")))
        #expect(november.status(asOf: date("2026-11-21")) == .provisional(through: date("2026-11-21")))
        #expect(november.status(asOf: date("2026-11-01")) == .provisional(through: date("2026-11-01")))
        #expect(november.status(asOf: date("2026-10-31")) == .notStarted)
        #expect(november.covered(asOf: date("2026-11-21")) == ReportingPeriod(first: date("2026-11-01"), last: date("2026-11-21")))
        #expect(november.covered(asOf: date("2027-01-01")) == november)
        #expect(november.covered(asOf: date("2026-10-31")) == nil)
        #expect(ReportingPeriod.Status.final.word == "final" && november.status(asOf: date("2026-11-02")).word == "provisional")
    }

    @Test func weeksFollowTheSameRule() {
        // 2026-W43: Monday 19 to Sunday 25 October.
        let week = ReportingPeriod(ISOWeek(year: 2026, week: 43))
        #expect("\(week)" == "2026-10-19/2026-10-25")
        #expect(week.status(asOf: date("2026-10-25")).isProvisional)
        #expect(week.status(asOf: date("2026-10-26")).isFinal)
        #expect(week.contains(date("2026-10-19")) && !week.contains(date("2026-10-26")))
    }

    @Test func monthsCountOnAcrossYears() {
        let december = CalendarMonth(year: 2025, month: 12)
        #expect(CalendarMonth(index: december.index + 1) == CalendarMonth(year: 2026, month: 1))
        #expect(CalendarMonth(index: december.index) == december)
        #expect(CalendarMonth(year: 2026, month: 1).index - december.index == 1)
    }
}
