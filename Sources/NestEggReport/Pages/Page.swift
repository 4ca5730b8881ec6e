import NestEggModel
import NestEggSupport
/// One page of the site, as the report stage hands it to the render stage.
public struct Page: Sendable {
    /// Site-relative path without extension: `roundups/personal/2026-W47`.
    /// The render stage writes `<path>.md` and `<path>.html`.
    public let path: String
    /// The page's title (its `h1` and the HTML `<title>`).
    public let title: String
    /// The template, by name: `roundups-week` is `Templates/roundups-week.md.mustache`.
    public let template: String
    /// The section the page belongs to, for the navigation (`roundups`); `nil` for the start page.
    public let section: String?
    /// Links above the title, from the start page down to the parent.
    public let breadcrumbs: [Link]
    /// Builds what the template shows — an `Encodable` struct of strings, numbers, flags and lists,
    /// which ``TemplateValue/init(encoding:)`` hands to the template — when the page is rendered, so that the report stage holds the site's structure, not its text: a
    /// large site's view data never sits in memory all at once.
    private let makeView: @Sendable () -> any Encodable & Sendable

    /// The `.html` page a relative Markdown link (`week.md#total`) names (`week.html#total`),
    /// or `nil` for any other link (one with a scheme, absolute, a fragment alone, not `.md`).
    public static func htmlLink(ofMarkdownLink url: String) -> String? {
        // (Byte tests: `String.contains(_:)` with a string goes through Foundation, and this runs for every link.)
        if url.utf8.contains(UInt8(ascii: ":")) || url.utf8.first == UInt8(ascii: "/") || url.utf8.first == UInt8(ascii: "#") { return nil }
        let (path, fragment) = url.firstIndex(of: "#").map { (url[..<$0], url[$0...]) } ?? (url[...], ""[...])
        guard path.hasSuffix(".md") else { return nil }
        return path.dropLast(3) + ".html" + fragment
    }

    /// A link for raw HTML, where cmark rewrites nothing: ``htmlLink(ofMarkdownLink:)``, or the link as it is.
    public static func htmlLink(_ markdownLink: String) -> String {
        htmlLink(ofMarkdownLink: markdownLink) ?? markdownLink
    }

    /// What the template shows (built anew on each access).
    public var view: any Encodable & Sendable { makeView() }

    /// An older page of the transactions lists: its view apart from its rows (``ListRowsFrame``).
    public let rowsFrame: ListRowsFrame?
    /// The one entity (unit) the page shows (``entity(of:)``): its pages are made where its data is
    /// mapped; `nil` for a page of several.
    public let entity: String?
    /// A statement's figures and lines, for a statement page: the build writes them beside the
    /// page in each ``StatementData/Format`` (built when written, as the view is).
    public let statementData: (@Sendable () -> StatementData)?
    /// The search page's chunk of the transactions this page shows (``TransactionSearch``): its
    /// path (site-relative, without `.js`) and its rows, built when written; the build writes it
    /// with the page, so whichever build writes the page writes its chunk.
    public let searchChunk: (path: String, rows: @Sendable () -> [TransactionSearch.Row])?
    /// Whether each of the page's tables is written as a CSV beside it, linked under the table.
    /// The report that makes the page says: a statement's is `false` (its lines have their own CSV
    /// and camt.053, and it prints as the bank's document), as is the page for missing addresses
    /// (a host serves it at any depth, with no files beside it).
    public let tablesAsCSV: Bool

    /// An account's pages' ``entity``.
    public static func entity(of account: StarlingAccount) -> String { entity(ofStarlingAccount: account.uid) }
    /// A bank account's pages' ``entity``, by the account's UID.
    public static func entity(ofStarlingAccount uid: String) -> String { "starling account " + uid }
    /// A Qapital goal's page's ``entity``.
    public static func entity(ofQapitalGoal id: Int) -> String { "qapital goal \(id)" }

    public init(path: String, title: String, template: String, section: String?, breadcrumbs: [Link] = [],
                entity: String? = nil, rowsFrame: ListRowsFrame? = nil, statementData: (@Sendable () -> StatementData)? = nil,
                searchChunk: (path: String, rows: @Sendable () -> [TransactionSearch.Row])? = nil,
                tablesAsCSV: Bool = true,
                view: @autoclosure @escaping @Sendable () -> any Encodable & Sendable) {
        self.path = path
        self.title = title
        self.template = template
        self.section = section
        self.breadcrumbs = breadcrumbs
        self.entity = entity
        self.rowsFrame = rowsFrame
        self.statementData = statementData
        self.searchChunk = searchChunk
        self.tablesAsCSV = tablesAsCSV
        self.makeView = view
    }

