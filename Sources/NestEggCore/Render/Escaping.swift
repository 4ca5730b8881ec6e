/// Escaping for each context a string from data can land in. Templates never see raw data:
/// `{{name}}` in a `.md.mustache` template is Markdown-escaped, in `layout.html.mustache`
/// HTML-escaped; URLs pass through ``SafeURL`` first.
public enum Escape {
    /// Text that Markdown must show literally: every character that could start emphasis,
    /// a link, raw HTML, an entity, a table cell or a block is backslash-escaped, line breaks
    /// become spaces (so a value stays inside its table cell or sentence), leading white space
    /// is dropped (four spaces would start a code block), and web addresses are broken up for
    /// GitHub's autolinker (`https\://`, `www\.`), so no value from data becomes a link.
    ///
    /// `lineStart` says whether the value may begin a line (it does, as a template cell or
    /// sentence); a piece of text that continues a line already begun passes `false`.
    public static func markdown(_ text: String, lineStart: Bool = true) -> String {
        isPlainMarkdown(text, lineStart: lineStart) ? text : escapedMarkdown(text, lineStart: lineStart)
    }

    /// ``markdown(_:lineStart:)`` the long way, byte by byte (a test holds the short way to it).
    static func escapedMarkdown(_ text: String, lineStart: Bool) -> String {
        // Every character that matters is ASCII, so this works on UTF-8 bytes (multi-byte
        // characters pass through untouched, except the Unicode line and paragraph separators).
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var atStart = lineStart
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09:
                if !atStart && (byte == 0x20 || out.last != 0x20) { out.append(0x20) }
                index += 1
                continue
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                if !atStart && out.last != 0x20 { out.append(0x20) }
                index += 3
                continue
            case UInt8(ascii: ":") where index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/"):
                out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case UInt8(ascii: ".") where out.count >= 3 && out.suffix(3).allSatisfy({ $0 | 0x20 == UInt8(ascii: "w") }):
                out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"),
                 UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "|"), UInt8(ascii: "&"), UInt8(ascii: "~"), UInt8(ascii: "!"),
                 UInt8(ascii: "{"), UInt8(ascii: "}"):
                out.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case let mark where atStart && (mark == UInt8(ascii: "#") || mark == UInt8(ascii: "-") || mark == UInt8(ascii: "+") || mark == UInt8(ascii: "=")):
                // At the start of a line these begin a heading, list, rule or setext underline —
                // but only when a space or the end follows, or the value is nothing but them.
                let rest = bytes[(index + 1)...]
                if rest.isEmpty || rest.first == 0x20 || rest.allSatisfy({ $0 == mark || $0 == 0x20 }) {
                    out.append(UInt8(ascii: "\\"))
                }
                out.append(mark)
            case UInt8(ascii: "0")...UInt8(ascii: "9") where atStart:
                // "1. " or "1) " at the start of a line would begin an ordered list.
                var end = index
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9") { end += 1 }
                out.append(contentsOf: bytes[index..<end])
                if end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: ")"),
                   end + 1 == bytes.count || bytes[end + 1] == 0x20 {
                    out.append(UInt8(ascii: "\\"))
                }
                index = end
                atStart = false
                continue
            default:
                if byte < 0x20 || byte == 0x7F { index += 1; continue }
                out.append(byte)
            }
            atStart = false
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes that ``html(_:)`` changes or may change (0xE2 starts the line separators).
    private static let htmlSpecial = byteTable(marking: "&<>\"'")

    /// Bytes that can never pass through Markdown as they are (or may not, depending on what is
    /// around them: `:` of `://`, `.` of `www.`, the line separators' first byte 0xE2): every
    /// escaped ASCII character, white space but the plain space, and control characters.
    private static let markdownSpecial = byteTable(marking: "\\`*_[]<>|&~!{}:.")

    /// A table of 256 flags: set for the bytes of `characters`, control characters and 0xE2.
    private static func byteTable(marking characters: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in 0..<0x20 { table[byte] = true }
        table[0x7F] = true
        table[0xE2] = true
        for byte in characters.utf8 { table[Int(byte)] = true }
        return table
    }

    /// Whether ``markdown(_:lineStart:)`` would return `text` unchanged, found without building
    /// anything: most values (amounts, dates, names) have nothing to escape.
    static func isPlainMarkdown(_ text: String, lineStart: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first else { return true }
            if lineStart && (first == 0x20 || first == UInt8(ascii: "#") || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: "=") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))) { return false }
            for index in bytes.indices where markdownSpecial[Int(bytes[index])] {
                // `.`, `:` and 0xE2 matter only in company; anything else takes the full path.
                switch bytes[index] {
                case UInt8(ascii: "."):
                    if index >= 3 && bytes[index - 3] | 0x20 == UInt8(ascii: "w") && bytes[index - 2] | 0x20 == UInt8(ascii: "w")
                        && bytes[index - 1] | 0x20 == UInt8(ascii: "w") { return false }
                case UInt8(ascii: ":"):
                    if index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") { return false }
                case 0xE2:
                    if index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) { return false }
                default:
                    return false
                }
            }
            return true
        }
    }

    /// Text for HTML element content and quoted attribute values — also inside raw HTML that
    /// a Markdown template writes, which is why line breaks become spaces: a blank line would end
    /// cmark's HTML block and let the rest of the value be read as Markdown.
    public static func html(_ text: String) -> String {
        // Most values have nothing to escape: returned as they are.
        text.utf8.contains(where: { htmlSpecial[Int($0)] }) ? escapedHTML(text) : text
    }

    /// ``html(_:)`` the long way, scalar by scalar.
    static func escapedHTML(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t", "\u{2028}", "\u{2029}": result += " "
            case let control where control.value < 0x20 || control.value == 0x7F: continue
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A URL that is safe to link to: `http` or `https` only, with characters that could end
/// the URL in Markdown or HTML percent-encoded.
public struct SafeURL: Sendable, Hashable, CustomStringConvertible, Encodable {
    public let description: String

    public init?(_ text: String) {
        let trimmed = Text.trimmed(text)
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), trimmed.count > 8 else { return nil }
        var encoded = ""
        for byte in trimmed.utf8 {
            switch byte {
            case 0x26:
                // `&amp;` is right in both places a URL lands: cmark decodes it in a Markdown link,
                // and in an HTML attribute it is the escaped form.
                encoded += "&amp;"
            case 0x21, 0x23...0x25, 0x27, 0x2A...0x3B, 0x3D, 0x3F...0x5A, 0x5F, 0x61...0x7A, 0x7E:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        description = encoded
    }

    /// A template sees the URL's text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
