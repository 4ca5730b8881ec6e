// RFC 4180 records read from UTF-8 bytes: fields split at the delimiter, `"…"` quoting with `""`
// for a quote inside, line ends (CRLF, LF or CR) inside quotes kept as text. Delimiter, quote and
// line ends are ASCII, and UTF-8 never has an ASCII byte inside a character, so splitting bytes
// is safe; a field becomes a String only when it is read.

/// One field of a record: where its text is in the bytes.
struct CSVField: Sendable {
    var range: Range<Int>
    /// Quoted with `""` inside, to be unescaped when read.
    var hasEscapedQuotes: Bool
}

/// One record: its fields and the line it starts on.
struct CSVRecord: Sendable {
    var line: Int
    var fields: [CSVField]
}

struct CSVRecordReader {
    static let quote = UInt8(ascii: "\"")
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D

    let bytes: [UInt8]
    let delimiter: UInt8
    private(set) var position = 0
    /// The 1-based line the reader is on.
    private(set) var line = 1

    init(bytes: [UInt8], delimiter: UInt8, position: Int = 0, line: Int = 1) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.position = position
        self.line = line
    }

    /// Skips `count` physical lines (no quoting: a preamble before the header).
    mutating func skipLines(_ count: Int) {
        var skipped = 0
        while skipped < count, position < bytes.count {
            while position < bytes.count, bytes[position] != Self.lineFeed, bytes[position] != Self.carriageReturn { position += 1 }
            consumeLineEnd()
            skipped += 1
        }
    }

    /// The next record that is not a blank line; nil at the end of the bytes.
    mutating func next() throws(ImportProblem) -> CSVRecord? {
        while position < bytes.count {
            if bytes[position] == Self.lineFeed || bytes[position] == Self.carriageReturn {
                consumeLineEnd() // a blank line
                continue
            }
            let start = line
            var fields: [CSVField] = []
            while true {
                fields.append(try field())
                guard position < bytes.count else { break }
                if bytes[position] == delimiter {
                    position += 1 // a delimiter last in the file leaves an empty field, read next
                    continue
                }
                consumeLineEnd()
                break
            }
            return CSVRecord(line: start, fields: fields)
        }
        return nil
    }

    /// The text of a field, `""` unescaped, surrounding spaces and tabs kept (see `CSVImportParser`).
    func text(_ field: CSVField) -> String {
        let slice = bytes[field.range]
        guard field.hasEscapedQuotes else { return String(decoding: slice, as: UTF8.self) }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(slice.count)
        var index = slice.startIndex
        while index < slice.endIndex {
            unescaped.append(slice[index])
            index += (slice[index] == Self.quote && index + 1 < slice.endIndex && slice[index + 1] == Self.quote) ? 2 : 1
        }
        return String(decoding: unescaped, as: UTF8.self)
    }

    /// The field's text without whitespace at either end (spaces, tabs, line ends, no-break
    /// spaces, a byte-order mark), trimmed on bytes where it can: most cells are ASCII.
    func trimmedText(_ field: CSVField) -> String {
        guard !field.hasEscapedQuotes else { return String(text(field).csvTrimmed) }
        var start = field.range.lowerBound
        var end = field.range.upperBound
        while start < end {
            let byte = bytes[start]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                start += 1
            } else if byte == 0xC2, start + 1 < end, bytes[start + 1] == 0xA0 {
                start += 2
            } else if byte == 0xEF, start + 2 < end, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF {
                start += 3
            } else {
                break
            }
        }
        while end > start {
            let byte = bytes[end - 1]
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                end -= 1
            } else if byte == 0xA0, end - 2 >= start, bytes[end - 2] == 0xC2 {
                end -= 2
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        // Other Unicode spaces at an end (rare): trimmed the slow way.
        if start < end, bytes[start] >= 0x80 || bytes[end - 1] >= 0x80 { return String(text.csvTrimmed) }
        return text
    }

    private mutating func field() throws(ImportProblem) -> CSVField {
        let count = bytes.count
        // Spaces before an opening quote (`a, "b"`) are allowed, as many writers put them.
        var look = position
        while look < count, bytes[look] == 0x20, delimiter != 0x20 { look += 1 }
        guard look < count, bytes[look] == Self.quote else {
            let start = position
            while position < count, bytes[position] != delimiter, bytes[position] != Self.lineFeed,
                  bytes[position] != Self.carriageReturn { position += 1 }
            return CSVField(range: start..<position, hasEscapedQuotes: false)
        }
        let openingLine = line
        position = look + 1
        let start = position
        var escaped = false
        while true {
            guard position < count else {
                throw ImportProblem(line: openingLine,
                                    "a quoted field opened on this line is never closed; expected a closing \" before the end of the file")
            }
            let byte = bytes[position]
            if byte == Self.quote {
                if position + 1 < count, bytes[position + 1] == Self.quote {
                    escaped = true
                    position += 2
                    continue
                }
                break
            }
            if byte == Self.lineFeed || byte == Self.carriageReturn {
                consumeLineEnd()
            } else {
                position += 1
            }
        }
        let end = position
        position += 1
        while position < count, bytes[position] == 0x20, delimiter != 0x20 { position += 1 }
        if position < count, bytes[position] != delimiter, bytes[position] != Self.lineFeed, bytes[position] != Self.carriageReturn {
            throw ImportProblem(line: line, "text follows the closing quote of a quoted field; expected the delimiter or the end of the line after it")
        }
        return CSVField(range: start..<end, hasEscapedQuotes: escaped)
    }

    /// Steps over one CRLF, LF or CR and counts the line.
    private mutating func consumeLineEnd() {
        guard position < bytes.count else { return }
        if bytes[position] == Self.carriageReturn, position + 1 < bytes.count, bytes[position + 1] == Self.lineFeed {
            position += 2
        } else {
            position += 1
        }
        line += 1
    }
}
