import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct RoundUpRuleTests {
    let london = LocalClock(identifier: "Europe/London")!

    @Test func theSeedsExampleWeekGivesOnePoundFiftyEight() {
        // "with spending of £4.35, £5.20 and £0.87, the round-up would be £1.58"
        let feed = [
            feedItem(435, "2026-11-16T09:00:00Z"),
            feedItem(520, "2026-11-17T12:30:00Z"),
            feedItem(87, "2026-11-18T18:45:00Z"),
        ]
        let weeks = RoundUpRule.weeks(of: feed, currency: .gbp, clock: london)
        #expect(weeks.count == 1)
        #expect("\(weeks[0].week)" == "2026-W47")
        #expect(weeks[0].roundUp == gbp(158))
        #expect(weeks[0].spent == gbp(1042))
    }

    @Test func wholeAmountsRoundUpByNothing() {
        #expect(RoundUpRule.roundUp(gbp(500)) == gbp(0))
        #expect(RoundUpRule.roundUp(gbp(435)) == gbp(65))
        #expect(RoundUpRule.roundUp(gbp(1)) == gbp(99))
        #expect(RoundUpRule.roundUp(Money(minorUnits: 1250, currency: Currency(code: "JPY")!)).minorUnits == 0)
        #expect(RoundUpRule.roundUp(Money(minorUnits: 1250, currency: Currency(code: "KWD")!)).minorUnits == 750)
    }

    @Test func onlySettledOrPendingPaymentsOutCount() {
        let gbpAccount = Currency.gbp
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z"), accountCurrency: gbpAccount) == nil)
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z", status: "PENDING"), accountCurrency: gbpAccount) == nil)
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z", direction: .in), accountCurrency: gbpAccount) == .incoming)
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z", status: "DECLINED"), accountCurrency: gbpAccount) == .status("DECLINED"))
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z", status: "UPCOMING"), accountCurrency: gbpAccount) == .status("UPCOMING"))
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z", source: "INTERNAL_TRANSFER"), accountCurrency: gbpAccount) == .internalTransfer)
        #expect(RoundUpRule.exclusion(for: feedItem(435, "2026-11-16T09:00:00Z", currency: .eur), accountCurrency: gbpAccount) == .foreignCurrency(.eur))
    }

    @Test func excludedItemsAreListedApartAndAddNothing() {
        let feed = [
            feedItem(435, "2026-11-16T09:00:00Z"),
            feedItem(285_000, "2026-11-16T10:00:00Z", direction: .in, source: "FASTER_PAYMENTS_IN"),
            feedItem(2_999, "2026-11-17T10:00:00Z", status: "DECLINED"),
            feedItem(45_010, "2026-11-18T10:00:00Z", source: "INTERNAL_TRANSFER"),
        ]
        let week = RoundUpRule.weeks(of: feed, currency: .gbp, clock: london)[0]
        #expect(week.roundUp == gbp(65))
        #expect(week.counted.count == 1)
        #expect(week.excluded.map(\.exclusion) == [.incoming, .status("DECLINED"), .internalTransfer])
    }

    @Test func weeksRunMondayToMondayOnTheLocalClockAcrossTheClockChange() {
        // Sunday 18 Oct 23:30 UTC is Monday 00:30 in London: week 43, not 42.
        // Sunday 25 Oct 23:30 UTC is still Sunday in London after the change to GMT: week 43.
        // Monday 26 Oct 00:00 UTC is Monday 00:00 GMT: week 44.
        let feed = [
            feedItem(435, "2026-10-18T23:30:00Z"),
            feedItem(87, "2026-10-25T23:30:00Z"),
            feedItem(150, "2026-10-26T00:00:00Z"),
            feedItem(199, "2026-10-18T22:59:59Z"),
        ]
        let weeks = RoundUpRule.weeks(of: feed, currency: .gbp, clock: london)
        #expect(weeks.map { "\($0.week)" } == ["2026-W42", "2026-W43", "2026-W44"])
        #expect(weeks[0].roundUp == gbp(1))
        #expect(weeks[1].roundUp == gbp(65 + 13))
        #expect(weeks[2].roundUp == gbp(50))
    }

    @Test func quietWeeksBetweenActiveOnesAreListedWithNothing() {
        let feed = [feedItem(435, "2026-11-02T09:00:00Z"), feedItem(520, "2026-11-17T12:30:00Z")]
        let weeks = RoundUpRule.weeks(of: feed, currency: .gbp, clock: london)
        #expect(weeks.map { "\($0.week)" } == ["2026-W45", "2026-W46", "2026-W47"])
        #expect(weeks[1].roundUp == gbp(0))
        #expect(RoundUpRule.weeks(of: [], currency: .gbp, clock: london).isEmpty)
    }
}
