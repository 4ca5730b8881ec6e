import NestEggModel
import NestEggSupport
/// The savings-goals pages: `goals/index` (every goal, Qapital's and Starling's) and one page
/// per goal, `goals/<id>-<slug>` (`goals/starling-<slug>` for Starling goals).
public enum GoalsReport {
    public static let section = Section(id: "goals", title: "Savings goals", path: "goals/index")

    /// Weeks in the "saved per week" chart, and weeks the projection's pace is averaged over.
    static let chartWeeks = 12
    static let paceWeeks = 8

    // MARK: The goals, from both sources

    /// One goal as the pages see it, whichever source it came from.
    struct Entry: Sendable {
        let key: String
        let path: String
        let name: String
        let source: String
        let about: String
        let saved: Money
        let target: Money?
        let reportedPercent: Int?
        let image: SafeURL?
        /// Qapital: the owner first, then the users the goal is shared with. Empty for Starling.
        let memberIds: [Int]
        /// `nil` when the source keeps no feed for its goals (Starling).
        let feed: [QapitalFeedItem]?
        /// The newest item's time on the feed (``QapitalData/lastActivity(of:)``).
        let lastActivity: Instant?
        /// The goal's ``Page/entity``: a Qapital goal's page is its feed's.
        let entity: String?
        /// Listed apart and left out of every total: deleted (Qapital) or archived (Starling).
        let inactiveStatus: String?
        let created: CivilDate?

        var progress: GoalsRules.Progress {
            GoalsRules.progress(saved: saved, target: target, reportedPercent: reportedPercent)
        }

        var sortKey: GoalsRules.SortKey {
            GoalsRules.SortKey(saved: saved, target: target, reportedPercent: reportedPercent, name: name, id: key)
        }

    }

    /// Starling states that mean the goal is no longer in use.
    static let inactiveStarlingStates: Set<String> = ["ARCHIVED", "ARCHIVING"]

    /// Every goal, in the list's order; paths are allocated in a fixed order (Qapital by id, then
    /// Starling in file order), so a goal keeps its page when others change order.
    static func entries(_ dataset: Dataset) -> [Entry] {
        var allocator = SlugAllocator(reserved: ["index"])
        var result: [Entry] = []
        let qapital = dataset.qapital
        for goal in qapital.goals.sorted(by: { $0.id < $1.id }) {
            let slug = allocator.allocate("\(goal.id) \(goal.name)", fallback: "goal")
            result.append(Entry(
                key: "q" + String(goal.id).leftPadded(to: 20), path: "goals/\(slug)", name: goal.name, source: "Qapital",
                about: "Qapital goal",
                saved: goal.saved, target: goal.target, reportedPercent: nil, image: goal.imageURL.flatMap(SafeURL.init),
                memberIds: [goal.ownerId] + goal.connectedUserIds, feed: qapital.feed(of: goal.id),
                lastActivity: qapital.lastActivity(of: goal.id), entity: Page.entity(ofQapitalGoal: goal.id),
                inactiveStatus: goal.status == .deleted ? "deleted" : nil, created: goal.created))
        }
        for (accountIndex, data) in dataset.accounts.enumerated() {
            for (goalIndex, goal) in data.savingsGoals.enumerated() {
                let slug = allocator.allocate("starling \(goal.name)", fallback: "goal")
                let state = goal.state?.uppercased()
                result.append(Entry(
                    key: "s" + String(accountIndex).leftPadded(to: 6) + String(goalIndex).leftPadded(to: 6) + goal.uid,
                    path: "goals/\(slug)", name: goal.name, source: "Starling · \(data.account.name)",
                    about: "Starling savings goal of the account \(data.account.name)",
                    saved: goal.totalSaved, target: goal.target, reportedPercent: goal.savedPercentage, image: nil,
                    memberIds: [], feed: nil, lastActivity: nil, entity: nil,
                    inactiveStatus: state.flatMap { inactiveStarlingStates.contains($0) ? $0.lowercased() : nil }, created: nil))
            }
        }
        return GoalsRules.inListOrder(result, key: \.sortKey)
    }

    // MARK: View data (what the templates see)

