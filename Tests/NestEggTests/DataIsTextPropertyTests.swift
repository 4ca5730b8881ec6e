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

/// Data is text, everywhere it lands (issue 14). Tens of thousands of generated strings — every
/// ASCII punctuation character, pair and triple, CommonMark's inline constructs, entities, HTML
/// tags, URLs with and without schemes, e-mail addresses, Unicode punctuation and separators,
/// control characters, white space at the ends, and random mixtures of all of these (fixed seed) —
/// are placed in every context the templates use, through the template renderer, and made into
/// HTML as the build makes it (cmark-gfm with the build's extensions and options, the node pass,
/// the SVG islands, the HTML polish). In each, the page must show the value's normal form
/// (``Escape/normalised(_:)``, checked against an oracle of its own here) as text, and hold no
/// element the template did not write; GitHub's view of the same Markdown (cmark-gfm without
/// NestEgg's node pass) must link nothing from data, and the Markdown must hold no autolink trigger
/// (`www.`, `://`, an e-mail address) unbroken.
@Suite struct DataIsTextPropertyTests {
    /// The strings, made once (they are the same for every placement), and their normal forms.
    static let strings: [String] = PropertyStrings.make(count: 50_000)
    static let normals: [String] = strings.map(Oracle.normalised)
    /// The normal forms' bytes, and as cmark-gfm writes them as text.
    static let expected = Expected(normals: normals)
    /// The view every harness renders: one item a string.
    static let view: TemplateValue = .object(["items": .list(strings.map { .object(["v": .text($0)]) })])

    @Test func thereAreEnoughStringsOfEachKind() {
        #expect(Self.strings.count >= 50_000)
        #expect(Set(Self.strings).count > 45_000)
        for needle in ["@", "://", "www.", "<", "&", "\u{2028}", "\u{1}", "\u{85}", "#", "\u{A0}", "“"] {
            #expect(Self.strings.contains { $0.contains(needle) }, "no string holds \(needle.debugDescription)")
        }
    }

    /// The documented normalisation, written again from the README's words.
    @Test func normalisationIsWhatTheREADMESays() {
        let wrong = Self.strings.indices.filter { Escape.normalised(Self.strings[$0]) != Self.normals[$0] }
        #expect(wrong.isEmpty, "\(wrong.prefix(12).map { Self.strings[$0].debugDescription })")
    }

