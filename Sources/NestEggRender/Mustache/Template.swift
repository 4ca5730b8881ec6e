import NestEggReport
import NestEggModel
import NestEggSupport
/// One Mustache template, parsed once and rendered for many pages.
///
/// NestEgg renders its templates itself rather than through swift-mustache, which stays in the
/// test target as the reference the output is checked against (`MustacheParityTests`): rendering
/// through swift-mustache was half of a build's CPU time, spent on dynamic casts and reflection at
/// every `{{name}}` (README, "Performance"). Here view data is a ``TemplateValue`` — text, flags,
/// lists and objects, known at compile time — names are split at parse time, and a page is written
/// into one growing string.
///
/// The language is Mustache's: `{{name}}` (escaped for where it lands, ``PlacementScanner``),
/// `{{{name}}}` and `{{& name}}` (as is), `{{#name}}…{{/name}}` sections, `{{^name}}…{{/name}}`
/// inverted sections, `{{! comments}}`, `{{> partial}}`, dotted names and `{{.}}`, with the spec's
/// rules for standalone lines. Set-delimiter, pragma and inheritance tags are refused with an error rather
/// than half-supported. Text is truthy, as in swift-mustache.
public struct Template: Sendable {
    /// What the template writes: Markdown (a `.md` template) or HTML; where each `{{name}}` lands
    /// is read from the template's text as that language.
    public enum Kind: Sendable {
        case markdown, html
    }

    enum Node: Sendable {
        case text(String)
        /// `names` empty is `{{.}}`, the current value; `placement` is where an escaped value lands.
        case variable(names: [String], escaped: Bool, placement: Placement)
        case section(names: [String], inverted: Bool, body: [Node])
        case partial(name: String, indentation: String)
    }

    let kind: Kind
    let nodes: [Node]
    /// How deep sections may nest, in one template and through the partials it includes: parsing
    /// and rendering recurse once a level, and a limit keeps that far inside a thread's stack.
    public static let maximumDepth = 100
    /// The text it was parsed from (an indented partial is parsed again with its indentation).
    let source: String

    /// A template that does not parse, with where (1-based, in characters) and why.
    public struct ParseError: Error, Sendable, Equatable {
        public let line: Int
        public let column: Int
        public let message: String
    }

    public init(_ text: String, kind: Kind) throws(ParseError) {
        self.kind = kind
        source = text
        var parser = TemplateParser(text)
        nodes = try parser.parse(kind: kind)
    }

    /// How deep sections nest here, with the partials included at each point counted in
    /// (`depths` holds the depth of each partial already measured).
    func depth(with depths: [String: Int]) -> Int {
        var deepest = 0
        var pending: [(nodes: [Node], level: Int)] = [(nodes, 0)]
        while let (nodes, level) = pending.popLast() {
            deepest = max(deepest, level)
            for node in nodes {
                switch node {
                case .section(_, _, let body): pending.append((body, level + 1))
                case .partial(let name, _): deepest = max(deepest, level + (depths[name] ?? 0))
                case .text, .variable: break
                }
            }
        }
        return deepest
    }

    /// How many bytes of template text a render goes through, with every partial included at each
    /// point where it is named, once each (a section's repeats come from data, and grow with it):
    /// `sizes` holds those of the partials already measured. Saturates at `Int.max`.
    func expandedSize(with sizes: [String: Int]) -> Int {
        var total = source.utf8.count
        var pending: [[Node]] = [nodes]
        while let nodes = pending.popLast() {
            for node in nodes {
                switch node {
                case .section(_, _, let body): pending.append(body)
                case .partial(let name, _):
                    let (sum, overflow) = total.addingReportingOverflow(sizes[name] ?? 0)
                    total = overflow ? Int.max : sum
                case .text, .variable: break
                }
            }
        }
        return total
    }

    /// The most template text one render may go through before any data repeats it
    /// (``expandedSize(with:)``): 1 MiB, far above what any page's templates hold together, and far
    /// below what templates that include a partial twice at each of twenty levels come to (a
    /// million times the partial: half an hour and 64 GB of output for one page).
    public static let largestExpansion = 1 << 20

