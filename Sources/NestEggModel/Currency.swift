import NestEggSupport
/// An ISO 4217 currency: its code and how many minor digits it has.
public struct Currency: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let code: String
    public let minorDigits: Int

    /// A currency from its ISO 4217 code (three capital letters); `nil` for anything else.
    public init?(code: String) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            return nil
        }
        self.code = code
        self.minorDigits = Self.minorDigitsByCode[code] ?? 2
    }

    public static let gbp = Currency(code: "GBP")!
    public static let eur = Currency(code: "EUR")!
    public static let usd = Currency(code: "USD")!
    public static let hkd = Currency(code: "HKD")!

    /// 10 to the power of the minor digits: minor units in one whole unit (100 pence in a pound).
    public var minorUnitsPerUnit: Int64 {
        var result: Int64 = 1
        for _ in 0..<minorDigits { result *= 10 }
        return result
    }

    public var description: String { code }

    public static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }

    /// ISO 4217 currencies whose minor unit is not two digits.
    private static let minorDigitsByCode: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
        "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]
}
