// Amount cells as banks write them: `-12.50`, `1,234.56`, `1.234,56`, `£12.50`, `-€5,00`,
// `12.50 EUR`, `(12.50)` for a negative, `12.50-` (a trailing minus), with spaces around.

enum CSVAmount {
    static let currencySymbols: Set<Character> = ["£", "€", "$", "¥"]
    static let minusSigns: Set<Character> = ["-", "\u{2212}"]

    /// The signed amount `cell` writes; nil when it is none.
    static func parse(_ cell: Substring, decimal: Character, grouping: Character?) -> DecimalAmount? {
        // Most cells are a plain signed decimal: read it without the Unicode-aware steps below.
        if let first = cell.utf8.first, (48...57).contains(first) || first == 45,
           cell.utf8.allSatisfy({ (48...57).contains($0) || $0 == 45 || $0 == 46 || $0 == 44 }),
           let amount = CSVDecimal.parse( cell, decimal: decimal, grouping: grouping) {
            return amount
        }
        var text = cell.csvTrimmed
        var negative = false
        if text.first == "(", text.last == ")" {
            negative = true
            text = text.dropFirst().dropLast().csvTrimmed
        }
        var sign: Character?
        func takeSign(_ character: Character?) -> Bool {
            guard sign == nil, let character, minusSigns.contains(character) || character == "+" else { return false }
            sign = character
            return true
        }
        // Before the number: a sign and a currency, in either order.
        for _ in 0..<2 {
            if takeSign(text.first) { text = text.dropFirst().csvTrimmed }
            if let rest = withoutCurrencyPrefix(text) { text = rest }
        }
        // After it: a currency, then perhaps a trailing sign (`12.50-`), in either order.
        for _ in 0..<2 {
            if let rest = withoutCurrencySuffix(text) { text = rest }
            if text.count > 1, takeSign(text.last) { text = text.dropLast().csvTrimmed }
        }
        guard let first = text.first, first.isASCII, first.isNumber || first == decimal,
              var amount = CSVDecimal.parse( text, decimal: decimal, grouping: grouping) else { return nil }
        if let sign, minusSigns.contains(sign) { amount = amount.negated }
        if negative {
            guard amount.significand >= 0 else { return nil } // `(-12.50)`: no meaning a bank gives
            amount = amount.negated
        }
        return amount
    }

    /// The text after a leading `£`, `€`, `$`, `¥` or three-letter code (`EUR 12.50`), trimmed.
    private static func withoutCurrencyPrefix(_ text: Substring) -> Substring? {
        if let first = text.first, currencySymbols.contains(first) { return text.dropFirst().csvTrimmed }
        let code = text.prefix(3)
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let rest = text.dropFirst(3)
        guard let next = rest.first, next == " " || next.isNumber || minusSigns.contains(next) || next == "+" else { return nil }
        return rest.csvTrimmed
    }

    private static func withoutCurrencySuffix(_ text: Substring) -> Substring? {
        if let last = text.last, currencySymbols.contains(last) { return text.dropLast().csvTrimmed }
        let code = text.suffix(3)
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let rest = text.dropLast(3)
        guard let before = rest.last, before == " " || before.isNumber else { return nil }
        return rest.csvTrimmed
    }

    /// The amount without its sign.
    static func magnitude(_ amount: DecimalAmount) -> DecimalAmount {
        amount.significand < 0 ? amount.negated : amount
    }
}

/// How a CSV cell's number is read once its currency sign and brackets are off.
enum CSVDecimal {
    /// The core's `DecimalAmount(parsing:decimal:grouping:)` (which reads bytes).
    static func parse<S: StringProtocol>(_ text: S, decimal: Character, grouping: Character?) -> DecimalAmount? {
        DecimalAmount(parsing: text, decimal: decimal, grouping: grouping)
    }
}

extension StringProtocol {
    /// Without whitespace (spaces, tabs, no-break spaces, line ends) or a byte-order mark at either end.
    var csvTrimmed: Substring {
        let text = Substring(self)
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.endIndex...]
        }
        return text[start...end]
    }
}