    /// The names of the partials this template includes (for checking them when templates load).
    var partialNames: [String] {
        var names: [String] = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .partial(let name, _): names.append(name)
                case .section(_, _, let body): visit(body)
                case .text, .variable: break
                }
            }
        }
        visit(nodes)
        return names
    }

    /// Each escaped `{{name}}` (dotted; `.` for the current value) with where it lands, in text order.
    var placements: [(name: String, placement: Placement)] {
        var result: [(String, Placement)] = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .variable(let names, true, let placement):
                    result.append((names.isEmpty ? "." : names.joined(separator: "."), placement))
                case .section(_, _, let body): visit(body)
                case .text, .variable, .partial: break
                }
            }
        }
        visit(nodes)
        return result
    }

    /// Renders the template with `value` as its context; `partials` are the templates
    /// `{{> name}}` can include (checked for existence and cycles by ``TemplateLibrary``).
    public func render(_ value: TemplateValue, partials: [String: Template] = [:]) throws(RawTextError) -> String {
        try render([value], partials: partials)
    }

    /// A raw `{{{name}}}` met text from a report: only markup that Render wrote may be placed raw.
    public struct RawTextError: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "{{{\(name)}}} would place text from a report unescaped; use {{\(name)}}, or make the value a type Render writes (a chart, rich text, a table row)"
        }
    }

    /// Renders the template with several contexts, outermost first: a name is looked up in the
    /// last, then the one before it, and so on.
    public func render(_ contexts: [TemplateValue], partials: [String: Template] = [:]) throws(RawTextError) -> String {
        try render(contexts, partials: partials, escape: Escape.value)
    }

    /// Renders with `escape` in place of ``Escape/value(_:at:)`` (a test compares the structure
    /// with swift-mustache's, which knows no placements).
    func render(_ contexts: [TemplateValue], partials: [String: Template], escape: (String, Placement) -> String) throws(RawTextError) -> String {
        var output = Output(fork: nil)
        var stack = contexts
        try render(nodes, stack: &stack, partials: partials, escape: escape, into: &output)
        return output.off
    }

    /// The template rendered twice at the cost of once: with the flag `forkName` of the outermost
    /// context (the last of `contexts`) false, then true. Where a section or variable looks the
    /// flag up in that context, each output takes its own branch; everything else is looked up,
    /// escaped and written once for both. A view or list item that has a field of the same name
    /// shadows it as usual. (A page's Markdown and its HTML-flavoured Markdown, ``PageRenderer``.)
    public func renderBoth(_ contexts: [TemplateValue], forkName: String, partials: [String: Template] = [:]) throws(RawTextError) -> (off: String, on: String) {
        var output = Output(fork: (level: contexts.count - 1, name: forkName))
        var stack = contexts
        try render(nodes, stack: &stack, partials: partials, escape: Escape.value, into: &output)
        return (output.off, output.on)
    }

    /// Where a render writes: one string, or two (the fork's flag off and on), each written while
    /// its bit is in `active`.
    struct Output {
        static let off: UInt8 = 1, on: UInt8 = 2
        var off = ""
        var on = ""
        var active: UInt8
        /// The context level and name of the flag that splits the two outputs.
        let fork: (level: Int, name: String)?

        init(fork: (level: Int, name: String)?) {
            self.fork = fork
            active = fork == nil ? Self.off : Self.off | Self.on
            off.reserveCapacity(16 * 1024)
            if fork != nil { on.reserveCapacity(16 * 1024) }
        }

        mutating func append(_ text: String) {
            if active & Self.off != 0 { off += text }
            if active & Self.on != 0 { on += text }
        }

        /// Whether `names`, found at `level`, is the fork's flag.
        func isFork(_ names: [String], level: Int) -> Bool {
            guard let fork, names.count == 1 else { return false }
            return level == fork.level && names[0] == fork.name
        }
    }

    private func render(_ nodes: [Node], stack: inout [TemplateValue], partials: [String: Template],
                        escape: (String, Placement) -> String, into output: inout Output) throws(RawTextError) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(text)
            case .variable(let names, let escaped, let placement):
                let found = Self.lookupLevel(names, in: stack)
                if let found, output.isFork(names, level: found.level) {
                    let active = output.active
                    output.active = active & Output.off
                    output.append("false")
                    output.active = active & Output.on
                    output.append("true")
                    output.active = active
                    continue
                }
                switch found?.value {
                case .text(let text)?:
                    guard escaped else { throw RawTextError(name: names.isEmpty ? "." : names.joined(separator: ".")) }
                    output.append(escape(text, placement))
                case .markup(let markup)?: output.append(escaped ? escape(markup, placement) : markup)
                case .flag(let flag)?: output.append(flag ? "true" : "false")
                case .list?, .object?, nil: break
                }
            case .section(let names, let inverted, let body):
                let found = Self.lookupLevel(names, in: stack)
                if let found, output.isFork(names, level: found.level) {
                    // The flag is false in one output and true in the other: each takes its branch.
                    let active = output.active
                    output.active = active & (inverted ? Output.off : Output.on)
                    if output.active != 0 { try render(body, stack: &stack, partials: partials, escape: escape, into: &output) }
                    output.active = active
                    continue
                }
                let value = found?.value
                if inverted {
                    if value?.isFalsy ?? true { try render(body, stack: &stack, partials: partials, escape: escape, into: &output) }
                    continue
                }
                switch value {
                case .list(let items)?:
                    for item in items {
                        stack.append(item)
                        try render(body, stack: &stack, partials: partials, escape: escape, into: &output)
                        stack.removeLast()
                    }
                case .flag(let flag)?:
                    if flag { try render(body, stack: &stack, partials: partials, escape: escape, into: &output) }
                case .text?, .markup?, .object?:
                    stack.append(value!)
                    try render(body, stack: &stack, partials: partials, escape: escape, into: &output)
                    stack.removeLast()
                case nil:
                    break
                }
            case .partial(let name, let indentation):
                guard var partial = partials[name] else { continue }
                // A standalone partial's indentation goes before each line of its template (not
                // of the values it shows), as the spec says: parsed again, indented. (Rare: the
                // built-in templates have none.)
                if !indentation.isEmpty, let indented = try? Template(Self.indent(partial.source, by: indentation), kind: partial.kind) {
                    partial = indented
                }
                try partial.render(partial.nodes, stack: &stack, partials: partials, escape: escape, into: &output)
            }
        }
    }

    /// The value a name means here: its first part is looked up from the innermost context
    /// outwards; the rest descend from what was found (and do not climb again).
    static func lookup(_ names: [String], in stack: [TemplateValue]) -> TemplateValue? {
        lookupLevel(names, in: stack)?.value
    }

    /// ``lookup(_:in:)``, with the level of the context the first name was found in.
    static func lookupLevel(_ names: [String], in stack: [TemplateValue]) -> (value: TemplateValue, level: Int)? {
        guard let first = names.first else { return stack.last.map { ($0, stack.count - 1) } }
        var level = stack.count - 1
        while level >= 0 {
            if case .object(let fields) = stack[level], var value = fields[first] {
                for name in names.dropFirst() {
                    guard case .object(let inner) = value, let next = inner[name] else { return nil }
                    value = next
                }
                return (value, level)
            }
            level -= 1
        }
        return nil
    }

    /// `indentation` before each line of `text` (not after a final line break).
    static func indent(_ text: String, by indentation: String) -> String {
        var result = ""
        var atLineStart = true
        for character in text {
            if atLineStart { result += indentation }
            result.append(character)
            atLineStart = character == "\n"
        }
        return result
    }
}

