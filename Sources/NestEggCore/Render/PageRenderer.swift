/// The render stage for one page: its Markdown from the page's template, then its HTML
/// (cmark-gfm's output of the same template, placed into the layout).
public struct PageRenderer: Sendable {
    public let templates: TemplateLibrary
    public let site: Site

    public init(templates: TemplateLibrary, site: Site) {
        self.templates = templates
        self.site = site
    }

    public struct Output: Sendable {
        public let markdown: String
        public let html: String
    }

    public struct MissingTemplate: Error, Sendable {
        public let name: String
        public let page: String
    }

    struct NavItem: Sendable {
        let title: String
        let href: String
        let current: Bool
    }

    struct Crumb: Sendable {
        let title: String
        let href: String
    }

    public func render(_ page: Page) throws(MissingTemplate) -> Output {
        let view = TemplateValue.flatten(page.view) ?? [String: Any]()
        let markdown = try self.markdown(page, html: false, view: view)
        let content = HTMLPolish.polish(
            SVGIslands.html(from: try self.markdown(page, html: true, view: view), rewriteLink: CMark.markdownLinkToHTML))
        let root = page.rootPrefix
        let nav = site.sections.map {
            NavItem(title: $0.title, href: root + $0.path + ".html", current: $0.id == page.section)
        }
        let crumbs = page.breadcrumbs.map { Crumb(title: $0.title, href: root + $0.path + ".html") }
        let layout: [String: Any] = [
            "title": page.title,
            "siteTitle": site.title,
            "root": root,
            "content": content,
            "nav": nav,
            "hasNav": !nav.isEmpty,
            "breadcrumbs": crumbs,
            "hasBreadcrumbs": !crumbs.isEmpty,
            "isHome": page.path == "index",
            "markdownHref": (page.path.split(separator: "/").last.map(String.init) ?? "index") + ".md",
        ]
        let html = templates.render("layout.html", TemplateValue.flatten(layout) ?? layout) ?? content
        return Output(markdown: markdown, html: html)
    }

    /// The page's Markdown. With `html` set, the template may add what only HTML can show
    /// (an inline SVG chart) where the Markdown has its table; that version feeds cmark.
    public func markdown(_ page: Page, html: Bool) throws(MissingTemplate) -> String {
        try markdown(page, html: html, view: page.view)
    }

    func markdown(_ page: Page, html: Bool, view: Any) throws(MissingTemplate) -> String {
        let name = page.template + ".md"
        guard templates.has(name) else { throw MissingTemplate(name: name + ".mustache", page: page.path) }
        let common: [String: Any] = [
            "root": page.rootPrefix,
            "siteTitle": site.title,
            "title": page.title,
            "html": html,
        ]
        return Self.tidy(templates.render(name, TemplateContext(common: common, view: view)) ?? "")
    }

    /// Collapses runs of blank lines that template sections leave behind and ends with one newline.
    /// (A line of only spaces and tabs counts as blank.) One pass over the bytes.
    static func tidy(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var line: [UInt8] = []
        var blankRun = 0
        func flush() {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                blankRun += 1
            } else {
                if !output.isEmpty { output.append(contentsOf: blankRun > 0 ? [0x0A, 0x0A] : [0x0A]) }
                output.append(contentsOf: line)
                blankRun = 0
            }
            line.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if byte == 0x0A { flush() } else { line.append(byte) }
        }
        flush()
        output.append(0x0A)
        return String(decoding: output, as: UTF8.self)
    }
}
