import Foundation
import Mustache

/// The templates: the defaults built into the binary, each replaceable by a file of the
/// same name in `--templates DIR`.
public struct TemplateLibrary: Sendable {
    /// Where each template came from, for error messages: `Templates/roundups-week.md.mustache`
    /// for a built-in one, the override's path otherwise.
    public private(set) var sources: [String: String] = [:]
    private var templates: [String: MustacheTemplate] = [:]
    /// The same templates, for `{{> name}}` partials (`{{> pager-top.md}}`: the page bar every
    /// paged list shows, written once).
    private var partials = MustacheLibrary()
    /// `style.css`, copied to the site root.
    public private(set) var stylesheet: String

    public struct LoadError: Error, Sendable {
        public let diagnostics: [Diagnostic]
    }

    static let markdownDirective = "{{% CONTENT_TYPE: MARKDOWN }}"
    static let registerContentTypes: Void = {
        MustacheContentTypes.register(MarkdownContentType(), named: "MARKDOWN")
        MustacheContentTypes.register(HTMLContentType(), named: "NESTEGG_HTML")
    }()

    /// Loads the built-in templates, then overrides from `overrides` (files named like
    /// `layout.html.mustache`, `index.md.mustache`, `style.css`). Unknown override files are errors,
    /// as a misspelt name would otherwise be silently ignored.
    public init(overrides: URL? = nil) throws(LoadError) {
        _ = Self.registerContentTypes
        var texts: [String: (text: String, source: String)] = [:]
        for (name, text) in DefaultTemplates.files {
            texts[name] = (text, "Templates/\(name)")
        }
        var diagnostics: [Diagnostic] = []
        if let overrides {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: overrides.path)) ?? []).sorted()
            if names.isEmpty && !FileManager.default.fileExists(atPath: overrides.path) {
                throw LoadError(diagnostics: [Diagnostic(.error, file: overrides.path, message: "templates folder not found")])
            }
            for name in names where !name.hasPrefix(".") {
                let path = overrides.appendingPathComponent(name).path
                guard texts[name] != nil else {
                    diagnostics.append(Diagnostic(.error, file: path, message: "no built-in template is named \(name); "
                        + "overridable: \(DefaultTemplates.files.keys.sorted().joined(separator: ", "))"))
                    continue
                }
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    diagnostics.append(Diagnostic(.error, file: path, message: "cannot read the template as UTF-8 text"))
                    continue
                }
                texts[name] = (text, path)
            }
        }
        stylesheet = texts["style.css"]?.text ?? ""
        for (name, entry) in texts.sorted(by: { $0.key < $1.key }) where name.hasSuffix(".mustache") {
            let key = String(name.dropLast(".mustache".count))
            // Markdown templates escape for Markdown; the directive stays on line 1 so lines keep their numbers.
            let directive = key.hasSuffix(".md") ? Self.markdownDirective : "{{% CONTENT_TYPE: NESTEGG_HTML }}"
            do {
                templates[key] = try MustacheTemplate(string: directive + entry.text)
                sources[key] = entry.source
            } catch let error as MustacheTemplate.ParserError {
                let column = error.context.lineNumber == 1
                    ? max(1, error.context.columnNumber - directive.count) : error.context.columnNumber
                diagnostics.append(Diagnostic(.error, file: entry.source, line: error.context.lineNumber, column: column,
                                              message: "template error: \(Self.describe(error.error))"))
            } catch {
                diagnostics.append(Diagnostic(.error, file: entry.source, message: "template error: \(error)"))
            }
        }
        if !diagnostics.isEmpty { throw LoadError(diagnostics: diagnostics) }
        partials = MustacheLibrary(templates: templates)
    }

    static func describe(_ error: Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "\(error)" }
        switch error {
        case .sectionCloseNameIncorrect: return "the closing tag does not match the open section"
        case .unfinishedName: return "a tag is not closed (expected }})"
        case .expectedSectionEnd: return "a section is not closed (expected {{/name}})"
        case .invalidSetDelimiter: return "malformed set-delimiter tag"
        case .transformAppliedToInheritanceSection: return "a transform cannot apply to an inherited section"
        case .illegalTokenInsideInheritSection: return "illegal tag inside an inherited section"
        case .textInsideInheritSection: return "text inside an inherited section"
        case .invalidConfigVariableSyntax: return "malformed {{% ... }} tag"
        case .unrecognisedConfigVariable: return "unknown {{% ... }} setting"
        }
    }

    /// Renders the template `name` (`roundups-week.md`, `layout.html`) with `context`.
    public func render(_ name: String, _ context: Any) -> String? {
        templates[name]?.render(context, library: partials)
    }



    public func has(_ name: String) -> Bool { templates[name] != nil }
}

/// A template's view of a page: the fields every page has (`root`, `html`, `siteTitle`…)
/// over the page's own view data.
struct TemplateContext: MustacheParent {
    let common: [String: Any]
    let view: [String: Any]

    init(common: [String: Any], view: Any) {
        self.common = common
        self.view = view as? [String: Any] ?? (TemplateValue.flatten(view) as? [String: Any]) ?? [:]
    }

    func child(named name: String) -> Any? { common[name] ?? view[name] }
}

/// Turns view data (structs of strings, numbers, flags, arrays and nested structs) into
/// dictionaries and arrays once, before rendering. swift-mustache would otherwise reflect on a
/// struct with `Mirror` at every `{{name}}` lookup, which made reflection most of a build's time.
enum TemplateValue {
    static func flatten(_ value: Any) -> Any? {
        switch value {
        case let text as String: return text
        case let flag as Bool: return flag
        // Numbers become their text here, once: every leaf is then a String or a Bool, which
        // swift-mustache renders on its fast path (see the conformance below).
        case let number as Int: return String(number)
        case let number as Int64: return String(number)
        case let dictionary as [String: Any]:
            return dictionary.compactMapValues(flatten)
        case let leaf as CustomStringConvertible where !(value is [Any]):
            // A pre-escaped fragment (MarkdownLine, SafeURL): rendered as its text.
            return leaf.description
        default:
            break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { flatten($0.value) }
        case .collection, .set:
            return mirror.children.compactMap { flatten($0.value) }
        case .struct, .class:
            var fields: [String: Any] = [:]
            for child in mirror.children {
                if let label = child.label, let field = flatten(child.value) { fields[label] = field }
            }
            return fields
        default:
            return String(describing: value)
        }
    }
}

/// swift-mustache renders a value through `String(describing:)` after several dynamic casts,
/// unless it is `MustacheCustomRenderable`; as every leaf of our view data is a String, this
/// one conformance takes most of the casting out of rendering. (Retroactive: should the library
/// add it itself, this goes.)
extension String: @retroactive MustacheCustomRenderable {
    public var renderText: String { self }
    public var isNull: Bool { false }
}
