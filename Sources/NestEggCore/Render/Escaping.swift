import Mustache

/// Escaping for each context a string from data can land in. Templates never see raw data:
/// `{{name}}` in a `.md.mustache` template is Markdown-escaped, in `layout.html.mustache`
/// HTML-escaped; URLs pass through ``SafeURL`` first.
public enum Escape {
    /// Text that Markdown must show literally: every character that could start emphasis,
    /// a link, raw HTML, an entity, a table cell or a block is backslash-escaped, and line
    /// breaks become spaces, so a value stays inside its table cell or sentence.
    public static func markdown(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var atStart = true
        var index = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            switch scalar {
            case "\n", "\r", "\t", "\u{2028}", "\u{2029}":
                if !result.hasSuffix(" ") && !atStart { result.append(" ") }
                index = next
                continue
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "&", "~", "!", "{", "}":
                result.append("\\")
                result.unicodeScalars.append(scalar)
            case let mark where atStart && (mark == "#" || mark == "-" || mark == "+" || mark == "="):
                // At the start of a line these begin a heading, list, rule or setext underline —
                // but only when a space or the end follows, or the value is nothing but them.
                let rest = scalars[next...]
                if rest.isEmpty || rest.first == " " || rest.allSatisfy({ $0 == mark || $0 == " " }) {
                    result.append("\\")
                }
                result.unicodeScalars.append(mark)
            case "0"..."9" where atStart:
                // "1. " or "1) " at the start of a line would begin an ordered list.
                var end = next
                while end < scalars.endIndex, ("0"..."9").contains(scalars[end]) { end = scalars.index(after: end) }
                result.unicodeScalars.append(contentsOf: scalars[index..<end])
                if end < scalars.endIndex, scalars[end] == "." || scalars[end] == ")" {
                    let after = scalars.index(after: end)
                    if after == scalars.endIndex || scalars[after] == " " { result.append("\\") }
                }
                index = end
                atStart = false
                continue
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { index = next; continue }
                result.unicodeScalars.append(scalar)
            }
            atStart = false
            index = next
        }
        return result
    }

    /// Text for HTML element content and quoted attribute values.
    public static func html(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
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

/// `{{value}}` in Markdown templates.
struct MarkdownContentType: MustacheContentType {
    func escapeText(_ text: String) -> String { Escape.markdown(text) }
}

/// `{{value}}` in HTML templates (our own escaping, which also covers `'`).
struct HTMLContentType: MustacheContentType {
    func escapeText(_ text: String) -> String { Escape.html(text) }
}

/// A URL that is safe to link to: `http` or `https` only, with characters that could end
/// the URL in Markdown or HTML percent-encoded.
public struct SafeURL: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init?(_ text: String) {
        let trimmed = Text.trimmed(text)
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), trimmed.count > 8 else { return nil }
        var encoded = ""
        for byte in trimmed.utf8 {
            switch byte {
            case 0x21, 0x23...0x27, 0x2A...0x3B, 0x3D, 0x3F...0x5A, 0x5F, 0x61...0x7A, 0x7E:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        description = encoded
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
