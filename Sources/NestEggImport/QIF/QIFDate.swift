// The date forms QIF writers use. Quicken writes `1/ 5/98` (space padded, two-digit year),
// `1/ 5'04` or `01/05'2004` (an apostrophe before the year marks the 2000s), others write
// `01/05/2004`, `05.01.2004`, `2004-01-05` or `01-05-2004`. Which of the first two numbers is the
// month the file does not say: see `QIFOptions.DateOrder`.

/// A QIF date as written, before the day/month order is known.
struct QIFWrittenDate: Sendable, Hashable {
    /// `YYYY-MM-DD` (the year first): unambiguous.
    var yearFirst: Bool
    /// The first and second number as written (day and month in some order, or month and day
    /// after a leading year).
    var first: Int
    var second: Int
    /// The full year, two-digit years already widened.
    var year: Int

    /// Reads `text`; nil when it is none of the forms above.
    init?(_ text: String) {
        var numbers: [(value: Int, digits: Int)] = []
        var separators: [UInt8] = []
        var value = 0
        var digits = 0
        var expectingNumber = true
        func finishNumber() {
            numbers.append((value, digits))
            value = 0
            digits = 0
            expectingNumber = false
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard expectingNumber, digits < 4 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: " "):
                // Quicken pads with spaces (` 1/ 5' 4`); a space ends a number.
                if digits > 0 { finishNumber() }
            case UInt8(ascii: "/"), UInt8(ascii: "'"), UInt8(ascii: "."), UInt8(ascii: "-"):
                if digits > 0 { finishNumber() }
                guard !expectingNumber, separators.count < 2 else { return nil }
                separators.append(byte)
                expectingNumber = true
            default:
                return nil
            }
        }
        if digits > 0 { finishNumber() }
        guard numbers.count == 3, separators.count == 2, !expectingNumber else { return nil }
        let apostrophe = UInt8(ascii: "'")
        guard separators[0] != apostrophe else { return nil }
        if numbers[0].digits == 4 {
            guard separators[1] != apostrophe, numbers[1].digits <= 2, numbers[2].digits <= 2 else { return nil }
            yearFirst = true
            year = numbers[0].value
            first = numbers[1].value
            second = numbers[2].value
            return
        }
        guard numbers[0].digits <= 2, numbers[1].digits <= 2 else { return nil }
        let written = numbers[2]
        if written.digits == 4 {
            year = written.value
        } else if separators[1] == apostrophe {
            // `'04`, `' 4`: Quicken's mark of the years 2000 to 2099.
            year = 2000 + written.value
        } else if written.digits == 2 {
            year = written.value < 80 ? 2000 + written.value : 1900 + written.value
        } else {
            return nil
        }
        yearFirst = false
        first = numbers[0].value
        second = numbers[1].value
    }

    /// The calendar date with the given order; nil when it is no real date (`02/30/2024`).
    func date(dayFirst: Bool) -> ImportDate? {
        if yearFirst { return ImportDate(year: year, month: first, day: second) }
        return dayFirst ? ImportDate(year: year, month: second, day: first) : ImportDate(year: year, month: first, day: second)
    }
}
