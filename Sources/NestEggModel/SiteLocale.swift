import NestEggSupport
/// How a locale writes money and dates. A small fixed table rather than ICU, so that
/// output is the same on every machine and every toolchain version.
public struct SiteLocale: Sendable, Hashable {
    public let identifier: String
    let groupingSeparator: String
    public let decimalSeparator: String
    /// `£1.00` (true) or `1,00 €` (false, with a no-break space).
    let symbolBeforeAmount: Bool
    public let monthAbbreviations: [String]
    let dayMonthOrder: Bool
    /// The symbols this locale writes for currencies; other currencies show their code.
    let symbols: [String: String]

    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static let enGB = SiteLocale(
        identifier: "en_GB", groupingSeparator: ",", decimalSeparator: ".", symbolBeforeAmount: true,
        monthAbbreviations: englishMonths, dayMonthOrder: true,
        symbols: ["GBP": "£", "EUR": "€", "USD": "US$", "HKD": "HK$", "JPY": "JP¥", "CAD": "CA$", "AUD": "A$"])
    public static let enIE = SiteLocale(
        identifier: "en_IE", groupingSeparator: ",", decimalSeparator: ".", symbolBeforeAmount: true,
        monthAbbreviations: englishMonths, dayMonthOrder: true,
        symbols: ["GBP": "£", "EUR": "€", "USD": "US$", "HKD": "HK$", "JPY": "JP¥"])
    public static let enUS = SiteLocale(
        identifier: "en_US", groupingSeparator: ",", decimalSeparator: ".", symbolBeforeAmount: true,
        monthAbbreviations: englishMonths, dayMonthOrder: false,
        symbols: ["GBP": "£", "EUR": "€", "USD": "$", "HKD": "HK$", "JPY": "¥", "CAD": "CA$", "AUD": "A$"])
    public static let deDE = SiteLocale(
        identifier: "de_DE", groupingSeparator: ".", decimalSeparator: ",", symbolBeforeAmount: false,
        monthAbbreviations: ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
        dayMonthOrder: true, symbols: ["GBP": "£", "EUR": "€", "USD": "$", "JPY": "¥"])
    public static let frFR = SiteLocale(
        identifier: "fr_FR", groupingSeparator: "\u{202F}", decimalSeparator: ",", symbolBeforeAmount: false,
        monthAbbreviations: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
        dayMonthOrder: true, symbols: ["GBP": "£GB", "EUR": "€", "USD": "$US", "JPY": "JPY"])

    public static let all = [enGB, enIE, enUS, deDE, frFR]

    public init?(identifier: String) {
        let normalised = identifier.replacingOccurrences(of: "-", with: "_")
        guard let found = Self.all.first(where: { $0.identifier == normalised }) else { return nil }
        self = found
    }

    private init(identifier: String, groupingSeparator: String, decimalSeparator: String, symbolBeforeAmount: Bool,
                 monthAbbreviations: [String], dayMonthOrder: Bool, symbols: [String: String]) {
        self.identifier = identifier
        self.groupingSeparator = groupingSeparator
        self.decimalSeparator = decimalSeparator
        self.symbolBeforeAmount = symbolBeforeAmount
        self.monthAbbreviations = monthAbbreviations
        self.dayMonthOrder = dayMonthOrder
        self.symbols = symbols
    }

