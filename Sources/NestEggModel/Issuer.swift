import NestEggSupport
import Foundation

/// Who issues the statements (`nestegg.json`'s `issuer`): printed at the head of each one, its
/// regulatory line at the foot.
public struct StatementIssuer: Sendable, Hashable {
    public var name: String
    /// Postal address, one line each.
    public var address: [String] = []
    /// The regulatory line (`Authorised by the Prudential Regulation Authority…`).
    public var footer: String?
    /// The logo, a local SVG file of the data folder.
    public var logo: Logo?
    /// The line at the top of every printed page of a statement (`pageHeader`); the issuer's name
    /// when not set.
    public var pageHeader: String?

    public init(name: String, address: [String] = [], footer: String? = nil, logo: Logo? = nil, pageHeader: String? = nil) {
        self.name = name
        self.address = address
        self.footer = footer
        self.logo = logo
        self.pageHeader = pageHeader
    }

    /// An SVG logo, kept as bytes and only ever shown as an image (`<img src="data:…">`): an SVG
    /// shown that way runs no script and loads nothing, so its markup never reaches a page.
    public struct Logo: Sendable, Hashable, Encodable {
        /// Where it was read, relative to the data folder (`issuer/logo.svg`).
        public let path: String
        public let svg: [UInt8]

        public init(path: String, svg: [UInt8]) {
            self.path = path
            self.svg = svg
        }

        /// `data:image/svg+xml;base64,…`: nothing in it but the base64 alphabet, safe in any attribute.
        public var dataURI: String { "data:image/svg+xml;base64," + Data(svg).base64EncodedString() }

        /// Anything but Render's template encoder sees where the logo was read: only Render
        /// places the image.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(path)
        }
    }
}

/// An account's identifiers (`GET /api/v2/accounts/{accountUid}/identifiers`).
public struct StarlingIdentifiers: Sendable, Hashable {
    /// The account number (8 digits for a UK account).
    public var accountIdentifier: String?
    /// The sort code for a UK account (`608371`).
    public var bankIdentifier: String?
    /// Without spaces, upper case.
    public var iban: String?
    public var bic: String?

    public init(accountIdentifier: String? = nil, bankIdentifier: String? = nil, iban: String? = nil, bic: String? = nil) {
        self.accountIdentifier = accountIdentifier
        self.bankIdentifier = bankIdentifier
        self.iban = iban
        self.bic = bic
    }

    /// `60-83-71` for six digits; anything else as written.
    public var sortCode: String? {
        guard let bank = bankIdentifier else { return nil }
        let digits = Array(bank)
        guard digits.count == 6, digits.allSatisfy(\.isASCIIDigit) else { return bank }
        return "\(String(digits[0..<2]))-\(String(digits[2..<4]))-\(String(digits[4..<6]))"
    }

    /// The IBAN in groups of four, as it is printed: `GB33 SRLG 6083 7112 3456 78`.
    public var printedIBAN: String? {
        iban.map { iban in
            stride(from: 0, to: iban.count, by: 4).map { start in
                String(iban.dropFirst(start).prefix(4))
            }.joined(separator: " ")
        }
    }

    /// How a statement names the account, in order: sort code and account number for a UK
    /// account in pounds, then the IBAN and BIC; an account in another currency leads with its IBAN.
    public func printed(currency: Currency) -> [(label: String, value: String)] {
        var domestic: [(String, String)] = []
        if let sortCode { domestic.append(("Sort code", sortCode)) }
        if let accountIdentifier { domestic.append(("Account number", accountIdentifier)) }
        var international: [(String, String)] = []
        if let iban = printedIBAN { international.append(("IBAN", iban)) }
        if let bic { international.append(("BIC", bic)) }
        if currency == .gbp { return domestic + international }
        return international.isEmpty ? domestic : international
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
