import NestEggModel
import NestEggSupport
/// The weekly round-up pages: `roundups/index` and `roundups/<account>/<week>`.
public enum RoundUpsReport {
    public static let section = Section(id: "roundups", title: "Round-ups", path: "roundups/index")

    // MARK: View data (what the templates see)

    struct IndexView: Sendable, Encodable {
        let timeZone: String
        let accounts: [AccountView]
        let hasAccounts: Bool
        /// Which accounts this page shows: accounts are kept whole and share a page while their
        /// weeks fit in one.
        let pager: Pagination.View
    }

    struct AccountView: Sendable, Encodable {
        let name: String
        let type: String
        let currency: String
        let goal: GoalView?
        let weeks: [WeekRow]
        let hasWeeks: Bool
        let totalCounted: Int
        let totalSpent: String
        let totalRoundUp: String
    }

    struct GoalView: Sendable, Encodable {
        let name: String
        let saved: String
        let target: String?
        let percent: Int?
    }

    struct WeekRow: Sendable, Encodable {
        let dates: String
        let href: String
        let counted: Int
        let spent: String
        let roundUp: String
        /// The week is not over by the account's own latest data: its round-up is "so far".
        let inProgress: Bool
    }

    struct WeekView: Sendable, Encodable {
        let accountName: String
        let week: String
        let dates: String
        let timeZone: String
        let items: [ItemRow]
        let hasItems: Bool
        let excluded: [ExcludedRow]
        let hasExcluded: Bool
        let spent: String
        let roundUp: String
        let hasRoundUp: Bool
        /// The week is not over by the account's own latest data (`asOf`): its round-up is "so far", not a transfer to make yet.
        let inProgress: Bool
        let asOf: String?
        let goal: GoalView?
        let previous: LinkView?
        let next: LinkView?
    }

    struct ItemRow: Sendable, Encodable {
        let date: String
        let time: String
        let counterParty: String
        let reference: String
        let amount: String
        let roundUp: String
        let pending: Bool
    }

    struct ExcludedRow: Sendable, Encodable {
        let date: String
        let time: String
        let counterParty: String
        let amount: String
        let reason: String
    }

    // MARK: Building

    /// The savings goal an account's round-ups go to: the one named in the settings,
    /// else the account's first goal.
    static func goal(for data: AccountData, settings: Settings) -> StarlingSavingsGoal? {
        if let uid = settings.roundUpGoals[data.account.uid] {
            return data.savingsGoals.first { $0.uid == uid }
        }
        return data.savingsGoals.first
    }

    /// Account slugs, unique and stable (in the order of accounts.json).
    static func accountSlugs(_ accounts: [AccountData]) -> [String] {
        var allocator = SlugAllocator(reserved: ["index"])
        return accounts.map { allocator.allocate($0.account.name, fallback: "account") }
    }


    /// Every account's week pages and the index of them all. The index lists each account's
    /// weeks as its figures hold them (``AccountFigures``, by UID; worked out here when not
    /// given); the week pages are made of the feed, for each account not in `elsewhere` (those
    /// whose own pages another build step makes). Accounts without round-ups
    /// (``AccountData/roundUps``) are left out, their slugs kept as the statements allocate them.
    public static func pages(for accounts: [AccountData], context: ReportContext,
                             figures given: [String: AccountFigures]? = nil, elsewhere: Set<String> = []) -> [Page] {
        guard accounts.contains(where: \.roundUps) else { return [] }
        let figures = given ?? AccountFigures.of(accounts, context: context)
        let slugs = accountSlugs(accounts)
        var pages: [Page] = []
        var listed: [AccountSummary] = []
        let crumbs = [Link("Dashboard", "index")]
        let indexCrumbs = crumbs + [Link(section.title, section.path)]

        for (data, slug) in zip(accounts, slugs) where data.roundUps {
            let account = data.account
            guard let accountFigures = figures[account.uid] else { preconditionFailure("every account has its figures") }
            // Its weeks are in progress by its own latest data, not the site's (``ReportContext/account(_:figures:)``).
            let own = context.account(data, figures: accountFigures)
            let goal = self.goal(for: data, settings: own.settings).map { goalView($0, context: own) }
            // The index reads the weeks where they are read, from the figures (decoded there when read back from a summary).
            listed.append(AccountSummary(account: account, slug: slug, context: own, weeks: .figures(accountFigures), goal: goal))
            guard !elsewhere.contains(account.uid) else { continue }
            let weeks = RoundUpRule.weeks(of: data.feed, currency: account.currency, clock: own.clock)
            let path = { (week: ISOWeek) in "roundups/\(slug)/\(week)" }
            pages += weekPages(weeks, account: account, goal: goal, context: own, path: path,
                               section: section.id, breadcrumbs: indexCrumbs, entity: Page.entity(of: account))
        }

        let pagination = Pagination(rows: listed.map { $0.weekCount + 1 })
        let all = listed
        let indexPages = pagination.pages(base: section.path, title: "Weekly round-ups").map { page in
            Page(path: page.path, title: page.title, template: "roundups-index", section: section.id,
                 breadcrumbs: page.number == 1 ? crumbs : indexCrumbs,
                 view: IndexView(timeZone: context.clock.identifier,
                                 accounts: all[page.range].map { accountView($0, context: $0.context) }, hasAccounts: !all.isEmpty,
                                 pager: pagination.view(page: page.number, base: section.path, noun: "accounts", locale: context.locale)))
        }
        pages.insert(contentsOf: indexPages, at: 0)
        return pages
    }

