// Exact sums of amounts for the split check, overflow reported rather than trapped.

enum QIFDecimal {
    /// The core's `DecimalAmount(parsing:decimal:grouping:)`, and one QIF quirk: Crédit Mutuel
    /// writes 100 to 999 with a grouping separator before them (`,300.00`, `-,109.59`), so one
    /// leading separator is read past when exactly three digits follow it.
    static func parse<S: StringProtocol>(_ text: S, decimal: Character, grouping: Character?) -> DecimalAmount? {
        var body = Substring(text)
        let sign = body.first == "-" || body.first == "+" ? String(body.removeFirst()) : ""
        if let grouping, body.first == grouping {
            let rest = body.dropFirst()
            let whole = rest.prefix { $0 != decimal }
            guard whole.count == 3, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            body = rest
        }
        return DecimalAmount(parsing: sign + body, decimal: decimal, grouping: grouping)
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
