import NestEggReport
import NestEggModel
import NestEggSupport
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
        /// The page's tables as CSV, in order: the `n`th is written as
        /// ``TableCSV/fileName(page:number:)`` beside the page, and linked under its table.
        public var tableCSVs: [String] = []
    }

    public struct MissingTemplate: Error, Sendable {
        public let name: String
        public let page: String
    }

    /// Throws ``MissingTemplate``, or ``Template/RawTextError`` for a raw tag that met a report's text.
    public func render(_ page: Page) throws -> Output {
        try render(page, view: TemplateValue(encoding: page.view))
    }

    /// The page's files from its view data already encoded (``PageFingerprint`` encodes it too).
    public func render(_ page: Page, view: TemplateValue) throws -> Output {
        // Both flavours of the page's Markdown in one pass over its template: the .md file's
        // (tables padded to line up as text) and the one that feeds cmark (with `html` set).
        let (plain, forHTML) = try markdownBoth(page, view: view)
        // The .md file's tables are lined up as text; the other flavour is parsed by cmark once,
        // for its tables and its HTML.
        let padded = MarkdownTablePadding.padded(plain)
        let (lifted, islands) = SVGIslands.lift(forHTML)
        guard let document = CMark.Document(lifted) else { throw CMark.ParserFailure(page: page.path) }
        // Each table gets a CSV beside the page and a link under it, when the page's report says so (``Page/tablesAsCSV``).
        let linked = !page.tablesAsCSV ? (plain: padded.text, csvs: [])
            : TableCSV.link(plain: padded, document: document, page: page.fileName, locale: site.settings.locale)
        let markdown = linked.plain
        let cmarkHTML = document.html(rewriteLink: Page.htmlLink(ofMarkdownLink:), headingOffset: 0, unlinkingUnsafe: true).html
        let content = HTMLPolish.polish(SVGIslands.land(cmarkHTML, islands))
        let html = try templates.render("layout.html", layoutValue(for: page, content: content)) ?? content
        return Output(markdown: markdown, html: html, tableCSVs: linked.csvs)
    }

    /// What `layout.html` shows around a page's HTML `content`.
    func layoutValue(for page: Page, content: String) -> TemplateValue {
        let root = self.root(of: page)
        let nav: [TemplateValue] = site.sections.map {
            .object(["title": .text($0.title), "href": .text(root + $0.path + ".html"), "current": .flag($0.id == page.section)])
        }
        let crumbs: [TemplateValue] = page.breadcrumbs.map {
            .object(["title": .text($0.title), "href": .text(root + $0.path + ".html")])
        }
        var fields: TemplateValue.Fields = [
            "title": .text(page.title),
            "siteTitle": .text(site.title),
            "root": .text(root),
            "content": .markup(content),
            "nav": .list(nav),
            "hasNav": .flag(!nav.isEmpty),
            "breadcrumbs": .list(crumbs),
            "hasBreadcrumbs": .flag(!crumbs.isEmpty),
            "isHome": .flag(page.path == "index"),
            "isSearch": .flag(page.path == SearchReport.path),
            "markdownHref": .text(page.fileName + ".md"),
            "allowIndexing": .flag(site.settings.allowIndexing),
            "description": .text(SiteMeta.description(of: page, site: site)),
        ]
        if page.path == SiteMeta.notFoundPath { fields["markdownHref"] = nil }  // HTML only
        // Each printed page names the page and the site at its top; a statement prints as the
        // bank's document, with its own head.
        if page.statementData == nil {
            // The start page's title is the site's: named once.
            fields["printHead"] = .markup(Escape.cssString(page.title == site.title ? site.title : page.title + " · " + site.title))
        }
        fields["canonical"] = SiteMeta.canonicalURL(of: page.path, site: site).map(TemplateValue.text)
        if site.dataNotes > 0, page.path != DataNotesReport.path {
            fields["dataNotesHref"] = .text(root + DataNotesReport.path + ".html")
            // Not on an account's or a goal's own page: the site's count of notes would make it
            // depend on every other file, and rendered again whenever any of them changed.
            if page.entity == nil { fields["dataNotesCount"] = .text(site.settings.locale.format(site.dataNotes)) }
        }
        return .object(fields)
    }

    /// The page's Markdown. With `html` set, the template may add what only HTML can show
    /// (an inline SVG chart) where the Markdown has its table; that version feeds cmark.
    /// `inSingleFile`: for the single-file report, which has no files beside it to link to (a
    /// statement's CSV, camt.053 and PDF: the templates' `besideFiles` is off).
    public func markdown(_ page: Page, html: Bool, inSingleFile: Bool = false) throws -> String {
        try markdown(page, html: html, view: TemplateValue(encoding: page.view), inSingleFile: inSingleFile)
    }

    func markdown(_ page: Page, html: Bool, view: TemplateValue, inSingleFile: Bool = false) throws -> String {
        let name = page.template + ".md"
        guard templates.has(name) else { throw MissingTemplate(name: name + ".mustache", page: page.path) }
        return Self.tidy(try templates.render(name, view, commonValue(for: page, html: html, inSingleFile: inSingleFile)) ?? "")
    }

    /// ``markdown(_:html:)`` with `html` off and on, rendered together.
    func markdownBoth(_ page: Page, view: TemplateValue) throws -> (plain: String, html: String) {
        let name = page.template + ".md"
        guard let both = try templates.renderBoth(name, view, commonValue(for: page, html: false), forkName: "html") else {
            throw MissingTemplate(name: name + ".mustache", page: page.path)
        }
        return (Self.tidy(both.off), Self.tidy(both.on))
    }

    /// How `page` links to the site's root: relative (`../../`), but for the page for missing
    /// addresses, which a host serves at any depth (``SiteMeta/notFoundRoot(site:)``).
    func root(of page: Page) -> String {
        page.path == SiteMeta.notFoundPath ? SiteMeta.notFoundRoot(site: site) : page.rootPrefix
    }

    /// The fields every page's template has, looked up before the page's own view.
    func commonValue(for page: Page, html: Bool, inSingleFile: Bool = false) -> TemplateValue {
        .object(["root": .text(root(of: page)), "siteTitle": .text(site.title), "title": .text(page.title), "html": .flag(html),
                 "besideFiles": .flag(!inSingleFile), "statementPDFs": .flag(site.statementPDFs)])
    }

    /// Collapses runs of blank lines that template sections leave behind and ends with one newline.
    /// (A line of only spaces and tabs counts as blank.) One pass over the bytes.
    static func tidy(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 1)
            var blankRun = 0
            var start = 0
            // Line by line; a line that is kept is copied whole.
            while start <= bytes.count {
                var end = start
                var blank = true
                while end < bytes.count && bytes[end] != 0x0A {
                    if bytes[end] != 0x20 && bytes[end] != 0x09 { blank = false }
                    end += 1
                }
                if blank {
                    blankRun += 1
                } else {
                    if !output.isEmpty { output.append(contentsOf: blankRun > 0 ? [0x0A, 0x0A] : [0x0A]) }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    blankRun = 0
                }
                start = end + 1
            }
            output.append(0x0A)
            return String(decoding: output, as: UTF8.self)
        }
    }
}
