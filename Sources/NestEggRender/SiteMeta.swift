import NestEggReport
import NestEggModel
import NestEggSupport

/// What a static site has besides its pages: the addresses of pages when the site knows where it
/// is published (`baseURL` in `nestegg.json`), its `sitemap.xml`, and the words for link previews.
public enum SiteMeta {
    /// A page's published address (`https://example.org/finance/roundups/index.html`), or `nil`
    /// without a base URL.
    public static func canonicalURL(of path: String, site: Site) -> String? {
        site.settings.baseURL.map { canonicalURL(of: path, baseURL: $0) }
    }

    static func canonicalURL(of path: String, baseURL: String) -> String {
        baseURL + path + ".html"
    }

    /// Every page's address as a sitemap, or `nil` without a base URL (``sitemap(paths:baseURL:)``).
    public static func sitemap(for site: Site) -> String? {
        site.settings.baseURL.map { sitemap(paths: site.pages.map(\.path), baseURL: $0) }
    }

    /// The pages at `paths` (without extension) as a sitemap, in the order of their paths' bytes,
    /// so that the same pages give the same bytes however they were listed: a sharded build's
    /// merge writes it from its parts' lists of files, which hold no site order; no dates (pages
    /// hold no build time either).
    public static func sitemap(paths: [String], baseURL: String) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for path in paths.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            xml += "<url><loc>\(Escape.url(canonicalURL(of: path, baseURL: baseURL)))</loc></url>\n"  // percent-encoded, & as &amp;
        }
        return xml + "</urlset>\n"
    }

    /// A page's description for link previews and search results: what it is and from which
    /// site; the start page's also as of when (only the start page: a date on every page would
    /// make a day's new data change every page, and every page be rendered again).
    public static func description(of page: Page, site: Site) -> String {
        let asOf = site.dataAsOf.map { ", data as of \(site.settings.locale.format($0))" } ?? ""
        switch page.path {
        case "index": return "Finance reports by NestEgg\(asOf)."
        case notFoundPath: return "There is no page at this address."
        default: return "\(page.title): a finance report of \(site.title) by NestEgg."
        }
    }

    /// The page shown for an address that has none (`404.html` at the site's root; static hosts
    /// serve it for any missing page, so its links lead from the root, or from the base URL).
    public static let notFoundPath = "404"

    public static func notFoundPage(site: Site) -> Page {
        let root = notFoundRoot(site: site)
        let sections = site.sections.map { NotFoundView.SectionLink(title: $0.title, href: root + $0.path + ".html") }
        return Page(path: notFoundPath, title: "Page not found", template: "not-found", section: nil, tablesAsCSV: false,
                    view: NotFoundView(startHref: root + "index.html", sections: sections, hasSections: !sections.isEmpty))
    }

    /// How the page for missing addresses reaches the site's root: from the host's root, since a
    /// host serves it at whatever address was missing (`statements/personal/2027-01.html`), where
    /// relative links would lead to more missing pages and leave it unstyled. That is the base
    /// URL's path (`/family/` for `https://example.org/family/`), or `/` without a base URL.
    public static func notFoundRoot(site: Site) -> String {
        guard let baseURL = site.settings.baseURL else { return "/" }
        let afterScheme = baseURL.range(of: "://").map { baseURL[$0.upperBound...] } ?? baseURL[...]
        return afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
    }

    struct NotFoundView: Sendable, Encodable {
        struct SectionLink: Sendable, Encodable {
            let title: String
            let href: String
        }
        let startHref: String
        let sections: [SectionLink]
        let hasSections: Bool
    }
}
