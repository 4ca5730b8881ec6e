import Foundation
import Testing
@testable import NestEggCore

@Suite struct StarlingLoaderTests {
    @Test(arguments: ["starling/tak783_Accounts.json", "starling/mljames_accountRetrieval_response.json"])
    func loadsSharedAccountSamples(path: String) throws {
        let (doc, log) = try sample(path)
        let accounts = StarlingLoader.accounts(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(accounts.count == 1)
        #expect(accounts[0].currency == .gbp)
        #expect(accounts[0].name == "Personal")
    }

    @Test func loadsTheSharedSingleAccountSample() throws {
        let (doc, log) = try sample("starling/tak783_Account.json")
        #expect(StarlingLoader.account(doc.value)?.type == "PRIMARY")
        #expect(log.diagnostics.isEmpty)
    }

    @Test(arguments: ["starling/tak783_Transactions.json", "starling/mljames_getTransactions_response.json"])
    func loadsSharedFeedSamples(path: String) throws {
        let (doc, log) = try sample(path)
        let items = StarlingLoader.feedItems(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { $0.amount.minorUnits >= 0 })
    }

    @Test func readsTheTak783FeedAsWritten() throws {
        let (doc, _) = try sample("starling/tak783_Transactions.json")
        let items = StarlingLoader.feedItems(in: doc)
        #expect(items.count == 31)
        #expect(items[0].status == "UPCOMING")
        #expect(items[0].amount == gbp(1499))
        #expect(items[0].transactionTime == Instant(iso8601: "2021-06-06T23:30:00.000Z"))
        // Padded references are trimmed.
        #expect(items.allSatisfy { $0.reference == Text.trimmed($0.reference) })
    }

    @Test func loadsTheSingleTransactionSample() throws {
        let (doc, log) = try sample("starling/tak783_Transaction.json")
        #expect(StarlingLoader.feedItem(doc.value)?.source == "DIRECT_DEBIT")
        #expect(log.diagnostics.isEmpty)
    }

    @Test func loadsSavingsGoalSamplesInBothSpellings() throws {
        let (list, listLog) = try sample("starling/tak783_SavingsGoals.json")
        let goals = StarlingLoader.savingsGoals(in: list)
        #expect(listLog.diagnostics.isEmpty)
        #expect(goals.first?.name == "Trip to Paris")
        #expect(goals.first?.savedPercentage == 100)
        let (single, singleLog) = try sample("starling/tak783_SavingsGoal.json")
        #expect(StarlingLoader.savingsGoal(single.value)?.savedPercentage == 20)
        // ml-james writes percentageSaved.
        let (other, otherLog) = try sample("starling/mljames_retrieveSavingsGoal_response.json")
        let goal = StarlingLoader.savingsGoal(other.value)
        #expect(goal?.savedPercentage == 30)
        #expect(goal?.target == gbp(500))
        #expect(singleLog.diagnostics.isEmpty && otherLog.diagnostics.isEmpty)
    }

    @Test func everyStarlingSampleIsValidJSON() throws {
        let folder = samplesRoot.appendingPathComponent("starling")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            _ = try sample("starling/" + name)
        }
    }

    @Test func reportsEveryBadItemNotJustTheFirst() throws {
        let json = """
        {"feedItems": [
          {"feedItemUid": "a", "amount": {"currency": "GBP", "minorUnits": 100}, "direction": "SIDEWAYS",
           "transactionTime": "2026-11-16T09:00:00Z", "status": "SETTLED"},
          {"feedItemUid": "b", "amount": {"currency": "GBP", "minorUnits": 100}, "direction": "OUT",
           "transactionTime": "last tuesday", "status": "SETTLED"},
          {"feedItemUid": "c", "amount": {"currency": "£", "minorUnits": 100}, "direction": "OUT",
           "transactionTime": "2026-11-16T09:00:00Z", "status": "SETTLED"}
        ]}
        """
        let (doc, log) = document(json, file: "feed.json")
        let items = StarlingLoader.feedItems(in: try #require(doc))
        #expect(items.isEmpty)
        #expect(log.errors.map(\.path) == ["$.feedItems[0].direction", "$.feedItems[1].transactionTime", "$.feedItems[2].amount.currency"])
        #expect(log.errors[0].message == #"expected one of "IN", "OUT", found "SIDEWAYS""#)
        #expect(log.errors[0].line == 2)
    }
}
