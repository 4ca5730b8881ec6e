/// A record as one line of tab-separated fields, any text included: a backslash, a tab and a line
/// break in a field are escaped (`\\`, `\t`, `\n`, `\r`), so a field read back is the field written.
/// The records a sharded build's steps hand each other (its parts and its census) are such lines.
public enum FieldLine {
    public static func join(_ fields: [String]) -> String {
        fields.map(escaped).joined(separator: "\t")
    }

    /// The fields of a line ``join(_:)`` wrote.
    public static func split(_ line: Substring) -> [String] {
        fields(line).map { unescaped($0) }
    }

    /// The fields of a line as they stand in it (still escaped), split at each tab byte. The same
    /// fields as splitting its Characters at `"\t"` (a tab is a grapheme of its own), without
    /// working out where each Character ends: a census holds a million rows, and that costs more
    /// time than the rest of reading them.
    public static func fields(_ line: Substring, maxSplits: Int = .max) -> [Substring] {
        // The tabs are found in the line's bytes in place (a share reads a million rows: the
        // generic split of the UTF-8 view costs a third of the time of merging them), and each
        // field is cut as its tab is found, at its offset, which a native string's UTF-8 view
        // reaches at once.
        var copy = line
        let utf8 = line.utf8
        var fields: [Substring] = []
        fields.reserveCapacity(16)
        var start = utf8.startIndex, startOffset = 0
        copy.withUTF8 { bytes in
            var offset = 0
            while fields.count < maxSplits, offset < bytes.count {
                if bytes[offset] == UInt8(ascii: "\t") {
                    let end = utf8.index(start, offsetBy: offset - startOffset)
                    fields.append(Substring(utf8[start..<end]))
                    start = utf8.index(after: end)
                    startOffset = offset + 1
                }
                offset += 1
            }
        }
        fields.append(Substring(utf8[start...]))
        return fields
    }

    /// How many bytes ``escaped(_:)`` makes of `field`: one more for each byte it escapes.
    public static func escapedCount(_ field: String) -> Int {
        field.utf8.reduce(0) { count, byte in count + (isEscaped(byte) ? 2 : 1) }
    }

    /// The bytes ``escaped(_:)`` writes as two: a backslash, a tab and the line breaks.
    static func isEscaped(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    public static func escaped(_ field: String) -> String {
        guard field.utf8.contains(where: isEscaped) else { return field }
        var out = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func unescaped(_ field: Substring) -> String {
        guard field.utf8.contains(UInt8(ascii: "\\")) else { return String(field) }
        var out = ""
        var escaping = false
        for scalar in field.unicodeScalars {
            if escaping {
                switch scalar {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
