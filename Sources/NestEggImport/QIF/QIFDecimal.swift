// How a QIF amount is read: the core's decimal parser, and one quirk of French banks' exports.

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
}