    /// No bidirectional control from data survives any text placement, and a value that holds
    /// right-to-left text has it isolated: one isolate, opened right before its first right-to-left
    /// character and closed right after its last, so nothing in it can reorder the text around it.
    @Test func noValueCanReorderTheTextAroundIt() {
        var failures: [String] = []
        for value in Self.strings {
            for placement in Placement.allCases where placement != .url {
                let scalars = Array(Escape.value(value, at: placement).unicodeScalars)
                let controls = scalars.indices.filter { Oracle.isBidiControl(scalars[$0]) }
                let rightToLeft = Oracle.normalised(value).unicodeScalars.contains(where: Oracle.isRightToLeft)
                let first = scalars.firstIndex(where: Oracle.isRightToLeft), last = scalars.lastIndex(where: Oracle.isRightToLeft)
                let expected = rightToLeft ? [first! - 1, last! + 1] : []
                if controls != expected || (rightToLeft && (scalars[first! - 1] != "\u{2068}" || scalars[last! + 1] != "\u{2069}")) {
                    failures.append("\(value.debugDescription) at \(placement) → \(String(String.UnicodeScalarView(scalars)).debugDescription)")
                }
            }
            if failures.count >= 12 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(Self.strings.contains { $0.unicodeScalars.contains(where: Oracle.isRightToLeft) })
    }

    /// The search index (`search-index.js`) holds data as JSON string literals: each reads back as
    /// the value (its bidi controls stripped), and none holds what could end or change a script
    /// element or a line of JavaScript (`<`, `>`, `&`, a control character, U+2028, U+2029).
    @Test func everyValueIsAStringInTheSearchIndex() throws {
        var failures: [String] = []
        for value in Self.strings {
            let literal = SearchIndexScript.literal(value)
            let forbidden = literal.unicodeScalars.contains { "<>&\u{2028}\u{2029}".unicodeScalars.contains($0) || $0.value < 0x20 || Oracle.isBidiControl($0) }
            let decoded = try? JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
            if forbidden || decoded != Text.withoutBidiControls(value) { failures.append(value.debugDescription) }
            if failures.count >= 12 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // Whole entries, one a line: four strings each, read back as written.
        let entries = Self.strings.prefix(2_000).map { SearchReport.Entry(kind: .counterparty, title: $0, path: "transactions/index", detail: $0) }
        let lines = SearchIndexScript.script(entries).split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(lines.count == entries.count)
        for (line, entry) in zip(lines, entries) {
            let row = try JSONSerialization.jsonObject(with: Data(line.dropLast().utf8)) as? [String]
            #expect(row == ["Counterparty", Text.withoutBidiControls(entry.title), "transactions/index", Text.withoutBidiControls(entry.detail)])
        }
        #expect(!SearchIndexScript.script(entries).contains("</"))
        // A chunk of transactions: eight strings a row, each read back as written; nothing that ends a script.
        let rows = Self.strings.prefix(2_000).map { value in
            TransactionSearch.Row(day: "2026-11-03", date: value, payee: value, reference: value, shown: value, amount: "-12.50",
                                  account: value, target: "statements/personal/2026-11#line-1")
        }
        let chunk = SearchIndexScript.chunk(path: "search/personal/2026-11", rows: rows)
        #expect(!chunk.contains("</") && !chunk.contains("<!--"))
        let chunkLines = chunk.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(chunkLines.count == rows.count)
        for (line, row) in zip(chunkLines, rows) {
            let read = try JSONSerialization.jsonObject(with: Data(line.dropLast().utf8)) as? [String]
            let value = Text.withoutBidiControls(row.payee)
            #expect(read == ["2026-11-03", value, value, value, value, "-12.50", value, "statements/personal/2026-11#line-1"])
        }
    }

    @Test(arguments: Harness.all)
    func everyValueIsTextInItsPlace(_ harness: Harness) throws {
        let template = try Template(harness.template, kind: harness.kind)
        #expect(template.placements.map(\.placement) == harness.placements,
                "the template places {{v}} at \(template.placements.map(\.placement)), not \(harness.placements)")
        let values = Self.strings
        let rendered = try template.render(Self.view)
        let (html, unsafeLinks) = harness.kind == .markdown ? Harness.buildHTML(rendered) : (rendered, 0)
        let failures = harness.check(html, values: values, expected: Self.expected)
        #expect(failures.isEmpty, "\(failures.count) counterexamples, the first:\n\(failures.prefix(12).joined(separator: "\n"))")

        guard harness.kind == .markdown else { return }
        // GitHub's view of the .md file is cmark-gfm's own, without the node pass that made every
        // link with an unsafe destination (an autolinked address, an `xmpp:` URI) its text again.
        // The pages hold only the template's links, so GitHub's has as many more as the pass undid.
        #expect(unsafeLinks == 0, "GitHub would link \(unsafeLinks) values")
        if unsafeLinks > 0 {
            let linked = values.filter { value in
                let one = try! template.render(.object(["items": .list([.object(["v": .text(value)])])]))
                return Harness.buildHTML(one).unsafeLinks > 0
            }
            #expect(linked.isEmpty, "linked on GitHub: \(linked.prefix(12).map(\.debugDescription))")
        }
        // And the Markdown itself: no trigger of GitHub's autolinker left whole in text (raw HTML
        // and link destinations are not autolinked).
        if harness.placements.allSatisfy(\.isMarkdownText), let trigger = Oracle.autolinkTrigger(in: rendered) {
            let culprits = values.filter { Oracle.autolinkTrigger(in: Escape.value($0, at: harness.placements[0])) != nil }
            Issue.record("an autolink trigger is left in the Markdown (\(trigger)): \(culprits.prefix(12).map(\.debugDescription))")
        }
    }
}

// MARK: - Where values are placed

/// A template placing `{{v}}` once or more per item, and what its HTML must be for each item: parts
/// that are the template's own, and holes where the value's text must be.
struct Harness: Sendable, CustomTestStringConvertible {
    enum Part: Sendable {
        /// HTML that is the template's (or cmark's) own, exactly.
        case literal([UInt8])
        /// The value's normal text as cmark-gfm writes text (`&`, `<`, `>` and `"` escaped).
        case text
        /// The value as text in raw HTML, up to the given character: no `<` or `>`, and its
        /// entities decoded it is the value's normal text.
        case rawText(until: UInt8)
        /// A link destination up to `"`: relative or http(s), and, when the value is made of
        /// characters a URL keeps as they are, the value itself.
        case href

        static func literal(bytes text: String) -> Part { .literal(Array(text.utf8)) }
    }

    let name: String
    let kind: Template.Kind
    let template: String
    /// Where each `{{v}}` of the template lands.
    let placements: [Placement]
    let prefix: [UInt8]
    let item: [Part]
    /// The item's parts when the value's normal form is empty (cmark drops the spaces around it).
    let emptyItem: [Part]?
    let suffix: [UInt8]
    let linksPerItem: Int

    var testDescription: String { name }

    init(_ name: String, _ kind: Template.Kind = .markdown, template: String, placement: Placement? = nil, placements: [Placement] = [],
         prefix: String = "", item: [Part], emptyItem: [Part]? = nil, suffix: String = "", linksPerItem: Int = 0) {
        self.name = name
        self.kind = kind
        self.template = template
        let tags = template.components(separatedBy: "{{v}}").count - 1
        self.placements = placement.map { Array(repeating: $0, count: tags) } ?? placements
        self.prefix = Array(prefix.utf8)
        self.item = item
        self.emptyItem = emptyItem
        self.suffix = Array(suffix.utf8)
        self.linksPerItem = linksPerItem
    }

