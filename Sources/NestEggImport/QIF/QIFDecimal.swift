// Exact sums of amounts for the split check, overflow reported rather than trapped.

enum QIFDecimal {
    /// `DecimalAmount(parsing:decimal:grouping:)`, the same rules read on UTF-8 bytes: the core's
    /// parser goes Character by Character, several times slower. Text with a non-ASCII byte, or
    /// separators that are not ASCII, go to the core's parser.
    static func parse<S: StringProtocol>(_ text: S, decimal: Character, grouping: Character?) -> DecimalAmount? {
        guard let point = decimal.asciiValue, grouping.map({ $0.asciiValue != nil }) ?? true else {
            return DecimalAmount(parsing: text, decimal: decimal, grouping: grouping)
        }
        let group = grouping?.asciiValue
        var negative = false
        var significand: Int64 = 0
        var scale = 0
        var seenPoint = false
        var digits = 0
        var first = true
        // Crédit Mutuel writes 100 to 999 with a grouping separator before them (`,300.00`,
        // `-,109.59`): one leading separator is read past when exactly three digits follow it.
        var leadingGroup = false
        for byte in text.utf8 {
            if first {
                first = false
                if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                    negative = byte == UInt8(ascii: "-")
                    continue
                }
            }
            if byte >= 0x80 { return DecimalAmount(parsing: text, decimal: decimal, grouping: grouping) }
            if (48...57).contains(byte) {
                let (times, o1) = significand.multipliedReportingOverflow(by: 10)
                let (next, o2) = times.addingReportingOverflow(Int64(byte - 48))
                guard !o1, !o2, next <= DecimalAmount.maximumSignificand else { return nil }
                significand = next
                digits += 1
                if seenPoint {
                    scale += 1
                    guard scale <= 18 else { return nil }
                }
            } else if byte == point, !seenPoint {
                guard !leadingGroup || digits == 3 else { return nil }
                seenPoint = true
            } else if let group, byte == group, !seenPoint, digits > 0, !leadingGroup {
                continue
            } else if let group, byte == group, digits == 0, !seenPoint, !leadingGroup {
                leadingGroup = true
            } else {
                return nil
            }
        }
        guard digits > 0, !leadingGroup || (seenPoint ? true : digits == 3) else { return nil }
        return DecimalAmount(significand: negative ? -significand : significand, scale: scale)
    }

    /// `a + b` at the larger of the two scales; nil when it does not fit in Int64.
    static func sum(_ a: DecimalAmount, _ b: DecimalAmount) -> DecimalAmount? {
        guard let left = rescaled(a, to: max(a.scale, b.scale)), let right = rescaled(b, to: max(a.scale, b.scale)) else { return nil }
        let (total, overflow) = left.significand.addingReportingOverflow(right.significand)
        return overflow ? nil : DecimalAmount(significand: total, scale: left.scale)
    }

    /// Whether two amounts are the same number (`12.5` and `12.50` are).
    static func equal(_ a: DecimalAmount, _ b: DecimalAmount) -> Bool {
        guard let difference = sum(a, b.negated) else { return false }
        return difference.significand == 0
    }

    private static func rescaled(_ amount: DecimalAmount, to scale: Int) -> DecimalAmount? {
        var value = amount.significand
        var current = amount.scale
        while current < scale {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = next
            current += 1
        }
        return DecimalAmount(significand: value, scale: current)
    }
}
