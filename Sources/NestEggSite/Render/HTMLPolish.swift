import NestEggModel
import NestEggSupport
import Foundation

/// Finishing touches on cmark-gfm's HTML that Markdown cannot express, applied to the
/// renderer's own well-known output (never to data, which is escaped long before):
/// header cells get `scope="col"`, and each table is wrapped in a focusable scroll container
/// so a wide table scrolls by itself on a phone instead of widening the page.
enum HTMLPolish {
    static let replacements: [(from: [UInt8], to: [UInt8])] = [
        ("<th>", "<th scope=\"col\">"),
        ("<th style=", "<th scope=\"col\" style="),
        ("<table>", "<div class=\"table-scroll\" tabindex=\"0\">\n<table>"),
        ("</table>", "</table>\n</div>"),
    ].map { (Array($0.utf8), Array($1.utf8)) }

    static func polish(_ html: String) -> String {
        var html = html
        let polished: String? = html.withUTF8 { source in
            // One pass: at each "<", try the replacements; the text between is copied in runs.
            var output: [UInt8] = []
            output.reserveCapacity(source.count + source.count / 16)
            var copied = 0
            var index = 0
            outer: while index < source.count {
                // Every replacement starts `<t` or `</t`.
                guard source[index] == UInt8(ascii: "<"), index + 2 < source.count,
                      source[index + 1] == UInt8(ascii: "t") || (source[index + 1] == UInt8(ascii: "/") && source[index + 2] == UInt8(ascii: "t"))
                else {
                    index += 1
                    continue
                }
                for (from, to) in replacements where index + from.count <= source.count {
                    if memcmp(source.baseAddress! + index, from, from.count) == 0 {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<index]))
                        output.append(contentsOf: to)
                        index += from.count
                        copied = index
                        continue outer
                    }
                }
                index += 1
            }
            if copied == 0 { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied...]))
            return String(decoding: output, as: UTF8.self)
        }
        return polished ?? html
    }
}
