import NestEggReport
import NestEggModel
import NestEggSupport
/// `--summary`: a compact GitHub-flavoured digest for a CI job summary (`$GITHUB_STEP_SUMMARY`):
/// one table of every report's headline figures, what changed since the last build into the same
/// folder, then the data warnings. Short by construction —
/// at most four figures a report and ten warnings — so it stays around 60 lines.
public struct SummaryRenderer: Sendable {
    public let templates: TemplateLibrary
    public let site: Site
    public let warnings: [Diagnostic]

    static let figuresPerSection = 4
    static let warningsShown = 10

    public init(templates: TemplateLibrary, site: Site, warnings: [Diagnostic]) {
        self.templates = templates
        self.site = site
        self.warnings = warnings
    }

    public func render() throws -> String {
        var rows: [TableRow] = []
        for entry in site.dashboard {
            for (index, figure) in entry.summary.figures.prefix(Self.figuresPerSection).enumerated() {
                rows.append(TableRow(cells: [index == 0 ? entry.summary.title : "", figure.label, figure.value]))
            }
        }
        let view = View(siteTitle: site.title, rows: rows, hasRows: !rows.isEmpty,
                        warnings: warnings.prefix(Self.warningsShown).map(\.description), warningCount: warnings.count,
                        hasWarnings: !warnings.isEmpty, moreWarnings: warnings.count - Self.warningsShown,
                        hasMoreWarnings: warnings.count > Self.warningsShown, dataAsOf: site.dataAsOf.map { "\($0)" },
                        changes: site.changeDigest, hasChanges: !site.changeDigest.isEmpty)
        return MarkdownTablePadding.pad(PageRenderer.tidy(try templates.render("summary.md", TemplateValue(encoding: view)) ?? ""))
    }

    struct View: Encodable {
        let siteTitle: String
        let rows: [TableRow]
        let hasRows: Bool
        let warnings: [String]
        let warningCount: Int
        let hasWarnings: Bool
        let moreWarnings: Int
        let hasMoreWarnings: Bool
        let dataAsOf: String?
        let changes: [String]
        let hasChanges: Bool
    }
}