    static let all: [Harness] = [
        Harness("paragraph", template: "{{#items}}\nP {{v}} q\n\n{{/items}}\n", placement: .paragraph,
                item: [.literal(bytes: "<p>P "), .text, .literal(bytes: " q</p>\n")]),
        Harness("line start", template: "{{#items}}\n{{v}} q\n\np\n{{v}}\n\n{{/items}}\n", placement: .lineStart,
                item: [.literal(bytes: "<p>"), .text, .literal(bytes: " q</p>\n<p>p\n"), .text, .literal(bytes: "</p>\n")],
                emptyItem: [.literal(bytes: "<p>q</p>\n<p>p</p>\n")]),
        Harness("list item", template: "{{#items}}\n- {{v}}\n{{/items}}\n", placement: .listItem,
                prefix: "<ul>\n", item: [.literal(bytes: "<li>"), .text, .literal(bytes: "</li>\n")], suffix: "</ul>\n"),
        Harness("table cell", template: "| A | B |\n|:--|--:|\n{{#items}}\n| {{v}} | x |\n{{/items}}\n", placement: .tableCell,
                prefix: "<div class=\"table-scroll\" tabindex=\"0\">\n<table>\n<thead>\n<tr>\n<th scope=\"col\" style=\"text-align: left\">A</th>\n"
                    + "<th scope=\"col\" style=\"text-align: right\">B</th>\n</tr>\n</thead>\n<tbody>\n",
                item: [.literal(bytes: "<tr>\n<td data-label=\"A\" style=\"text-align: left\">"), .text, .literal(bytes: "</td>\n<td data-label=\"B\" style=\"text-align: right\">x</td>\n</tr>\n")],
                suffix: "</tbody>\n</table>\n</div>\n"),
        Harness("heading", template: "{{#items}}\n## {{v}}\n\n# A {{v}} b\n\n{{/items}}\n", placement: .heading,
                item: [.literal(bytes: "<h2>"), .text, .literal(bytes: "</h2>\n<h1>A "), .text, .literal(bytes: " b</h1>\n")]),
        Harness("link text", template: "{{#items}}\n[{{v}}](page.md) x\n\n{{/items}}\n", placement: .linkText,
                item: [.literal(bytes: "<p><a href=\"page.html\">"), .text, .literal(bytes: "</a> x</p>\n")], linksPerItem: 1),
        Harness("link destination", template: "{{#items}}\n[link]({{v}})\n\n{{/items}}\n", placement: .url,
                item: [.literal(bytes: "<p><a href=\""), .href, .literal(bytes: "\">link</a></p>\n")], linksPerItem: 1),
        Harness("raw HTML text", template: "{{#items}}\n<div class=\"c\">\n<span>{{v}}</span>\n</div>\n\n{{/items}}\n", placement: .htmlText,
                item: [.literal(bytes: "<div class=\"c\">\n<span>"), .rawText(until: UInt8(ascii: "<")), .literal(bytes: "</span>\n</div>\n")]),
        Harness("raw HTML attribute", template: "{{#items}}\n<div title=\"{{v}}\">x</div>\n\n{{/items}}\n", placement: .htmlAttribute,
                item: [.literal(bytes: "<div title=\""), .rawText(until: UInt8(ascii: "\"")), .literal(bytes: "\">x</div>\n")]),
        Harness("raw HTML link", template: "{{#items}}\n<p><a href=\"{{v}}\">x</a></p>\n\n{{/items}}\n", placement: .url,
                item: [.literal(bytes: "<p><a href=\""), .href, .literal(bytes: "\">x</a></p>\n")], linksPerItem: 1),
        Harness("layout text", .html, template: "<ul>\n{{#items}}\n<li>{{v}}</li>\n{{/items}}\n</ul>\n", placement: .htmlText,
                prefix: "<ul>\n", item: [.literal(bytes: "<li>"), .rawText(until: UInt8(ascii: "<")), .literal(bytes: "</li>\n")], suffix: "</ul>\n"),
        Harness("layout attribute and link", .html, template: "{{#items}}\n<li title=\"{{v}}\"><a href=\"{{v}}\">x</a></li>\n{{/items}}\n",
                placements: [.htmlAttribute, .url],
                item: [.literal(bytes: "<li title=\""), .rawText(until: UInt8(ascii: "\"")), .literal(bytes: "\"><a href=\""), .href, .literal(bytes: "\">x</a></li>\n")]),
    ]

    /// A page's Markdown made HTML as ``PageRenderer`` makes it (``SVGIslands/html(from:rewriteLink:headingOffset:)``
    /// and ``HTMLPolish``), and the number of links the node pass made text again.
    static func buildHTML(_ markdown: String) -> (html: String, unsafeLinks: Int) {
        let (lifted, islands) = SVGIslands.lift(markdown)
        let rendered = CMark.render(lifted, rewriteLink: Page.htmlLink(ofMarkdownLink:), headingOffset: 0, unlinkingUnsafe: true)
        return (HTMLPolish.polish(SVGIslands.land(rendered.html, islands)), rendered.unsafeLinks)
    }