    struct IndexView: Sendable, Encodable {
        let asOf: String?
        let timeZone: String
        let goals: [GoalRow]
        let hasGoals: Bool
        let totals: [TotalRow]
        let hasTotals: Bool
        let inactive: [GoalRow]
        let hasInactive: Bool
        /// True when there are no active goals at all (not merely none on this page).
        let noActiveGoals: Bool
        /// The active goals, then the inactive ones, split over pages as one list.
        let pager: Pagination.View
        /// The totals show on the first page only.
        let isFirstPage: Bool
    }

    struct GoalRow: Sendable, Encodable {
        let name: String
        let href: String
        let source: String
        /// The goal's image when a page may show it (``shownImage(_:context:)``), else nil.
        let imageURL: String?
        /// The goal has an image, shown or not (a neutral placeholder stands in for it).
        let hasImage: Bool
        let saved: String
        let target: String
        let hasTarget: Bool
        /// `26%`, `reached`, or `–` without a target.
        let progressText: String
        /// Nil without a target.
        let progressChart: Chart?
        let isReached: Bool
        let members: [MemberView]
        let hasMembers: Bool
        let lastActivity: String
        let status: String
        /// On track, behind, reached, or the projection in words (``GoalOutlook``).
        let outlook: String
    }

    struct MemberView: Sendable, Encodable {
        let name: String
        let avatarURL: String?
        let initials: String
        let avatarColour: Int
        let isOwner: Bool
        let isLast: Bool
    }

    struct TotalRow: Sendable, Encodable {
        let currency: String
        let goals: String
        let saved: String
        let targets: String
    }

    struct GoalView: Sendable, Encodable {
        let name: String
        let source: String
        /// `Qapital goal, created 10 Aug 2026` or `Starling savings goal of the account Personal`.
        let about: String
        let imageURL: String?
        let hasImage: Bool
        let saved: String
        let target: String?
        let progressText: String
        let progressChart: Chart?
        let isReached: Bool
        let inactiveStatus: String?
        let members: [MemberView]
        let hasMembers: Bool
        let hasFeed: Bool
        let asOf: String?
        let timeZone: String
        let projection: String
        let projectionDetail: String?
        let weeks: [WeekRow]
        let weeksChart: Chart?
        let weeksTotal: String
        /// Deposits in the weeks shown, and in the whole feed: the totals rows' count column.
        let weeksCount: String
        let feedCount: String
        let byRule: [ShareRow]
        let byRuleTotal: String
        /// Why the feed's total is not what the goal holds, when it is not.
        let reconciliation: String?
        let byPerson: [ShareRow]
        let byPersonTotal: String
        let items: [ItemRow]
        let hasItems: Bool
        let itemCount: String
    }

    struct WeekRow: Sendable, Encodable {
        /// The week by its days (`31 Aug – 6 Sep 2026`), "so far" while in progress.
        let week: String
        let count: String
        let saved: String
    }

    struct ShareRow: Sendable, Encodable {
        let label: String
        let count: String
        let saved: String
    }

    struct ItemRow: Sendable, Encodable {
        let date: String
        let time: String
        /// The feed message, sanitised: emphasis kept, everything else text.
        let message: SanitizedText
        let amount: String
        let who: String
        let avatarURL: String?
        let initials: String
        let avatarColour: Int
        let rule: String
    }

    // MARK: Pages

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        let entries = self.entries(dataset)
        guard !entries.isEmpty else { return [] }
        let names = QapitalNames(dataset.qapital)
        let asOf = dataset.qapital.latestInstant
        let crumbs = [Link("Dashboard", "index"), Link(section.title, section.path)]
        // A goal's weeks end where Qapital's data does, and the last is "so far" by the same date,
        // whatever the other sources hold (as an account's pages end on its own data).
        let goalContext = ReportContext(settings: context.settings, asOf: asOf.map(context.clock.date))

        var pages: [Page] = []
        for entry in entries.sorted(by: { $0.path < $1.path }) {
            pages.append(Page(path: entry.path, title: entry.name, template: "goals-goal", section: section.id,
                              breadcrumbs: crumbs, entity: entry.entity,
                              view: goalView(entry, names: names, asOf: asOf, context: goalContext)))
        }

