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
