import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

/// NestEgg's Mustache renderer (Render/Mustache/): the language, standalone lines, errors with
/// positions, and view data through `TemplateValue(encoding:)`.
@Suite struct TemplateTests {
    func render(_ text: String, _ value: TemplateValue, kind: Template.Kind = .markdown,
                partials: [String: String] = [:]) throws -> String {
        let library = try partials.mapValues { try Template($0, kind: kind) }
        return try Template(text, kind: kind).render(value, partials: library)
    }

    func object(_ fields: TemplateValue.Fields) -> TemplateValue { .object(fields) }

    @Test func variablesAreEscapedForTheTemplatesKind() throws {
        let value = object(["name": .text("*Bob* <b>")])
        #expect(try render("{{name}}", value) == "\\*Bob\\* \\<b>")
        #expect(try render("{{name}}", value, kind: .html) == "*Bob* &lt;b&gt;")
        // Raw tags place markup that Render wrote, as it is; `{{name}}` escapes it like text.
        let markup = object(["name": .markup("*Bob* <b>")])
        #expect(try render("{{{name}}}|{{& name}}", markup) == "*Bob* <b>|*Bob* <b>")
        #expect(try render("{{name}}", markup, kind: .html) == "*Bob* &lt;b&gt;")
        // A report's text placed raw is an error, not markup: no report can write markup past the escapers.
        #expect(throws: Template.RawTextError.self) { try render("{{{name}}}", value) }
        #expect(throws: Template.RawTextError.self) { try render("{{#list}}{{& .}}{{/list}}", object(["list": .list([.text("<b>")])])) }
        #expect(try render("[{{missing}}]", value) == "[]")
        #expect(try render("{{flag}}", object(["flag": .flag(true)])) == "true")
    }

    @Test func sectionsFollowTheValue() throws {
        let value = object([
            "rows": .list([object(["n": .text("1")]), object(["n": .text("2")])]),
            "none": .list([]),
            "yes": .flag(true), "no": .flag(false),
            "owner": object(["name": .text("Ann")]),
            "note": .text("hi"),
            "title": .text("T"),
        ])
        #expect(try render("{{#rows}}<{{n}}>{{/rows}}", value) == "<1><2>")
        #expect(try render("{{#none}}x{{/none}}{{^none}}empty{{/none}}", value) == "empty")
        #expect(try render("{{#yes}}a{{/yes}}{{#no}}b{{/no}}{{^no}}c{{/no}}{{^yes}}d{{/yes}}", value) == "ac")
        #expect(try render("{{#owner}}{{name}}{{/owner}}", value) == "Ann")
        // Text is truthy and becomes the context, as in swift-mustache.
        #expect(try render("{{#note}}[{{.}}]{{/note}}{{^note}}none{{/note}}", value) == "[hi]")
        #expect(try render("{{#missing}}x{{/missing}}{{^missing}}gone{{/missing}}", value) == "gone")
        // A name not found in the row is looked up outwards; a dotted name descends.
        #expect(try render("{{#rows}}{{title}}{{n}} {{/rows}}", value) == "T1 T2 ")
        #expect(try render("{{owner.name}}/{{owner.age}}/{{#owner}}{{owner.name}}{{/owner}}", value) == "Ann//Ann")
    }