    /// What is wrong with `html` as the page of `values`: one line per value that did not come out
    /// as text in its place (each checked again alone, so a value is not blamed for another's harm).
    func check(_ html: String, values: [String], expected: Expected) -> [String] {
        let bytes = Self.withoutEmailBreaks(html)
        return bytes.withUnsafeBufferPointer { bytes in
            var cursor = 0
            guard match(.literal(prefix), bytes, &cursor, normal: [], text: []) else { return ["the page does not begin as the template does"] }
            for index in values.indices {
                let parts = expected.normals[index].isEmpty ? emptyItem ?? item : item
                let start = cursor
                for part in parts where !match(part, bytes, &cursor, normal: expected.normals[index], text: expected.texts[index]) {
                    return blame(values[max(0, index - 1)...].prefix(3),
                                 near: String(decoding: bytes[start..<min(bytes.count, start + 300)], as: UTF8.self))
                }
            }
            return match(.literal(suffix), bytes, &cursor, normal: [], text: []) && cursor == bytes.count ? [] : ["the page does not end as the template does"]
        }
    }

    /// The e-mail break is the escaper's own, and invisible: it is not part of the text.
    static func withoutEmailBreaks(_ html: String) -> [UInt8] {
        let mark = Array("<!-- -->".utf8)
        var html = html
        return html.withUTF8 { source in
            var out: [UInt8] = []
            out.reserveCapacity(source.count)
            var copied = 0, index = 0
            while index < source.count {
                if source[index] == UInt8(ascii: "<"), index + mark.count <= source.count,
                   memcmp(source.baseAddress! + index, mark, mark.count) == 0 {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<index]))
                    index += mark.count
                    copied = index
                } else {
                    index += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied...]))
            return out
        }
    }

    /// The values among `suspects` that fail alone, with what they became.
    private func blame(_ suspects: ArraySlice<String>, near: String) -> [String] {
        var failures: [String] = []
        let template = try! Template(self.template, kind: kind)
        for value in suspects {
            let markdown = try! template.render(.object(["items": .list([.object(["v": .text(value)])])]))
            let html = kind == .markdown ? Self.buildHTML(markdown).html : markdown
            let one = Expected(normals: [Oracle.normalised(value)])
            if !check(html, values: [value], expected: one, alone: true) {
                failures.append("\(value.debugDescription) → \(markdown.debugDescription) → \(html.debugDescription)")
            }
        }
        return failures.isEmpty ? ["values \(suspects.map(\.debugDescription)) together (alone they pass) near \(near.debugDescription)"] : failures
    }

    private func check(_ html: String, values: [String], expected: Expected, alone: Bool) -> Bool {
        Self.withoutEmailBreaks(html).withUnsafeBufferPointer { bytes in
            var cursor = 0
            let parts = [.literal(prefix)] + (expected.normals[0].isEmpty ? emptyItem ?? item : item) + [.literal(suffix)]
            return parts.allSatisfy { match($0, bytes, &cursor, normal: expected.normals[0], text: expected.texts[0]) } && cursor == bytes.count
        }
    }

    private func match(_ part: Part, _ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, normal: [UInt8], text: [UInt8]) -> Bool {
        switch part {
        case .literal(let expected):
            guard cursor + expected.count <= bytes.count,
                  expected.isEmpty || memcmp(bytes.baseAddress! + cursor, expected, expected.count) == 0 else { return false }
            cursor += expected.count
            return true
        case .text:
            return match(.literal(text), bytes, &cursor, normal: normal, text: text)
        case .rawText(let end):
            var stop = cursor
            while stop < bytes.count && bytes[stop] != end { stop += 1 }
            guard stop < bytes.count else { return false }
            defer { cursor = stop }
            return Oracle.decodesHTML(bytes[cursor..<stop], to: normal)
        case .href:
            var stop = cursor
            while stop < bytes.count && bytes[stop] != UInt8(ascii: "\"") { stop += 1 }
            guard stop < bytes.count else { return false }
            let href = Oracle.decodeHTML(bytes[cursor..<stop])
            cursor = stop
            guard !href.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }), CMark.isSafeDestination(href) else { return false }
            // A value a URL keeps as it is stays itself (but for `.md` becoming `.html`).
            guard normal.allSatisfy({ Oracle.plainURLByte[Int($0)] }), !normal.starts(with: [0x2F, 0x2F]) else { return true }
            let value = String(decoding: normal, as: UTF8.self)
            return href == value || href == Page.htmlLink(ofMarkdownLink: value)
        }
    }
}

/// What each value must show: its normal form's bytes, and those as cmark-gfm writes text.
struct Expected: Sendable {
    let normals: [[UInt8]]
    let texts: [[UInt8]]

    init(normals: [String]) {
        let shown = normals.map(Oracle.shown)
        self.normals = shown.map { Array($0.utf8) }
        texts = shown.map { Array(Oracle.cmarkText($0).utf8) }
    }
}

extension Placement {
    /// Text cmark-gfm parses as Markdown inlines (not raw HTML, not a link destination).
    var isMarkdownText: Bool { ![.url, .htmlText, .htmlAttribute].contains(self) }
}

// MARK: - The oracle

