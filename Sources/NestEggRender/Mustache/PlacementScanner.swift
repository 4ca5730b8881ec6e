import NestEggReport
import NestEggModel
import NestEggSupport
/// Works out where each `{{name}}` of a template lands (its ``Placement``), from the template's own
/// text around the tag, so that the value is escaped for that place and no other.
///
/// A Markdown template is read as cmark-gfm reads Markdown, as far as placement needs: line by
/// line for blocks (HTML blocks, fenced code, block quotes and list items, headings, table rows),
/// then along the tag's line for inline context (link text and destinations, code spans, raw HTML
/// tags and their attributes). An HTML template, and an HTML block in a Markdown one, is read as
/// HTML: element content, a quoted attribute (a URL in `href`, `src` and the other URL attributes),
/// or something a value has no business in.
///
/// Sections make a line's text vary, so each tag is judged twice — with the text of every section
/// before it (`{{#html}}…{{/html}}` included, unless the tag is in `{{^html}}`), and with only what
/// surely precedes it (the text of the sections it is in, no other value) — and the two readings
/// must agree, up to the more careful of two Markdown text placements (`listItem` over `paragraph`
/// when a value may or may not begin its item). A tag that lands in a code span, fenced code, a
/// `<script>` or `<style>`, an unquoted attribute, an attribute that holds markup or script
/// (`srcdoc`, `style`, `on…`, ``AttributeRule``), or in Markdown in one reading and HTML in the
/// other, is a template error: no escaper could keep a value there text. A URL attribute (`href`,
/// `src`, `<object data>`, `srcset`, `ping`…) takes the URL placement.
///
/// A partial is read as starting a line (as a standalone `{{> name}}` does).
struct PlacementScanner {
    /// What precedes a tag in one reading: template text, and values (which are text: escaped, or
    /// written as whole blocks by code).
    private enum Piece {
        case text(String)
        case value
        case partial
        /// The tag being placed.
        case here
    }

    private struct Token {
        let piece: Piece
        /// The sections (by number) the token is inside, outermost first.
        let sections: [Int]
    }

    /// A section's name and whether it is inverted: `{{#html}}` and `{{^html}}` never both render.
    private struct Condition: Hashable {
        let name: [String]
        let inverted: Bool
    }

    /// Why a tag cannot be placed.
    struct Problem: Error {
        /// The tag's index among the template's escaped `{{name}}` tags, in text order.
        let tag: Int
        let message: String
    }

    /// The placement of every escaped variable in `nodes`, in text order.
    static func placements(of nodes: [Template.Node], kind: Template.Kind) throws(Problem) -> [Placement] {
        var tokens: [Token] = []
        var conditions: [Condition] = []  // by section number - 1
        func flatten(_ nodes: [Template.Node], sections: [Int]) {
            for node in nodes {
                switch node {
                case .text(let text): tokens.append(Token(piece: .text(text), sections: sections))
                case .variable(_, true, _): tokens.append(Token(piece: .here, sections: sections))
                case .variable: tokens.append(Token(piece: .value, sections: sections))
                case .partial: tokens.append(Token(piece: .partial, sections: sections))
                case .section(let names, let inverted, let body):
                    conditions.append(Condition(name: names, inverted: inverted))
                    flatten(body, sections: sections + [conditions.count])
                }
            }
        }
        flatten(nodes, sections: [])

        // The text after token `index` up to the first `>` (where an HTML tag the token is in ends),
        // values as `x`; every section's text counted, so an attribute any of them writes is seen.
        func tagRest(after index: Int) -> String {
            var rest = ""
            for token in tokens[(index + 1)...] {
                guard case .text(let text) = token.piece else { rest += "x"; continue }
                if let end = text.firstIndex(of: ">") { return rest + text[..<end] }
                rest += text
            }
            return rest
        }

        var placements: [Placement] = []
        for (index, token) in tokens.enumerated() {
            guard case .here = token.piece else { continue }
            let tag = placements.count
            // What never renders with this tag: a section whose opposite the tag is in.
            let opposites = Set(token.sections.map { Condition(name: conditions[$0 - 1].name, inverted: !conditions[$0 - 1].inverted) })
            var every = "", sure = ""
            for before in tokens[..<index] where !before.sections.contains(where: { opposites.contains(conditions[$0 - 1]) }) {
                let certain = token.sections.starts(with: before.sections)
                switch before.piece {
                case .text(let text):
                    every += text
                    if certain { sure += text }
                case .value, .here:
                    every += "x"
                case .partial:
                    // Unknown lines: they may leave an HTML block open (until a blank line).
                    every += "<div>\n"
                    sure += "x\n"
                }
            }
            // `x!` then `[`…`]` would be an image: a value's last `!` is not escaped, so no `[` may follow.
            if kind == .markdown, index + 1 < tokens.count, case .text(let after) = tokens[index + 1].piece, after.hasPrefix("[") {
                throw Problem(tag: tag, message: "a value right before `[` could make it an image (`![`); put a space between")
            }
            let rest = tagRest(after: index)
            let readings = (reading(every, kind: kind, tagRest: rest), reading(sure, kind: kind, tagRest: rest))
            switch readings {
            case (.cannot(let problem), _), (_, .cannot(let problem)):
                throw Problem(tag: tag, message: problem)
            case (.placed(let a), .placed(let b)):
                guard let placement = agreement(a, b) else {
                    throw Problem(tag: tag, message: "a value here may land in \(a.rawValue) or in \(b.rawValue) text "
                                  + "depending on sections; give it a line of one kind")
                }
                placements.append(placement)
            }
        }
        return placements
    }

