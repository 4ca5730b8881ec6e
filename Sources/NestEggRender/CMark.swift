import NestEggReport
import NestEggModel
import NestEggSupport
import CCmarkGFM
import Foundation

/// Markdown → HTML with cmark-gfm and GitHub's extensions (tables, strikethrough,
/// autolinks, the tag filter). Frees everything it allocates.
public enum CMark {
    static let extensions = ["table", "strikethrough", "autolink", "tagfilter"]

    static let registerExtensions: Void = { cmark_gfm_core_extensions_ensure_registered() }()

    /// Held while cmark-gfm parses a document's inlines (``Document``).
    static let finishing = NSLock()

    /// Right-aligned cells as `style="text-align: right"` (valid HTML) rather than `align="right"`;
    /// raw HTML is let through because only templates write it: every value from data is escaped
    /// for where it lands before it reaches the Markdown, and `tagfilter` still disarms `<script>`
    /// and kin.
    static let options = CMARK_OPT_UNSAFE | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES

    /// Converts `markdown` to an HTML fragment. `rewriteLink` may replace each link's destination
    /// (it is applied to the node tree, not to the text); `headingOffset` moves every heading down
    /// that many levels (a page inside a larger document). Any link or image whose destination is
    /// not relative or http(s) — an autolinked e-mail address or `xmpp:` URI, a `javascript:` link —
    /// goes back to being its text: templates write only relative links, and data none.
    public static func html(from markdown: String, rewriteLink: (String) -> String? = { _ in nil },
                            headingOffset: Int32 = 0) -> String {
        render(markdown, rewriteLink: rewriteLink, headingOffset: headingOffset, unlinkingUnsafe: true).html
    }

    /// cmark-gfm's HTML as GitHub's renderer would make it of a `.md` file: the same parser,
    /// extensions and options, without NestEgg's node pass (the tests ask it what GitHub links).
    static func htmlWithoutNodePass(from markdown: String) -> String {
        render(markdown, rewriteLink: { _ in nil }, headingOffset: 0, unlinkingUnsafe: false).html
    }

    /// The HTML, and how many links and images had a destination that is not relative or http(s)
    /// (each made its text if `unlinkingUnsafe`; GitHub would show them as links).
    static func render(_ markdown: String, rewriteLink: (String) -> String?, headingOffset: Int32,
                       unlinkingUnsafe: Bool) -> (html: String, unsafeLinks: Int) {
        guard let document = Document(markdown) else { return ("", 0) }
        return document.html(rewriteLink: rewriteLink, headingOffset: headingOffset, unlinkingUnsafe: unlinkingUnsafe)
    }

    /// cmark-gfm could not make a parser or a tree (it ran out of memory).
    public struct ParserFailure: Error, Sendable, CustomStringConvertible {
        public let page: String
        public var description: String { "cmark-gfm could not parse the Markdown of page \(page) (out of memory)" }
    }

    /// A page's Markdown parsed once: its tables are read from this tree (``TableCSV``), a
    /// paragraph may be added after a node, and the HTML is rendered from the same tree.
    final class Document {
        private let parser: OpaquePointer
        let root: OpaquePointer

        init?(_ markdown: String) {
            _ = CMark.registerExtensions
            guard let parser = cmark_parser_new(CMark.options) else { return nil }
            for name in CMark.extensions {
                if let syntax = cmark_find_syntax_extension(name) {
                    cmark_parser_attach_syntax_extension(parser, syntax)
                }
            }
            markdown.utf8CString.withUnsafeBufferPointer { buffer in
                cmark_parser_feed(parser, buffer.baseAddress, buffer.count - 1)
            }
            // cmark-gfm parses inlines in `cmark_parser_finish` with a table of special characters
            // that is global: each parse adds its extensions' (`~`, `|`, the autolinks') at the start
            // and takes them away at the end, so one page finishing could take `~~` away from a page
            // another core is parsing (seen: a strikethrough read as text). Inline parsing is
            // therefore one page at a time; the block parse above stays on every core.
            guard let root = CMark.finishing.withLock({ cmark_parser_finish(parser) }) else {
                cmark_parser_free(parser)
                return nil
            }
            (self.parser, self.root) = (parser, root)
        }

