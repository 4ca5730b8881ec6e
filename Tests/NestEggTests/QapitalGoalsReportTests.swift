import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

private let london = LocalClock(identifier: "Europe/London")!

private func item(_ id: String, _ time: String, _ minor: Int64, user: Int = 1, rule: Int? = nil,
                  message: String = "<strong>You</strong> made a roundup.") -> QapitalFeedItem {
    QapitalFeedItem(id: id, timestamp: Instant(iso8601: time)!, messageHTML: message, amount: usd(minor), userId: user, ruleId: rule)
}

private func goal(_ id: Int, _ name: String, saved: Int64, target: Int64?, status: QapitalGoal.Status = .active,
                  image: String? = nil, connected: [Int] = []) -> QapitalGoal {
    QapitalGoal(id: id, name: name, imageURL: image, ownerId: 1, target: target.map(usd), saved: usd(saved),
                status: status, connectedUserIds: connected)
}

private func dataset(_ goals: [QapitalGoal], feeds: [Int: [QapitalFeedItem]] = [:], starling: [AccountData] = []) -> Dataset {
    var dataset = Dataset(settings: Settings(), accounts: starling)
    dataset.qapital = QapitalData(currency: .usd, goals: goals, feeds: feeds.mapValues(QapitalData.newestFirst),
                                  rules: [1: QapitalRule(id: 1, type: "roundup", amount: usd(100)),
                                          2: QapitalRule(id: 2, type: "guilty_pleasure", amount: usd(400))],
                                  users: [1: QapitalUser(id: 1, displayName: "Mikael", avatarURL: "http://example.com/m.jpg")])
    return dataset
}

private func starlingAccount(_ goals: [StarlingSavingsGoal]) -> AccountData {
    AccountData(account: StarlingAccount(uid: "acc", type: "PRIMARY", currency: .gbp, name: "Personal", createdAt: nil),
                        feed: [], balance: nil, savingsGoals: goals)
}

/// Renders one page's Markdown and HTML with the built-in templates.
private func render(_ page: Page, in site: Site) throws -> PageRenderer.Output {
    try PageRenderer(templates: try TemplateLibrary(), site: site).render(page)
}

@Suite struct QapitalGoalsReportTests {
    /// The list's order with each key worked out once is the rule's, compared pair by pair, over
    /// generated goals whose keys tie often (closeness, names that differ in case only).
    @Test func theListsOrderIsTheRulesOrder() {
        var generator = SystemRandomNumberGenerator()
        let names = ["Car", "car", "CAR", "Bike", "bike", "Émile", "émile", "Zoo"]
        for _ in 0..<50 {
            let keys = (0..<Int.random(in: 0...60, using: &generator)).map { index in
                GoalsRules.SortKey(saved: usd(Int64.random(in: 0...4, using: &generator) * 500),
                                   target: Bool.random(using: &generator) ? nil : usd(Int64.random(in: 1...3, using: &generator) * 1000),
                                   reportedPercent: Bool.random(using: &generator) ? nil : Int.random(in: 0...100, using: &generator),
                                   name: names.randomElement(using: &generator)!, id: "k\(index)")
            }.shuffled(using: &generator)
            // The rule as it reads: closest first, then the name in lower case, then the id.
            let rule = { (a: GoalsRules.SortKey, b: GoalsRules.SortKey) -> Bool in
                let ca = GoalsRules.closeness(saved: a.saved, target: a.target, reportedPercent: a.reportedPercent) ?? -1
                let cb = GoalsRules.closeness(saved: b.saved, target: b.target, reportedPercent: b.reportedPercent) ?? -1
                if ca != cb { return ca > cb }
                if a.name.lowercased() != b.name.lowercased() { return a.name.lowercased() < b.name.lowercased() }
                return a.id < b.id
            }
            #expect(GoalsRules.inListOrder(keys, key: { $0 }).map(\.id) == keys.sorted(by: rule).map(\.id))
        }
    }

    // MARK: Progress