    /// Where a value after `before` lands. In a Markdown template, text inside `<svg …>…</svg>` is
    /// HTML whatever the line around it: the renderer lifts each SVG out of the Markdown before
    /// cmark-gfm and puts it back as it was (``SVGIslands``), so it is read as an HTML template
    /// from the `<svg` on. A URL may not follow a scheme the template writes (``schemeProblem(_:)``).
    static func reading(_ before: String, kind: Template.Kind, tagRest: String) -> Outcome {
        var outcome = Reading(before: before, kind: kind, tagRest: tagRest).placement
        if kind == .markdown, let island = openIsland(before) {
            outcome = Reading(before: String(island), kind: .html, tagRest: tagRest).placement
        }
        if case .placed(.url) = outcome, let problem = schemeProblem(urlPrefix(before)) { return .cannot(problem) }
        return outcome
    }

    /// The text from an `<svg` that `before` leaves open (no `</svg>` after it), if any.
    static func openIsland(_ before: String) -> Substring? {
        // On bytes (the markers are ASCII): this runs twice for every tag of every template, each
        // time on all the text before the tag.
        let utf8 = before.utf8
        guard let open = lastOffset(of: "<svg", in: utf8) else { return nil }
        if let close = lastOffset(of: "</svg>", in: utf8), close > open { return nil }
        return before[utf8.index(utf8.startIndex, offsetBy: open)...]
    }

    /// Where the last `needle` (ASCII, lower case) starts in `text`, in any case, as a byte offset.
    static func lastOffset(of needle: StaticString, in text: String.UTF8View) -> Int? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        let bytes = Array(text)
        guard bytes.count >= pattern.count else { return nil }
        var start = bytes.count - pattern.count
        while start >= 0 {
            var matches = true
            for (offset, byte) in pattern.enumerated() {
                let candidate = bytes[start + offset]
                if (candidate >= 0x41 && candidate <= 0x5A ? candidate | 0x20 : candidate) != byte { matches = false; break }
            }
            if matches { return start }
            start -= 1
        }
        return nil
    }

    /// What the template writes of a URL before the value: the text after the last quote or `](`
    /// (where an attribute's value or a link's destination begins).
    static func urlPrefix(_ before: String) -> Substring {
        let quote = before.lastIndex(where: { $0 == "\"" || $0 == "'" }).map { before.index(after: $0) }
        let link = before.range(of: "](", options: .backwards)?.upperBound
        guard let start = [quote, link].compactMap({ $0 }).max() else { return before[...] }
        return before[start...]
    }

    /// Why a value may not follow `prefix` in a URL: the template writes a scheme other than
    /// http(s) or mailto before it (`javascript:{{x}}`, `data:text/html,{{x}}`, or one spelled with
    /// an entity), where the value would be the code a browser runs once it undoes the escaping.
    static func schemeProblem(_ prefix: Substring) -> String? {
        let lower = prefix.lowercased()
        guard let colon = lower.firstIndex(of: ":") else { return nil }
        let scheme = lower[..<colon]
        // (A scheme spelled with a character reference, `&#106;avascript:`, is one too.)
        if !scheme.contains("&"), scheme.contains(where: { "/?#".contains($0) }) || ["http", "https", "mailto"].contains(String(scheme)) { return nil }
        return "a value after \"\(scheme):\", a scheme the template writes, would be run or loaded as it says, whatever its escaping; "
            + "let the value begin the URL, or write an http(s) address before it"
    }

    /// One placement both readings allow: the same, or the more careful of two Markdown text placements.
    static func agreement(_ a: Placement, _ b: Placement) -> Placement? {
        if a == b { return a }
        let starts: Set<Placement> = [.lineStart, .listItem], inline: Set<Placement> = [.paragraph, .tableCell, .linkText]
        for (x, y) in [(a, b), (b, a)] where starts.contains(x) && (inline.contains(y) || starts.contains(y)) { return x }
        return nil
    }
}