/// Reads a template's text into nodes: tags found by byte search, standalone lines (a section,
/// comment or partial tag alone on its line) removed whole, as the Mustache spec asks.
struct TemplateParser {
    private let bytes: [UInt8]
    private var textStart = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    private struct OpenSection {
        let name: String
        let inverted: Bool
        let offset: Int
        var nodes: [Template.Node] = []
    }

    /// The template's nodes, each escaped variable placed (a variable no escaper can keep text is an error).
    mutating func parse(kind: Template.Kind) throws(Template.ParseError) -> [Template.Node] {
        let nodes = try parseNodes()
        do {
            var placements = try PlacementScanner.placements(of: nodes, kind: kind)[...]
            return Self.placing(nodes, &placements)
        } catch {
            throw self.error(at: variableOffsets[error.tag], error.message)
        }
    }

    /// `nodes` with the escaped variables' placements set, in text order.
    private static func placing(_ nodes: [Template.Node], _ placements: inout ArraySlice<Placement>) -> [Template.Node] {
        nodes.map { node in
            switch node {
            case .variable(let names, true, _): return .variable(names: names, escaped: true, placement: placements.removeFirst())
            case .section(let names, let inverted, let body):
                return .section(names: names, inverted: inverted, body: placing(body, &placements))
            case .text, .variable, .partial: return node
            }
        }
    }

    /// Where each escaped variable's tag starts, in text order (for errors).
    private var variableOffsets: [Int] = []

