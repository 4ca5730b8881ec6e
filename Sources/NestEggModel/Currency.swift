import NestEggSupport
/// An ISO 4217 currency: its code and how many minor digits it has.
public struct Currency: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let code: String
    public let minorDigits: Int

    /// A currency from its ISO 4217 code (``isoCodes``); `nil` for anything else (`ZZZ` is three
    /// capital letters, and no currency).
    public init?(code: String) {
        guard code.utf8.count == 3, Self.isoCodes.contains(code) else { return nil }
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

    /// ISO 4217's codes: list one (the currencies and funds in use, as the maintenance agency
    /// published it in 2025, with the precious metals, the special drawing right and `XXX`/`XTS`),
    /// and the codes withdrawn since 1999 that older data still holds (list three: the euro's
    /// predecessors, `HRK`, `LTL`, `VEF`, `ZMK`, `MRO`, `STD`…), so that an old Kiva loan or a 2018
    /// transfer still reads.
    public static let isoCodes: Set<String> = Set("""
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
        CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP
        GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW
        KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN
        NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL
        SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES
        VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG ZWL
        ADP AFA ATS AZM BEF BGL BYR CSD CYP DEM EEK ESP FIM FRF GHC GRD HRK IEP ITL LTL LUF LVL MGF MRO MTL MZM
        NLG PTE ROL SDD SIT SKK SRG STD TMM TRL VEB VEF XEU YUM ZMK ZWD ZWN ZWR
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))

    /// ISO 4217 currencies whose minor unit is not two digits.
    private static let minorDigitsByCode: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
        "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]
}
