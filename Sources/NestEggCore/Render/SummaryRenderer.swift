/// `--summary`: a compact GitHub-flavoured digest for a CI job summary (`$GITHUB_STEP_SUMMARY`):
/// each report's headline figures and the first rows of its table, then the data warnings.
/// Short by construction: at most four figures and three table rows a report, ten warnings.
public struct SummaryRenderer: Sendable {
    public let templates: TemplateLibrary
    public let site: Site
    public let warnings: [Diagnostic]

    static let figuresPerSection = 4
    static let rowsPerTable = 3
    static let warningsShown = 10

    public init(templates: TemplateLibrary, site: Site, warnings: [Diagnostic]) {
        self.templates = templates
        self.site = site
        self.warnings = warnings
    }

    struct SectionView: Sendable {
        let title: String
        let figures: [DashboardSection.Figure]
        let table: DashboardReport.TableView?
        let moreRows: Int
        let hasMoreRows: Bool
    }

    public func render() -> String {
        let sections = site.dashboard.map { entry -> SectionView in
            let summary = entry.summary
            let table = summary.table.map {
                DashboardReport.tableView(.init(columns: $0.columns, numeric: $0.numeric, rows: Array($0.rows.prefix(Self.rowsPerTable))))
            }
            return SectionView(title: summary.title, figures: Array(summary.figures.prefix(Self.figuresPerSection)), table: table,
                               moreRows: max(0, (summary.table?.rows.count ?? 0) - Self.rowsPerTable),
                               hasMoreRows: (summary.table?.rows.count ?? 0) > Self.rowsPerTable)
        }
        let shown = warnings.prefix(Self.warningsShown).map { $0.description }
        var context: [String: Any] = [
            "siteTitle": site.title,
            "sections": sections,
            "warnings": shown,
            "warningCount": warnings.count,
            "hasWarnings": !warnings.isEmpty,
            "moreWarnings": warnings.count - Self.warningsShown,
            "hasMoreWarnings": warnings.count > Self.warningsShown,
        ]
        if let date = site.dataAsOf { context["dataAsOf"] = "\(date)" }
        return PageRenderer.tidy(templates.render("summary.md", context) ?? "")
    }
}
