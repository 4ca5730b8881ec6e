import Foundation
import Mustache
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

/// NestEgg renders templates with its own Mustache renderer (Render/Mustache/, for speed);
/// swift-mustache stays here as the reference. Every page of the fixture site, in both its
/// Markdown and its HTML-flavoured form, and its layout, must come out of both byte for byte —
/// with each escaped value marked rather than escaped, as swift-mustache cannot know where a value
/// lands (the escapers are tested on their own, and through cmark-gfm).
@Suite struct MustacheParityTests {
    @Test func everyFixturePageRendersAsSwiftMustacheRendersIt() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let (dataset, _) = try Build(options: BuildOptions(data: repositoryRoot.appendingPathComponent("Fixtures"),
                                                           output: work.appendingPathComponent("o"))).load()
        let site = SiteReport.build(dataset)
        let templates = try TemplateLibrary()
        let reference = try ReferenceTemplates()
        var compared = 0
        // The site's pages, and those of each account's bundle (--bundles).
        for site in [site] + StatementBundles.bundles(for: dataset).map(\.site) {
            let renderer = PageRenderer(templates: templates, site: site)
            for page in site.pages {
                let view = TemplateValue(encoding: page.view)
                for html in [false, true] {
                    let common = renderer.commonValue(for: page, html: html)
                    let name = page.template + ".md"
                    // Compared as the page gets them, tidied: swift-mustache keeps the line break after a
                    // standalone `{{> partial}}`, which the Mustache spec (and NestEgg) removes.
                    let ours = try templates.render(name, [view, common], escape: marked).map(PageRenderer.tidy)
                    let theirs = reference.render(name, view, common).map(PageRenderer.tidy)
                    #expect(ours != nil && ours == theirs, "\(page.path), html: \(html)")
                    compared += 1
                }
                let layout = renderer.layoutValue(for: page, content: "<p>content</p>")
                #expect(try templates.render("layout.html", [layout], escape: marked) == reference.render("layout.html", layout), "\(page.path) layout")
            }
        }
        #expect(compared > 150)
    }

    @Test func hostileTextRendersAlike() throws {
        let reference = try ReferenceTemplates()
        let templates = try TemplateLibrary()
        let hostile = ["<script>alert(1)</script>", "*a* _b_ [c](javascript:x) | d", "  # heading", "1. list", "https://evil.example",
                       "www.x.org", "a\nb\r\nc", "€ – … \u{2028}", "&amp; \"q\" 'a'", ""]
        let value: TemplateValue = .object([
            "title": .text("T"), "siteTitle": .text("S"), "root": .text(""), "content": .markup("<p>x</p>"),
            "nav": .list(hostile.map { .object(["title": .text($0), "href": .text("a.html"), "current": .flag(false)]) }),
            "hasNav": .flag(true), "breadcrumbs": .list([]), "hasBreadcrumbs": .flag(false), "isHome": .flag(true),
            "markdownHref": .text("index.md"),
        ])
        #expect(try templates.render("layout.html", [value], escape: marked) == reference.render("layout.html", value))
        let summary: TemplateValue = .object([
            "siteTitle": .text(hostile.joined(separator: " ")), "rows": .list([]), "hasRows": .flag(false),
            "warnings": .list(hostile.map(TemplateValue.text)), "warningCount": .text("10"), "hasWarnings": .flag(true),
            "moreWarnings": .text("0"), "hasMoreWarnings": .flag(false),
        ])
        #expect(try templates.render("summary.md", [summary], escape: marked) == reference.render("summary.md", summary))
    }
}

/// A value marked where it lands, whatever the placement (as the reference marks it).
func marked(_ text: String, _ placement: Placement) -> String { "\u{E000}" + text + "\u{E001}" }

/// The built-in templates, parsed and rendered by swift-mustache, values marked.
struct ReferenceTemplates {
    private var templates: [String: MustacheTemplate] = [:]
    private let library: MustacheLibrary

    private static let registered: Void = {
        MustacheContentTypes.register(ReferenceMarkdown(), named: "NESTEGG_REFERENCE_MARKDOWN")
        MustacheContentTypes.register(ReferenceHTML(), named: "NESTEGG_REFERENCE_HTML")
    }()

    init() throws {
        _ = Self.registered
        for (name, text) in DefaultTemplates.files where name.hasSuffix(".mustache") {
            let key = String(name.dropLast(".mustache".count))
            let kind = key.hasSuffix(".md") ? "NESTEGG_REFERENCE_MARKDOWN" : "NESTEGG_REFERENCE_HTML"
            templates[key] = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(kind) }}" + text)
        }
        library = MustacheLibrary(templates: templates)
    }

    /// Renders with the contexts' fields merged into one object, the later ones winning.
    func render(_ name: String, _ contexts: TemplateValue...) -> String? {
        var merged: [String: Any] = [:]
        for case .object(let fields) in contexts {
            for (name, value) in zip(fields.names, fields.values) { merged[name] = Self.plain(value) }
        }
        return templates[name]?.render(merged, library: library)
    }

    /// The value as the dictionaries, arrays, strings and flags swift-mustache reads.
    static func plain(_ value: TemplateValue) -> Any {
        switch value {
        case .text(let text), .markup(let text): return text
        case .flag(let flag): return flag
        case .list(let items): return items.map(plain)
        case .object(let fields): return Dictionary(uniqueKeysWithValues: zip(fields.names, fields.values.map(plain)))
        }
    }

    struct ReferenceMarkdown: MustacheContentType {
        func escapeText(_ text: String) -> String { marked(text, .paragraph) }
    }

    struct ReferenceHTML: MustacheContentType {
        func escapeText(_ text: String) -> String { marked(text, .htmlText) }
    }
}
