import NestEggModel
import NestEggSupport
/// The goals list's outlook column: whether a goal is on track for the day it should reach its
/// target (`goalDates` in the settings; the data gives goals no such day), from the projection of
/// its goal page (``GoalsRules/projection(saved:target:reportedPercent:feed:asOf:clock:weeks:)``:
/// the average weekly pace of the last eight weeks).
enum GoalOutlook {
    static func text(_ entry: GoalsReport.Entry, asOf: Instant?, context: ReportContext) -> String {
        let projection = GoalsRules.projection(saved: entry.saved, target: entry.target, reportedPercent: entry.reportedPercent,
                                               feed: entry.feed, asOf: asOf, clock: context.clock, weeks: GoalsReport.paceWeeks)
        let due = context.settings.goalDates[entry.name]
        switch projection {
        case .targetReached:
            return "Reached"
        case .noTarget:
            return "No target"
        case .reachedOn(let date, _, _):
            guard let due else { return "By \(context.date(date)) at this pace" }
            return date <= due ? "On track: by \(context.date(date)), due \(context.date(due))"
                : "Behind: \(context.date(date)) at this pace, due \(context.date(due))"
        case .beyondACentury:
            return due.map { "Behind: due \(context.date($0)), more than a century away at this pace" } ?? "More than a century away at this pace"
        case .noRecentSaving:
            return due.map { "Behind: nothing saved in 8 weeks, due \(context.date($0))" } ?? "Nothing saved in 8 weeks"
        case .noHistory:
            return due.map { "Due \(context.date($0)); no saving history to project from" } ?? "No saving history to project from"
        }
    }
}