/// What the tests expect, written from the README rather than taken from the code.
enum Oracle {
    /// README, "Safety": control characters are removed; each run of white space that holds a tab,
    /// a line break or a line or paragraph separator becomes one space; white space at both ends goes.
    static func normalised(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        var runBreaks = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x85, 0x2028, 0x2029:
                run.append(scalar)
                runBreaks = true
            case 0x20:
                run.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                if !run.isEmpty {
                    if runBreaks { out.append(" ") } else { out.append(contentsOf: run) }
                    run = String.UnicodeScalarView()
                    runBreaks = false
                }
                out.append(scalar)
            }
        }
        // The run at the end goes with the trimming; so does one at the start, and any Unicode space.
        return Text.trimmed(String(out))
    }

    /// README, "Safety": the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
    /// U+061C) are removed from data.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Right-to-left scripts' blocks (Hebrew to Arabic Extended-A, their presentation forms, and
    /// the supplementary planes' right-to-left ranges).
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        [0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF].contains { $0.contains(scalar.value) }
    }

    /// README, "Safety": the part of a value from its first right-to-left character to its last is
    /// shown between U+2068 (first strong isolate) and U+2069 (pop directional isolate), so that it
    /// cannot reorder what is around it.
    static func shown(_ normal: String) -> String {
        let scalars = normal.unicodeScalars
        guard let first = scalars.firstIndex(where: isRightToLeft), let last = scalars.lastIndex(where: isRightToLeft) else { return normal }
        return String(scalars[..<first]) + "\u{2068}" + String(scalars[first...last]) + "\u{2069}" + String(scalars[scalars.index(after: last)...])
    }

    /// Text as cmark-gfm writes it in HTML.
    static func cmarkText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether raw HTML text holds no tag character and, its entities decoded, is `normal`.
    /// Bytes a URL is written with as they are: letters, digits and `-._~/`.
    static let plainURLByte: [Bool] = (0..<256).map { byte in
        Escape.isASCIIAlphanumeric(UInt8(byte)) || "-._~/".utf8.contains(UInt8(byte))
    }

    static let entities: [[UInt8]] = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#124;"].map { Array($0.utf8) }
    static let decoded: [UInt8] = Array("&<>\"'|".utf8)

    static func decodesHTML(_ hole: Slice<UnsafeBufferPointer<UInt8>>, to normal: [UInt8]) -> Bool {
        let entities = Self.entities, decoded = Self.decoded
        let base = hole.base.baseAddress!
        var index = hole.startIndex
        var out = 0
        while index < hole.endIndex {
            var byte = base[index]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") { return false }
            var length = 1
            if byte == UInt8(ascii: "&") {
                guard let entity = entities.indices.first(where: { index + entities[$0].count <= hole.endIndex
                    && memcmp(base + index, entities[$0], entities[$0].count) == 0 }) else { return false }
                byte = decoded[entity]
                length = entities[entity].count
            }
            guard out < normal.count, normal[out] == byte else { return false }
            out += 1
            index += length
        }
        return out == normal.count
    }

    /// The entities an HTML escaper or cmark-gfm writes (`&#x27;` in an `href` too), decoded.
    static let hrefEntities = entities + [Array("&#x27;".utf8)], hrefDecoded = decoded + [UInt8(ascii: "'")]

    static func decodeHTML(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let entities = Self.hrefEntities, decoded = Self.hrefDecoded
        let base = bytes.base.baseAddress!
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "&"), let entity = entities.indices.first(where: { index + entities[$0].count <= end
                && memcmp(base + index, entities[$0], entities[$0].count) == 0 }) {
                out.append(decoded[entity])
                index += entities[entity].count
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first thing in `markdown` that GitHub's autolinker would take for a link: `www.`, a
    /// `://`, or an `@` with an address's characters on both sides.
    static func autolinkTrigger(in markdown: String) -> String? {
        let bytes = Array(markdown.utf8)
        func isLocal(_ byte: UInt8) -> Bool { Escape.isASCIIAlphanumeric(byte) || ".+-_".utf8.contains(byte) }
        func isDomain(_ byte: UInt8) -> Bool { Escape.isASCIIAlphanumeric(byte) || ".-_".utf8.contains(byte) }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "."):
                if index >= 3 && bytes[(index - 3)..<index].allSatisfy({ $0 | 0x20 == UInt8(ascii: "w") }) { return "www." }
            case UInt8(ascii: ":"):
                // `\://` is broken: the autolinker never sees an escaped `:`.
                let backslashes = bytes[..<index].reversed().prefix { $0 == UInt8(ascii: "\\") }.count
                if backslashes % 2 == 0 && index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
                    return "://"
                }
            case UInt8(ascii: "@"):
                if index > 0 && index + 1 < bytes.count && isLocal(bytes[index - 1]) && isDomain(bytes[index + 1]) {
                    return String(decoding: bytes[max(0, index - 8)..<min(bytes.count, index + 8)], as: UTF8.self)
                }
            default:
                break
            }
        }
        return nil
    }
}

// MARK: - The strings

enum PropertyStrings {
    /// Every printable ASCII character that is not a letter or a digit.
    static let punctuation: [String] = (0x21...0x7E).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        .filter { !$0.first!.isLetter && !$0.first!.isNumber }