    @Test func progressFollowsTheSeedsExamples() {
        // Balloons: 400 of 1500.
        #expect(GoalsRules.progress(saved: usd(40_000), target: usd(150_000)) == .inProgress(percent: 26))
        // Bike: 500 of 500 is reached.
        #expect(GoalsRules.progress(saved: usd(50_000), target: usd(50_000)) == .reached(percent: 100))
        // Graduation: nothing saved yet.
        #expect(GoalsRules.progress(saved: usd(0), target: usd(60_000)) == .inProgress(percent: 0))
        // Dog: targetAmount null.
        #expect(GoalsRules.progress(saved: usd(5000), target: nil) == .noTarget)
        // Rounded down: 99.9% is not reached.
        #expect(GoalsRules.progress(saved: usd(149_999), target: usd(150_000)) == .inProgress(percent: 99))
        // Past the target.
        #expect(GoalsRules.progress(saved: usd(30_566), target: usd(30_000)) == .reached(percent: 101))
        // Starling's own percentage is shown as given.
        #expect(GoalsRules.progress(saved: gbp(2000), target: gbp(100_000), reportedPercent: 20) == .inProgress(percent: 20))
        #expect(GoalsRules.progress(saved: gbp(123_456), target: gbp(123_456), reportedPercent: 100) == .reached(percent: 100))
    }

    @Test func theListIsOrderedClosestToTargetFirstThenGoalsWithoutATarget() throws {
        let (doc, _) = try sample("qapital/savingsgoals.json")
        var data = dataset(QapitalLoader.goals(in: doc, currency: .usd))
        data.accounts = [starlingAccount([StarlingSavingsGoal(uid: "g", name: "Trip to Paris", target: gbp(100_000),
                                                              totalSaved: gbp(2000), savedPercentage: 20, state: nil)])]
        let names = GoalsReport.entries(data).map(\.name)
        // Reached, then by share saved (25%, 20%, 0%), then without a target by name.
        #expect(names == ["Tent", "Canoe", "Trip to Paris", "Wedding gift", "Emergency fund", "Piano lessons"])
    }

    // MARK: Projection

    /// Eight weekly savings of US$10.00, the last on the data's latest day.
    private let steadyFeed = (0..<8).map { week in
        item("w\(week)", "2026-11-\(String(20 - week).leftPadded(to: 2))T12:00:00Z", 1000)
    }

    @Test func projectionAtTheAveragePaceOfTheLastEightWeeks() {
        // Weekly items on 20, 19, … 13 Nov: all within the last 8 weeks. US$80 over 56 days;
        // US$400 to go takes 280 days from 20 Nov 2026.
        let asOf = Instant(iso8601: "2026-11-20T12:00:00Z")!
        let projection = GoalsRules.projection(saved: usd(10_000), target: usd(50_000), feed: steadyFeed, asOf: asOf, clock: london)
        #expect(projection == .reachedOn(date: CivilDate(year: 2027, month: 8, day: 27)!, weeklyPace: usd(1000), remaining: usd(40_000)))
        #expect(CivilDate(year: 2026, month: 11, day: 20)!.adding(days: 280) == CivilDate(year: 2027, month: 8, day: 27))
    }

    @Test func theWindowCountsBackFromTheDataNotFromToday() {
        // Data from 2015: the projection is the same whatever day the test runs.
        let asOf = Instant(iso8601: "2015-03-10T14:55:16.025Z")!
        let inside = item("in", "2015-01-14T15:00:00Z", 5600)   // 55 days before
        let outside = item("out", "2015-01-12T14:00:00Z", 99_900) // 57 days before
        let projection = GoalsRules.projection(saved: usd(0), target: usd(5600), feed: [inside, outside], asOf: asOf, clock: london)
        // US$56 in 56 days: US$1 a day, so US$56 to go takes 56 days.
        #expect(projection == .reachedOn(date: CivilDate(year: 2015, month: 5, day: 5)!, weeklyPace: usd(700), remaining: usd(5600)))
    }

