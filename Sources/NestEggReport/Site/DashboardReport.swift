import NestEggModel
import NestEggSupport
import Foundation

/// A report's part of the start page: a few headline figures and, optionally, a small table,
/// with a link to the report. Every report contributes one through the same shape, so the
/// start page's template stays generic; a section with no data is left out, not shown empty.
public struct DashboardSection: Sendable {
    public struct Figure: Sendable {
        public let label: String
        /// As shown: `£3.67`, `12`, `40%`.
        public let value: String
        /// Site-relative `.md` link, or `nil`.
        public let href: String?
        /// The exact amount behind `value`, for `--json` (money as a decimal string and its currency).
        public let amount: Money?
        /// The count behind `value`, for `--json`.
        public let count: Int?
        /// A stable key for `--json` (`personal.latest-round-up`); defaults to the label's slug.
        public let id: String

        public init(label: String, value: String, href: String? = nil, amount: Money? = nil, count: Int? = nil, id: String? = nil) {
            self.id = id ?? Slug.make(label, fallback: "figure")
            self.label = label
            self.value = value
            self.href = href
            self.amount = amount
            self.count = count
        }
    }

    public struct Table: Sendable {
        public struct Row: Sendable {
            public let cells: [String]
            public init(_ cells: [String]) { self.cells = cells }
        }

        public let columns: [String]
        /// Which columns are numbers (right-aligned).
        public let numeric: [Bool]
        public let rows: [Row]
    }

    public let title: String
    /// The report's index, site-relative, as a `.md` link.
    public let href: String
    public let linkText: String
    public let figures: [Figure]
    public let table: Table?

    public init(title: String, href: String, linkText: String, figures: [Figure], table: Table? = nil) {
        self.title = title
        self.href = href
        self.linkText = linkText
        self.figures = figures
        self.table = table
    }
}

/// The start page, `index`: every report's dashboard section, in the order of the navigation.
public enum DashboardReport {
    struct View: Sendable, Encodable {
        let dataAsOf: String?
        let headline: HeadlineReport.View?
        let sections: [SectionView]
        let hasSections: Bool
    }

    struct SectionView: Sendable, Encodable {
        let title: String
        let href: String
        let linkText: String
        let figures: [FigureView]
        let hasFigures: Bool
        /// `and 994 more`, when a section has more figures than the start page shows.
        let moreFigures: String?
        let table: TableView?
        /// The `.html` link of the section's index, for the raw-HTML cards (cmark rewrites only
        /// Markdown links).
        let htmlHref: String
    }

    /// A headline figure: a list item in Markdown, a card in HTML (whose raw HTML needs an
    /// `.html` link, as cmark only rewrites Markdown links). Every figure links somewhere: to its
    /// own page, or else to its section's index.
    struct FigureView: Sendable, Encodable {
        let label: String
        let value: String
        let href: String
        let htmlHref: String
        /// A value that reads as a phrase (`US$175.00 for 4 loans, …`) is set smaller than a number.
        let isPhrase: Bool
    }

    struct TableView: Sendable, Encodable {
        let header: TableRow
        let divider: TableDivider
        let rows: [TableLine]
        /// `The first 12 of 1,000 rows.`, when the table is longer than the start page shows.
        let moreRows: String?
    }

    /// At most this many figures a section, and rows a table, on the start page: with a thousand
    /// accounts it would otherwise list each twice. The rest are a link away (and all of them
    /// are in `--json`).
    static let figuresShown = 6
    static let rowsShown = 12

    public static func page(for dataset: Dataset, sections: [DashboardSection], context: ReportContext) -> Page {
        page(for: dataset, sections: sections, spending: SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock)),
             statements: StatementsReport.accounts(dataset, context: context), context: context,
             dataAsOf: ReportContext(dataset: dataset).progress.asOf)
    }

    /// `dataAsOf`: the data's latest date, that of every account's (``ReportContext/init(dataset:figures:)``).
    static func page(for dataset: Dataset, sections: [DashboardSection], spending: SpendingTotals,
                     statements: StatementsReport.Computed?, context: ReportContext, dataAsOf: CivilDate?) -> Page {
        let views = sections.map { section in
            let hidden = section.figures.count - figuresShown
            return SectionView(
                title: section.title, href: section.href, linkText: section.linkText,
                figures: section.figures.prefix(figuresShown).map { figureView($0, sectionHref: section.href) },
                hasFigures: !section.figures.isEmpty, moreFigures: hidden > 0 ? "and \(context.count(hidden)) more" : nil,
                table: section.table.map { tableView($0, context: context) },
                htmlHref: Page.htmlLink(section.href))
        }
        // The transactions app's part of the spending, so the headline can say what its figure is made of.
        let app = SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock, bankAccounts: false))
        let headline = HeadlineReport.view(statements: statements, spending: spending, app: app, context: context)
        let view = View(dataAsOf: dataAsOf.map(context.date), headline: headline, sections: views, hasSections: !views.isEmpty)
        return Page(path: "index", title: dataset.settings.title, template: "index", section: nil, view: view)
    }

    static func figureView(_ figure: DashboardSection.Figure, sectionHref: String) -> FigureView {
        let href = figure.href ?? sectionHref
        return FigureView(label: figure.label, value: figure.value, href: href, htmlHref: Page.htmlLink(href),
                          isPhrase: isPhrase(figure.value))
    }

    /// Whether a value has words in it (`66 in 38 countries`), not just amounts and symbols.
    static func isPhrase(_ value: String) -> Bool {
        value.split(separator: " ").contains { $0.count >= 3 && $0.allSatisfy(\.isLowercase) }
    }

    static func tableView(_ table: DashboardSection.Table, context: ReportContext) -> TableView {
        TableView(
            header: TableRow(cells: table.columns),
            divider: TableDivider(rightAligned: table.numeric),
            rows: table.rows.prefix(rowsShown).map { TableLine(line: TableRow(cells: $0.cells)) },
            moreRows: table.rows.count > rowsShown
                ? "The first \(rowsShown) of \(context.count(table.rows.count)) rows." : nil)
    }
}