    /// One account's week pages, at the paths `path` gives (in the site, or in the account's bundle).
    static func weekPages(_ weeks: [RoundUpRule.Week], account: StarlingAccount, goal: GoalView?, context: ReportContext,
                          path: (ISOWeek) -> String, section: String?, breadcrumbs: [Link],
                          entity: String? = nil) -> [Page] {
        // A finished week is made without the as-of date: it reads the same whatever later day the data reaches.
        let finished = ReportContext(settings: context.settings)
        return weeks.enumerated().map { index, week in
            let previous = index > 0 ? weeks[index - 1].week : nil
            let next = index + 1 < weeks.count ? weeks[index + 1].week : nil
            // A week reads as its days (`16–22 Nov 2026`); its ISO code follows in small type.
            let days = { (week: ISOWeek) in context.locale.formatRange(week.monday, week.sunday) }
            let previousLink = previous.map { LinkView(title: days($0), href: ReportContext.href(path($0))) }
            let nextLink = next.map { LinkView(title: days($0), href: ReportContext.href(path($0))) }
            let inProgress = context.progress.isInProgress(week.week)
            let weekContext = inProgress ? context : finished
            return Page(path: path(week.week), title: "Round-ups for \(account.name), \(days(week.week))\(weekContext.progress.soFar(week.week))",
                        template: "roundups-week", section: section, breadcrumbs: breadcrumbs, entity: entity,
                        view: weekView(week, account: account, goal: goal, context: weekContext, previous: previousLink, next: nextLink))
        }
    }

    /// One account's weeks, as the index needs them.
    struct AccountSummary: Sendable {
        /// Where the weeks are: worked out from the account's feed, or in the account's summary
        /// (``AccountFigures``), decoded on each read.
        enum Weeks: Sendable {
            case fromFeed([RoundUpRule.Week])
            case figures(AccountFigures)
        }
        let account: StarlingAccount
        let slug: String
        /// The context of the account's own pages, as of its own latest data.
        let context: ReportContext
        private let held: Weeks
        let goal: GoalView?

        init(account: StarlingAccount, slug: String, context: ReportContext, weeks: Weeks, goal: GoalView?) {
            (self.account, self.slug, self.context, self.held, self.goal) = (account, slug, context, weeks, goal)
        }

        var weeks: [RoundUpRule.Week] {
            switch held {
            case .fromFeed(let weeks): return weeks
            case .figures(let figures): return figures.weeks
            }
        }

        var weekCount: Int {
            switch held {
            case .fromFeed(let weeks): return weeks.count
            case .figures(let figures): return figures.weekCount
            }
        }
    }

    /// One account on the index: its weeks newest first, with totals.
    static func accountView(_ summary: AccountSummary, context: ReportContext, path: ((ISOWeek) -> String)? = nil) -> AccountView {
        let account = summary.account, weeks = summary.weeks
        let path = path ?? { "roundups/\(summary.slug)/\($0)" }
        let rows = weeks.reversed().map { week in
            WeekRow(dates: context.locale.formatRange(week.week.monday, week.week.sunday),
                    href: ReportContext.href(path(week.week)), counted: week.payments,
                    spent: context.money(week.spent), roundUp: context.money(week.roundUp),
                    inProgress: context.progress.isInProgress(week.week))
        }
        let totalSpent = weeks.reduce(Money.zero(account.currency)) { $0 + $1.spent }
        let totalRoundUp = weeks.reduce(Money.zero(account.currency)) { $0 + $1.roundUp }
        return AccountView(
            name: account.name, type: Text.humanized(account.type), currency: account.currency.code, goal: summary.goal,
            weeks: rows, hasWeeks: !rows.isEmpty, totalCounted: weeks.reduce(0) { $0 + $1.payments },
            totalSpent: context.money(totalSpent), totalRoundUp: context.money(totalRoundUp))
    }

