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
    static func lift(_ markdown: String) -> (String, [Substring]) {
        guard markdown.contains("<svg") else { return (markdown, []) }
        var islands: [Substring] = []
        var result = ""
        var rest = Substring(markdown)
        while let start = rest.range(of: "<svg"), let end = rest[start.lowerBound...].range(of: "</svg>") {
            // An escaped `\<svg` is text from data, not an SVG.
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "\\" {
                result += rest[..<start.upperBound]
                rest = rest[start.upperBound...]
                continue
            }
            result += rest[..<start.lowerBound]
            result += "\(prefix)\(islands.count)-->"
            islands.append(rest[start.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
        }
        return (result + rest, islands)
    }

    /// Puts the SVGs back in cmark's HTML.
    static func land(_ html: String, _ islands: [Substring]) -> String {
        guard !islands.isEmpty else { return html }
        var result = ""
        var rest = Substring(html)
        while let start = rest.range(of: prefix) {
            result += rest[..<start.lowerBound]
            let afterPrefix = rest[start.upperBound...]
            guard let close = afterPrefix.range(of: "-->"), let index = Int(afterPrefix[..<close.lowerBound]),
                  islands.indices.contains(index) else {
                result += rest[start]
                rest = afterPrefix
                continue
            }
            result += islands[index]
            rest = afterPrefix[close.upperBound...]
        }
        return result + rest
    }

    /// cmark-gfm's HTML for Markdown that may hold charts.
    static func html(from markdown: String, rewriteLink: (String) -> String?, headingOffset: Int32 = 0) -> String {
        let (lifted, islands) = lift(markdown)
        return land(CMark.html(from: lifted, rewriteLink: rewriteLink, headingOffset: headingOffset), islands)
    }
}
