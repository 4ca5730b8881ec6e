import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggSupport

/// Figures of the sample in Fixtures/ worked out from its files alone, independently of the
/// reports, for the tests that check what the pages print.
enum FixtureFigures {
    static let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    static func dataset() throws -> Dataset {
        DataLoader.load(try DataFolder(root: fixtures), log: DiagnosticLog())
    }

    /// An account's cleared balance (its balance file), and its balance when `month` began: that
    /// less every settled movement from then on.
    static func balances(of name: String, since month: String = "2026-11-01T00:00:00Z") throws -> (now: Money, opening: Money) {
        let personal = try #require(try dataset().accounts.first { $0.account.name == name })
        let now = try #require(personal.balance?.cleared)
        let start = try #require(Instant(iso8601: month))
        let moved = personal.feed.filter { $0.status == .settled && $0.transactionTime >= start }
            .reduce(Money(minorUnits: 0, currency: now.currency)) { $0 + $1.signedAmount }
        return (now, now - moved)
    }

    /// An account's settled money in and out from `start` to `end` (ISO 8601 instants).
    static func movements(of name: String, from start: String, to end: String) throws -> (moneyIn: Money, moneyOut: Money) {
        let account = try #require(try dataset().accounts.first { $0.account.name == name })
        let (first, last) = (try #require(Instant(iso8601: start)), try #require(Instant(iso8601: end)))
        let settled = account.feed.filter { $0.status == .settled && $0.transactionTime >= first && $0.transactionTime < last }
        let zero = Money(minorUnits: 0, currency: account.account.currency)
        return (settled.filter { $0.direction == .in }.reduce(zero) { $0 + $1.amount },
                settled.filter { $0.direction == .out }.reduce(zero) { $0 + $1.amount })
    }

    /// `6875.10`: an amount as the manifest writes it.
    static func decimal(_ money: Money) -> String {
        let units = money.minorUnits, sign = units < 0 ? "-" : ""
        let magnitude = units < 0 ? -units : units
        return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
    }
}