    static func goalView(_ goal: StarlingSavingsGoal, context: ReportContext) -> GoalView {
        let percent = goal.savedPercentage ?? goal.target.flatMap { ReportContext.percent(goal.totalSaved.minorUnits, of: $0.minorUnits) }
        return GoalView(name: goal.name, saved: context.money(goal.totalSaved), target: goal.target.map(context.money), percent: percent)
    }

    static func weekView(_ week: RoundUpRule.Week, account: StarlingAccount, goal: GoalView?, context: ReportContext,
                         previous: LinkView?, next: LinkView?) -> WeekView {
        let items = week.counted.map { counted in
            ItemRow(date: context.date(counted.item.transactionTime), time: context.time(counted.item.transactionTime),
                    counterParty: counted.item.counterPartyName, reference: Text.singleLine(counted.item.reference),
                    amount: context.money(counted.item.amount), roundUp: context.money(counted.roundUp),
                    pending: counted.item.status == .pending)
        }
        let excluded = week.excluded.map { excluded in
            ExcludedRow(date: context.date(excluded.item.transactionTime), time: context.time(excluded.item.transactionTime),
                        counterParty: excluded.item.counterPartyName, amount: context.money(excluded.item.amount),
                        reason: excluded.exclusion.reason)
        }
        return WeekView(
            accountName: account.name, week: "\(week.week)",
            dates: context.locale.formatRange(week.week.monday, week.week.sunday), timeZone: context.clock.identifier,
            items: items, hasItems: !items.isEmpty, excluded: excluded, hasExcluded: !excluded.isEmpty,
            spent: context.money(week.spent), roundUp: context.money(week.roundUp), hasRoundUp: !week.roundUp.isZero,
            // The as-of date only where the page shows it (a week in progress): a finished week's view, and
            // so its files, stay the same when newer data arrives.
            inProgress: context.progress.isInProgress(week.week),
            asOf: context.progress.isInProgress(week.week) ? context.progress.asOf.map(context.date) : nil,
            goal: goal, previous: previous, next: next)
    }

    /// The start page's round-ups: each account's balance and its newest week's round-up.
    /// `figures`: every account's figures (``AccountFigures``, by UID), whose weeks the start page
    /// shows; worked out here when not given.
    public static func dashboard(for accounts: [AccountData], context: ReportContext,
                                 figures given: [String: AccountFigures]? = nil) -> DashboardSection? {
        guard accounts.contains(where: \.roundUps) else { return nil }
        let figures = given ?? AccountFigures.of(accounts, context: context)
        var rows: [DashboardSection.Table.Row] = []
        var shown: [DashboardSection.Figure] = []
        for (data, slug) in zip(accounts, accountSlugs(accounts)) where data.roundUps {
            let weeks = figures[data.account.uid]?.weeks ?? []
            let balance = data.balance.map { context.money($0.cleared) } ?? "–"
            // Every account's figure is of the same week, the one of the data's "as of" date: an
            // account with no payment since an earlier week rounds up nothing in it so far.
            let current = context.progress.asOf.map { ISOWeek(containing: $0) }
            if let last = weeks.last, let current, last.week < current {
                let none = Money.zero(data.account.currency)
                shown.append(.init(label: "\(data.account.name): round-up, \(context.locale.formatRange(current.monday, current.sunday))\(context.progress.soFar(current))",
                                     // The week has no page (nothing rounds up in it): the card opens every week's round-ups,
                                     // never an earlier week under this week's name.
                                     value: context.money(none), href: ReportContext.href(section.path), amount: none,
                                     id: "\(slug).latest-round-up"))
                rows.append(.init([data.account.name, Text.humanized(data.account.type), balance, context.money(none) + context.progress.soFar(current)]))
                continue
            }
            if let last = weeks.last {
                shown.append(.init(label: "\(data.account.name): round-up, \(context.locale.formatRange(last.week.monday, last.week.sunday))\(context.progress.soFar(last.week))", value: context.money(last.roundUp),
                                     href: ReportContext.href("roundups/\(slug)/\(last.week)"), amount: last.roundUp,
                                     id: "\(slug).latest-round-up"))
            }
            rows.append(.init([data.account.name, Text.humanized(data.account.type), balance,
                               weeks.last.map { context.money($0.roundUp) + context.progress.soFar($0.week) } ?? "–"]))
        }
        return DashboardSection(
            title: "Accounts and round-ups", href: ReportContext.href(section.path), linkText: "Every week's round-ups",
            figures: shown,
            table: .init(columns: ["Account", "Type", "Balance", "Latest round-up"], numeric: [false, false, true, true], rows: rows))
    }
}
