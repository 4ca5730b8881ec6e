import NestEggReport
import NestEggModel
import NestEggSupport

/// What a static site has besides its pages: the addresses of pages when the site knows where it
/// is published (`baseURL` in `nestegg.json`), its `sitemap.xml`, and the words for link previews.
public enum SiteMeta {
    /// A page's published address (`https://example.org/finance/roundups/index.html`), or `nil`
    /// without a base URL.
    public static func canonicalURL(of path: String, site: Site) -> String? {
        site.settings.baseURL.map { $0 + path + ".html" }
    }

    /// Every page's address as a sitemap, or `nil` without a base URL. Pages in site order, so
    /// the same site gives the same bytes; no dates (pages hold no build time either).
    public static func sitemap(for site: Site) -> String? {
        guard site.settings.baseURL != nil else { return nil }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in site.pages {
            guard let url = canonicalURL(of: page.path, site: site) else { continue }
            xml += "<url><loc>\(Escape.url(url))</loc></url>\n"  // percent-encoded, & as &amp;
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
        let sections = site.sections.map { NotFoundView.SectionLink(title: $0.title, href: ReportContext.href($0.path)) }
        return Page(path: notFoundPath, title: "Page not found", template: "not-found", section: nil,
                    view: NotFoundView(sections: sections, hasSections: !sections.isEmpty))
    }

    struct NotFoundView: Sendable, Encodable {
        struct SectionLink: Sendable, Encodable {
            let title: String
            let href: String
        }
        let sections: [SectionLink]
        let hasSections: Bool
    }
}
