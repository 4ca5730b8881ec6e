/// The start page, `index`: headline figures from every report, each linking to its section.
public enum DashboardReport {
    struct View: Sendable {
        let dataAsOf: String?
        let accounts: [AccountRow]
        let hasAccounts: Bool
        let roundUps: [RoundUpsReport.Latest]
        let hasRoundUps: Bool
    }

    struct AccountRow: Sendable {
        let name: String
        let type: String
        let balance: String
        let href: String
    }

    public static func page(for dataset: Dataset, sections: [Section], context: ReportContext) -> Page {
        let slugs = RoundUpsReport.accountSlugs(dataset.starling)
        let accounts = zip(dataset.starling, slugs).map { data, slug in
            AccountRow(name: data.account.name, type: accountType(data.account.type),
                       balance: data.balance.map { context.money($0.cleared) } ?? "–",
                       href: ReportContext.href("roundups/index"))
        }
        let latest = RoundUpsReport.latest(for: dataset.starling, context: context)
        let view = View(dataAsOf: dataAsOf(dataset).map(context.date), accounts: accounts, hasAccounts: !accounts.isEmpty,
                        roundUps: latest, hasRoundUps: !latest.isEmpty)
        return Page(path: "index", title: dataset.settings.title, template: "index", section: nil, view: view)
    }

    /// The latest date found in the data, on the site's clock: the page says "data as of" it,
    /// never the build date.
    static func dataAsOf(_ dataset: Dataset) -> Instant? {
        dataset.starling.flatMap { $0.feed.map(\.transactionTime) }.max()
    }
}

/// The report stage: every report's pages, from the dataset alone (pure functions).
public enum SiteReport {
    public static func build(_ dataset: Dataset) -> Site {
        let context = ReportContext(settings: dataset.settings)
        var sections: [Section] = []
        var pages: [Page] = []

        let roundUps = RoundUpsReport.pages(for: dataset.starling, context: context)
        if !roundUps.isEmpty {
            sections.append(RoundUpsReport.section)
            pages += roundUps
        }

        pages.insert(DashboardReport.page(for: dataset, sections: sections, context: context), at: 0)
        return Site(title: dataset.settings.title, sections: sections, pages: pages)
    }
}