/// A placement, or why there can be none.
enum Outcome {
    case placed(Placement)
    case cannot(String)
}

/// One reading of the text before a tag.
private struct Reading {
    let placement: Outcome

    /// `tagRest` is the text after the tag, to the end of the HTML tag it may be in (``HTMLScan``).
    init(before text: String, kind: Template.Kind, tagRest: String = "") {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
        switch kind {
        case .html: placement = HTMLScan(text[...], tagRest: tagRest).placement
        case .markdown: placement = Self.markdown(lines, tagRest: tagRest)
        }
    }

    private enum Block {
        case markdown(paragraph: Bool)
        case html(end: HTMLEnd, from: Int)
        case fence(marker: Character, length: Int)
    }

    private enum HTMLEnd: Equatable {
        case blankLine
        case marker(String)
    }

    private static func markdown(_ lines: [Substring], tagRest: String) -> Outcome {
        var block = Block.markdown(paragraph: false)
        for (number, line) in lines.dropLast().enumerated() {
            switch block {
            case .html(let end, _):
                switch end {
                case .blankLine: if isBlank(line) { block = .markdown(paragraph: false) }
                case .marker(let marker): if line.lowercased().contains(marker) { block = .markdown(paragraph: false) }
                }
            case .fence(let marker, let length):
                let rest = line.drop { $0 == " " }
                if rest.prefix(while: { $0 == marker }).count >= length && rest.drop(while: { $0 == marker }).allSatisfy(\.isWhitespace) {
                    block = .markdown(paragraph: false)
                }
            case .markdown(let paragraph):
                let (rest, _) = containers(line)
                if isBlank(rest) {
                    block = .markdown(paragraph: false)
                } else if let fence = fence(rest) {
                    block = .fence(marker: fence.marker, length: fence.length)
                } else if let end = htmlStart(rest, paragraph: paragraph, wholeLine: true) {
                    if case .marker(let marker) = end, rest.lowercased().contains(marker) {
                        block = .markdown(paragraph: false)
                    } else {
                        block = .html(end: end, from: number)
                    }
                } else {
                    block = .markdown(paragraph: !rest.hasPrefix("#"))
                }
            }
        }
        let line = lines.last ?? ""
        switch block {
        case .fence:
            return .cannot("a value inside fenced code would show escapes as they are")
        case .html(_, let from):
            return HTMLScan(lines[from...].joined(separator: "\n")[...], tagRest: tagRest).placement
        case .markdown(let paragraph):
            let (rest, listItem) = containers(line)
            if htmlStart(rest, paragraph: paragraph, wholeLine: false) != nil { return HTMLScan(rest, tagRest: tagRest).placement }
            if fence(rest) != nil { return .cannot("a value on a code fence's line would show escapes as they are") }
            if !rest.isEmpty && rest.allSatisfy({ "#=-".contains($0) || ($0.isASCII && $0.isNumber) }) {
                return .cannot("a value right after the marks that begin a line could complete a block marker with them "
                                + "(a heading, list or rule); put a space between")
            }
            var base: Placement = .paragraph
            var inline = rest
            if rest.allSatisfy({ $0 == " " || $0 == "\t" }) {
                base = listItem ? .listItem : .lineStart
            } else if let marker = headingMarker(rest) {
                base = .heading
                inline = rest.dropFirst(marker)
            } else if rest.hasPrefix("|") {
                base = .tableCell
            }
            return inlinePlacement(inline, base: base, tagRest: tagRest)
        }
    }

