import Testing
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender

/// The one rule for periods in progress (``PeriodProgress``), and each report that uses it.
@Suite struct PeriodProgressTests {
    static func date(_ text: String) -> CivilDate { CivilDate(iso8601: text)! }
    static let w47 = ISOWeek(containing: date("2026-11-16"))  // Mon 16 – Sun 22 Nov 2026
    static let november = CalendarMonth(year: 2026, month: 11)

    @Test func aPeriodIsCompleteOnlyWhenAsOfIsPastItsLastDay() {
        let midWeek = PeriodProgress(asOf: Self.date("2026-11-21"))
        #expect(midWeek.isInProgress(Self.w47))
        #expect(midWeek.isInProgress(Self.november))
        #expect(midWeek.isComplete(ISOWeek(containing: Self.date("2026-11-15"))))
        #expect(midWeek.isComplete(CalendarMonth(year: 2026, month: 10)))
        // Its last day is still in progress; the day after, the period is over.
        #expect(PeriodProgress(asOf: Self.date("2026-11-22")).isInProgress(Self.w47))
        #expect(PeriodProgress(asOf: Self.date("2026-11-23")).isComplete(Self.w47))
        #expect(PeriodProgress(asOf: Self.date("2026-11-30")).isInProgress(Self.november))
        #expect(PeriodProgress(asOf: Self.date("2026-12-01")).isComplete(Self.november))
        #expect(midWeek.soFar(Self.november) == " so far")
        #expect(PeriodProgress(asOf: Self.date("2026-12-01")).soFar(Self.november) == "")
    }

    @Test func withoutAnAsOfDateEveryPeriodIsComplete() {
        #expect(PeriodProgress(asOf: nil).isComplete(Self.w47))
        #expect(PeriodProgress(asOf: nil).soFar(Self.november) == "")
    }

    @Test func theSiteContextIsAsOfTheDatasetsLatestInstantOnTheSiteClock() {
        let account = StarlingAccount(uid: "a1", type: "PRIMARY", currency: .gbp, name: "Personal")
        // 23:30 UTC on Sat 21 Nov is still the 21st in London.
        let data = AccountData(account: account, feed: [feedItem(435, "2026-11-21T23:30:00Z")], savingsGoals: [])
        let dataset = Dataset(accounts: [data])
        #expect(ReportContext(dataset: dataset).progress.asOf == Self.date("2026-11-21"))
    }

    /// `later`: a payment after the others, in the account's own data.
    static func roundUpPages(asOf: String, later: String? = nil) -> [Page] {
        let account = StarlingAccount(uid: "a1", type: "PRIMARY", currency: .gbp, name: "Personal")
        let goal = StarlingSavingsGoal(uid: "g1", name: "Trip", totalSaved: gbp(1000))
        let feed = [feedItem(435, "2026-11-09T09:00:00Z"), feedItem(435, "2026-11-16T09:00:00Z"), feedItem(520, "2026-11-17T12:30:00Z")]
            + (later.map { [feedItem(100, $0)] } ?? [])
        let data = AccountData(account: account, feed: feed, savingsGoals: [goal])
        return RoundUpsReport.pages(for: [data], context: ReportContext(settings: Settings(), asOf: date(asOf)))
    }

    @Test func theCurrentWeeksRoundUpIsSoFarNotATransferToMake() throws {
        let pages = Self.roundUpPages(asOf: "2026-11-21")
        let current = try #require(pages.first { $0.path.hasSuffix("2026-W47") })
        #expect(current.title == "Round-ups for Personal, 16–22 Nov 2026 so far")
        let view = try #require(current.view as? RoundUpsReport.WeekView)
        #expect(view.inProgress)
        let finished = try #require(pages.first { $0.path.hasSuffix("2026-W46") })
        #expect(finished.title == "Round-ups for Personal, 9–15 Nov 2026")
        #expect((finished.view as? RoundUpsReport.WeekView)?.inProgress == false)
        let index = try #require(pages.first?.view as? RoundUpsReport.IndexView)
        #expect(index.accounts[0].weeks.map(\.inProgress) == [true, false])
        // An account's week goes by its own latest data: a later date elsewhere in the data does
        // not end it; once the account's own data passes Sunday, the week is a transfer to make.
        let elsewhere = Self.roundUpPages(asOf: "2026-11-23")
        #expect((elsewhere.first { $0.path.hasSuffix("2026-W47") }?.view as? RoundUpsReport.WeekView)?.inProgress == true)
        let later = Self.roundUpPages(asOf: "2026-11-23", later: "2026-11-23T09:00:00Z")
        #expect((later.first { $0.path.hasSuffix("2026-W47") }?.view as? RoundUpsReport.WeekView)?.inProgress == false)
    }

    @Test func theStartPageSaysTheLatestRoundUpIsSoFar() throws {
        let account = StarlingAccount(uid: "a1", type: "PRIMARY", currency: .gbp, name: "Personal")
        let data = AccountData(account: account, feed: [feedItem(435, "2026-11-16T09:00:00Z")], savingsGoals: [])
        let section = try #require(RoundUpsReport.dashboard(for: [data], context: ReportContext(settings: Settings(), asOf: Self.date("2026-11-20"))))
        #expect(section.figures[0].label == "Personal: round-up, 16–22 Nov 2026 so far")
        #expect(section.table?.rows[0].cells.last == "£0.65 so far")
    }

    @Test func theMonthInProgressIsSpentSoFar() throws {
        let account = StarlingAccount(uid: "a1", type: "PRIMARY", currency: .gbp, name: "Personal")
        var eating = feedItem(435, "2026-11-16T09:00:00Z", uid: "eat")
        eating.spendingCategory = "EATING_OUT"
        let dataset = Dataset(accounts: [AccountData(account: account, feed: [eating], savingsGoals: [])])
        let items = TransactionsRules.items(from: dataset, clock: Settings().clock)
        let inProgress = ReportContext(settings: Settings(), asOf: Self.date("2026-11-21"))
        let section = try #require(TransactionsInsightsReport.dashboard(for: SpendingTotals(items), context: inProgress))
        #expect(section.figures[0].label == "Spent in Nov 2026 so far (bank accounts and the app's pinned entries)")
        let month = try #require(TransactionsInsightsReport.pages(for: SpendingTotals(items), context: inProgress).first { $0.path == "insights/2026-11" })
        #expect(month.title == "Spending by category, Nov 2026 so far")
        let over = ReportContext(settings: Settings(), asOf: Self.date("2026-12-01"))
        #expect(TransactionsInsightsReport.dashboard(for: SpendingTotals(items), context: over)?.figures[0].label == "Spent in Nov 2026 (bank accounts and the app's pinned entries)")
    }
}
