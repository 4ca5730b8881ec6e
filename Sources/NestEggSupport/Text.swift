import Foundation

/// Small text helpers shared by every stage.
public enum Text {
    /// Whether `a` comes before `b`: in the order of `<` on strings, and, for two texts `<` takes
    /// for equal (canonically equivalent spellings, `é` composed or not), in the order of their
    /// UTF-8 bytes. A total order on texts: an order that must not depend on which of two
    /// spellings came first uses it.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a != b ? a < b : a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The text a value shows once it is on a page: control characters removed, each run of white
    /// space with a tab or a line break in it one space, white space at the ends trimmed.
    public static func normalised(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in normalisedBytes(bytes).map { String(decoding: $0, as: UTF8.self) } } ?? text
    }

    /// The normal form of UTF-8 `bytes`, or nil when they are normal already (most values).
    public static func normalisedBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard needsNormalising(bytes) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var kept = 0          // where the text ends if what follows is white space
        var spaces = 0        // a run of white space waiting for the next character
        var breaking = false  // …that holds a tab or a line break
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if isBreakingSpace(scalar) {
                breaking = true
            } else if scalar == " " {
                spaces += 1
            } else if !isControl(scalar) {  // (control characters are removed; a run goes on across one)
                let whitespace = scalar.value >= 0x80 && scalar.properties.isWhitespace
                if out.isEmpty && whitespace { spaces = 0; breaking = false; continue }  // leading white space goes
                if !out.isEmpty { for _ in 0..<(breaking ? 1 : spaces) { out.append(UInt8(ascii: " ")) } }
                spaces = 0
                breaking = false
                if scalar.isASCII { out.append(UInt8(scalar.value)) } else { UTF8.encode(scalar) { out.append($0) } }
                if !whitespace { kept = out.count }
            }
        }
        out.removeSubrange(kept...)  // and so does trailing white space (U+00A0 and kin too)
        return out
    }

    /// Tab, the line breaks and the Unicode line and paragraph separators: white space that
    /// normalisation turns into a space.
    public static func isBreakingSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }


    /// Whether `bytes` hold anything normalisation changes, found without decoding most of them:
    /// a control byte, a C1 control, U+2028/U+2029 or a bidirectional control (two- and three-byte
    /// forms), or white space at either end.
    public static func needsNormalising(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == 0x20 || last == 0x20 { return true }
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return true }
            if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 { return true }
            if byte == 0xE2, index + 2 < bytes.count {
                // U+2028, U+2029 and the bidirectional controls U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
                let second = bytes[index + 1], third = bytes[index + 2]
                if second == 0x80 && (third == 0xA8 || third == 0xA9 || third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third)) {
                    return true
                }
                if second == 0x81 && (0xA6...0xA9).contains(third) { return true }
            }
            if byte == 0xD8, index + 1 < bytes.count, bytes[index + 1] == 0x9C { return true }  // U+061C
        }
        // A multi-byte scalar at an end may be white space (U+00A0, U+2003, U+3000…).
        if first >= 0x80 || last >= 0x80 {
            let text = String(decoding: bytes, as: UTF8.self).unicodeScalars
            if text.first!.properties.isWhitespace || text.last!.properties.isWhitespace { return true }
        }
        return false
    }

    /// Whether `text`, normalised, is an `http` or `https` address (the only links data may give).
    public static func isWebAddress(_ text: String) -> Bool {
        let lower = normalised(text).lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && lower.count > 8
    }

    /// Removes white space and newlines at both ends (Starling pads references, Kiva pads `use`).
    public static func trimmed(_ text: String) -> String {
        // Most values need nothing done: check the ends' bytes first (white space is ASCII or,
        // beyond it, a multi-byte scalar that the slow path handles).
        if let first = text.utf8.first, let last = text.utf8.last,
           first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80 {
            return text
        }
        if text.isEmpty { return text }
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// A control character: C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F) or a bidirectional
    /// formatting character (``isBidiControl(_:)``). What the escapers remove from data and
    /// diagnostics show as `\u{…}`.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar)
    }

    /// The characters that change the order in which text around them is shown: the embeddings and
    /// overrides (U+202A–U+202E), the isolates (U+2066–U+2069), the marks (U+200E, U+200F, U+061C).
    /// Kept in data, one of them turns "£5,636.20" into ".20.635,5£" on the screen: a spoofing
    /// tool on a statement (the "Trojan source" class), so data never keeps one.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` without its bidirectional controls (for formats that keep data's white space as it
    /// is, where ``normalised(_:)`` would collapse it: a CSV cell).
    public static func withoutBidiControls(_ text: String) -> String {
        // Each control's UTF-8 starts with 0xD8 (U+061C) or 0xE2 (the others): most text has neither byte.
        guard text.utf8.contains(where: { $0 == 0xD8 || $0 == 0xE2 }),
              text.unicodeScalars.contains(where: isBidiControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isBidiControl($0) }))
    }

    /// Whether `scalar` is written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and the
    /// other scripts of Unicode's right-to-left blocks, with their presentation forms). A value
    /// holding one is shown inside an isolate (``isolatedIfRightToLeft(_:)``), so that it cannot
    /// move the figures and punctuation beside it.
    public static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// Whether UTF-8 `bytes` hold a right-to-left character (``isRightToLeft(_:)``): those are
    /// written with a lead byte of 0xD6 or more, which most values have none of.
    public static func hasRightToLeft(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains(where: { $0 >= 0xD6 }) && String(decoding: bytes, as: UTF8.self).unicodeScalars.contains(where: isRightToLeft)
    }

    /// First strong isolate (U+2068) and pop directional isolate (U+2069): text between them is
    /// laid out on its own, its direction taken from its first strong character, and the text
    /// around it is laid out as if the isolate were one neutral character. Only nestegg writes
    /// them (data's own are removed), always as a pair.
    public static let firstStrongIsolate: Unicode.Scalar = "\u{2068}"
    public static let popDirectionalIsolate: Unicode.Scalar = "\u{2069}"

    /// `text` (escaped already) with its right-to-left part isolated — from its first right-to-left
    /// character to its last — when `normal`, the value it was made from, holds one; otherwise `nil`
    /// (most values: Latin text needs none, and stays as it is). Only that span: a title such as
    /// "Statement for חשבון, 1–31 Oct 2026" keeps its period in order after the name, and nothing
    /// in the span can reorder the text before or after it. (Escaping adds only ASCII, and never
    /// right before a right-to-left character, so the span is the same in the escaped text.)
    public static func isolatedIfRightToLeft(_ text: String, from normal: UnsafeBufferPointer<UInt8>) -> String? {
        guard hasRightToLeft(normal) else { return nil }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: isRightToLeft), let last = scalars.lastIndex(where: isRightToLeft) else { return nil }
        var isolated = String.UnicodeScalarView()
        isolated.append(contentsOf: scalars[..<first])
        isolated.append(firstStrongIsolate)
        isolated.append(contentsOf: scalars[first...last])
        isolated.append(popDirectionalIsolate)
        isolated.append(contentsOf: scalars[scalars.index(after: last)...])
        return String(isolated)
    }

    /// The key names are grouped by where two spellings are one thing: spending categories (the
    /// spending pages, cash flow, budgets: ``NestEggReport/TransactionsRules/categoryKey(_:)``) and
    /// counterparties (the payees pages). `EATING_OUT`, `Eating  out` and `eating out` all give
    /// `eating out`: underscores are spaces, white space is collapsed, case is folded. It is in
    /// Unicode's composed form (NFC), so that two spellings of one letter are one key byte for byte,
    /// not only for Swift's string comparison.
    public static func groupingKey(_ name: String) -> String {
        // ASCII names (most) on bytes: `_` is a space, white space runs collapse, capitals go
        // lower case; canonical composition leaves ASCII as it is.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(name.utf8.count)
            var pendingSpace = false
            for byte in name.utf8 {
                if byte == 0x20 || byte == UInt8(ascii: "_") || (byte >= 0x09 && byte <= 0x0D) {
                    pendingSpace = !bytes.isEmpty
                } else {
                    if pendingSpace { bytes.append(0x20) }
                    pendingSpace = false
                    bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return singleLine(name.replacingOccurrences(of: "_", with: " ")).lowercased().precomposedStringWithCanonicalMapping
    }

    /// An API code in sentence case: `PRIMARY` → `Primary`, `FIXED_TERM_DEPOSIT` → `Fixed term deposit`,
    /// `in_repayment` → `In repayment`.
    public static func humanized(_ code: String) -> String {
        let words = singleLine(code.replacingOccurrences(of: "_", with: " ")).lowercased()
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// Collapses runs of white space (including newlines) into single spaces and trims.
    public static func singleLine(_ text: String) -> String {
        // ASCII text (most names and references) is done on bytes: its white space is
        // U+0009…U+000D and the space, exactly what `isWhitespace` says of ASCII.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for byte in text.utf8 {
                if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                    pendingSpace = !bytes.isEmpty
                } else {
                    if pendingSpace { bytes.append(0x20) }
                    pendingSpace = false
                    bytes.append(byte)
                }
            }
            return bytes.count == text.utf8.count ? text : String(decoding: bytes, as: UTF8.self)
        }
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The name among `known` nearest to `name` by spelling (edit distance, ignoring case), if it is
    /// near enough to be a slip: at most 2 edits, or a third of the name's length. For "did you mean …?".
    public static func closest(to name: String, among known: [String]) -> String? {
        let scored = known.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    /// How many characters must be inserted, deleted or replaced to turn `a` into `b` (Levenshtein),
    /// by rows of the table: `previous[j]` is the distance from `a`'s first `i` characters to `b`'s first `j`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Searching byte arrays, for the renderer's passes over its own HTML (faster than Foundation's
/// `range(of:)`, which goes through NSString).
public enum Bytes {
    /// The first index at or after `from` where `pattern` starts in `bytes`.
    public static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        return bytes.withUnsafeBufferPointer { bytes in
            var index = from
            let last = bytes.count - pattern.count
            while index <= last {
                if bytes[index] == first && memcmp(bytes.baseAddress! + index, pattern, pattern.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }
}

extension Text {
    /// Bytes as lower-case hexadecimal digits, two a byte: how every digest (SHA-256) is written.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    /// `"7".leftPadded(to: 3)` → `"007"`.
    public func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