    /// `£1,234.50`, `-£3.20`, `1.234,50 €`.
    public func format(_ money: Money) -> String {
        let digits = money.currency.minorDigits
        let unit = UInt128(money.currency.minorUnitsPerUnit)
        let magnitude = money.minorUnits.magnitude
        var grouped = group(String(magnitude / unit))
        if digits > 0 {
            let fraction = String(magnitude % unit)
            grouped += decimalSeparator + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return placed(grouped, negative: money.minorUnits < 0, currency: money.currency)
    }

    /// A chart's short figure: `£6.2k`, `-£1.3m`, `6,2k\u{00A0}€` from a thousand up: thousands or
    /// millions to a tenth, rounded halves away from zero (`k` and `m` in every locale). Under a
    /// thousand nothing is rounded: whole units as `£950`, else as ``format(_:)`` writes it
    /// (`£0.30`), so a small column never reads `£0`. For a column's label or an axis's tick,
    /// where the exact figure is in the table beside it.
    public func formatCompact(_ money: Money) -> String {
        let unit = UInt128(money.currency.minorUnitsPerUnit)
        let magnitude = money.minorUnits.magnitude
        func rounded(_ value: UInt128, by divisor: UInt128) -> UInt128 { value / divisor + (value % divisor * 2 >= divisor ? 1 : 0) }
        guard magnitude >= 1000 * unit else {
            return magnitude % unit == 0 ? placed(group(String(magnitude / unit)), negative: money.minorUnits < 0, currency: money.currency)
                : format(money)
        }
        // The scale from the amount rounded to tenths of a thousand, so that £999,949.50 is £999.9k, not £1m.
        var (tenths, suffix) = (rounded(magnitude, by: unit * 100), "k")
        if tenths >= 10_000 { (tenths, suffix) = (rounded(magnitude, by: unit * 100_000), "m") }
        let text = group(String(tenths / 10)) + (tenths % 10 == 0 ? "" : decimalSeparator + String(tenths % 10)) + suffix
        return placed(text, negative: money.minorUnits < 0, currency: money.currency)
    }

    /// `digits` with the sign and the currency's symbol (or code) where the locale puts them.
    private func placed(_ digits: String, negative: Bool, currency: Currency) -> String {
        let sign = negative ? "-" : ""
        if let symbol = symbols[currency.code] {
            return symbolBeforeAmount ? sign + symbol + digits : sign + digits + "\u{00A0}" + symbol
        }
        return symbolBeforeAmount ? sign + currency.code + "\u{00A0}" + digits : sign + digits + "\u{00A0}" + currency.code
    }

    /// The amount `text` shows, if `text` is exactly what ``format(_:)`` writes for it (a leading
    /// `+` allowed, as signed changes show): `-£1,234.56` → −1234.56 GBP in en_GB. Anything else —
    /// another grouping, a missing decimal, words around the figure — is `nil`, so a figure read
    /// back is the figure written. Digits past what an `Int128` of minor units holds are `nil` too.
    ///
    /// This is the one rule for whether a cell is an amount. A table's CSV writes a cell it reads
    /// as a plain decimal (`-1234.56`, the currency said once), which no spreadsheet takes for a
    /// formula; every other cell is text and gets the formula guard, which exempts nothing
    /// (``CSVCell/guarded(_:)`` in NestEggRender). Exactness is what both need: a looser rule
    /// (`€5`, `£1234.56`, `-12%`) would either write as a decimal what the locale never wrote,
    /// currency guessed, or leave unguarded a cell the CSV writes as text. So a percentage
    /// (`-12%`) or a figure with words (`£5.00 (50%)`) is text: `'-12%`.
    public func money(parsing text: String) -> Money? {
        // Most cells are no amount: a name, a date, a count. An amount ends with a digit, and, with
        // the symbol before it, starts with a sign, a symbol or a code's capital; after it, with a digit.
        let utf8 = text.utf8
        guard let last = utf8.last, last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9") || !symbolBeforeAmount,
              let first = utf8.first else { return nil }
        let startsAsDigit = first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
        if first != UInt8(ascii: "-") && first != UInt8(ascii: "+") && startsAsDigit == symbolBeforeAmount { return nil }
        var body = Substring(text)
        let plus = body.hasPrefix("+")
        if plus { body = body.dropFirst() }
        let negative = !plus && body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        // The currency: a symbol of this table, else an ISO code, where this locale writes it.
        var currency: Currency?
        var amount: Substring = ""
        let marks = Self.marks[identifier] ?? []
        if symbolBeforeAmount {
            if let (symbol, code) = marks.first(where: { body.hasPrefix($0.0) }) {
                currency = Currency(code: code); amount = body.dropFirst(symbol.count)
            } else if body.count > 4, body[body.index(body.startIndex, offsetBy: 3)] == "\u{00A0}" {
                currency = Currency(code: String(body.prefix(3))); amount = body.dropFirst(4)
            }
        } else if let space = body.lastIndex(of: "\u{00A0}") {
            let mark = String(body[body.index(after: space)...])
            currency = marks.first(where: { $0.0 == mark }).flatMap { Currency(code: $0.1) } ?? Currency(code: mark)
            amount = body[..<space]
        }
        guard let currency, !amount.isEmpty else { return nil }
        var minor: Int128 = 0
        // Its ASCII digits, whatever stands between them: the written form is checked whole below.
        for byte in amount.utf8 where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            let (times, overflow) = minor.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdding) = times.addingReportingOverflow(Int128(byte - UInt8(ascii: "0")))
            guard !overflow, !overflowAdding else { return nil }
            minor = sum
        }
        let money = Money(minorUnits: negative ? -minor : minor, currency: currency)
        // Exactly the written form, or not a figure this locale writes.
        guard format(money) == (negative ? "-" : "") + body else { return nil }
        return money
    }

    /// Each locale's symbols with their codes, the longest symbol first (`US$` before `$`), for ``money(parsing:)``.
    private static let marks: [String: [(String, String)]] = Dictionary(uniqueKeysWithValues: all.map { locale in
        (locale.identifier, locale.symbols.map { ($0.value, $0.key) }.sorted { ($0.0.count, $0.1) > ($1.0.count, $1.1) })
    })

    /// `53771300` → `53,771,300` (`53.771.300` in de_DE).
    public func format(_ value: Int) -> String {
        (value < 0 ? "-" : "") + group(String(value.magnitude))
    }

    /// Digits with the locale's grouping separator every three from the right.
    private func group(_ digits: String) -> String {
        var digits = digits
        var grouped = ""
        while digits.count > 3 {
            grouped = groupingSeparator + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        return digits + grouped
    }

    /// `16 Nov 2026` (or `Nov 16, 2026` in en_US).
    public func format(_ date: CivilDate) -> String {
        let month = monthAbbreviations[date.month - 1]
        return dayMonthOrder ? "\(date.day) \(month) \(date.year)" : "\(month) \(date.day), \(date.year)"
    }

    /// `16 Nov` (or `Nov 16`).
    public func formatShort(_ date: CivilDate) -> String {
        let month = monthAbbreviations[date.month - 1]
        return dayMonthOrder ? "\(date.day) \(month)" : "\(month) \(date.day)"
    }

    /// `16–22 Nov 2026`, `28 Sep – 4 Oct 2026`, `29 Dec 2025 – 4 Jan 2026`.
    public func formatRange(_ first: CivilDate, _ last: CivilDate) -> String {
        if first == last { return format(first) }
        if first.year != last.year { return "\(format(first)) – \(format(last))" }
        if first.month == last.month && dayMonthOrder { return "\(first.day)–\(format(last))" }
        return "\(formatShort(first)) – \(format(last))"
    }
}
