import NestEggModel
import NestEggSupport
/// Reads what Starling says about who holds the accounts and how they are numbered:
/// `starling/account-holder.json` (`GET /api/v2/account-holder/name`) and
/// `starling/identifiers/<accountUid>.json` (`GET /api/v2/accounts/{accountUid}/identifiers`).
/// Both are optional; statements print them when they are there.
extension StarlingLoader {
    public static let holderPath = "starling/account-holder.json"

    /// `{"accountHolderName": "…"}`
    public static func holderName(in document: JSONDocument) -> String? {
        guard let value = document.value.required("accountHolderName", "the account holder's name") else { return nil }
        return IssuerLoader.nonEmpty(value, "the account holder's name")
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
