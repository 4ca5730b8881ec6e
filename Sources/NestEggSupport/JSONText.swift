/// Writing JSON text by hand, for output whose key order must be fixed (`--json`, synthetic data).
public enum JSONText {
    /// A JSON string literal. `canonical` writes it as RFC 8785 (JCS) does — `\b` and `\f` too,
    /// and U+2028 and U+2029 as they are — for text that is hashed (``StatementDigest``).
    public static func quote(_ text: String, canonical: Bool = false) -> String {
        var out = ""
        append(text, canonical: canonical, to: &out)
        return out
    }

    /// ``quote(_:canonical:)`` appended to `out`. Text with nothing to escape (most of it) is
    /// copied whole, found by one pass over its bytes.
    public static func append(_ text: String, canonical: Bool = false, to out: inout String) {
        // Below 0x20, `"` and `\` need escaping; 0xE2 starts U+2028 and U+2029 (and others, which
        // then take the slower path that looks at scalars).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && (canonical || $0 != 0xE2) }) {
            out += "\""
            out += text
            out += "\""
            return
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}" where canonical: out += "\\b"
            case "\u{0C}" where canonical: out += "\\f"
            case let s where s.value < 0x20 || (!canonical && (s.value == 0x2028 || s.value == 0x2029)):
                out += "\\u" + String(s.value, radix: 16).leftPadded(to: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