        deinit {
            cmark_node_free(root)
            cmark_parser_free(parser)
        }

        /// Adds after `node` a paragraph that is one link, `[text](destination)`, as cmark would
        /// parse that line standing on its own after a blank line.
        func insertLinkParagraph(after node: OpaquePointer, text: String, destination: String) {
            guard let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH), let link = cmark_node_new(CMARK_NODE_LINK),
                  let literal = cmark_node_new(CMARK_NODE_TEXT) else { return }
            cmark_node_set_literal(literal, text)
            cmark_node_set_url(link, destination)
            cmark_node_append_child(link, literal)
            cmark_node_append_child(paragraph, link)
            cmark_node_insert_after(node, paragraph)
        }

        /// The HTML of the tree after NestEgg's node pass (``CMark/html(from:rewriteLink:headingOffset:)``),
        /// which changes the tree: render a document once.
        func html(rewriteLink: (String) -> String?, headingOffset: Int32, unlinkingUnsafe: Bool) -> (html: String, unsafeLinks: Int) {
            var unsafe: [OpaquePointer] = []
            var unsafeLinks = 0
            if let iterator = cmark_iter_new(root) {
                defer { cmark_iter_free(iterator) }
                while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                    guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                    switch cmark_node_get_type(node) {
                    case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                        let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                        if !isSafeDestination(url) {
                            unsafeLinks += 1
                            if unlinkingUnsafe { unsafe.append(node) }
                        } else if cmark_node_get_type(node) == CMARK_NODE_LINK, let replacement = rewriteLink(url) {
                            cmark_node_set_url(node, replacement)
                        }
                    case CMARK_NODE_HEADING where headingOffset != 0:
                        cmark_node_set_heading_level(node, min(6, cmark_node_get_heading_level(node) + headingOffset))
                    default:
                        break
                    }
                }
            }
            // Each goes back to being its text (an image to its description), in its place.
            for node in unsafe {
                while let child = cmark_node_first_child(node) { cmark_node_insert_before(node, child) }
                cmark_node_free(node)
            }
            guard let rendered = cmark_render_html(root, CMark.options, cmark_parser_get_syntax_extensions(parser)) else {
                return ("", unsafeLinks)
            }
            defer { free(rendered) }
            return (String(cString: rendered), unsafeLinks)
        }
    }

    /// A link or image destination that may stand in a page: relative (a path or a fragment on
    /// this site) or http(s). Read as a browser reads it — leading control characters and spaces
    /// dropped, tabs and line breaks ignored, `\` as `/` — so `//host`, `/\host` (another host),
    /// `javascript:`, `mailto:`, `xmpp:` and `data:` are not.
    static func isSafeDestination(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            // (Bytes, not scalars: this runs for every link, and what matters is ASCII.)
            var index = 0
            while index < bytes.count && bytes[index] <= 0x20 { index += 1 }
            var scheme: [UInt8] = []  // up to the first separator; tabs and line breaks do not count
            var separator: UInt8? = nil
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
                if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "?")
                    || byte == UInt8(ascii: "#") {
                    separator = byte
                    break
                }
                if scheme.count <= 5 { scheme.append(byte | 0x20) }
            }
            switch separator {
            case UInt8(ascii: ":")?:
                return scheme == Array("http".utf8) || scheme == Array("https".utf8)
            case UInt8(ascii: "/")?, UInt8(ascii: "\\")?:
                // A path; but `//x`, `/\\x` (a browser reads `\\` as `/`) lead to another host.
                guard scheme.isEmpty else { return true }
                while index < bytes.count && (bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D) { index += 1 }
                return !(index < bytes.count && (bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "\\")))
            default:
                return true  // a query, a fragment, or a path with no colon
            }
        }
    }
}
