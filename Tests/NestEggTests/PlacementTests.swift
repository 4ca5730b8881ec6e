import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

/// Where each `{{name}}` lands, read from the template's text (``PlacementScanner``).
@Suite struct PlacementTests {
    func placements(_ text: String, _ kind: Template.Kind = .markdown) throws -> [Placement] {
        try Template(text, kind: kind).placements.map(\.placement)
    }

    func error(_ text: String, _ kind: Template.Kind = .markdown) -> String? {
        do {
            _ = try Template(text, kind: kind)
            return nil
        } catch {
            return "\(error.line):\(error.column): \(error.message)"
        }
    }

    /// An SVG island is found in any case, and closed by a later `</svg>` in any case.
    @Test func anOpenSVGIslandIsFoundInAnyCase() {
        #expect(PlacementScanner.openIsland("a <SVG x='1'><text>") == "<SVG x='1'><text>")
        #expect(PlacementScanner.openIsland("<svg></SVG> then <Svg>é") == "<Svg>é")
        #expect(PlacementScanner.openIsland("<svg>…</svg>") == nil)
        #expect(PlacementScanner.openIsland("£ <sv") == nil)
        #expect(PlacementScanner.lastOffset(of: "<svg", in: "<svg<svg".utf8) == 4)
    }

    @Test func markdownPlacesFollowTheLine() throws {
        #expect(try placements("# {{a}}\n\n## A {{b}} and {{c}}\n") == [.heading, .heading, .heading])
        #expect(try placements("{{a}} and {{b}}.\n") == [.lineStart, .paragraph])
        #expect(try placements("text\n{{a}} continues the paragraph\n") == [.lineStart])
        #expect(try placements("- {{a}}\n  - {{b}}: **{{c}}**\n1. {{d}}\n> {{e}}\n") == [.listItem, .listItem, .paragraph, .listItem, .lineStart])
        #expect(try placements("| {{a}} | **{{b}}** |\n") == [.tableCell, .tableCell])
        #expect(try placements("[{{a}} →]({{root}}{{href}}) [x](y) {{b}}\n") == [.linkText, .url, .url, .paragraph])
        #expect(try placements("A `code` and {{a}}.\n") == [.paragraph])
    }

