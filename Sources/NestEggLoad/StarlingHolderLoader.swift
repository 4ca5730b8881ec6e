import NestEggModel
import NestEggSupport
/// Reads what Starling says about who holds the accounts and how they are numbered:
/// `starling/account-holder.json` (`GET /api/v2/account-holder/name`), `starling/addresses.json`
/// (`GET /api/v2/addresses`) and `starling/identifiers/<accountUid>.json`
/// (`GET /api/v2/accounts/{accountUid}/identifiers`). All are optional; statements print them when they are there.
extension StarlingLoader {
    public static let holderPath = "starling/account-holder.json"

    /// `{"accountHolderName": "…"}`
    public static func holderName(in document: JSONDocument) -> String? {
        guard let value = document.value.required("accountHolderName", "the account holder's name") else { return nil }
        return IssuerLoader.nonEmpty(value, "the account holder's name")
    }

    public static let addressesPath = "starling/addresses.json"

    /// `{"current": {"line1", "line2", "line3", "postTown", "postCode", "countryCode"}, "previous": [...]}`
    /// (`GET /api/v2/addresses`): the current address. The previous ones are checked the same way
    /// (a mistake in one is an error at its place) but not kept: a statement prints where the holder lives.
    public static func currentAddress(in document: JSONDocument) -> PostalAddress? {
        let value = document.value
        guard value.object != nil else { return nil }
        if let previous = value["previous"]?.array {
            for entry in previous { _ = address(entry) }
        }
        guard let current = value.required("current", "the holder's current address, an object") else { return nil }
        return address(current)
    }

    static func address(_ value: JSONValue) -> PostalAddress? {
        guard value.object != nil else { return nil }
        var lines: [String] = []
        var complete = true
        for key in ["line1", "line2", "line3"] {
            guard let member = key == "line1" ? value.required(key, "the address's first line") : value[key] else { continue }
            guard let text = member.string.map(Text.singleLine) else { complete = false; continue }
            if !Text.normalised(text).isEmpty {
                lines.append(text)
            } else if key == "line1" {
                member.error("the address's first line may not be empty")
                complete = false
            }
        }
        let field = { (key: String, what: String) -> String? in
            value.required(key, what).flatMap { IssuerLoader.nonEmpty($0, what) }
        }
        let town = field("postTown", "the post town")
        let code = field("postCode", "the postcode")
        var country: String?
        if let member = value.required("countryCode", "the ISO 3166 country code, two letters") , let text = member.string {
            if text.count == 2, text.allSatisfy({ $0.isASCII && $0.isLetter }) {
                country = text.uppercased()
            } else {
                member.error("expected the ISO 3166 country code, two letters such as \"GB\", found \"\(text)\"")
            }
        }
        guard complete, let town, let code, let country, !lines.isEmpty else { return nil }
        return PostalAddress(lines: lines, postTown: town, postCode: code, countryCode: country)
    }

    /// `{"accountIdentifier", "bankIdentifier", "iban", "bic", …}`: every field optional, but the
    /// account must be named by its account number and sort code (bank identifier), or by an IBAN.
    public static func identifiers(in document: JSONDocument) -> StarlingIdentifiers? {
        let value = document.value
        guard value.object != nil else { return nil }
        let text = { (key: String) -> String? in value[key].flatMap { IssuerLoader.nonEmpty($0, key) } }
        var identifiers = StarlingIdentifiers(accountIdentifier: text("accountIdentifier"), bankIdentifier: text("bankIdentifier"),
                                              iban: nil, bic: text("bic")?.uppercased())
        if let member = value["iban"], let written = IssuerLoader.nonEmpty(member, "iban") {
            let iban = written.filter { $0 != " " }.uppercased()
            if isIBAN(iban) {
                identifiers.iban = iban
            } else {
                member.error("expected an IBAN (country code, check digits and account, whose check digits are right), found \"\(written)\"")
            }
        }
        let domestic = identifiers.accountIdentifier != nil && identifiers.bankIdentifier != nil
        guard domestic || identifiers.iban != nil else {
            value.error("the identifiers name no account: expected accountIdentifier and bankIdentifier (the sort code), or iban")
            return nil
        }
        return identifiers
    }

    /// ISO 13616: two letters, two check digits and 11 to 30 letters and digits, whose value
    /// (the first four moved to the end, letters as 10–35) is 1 modulo 97.
    static func isIBAN(_ iban: String) -> Bool {
        let characters = Array(iban)
        guard (15...34).contains(characters.count), characters.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
              characters[0].isLetter, characters[1].isLetter, characters[2].isNumber, characters[3].isNumber else { return false }
        var remainder = 0
        for character in characters[4...] + characters[..<4] {
            let value = character.isNumber ? Int(String(character))! : Int(character.asciiValue! - UInt8(ascii: "A")) + 10
            remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97
        }
        return remainder == 1
    }
}
