import NestEggSupport
/// One ECB reference rate as Frankfurter gives it: how many units of `quote` one unit of `base`
/// buys on `date` (`1 GBP = 1.1362 EUR`), kept as the exact decimal it was written as.
///
/// Converting an amount of `quote` into `base` divides by the rate in integers and rounds once,
/// to the base currency's minor unit, halves away from zero (``toBase(_:)``): no floating point.
public struct ExchangeRate: Sendable, Hashable {
    public let base: Currency
    public let quote: Currency
    /// The ECB's day of the rate (a working day; a weekend or holiday has none).
    public let date: CivilDate
    /// The rate as its file wrote it, normalised to plain decimal digits: `1.1362`.
    public let text: String
    /// The rate is `significand / 10^scale`, both positive.
    let significand: Int128
    let scale: Int

    /// The largest significand and scale a rate may have: ECB rates have five or six significant
    /// digits; these bounds keep every conversion of an amount a report forms inside `Int128`.
    static let maximumSignificand: Int128 = 1_000_000_000_000_000
    static let maximumScale = 12

    /// A rate from its decimal text (`1.1362`, `166.95`, `8.5e-1`); `nil` when it is not a positive
    /// decimal within ``maximumSignificand`` and ``maximumScale``.
    public init?(base: Currency, quote: Currency, date: CivilDate, decimal: String) {
        var digits: [UInt8] = []
        var fraction = 0
        var seenPoint = false
        var exponent = 0
        var bytes = Substring(decimal).utf8[...]
        guard !bytes.isEmpty else { return nil }
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            let tail = String(decoding: bytes[bytes.index(after: e)...], as: UTF8.self)
            guard let value = Int(tail.hasPrefix("+") ? String(tail.dropFirst()) : tail), (-30...30).contains(value) else { return nil }
            exponent = value
            bytes = bytes[..<e]
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte - UInt8(ascii: "0"))
                if seenPoint { fraction += 1 }
            case UInt8(ascii: "."):
                if seenPoint { return nil }
                seenPoint = true
            default:
                return nil
            }
        }
        guard !digits.isEmpty else { return nil }
        var scale = fraction - exponent
        // Trailing zeros after the point say nothing; leading zeros neither.
        while scale > 0, digits.last == 0 { digits.removeLast(); scale -= 1 }
        while digits.count > 1, digits.first == 0 { digits.removeFirst() }
        var value: Int128 = 0
        for digit in digits {
            value = value * 10 + Int128(digit)
            if value > Self.maximumSignificand { return nil }
        }
        while scale < 0 {
            value *= 10
            scale += 1
            if value > Self.maximumSignificand { return nil }
        }
        guard value > 0, scale <= Self.maximumScale else { return nil }
        self.base = base
        self.quote = quote
        self.date = date
        self.significand = value
        self.scale = scale
        let whole = String(value / Self.power(scale))
        let part = String(value % Self.power(scale))
        self.text = scale == 0 ? whole : whole + "." + String(repeating: "0", count: scale - part.count) + part
    }

    static func power(_ exponent: Int) -> Int128 {
        var result: Int128 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// `amount` (in ``quote``) in ``base``: amount ÷ rate, to the base currency's minor unit,
    /// halves rounded away from zero; `nil` if the amount is in another currency or so large the
    /// division would leave `Int128` (no amount of real data is).
    public func toBase(_ amount: Money) -> Money? {
        guard amount.currency == quote else { return nil }
        // base minor = amount minor × 10^(scale + base digits) ÷ (significand × 10^quote digits)
        let (numerator, overflow) = amount.minorUnits.multipliedReportingOverflow(by: Self.power(scale + base.minorDigits))
        guard !overflow else { return nil }
        let denominator = significand * Self.power(quote.minorDigits)
        var (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        if remainder.magnitude * 2 >= denominator.magnitude { quotient += numerator < 0 ? -1 : 1 }
        return Money(minorUnits: quotient, currency: base)
    }

    /// `1 GBP = 1.1362 EUR`.
    public var description: String { "1 \(base.code) = \(text) \(quote.code)" }
}

/// Every rate of the data folder's `rates/` against one base currency, by currency and day.
public struct ExchangeRates: Sendable {
    public let base: Currency
    /// By quoted currency, ascending by date, one a day.
    private var series: [Currency: [ExchangeRate]] = [:]
    /// The files the rates were read from, in path order.
    public var files: [String] = []

    public init(base: Currency) { self.base = base }

    /// Adds a rate; when the same currency already has one on that day, keeps the first and returns it.
    @discardableResult
    public mutating func add(_ rate: ExchangeRate) -> ExchangeRate? {
        precondition(rate.base == base, "a rate against \(rate.base) among rates against \(base)")
        var list = series[rate.quote, default: []]
        let index = Self.insertionIndex(list, rate.date)
        if index > 0, list[index - 1].date == rate.date { return list[index - 1] }
        list.insert(rate, at: index)
        series[rate.quote] = list
        return nil
    }

    /// The first index whose date is after `date`.
    private static func insertionIndex(_ list: [ExchangeRate], _ date: CivilDate) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].date <= date { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The rate in force on `date`: the last one published on or before it; `nil` before the first.
    public func rate(for currency: Currency, on date: CivilDate) -> ExchangeRate? {
        guard let list = series[currency] else { return nil }
        let index = Self.insertionIndex(list, date)
        return index == 0 ? nil : list[index - 1]
    }

    /// The rates dated after `date`, which no conversion of the data uses (each converts at the
    /// last rate on or before its own day): how many, of which currencies, and the last day.
    public func after(_ date: CivilDate) -> (count: Int, currencies: [Currency], last: CivilDate)? {
        var count = 0, currencies: [Currency] = [], last = date
        for currency in series.keys.sorted() {
            let list = series[currency]!
            let later = list.count - Self.insertionIndex(list, date)
            guard later > 0 else { continue }
            count += later
            currencies.append(currency)
            last = max(last, list[list.count - 1].date)
        }
        return count == 0 ? nil : (count, currencies, last)
    }

    /// The currencies with a rate, by code.
    public var currencies: [Currency] { series.keys.sorted() }
    public var isEmpty: Bool { series.isEmpty }
    /// How many rates in all.
    public var count: Int { series.values.reduce(0) { $0 + $1.count } }
    /// The first and last day with a rate.
    public var span: ClosedRange<CivilDate>? {
        let firsts = series.values.compactMap(\.first?.date), lasts = series.values.compactMap(\.last?.date)
        guard let first = firsts.min(), let last = lasts.max() else { return nil }
        return first...last
    }

    /// `amount` in the base currency on `date` (``Conversion``); `nil` when its currency has no
    /// rate on or before that day.
    public func convert(_ amount: Money, on date: CivilDate) -> Conversion? {
        if amount.currency == base { return Conversion(original: amount, rate: nil, converted: amount) }
        guard let rate = rate(for: amount.currency, on: date), let converted = rate.toBase(amount) else { return nil }
        return Conversion(original: amount, rate: rate, converted: converted)
    }
}

/// An amount, the rate it was converted at (none when it is in the base currency), and the result.
public struct Conversion: Sendable, Hashable {
    public let original: Money
    public let rate: ExchangeRate?
    public let converted: Money

    public init(original: Money, rate: ExchangeRate?, converted: Money) {
        self.original = original
        self.rate = rate
        self.converted = converted
    }
}
