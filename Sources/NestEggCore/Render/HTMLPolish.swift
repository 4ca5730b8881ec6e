/// Finishing touches on cmark-gfm's HTML that Markdown cannot express, applied to the
/// renderer's own well-known output (never to data, which is escaped long before):
/// header cells get `scope="col"`, and each table is wrapped in a focusable scroll container
/// so a wide table scrolls by itself on a phone instead of widening the page.
enum HTMLPolish {
    static func polish(_ html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") }), html.contains("<table") else { return html }
        let replacements: [(from: [UInt8], to: [UInt8])] = [
            ("<th>", "<th scope=\"col\">"),
            ("<th style=", "<th scope=\"col\" style="),
            ("<table>", "<div class=\"table-scroll\" tabindex=\"0\">\n<table>"),
            ("</table>", "</table>\n</div>"),
        ].map { (Array($0.utf8), Array($1.utf8)) }
        let source = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(source.count + source.count / 16)
        var index = 0
        // One pass: at each "<", try the replacements; everything else is copied as is.
        outer: while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "<") {
                for (from, to) in replacements where index + from.count <= source.count {
                    if source[index..<index + from.count].elementsEqual(from) {
                        output.append(contentsOf: to)
                        index += from.count
                        continue outer
                    }
                }
            }
            output.append(byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
