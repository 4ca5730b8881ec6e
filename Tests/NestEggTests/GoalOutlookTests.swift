import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

@Suite struct GoalOutlookTests {
    /// On track, behind, reached: the goals list against `goalDates`, from the goal page's projection.
    @Test func theGoalsListSaysOnTrackBehindOrReached() throws {
        var dataset = try NetWorthTests.fixtures()
        let context = { ReportContext(dataset: dataset) }
        let entries = GoalsReport.entries(dataset)
        let asOf = dataset.qapital.latestInstant
        let summer = try #require(entries.first { $0.name == "Summer in Lisbon" })
        // Its projection, worked out as its own page does: 5 Aug 2027 at the last eight weeks' pace.
        guard case .reachedOn(let date, _, _) = GoalsRules.projection(saved: summer.saved, target: summer.target, feed: summer.feed,
                                                                        asOf: asOf, clock: context().clock, weeks: 8) else {
            Issue.record("no projection"); return
        }
        #expect(GoalOutlook.text(summer, asOf: asOf, context: context()) == "Behind: \(context().date(date)) at this pace, due 31 Jan 2027")
        dataset.settings.goalDates["Summer in Lisbon"] = date
        #expect(GoalOutlook.text(summer, asOf: asOf, context: context()).hasPrefix("On track: by \(context().date(date))"))
        dataset.settings.goalDates["Summer in Lisbon"] = date.adding(days: -1)
        #expect(GoalOutlook.text(summer, asOf: asOf, context: context()).hasPrefix("Behind:"))
        dataset.settings.goalDates = [:]
        #expect(GoalOutlook.text(summer, asOf: asOf, context: context()) == "By \(context().date(date)) at this pace")
        let bike = try #require(entries.first { $0.name == "Bike" && $0.target != nil })
        #expect(GoalOutlook.text(bike, asOf: asOf, context: context()) == "Reached")

        let site = SiteReport.build(try NetWorthTests.fixtures())
        let page = try #require(site.pages.first { $0.path == "goals/index" })
        let markdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(page).markdown)
        #expect(markdown.contains("| Outlook |"))
        #expect(markdown.contains("| 42% | Behind: 5 Aug 2027 at this pace, due 31 Jan 2027 |"), "\(markdown)")

        let (doc, log) = document(#"{"goalDates": {"Bike": "2027-02-30"}}"#)
        _ = SettingsLoader.settings(in: try #require(doc))
        #expect(log.errors.map(\.path) == ["$.goalDates.Bike"])
    }
}
