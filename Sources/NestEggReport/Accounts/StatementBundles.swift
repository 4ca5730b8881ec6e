import NestEggModel
import NestEggSupport
/// `nestegg build --bundles DIR`: per account, a folder of its own to hand to its customer — its
/// statements, its round-up weeks and an index, laid out as a small site of its own
/// (`index`, `statements/<YYYY-MM>`, `roundups/<week>`), with no navigation to the rest of the site
/// and nothing that names another account. Every link in a bundle leads to a page of the bundle.
public enum StatementBundles {
    /// One account's bundle: its folder name, its pages (rendered with their own stylesheet), and
    /// its statements as its manifest lists them, at their paths in the bundle.
    public struct Bundle: Sendable {
        public let slug: String
        public let site: Site
        public let records: [StatementRecord]
    }

    struct IndexView: Sendable, Encodable {
        let head: StatementsReport.AccountHead
        let timeZone: String
        let dataAsOf: String
        let openedOn: String
        let statementCount: String
        let account: StatementsReport.IndexAccount
        let roundUps: RoundUpsReport.AccountView
    }

    public static func bundles(for dataset: Dataset) -> [Bundle] {
        guard let (_, accounts) = StatementsReport.accounts(dataset, context: ReportContext(settings: dataset.settings)) else { return [] }
        let paths = StatementsReport.Paths.bundle
        return accounts.map { summary in
            // A bundle is its account's alone: as of its own latest data.
            let data = summary.data, account = data.account, context = summary.context
            let asOf = context.progress.asOf
            let title = "Statements for \(account.name)"
            let crumbs = [Link(title, "index")]
            let weeks = RoundUpRule.weeks(of: data.feed, currency: account.currency, clock: context.clock)
            let goal = RoundUpsReport.goal(for: data, settings: context.settings).map { RoundUpsReport.goalView($0, context: context) }
            let roundUps = RoundUpsReport.accountView(.init(account: account, slug: summary.slug, context: context, weeks: .fromFeed(weeks), goal: goal),
                                                      context: context, path: paths.roundUpWeek)
            let index = IndexView(
                head: StatementsReport.AccountHead(data, context: context), timeZone: context.clock.identifier, dataAsOf: asOf.map(context.date) ?? "",
                openedOn: summary.statements.first.map { context.date($0.period.first) } ?? "",
                statementCount: context.counted(summary.statementCount, "statement"),
                account: StatementsReport.indexAccount(summary, context: context, paths: paths), roundUps: roundUps)
            let pages = [Page(path: "index", title: title, template: "bundle-index", section: nil, view: index)]
                + StatementsReport.statementPages(summary, paths: paths, section: nil, breadcrumbs: crumbs)
                + RoundUpsReport.weekPages(weeks, account: account, goal: goal, context: context, path: paths.roundUpWeek,
                                           section: nil, breadcrumbs: crumbs)
            return Bundle(slug: summary.slug,
                          site: Site(title: context.settings.issuer?.name ?? account.name, sections: [], pages: pages, dataAsOf: asOf),
                          records: StatementsReport.records(summary, context: context, paths: paths))
        }
    }
}
