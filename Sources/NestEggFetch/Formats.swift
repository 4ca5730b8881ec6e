import Foundation
import NestEggModel

extension Instant {
    static var now: Instant { Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }

    /// `2026-11-21T06:00:00.000Z`: UTC, with milliseconds.
    var iso8601Milliseconds: String {
        let (days, rest) = millisecondsSinceEpoch.floorDivided(by: 86_400_000)
        let date = CivilDate(daysSinceEpoch: Int(days))
        let (hour, minute, second, millisecond) = (rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", date.year, date.month, date.day, hour, minute, second, millisecond)
    }

    func adding(milliseconds: Int64) -> Instant { Instant(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds) }

    static let day: Int64 = 86_400_000
}

extension Int64 {
    /// Quotient rounded down and a remainder that is never negative.
    func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

/// The bytes of one value in a JSON text, as they were written.
enum RawJSON {
    /// Where the value that starts at `start` ends (exclusive), in `bytes` that are valid JSON
    /// (the parser has read them already).
    static func end(ofValueAt start: Int, in bytes: [UInt8]) -> Int {
        var index = start
        var depth = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                    if depth < 0 { return index }
                case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                    if depth == 0 { return index }
                default: break
                }
            }
            index += 1
        }
        return bytes.count
    }

    /// A JSON value without the white space between its tokens (strings are kept as they are).
    static func compact(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
            result.append(byte)
        }
        return result
    }
}

/// A name from an API that becomes part of a URL path and a file name: letters, digits and
/// `-_` only (Starling's UIDs are UUIDs), so no answer can name a file outside its folder.
func isSafeUID(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 128 && text.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
    }
}
