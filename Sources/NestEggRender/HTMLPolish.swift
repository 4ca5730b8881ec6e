import NestEggReport
import NestEggModel
import NestEggSupport
import Foundation

/// Finishing touches on cmark-gfm's HTML that Markdown cannot express, applied to the
/// renderer's own well-known output (never to data, which is escaped long before):
/// header cells get `scope="col"`; each table is wrapped in a focusable scroll container
/// so a wide table scrolls by itself instead of widening the page; and each body cell gets its
/// column's header as `data-label`, which the stylesheet shows beside the value when a phone
/// stacks a table's rows as cards (so every amount stays in view without scrolling sideways).
///
/// The labels are the header cells' text as cmark-gfm wrote it (already escaped for HTML, its
/// tags dropped), so they are as safe in a quoted attribute as they were in the cell.
enum HTMLPolish {
    static let replacements: [(from: [UInt8], to: [UInt8])] = [
        ("<th>", "<th scope=\"col\">"),
        ("<th style=", "<th scope=\"col\" style="),
        ("<table>", "<div class=\"table-scroll\" tabindex=\"0\">\n<table>"),
        ("</table>", "</table>\n</div>"),
    ].map { (Array($0.utf8), Array($1.utf8)) }

    private static let thead = Array("<thead>".utf8), theadEnd = Array("</thead>".utf8)
    private static let th = Array("<th".utf8), thEnd = Array("</th>".utf8), tableEnd = Array("</table>".utf8)
    private static let tr = Array("<tr>".utf8), td = Array("<td".utf8)
    private static let dataLabel = Array(" data-label=\"".utf8)

    static func polish(_ html: String) -> String {
        var html = html
        let polished: String? = html.withUTF8 { source in
            // One pass: at each "<", try the replacements; the text between is copied in runs.
            var output: [UInt8] = []
            output.reserveCapacity(source.count + source.count / 8)
            var copied = 0
            var index = 0
            var labels: [ArraySlice<UInt8>] = []  // the current table's header texts
            var inHead = false
            var column = 0
            var cellStart = 0  // where the current header cell's content begins
            func at(_ pattern: [UInt8]) -> Bool {
                index + pattern.count <= source.count && memcmp(source.baseAddress! + index, pattern, pattern.count) == 0
            }
            outer: while index < source.count {
                // Every tag of interest starts `<t` or `</t`: skip to the next `<` at once.
                guard let next = memchr(source.baseAddress! + index, Int32(UInt8(ascii: "<")), source.count - index) else { break }
                index = source.baseAddress!.distance(to: next.assumingMemoryBound(to: UInt8.self))
                guard index + 2 < source.count,
                      source[index + 1] == UInt8(ascii: "t") || (source[index + 1] == UInt8(ascii: "/") && source[index + 2] == UInt8(ascii: "t"))
                else {
                    index += 1
                    continue
                }
                if at(thead) {
                    inHead = true
                    labels = []
                } else if at(theadEnd) {
                    inHead = false
                } else if at(tr) {
                    column = 0
                } else if inHead, at(th), index + 3 < source.count,
                          source[index + 3] == UInt8(ascii: ">") || source[index + 3] == UInt8(ascii: " ") {
                    cellStart = index + 3
                    while cellStart < source.count && source[cellStart - 1] != UInt8(ascii: ">") { cellStart += 1 }
                } else if inHead, at(thEnd) {
                    // The header cell's text, its tags dropped.
                    var label: ArraySlice<UInt8> = []
                    var inTag = false
                    for byte in UnsafeBufferPointer(rebasing: source[min(cellStart, index)..<index]) {
                        if byte == UInt8(ascii: "<") { inTag = true } else if byte == UInt8(ascii: ">") { inTag = false } else if !inTag { label.append(byte) }
                    }
                    labels.append(label)
                } else if at(tableEnd) {
                    labels = []
                } else if !inHead, at(td), index + 3 < source.count,
                          source[index + 3] == UInt8(ascii: ">") || source[index + 3] == UInt8(ascii: " ") {
                    if column < labels.count, !labels[column].isEmpty {
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<(index + 3)]))
                        output.append(contentsOf: dataLabel)
                        output.append(contentsOf: labels[column])
                        output.append(UInt8(ascii: "\""))
                        copied = index + 3
                    }
                    column += 1
                    index += 3
                    continue
                }
                for (from, to) in replacements where at(from) {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<index]))
                    output.append(contentsOf: to)
                    index += from.count
                    copied = index
                    continue outer
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
