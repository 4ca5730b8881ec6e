import NestEggReport
import NestEggModel
import NestEggSupport
/// `--single-file`: every report in one self-contained HTML file. The stylesheet is inline,
/// charts are inline SVG already, and links between reports become in-page anchors, so the file
/// can be moved anywhere alone (images named in the data are the only outside requests).
public struct SingleFileRenderer: Sendable {
    public let pages: PageRenderer

    public init(pages: PageRenderer) { self.pages = pages }

    struct Entry: Sendable, Encodable {
        let id: String
        let title: String
        let content: Markup
    }

    struct TOCSection: Sendable, Encodable {
        let title: String
        let href: String
    }

    public func render() throws -> String {
        var entries: [Entry] = []
        // (The search page needs its scripts beside it, which a single file has not.)
        for page in pages.site.pages where page.path != SearchReport.path {
            let markdown = try pages.markdown(page, html: true, inSingleFile: true)
            let directory = page.path.split(separator: "/").dropLast().map(String.init)
            // Each page's title becomes an h2 under the file's single h1.
            let content = Self.rewriteRawLinks(HTMLPolish.polish(
                SVGIslands.html(from: markdown, rewriteLink: { Self.anchor(for: $0, from: directory) }, headingOffset: 1)), from: directory)
            entries.append(Entry(id: Self.anchorID(page.path), title: page.title, content: Markup(content)))
        }
        let toc = [TOCSection(title: "Dashboard", href: "#" + Self.anchorID("index"))]
            + pages.site.sections.map { TOCSection(title: $0.title, href: "#" + Self.anchorID($0.path)) }
        let view = View(siteTitle: pages.site.title, stylesheet: Markup(pages.templates.stylesheet), sections: toc, pages: entries,
                        dataAsOf: pages.site.dataAsOf.map { "\($0)" })
        return try pages.templates.render("single.html", TemplateValue(encoding: view)) ?? ""
    }

    struct View: Encodable {
        let siteTitle: String
        let stylesheet: Markup
        let sections: [TOCSection]
        let pages: [Entry]
        let dataAsOf: String?
    }

    /// Links that templates write as raw HTML (dashboard cards) are not link nodes in cmark's tree;
    /// their `href` attributes are rewritten here. Data cannot forge one: its quotes are escaped.
    static func rewriteRawLinks(_ html: String, from directory: [String]) -> String {
        let bytes = Array(html.utf8)
        let attribute = Array("href=\"".utf8)
        guard var start = Bytes.find(attribute, in: bytes, from: 0) else { return html }
        var output: [UInt8] = []
        var copied = 0
        while true {
            let valueStart = start + attribute.count
            guard let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            let url = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
            if let anchor = anchor(for: url, from: directory) {
                output.append(contentsOf: bytes[copied..<valueStart])
                output.append(contentsOf: anchor.utf8)
                copied = valueEnd
            }
            guard let next = Bytes.find(attribute, in: bytes, from: valueEnd) else { break }
            start = next
        }
        output.append(contentsOf: bytes[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    static func anchorID(_ path: String) -> String { "page-" + path.replacingOccurrences(of: "/", with: "--") }

    /// `../roundups/personal/2026-W43.md` seen from `roundups/` → `#page-roundups--personal--2026-W43`.
    static func anchor(for url: String, from directory: [String]) -> String? {
        if url.contains(":") || url.hasPrefix("#") { return nil }
        let path = url.split(separator: "#", maxSplits: 1).first.map(String.init) ?? url
        guard path.hasSuffix(".md") || path.hasSuffix(".html") else { return nil }
        var parts = directory
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        guard var last = parts.popLast() else { return nil }
        last = String(last.prefix(upTo: last.lastIndex(of: ".")!))
        return "#" + anchorID((parts + [last]).joined(separator: "/"))
    }
}
