// Bank files come in the encodings banks write: UTF-8 with or without a byte-order mark, Latin-1
// (ISO 8859-1) and Windows-1252 (OFX's `CHARSET:1252`), with CRLF, LF or CR line ends.

public enum ImportText {
    /// The text of a file's bytes. A UTF-8 byte-order mark is dropped. `charset` is what the file
    /// declares (OFX `CHARSET`/`ENCODING`, an XML declaration's `encoding`), if anything: `1252`,
    /// `WINDOWS-1252`, `CP1252` → Windows-1252; `ISO-8859-1`, `LATIN1`, `8859-1` → Latin-1;
    /// anything else, or nothing, → UTF-8 when the bytes are valid UTF-8, else Windows-1252 (the
    /// encoding of every other byte sequence a bank writes; every byte maps to a character).
    public static func decode(_ bytes: [UInt8], charset: String? = nil) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let name = (charset ?? "").uppercased().filter { $0.isLetter || $0.isNumber }
        if name == "1252" || name == "WINDOWS1252" || name == "CP1252" || name == "MSANSI" {
            return windows1252(body)
        }
        if name == "88591" || name == "ISO88591" || name == "LATIN1" || name == "ISOLATIN1" || name == "L1" {
            return transcode(body) { UInt32($0) }
        }
        if let text = String(validating: body, as: UTF8.self) { return text }
        return windows1252(body)
    }

    /// The characters Windows-1252 has at 0x80–0x9F where Latin-1 has control characters
    /// (five codes unassigned: kept as the C1 control of the same number).
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    private static func windows1252(_ bytes: ArraySlice<UInt8>) -> String {
        transcode(bytes) { (0x80...0x9F).contains($0) ? high[Int($0) - 0x80] : UInt32($0) }
    }

    /// A one-byte encoding's text, each byte's code point given by `scalar` (all below U+10000),
    /// written out as UTF-8 at once (not a character at a time).
    private static func transcode(_ bytes: ArraySlice<UInt8>, _ scalar: (UInt8) -> UInt32) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 { utf8.append(byte); continue }
            let value = scalar(byte)
            if value < 0x800 {
                utf8.append(UInt8(0xC0 | (value >> 6)))
                utf8.append(UInt8(0x80 | (value & 0x3F)))
            } else {
                utf8.append(UInt8(0xE0 | (value >> 12)))
                utf8.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
                utf8.append(UInt8(0x80 | (value & 0x3F)))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The file's lines, CRLF, CR and LF all ending one, each with its 1-based number. A last
    /// line without an end counts; an empty text has no lines.
    public static func lines(_ text: String) -> [(number: Int, text: Substring)] {
        var result: [(Int, Substring)] = []
        var start = text.startIndex
        var index = start
        var number = 1
        // Characters, not scalars: "\r\n" is one Character in Swift.
        while index < text.endIndex {
            let character = text[index]
            if character == "\r\n" || character == "\n" || character == "\r" {
                result.append((number, text[start..<index]))
                number += 1
                index = text.index(after: index)
                start = index
            } else {
                index = text.index(after: index)
            }
        }
        if start < text.endIndex { result.append((number, text[start..<text.endIndex])) }
        return result
    }
}
