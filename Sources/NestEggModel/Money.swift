import NestEggSupport
/// An exact amount of money: integer minor units (pence, cents) in one currency.
///
/// There is no floating point anywhere in it, and two amounts in different
/// currencies cannot be added: `+` traps on a mismatch (a bug, never data: reports keep
/// currencies apart), and totals across currencies are kept apart in ``MoneyTotals``.
///
/// Overflow cannot happen on data: a loader accepts an amount only up to
/// ``maximumMinorUnits`` (10¹²), and minor units are 128-bit, so even 2⁶³ amounts of that size
/// add up far inside the type (9.2 × 10³⁰ against 1.7 × 10³⁸), as do the products the reports
/// form (percentages, per-mille shares, paces).
public struct Money: Hashable, Sendable {
    public var minorUnits: Int128
    public let currency: Currency

    public init(minorUnits: Int128, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public init(minorUnits: Int64, currency: Currency) {
        self.init(minorUnits: Int128(minorUnits), currency: currency)
    }

    public init(minorUnits: Int, currency: Currency) {
        self.init(minorUnits: Int128(minorUnits), currency: currency)
    }

    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// The largest amount a loader accepts, in minor units (10¹², £10,000,000,000.00): far beyond any
    /// real transaction, and small enough that a million of them still add up inside Int64.
    public static let maximumMinorUnits: Int128 = 1_000_000_000_000

    public static func + (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "adding \(lhs.currency) to \(rhs.currency)")
        return Money(minorUnits: lhs.minorUnits + rhs.minorUnits, currency: lhs.currency)
    }

    public static func - (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "subtracting \(rhs.currency) from \(lhs.currency)")
        return Money(minorUnits: lhs.minorUnits - rhs.minorUnits, currency: lhs.currency)
    }

    public static func += (lhs: inout Money, rhs: Money) { lhs = lhs + rhs }

    public static prefix func - (value: Money) -> Money {
        Money(minorUnits: -value.minorUnits, currency: value.currency)
    }

    public var isNegative: Bool { minorUnits < 0 }
    public var isZero: Bool { minorUnits == 0 }

    /// The amount as a plain decimal string with the currency's minor digits: `1234.50`, `-3.20`.
    public var decimalString: String {
        let digits = currency.minorDigits
        let magnitude = minorUnits.magnitude
        let unit = UInt128(currency.minorUnitsPerUnit)
        let sign = minorUnits < 0 ? "-" : ""
        guard digits > 0 else { return sign + String(magnitude) }
        var fraction = String(magnitude % unit)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        return "\(sign)\(magnitude / unit).\(fraction)"
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case notADecimal
        case tooManyDecimals(allowed: Int)
        case outOfRange
        case exponentOutOfRange

        public var description: String {
            switch self {
            case .notADecimal: return "expected a decimal amount such as 12.50"
            case .tooManyDecimals(let allowed): return "has more decimal places than the currency's \(allowed)"
            case .outOfRange: return "is too large to be an amount of money"
            case .exponentOutOfRange: return "has an exponent beyond ±99, which no amount of money needs"
            }
        }
    }

    /// Reads a decimal number's text (`12.50`, `0.78`, `-3`, `1.5e2`) exactly into minor units.
    /// Trailing zeros beyond the currency's digits are fine (`1.500` GBP); other digits are not.
    public static func parse(decimal text: String, currency: Currency) throws(ParseError) -> Money {
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if utf8.first == UInt8(ascii: "-") { negative = true; utf8 = utf8.dropFirst() }
        else if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        var exponent = 0
        var iterator = utf8.makeIterator()
        var sawDigit = false
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte - UInt8(ascii: "0"))
                sawDigit = true
                if seenPoint { fractionDigits += 1 }
            case UInt8(ascii: "."):
                if seenPoint { throw .notADecimal }
                seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var rest = ""
                while let next = iterator.next() { rest.unicodeScalars.append(Unicode.Scalar(next)) }
                // An exponent beyond ±99 cannot give an amount of money (nor a digit count that fits).
                guard let value = Int(rest.hasPrefix("+") ? String(rest.dropFirst()) : rest) else {
                    throw rest.utf8.dropFirst(rest.hasPrefix("-") || rest.hasPrefix("+") ? 1 : 0).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) && !rest.isEmpty
                        ? .exponentOutOfRange : .notADecimal
                }
                guard value > -100, value < 100 else { throw .exponentOutOfRange }
                exponent = value
            default:
                throw .notADecimal
            }
        }
        guard sawDigit else { throw .notADecimal }
        // value = digits × 10^(exponent − fractionDigits); we want it × 10^minorDigits.
        var shift = exponent - fractionDigits + currency.minorDigits
        while shift < 0 {
            guard let last = digits.last else { break }
            guard last == 0 else { throw .tooManyDecimals(allowed: currency.minorDigits) }
            digits.removeLast()
            shift += 1
        }
        var result: Int128 = 0
        for digit in digits {
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int128(digit))
            if overflow1 || overflow2 { throw .outOfRange }
            result = sum
        }
        for _ in 0..<max(shift, 0) {
            let (times, overflow) = result.multipliedReportingOverflow(by: 10)
            if overflow || times > maximumMinorUnits { throw .outOfRange }
            result = times
        }
        if result > maximumMinorUnits { throw .outOfRange }
        return Money(minorUnits: negative ? -result : result, currency: currency)
    }
}

/// Sums kept per currency, because pounds and euros are never added together.
public struct MoneyTotals: Sendable, Hashable {
    private var byCurrency: [Currency: Int128] = [:]

    public init() {}

    public init<S: Sequence>(_ amounts: S) where S.Element == Money {
        for amount in amounts { add(amount) }
    }

    public mutating func add(_ amount: Money) {
        byCurrency[amount.currency, default: 0] += amount.minorUnits
    }

    public subscript(currency: Currency) -> Money {
        Money(minorUnits: byCurrency[currency] ?? 0, currency: currency)
    }

    /// One amount per currency, ordered by currency code (so output is deterministic).
    public var amounts: [Money] {
        byCurrency.keys.sorted().map { self[$0] }
    }

    public var isEmpty: Bool { byCurrency.isEmpty }
}