    private mutating func parseNodes() throws(Template.ParseError) -> [Template.Node] {
        var sections = [OpenSection(name: "", inverted: false, offset: 0)]
        var search = 0
        while let tagStart = find("{{", from: search) {
            let triple = tagStart + 2 < bytes.count && bytes[tagStart + 2] == UInt8(ascii: "{")
            let contentStart = tagStart + (triple ? 3 : 2)
            guard let close = find(triple ? "}}}" : "}}", from: contentStart) else {
                throw error(at: tagStart, "a tag is not closed (expected \(triple ? "}}}" : "}}"))")
            }
            let tagEnd = close + (triple ? 3 : 2)
            var content = String(decoding: bytes[contentStart..<close], as: UTF8.self)
            var sigil: Character = triple ? "{" : " "
            if !triple, let first = content.first, "#^/>!&=%<$".contains(first) {
                sigil = first
                content.removeFirst()
            }
            let name = Text.trimmed(content)

            // A section, comment or partial tag alone on its line takes the whole line with it.
            var textEnd = tagStart
            var next = tagEnd
            var indentation = ""
            if "#^/>!".contains(sigil), let line = standaloneLine(tagStart: tagStart, tagEnd: tagEnd) {
                textEnd = line.start
                next = line.end
                indentation = String(decoding: bytes[line.start..<tagStart], as: UTF8.self)
            }
            if textEnd > textStart {
                sections[sections.count - 1].nodes.append(.text(String(decoding: bytes[textStart..<textEnd], as: UTF8.self)))
            }
            textStart = next
            search = next

            if sigil != "!" && name.isEmpty { throw error(at: tagStart, "a tag has no name") }
            switch sigil {
            case "!":
                break
            case " ", "{", "&":
                if sigil == " " { variableOffsets.append(tagStart) }
                sections[sections.count - 1].nodes.append(.variable(names: try names(name, at: tagStart), escaped: sigil == " ",
                                                                     placement: .paragraph))
            case "#", "^":
                _ = try names(name, at: tagStart)
                guard sections.count <= Template.maximumDepth else {
                    throw error(at: tagStart, "sections nested deeper than \(Template.maximumDepth) levels")
                }
                sections.append(OpenSection(name: name, inverted: sigil == "^", offset: tagStart))
            case "/":
                guard sections.count > 1 else { throw error(at: tagStart, "{{/\(name)}} closes no section") }
                let open = sections.removeLast()
                guard open.name == name else {
                    throw error(at: tagStart, "the closing tag {{/\(name)}} does not match the open section {{\(open.inverted ? "^" : "#")\(open.name)}}")
                }
                sections[sections.count - 1].nodes.append(
                    .section(names: try names(name, at: open.offset), inverted: open.inverted, body: open.nodes))
            case ">":
                if name.hasPrefix("*") { throw error(at: tagStart, "dynamic partial names ({{>*name}}) are not supported") }
                if name.contains(where: \.isWhitespace) { throw error(at: tagStart, "malformed name \"\(name)\"") }
                sections[sections.count - 1].nodes.append(.partial(name: name, indentation: indentation))
            case "=":
                throw error(at: tagStart, "set-delimiter tags ({{=<% %>=}}) are not supported")
            case "%":
                throw error(at: tagStart, "pragma tags ({{% … }}) are not supported")
            default:
                throw error(at: tagStart, "template inheritance ({{< …}} and {{$ …}}) is not supported")
            }
        }
        if textStart < bytes.count {
            sections[sections.count - 1].nodes.append(.text(String(decoding: bytes[textStart...], as: UTF8.self)))
        }
        if sections.count > 1, let open = sections.last {
            throw error(at: open.offset, "the section {{\(open.inverted ? "^" : "#")\(open.name)}} is not closed (expected {{/\(open.name)}})")
        }
        return sections[0].nodes
    }

    /// `a.b.c` → `["a", "b", "c"]`; `.` → `[]` (the current value).
    private func names(_ name: String, at offset: Int) throws(Template.ParseError) -> [String] {
        if name == "." { return [] }
        if name.contains(where: \.isWhitespace) { throw error(at: offset, "malformed name \"\(name)\"") }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { throw error(at: offset, "malformed name \"\(name)\"") }
        return parts
    }

    /// The line around a tag, if the tag is all there is on it but spaces and tabs: from the
    /// line's start to just past its line break (or the end of the template).
    private func standaloneLine(tagStart: Int, tagEnd: Int) -> (start: Int, end: Int)? {
        var start = tagStart
        while start > 0 && (bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09) { start -= 1 }
        // Something else on the line before the tag: text, or another tag.
        guard start == 0 || bytes[start - 1] == 0x0A, start >= textStart else { return nil }
        var end = tagEnd
        while end < bytes.count && (bytes[end] == 0x20 || bytes[end] == 0x09) { end += 1 }
        if end == bytes.count { return (start, end) }
        if bytes[end] == 0x0A { return (start, end + 1) }
        if bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A { return (start, end + 2) }
        return nil
    }

    private func find(_ needle: String, from start: Int) -> Int? {
        Bytes.find(Array(needle.utf8), in: bytes, from: start)
    }

    private func error(at offset: Int, _ message: String) -> Template.ParseError {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return Template.ParseError(line: line, column: column, message: message)
    }
}
