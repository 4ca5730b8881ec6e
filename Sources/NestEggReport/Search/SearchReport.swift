import NestEggModel
import NestEggSupport
/// The search page (`search`) and its index: one entry per account, savings goal, spending category,
/// counterparty, person, country and page, never one per transaction, so the index grows with the
/// site's pages and the household's counterparties, not with its payments. The render stage writes
/// the entries as a script beside the pages (`search-index.js`, each string escaped as JSON that
/// can stand inside `<script>`); the page's own script (`search.js`) filters them as you type. No
/// request leaves the page and no server is needed: it works from `file://` as from a static host.
///
/// Whichever build writes the page has what the index is made of: the site's whole list of pages,
/// every account's cash flow (an account whose pages are made elsewhere carries it, ``AccountFigures``) and the
/// transactions app's data.
public enum SearchReport {
    public static let path = "search"
    public static let title = "Search"

    /// One thing to find: what kind it is, its name, the page it opens (site-relative, without
    /// extension) and a line that tells it apart.
    public struct Entry: Sendable, Hashable {
        public let kind: Kind
        public let title: String
        public let path: String
        public let detail: String
    }

    /// In the order results of equal match are listed.
    public enum Kind: Int, Sendable, Comparable, CaseIterable {
        case section, account, goal, category, counterparty, person, country, page

        public var label: String {
            switch self {
            case .section: "Section"
            case .account: "Account"
            case .goal: "Savings goal"
            case .category: "Category"
            case .counterparty: "Counterparty"
            case .person: "Person"
            case .country: "Country"
            case .page: "Page"
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    struct View: Sendable, Encodable {
        let sections: [LinkView]
        /// Where transactions are listed without the search, when the site has them.
        let transactionsHref: String?
        let statementsHref: String?
    }

    static func page(sections: [Section]) -> Page {
        let has = { (section: Section) in sections.contains { $0.id == section.id } ? ReportContext.href(section.path) : nil }
        let view = View(sections: sections.map { LinkView(title: $0.title, href: ReportContext.href($0.path)) },
                        transactionsHref: has(TransactionsReport.section), statementsHref: has(StatementsReport.section))
        return Page(path: path, title: title, template: "search", section: nil, breadcrumbs: [Link("Dashboard", "index")], view: view)
    }

    /// The index of `pages`, in order: by kind, then by title (``NestEggSupport/Text/precedes(_:_:)``).
    /// `counterparties` are by name, each with the page that lists its payments.
    /// A bank account's own pages (its statements, its round-up weeks) are not listed one by
    /// one: those of an account whose pages are made elsewhere are not made here, and the account's entry
    /// (`accounts`, its statements' page) leads to them.
    public static func entries(pages: [Page], sections: [Section], accounts: [Entry], counterparties: [Entry]) -> [Entry] {
        let sectionTitles = Dictionary(sections.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        let sectionsByPath = Dictionary(sections.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var entries: [Entry] = accounts + counterparties
        let accountEntity = Page.entity(ofStarlingAccount: "")
        for page in pages where page.path != path && page.path != "index" && !isLaterPage(page.path) {
            if let entity = page.entity, entity.hasPrefix(accountEntity) { continue }
            if let section = sectionsByPath[page.path] {
                // A section by its name in the menu, and its page's title too.
                entries.append(Entry(kind: .section, title: section.title, path: page.path, detail: page.title == section.title ? "" : page.title))
            } else {
                // A page of no kind of its own says which section it is in; a goal, a country, … need not.
                let kind = kind(of: page.path)
                let detail = kind == .page ? page.section.flatMap { sectionTitles[$0] } ?? "" : ""
                entries.append(Entry(kind: kind, title: page.title, path: page.path, detail: detail))
            }
        }
        return entries.sorted { a, b in
            if a.kind != b.kind { return a.kind < b.kind }
            if a.title != b.title { return Text.precedes(a.title, b.title) }
            return a.path < b.path
        }
    }

    /// What a page is, by where it stands: an account's statements, a goal, a category's list, …
    static func kind(of path: String) -> Kind {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts.last != "index" || parts.count == 3 else { return .page }
        switch parts[0] {
        case "goals" where parts.count == 2: return .goal
        case "transactions" where parts.count == 2 && path != TransactionsReport.categoriesPath: return .category
        case "transfers" where parts.count == 2: return .person
        case "countries" where parts.count == 2: return .country
        default: return .page
        }
    }

    /// Each bank account with statements, opening its statements' page (`statements/<account>/index`).
    static func accounts(_ statements: StatementsReport.Computed?) -> [Entry] {
        (statements?.1 ?? []).map { summary in
            Entry(kind: .account, title: summary.data.account.name, path: "statements/\(summary.slug)/index", detail: "Statements")
        }
    }

    /// Page 2 and on of a list (`transactions/index.page2`): the list's first page stands for it.
    static func isLaterPage(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), path[dot...].hasPrefix(".page") else { return false }
        return path[path.index(dot, offsetBy: 5)...].allSatisfy(\.isNumber)
    }

    /// The counterparties of every bank account's cash flow (who paid in, who was paid) and of
    /// the transactions app, one entry each (names that differ only in case or spacing are one),
    /// listing where they appear; each opens `target(name)`.
    public static func counterparties(accounts: [AccountCashFlow], transactions: [Transaction], target: (String) -> String) -> [Entry] {
        var names: [String: String] = [:]
        var places: [String: Set<String>] = [:]
        func add(_ name: String, in place: String) {
            let single = Text.singleLine(name)
            let key = Counterparty.key(single)
            guard !key.isEmpty else { return }
            if let known = names[key], !Text.precedes(single, known) {} else { names[key] = single }
            places[key, default: []].insert(place)
        }
        for account in accounts {
            for month in account.months {
                for source in month.income.keys { add(source, in: account.name) }
                for payee in month.payees.keys { add(payee, in: account.name) }
            }
        }
        for transaction in transactions { add(PayeePayment.payee(provider: transaction.provider), in: "the transactions app") }
        return names.map { key, name in
            let where_ = places[key, default: []].sorted(by: Text.precedes)
            return Entry(kind: .counterparty, title: name, path: target(name), detail: placesLine(where_))
        }
    }

    /// How many places a counterparty's entry names: a shop a bank's thousand accounts pay would
    /// otherwise carry a thousand names in the index, for every visitor to download.
    static let placesShown = 3

    /// `places`, the first ``placesShown`` of them and how many more: "Personal, Joint and 2 more".
    static func placesLine(_ places: [String]) -> String {
        guard places.count > placesShown else { return places.joined(separator: ", ") }
        return places.prefix(placesShown).joined(separator: ", ") + " and \(places.count - placesShown) more"
    }
}