    @Test func rawHTMLIsReadAsHTML() throws {
        // An HTML block, from its start line to a blank line; inline tags in Markdown lines.
        #expect(try placements("<div class=\"c\">\n<span title=\"{{a}}\">{{b}}</span>\n<a href=\"{{c}}\">x</a>\n</div>\n\n{{d}}\n")
                == [.htmlAttribute, .htmlText, .url, .lineStart])
        #expect(try placements("| <span class=\"x\">{{a}}</span> | <img src=\"{{b}}\" alt=\"{{c}}\"> |\n") == [.tableCell, .url, .htmlAttribute])
        #expect(try placements("<title>{{a}}</title>\n<style>p { color: red }</style>\n<p id=\"{{b}}\">{{c}}</p>\n", .html)
                == [.htmlText, .htmlAttribute, .htmlText])
    }

    @Test func sectionsAreReadBothWays() throws {
        // With {{#html}} the value follows an image on its item's line; without, it begins the item.
        #expect(try placements("- {{#html}}<img src=\"{{{u}}}\" alt=\"\"> {{/html}}{{name}}\n") == [.listItem])
        // {{#html}} and {{^html}} never render together: the list is Markdown whatever the HTML block before it.
        #expect(try placements("{{#html}}\n<div>\n</div>\n{{/html}}\n{{^html}}\n- [{{a}}](x.md)\n{{/html}}\n") == [.linkText])
    }

    @Test func placesNoEscaperCanKeepTextAreErrors() {
        #expect(error("`{{a}}`\n")?.contains("code span") == true)
        #expect(error("```\n{{a}}\n```\n")?.contains("fenced code") == true)
        #expect(error("<div style=\"width: {{a}}\">x</div>\n")?.contains("style attribute is code") == true)
        #expect(error("<a onclick=\"{{a}}\">x</a>\n", .html)?.contains("onclick attribute is code") == true)
        #expect(error("<a href={{a}}>x</a>\n", .html)?.contains("quoted attribute") == true)
        #expect(error("<script>var x = \"{{a}}\"</script>\n", .html)?.contains("<script> is code") == true)
        #expect(error("{{a}}[link](x.md)\n")?.contains("image") == true)
        #expect(error("#{{a}}\n")?.contains("block marker") == true)
        // Markdown in one reading and raw HTML in the other.
        #expect(error("{{#x}}\n<div>\n{{/x}}\n{{a}}\n") == "4:1: a value here may land in htmlText or in lineStart text depending on sections; give it a line of one kind")
    }

    /// Attributes that hold markup or script refuse a value from data at load; URL attributes take
    /// the URL placement, whatever element they are on.
    @Test func attributesThatHoldCodeRefuseAValue() {
        let refused = [
            ("<iframe srcdoc=\"{{a}}\"></iframe>\n", "srcdoc attribute is code"),
            ("<iframe title=\"t\" srcdoc='<p>{{a}}</p>'></iframe>\n", "srcdoc attribute is code"),
            ("<a onclick=\"go('{{a}}')\">x</a>\n", "onclick attribute is code"),
            ("<img onerror=\"{{a}}\" src=\"x.png\">\n", "onerror attribute is code"),
            ("<body ONLOAD=\"{{a}}\">\n", "onload attribute is code"),
            ("<p style=\"color: {{a}}\">x</p>\n", "style attribute is code"),
            ("<button formaction=\"{{a}}\">x</button>\n", "formaction attribute is code"),
            ("<meta http-equiv=\"{{a}}\" content=\"0\">\n", "http-equiv attribute is code"),
            ("<meta http-equiv=\"refresh\" content=\"0; url={{a}}\">\n", "<meta http-equiv>"),
            ("<meta content=\"0; url={{a}}\" http-equiv=\"refresh\">\n", "<meta http-equiv>"),
            ("<script src=\"{{a}}\"></script>\n", "<script> could load or set code"),
            ("<base href=\"{{a}}\">\n", "<base> could load or set code"),
            ("<svg><a href=\"#\"><set attributeName=\"href\" to=\"{{a}}\"/></a></svg>\n", "<set> could load or set code"),
            ("<object codebase=\"{{a}}\"></object>\n", "codebase attribute of <object>"),
            ("<style>p::after { content: \"{{a}}\" }</style>\n", "<style> is code"),
            ("<script>let a = 1;</script><p>{{a}}</p><script>x = '{{b}}'</script>\n", "<script> is code"),
            ("<img src={{a}}>\n", "quoted attribute"),
            ("<img {{a}}>\n", "quoted attribute"),
        ]
        for (template, message) in refused {
            for kind in [Template.Kind.html, .markdown] {
                let found = error(template, kind)
                #expect(found?.contains(message) == true, "\(kind) \(template): \(found ?? "no error")")
            }
        }
        // Only in one section's text, the attribute is still seen.
        #expect(error("<a {{#x}}on{{/x}}click=\"{{a}}\">x</a>\n", .html)?.contains("onclick attribute is code") == true)
        // The error names the line and column of the tag.
        #expect(error("<p>ok</p>\n<iframe srcdoc=\"{{a}}\"></iframe>\n", .html) == "2:17: a value inside the srcdoc attribute is code, not text")
    }

    @Test func urlAttributesTakeTheURLPlacement() throws {
        for attribute in ["href", "src", "action", "poster", "ping", "cite", "background", "srcset", "longdesc", "xlink:href"] {
            #expect(try placements("<img \(attribute)=\"{{a}}\">\n", .html) == [.url], "\(attribute)")
        }
        #expect(try placements("<object data=\"{{a}}\" title=\"{{b}}\"></object>\n", .html) == [.url, .htmlAttribute])
        #expect(try placements("<img srcset=\"{{a}} 1x, {{b}} 2x\">\n", .html) == [.url, .url])
        #expect(try placements("<a href=\"x\" ping=\"{{a}}\">x</a>\n") == [.url])
        // Outside <object>, `data` is no URL attribute; a <meta> without http-equiv holds text.
        #expect(try placements("<div data=\"{{a}}\"></div>\n<meta name=\"description\" content=\"{{b}}\">\n", .html)
                == [.htmlAttribute, .htmlAttribute])
        // What the URL placement makes of a script URL: a relative path, no scheme.
        #expect(Escape.value("javascript:alert(1)", at: .url) == "javascript%3Aalert%281%29")
        #expect(Escape.value("x.png 1x, javascript:alert(1) 2x", at: .url) == "x.png%201x,%20javascript%3Aalert%281%29%202x")
    }

    /// The built-in templates: every value has a place, and a sample of them is where it should be.
    @Test func theBuiltInTemplatesPlaceEveryValue() throws {
        let library = try TemplateLibrary()
        func places(_ template: String, _ name: String) -> [Placement] {
            library.placements(template).filter { $0.name == name }.map(\.placement)
        }
        #expect(places("transactions-list.md", "title") == [.heading])
        #expect(places("transactions-list.md", "date") == [.tableCell, .tableCell])
        #expect(places("transactions-list.md", "category") == [.linkText])
        #expect(places("transactions-list.md", "categoryHref") == [.url])
        #expect(places("goals-goal.md", "about") == [.lineStart])
        #expect(places("goals-goal.md", "name") == [.heading, .listItem])
        #expect(places("summary.md", ".") == [.listItem, .listItem], "the warnings and what changed")
        #expect(places("index.md", "moreFigures") == [.htmlText, .linkText])
        #expect(places("index.md", "moreRows") == [.lineStart])
        #expect(places("layout.html", "href") == [.url, .url])
        #expect(places("layout.html", "title").allSatisfy { $0 == .htmlText || $0 == .htmlAttribute }, "in <title>, its h1 and og:title")
        #expect(places("single.html", "id") == [.htmlAttribute])
        #expect(places("pager-top.md", "number") == [.paragraph, .paragraph, .linkText])
    }
}