    private static func isBlank(_ line: Substring) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }

    /// The line without its block quote and list markers, and whether a list item's text begins
    /// after them.
    private static func containers(_ line: Substring) -> (Substring, listItem: Bool) {
        var rest = line
        var listItem = false
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix(">") {
                rest = rest.dropFirst()
                if rest.hasPrefix(" ") { rest = rest.dropFirst() }
                listItem = false
                continue
            }
            if let first = rest.first, "-+*".contains(first), rest.dropFirst().first == " " {
                rest = rest.dropFirst(2)
                listItem = true
                continue
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if (1...9).contains(digits.count), let mark = rest.dropFirst(digits.count).first, mark == "." || mark == ")",
               rest.dropFirst(digits.count + 1).first == " " {
                rest = rest.dropFirst(digits.count + 2)
                listItem = true
                continue
            }
            return (rest, listItem)
        }
    }

    /// The length of an ATX heading's opening sequence with its space, if the line is a heading.
    private static func headingMarker(_ rest: Substring) -> Int? {
        let hashes = rest.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let after = rest.dropFirst(hashes)
        return after.first == " " || after.first == "\t" ? hashes + 1 : nil
    }

    private static func fence(_ rest: Substring) -> (marker: Character, length: Int)? {
        guard let marker = rest.first, marker == "`" || marker == "~" else { return nil }
        let length = rest.prefix { $0 == marker }.count
        return length >= 3 ? (marker, length) : nil
    }

    /// The HTML block a line would start (CommonMark's seven kinds), with what ends it.
    private static func htmlStart(_ rest: Substring, paragraph: Bool, wholeLine: Bool) -> HTMLEnd? {
        let lower = rest.lowercased()
        guard lower.hasPrefix("<") else { return nil }
        for name in ["script", "pre", "style", "textarea"] {
            let after = lower.dropFirst(name.count + 1)
            if lower.hasPrefix("<" + name), after.isEmpty || after.first == " " || after.first == ">" || after.first == "\t" {
                return .marker("</" + name + ">")
            }
        }
        if lower.hasPrefix("<!--") { return .marker("-->") }
        if lower.hasPrefix("<?") { return .marker("?>") }
        if lower.hasPrefix("<![cdata[") { return .marker("]]>") }
        if lower.hasPrefix("<!"), let letter = lower.dropFirst(2).first, letter.isASCII && letter.isLetter { return .marker(">") }
        if isBlockTag(rest) { return .blankLine }
        // Any other complete tag alone on its line, not in a paragraph.
        if wholeLine && !paragraph, let close = rest.firstIndex(of: ">"), rest[rest.index(after: close)...].allSatisfy(\.isWhitespace),
           !rest.dropFirst().contains("<"), let letter = rest.dropFirst(rest.hasPrefix("</") ? 2 : 1).first, letter.isLetter {
            return .blankLine
        }
        return nil
    }

    private static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup", "dd",
        "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset",
        "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link", "main", "menu",
        "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "section", "source", "summary", "table",
        "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// `<div`, `</section>`…: a tag that starts an HTML block wherever it stands.
    private static func isBlockTag(_ rest: Substring) -> Bool {
        var name = rest.dropFirst()
        if name.hasPrefix("/") { name = name.dropFirst() }
        let letters = name.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
        let after = name.dropFirst(letters.count)
        guard blockTags.contains(letters.lowercased()) else { return false }
        return after.isEmpty || after.first == " " || after.first == "\t" || after.first == ">" || after.hasPrefix("/>")
    }

    /// Inline context along a line: link text, a link destination, a code span, a raw HTML tag.
    private static func inlinePlacement(_ text: Substring, base: Placement, tagRest: String) -> Outcome {
        var brackets = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "\\":
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            case "`":
                let run = text[index...].prefix { $0 == "`" }
                let afterRun = run.endIndex
                guard let close = closingRun(of: run.count, in: text[afterRun...]) else {
                    return .cannot("a value inside a code span would show escapes as they are")
                }
                index = close
                continue
            case "[":
                brackets += 1
            case "]" where brackets > 0:
                brackets -= 1
                let next = text.index(after: index)
                if next < text.endIndex && text[next] == "(" {
                    switch destinationEnd(text[text.index(after: next)...]) {
                    case .end(let end): index = end
                    case .open: return .placed(.url)
                    case .title: return .cannot("a value in a link's title")
                    }
                    continue
                }
            case "<":
                let rest = text[index...]
                if rest.hasPrefix("<!--") {
                    guard let end = rest.firstRange(of: "-->") else { return .cannot("a value inside an HTML comment") }
                    index = end.upperBound
                    continue
                }
                if let next = rest.dropFirst().first, next.isLetter || (next == "/" && rest.dropFirst(2).first?.isLetter == true) {
                    let scan = HTMLScan(rest, oneTag: true, tagRest: tagRest)
                    guard let end = scan.tagEnd else { return scan.placement }
                    index = end
                    continue
                }
            default:
                break
            }
            index = text.index(after: index)
        }
        return .placed(brackets > 0 ? .linkText : base)
    }

    /// Where a code span's closing backtick run ends, if it has one in `text`.
    private static func closingRun(of length: Int, in text: Substring) -> String.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "`" {
                let run = text[index...].prefix { $0 == "`" }
                if run.count == length { return run.endIndex }
                index = run.endIndex
            } else {
                index = text.index(after: index)
            }
        }
        return nil
    }

    private enum DestinationEnd { case end(String.Index), open, title }

    /// Where a link destination (after `](`) ends, past its `)`; or that `text` ends inside it, or
    /// inside the link's title.
    private static func destinationEnd(_ text: Substring) -> DestinationEnd {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "\\": index = text.index(after: index)
            case "(": depth += 1
            case ")":
                if depth == 0 { return .end(text.index(after: index)) }
                depth -= 1
            case " ":
                guard let close = text[index...].firstIndex(of: ")") else { return .title }
                return .end(text.index(after: close))
            default: break
            }
            if index < text.endIndex { index = text.index(after: index) }
        }
        return .open
    }
}