    /// CommonMark's and GFM's constructs, and what the autolinkers and HTML look for.
    static let constructs: [String] = [
        "*a*", "**a**", "***a***", "_a_", "__a__", "a*b*c", "a_b_c", "*a", "a*", "_a", "a_", "**", "__", "`c`", "``c``", "` c `", "```",
        "~~~", "~a~", "~~a~~", "[a](b)", "[a](javascript:alert(1))", "[a][b]", "[a]", "[a]: /url", "[^1]", "[ ]", "[x]", "![a](b.png)",
        "![a]", "<a>", "</a>", "<b>x</b>", "<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "<style>", "<svg onload=x>",
        "<svg><title>t</title></svg>", "<title>", "<textarea>", "<!-- c -->", "<!---->", "<?php ?>", "<![CDATA[x]]>", "<!DOCTYPE html>",
        "<div>", "</div>", "<p>", "<br>", "<br/>", "<http://x.example>", "<https://x.example/a?b=c&d=e>", "<a@b.example>", "<0@x.y>",
        "<xmpp:a@b.c>", "<javascript:alert(1)>", "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#65;", "&#x41;", "&copy;", "&copy",
        "&nbsp;", "&bogus;", "&#0;", "&#xD800;", "&", "&&", "AT&T", "Sara & Tom", "<0.01", "< 5", "a < b > c", "a<b", "5 > 3",
        "https://evil.example/x", "http://a.b", "HTTPS://A.B", "http:\u{1}//host/x", "http:\u{7F}//host/x", "ftp://x.y",
        "www.evil.example", "WWW.EVIL.EXAMPLE", "wWw.x.y", "(www.x.y)", "*www.x.y*", "_www.x.y_", "~www.x.y~", "javascript:alert(1)",
        "JaVaScRiPt:x", "data:text/html,x", "vbscript:x", "mailto:a@b.example", "xmpp:a@b.example/r", "xmpp:a@b.c", "a@b.c",
        "first.last+tag@sub.example.co.uk", "a_b-c@d-e.fg", "@home", "me@", "a@b", "x.y", "//x.y/z", "/\\x.y", "\\\\x.y", "../x.md",
        "x.md#y", "#top", "?q=1", "# h", "## h", "###### h", "####### h", "#h", "##\th", "#\u{2028}h", "- a", "-\ta", "-\na", "+ a",
        "* a", "1. a", "1) a", "1.\ta", "123456789. a", "1234567890. a", "10)", "> q", ">\tq", "---", "***", "___", "===", "- - -",
        "--", "==", "    code", "\tcode", "| a | b |", "|---|", "a | b", "\\|", "a\\", "\\", "\\\\", "\\*", "\\n", "C:\\Users\\x",
        "a  ", "a\\\nb", "{{v}}", "{{{v}}}", "$x$", ":smile:", "@user", "#1", "0.01", "£3.20", "-£3.20", "+44", "50%", "2026-W47",
        "14:27", "Hello!", "snake_case_name", "2 * 3", "a ~ b", "a ~b~ c", "\"quoted\"", "'single'", "it's", "a/b", "(a)", "[a",
        "a]", "]", "![", "!", "!!", "<!-", "<!", "<", ">", "<>", "< >",
    ]

    /// Unicode punctuation, separators and other awkward scalars.
    static let unicode: [String] = [
        "“", "”", "‘", "’", "«", "»", "–", "—", "…", "·", "¡", "¿", "§", "¶", "†", "‡", "•", "′", "″", "‹", "›", "、", "。", "「", "」",
        "！", "＠", "＃", "＊", "＿", "［", "］", "＜", "＞", "€", "£", "¥", "é", "ß", "日本", "🙂", "👩‍👩‍👧", "e\u{301}", "\u{A0}", "\u{2000}",
        "\u{2003}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{1680}", "\u{200B}", "\u{FEFF}",
        "\u{200E}", "\u{202E}", "\u{85}", "\u{FFFD}",
        // Right-to-left text and every bidirectional control: none of them may reorder a figure.
        "שלום", "مرحبا", "ܐܒ", "ދ", "ߊ", "\u{FB1D}", "ﺍ", "𐤀", "\u{1E900}", "\u{200F}", "\u{061C}", "\u{202A}", "\u{202B}",
        "\u{202C}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ]

    /// Control characters and white space.
    static let controls: [String] = [
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\t", "\n", "\u{B}", "\u{C}", "\r", "\r\n", "\n\n", "\u{1B}", "\u{1B}[31m", "\u{7F}",
        "\u{80}", "\u{9B}", "\u{9F}", " ", "  ", "    ", " \n ",
    ]

    static let words: [String] = ["a", "x", "1", "Sara", "Tom", "shop", "www", "http", "https", "mailto", "xmpp", "example", "com", "w"]

    /// `count` strings: the punctuation one, two and three at a time, the constructs alone and with
    /// white space around them, then random mixtures of all the pieces (fixed seed).
    static func make(count: Int) -> [String] {
        var strings: [String] = punctuation
        for a in punctuation { for b in punctuation { strings.append(a + b) } }
        for a in punctuation { for b in punctuation { for c in punctuation { strings.append(a + b + c) } } }
        for construct in constructs + unicode + controls {
            strings += [construct, " " + construct + " ", "\t" + construct + "\n", "a" + construct + "b", "x " + construct + " y"]
        }
        return strings + mixtures(of: punctuation + constructs + unicode + controls + words + words + words, seed: 14,
                                  count: count - strings.count, pieces: 6)
    }

    /// `count` strings of 1 to `pieces` pieces each, picked at random from `of` (seeded).
    static func mixtures(of pieces: [String], seed: UInt64, count: Int, pieces most: Int) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<max(0, count)).map { _ in
            (0..<(1 + random.next(below: most))).map { _ in pieces[random.next(below: pieces.count)] }.joined()
        }
    }
}

