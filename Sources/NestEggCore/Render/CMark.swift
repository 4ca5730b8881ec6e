import CCmarkGFM
import Foundation

/// Markdown → HTML with cmark-gfm and GitHub's extensions (tables, strikethrough,
/// autolinks, the tag filter). Frees everything it allocates.
public enum CMark {
    static let extensions = ["table", "strikethrough", "autolink", "tagfilter"]

    private static let registerExtensions: Void = { cmark_gfm_core_extensions_ensure_registered() }()

    /// Right-aligned cells as `style="text-align: right"` (valid HTML) rather than `align="right"`;
    /// raw HTML is let through because only templates can write it: every value from data is
    /// escaped before it reaches the Markdown, and `tagfilter` still disarms `<script>` and kin.
    static let options = CMARK_OPT_UNSAFE | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES

    /// Converts `markdown` to an HTML fragment. `rewriteLink` may replace each link's destination
    /// (it is applied to the node tree, not to the text); `headingOffset` moves every heading down
    /// that many levels (a page inside a larger document).
    public static func html(from markdown: String, rewriteLink: (String) -> String? = { _ in nil },
                            headingOffset: Int32 = 0) -> String {
        _ = registerExtensions
        guard let parser = cmark_parser_new(options) else { return "" }
        defer { cmark_parser_free(parser) }
        for name in extensions {
            if let syntax = cmark_find_syntax_extension(name) {
                cmark_parser_attach_syntax_extension(parser, syntax)
            }
        }
        markdown.utf8CString.withUnsafeBufferPointer { buffer in
            cmark_parser_feed(parser, buffer.baseAddress, buffer.count - 1)
        }
        guard let document = cmark_parser_finish(parser) else { return "" }
        defer { cmark_node_free(document) }

        var autolinkedEmails: [OpaquePointer] = []
        if let iterator = cmark_iter_new(document) {
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                switch cmark_node_get_type(node) {
                case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                    let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                    if url.hasPrefix("mailto:") {
                        // Templates never write mail links: this is an address in data that the
                        // autolink extension picked up, and it goes back to being text.
                        autolinkedEmails.append(node)
                    } else if !isSafeDestination(url) {
                        cmark_node_set_url(node, "")
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
        for link in autolinkedEmails {
            while let child = cmark_node_first_child(link) { cmark_node_insert_before(link, child) }
            cmark_node_free(link)
        }
        guard let rendered = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// A link or image destination that may stand in a page: relative, a fragment, or http(s).
    /// Anything else (`javascript:`, `data:`, `vbscript:`) is emptied — a second line of defence,
    /// as data never reaches a destination unescaped.
    static func isSafeDestination(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return true }
        if let boundary = url.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }), boundary < colon { return true }
        let scheme = url[..<colon].lowercased()
        return scheme == "http" || scheme == "https"
    }

    /// `roundups/index.md` → `roundups/index.html` (and `x.md#part` → `x.html#part`),
    /// for relative links only; absolute URLs are left alone.
    public static func markdownLinkToHTML(_ url: String) -> String? {
        // (Byte tests: `String.contains(_:)` with a string goes through Foundation, and this runs for every link.)
        if url.utf8.contains(UInt8(ascii: ":")) || url.utf8.first == UInt8(ascii: "/") || url.utf8.first == UInt8(ascii: "#") { return nil }
        let (path, fragment) = url.firstIndex(of: "#").map { (url[..<$0], url[$0...]) } ?? (url[...], ""[...])
        guard path.hasSuffix(".md") else { return nil }
        return path.dropLast(3) + ".html" + fragment
    }
}
