/// Writing JSON text by hand, for output whose key order must be fixed (`--json`, synthetic data).
public enum JSONText {
    /// A JSON string literal. `canonical` writes it as RFC 8785 (JCS) does — `\b` and `\f` too,
    /// and U+2028 and U+2029 as they are — for text that is hashed (``StatementDigest``).
    public static func quote(_ text: String, canonical: Bool = false) -> String {
        var out = "\""
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
        return out + "\""
    }
}
