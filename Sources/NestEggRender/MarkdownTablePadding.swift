/// Pads the GFM tables of a `.md` file so that their columns line up in a terminal or an editor:
///
/// ```
/// | Date        | Counterparty  |  Amount |
/// |:------------|:--------------|--------:|
/// | 3 Nov 2026  | Tesco         |   £4.35 |
/// ```
///
/// A column is as wide as its widest cell in display columns (``displayWidth(_:)``), up to
/// ``widestPaddedColumn`` (a wider cell is left as it is); left-aligned
/// and unaligned cells are padded on the right, right-aligned ones on the left, centred ones on
/// both sides; the delimiter row keeps its colons. Cells are split on `|` that no backslash
/// escapes, as GFM splits them. Only a header row, a delimiter row with as many cells, and the rows
/// under them are touched; fenced code and every other line stay byte for byte. Padding changes
/// only spaces around cells, which GFM trims: the HTML is the same (a test holds it to that).
///
/// It works on UTF-8 bytes, as GFM reads its input, and runs for every page of a build: lines are
/// byte ranges, cells are byte slices, and a cell's width is counted from its bytes unless it has a
/// character that needs grapheme clusters (``displayWidth(_:)``).
public enum MarkdownTablePadding {
    public static func pad(_ markdown: String) -> String { padded(markdown).text }

    /// A table that ``padded(_:)`` lined up: its rows (the header's included), the header's cells,
    /// and its last line (1-based; padding keeps every line where it is).
    struct Table: Equatable {
        var rows: Int
        var columns: Int
        var endLine: Int
    }

    /// ``pad(_:)``'s text, and the tables it found there, in order. They are the tables GFM reads
    /// at the top level of the page (a line that starts with `|`, a delimiter row under it with as
    /// many cells): the ones a link line can follow (``TableCSV``).
    static func padded(_ markdown: String) -> (text: String, tables: [Table]) {
        // Most pages' tables start a line with `|`; a page without one is returned as it is.
        guard markdown.utf8.first == bar || markdown.utf8.contains(bar) else { return (markdown, []) }
        let bytes = Array(markdown.utf8)
        let lines = lineRanges(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        var index = 0
        var fence: ArraySlice<UInt8>?
        var tables: [Table] = []
        func copy(_ range: Range<Int>) {
            if index > 0 { out.append(newline) }
            out.append(contentsOf: bytes[range])
        }
        while index < lines.count {
            let line = bytes[lines[index]]
            if let marker = fenceMarker(line) {
                if fence == nil { fence = marker } else if line.drop(while: { $0 == space }).starts(with: fence!) { fence = nil }
                copy(lines[index])
                index += 1
                continue
            }
            guard fence == nil, line.first == bar, index + 1 < lines.count,
                  let header = cells(line), let alignments = delimiter(bytes[lines[index + 1]]), alignments.count == header.count else {
                copy(lines[index])
                index += 1
                continue
            }
            var rows = [header]
            var end = index + 2
            while end < lines.count, bytes[lines[end]].first == bar, let row = cells(bytes[lines[end]]) {
                rows.append(row)
                end += 1
            }
            for (number, padded) in layout(rows, alignments: alignments).enumerated() {
                if index > 0 || number > 0 { out.append(newline) }
                out.append(contentsOf: padded)
            }
            tables.append(Table(rows: rows.count, columns: header.count, endLine: end))
            index = end
        }
        return (String(decoding: out, as: UTF8.self), tables)
    }

    public enum Alignment: Sendable { case none, left, right, center }

    static let bar = UInt8(ascii: "|"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), newline = UInt8(ascii: "\n")
    static let backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":"), dash = UInt8(ascii: "-")