        let active = entries.filter { $0.inactiveStatus == nil }
        let inactive = entries.filter { $0.inactiveStatus != nil }
        let totals = MoneyTotals(active.map(\.saved))
        let targets = MoneyTotals(active.compactMap(\.target))
        let totalRows = totals.amounts.map { amount in
            TotalRow(currency: amount.currency.code, goals: context.count(active.filter { $0.saved.currency == amount.currency }.count),
                     saved: context.money(amount),
                     targets: targets.amounts.contains { $0.currency == amount.currency } ? context.money(targets[amount.currency]) : "–")
        }
        // Active then inactive goals page as one list, so neither table can grow a page past its size.
        let pagination = Pagination(count: active.count + inactive.count)
        let indexPages = pagination.pages(base: section.path, title: "Savings goals").map { page in
            let activeRange = page.range.clamped(to: 0..<active.count)
            let inactiveRange = (page.range.lowerBound - active.count)..<(page.range.upperBound - active.count)
            let inactiveShown = inactiveRange.clamped(to: 0..<inactive.count)
            let first = page.number == 1
            return Page(path: page.path, title: page.title, template: "goals-index", section: section.id,
                        breadcrumbs: first ? [Link("Dashboard", "index")] : crumbs,
                        view: IndexView(
                            asOf: asOf.map(context.date), timeZone: context.clock.identifier,
                            goals: active[activeRange].map { row($0, names: names, asOf: asOf, context: context) }, hasGoals: !activeRange.isEmpty,
                            totals: first ? totalRows : [], hasTotals: first && !totalRows.isEmpty,
                            inactive: inactive[inactiveShown].map { row($0, names: names, context: context) },
                            hasInactive: !inactiveShown.isEmpty, noActiveGoals: active.isEmpty,
                            pager: pagination.view(page: page.number, base: section.path, noun: "goals", locale: context.locale),
                            isFirstPage: first))
        }
        pages.insert(contentsOf: indexPages, at: 0)
        return pages
    }

    static func progressText(_ progress: GoalsRules.Progress) -> String {
        switch progress {
        case .noTarget: return "–"
        case .inProgress(let percent): return "\(percent)%"
        case .reached: return "reached"
        }
    }

    static func progressChart(_ progress: GoalsRules.Progress, name: String) -> Chart? {
        guard let percent = progress.percent else { return nil }
        return Chart.progress(percent: percent, title: "\(name): \(percent)% of the target saved")
    }

    static func members(_ entry: Entry, names: QapitalNames, context: ReportContext) -> [MemberView] {
        entry.memberIds.enumerated().map { index, id in
            let name = names.user(id)
            return MemberView(name: name, avatarURL: shownImage(names.avatar(id), context: context),
                              initials: Initials.of(name), avatarColour: Initials.colour(of: name), isOwner: index == 0,
                              isLast: index == entry.memberIds.count - 1)
        }
    }

    /// An image named in the data as a page may show it: only with `"remoteImages": true` in
    /// `nestegg.json`, and only over https. By default no request leaves a page: avatars are
    /// initials, goal images a neutral placeholder.
    static func shownImage(_ url: SafeURL?, context: ReportContext) -> String? {
        guard context.settings.remoteImages, let text = url?.description, text.lowercased().hasPrefix("https://") else { return nil }
        return text
    }

    static func row(_ entry: Entry, names: QapitalNames, asOf: Instant? = nil, context: ReportContext) -> GoalRow {
        let progress = entry.progress
        let members = self.members(entry, names: names, context: context)
        return GoalRow(
            name: entry.name, href: ReportContext.href(entry.path), source: entry.source,
            imageURL: shownImage(entry.image, context: context), hasImage: entry.image != nil,
            saved: context.money(entry.saved), target: entry.target.map(context.money) ?? "no target",
            hasTarget: progress != .noTarget, progressText: progressText(progress),
            progressChart: progressChart(progress, name: entry.name), isReached: progress.isReached,
            members: members, hasMembers: !members.isEmpty,
            lastActivity: entry.lastActivity.map(context.date) ?? "–", status: entry.inactiveStatus ?? "active",
            outlook: GoalOutlook.text(entry, asOf: asOf, context: context))
    }

    static func goalView(_ entry: Entry, names: QapitalNames, asOf: Instant?, context: ReportContext) -> GoalView {
        let progress = entry.progress
        let currency = entry.saved.currency
        let feed = entry.feed ?? []
        let members = self.members(entry, names: names, context: context)

        let projection = GoalsRules.projection(saved: entry.saved, target: entry.target, reportedPercent: entry.reportedPercent,
                                               feed: entry.feed, asOf: asOf, clock: context.clock, weeks: paceWeeks)
        let (projectionText, projectionDetail) = describe(projection, asOf: asOf, context: context)

        var weekRows: [WeekRow] = []
        var weeksChart: Chart?
        var weeksTotal = Money.zero(currency)
        var weeksCount = 0
        if let asOf, entry.feed != nil {
            let weeks = GoalsRules.weeklyTotals(feed, currency: currency, asOf: asOf, clock: context.clock, count: chartWeeks)
            weekRows = weeks.map { week in
                WeekRow(week: context.locale.formatRange(week.week.monday, week.week.sunday) + context.progress.soFar(week.week),
                        count: context.count(week.count), saved: context.money(week.saved))
            }
            weeksTotal = weeks.reduce(Money.zero(currency)) { $0 + $1.saved }
            weeksCount = weeks.reduce(0) { $0 + $1.count }
            weeksChart = Chart.columns(weeks.map { week in
                Chart.Bar(label: context.locale.formatShort(week.week.monday), value: week.saved.minorUnits,
                          valueText: context.money(week.saved), shortText: context.compactMoney(week.saved))
            }, title: "\(entry.name): saved per week, the last \(chartWeeks) weeks",
               axis: Chart.moneyAxis(upTo: weeks.map(\.saved).max { $0.minorUnits < $1.minorUnits } ?? .zero(currency), format: context.compactMoney))
        }

        let byRule = GoalsRules.shares(feed, currency: currency, key: { names.ruleType(of: $0) }, label: { names.ruleType(of: $0) })
        let byPerson = GoalsRules.shares(feed, currency: currency, key: { "\($0.userId)" }, label: { names.user($0.userId) })
        let feedTotal = feed.filter { $0.amount.currency == currency }.reduce(Money.zero(currency)) { $0 + $1.amount }
        let shareRows = { (shares: [GoalsRules.Share]) in
            shares.map { ShareRow(label: $0.label, count: context.count($0.count), saved: context.money($0.saved)) }
        }
        // A feed repeats its messages and its people: each is worked out once per page.
        var messages: [String: SanitizedText] = [:]
        var avatars: [Int: String?] = [:]
        let items = feed.map { item in
            let message = messages[item.messageHTML] ?? SanitizedText(html: item.messageHTML)
            messages[item.messageHTML] = message
            let avatar = avatars[item.userId] ?? shownImage(names.avatar(item.userId), context: context)
            avatars[item.userId] = avatar
            let who = names.user(item.userId)
            return ItemRow(date: context.date(item.timestamp), time: context.time(item.timestamp),
                           message: message, amount: context.money(item.amount),
                           who: who, avatarURL: avatar, initials: Initials.of(who), avatarColour: Initials.colour(of: who),
                           rule: names.rule(of: item, money: context.money))
        }

        return GoalView(
            name: entry.name, source: entry.source,
            about: entry.about + (entry.created.map { ", created \(context.date($0))" } ?? ""),
            imageURL: shownImage(entry.image, context: context), hasImage: entry.image != nil, saved: context.money(entry.saved),
            target: entry.target.map(context.money), progressText: progressText(progress),
            progressChart: progressChart(progress, name: entry.name), isReached: progress.isReached,
            inactiveStatus: entry.inactiveStatus,
            members: members, hasMembers: !members.isEmpty, hasFeed: entry.feed != nil,
            asOf: asOf.map(context.date), timeZone: context.clock.identifier,
            projection: projectionText, projectionDetail: projectionDetail,
            weeks: weekRows, weeksChart: weeksChart, weeksTotal: context.money(weeksTotal), weeksCount: context.count(weeksCount),
            feedCount: context.count(feed.filter { $0.amount.currency == currency }.count),
            byRule: shareRows(byRule), byRuleTotal: context.money(feedTotal),
            reconciliation: reconciliation(saved: entry.saved, feedTotal: feedTotal, oldest: feed.map(\.timestamp).min(), context: context),
            byPerson: shareRows(byPerson), byPersonTotal: context.money(feedTotal),
            items: items, hasItems: !items.isEmpty, itemCount: context.count(items.count))
    }

    /// The figures reconciled: the feed shows only part of a goal's history, so its total can be
    /// less than what the goal holds (money saved before the feed begins) or more (money taken out).
    static func reconciliation(saved: Money, feedTotal: Money, oldest: Instant?, context: ReportContext) -> String? {
        guard saved.currency == feedTotal.currency, saved != feedTotal else { return nil }
        let difference = saved - feedTotal
        if difference.isNegative {
            return "The feed adds up to \(context.money(feedTotal)), \(context.money(-difference)) more than the goal holds "
                + "(\(context.money(saved))): that much has been taken out of it."
        }
        let start = oldest.map { " (its first item is on \(context.date($0)))" } ?? ""
        return "The feed adds up to \(context.money(feedTotal)) of the \(context.money(saved)) saved: the other "
            + "\(context.money(difference)) was saved before the feed begins\(start)."
    }

    /// The projection as a headline and a sentence saying how it was worked out.
    static func describe(_ projection: GoalsRules.Projection, asOf: Instant?, context: ReportContext) -> (String, String?) {
        let window = asOf.map { asOf -> String in
            let (after, upTo) = GoalsRules.paceWindow(asOf: asOf, weeks: paceWeeks)
            return "the last \(paceWeeks) weeks (\(context.locale.formatRange(context.clock.date(of: after).adding(days: 1), context.clock.date(of: upTo))))"
        } ?? "the last \(paceWeeks) weeks"
        switch projection {
        case .noTarget:
            return ("No target", "The goal has no target, so there is no date to reach.")
        case .targetReached:
            return ("Target reached", nil)
        case .noHistory:
            return ("No saving history", "The source keeps no history of this goal's savings, so there is no pace to project from.")
        case .noRecentSaving:
            return ("No recent saving", "Nothing was saved into this goal in \(window), so there is no pace to project from.")
        case .reachedOn(let date, let pace, let remaining):
            return ("Reaches its target on \(context.date(date))",
                    "At the average pace of \(window), \(context.money(pace)) a week, the remaining \(context.money(remaining)) takes until \(context.date(date)).")
        case .beyondACentury(let pace):
            return ("Not within a century",
                    "At the average pace of \(window), \(context.money(pace)) a week, the target is more than a hundred years away.")
        }
    }

    // MARK: Dashboard

    /// The start page's goals: the total saved per currency and the top goals in list order.
    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        let active = entries(dataset).filter { $0.inactiveStatus == nil }
        guard !active.isEmpty else { return nil }
        let totals = MoneyTotals(active.map(\.saved))
        let rows = active.prefix(5).map { entry in
            DashboardSection.Table.Row([entry.name, context.money(entry.saved), entry.target.map(context.money) ?? "no target",
                                        progressText(entry.progress)])
        }
        var figures = [DashboardSection.Figure(label: "Saved in \(active.count) active goal\(active.count == 1 ? "" : "s")",
                                               value: context.money(totals), href: ReportContext.href(section.path),
                                               count: active.count, id: "saved")]
        if let closest = active.first(where: { if case .inProgress = $0.progress { return true } else { return false } }) {
            figures.append(.init(label: "Closest to its target: \(closest.name)", value: progressText(closest.progress),
                                 href: ReportContext.href(closest.path), id: "closest-to-target"))
        }
        return DashboardSection(
            title: "Savings goals", href: ReportContext.href(section.path), linkText: "Every savings goal",
            figures: figures,
            table: .init(columns: ["Goal", "Saved", "Target", "Progress"], numeric: [false, true, true, true], rows: rows))
    }
}