/// What a value from data may be in each HTML attribute: text, a URL, or nothing at all.
enum AttributeRule {
    /// Attributes whose value is markup, script or style the browser runs, or that change how the
    /// page or a form is loaded: no escaping keeps a value text there.
    static let code: Set<String> = ["srcdoc", "style", "formaction", "http-equiv", "xml:base", "xmlns"]

    /// Attributes whose value is a URL (or a list of them): they take the URL placement, which keeps
    /// a value to the site's pages and http(s) (``Escape/url(_:)``). In `srcset` and `ping` a value
    /// has no white space once escaped, so it is one URL, never a list of its own.
    static let url: Set<String> = ["href", "src", "action", "poster", "ping", "cite", "background", "xlink:href",
                                   "srcset", "longdesc", "usemap", "manifest", "icon", "lowsrc", "dynsrc"]

    /// Elements every attribute of which loads or sets code (`<script src>`, `<base href>`, SVG's
    /// `<animate>` and `<set>`, which can set an `href` to `javascript:`), or plug-ins.
    static let codeElements: Set<String> = ["script", "base", "animate", "set", "animatemotion", "animatetransform", "applet", "param"]

    /// The placement of a value in `attribute` of `element`, whose whole tag (as far as the
    /// template shows it) is `tag`.
    static func placement(element: String, attribute: String, tag: some StringProtocol) -> Outcome {
        if attribute.hasPrefix("on") || code.contains(attribute) {
            return .cannot("a value inside the \(attribute) attribute is code, not text")
        }
        if codeElements.contains(element) {
            return .cannot("a value in an attribute of <\(element)> could load or set code; no value from data may go there")
        }
        if element == "meta" && attribute == "content" && tag.lowercased().contains("http-equiv") {
            return .cannot("a value in the content of a <meta http-equiv> could redirect the page or set its policy")
        }
        if element == "object" && ["data", "codebase", "classid", "archive"].contains(attribute) {
            return attribute == "data" ? .placed(.url) : .cannot("a value in the \(attribute) attribute of <object> could load code")
        }
        return .placed(url.contains(attribute) ? .url : .htmlAttribute)
    }
}

