// Dates as a mapping's `dateFormat` describes them (`DD/MM/YYYY`, `D MMM YYYY`, `YYYYMMDD`).

/// A compiled `CSVMapping.dateFormat`.
struct CSVDateFormat: Sendable {
    enum Token: Sendable, Equatable {
        case year4, year2, monthName, month, day
        case literal(UInt8)
    }

    let tokens: [Token]
    let text: String

    static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// nil when the format lacks a year, a month or a day, or has one twice.
    init?(_ format: String) {
        var tokens: [Token] = []
        let bytes = Array(format.utf8)
        var index = 0
        func starts(with word: String) -> Bool {
            let word = Array(word.utf8)
            return index + word.count <= bytes.count && Array(bytes[index..<(index + word.count)]) == word
        }
        let patterns: [(String, Token)] = [("YYYY", .year4), ("YY", .year2), ("MMM", .monthName), ("MM", .month), ("M", .month),
                                           ("DD", .day), ("D", .day)]
        while index < bytes.count {
            if let (word, token) = patterns.first(where: { starts(with: $0.0) }) {
                tokens.append(token)
                index += word.utf8.count
            } else if bytes[index] == UInt8(ascii: "Y") {
                return nil // a lone Y is no year
            } else {
                tokens.append(.literal(bytes[index]))
                index += 1
            }
        }
        let years = tokens.filter { $0 == .year4 || $0 == .year2 }.count
        let months = tokens.filter { $0 == .month || $0 == .monthName }.count
        let days = tokens.filter { $0 == .day }.count
        guard years == 1, months == 1, days == 1 else { return nil }
        self.tokens = tokens
        self.text = format
    }

    /// The date `cell` (trimmed) writes; nil when it does not follow the format or is no real date.
    func date(_ cell: Substring) -> ImportDate? {
        let bytes = Array(cell.utf8)
        var index = 0
        var year = 0, month = 0, day = 0
        func digits(min: Int, max: Int) -> Int? {
            var value = 0
            var count = 0
            while count < max, index < bytes.count, (48...57).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
                count += 1
            }
            return count >= min ? value : nil
        }
        for token in tokens {
            switch token {
            case .year4:
                guard let value = digits(min: 4, max: 4) else { return nil }
                year = value
            case .year2:
                guard let value = digits(min: 2, max: 2) else { return nil }
                year = value < 80 ? 2000 + value : 1900 + value
            case .month:
                guard let value = digits(min: 1, max: 2) else { return nil }
                month = value
            case .day:
                guard let value = digits(min: 1, max: 2) else { return nil }
                day = value
            case .monthName:
                let start = index
                while index < bytes.count, (65...90).contains(bytes[index]) || (97...122).contains(bytes[index]) { index += 1 }
                let name = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
                guard name.count >= 3,
                      let number = Self.monthNames.firstIndex(where: { $0 == name || $0.prefix(3) == name || (name == "sept" && $0 == "september") })
                else { return nil }
                month = number + 1
            case .literal(let byte):
                guard index < bytes.count, bytes[index] == byte else { return nil }
                index += 1
                if byte == 0x20 { while index < bytes.count, bytes[index] == 0x20 { index += 1 } }
            }
        }
        // A time may follow: `2024-01-31 14:05`, `2024-01-31T14:05:00Z`.
        if index < bytes.count, bytes[index] != 0x20, bytes[index] != UInt8(ascii: "T") { return nil }
        return ImportDate(year: year, month: month, day: day)
    }
}