extension SplitMix64 {
    /// A number in `0..<bound` (the synthetic data's generator: the same strings on every run and machine).
    mutating func next(below bound: Int) -> Int { Int(next(upTo: UInt64(bound))) }
}

// MARK: - Rich text

/// The same for the HTML some sources put in text (Qapital feed messages, Kiva descriptions):
/// what survives ``RichText/markdown(fromHTML:)`` is bold, italics and line breaks; the rest is the
/// text the README says, on its own line (a description) and in a table cell (a feed message).
@Suite struct RichTextPropertyTests {
    static let inputs: [String] = {
        let tags = ["<b>", "</b>", "<strong>", "</strong>", "<i>", "</i>", "<em>", "</em>", "<br>", "<br/>", "<BR />", "<p>", "</p>",
                    "<div class=\"x\">", "</div>", "<li>", "<span>", "</span>", "<a href=\"javascript:alert(1)\">", "</a>",
                    "<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "<style>p{}</style>", "<title>t</title>", "<b/>",
                    "&amp;", "&lt;b&gt;", "&amp;lt;", "&#42;", "&#x40;", "&nbsp;", "&#10;", "&#0;", "&quot;", "&#39;", "<", ">", "< 5",
                    "<0.01>", "<strong><em>", "</em></strong>", "<b> ", " </b>"]
        let pieces = tags + tags + PropertyStrings.constructs + PropertyStrings.unicode + PropertyStrings.controls
            + PropertyStrings.punctuation + PropertyStrings.words + PropertyStrings.words
        let samples = ["<strong>You</strong> didn't resist a guilty pleasure at <strong>Ben &amp; Jerry&#39;s</strong>.",
                       "<i>The following description was written by a field partner</i><br><br>Justine", ""]
        return samples + PropertyStrings.mixtures(of: pieces, seed: 1414, count: 12_000 - samples.count, pieces: 8)
    }()
    /// What the sanitiser makes of them, and what the README says they show (made once for both placements).
    static let outputs: [String] = inputs.map(RichText.markdown(fromHTML:))
    static let expected: [String] = inputs.map(Oracle.richText)

    /// Text without a tag or an entity takes a short way; it must come out as the long way has it.
    @Test func theShortWayAgreesWithTheLongWay() {
        // (Right-to-left text is isolated differently by the two: U+2068…U+2069 and `<bdi>`.)
        let plain = DataIsTextPropertyTests.strings.filter {
            !$0.contains("<") && !$0.contains("&") && !$0.unicodeScalars.contains(where: Oracle.isRightToLeft)
        }.prefix(15_000)
        let differ = plain.filter { RichText.markdown(fromHTML: $0) != RichText.render(SanitizedText.styledText(fromHTML: $0)) }
        #expect(plain.count > 10_000)
        #expect(differ.isEmpty, "\(differ.prefix(12).map(\.debugDescription))")
    }