/// Reads HTML: where the text ends (element content, a quoted attribute, or elsewhere).
private struct HTMLScan {
    var placement: Outcome = .placed(.htmlText)
    /// With `oneTag`, where the first tag ended (nil if the text ends inside it).
    var tagEnd: String.Index?

    /// `tagRest` is the template's text after the tag being placed, up to the end of its HTML tag
    /// (values in it as `x`): what an attribute after the value says about it (`http-equiv`).
    init(_ text: Substring, oneTag: Bool = false, tagRest: String = "") {
        var index = text.startIndex
        var rawText: String? = nil  // inside <script> or <style>: only its end tag counts
        func rest() -> Substring { text[index...] }
        while index < text.endIndex {
            if let element = rawText {
                guard let end = firstCaseInsensitive("</" + element, in: rest()) else {
                    placement = .cannot("a value inside <\(element)> is code, not text")
                    return
                }
                index = end
                rawText = nil
            }
            guard text[index] == "<" else { index = text.index(after: index); continue }
            if rest().hasPrefix("<!--") {
                guard let end = rest().firstRange(of: "-->") else { placement = .cannot("a value inside an HTML comment"); return }
                index = end.upperBound
                continue
            }
            guard let next = rest().dropFirst().first, next.isLetter || next == "/" || next == "!" || next == "?" else {
                index = text.index(after: index)
                continue
            }
            // A tag: its name, then attributes up to `>`.
            var cursor = text.index(after: index)
            if text[cursor] == "/" { cursor = text.index(after: cursor) }
            let nameText = text[cursor...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            let name = nameText.lowercased()
            cursor = nameText.endIndex
            // Past white space; false (and the placement refused) if the text ends inside the tag there.
            func skipWhiteSpace() -> Bool {
                cursor = text[cursor...].firstIndex { !$0.isWhitespace } ?? text.endIndex
                if cursor < text.endIndex { return true }
                placement = .cannot("a value inside an HTML tag must be a quoted attribute's value")
                return false
            }
            while true {
                guard skipWhiteSpace() else { return }
                if text[cursor] == ">" || text[cursor...].hasPrefix("/>") {
                    cursor = text.index(cursor, offsetBy: text[cursor] == ">" ? 1 : 2)
                    break
                }
                let attributeText = text[cursor...].prefix { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }
                let attribute = attributeText.lowercased()
                cursor = attributeText.isEmpty ? text.index(after: cursor) : attributeText.endIndex
                guard skipWhiteSpace() else { return }
                guard text[cursor] == "=" else { continue }
                cursor = text[text.index(after: cursor)...].firstIndex { !$0.isWhitespace } ?? text.endIndex
                guard cursor < text.endIndex, text[cursor] == "\"" || text[cursor] == "'" else {
                    placement = .cannot("a value inside an HTML tag must be a quoted attribute's value")
                    return
                }
                let quote = text[cursor]
                let valueStart = text.index(after: cursor)
                guard let close = text[valueStart...].firstIndex(of: quote) else {
                    placement = AttributeRule.placement(element: name, attribute: attribute,
                                                        tag: text[index..<cursor] + tagRest)
                    return
                }
                cursor = text.index(after: close)
            }
            if ["script", "style"].contains(name) && text[index...].dropFirst().first != "/" { rawText = name }
            index = cursor
            if oneTag {
                tagEnd = cursor
                return
            }
        }
        if let element = rawText { placement = .cannot("a value inside <\(element)> is code, not text") }
    }

    /// Where `needle` (lowercase ASCII) first starts in `text`, ignoring case.
    private func firstCaseInsensitive(_ needle: String, in text: Substring) -> String.Index? {
        text.indices.first { start in
            text[start...].prefix(needle.count).lowercased() == needle
        }
    }
}