    /// Both flavours in one pass equal two renders, one with the flag off and one with it on,
    /// whatever the template does with the flag: sections, inverted sections, the variable, inside
    /// lists and partials, and a list item's own field of the same name, which shadows it.
    @Test func renderingBothFlavoursAtOnceEqualsRenderingEach() throws {
        let view = object([
            "rows": .list([object(["n": .text("1*")]), object(["n": .text("2"), "html": .flag(true)]), object(["n": .text("3"), "html": .text("<i>")])]),
            "name": .text("A & B"), "yes": .flag(true),
        ])
        let partials = ["p": try Template("{{#html}}<svg/>{{/html}}{{^html}}| t |{{/html}}\n", kind: .markdown)]
        let templates = [
            "{{#html}}H{{/html}}{{^html}}M{{/html}}",
            "a{{html}}b{{{html}}}c",
            "{{#rows}}{{n}}:{{#html}}h{{/html}}{{^html}}m{{/html}}{{html}};{{/rows}}",
            "{{#yes}}{{#html}}{{name}}{{/html}}{{/yes}}{{^html}}{{#html}}never{{/html}}x{{/html}}",
            "{{> p}}{{#rows}}{{> p}}{{/rows}}",
            "# {{name}}\n\n{{#html}}\n<div>{{name}}</div>\n{{/html}}\n{{^html}}\n| {{name}} |\n|---|\n{{/html}}\n",
            "",
        ]
        for text in templates {
            let template = try Template(text, kind: .markdown)
            let common = { (flag: Bool) in self.object(["html": .flag(flag), "title": .text("T")]) }
            let off = try template.render([view, common(false)], partials: partials)
            let on = try template.render([view, common(true)], partials: partials)
            let both = try template.renderBoth([view, common(false)], forkName: "html", partials: partials)
            #expect(both.off == off, "\(text)")
            #expect(both.on == on, "\(text)")
        }
        // Text placed raw in one flavour is refused, as rendering that flavour alone refuses it.
        #expect(throws: Template.RawTextError.self) {
            try Template("{{#html}}{{{name}}}{{/html}}", kind: .markdown).renderBoth([view, self.object(["html": .flag(false)])], forkName: "html")
        }
    }

    @Test func standaloneTagsTakeTheirLineWithThem() throws {
        let value = object(["rows": .list([object(["n": .text("1")])]), "yes": .flag(true)])
        #expect(try render("| a |\n{{#rows}}\n| {{n}} |\n{{/rows}}\nend\n", value) == "| a |\n| 1 |\nend\n")
        #expect(try render("  {{#yes}}  \r\nx\r\n  {{/yes}}", value) == "x\r\n")
        #expect(try render("{{! a comment }}\nx {{! inline }}y\n", value) == "x y\n")
        // Not standalone: other text on the line.
        #expect(try render("a {{#yes}}b{{/yes}}\n", value) == "a b\n")
    }

    /// What sections leave behind is tidied: runs of blank lines become one, the text ends with one newline.
    @Test func tidyCollapsesBlankRuns() {
        #expect(PageRenderer.tidy("\n\nA\n  \n\t\nB\nC\n\n\n") == "A\n\nB\nC\n")
        #expect(PageRenderer.tidy("  x\n") == "  x\n")
        #expect(PageRenderer.tidy("x") == "x\n")
        #expect(PageRenderer.tidy("") == "\n")
        #expect(PageRenderer.tidy("€ a\n\n\n£ b") == "€ a\n\n£ b\n")
    }

    @Test func partialsAreIncludedWithTheirIndentation() throws {
        let value = object(["n": .text("7")])
        #expect(try render("x\n{{> part}}\ny", value, partials: ["part": "[{{n}}]\n"]) == "x\n[7]\ny")
        #expect(try render("  {{> part}}\n", value, partials: ["part": "a\nb\n"]) == "  a\n  b\n")
        // The indentation goes before the partial's own lines, not inside a value it shows.
        let lines = object(["svg": .markup("<svg>\n<g/>\n</svg>")])
        #expect(try render("  {{> part}}\n", lines, partials: ["part": "{{{svg}}}\nend\n"]) == "  <svg>\n<g/>\n</svg>\n  end\n")
        #expect(try render("{{> unknown}}", value) == "")
    }

    @Test func errorsSayWhereAndWhy() {
        func failure(_ text: String) -> Template.ParseError? {
            do {
                _ = try Template(text, kind: .markdown)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("ok\n  {{name") == .init(line: 2, column: 3, message: "a tag is not closed (expected }})"))
        #expect(failure("{{#a}}\n{{/b}}")?.message == "the closing tag {{/b}} does not match the open section {{#a}}")
        #expect(failure("{{#a}}\n{{/b}}")?.line == 2)
        #expect(failure("x\n{{^rows}}\n") == .init(line: 2, column: 1,
                                                  message: "the section {{^rows}} is not closed (expected {{/rows}})"))
        #expect(failure("{{/a}}")?.message == "{{/a}} closes no section")
        #expect(failure("£ {{=<% %>=}}") == .init(line: 1, column: 3, message: "set-delimiter tags ({{=<% %>=}}) are not supported"))
        #expect(failure("{{ }}")?.message == "a tag has no name")
        #expect(failure("{{a..b}}")?.message == "malformed name \"a..b\"")
        #expect(failure("{{#na me}}{{/na me}}")?.message == "malformed name \"na me\"")
        #expect(failure("{{<parent}}{{/parent}}") != nil)
    }

    @Test func theLibraryRefusesMissingAndEndlessPartials() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("{{> pager-bottom.md}}\n", to: folder.appendingPathComponent("pager-top.md.mustache"))
        try write("{{> pager-top.md}}\n{{> no-such.md}}\n", to: folder.appendingPathComponent("pager-bottom.md.mustache"))
        #expect {
            _ = try TemplateLibrary(overrides: folder)
        } throws: { error in
            let messages = (error as? TemplateLibrary.LoadError)?.diagnostics.map(\.description) ?? []
            return messages.contains { $0.contains("pager-bottom.md.mustache") && $0.contains("{{> no-such.md}} names no template") }
                && messages.contains { $0.contains("partials include each other without end (pager-top.md > pager-bottom.md > pager-top.md)") }
        }
    }

    @Test func templateErrorsNameTheFileLineAndColumn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("index.md.mustache")
        try write("# {{title}}\n\n{{#accounts}}\n| {{name}} |\n", to: file)
        #expect {
            _ = try TemplateLibrary(overrides: folder)
        } throws: { error in
            (error as? TemplateLibrary.LoadError)?.diagnostics.map(\.description)
                == ["\(file.path):3:1: error: template error: the section {{#accounts}} is not closed (expected {{/accounts}})"]
        }
    }

    // MARK: View data

    struct Row: Encodable {
        let name: String
        let count: Int
        let big: Int64
        let pinned: Bool
        let note: String?
        let line: TableRow
        let chart: Chart
        let tags: [String]
        let children: [Child]
    }

    struct Child: Encodable { let id: Int }

    @Test func viewsEncodeToTextFlagsListsAndObjects() {
        let row = Row(name: "Café", count: 12, big: 1_000_000_000_000, pinned: false, note: nil,
                      line: TableRow(cells: ["a|b", "c"]), chart: Chart.progress(percent: 5, title: "<T>"), tags: ["x", "y"], children: [Child(id: 1), Child(id: 2)])
        let expected: TemplateValue = .object([
            "name": .text("Café"), "count": .text("12"), "big": .text("1000000000000"), "pinned": .flag(false),
            "line": .markup("| a\\|b | c |"), "chart": .markup(ChartSVG.draw(Chart.progress(percent: 5, title: "<T>"))), "tags": .list([.text("x"), .text("y")]),
            "children": .list([.object(["id": .text("1")]), .object(["id": .text("2")])]),
        ])
        #expect(TemplateValue(encoding: row) == expected)
        #expect(TemplateValue(encoding: [row]) == .list([expected]))
        #expect(TemplateValue(encoding: "plain") == .text("plain"))
        #expect(TemplateValue(encoding: SafeURL("https://example.com/a&b")!) == .text("https://example.com/a&b"))
        // A nil field is absent, so an inverted section over it renders.
        #expect((try? Template("{{^note}}no note{{/note}}", kind: .markdown).render(expected)) == "no note")
    }

    struct Leaves: Encodable {
        let counts: [Int]
        let flags: [Bool?]
        let names: [String?]
        let dividers: [TableDivider]
        let lines: [TableRow?]
        let markup: [Markup]
        let charts: [Chart]
        let notes: [SanitizedText]
        let logos: [StatementIssuer.Logo?]
    }

    /// A list's elements and optionals of every type that is one value (``TemplateLeaf``) are
    /// that value, not an object: text, flags, numbers' text, markup Render writes.
    @Test func leavesInListsAndOptionalsAreOneValueEach() {
        let chart = Chart.progress(percent: 50, title: "half")
        let logo = StatementIssuer.Logo(path: "logo.svg", svg: Array("<svg/>".utf8))
        let leaves = Leaves(counts: [1, -2], flags: [true, nil, false], names: ["a", nil], dividers: [TableDivider(rightAligned: [false, true])],
                            lines: [TableRow(cells: ["x", "y"])], markup: [Markup("<b>")], charts: [chart],
                            notes: [SanitizedText(html: "<b>Bob</b> paid")], logos: [logo, nil])
        let expected: TemplateValue = .object([
            "counts": .list([.text("1"), .text("-2")]), "flags": .list([.flag(true), .flag(false)]), "names": .list([.text("a")]),
            "dividers": .list([.markup(MarkdownTable.divider(TableDivider(rightAligned: [false, true])))]),
            "lines": .list([.markup(MarkdownTable.line(TableRow(cells: ["x", "y"])))]),
            "markup": .list([.markup("<b>")]), "charts": .list([.markup(ChartSVG.draw(chart))]),
            "notes": .list([.markup(RichText.markdown(SanitizedText(html: "<b>Bob</b> paid")))]), "logos": .list([.markup(logo.dataURI)]),
        ])
        #expect(TemplateValue(encoding: leaves) == expected)
    }
}
