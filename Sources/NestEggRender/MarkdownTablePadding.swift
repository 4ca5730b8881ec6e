/// Pads the GFM tables of a `.md` file so that their columns line up in a terminal or an editor:
///
/// ```
/// | Date        | Counterparty  |  Amount |
/// |:------------|:--------------|--------:|
/// | 3 Nov 2026  | Tesco         |   £4.35 |
/// ```
///
/// A column is as wide as its widest cell in display columns (``displayWidth(_:)``); left-aligned
/// and unaligned cells are padded on the right, right-aligned ones on the left, centred ones on
/// both sides; the delimiter row keeps its colons. Cells are split on `|` that no backslash
/// escapes, as GFM splits them. Only a header row, a delimiter row with as many cells, and the rows
/// under them are touched; fenced code and every other line stay byte for byte. Padding changes
/// only spaces around cells, which GFM trims: the HTML is the same (a test holds it to that).
public enum MarkdownTablePadding {
    public static func pad(_ markdown: String) -> String {
        // Most pages' tables start a line with `|`; a page without one is returned as it is.
        guard markdown.hasPrefix("|") || markdown.contains("\n|") else { return markdown }
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        var fence: String?
        while index < lines.count {
            let line = lines[index]
            if let marker = fenceMarker(line) {
                if fence == nil { fence = marker } else if line.drop(while: { $0 == " " }).hasPrefix(fence!) { fence = nil }
                index += 1
                continue
            }
            guard fence == nil, line.hasPrefix("|"), index + 1 < lines.count,
                  let header = cells(line), let alignments = delimiter(lines[index + 1]), alignments.count == header.count else {
                index += 1
                continue
            }
            var rows = [header]
            var end = index + 2
            while end < lines.count, lines[end].hasPrefix("|"), let row = cells(lines[end]) {
                rows.append(row)
                end += 1
            }
            let padded = layout(rows, alignments: alignments)
            lines.replaceSubrange(index..<end, with: padded)
            index += padded.count
        }
        return lines.joined(separator: "\n")
    }

    public enum Alignment: Sendable { case none, left, right, center }

    /// The rows (header first) and the delimiter row, padded.
    static func layout(_ rows: [[String]], alignments: [Alignment]) -> [String] {
        var widths = alignments.map { _ in 3 }
        for row in rows {
            for (column, cell) in row.enumerated() {
                let width = displayWidth(cell)
                if column < widths.count { widths[column] = max(widths[column], width) } else { widths.append(max(3, width)) }
            }
        }
        func line(_ row: [String]) -> String {
            "| " + row.enumerated().map { column, cell in
                padded(cell, to: widths[column], column < alignments.count ? alignments[column] : .none)
            }.joined(separator: " | ") + " |"
        }
        let divider = "|" + alignments.enumerated().map { column, alignment in
            let width = widths[column] + 2
            switch alignment {
            case .none: return String(repeating: "-", count: width)
            case .left: return ":" + String(repeating: "-", count: width - 1)
            case .right: return String(repeating: "-", count: width - 1) + ":"
            case .center: return ":" + String(repeating: "-", count: width - 2) + ":"
            }
        }.joined(separator: "|") + "|"
        return [line(rows[0]), divider] + rows.dropFirst().map(line)
    }

    static func padded(_ cell: String, to width: Int, _ alignment: Alignment) -> String {
        let gap = max(0, width - displayWidth(cell))
        switch alignment {
        case .right: return String(repeating: " ", count: gap) + cell
        case .center: return String(repeating: " ", count: gap / 2) + cell + String(repeating: " ", count: gap - gap / 2)
        case .none, .left: return cell + String(repeating: " ", count: gap)
        }
    }

    /// A row's cells, trimmed: split on every `|` that an odd run of backslashes does not escape.
    /// `nil` for a line that does not end a row with `|`. (Bytes, not characters: a `\\` after a
    /// prepended mark such as U+0603 is one `Character` with it, and would hide the escape.)
    static func cells(_ line: String) -> [String]? {
        var bytes = Array(line.utf8)
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        let bar = UInt8(ascii: "|")
        guard bytes.count >= 2, bytes[0] == bar, bytes[bytes.count - 1] == bar, !isEscaped(bytes, at: bytes.count - 1) else { return nil }
        var result: [String] = []
        var start = 1
        for index in 1..<(bytes.count - 1) where bytes[index] == bar && !isEscaped(bytes, at: index) {
            result.append(trim(bytes[start..<index]))
            start = index + 1
        }
        result.append(trim(bytes[start..<(bytes.count - 1)]))
        return result
    }

    /// Whether the byte at `index` follows an odd run of backslashes.
    static func isEscaped(_ bytes: [UInt8], at index: Int) -> Bool {
        var count = 0
        var position = index
        while position > 0, bytes[position - 1] == UInt8(ascii: "\\") {
            count += 1
            position -= 1
        }
        return count % 2 == 1
    }

    /// The cell without the spaces and tabs around it (which GFM does not show).
    static func trim(_ bytes: ArraySlice<UInt8>) -> String {
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// The alignments of a delimiter row (`|:--|--:|`), or `nil` for any other line.
    static func delimiter(_ line: String) -> [Alignment]? {
        guard let parts = cells(line), !parts.isEmpty else { return nil }
        var alignments: [Alignment] = []
        for part in parts {
            let left = part.hasPrefix(":"), right = part.hasSuffix(":")
            let dashes = part.dropFirst(left ? 1 : 0).dropLast(right && part.count > 1 ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments
    }

    /// The fence a line opens or closes (three or more backticks or tildes, indented at most three spaces).
    static func fenceMarker(_ line: String) -> String? {
        let indented = line.prefix(while: { $0 == " " })
        guard indented.count <= 3 else { return nil }
        let rest = line.dropFirst(indented.count)
        for mark in ["`", "~"] where rest.hasPrefix(mark + mark + mark) {
            return String(rest.prefix(while: { String($0) == mark }))
        }
        return nil
    }

    /// Terminal columns: 2 for an emoji shown as such (a flag, a pictograph, anything with the
    /// emoji variation selector) and for East Asian wide and full-width characters (CJK, kana,
    /// Hangul, full-width forms), 0 for a control character, 1 for everything else; per
    /// grapheme cluster, so combining marks and joiners add nothing.
    public static func displayWidth(_ text: String) -> Int {
        var width = 0
        for character in text {
            if character.isASCII {
                width += character.asciiValue! < 0x20 || character.asciiValue! == 0x7F ? 0 : 1
                continue
            }
            let scalars = character.unicodeScalars
            let first = scalars.first!
            if scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation
                || (0x1F1E6...0x1F1FF).contains(first.value) || isWide(first.value) {
                width += 2
            } else if first.properties.generalCategory == .control || first.properties.generalCategory == .format {
                continue
            } else {
                width += 1
            }
        }
        return width
    }

    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
