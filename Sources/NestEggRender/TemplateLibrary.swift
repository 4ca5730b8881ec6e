import Crypto
import NestEggReport
import NestEggModel
import NestEggSupport
import Foundation

/// The templates: the defaults built into the binary, each replaceable by a file of the
/// same name in `--templates DIR`.
public struct TemplateLibrary: Sendable {
    /// Where each template came from, for error messages: `Templates/roundups-week.md.mustache`
    /// for a built-in one, the override's path otherwise.
    public private(set) var sources: [String: String] = [:]
    /// Every template by name (`roundups-week.md`), which is also how `{{> name}}` includes one
    /// (`{{> pager-top.md}}`: the page bar every paged list shows, written once).
    private var templates: [String: Template] = [:]
    /// `style.css`, copied to the site root.
    public private(set) var stylesheet: String
    /// The search page's script (`search.js`), written beside the pages as the stylesheet is.
    public private(set) var searchScript = ""
    /// SHA-256 of every template's name and text, and the stylesheet's: what a page's output
    /// depends on besides its view data (part of each page's fingerprint).
    public private(set) var digest = ""

    public struct LoadError: Error, Sendable {
        public let diagnostics: [Diagnostic]
    }

    /// Loads the built-in templates, then overrides from `overrides` (files named like
    /// `layout.html.mustache`, `index.md.mustache`, `style.css`). Unknown override files are errors,
    /// as a misspelt name would otherwise be silently ignored; so are partials that do not exist
    /// or that include themselves.
    public init(overrides: URL? = nil) throws(LoadError) {
        var texts: [String: (text: String, source: String)] = [:]
        for (name, text) in DefaultTemplates.files {
            texts[name] = (text, "Templates/\(name)")
        }
        var diagnostics: [Diagnostic] = []
        if let overrides {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: overrides.path).sorted()
            } catch {
                let exists = FileManager.default.fileExists(atPath: overrides.path)
                throw LoadError(diagnostics: [Diagnostic(.error, file: overrides.path,
                                                         message: exists ? "cannot read the templates folder" : "templates folder not found")])
            }
            for name in names where !name.hasPrefix(".") {
                let path = overrides.appendingPathComponent(name).path
                guard texts[name] != nil else {
                    diagnostics.append(Diagnostic(.error, file: path, message: "no built-in template is named \(name); "
                        + "overridable: \(DefaultTemplates.files.keys.sorted().joined(separator: ", "))"))
                    continue
                }
                let text: String
                switch FileBytes.read(path, limit: Self.largestTemplate) {
                case .success(let bytes):
                    guard let decoded = String(validating: bytes, as: UTF8.self) else {
                        diagnostics.append(Diagnostic(.error, file: path, message: "cannot read the template: it is not UTF-8 text"))
                        continue
                    }
                    text = decoded
                case .failure(let failure):
                    diagnostics.append(Diagnostic(.error, file: path, message: "cannot read the template: \(failure.reason)"))
                    continue
                }
                texts[name] = (text, path)
            }
        }
        stylesheet = texts["style.css"]?.text ?? ""
        searchScript = texts[SearchIndexScript.scriptName]?.text ?? ""
        var bytes: [UInt8] = []
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) {
            PageFingerprint.append(&bytes, name)
            PageFingerprint.append(&bytes, entry.text)
        }
        digest = PageFingerprint.hex(SHA256.hash(data: bytes))
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) where name.hasSuffix(".mustache") {
            let key = String(name.dropLast(".mustache".count))
            // Markdown templates escape for Markdown, the others for HTML.
            do {
                templates[key] = try Template(entry.text, kind: key.hasSuffix(".md") ? .markdown : .html)
                sources[key] = entry.source
            } catch {
                diagnostics.append(Diagnostic(.error, file: entry.source, line: error.line, column: error.column,
                                              message: "template error: \(error.message)"))
            }
        }
        diagnostics += Self.checkPartials(templates, sources: sources)
        if diagnostics.isEmpty { diagnostics += Self.checkDepth(templates, sources: sources) + Self.checkExpansion(templates, sources: sources) }
        if !diagnostics.isEmpty { throw LoadError(diagnostics: diagnostics) }
    }

    /// Every `{{> name}}` names a template, and none includes itself, directly or not (which
    /// would never finish rendering).
    static func checkPartials(_ templates: [String: Template], sources: [String: String]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (key, template) in templates.sorted(by: { $0.key < $1.key }) {
            let file = sources[key] ?? key
            for name in Set(template.partialNames).sorted() where templates[name] == nil {
                diagnostics.append(Diagnostic(.error, file: file, message: "template error: {{> \(name)}} names no template"))
            }
            if let chain = cycle(from: key, back: key, path: [key], in: templates) {
                diagnostics.append(Diagnostic(.error, file: file,
                                              message: "template error: partials include each other without end (\(chain.joined(separator: " > ")))"))
            }
        }
        return diagnostics
    }

    /// Sections nest at most ``Template/maximumDepth`` deep, partials included (checked once
    /// partials are known to form no loop: each template is measured after those it includes).
    static func checkDepth(_ templates: [String: Template], sources: [String: String]) -> [Diagnostic] {
        var depths: [String: Int] = [:]
        var remaining = templates.keys.sorted()
        while !remaining.isEmpty {
            let ready = remaining.filter { key in templates[key]!.partialNames.allSatisfy { depths[$0] != nil } }
            guard !ready.isEmpty else { break }
            for key in ready { depths[key] = templates[key]!.depth(with: depths) }
            remaining.removeAll { depths[$0] != nil }
        }
        return depths.filter { $0.value > Template.maximumDepth }.keys.sorted().map { key in
            Diagnostic(.error, file: sources[key] ?? key, message: "template error: sections nested \(depths[key]!) levels deep "
                       + "with the partials it includes (at most \(Template.maximumDepth))")
        }
    }

    /// Each template, with the partials it includes, is at most ``Template/largestExpansion`` bytes
    /// before any data (checked once partials are known to form no loop, each template measured
    /// after those it includes): templates that include a partial twice at each level would
    /// otherwise double a page's size at every level.
    static func checkExpansion(_ templates: [String: Template], sources: [String: String]) -> [Diagnostic] {
        var sizes: [String: Int] = [:]
        var remaining = templates.keys.sorted()
        while !remaining.isEmpty {
            let ready = remaining.filter { key in templates[key]!.partialNames.allSatisfy { sizes[$0] != nil } }
            guard !ready.isEmpty else { break }
            for key in ready { sizes[key] = templates[key]!.expandedSize(with: sizes) }
            remaining.removeAll { sizes[$0] != nil }
        }
        return sizes.filter { $0.value > Template.largestExpansion }.keys.sorted().map { key in
            let size = sizes[key]! == Int.max ? "more bytes than can be counted" : "\(sizes[key]!) bytes"
            return Diagnostic(.error, file: sources[key] ?? key, message: "template error: with the partials it includes, one render goes through "
                              + "\(size) of template text before any data (at most \(Template.largestExpansion)): a partial included many times, level after level")
        }
    }

    /// The most bytes a template file may hold (a page's template is a few kilobytes).
    public static let largestTemplate = 1 << 24

    /// A chain of partials from `name` that leads back to `back`, if there is one.
    private static func cycle(from name: String, back: String, path: [String], in templates: [String: Template]) -> [String]? {
        for next in Set(templates[name]?.partialNames ?? []).sorted() {
            if next == back { return path + [next] }
            // A loop that does not pass `back` is reported from one of its own templates.
            if path.contains(next) { continue }
            if let chain = cycle(from: next, back: back, path: path + [next], in: templates) { return chain }
        }
        return nil
    }

    /// Renders the template `name` (`roundups-week.md`, `layout.html`) with `contexts`, outermost
    /// first (see ``Template/render(_:partials:)-(TemplateValue)``).
    public func render(_ name: String, _ contexts: TemplateValue...) throws(Template.RawTextError) -> String? {
        try templates[name]?.render(contexts, partials: templates)
    }

    /// The template `name` rendered with the flag `forkName` of the last context off and on, in
    /// one pass (``Template/renderBoth(_:forkName:partials:)``), or `nil` if there is no such template.
    public func renderBoth(_ name: String, _ contexts: TemplateValue..., forkName: String) throws(Template.RawTextError) -> (off: String, on: String)? {
        try templates[name]?.renderBoth(contexts, forkName: forkName, partials: templates)
    }

    /// Renders with `escape` in place of ``Escape/value(_:at:)`` (for tests).
    func render(_ name: String, _ contexts: [TemplateValue], escape: (String, Placement) -> String) throws(Template.RawTextError) -> String? {
        try templates[name]?.render(contexts, partials: templates, escape: escape)
    }

    /// Where each escaped `{{name}}` of the template `name` lands, in text order (for tests).
    func placements(_ name: String) -> [(name: String, placement: Placement)] {
        templates[name]?.placements ?? []
    }

    public func has(_ name: String) -> Bool { templates[name] != nil }
}
