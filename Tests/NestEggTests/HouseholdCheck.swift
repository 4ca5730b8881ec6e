import Foundation
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggSupport

/// An independent reading of the fixtures for the household reports' tests: the raw JSON through
/// Foundation (not NestEgg's loaders), dates through Foundation's calendar, conversions through
/// `Decimal` (not NestEgg's integer rule). The reports' figures must equal what this works out.
enum HouseholdCheck {
    static let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    static func json(_ path: String) -> Any {
        try! JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    struct Item {
        let minor: Int
        let currency: String
        let out: Bool
        let status: String
        let source: String
        let counterParty: String
        let reference: String
        let category: String?
        let day: String  // yyyy-MM-dd in Europe/London
    }

    struct Account {
        let uid: String
        let name: String
        let currency: String
        let cleared: Int?
        let items: [Item]
    }

    static let london: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London")!
        return calendar
    }()

    static func localDay(_ iso: String) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: iso)!
        let parts = london.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static let accounts: [Account] = {
        let list = (json("starling/accounts.json") as! [String: Any])["accounts"] as! [[String: Any]]
        return list.map { account in
            let uid = account["accountUid"] as! String
            let feed = (json("starling/feed/\(uid).json") as! [String: Any])["feedItems"] as! [[String: Any]]
            let items = feed.map { item in
                let amount = item["amount"] as! [String: Any]
                return Item(minor: amount["minorUnits"] as! Int, currency: amount["currency"] as! String, out: item["direction"] as! String == "OUT",
                            status: item["status"] as! String, source: item["source"] as! String,
                            counterParty: item["counterPartyName"] as? String ?? "", reference: item["reference"] as? String ?? "", category: item["spendingCategory"] as? String,
                            day: localDay(item["transactionTime"] as! String))
            }
            let balance = (json("starling/balances/\(uid).json") as! [String: Any])["clearedBalance"] as? [String: Any]
            return Account(uid: uid, name: account["name"] as! String, currency: account["currency"] as! String,
                           cleared: balance?["minorUnits"] as? Int, items: items)
        }
    }()

    /// Counted on statements: settled, in the account's currency.
    static func counted(_ item: Item, _ account: Account) -> Bool { item.status == "SETTLED" && item.currency == account.currency }

    /// The balance at the end of `day`: the cleared balance less everything counted after it.
    static func balance(_ account: Account, endOf day: String) -> Int {
        account.items.filter { counted($0, account) && $0.day > day }.reduce(account.cleared!) { $0 - ($1.out ? -$1.minor : $1.minor) }
    }

    /// Rates by currency: (day, decimal text) ascending, from the fixture file.
    static let rates: [String: [(String, String)]] = {
        // Numbers as written: read the raw text, not a Double.
        let text = try! String(contentsOf: fixtures.appendingPathComponent("rates/GBP.json"), encoding: .utf8)
        var result: [String: [(String, String)]] = [:]
        let days = try! NSRegularExpression(pattern: #""(\d{4}-\d{2}-\d{2})":\{([^}]*)\}"#)
        for match in days.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let day = String(text[Range(match.range(at: 1), in: text)!])
            for pair in text[Range(match.range(at: 2), in: text)!].split(separator: ",") {
                let parts = pair.split(separator: ":")
                result[parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "\"")), default: []].append((day, String(parts[1])))
            }
        }
        return result.mapValues { $0.sorted { $0.0 < $1.0 } }
    }()

    /// `minor` (2-digit currency) in GBP pence at the last rate on or before `day`, by `Decimal`,
    /// rounded half away from zero; `nil` without a rate.
    static func toGBP(_ minor: Int, _ currency: String, on day: String) -> (pence: Int, rate: String)? {
        if currency == "GBP" { return (minor, "") }
        guard let rate = rates[currency]?.last(where: { $0.0 <= day }) else { return nil }
        var quotient = Decimal(minor) / Decimal(string: rate.1)!
        var rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, 0, .plain)
        return (NSDecimalNumber(decimal: rounded).intValue, rate.1)
    }

    /// The last day of a `yyyy-MM` month.
    static func lastDay(_ month: String) -> String {
        let parts = month.split(separator: "-").map { Int($0)! }
        let date = london.date(from: DateComponents(year: parts[0], month: parts[1] + 1, day: 0))!
        let day = london.component(.day, from: date)
        return month + String(format: "-%02d", day)
    }
}