    @Test(arguments: [false, true])
    func onlyEmphasisAndLineBreaksSurvive(inTableCell: Bool) {
        let outputs = Self.outputs
        let markdown = inTableCell
            ? "| Activity |\n|:--|\n" + outputs.map { "| \($0) |\n" }.joined()
            : outputs.map { $0 + "\n\n" }.joined()
        let html = Harness.buildHTML(markdown)
        #expect(html.unsafeLinks == 0)
        // Item by item: a table row (or paragraph) each, empty ones included in a table.
        let items = inTableCell
            ? html.html.components(separatedBy: "<tr>\n<td data-label=\"Activity\" style=\"text-align: left\">").dropFirst().map { $0.components(separatedBy: "</td>")[0] }
            : html.html.components(separatedBy: "</p>\n").dropLast().map { $0.hasPrefix("<p>") ? String($0.dropFirst(3)) : "<not a paragraph>" + $0 }
        let expected = Self.expected
        let shown = inTableCell ? expected : expected.filter { !$0.isEmpty }
        #expect(items.count == shown.count, "\(items.count) items for \(shown.count) texts")
        if items.count != shown.count {
            let breaking = Self.inputs.filter { input in
                let output = RichText.markdown(fromHTML: input)
                let one = Harness.buildHTML(inTableCell ? "| Activity |\n|:--|\n| \(output) |\n" : output + "\n").html
                return one.components(separatedBy: inTableCell ? "<td" : "<p>").count != (inTableCell || !output.isEmpty ? 2 : 1)
            }
            Issue.record("these change the structure: \(breaking.prefix(12).map { "\($0.debugDescription) → \(RichText.markdown(fromHTML: $0).debugDescription)" })")
            return
        }
        var failures: [String] = []
        for (item, text) in zip(items, shown) {
            guard let content = Oracle.textContent(item, allowing: ["strong", "em", "br", "bdi"]),
                  content.replacingOccurrences(of: "\u{2068}", with: "").replacingOccurrences(of: "\u{2069}", with: "") == text else {
                let index = expected.firstIndex(of: text) ?? 0
                failures.append("\(Self.inputs[index].debugDescription) → \(outputs[index].debugDescription) → \(item.debugDescription), not \(text.debugDescription)")
                if failures.count >= 12 { break }
                continue
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

extension Oracle {
    /// README, "Safety", of HTML in data: tags other than bold, italics and line breaks dropped
    /// (`script`, `style` and kin with their content; `p`, `div`, `li`, `tr` leave a space), entities
    /// decoded once, control characters removed, white space collapsed as HTML does and trimmed at
    /// the ends and beside line breaks (here `\n`).
    static func richText(_ html: String) -> String {
        var text = ""
        var raw = ""  // text since the last tag: entities are decoded a run at a time
        var rest = Substring(html)
        var skipping: String? = nil
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            if skipping == nil { raw += rest[..<open] }
            let whole = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            var inner = whole
            let closing = inner.hasPrefix("/")
            if closing { inner = inner.dropFirst() }
            let selfClosing = inner.hasSuffix("/")
            if selfClosing { inner = inner.dropLast() }
            let name = inner.prefix { $0.isLetter || $0.isNumber }
            let after = inner.dropFirst(name.count)
            guard let first = name.first, first.isASCII, first.isLetter, after.isEmpty || after.first!.isWhitespace else {
                if skipping == nil { raw += "<" + whole + ">" }  // not a tag: text
                continue
            }
            let tag = name.lowercased()
            if let skip = skipping {
                if closing && tag == skip { skipping = nil }
                continue
            }
            text += SanitizedText.decodeEntities(raw)
            raw = ""
            switch tag {
            case "script", "style", "template", "iframe", "object", "noscript", "textarea", "title":
                if !closing && !selfClosing { skipping = tag }
            case "br": text += "\u{E000}"
            case "p", "div", "li", "tr": text += " "
            default: break
            }
        }
        if skipping == nil { raw += rest }
        text += SanitizedText.decodeEntities(raw)
        // Normal form: as HTML shows it.
        var out = ""
        var pending = false
        for scalar in text.unicodeScalars {
            if scalar == " " || (0x09...0x0D).contains(scalar.value) || [0x85, 0x2028, 0x2029].contains(scalar.value) {
                pending = true
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || Oracle.isBidiControl(scalar) {
                continue
            } else if scalar == "\u{E000}" {
                if !out.isEmpty { out += "\n" }
                pending = false
            } else {
                if pending && !out.isEmpty && !out.hasSuffix("\n") { out += " " }
                pending = false
                out.unicodeScalars.append(scalar)
            }
        }
        return Text.trimmed(out)
    }

    /// The text of an HTML fragment as cmark-gfm wrote it, line breaks as `\n`; nil if it holds an
    /// element not in `allowing`, or one not closed.
    static func textContent(_ html: String, allowing names: Set<String>) -> String? {
        var text = ""
        var open: [String] = []
        var rest = Substring(html)
        while let start = rest.firstIndex(of: "<") {
            text += rest[..<start]
            guard let end = rest[start...].firstIndex(of: ">") else { return nil }
            var tag = rest[rest.index(after: start)..<end]
            rest = rest[rest.index(after: end)...]
            if tag == "!-- --" { continue }  // the e-mail break
            let closing = tag.hasPrefix("/")
            if closing { tag = tag.dropFirst() }
            let name = tag.prefix { $0.isLetter }.lowercased()
            guard names.contains(name), tag.dropFirst(name.count).allSatisfy({ $0 == " " || $0 == "/" }) else { return nil }
            if name == "br" { text += "\n"; continue }
            if closing {
                guard open.last == name else { return nil }
                open.removeLast()
            } else {
                open.append(name)
            }
        }
        guard open.isEmpty else { return nil }
        return decodeHTML(text + rest)
    }

    static func decodeHTML(_ text: String) -> String {
        var text = text
        return text.withUTF8 { decodeHTML($0[...]) }
    }
}

/// A page's title in its print head (`@page { @top-right { content: "…" } }` in a `<style>`): over
/// the generated strings, the CSS string holds nothing but letters, digits, spaces and code-point
/// escapes, so nothing ends the string, the rule or the element, and read back it is the text.
@Suite struct CSSStringPropertyTests {
    @Test func everyStringIsTextInACSSString() {
        for text in PropertyStrings.make(count: 20_000) {
            let css = Escape.cssString(text)
            #expect(css.unicodeScalars.allSatisfy { ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value | 0x20 >= 0x61 && $0.value | 0x20 <= 0x7A) || $0.value == 0x20 || $0.value == 0x5C },
                    "\(text.debugDescription) → \(css)")
            // Read back as CSS does: `\HEX ` is the code point, the one space after it consumed.
            var decoded = "", rest = Substring(css)
            while let slash = rest.firstIndex(of: "\\") {
                decoded += rest[..<slash]
                let hex = rest[rest.index(after: slash)...].prefix { $0.isHexDigit }
                decoded.unicodeScalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
                rest = rest[rest.index(slash, offsetBy: 1 + hex.count + 1)...]
            }
            decoded += rest
            #expect(decoded == Text.normalised(text).replacingOccurrences(of: "\u{0}", with: ""), "\(text.debugDescription)")
        }
    }
}