    /// `../../` for `a/b/page`: how a page reaches the site root with relative links.
    public var rootPrefix: String {
        // Counted in bytes: splitting the path into Characters cost more than the page's escaping.
        String(repeating: "../", count: path.utf8.lazy.filter { $0 == UInt8(ascii: "/") }.count)
    }

    /// The last part of the path: `2026-W47` for `roundups/personal/2026-W47`.
    public var fileName: Substring {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path[...]
    }
}

/// An older page of the transactions lists, as a rebuild can know it without working out its
/// view: the accounts' rows dated before ``before`` (the month after its newest row's), which a
/// rebuild knows to be the last build's while no account's older rows changed; ``style``, what
/// each row is drawn with besides itself (``TransactionsReport/rowStyle(_:payees:)`` with the categories' names and
/// slugs); and ``frame``, the page's view worked out without its rows, which the build hashes as it
/// hashes views. All three are worked out from the values the page is drawn from, never written by
/// hand. The build keeps the page by their key (with the templates, `nestegg`, the data folder's
/// files of no account, and what every page's layout shows) while it is as recorded: a day's
/// transactions rebuild in 11–12% of a full build with it, 15–17% without (`bench-results/HISTORY.md`).
public struct ListRowsFrame: Sendable {
    public let before: CalendarMonth
    public let style: String
    public let frame: @Sendable () -> any Encodable & Sendable

    public init(before: CalendarMonth, style: String, frame: @escaping @Sendable () -> any Encodable & Sendable) {
        (self.before, self.style, self.frame) = (before, style, frame)
    }
}

/// A link to another page, by site-relative path without extension.
public struct Link: Sendable, Hashable {
    public let title: String
    public let path: String

    public init(_ title: String, _ path: String) {
        self.title = title
        self.path = path
    }
}

/// A top-level section of the site, shown in the navigation.
public struct Section: Sendable, Hashable {
    public let id: String
    public let title: String
    public let path: String
}

/// What the report stage produces: every page, and the sections for the navigation.
public struct Site: Sendable {
    public var title: String
    public var sections: [Section]
    public var pages: [Page]
    /// Each report's start-page section, in navigation order (also the source of `--summary` and `--json`).
    public var dashboard: [DashboardEntry] = []
    /// The latest date in the data, on the site's clock.
    public var dataAsOf: CivilDate?
    /// The settings the site was built with (indexing, base URL, remote images, locale).
    public var settings = Settings()
    /// How many notes the data notes page has (``DataNotesReport``); 0 without one.
    public var dataNotes = 0
    /// What the report finds to say of the data that the load could not (rates dated after the
    /// data's last day, which nothing uses): warnings, shown with the load's.
    public var reportNotes: [Diagnostic] = []
    /// Whether the build prints each statement to a PDF beside its page (`--pdf`), which the page
    /// then links to (the templates' `statementPDFs`).
    public var statementPDFs = false
    /// Every statement of the accounts mapped here (from their feeds), for `statements/manifest.json`
    /// (``StatementsReport/records(for:context:)``): with no account whose pages are made elsewhere every
    /// statement; else those of the accounts mapped here, each at its place in the whole (``statementPlaces``).
    public var statements: [StatementRecord] = []
    /// Each of ``statements``' places in the site's manifest (`0..<statementCount` on one machine).
    public var statementPlaces: [Int] = []
    /// How many statements the site has, those of accounts whose pages are made elsewhere included.
    public var statementCount = 0
    /// The transactions lists, whose rows the build brings with ``SiteReport/SpendingRows/runs`` (``SpendingLists/fill(_:keeps:)``).
    public var spendingLists: SpendingLists?
    /// What the search page finds (``SearchReport``): the render stage writes it as `search-index.js`.
    public var search: [SearchReport.Entry] = []
    /// Which chunks of transactions the search page loads (``TransactionSearch/months(_:)``), newest month first.
    public var searchMonths: [TransactionSearch.Month] = []
    /// The chunks of the list of every transaction (``TransactionSearch/chunkPath(listPage:)``),
    /// in the list's order, which the search page loads before the statements'.
    public var searchLists: [String] = []
    /// What changed since the last build, in a few sentences (``ChangesReport``), for `--summary`.
    public var changeDigest: [String] = []
    /// What the next build compares with, for the build cache; `nil` when some accounts' pages are made elsewhere.
    public var changes: ChangeSnapshot?

    public struct DashboardEntry: Sendable {
        public let section: Section
        public let summary: DashboardSection
    }
}
