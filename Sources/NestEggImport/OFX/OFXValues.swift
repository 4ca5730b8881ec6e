// The values of OFX elements: text with SGML/XML entities, amounts, and OFX dates.

enum OFXValues {
    /// The text of `bytes`, decoded by `decoder`, with the entities OFX writers use decoded:
    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and numeric ones (`&#233;`, `&#xE9;`). A `&` that
    /// starts none of these is kept as written (SGML files often carry a bare `AT&T`).
    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, decoder: OFXTextDecoder, decodeEntities: Bool = true) -> String {
        let text = decoder.decode(bytes)
        guard decodeEntities, bytes.contains(UInt8(ascii: "&")) else { return text }
        return Array(text.utf8).withUnsafeBufferPointer { replacingEntities($0[...]) }
    }

    private static func replacingEntities(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&"), let (scalar, after) = entity(in: bytes, at: index) {
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = after
            } else {
                result.append(byte)
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The character of the entity starting at `start` (`&`) and the index after its `;`.
    private static func entity(in bytes: Slice<UnsafeBufferPointer<UInt8>>, at start: Int) -> (Unicode.Scalar, Int)? {
        // The longest entity read is `&#x10FFFF;` (10 bytes).
        var end = start + 1
        while end < bytes.endIndex, end - start <= 10, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.endIndex, bytes[end] == UInt8(ascii: ";"), end > start + 1 else { return nil }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                scalar = nil
            }
        }
        guard let scalar, scalar.value != 0 else { return nil }
        return (scalar, end + 1)
    }

    /// An OFX amount: `-12.50`, `+3`, `.5`; with no `.` in it, a `,` is taken as the decimal
    /// separator (`-12,50`), as some European banks write. Exactly `DecimalAmount(parsing:)`'s
    /// reading; the common short shapes are read from the bytes directly, for speed.
    static func amount(_ text: String) -> DecimalAmount? {
        if let amount = simpleAmount(text) { return amount }
        if let amount = DecimalAmount(parsing: text) { return amount }
        if !text.contains("."), text.contains(",") { return DecimalAmount(parsing: text, decimal: ",") }
        return nil
    }

    /// `[+-]digits[.digits]` or `[+-].digits` with at most 17 digits (so below
    /// `DecimalAmount.maximumSignificand`, no overflow); `nil` for any other shape.
    static func simpleAmount(_ text: String) -> DecimalAmount? {
        var significand: Int64 = 0
        var scale = 0
        var digits = 0
        var negative = false
        var seenPoint = false
        var first = true
        for byte in text.utf8 {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= 17 else { return nil }
                significand = significand * 10 + Int64(byte - UInt8(ascii: "0"))
                if seenPoint { scale += 1 }
            case UInt8(ascii: "-") where first:
                negative = true
            case UInt8(ascii: "+") where first:
                break
            case UInt8(ascii: ".") where !seenPoint:
                seenPoint = true
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return DecimalAmount(significand: negative ? -significand : significand, scale: scale)
    }

    /// The day of an OFX date-time `YYYYMMDD[HHMMSS[.XXX]][[gmt offset[:tz name]]]`, as written
    /// (the time and zone are checked for shape, not applied: the bank's day is the day).
    static func date(_ text: String) -> ImportDate? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 8, bytes[0..<8].allSatisfy(isDigit), let day = ImportDate(iso: text) else { return nil }
        var index = 8
        var timeDigits = 0
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
            timeDigits += 1
        }
        guard timeDigits <= 6 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            guard timeDigits > 0 else { return nil }
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "[") {
            // `[-5:EST]`, `[+1]`, `[0:GMT]`: a signed offset, then optionally `:` and a zone name.
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")), close == bytes.count - 1 else { return nil }
            let zone = bytes[(index + 1)..<close]
            guard zone.allSatisfy({ isDigit($0) || isLetter($0) || "+-.:_".utf8.contains($0) }),
                  zone.contains(where: isDigit) else { return nil }
            index = close + 1
        }
        return index == bytes.count ? day : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}

/// Decodes element values from the file's character set with `ImportText.decode`, byte by byte
/// through a table for the single-byte sets (Windows-1252, Latin-1), so that a file of many
/// values is not decoded value by value through `String`'s scalar-by-scalar appending.
struct OFXTextDecoder {
    /// What `charset` is passed to `ImportText.decode` as.
    let charset: String?
    /// For a single-byte set, the UTF-8 of each byte from 0x80 (as `ImportText.decode` reads it).
    private let high: [[UInt8]]?

    init(charset: String) {
        switch OFXParser.singleByteSet(charset) {
        case .windows1252?:
            self.charset = charset
            self.high = Self.windows1252
        case .latin1?:
            self.charset = charset
            self.high = Self.latin1
        case nil:
            // UTF-8 when valid, else Windows-1252: what `ImportText.decode` makes of UTF-8 and of
            // names it does not know.
            self.charset = nil
            self.high = nil
        }
    }

    private static let windows1252 = table("1252")
    private static let latin1 = table("ISO-8859-1")

    private static func table(_ charset: String) -> [[UInt8]] {
        (0x80...0xFF).map { Array(ImportText.decode([UInt8($0)], charset: charset).utf8) }
    }

    func decode(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
        guard let high else { return ImportText.decode(Array(bytes), charset: charset) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            if byte < 0x80 { utf8.append(byte) } else { utf8.append(contentsOf: high[Int(byte) - 0x80]) }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