    @Test func projectionStates() {
        let asOf = Instant(iso8601: "2026-11-20T12:00:00Z")!
        #expect(GoalsRules.projection(saved: usd(500), target: nil, feed: steadyFeed, asOf: asOf, clock: london) == .noTarget)
        #expect(GoalsRules.projection(saved: usd(500), target: usd(500), feed: steadyFeed, asOf: asOf, clock: london) == .targetReached)
        let old = [item("old", "2026-08-01T12:00:00Z", 5000)]
        #expect(GoalsRules.projection(saved: usd(500), target: usd(900), feed: old, asOf: asOf, clock: london) == .noRecentSaving)
        #expect(GoalsRules.projection(saved: usd(500), target: usd(900), feed: [], asOf: nil, clock: london) == .noRecentSaving)
        // Starling goals have no feed at all.
        #expect(GoalsRules.projection(saved: gbp(500), target: gbp(900), feed: nil, asOf: asOf, clock: london) == .noHistory)
        // A pace of a cent a week is not a date.
        let trickle = [item("t", "2026-11-20T12:00:00Z", 1)]
        #expect(GoalsRules.projection(saved: usd(0), target: usd(100_000_000), feed: trickle, asOf: asOf, clock: london)
                == .beyondACentury(weeklyPace: usd(0)))
    }

    @Test func theLastWeeksAreTheSourcesLatestWeeksForEveryGoal() throws {
        // One goal was saved into in 2015 only, another in 2022: in 2022 the first has no recent saving.
        let data = dataset([goal(1, "Old", saved: 100, target: 1000), goal(2, "New", saved: 100, target: 1000)],
                           feeds: [1: [item("a", "2015-03-10T14:55:16.025Z", 100)], 2: [item("b", "2022-02-14T00:00:00+00:00", 100)]])
        let pages = GoalsReport.pages(for: data, context: ReportContext(settings: data.settings))
        let old = try #require(pages.first { $0.path == "goals/1-old" }?.view as? GoalsReport.GoalView)
        let new = try #require(pages.first { $0.path == "goals/2-new" }?.view as? GoalsReport.GoalView)
        #expect(old.projection == "No recent saving")
        #expect(old.asOf == "14 Feb 2022")
        #expect(new.projection == "Reaches its target on 3 Jul 2023")
    }

    // MARK: Weeks

    @Test func savedPerWeekCoversTwelveWeeksInTheSiteTimeZone() {
        let asOf = Instant(iso8601: "2026-11-20T12:00:00Z")!
        let feed = [
            item("a", "2026-11-16T09:00:00Z", 100),
            item("b", "2026-11-15T23:30:00Z", 200),   // Sunday in London (GMT): the week before
            item("c", "2026-10-25T23:30:00Z", 300),   // Sunday 23:30 GMT, after the clocks went back: week 43
            item("d", "2026-08-01T12:00:00Z", 400),   // before the 12 weeks
        ]
        let weeks = GoalsRules.weeklyTotals(feed, currency: .usd, asOf: asOf, clock: london, count: 12)
        #expect(weeks.count == 12)
        #expect(weeks.first?.week == ISOWeek(year: 2026, week: 36))
        #expect(weeks.last?.week == ISOWeek(year: 2026, week: 47))
        #expect(weeks.last?.saved == usd(100))
        #expect(weeks[10].saved == usd(200))
        #expect(weeks.first { $0.week == ISOWeek(year: 2026, week: 43) }?.saved == usd(300))
        #expect(weeks.reduce(0) { $0 + $1.count } == 3)
        // In summer time a Sunday 23:30 UTC is Monday 00:30 in London: the next week.
        let summer = GoalsRules.weeklyTotals([item("s", "2026-06-14T23:30:00Z", 50)], currency: .usd,
                                             asOf: Instant(iso8601: "2026-06-20T12:00:00Z")!, clock: london, count: 2)
        #expect(summer.map(\.saved) == [usd(0), usd(50)])
    }

    @Test func savedPerRuleTypeAndPerPerson() {
        var data = dataset([goal(1, "A", saved: 0, target: nil)])
        data.qapital.users[3] = QapitalUser(id: 3, displayName: "Johan")
        let feed = [item("a", "2026-11-16T09:00:00Z", 78, user: 1, rule: 1), item("b", "2026-11-15T09:00:00Z", 400, user: 3, rule: 2),
                    item("c", "2026-11-14T09:00:00Z", 1250, user: 1), item("d", "2026-11-13T09:00:00Z", 99, user: 3, rule: 1),
                    item("e", "2026-11-12T09:00:00Z", 5, user: 7, rule: 9)]
        let names = QapitalNames(data.qapital)
        let byRule = GoalsRules.shares(feed, currency: .usd, key: { names.ruleType(of: $0) }, label: { names.ruleType(of: $0) })
        #expect(byRule.map(\.label) == ["Manual transfer", "Guilty pleasure", "Round-up", "Rule 9"])
        #expect(byRule.map(\.saved) == [usd(1250), usd(400), usd(177), usd(5)])
        let byPerson = GoalsRules.shares(feed, currency: .usd, key: { "\($0.userId)" }, label: { names.user($0.userId) })
        #expect(byPerson.map(\.label) == ["Mikael", "Johan", "User 7"])
        #expect(byPerson.map(\.count) == [2, 2, 1])
        // Two people with one name stay two rows.
        data.qapital.users[7] = QapitalUser(id: 7, displayName: "Johan")
        let namesakes = QapitalNames(data.qapital)
        let bySaver = GoalsRules.shares(feed, currency: .usd, key: { "\($0.userId)" }, label: { namesakes.user($0.userId) })
        #expect(bySaver.map(\.label) == ["Mikael", "Johan", "Johan"])
        #expect(names.rule(of: feed[0], money: ReportContext(settings: Settings()).money) == "Round-up to US$1.00")
        #expect(names.rule(of: feed[1], money: ReportContext(settings: Settings()).money) == "Guilty pleasure, US$4.00 each")
        #expect(names.rule(of: feed[2], money: ReportContext(settings: Settings()).money) == "manual")
    }

    // MARK: Messages carry HTML

    @Test(arguments: [
        ("<strong>You</strong> made a roundup.", "**You** made a roundup."),
        ("<strong>Henrik</strong> didn't resist a guilty pleasure at <strong>Starbucks</strong>.",
         "**Henrik** didn't resist a guilty pleasure at **Starbucks**."),
        ("<script>alert(1)</script>Saved", "Saved"),
        ("<img src=x onerror=alert(1)>Saved", "Saved"),
        (#"<a href="javascript:alert(1)">Saved</a>"#, "Saved"),
        ("Ben &amp; Jerry&#39;s", "Ben & Jerry's"),
        ("Tom &amp;amp; Jerry", #"Tom \&amp; Jerry"#),
        ("[x](javascript:alert(1))", #"\[x\](javascript:alert(1))"#),
        // Plain text (no tag, no entity) takes the short way, with the same result.
        ("  Saved *lots* for https://x.example  ", #"Saved \*lots\* for https\://x.example"#),
        ("# 1. not a heading", ##"\# 1. not a heading"##),
        // Emphasis stays Markdown where CommonMark surely reads it so, else it is HTML's own.
        ("<i>Written by a partner.</i><br><br>Adjoua", "*Written by a partner.*<br><br>Adjoua"),
        ("<b>\"x\"</b>y", "<strong>\"x\"</strong>y"),
        ("<b>a <i>b</b> c</i>", "<strong>a <em>b</em></strong><em> c</em>"),  // markers that touch: HTML
        ("<b> spaced </b>out", "**spaced** out"),
        ("<b></b>a<i></i>@b.example", "a<!-- -->@b.example"),
    ])
    func feedMessagesKeepOnlyEmphasis(html: String, markdown: String) {
        #expect(RichText.markdown(fromHTML: html) == markdown)
    }

    @Test func hostileMessagesNamesAndURLsNeverReachTheHTML() throws {
        let feed = [
            item("a", "2026-11-16T09:00:00Z", 100, message: "<script>alert('x')</script><strong>You</strong> saved"),
            item("b", "2026-11-15T09:00:00Z", 100, message: "<img src=x onerror=alert(1)>pic"),
            item("c", "2026-11-14T09:00:00Z", 100, message: #"<a href="javascript:alert(1)">click</a> &amp;amp; more"#),
        ]
        let data = dataset([goal(1, "<b>Bold</b> | pipe", saved: 300, target: 1000, image: "javascript:alert(1)", connected: [1])],
                           feeds: [1: feed])
        let site = SiteReport.build(data)
        let page = try #require(site.pages.first { $0.path.hasPrefix("goals/1-") })
        let output = try render(page, in: site)
        for text in [unpadded(output.markdown), output.html] {
            #expect(!text.contains("<script"))
            #expect(!text.contains("onerror"))
            #expect(!text.contains("javascript:"))
        }
        #expect(!output.html.contains("<b>Bold"))
        #expect(unpadded(output.markdown).contains("| **You** saved |"))
        #expect(output.html.contains("<strong>You</strong> saved"))
        #expect(output.html.contains("click &amp;amp; more"))
        #expect(!output.html.contains("<img"), "no remote image by default")
        #expect(output.html.contains(#"aria-hidden="true">"#) && output.html.contains("avatar-initials"))
        #expect(!output.html.contains("goal-image"), "an unsafe goal image is dropped")
        #expect(output.markdown.hasPrefix(#"# \<b>Bold\</b> \| pipe"#), "a tag from data is escaped at its `<`")
    }

    // MARK: Slugs

    @Test func slugsAreUniqueStableAndSafe() {
        let goals = [goal(3, "Bike", saved: 0, target: nil), goal(9, "Bike", saved: 0, target: nil),
                     goal(10, "../../etc", saved: 0, target: nil), goal(11, "CON", saved: 0, target: nil),
                     goal(12, "  ", saved: 0, target: nil), goal(13, "Café Crème ☕️", saved: 0, target: nil)]
        let starling = starlingAccount([
            StarlingSavingsGoal(uid: "a", name: "CON", target: nil, totalSaved: gbp(0), savedPercentage: nil, state: nil),
            StarlingSavingsGoal(uid: "b", name: "Bike", target: nil, totalSaved: gbp(0), savedPercentage: nil, state: nil),
            StarlingSavingsGoal(uid: "c", name: "Bike", target: nil, totalSaved: gbp(0), savedPercentage: nil, state: nil),
        ])
        let entries = GoalsReport.entries(dataset(goals, starling: [starling]))
        let paths = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.path) })
        #expect(Set(paths.values).count == entries.count)
        #expect(entries.first { $0.key.hasPrefix("q") && $0.key.hasSuffix("3") && $0.name == "Bike" }?.path == "goals/3-bike")
        #expect(Set(entries.filter { $0.name == "Bike" }.map(\.path))
                == ["goals/3-bike", "goals/9-bike", "goals/starling-bike", "goals/starling-bike-2"])
        #expect(entries.first { $0.name == "../../etc" }?.path == "goals/10-etc")
        #expect(Set(entries.filter { $0.name == "CON" }.map(\.path)) == ["goals/11-con", "goals/starling-con"])
        #expect(entries.first { $0.name == "  " }?.path == "goals/12")
        #expect(entries.first { $0.name.hasPrefix("Café") }?.path == "goals/13-cafe-creme")
        for path in paths.values {
            #expect(path.wholeMatch(of: /goals\/[a-z0-9][a-z0-9-]*/) != nil, "\(path)")
        }
        // The same data gives the same paths.
        #expect(GoalsReport.entries(dataset(goals, starling: [starling])).map(\.path) == entries.map(\.path))
    }

    // MARK: The index

    @Test func deletedGoalsAreListedApartAndLeftOutOfTotals() throws {
        let data = dataset([goal(1, "Kept", saved: 10_000, target: 25_000), goal(2, "Gone", saved: 99_900, target: nil, status: .deleted)],
                           starling: [starlingAccount([
                               StarlingSavingsGoal(uid: "s", name: "Trip", target: gbp(1000), totalSaved: gbp(500), savedPercentage: 50, state: "ACTIVE"),
                               StarlingSavingsGoal(uid: "t", name: "Old", target: nil, totalSaved: gbp(700), savedPercentage: nil, state: "ARCHIVED"),
                           ])])
        let pages = GoalsReport.pages(for: data, context: ReportContext(settings: data.settings))
        let index = try #require(pages.first?.view as? GoalsReport.IndexView)
        #expect(pages.first?.path == "goals/index")
        #expect(index.goals.map(\.name) == ["Trip", "Kept"])
        #expect(index.inactive.map(\.name) == ["Gone", "Old"])
        #expect(index.inactive.map(\.status) == ["deleted", "archived"])
        let site = Site(title: "T", sections: [GoalsReport.section], pages: pages)
        let gone = try render(try #require(pages.first { $0.path == "goals/2-gone" }), in: site).markdown
        #expect(gone.contains("**This goal is deleted.** It is not counted in the totals."))
        #expect(!gone.contains("## Projection"))
        #expect(index.totals.map(\.currency) == ["GBP", "USD"])
        #expect(index.totals.map(\.saved) == ["£5.00", "US$100.00"])
        #expect(index.goals.map(\.progressText) == ["50%", "40%"])
        // Every goal, deleted ones too, has its page.
        #expect(Set(pages.map(\.path)) == ["goals/index", "goals/1-kept", "goals/2-gone", "goals/starling-trip", "goals/starling-old"])
        let dashboard = try #require(GoalsReport.dashboard(for: data, context: ReportContext(settings: data.settings)))
        #expect(dashboard.figures[0].value == "£5.00 · US$100.00")
        #expect(dashboard.table?.rows.map { $0.cells[0] } == ["Trip", "Kept"])
    }

    /// A Qapital goal's page goes by Qapital's own latest data, as an account's pages go by the
    /// account's: its last week is "so far" while Qapital's data ends inside it, whatever later
    /// date the other sources reach (the site's as-of here, a week later), and the page's view is
    /// the same whatever that date is.
    @Test func aGoalsWeeksGoByQapitalsOwnLatestDate() throws {
        let data = dataset([goal(1, "Open", saved: 100, target: nil)],
                           feeds: [1: [item("a", "2026-11-16T09:00:00Z", 2500, rule: 1), item("b", "2026-11-18T09:00:00Z", 500, rule: 1)]])
        func weeks(siteAsOf: String?) throws -> [String] {
            let context = ReportContext(settings: data.settings, asOf: siteAsOf.map { CivilDate(iso8601: $0)! })
            let page = try #require(GoalsReport.pages(for: data, context: context).first { $0.path == "goals/1-open" })
            return try #require(page.view as? GoalsReport.GoalView).weeks.map(\.week)
        }
        #expect(try weeks(siteAsOf: "2026-11-25").last == "16–22 Nov 2026 so far", "Qapital's data ends on Wednesday of week 47")
        #expect(try weeks(siteAsOf: "2026-11-25") == weeks(siteAsOf: "2026-11-18"))
        #expect(try weeks(siteAsOf: nil) == weeks(siteAsOf: "2026-12-31"))
    }

    @Test func aGoalPageShowsReachedNoTargetAndStarlingWithoutAFeed() throws {
        let feed = [item("a", "2026-11-16T09:00:00Z", 2500, rule: 1)]
        let data = dataset([goal(1, "Done", saved: 50_000, target: 50_000), goal(2, "Open", saved: 100, target: nil)],
                           feeds: [1: feed, 2: feed],
                           starling: [starlingAccount([StarlingSavingsGoal(uid: "s", name: "Paris", target: gbp(100_000),
                                                                           totalSaved: gbp(2000), savedPercentage: 20, state: nil)])])
        let site = SiteReport.build(data)
        func markdown(_ path: String) throws -> String { unpadded(try render(try #require(site.pages.first { $0.path == path }), in: site).markdown) }
        let done = try markdown("goals/1-done")
        #expect(done.contains("**US$500.00** saved of US$500.00 (reached)."))
        #expect(done.contains("**Target reached.**"))
        #expect(done.contains("| 16 Nov 2026 | 09:00 | **You** made a roundup. | US$25.00 | Mikael | Round-up to US$1.00 |"))
        #expect(done.contains("| 16–22 Nov 2026 so far | 1 | US$25.00 |"), "a week by its days, not its ISO code")
        let open = try markdown("goals/2-open")
        #expect(open.contains("**US$1.00** saved, no target."))
        #expect(open.contains("**No target.**"))
        let paris = try markdown("goals/starling-paris")
        #expect(paris.contains("**£20.00** saved of £1,000.00 (20%)."))
        #expect(paris.contains("Starling savings goal of the account Personal."))
        #expect(paris.contains("**No saving history.**"))
        #expect(!paris.contains("## Saved per week"))
        let index = try markdown("goals/index")
        #expect(index.contains("| [Done](../goals/1-done.md) | Qapital | US$500.00 | US$500.00 | reached | Reached | Mikael (owner) | 16 Nov 2026 |"))
        #expect(index.contains("| [Open](../goals/2-open.md) | Qapital | US$1.00 | no target | – |"))
    }

    @Test func everyStarlingGoalSampleGetsAPage() throws {
        var goals: [StarlingSavingsGoal] = StarlingLoader.savingsGoals(in: try sample("starling/savings-goals.json").0)
        for path in ["starling/savings-goal.json", "starling/savings-goal-percentage-saved.json"] {
            goals.append(try #require(StarlingLoader.savingsGoal(try sample(path).0.value)))
        }
        let data = dataset([], starling: [starlingAccount(goals)])
        let pages = GoalsReport.pages(for: data, context: ReportContext(settings: data.settings))
        let index = try #require(pages.first?.view as? GoalsReport.IndexView)
        #expect(index.goals.map(\.progressText) == ["reached", "65%", "45%", "–"])
        #expect(pages.map(\.path).sorted() == ["goals/index", "goals/starling-lisbon-in-may", "goals/starling-new-bike",
                                               "goals/starling-rainy-day", "goals/starling-round-ups"])
    }

    // MARK: End to end

    /// The Qapital samples (Tests/Samples/qapital), laid out as a data folder, build into a site.
    @Test func theQapitalSamplesBuildIntoASite() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        let layout = ["savingsgoals.json": "qapital/savingsgoals.json", "savingsgoals_21_feed.json": "qapital/feed/21.json",
                      "savingsrules.json": "qapital/savingsrules.json",
                      "users_11.json": "qapital/users/11.json", "users_12.json": "qapital/users/12.json",
                      "users_13.json": "qapital/users/13.json"]
        for (from, to) in layout {
            try write(try sampleText("qapital/" + from), to: data.appendingPathComponent(to))
        }
        var build = Build(options: BuildOptions(data: data, output: work.appendingPathComponent("site")))
        build.progress = { _ in }
        let result = try build.run()
        // User 14 is named by a goal but has no file: a warning, not an error.
        #expect(result.warnings.map(\.message) == [#"no qapital/users/14.json for user 14 (named by goal 25); shown as "User 14""#])
        let site = snapshot(work.appendingPathComponent("site"))
        let text = { (path: String) in unpadded(String(decoding: site[path] ?? Data(), as: UTF8.self)) }
        #expect(site.keys.filter { $0.hasPrefix("goals/") && $0.hasSuffix(".md") }.count == 6)
        let canoe = text("goals/21-canoe.md")
        #expect(canoe.contains("**US$612.35** saved of US$2,400.00 (25%)."))
        #expect(canoe.contains("- Sam (owner)\n- Priya\n- Tomás\n"))
        // Feed times are UTC in the file and shown in Europe/London (BST in September).
        #expect(canoe.contains("| 14 Sep 2019 | 17:20 | **You** made a manual transfer. | US$25.00 | Sam | manual |"))
        #expect(canoe.contains("| 10 Sep 2019 | 13:00 | **You** made a manual transfer. | US$7.50 | Sam | manual |"))
        #expect(canoe.contains("| 13 Sep 2019 | 09:47 | **You** made a roundup. | US$0.64 | Sam | Round-up to US$2.00 |"))
        #expect(canoe.contains("**Bean & Leaf**"), "the message's &amp; is an ampersand, which needs no escape in Markdown")
        #expect(canoe.contains("| Manual transfer | 2 | US$32.50 |"))
        #expect(canoe.contains("| Tomás | 1 | US$0.05 |"))
        // The last 8 weeks end at the data's own latest day, 14 Sep 2019, not today: US$36.55 in 56 days,
        // so US$1,787.65 to go takes ⌈178765 × 56 / 3655⌉ = 2739 days.
        #expect(canoe.contains("**Reaches its target on 15 Mar 2027.** At the average pace of the last 8 weeks (21 Jul – 14 Sep 2019), US$4.57 a week"))
        let html = text("goals/21-canoe.html")
        #expect(html.contains("<strong>Priya</strong> didn't resist a guilty pleasure at <strong>Bean &amp; Leaf</strong>."))
        #expect(!html.contains("goal-placeholder"), "no remote image by default, and no empty placeholder opening the page")
        #expect(!html.contains("<img"))
        #expect(html.contains(#"<svg class="chart chart-columns""#))
        let index = text("goals/index.md")
        #expect(index.contains("| [Tent](../goals/23-tent.md) | Qapital | US$350.00 | US$350.00 | reached | Reached | Priya (owner), Sam | – |"))
        #expect(index.contains("| [Emergency fund](../goals/25-emergency-fund.md) | Qapital | US$40.50 | no target | – | No target | Sam (owner), User 14 | – |"))
        // The deleted goal is listed apart and left out of the totals.
        #expect(index.contains("| USD | 4 | **US$1,077.85** | US$2,750.00 |"))
        #expect(index.contains("| [Wedding gift](../goals/24-wedding-gift.md) | Qapital | deleted | US$0.00 | US$5,000.00 | – |"))
        #expect(text("index.md").contains("## Savings goals"))
    }

    @Test func theFixturesBuildGoalPagesThroughTheBinary() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", repositoryRoot.appendingPathComponent("Fixtures").path,
                                            "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let files = snapshot(output)
        for page in ["goals/index.md", "goals/index.html", "goals/1-summer-in-lisbon.html", "goals/2-bike.md", "goals/8-bike.md",
                     "goals/5-dog.md", "goals/starling-trip-to-lisbon.md"] {
            #expect(files[page] != nil, "missing \(page)")
        }
        let lisbon = String(decoding: try #require(files["goals/1-summer-in-lisbon.md"]), as: UTF8.self)
        #expect(lisbon.contains("## Saved per week"))
        #expect(lisbon.components(separatedBy: "\n").filter { $0.hasPrefix("| ") && $0.contains(" 2026") && !$0.contains(":") }.count == 12)
        #expect(!lisbon.contains("2026-W"), "weeks by their days, never their ISO code")
        #expect(lisbon.components(separatedBy: "\n").filter { $0.hasPrefix("# ") }.count == 1)
        let index = String(decoding: try #require(files["goals/index.md"]), as: UTF8.self)
        #expect(index.contains("## Deleted and archived goals"))
        let dashboard = String(decoding: try #require(files["index.html"]), as: UTF8.self)
        #expect(dashboard.contains(#"href="goals/index.html""#))
    }
}

/// A goal's figures reconcile on its page: what the feed does not account for is said in words.
@Suite struct GoalReconciliationTests {
    let context = ReportContext(settings: Settings())
    func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: Currency(code: "USD")!) }

    @Test func moneySavedBeforeTheFeedIsSaidToBe() {
        let text = GoalsReport.reconciliation(saved: usd(33_786), feedTotal: usd(18_786), oldest: nil, context: context)
        #expect(text == "The feed adds up to US$187.86 of the US$337.86 saved: the other US$150.00 was saved before the feed begins.")
    }

    @Test func moneyTakenOutIsSaidToBe() {
        let text = GoalsReport.reconciliation(saved: usd(1_000), feedTotal: usd(1_500), oldest: nil, context: context)
        #expect(text == "The feed adds up to US$15.00, US$5.00 more than the goal holds (US$10.00): that much has been taken out of it.")
    }

    @Test func figuresThatAgreeNeedNoWord() {
        #expect(GoalsReport.reconciliation(saved: usd(500), feedTotal: usd(500), oldest: nil, context: context) == nil)
        #expect(GoalsReport.reconciliation(saved: usd(500), feedTotal: gbp(100), oldest: nil, context: context) == nil, "never across currencies")
    }
}