    /// The lines of `bytes`, split on every `\n` (an empty last line when it ends with one).
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == newline {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<bytes.count)
        return ranges
    }

    /// The widest a column is padded to, in display columns. A cell wider than this stands as it is
    /// and the column is padded to its widest cell within the limit, so that one long value (a
    /// counterparty name of a megabyte) does not pad every other row of its table to its width:
    /// the padded file stays within a constant of the unpadded one.
    static let widestPaddedColumn = 80

    /// The rows (header first) and the delimiter row, padded, as lines of bytes.
    static func layout(_ rows: [[ArraySlice<UInt8>]], alignments: [Alignment]) -> [[UInt8]] {
        var widths = alignments.map { _ in 3 }
        let cellWidths = rows.map { row in row.map(displayWidth) }
        for row in cellWidths {
            for (column, width) in row.enumerated() {
                let padded = min(width, widestPaddedColumn)
                if column < widths.count { widths[column] = max(widths[column], padded) } else { widths.append(max(3, padded)) }
            }
        }
        func line(_ number: Int) -> [UInt8] {
            var line: [UInt8] = [bar, space]
            for (column, cell) in rows[number].enumerated() {
                if column > 0 { line += [space, bar, space] }
                let gap = max(0, widths[column] - cellWidths[number][column])
                switch column < alignments.count ? alignments[column] : .none {
                case .right:
                    line += repeatElement(space, count: gap)
                    line += cell
                case .center:
                    line += repeatElement(space, count: gap / 2)
                    line += cell
                    line += repeatElement(space, count: gap - gap / 2)
                case .none, .left:
                    line += cell
                    line += repeatElement(space, count: gap)
                }
            }
            return line + [space, bar]
        }
        var divider: [UInt8] = [bar]
        for (column, alignment) in alignments.enumerated() {
            let width = widths[column] + 2
            switch alignment {
            case .none: divider += repeatElement(dash, count: width)
            case .left: divider += [colon] + repeatElement(dash, count: width - 1)
            case .right: divider += repeatElement(dash, count: width - 1) + [colon]
            case .center: divider += [colon] + repeatElement(dash, count: width - 2) + [colon]
            }
            divider.append(bar)
        }
        return [line(0), divider] + rows.indices.dropFirst().map(line)
    }

    /// A row's cells, trimmed: split on every `|` that an odd run of backslashes does not escape.
    /// `nil` for a line that does not end a row with `|`. (Bytes, not characters: a `\\` after a
    /// prepended mark such as U+0603 is one `Character` with it, and would hide the escape.)
    static func cells(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        var line = line
        while let last = line.last, last == space || last == tab { line.removeLast() }
        guard line.count >= 2, line.first == bar, line.last == bar, !isEscaped(line, at: line.endIndex - 1) else { return nil }
        var result: [ArraySlice<UInt8>] = []
        var start = line.startIndex + 1
        for index in (line.startIndex + 1)..<(line.endIndex - 1) where line[index] == bar && !isEscaped(line, at: index) {
            result.append(trim(line[start..<index]))
            start = index + 1
        }
        result.append(trim(line[start..<(line.endIndex - 1)]))
        return result
    }

    /// ``cells(_:)`` of a line of text.
    static func cells(_ line: String) -> [String]? {
        cells(Array(line.utf8)[...])?.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the byte at `index` follows an odd run of backslashes.
    static func isEscaped(_ bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        var count = 0
        var position = index
        while position > bytes.startIndex, bytes[position - 1] == backslash {
            count += 1
            position -= 1
        }
        return count % 2 == 1
    }

    /// The cell without the spaces and tabs around it (which GFM does not show).
    static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank = { (byte: UInt8) in byte == space || byte == tab }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return [] }
        return bytes[first...last]
    }

    /// The alignments of a delimiter row (`|:--|--:|`), or `nil` for any other line.
    static func delimiter(_ line: ArraySlice<UInt8>) -> [Alignment]? {
        guard let parts = cells(line), !parts.isEmpty else { return nil }
        var alignments: [Alignment] = []
        for part in parts {
            let left = part.first == colon, right = part.last == colon
            let dashes = part.dropFirst(left ? 1 : 0).dropLast(right && part.count > 1 ? 1 : 0)
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == dash }) else { return nil }
            alignments.append(left && right ? .center : left ? .left : right ? .right : .none)
        }
        return alignments
    }

    /// ``delimiter(_:)`` of a line of text.
    static func delimiter(_ line: String) -> [Alignment]? { delimiter(Array(line.utf8)[...]) }

    /// The fence a line opens or closes (three or more backticks or tildes, indented at most three spaces).
    static func fenceMarker(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let rest = line.drop(while: { $0 == space })
        guard rest.startIndex - line.startIndex <= 3, let mark = rest.first,
              mark == UInt8(ascii: "`") || mark == UInt8(ascii: "~") else { return nil }
        let marker = rest.prefix(while: { $0 == mark })
        return marker.count >= 3 ? marker : nil
    }

    /// Terminal columns: 2 for an emoji shown as such (a flag, a pictograph, anything with the
    /// emoji variation selector) and for East Asian wide and full-width characters (CJK, kana,
    /// Hangul, full-width forms), 0 for a control character, 1 for everything else; per
    /// grapheme cluster, so combining marks and joiners add nothing.
    public static func displayWidth(_ text: String) -> Int { displayWidth(Array(text.utf8)[...]) }

    /// ``displayWidth(_:)`` of UTF-8 bytes. Text made only of characters below U+0300 (ASCII,
    /// Latin-1 and Latin Extended: `£`, `é`, `ł`) has no combining marks, joiners or wide
    /// characters, so each scalar is one grapheme and its width is 1, or 0 for a control character
    /// or the soft hyphen; anything else is counted per grapheme cluster.
    static func displayWidth(_ bytes: ArraySlice<UInt8>) -> Int {
        var width = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let lead = bytes[index]
            if lead < 0x80 {
                width += lead < 0x20 || lead == 0x7F ? 0 : 1
                index += 1
            } else if lead >= 0xC2, lead <= 0xCB, index + 1 < bytes.endIndex, bytes[index + 1] & 0xC0 == 0x80 {
                // Two bytes, below U+0300.
                let scalar = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                width += scalar < 0xA0 || scalar == 0xAD ? 0 : 1
                index += 2
            } else {
                return clusterWidth(String(decoding: bytes, as: UTF8.self))
            }
        }
        return width
    }

    static func clusterWidth(_ text: String) -> Int {
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
