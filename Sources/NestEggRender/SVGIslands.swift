import NestEggReport
import NestEggModel
import NestEggSupport
/// Inline SVG charts travel around cmark-gfm rather than through it: its `tagfilter` extension
/// (which disarms `<title>`, `<style>`, `<script>` and kin in raw HTML) would otherwise turn each
/// chart's `<title>` — its tooltip and accessible name — into text.
///
/// Before cmark runs, every `<svg …>…</svg>` in a page's HTML-flavoured Markdown is swapped for a
/// placeholder comment; afterwards the comments are swapped back. Only templates and ``Chart``
/// can write `<svg`: text from data reaches the Markdown escaped (`\<svg`), so it is never lifted.
enum SVGIslands {
    static let prefix = "<!--nestegg-svg-"

    /// The Markdown with each SVG replaced by `<!--nestegg-svg-N-->`, and the SVGs in order.
    static func lift(_ markdown: String) -> (String, [String]) {
        let bytes = Array(markdown.utf8)
        let open = Array("<svg".utf8), close = Array("</svg>".utf8)
        guard var start = Bytes.find(open, in: bytes, from: 0) else { return (markdown, []) }
        var islands: [String] = []
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        while true {
            // An escaped `\<svg` is text from data, not an SVG: an odd run of backslashes escapes it.
            var backslashes = 0
            while start - backslashes > 0 && bytes[start - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 1 {
                guard let next = Bytes.find(open, in: bytes, from: start + open.count) else { break }
                start = next
                continue
            }
            guard let end = Bytes.find(close, in: bytes, from: start) else { break }
            output.append(contentsOf: bytes[copied..<start])
            output.append(contentsOf: "\(prefix)\(islands.count)-->".utf8)
            islands.append(String(decoding: bytes[start..<end + close.count], as: UTF8.self))
            copied = end + close.count
            guard let next = Bytes.find(open, in: bytes, from: copied) else { break }
            start = next
        }
        output.append(contentsOf: bytes[copied...])
        return (String(decoding: output, as: UTF8.self), islands)
    }

    /// Puts the SVGs back in cmark's HTML.
    static func land(_ html: String, _ islands: [String]) -> String {
        guard !islands.isEmpty else { return html }
        let bytes = Array(html.utf8)
        let marker = Array(prefix.utf8), close = Array("-->".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + islands.reduce(0) { $0 + $1.utf8.count })
        var copied = 0
        var from = 0
        while let start = Bytes.find(marker, in: bytes, from: from) {
            from = start + marker.count
            guard let end = Bytes.find(close, in: bytes, from: from),
                  let index = Int(String(decoding: bytes[from..<end], as: UTF8.self)), islands.indices.contains(index)
            else { continue }
            output.append(contentsOf: bytes[copied..<start])
            output.append(contentsOf: islands[index].utf8)
            copied = end + close.count
            from = copied
        }
        output.append(contentsOf: bytes[copied...])
        return String(decoding: output, as: UTF8.self)
    }

    /// cmark-gfm's HTML for Markdown that may hold charts.
    static func html(from markdown: String, rewriteLink: (String) -> String?, headingOffset: Int32 = 0) -> String {
        let (lifted, islands) = lift(markdown)
        return land(CMark.html(from: lifted, rewriteLink: rewriteLink, headingOffset: headingOffset), islands)
    }
}
