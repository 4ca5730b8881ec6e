import Foundation

/// Small text helpers shared by every stage.
public enum Text {
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

    /// A control character: C0 (U+0000–U+001F), DEL or C1 (U+0080–U+009F). What the escapers
    /// remove from data and diagnostics show as `\u{…}`.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// An API code in sentence case: `PRIMARY` → `Primary`, `FIXED_TERM_DEPOSIT` → `Fixed term deposit`,
    /// `in_repayment` → `In repayment`.
    public static func humanized(_ code: String) -> String {
        let words = singleLine(code.replacingOccurrences(of: "_", with: " ")).lowercased()
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// Collapses runs of white space (including newlines) into single spaces and trims.
    public static func singleLine(_ text: String) -> String {
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
}

/// Searching byte arrays, for the renderer's passes over its own HTML (faster than Foundation's
/// `range(of:)`, which goes through NSString).
enum Bytes {
    /// The first index at or after `from` where `pattern` starts in `bytes`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
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
