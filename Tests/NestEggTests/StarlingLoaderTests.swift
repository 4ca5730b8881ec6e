import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct StarlingLoaderTests {
    // MARK: The samples (Tests/Samples/starling: Starling's public API v2)

    @Test func loadsTheAccountsSample() throws {
        let (doc, log) = try sample("starling/accounts.json")
        let accounts = StarlingLoader.accounts(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(accounts.map(\.uid) == ["5e1f0a2c-7d43-4b8e-9a61-0c2d3e4f5a6b", "9c8b7a6d-5e4f-4321-8fed-cba987654321"])
        #expect(accounts.map(\.currency) == [.gbp, .eur])
        #expect(accounts.map(\.type) == ["PRIMARY", "ADDITIONAL"])
        // The padded name is trimmed; createdAt keeps its milliseconds.
        #expect(accounts.map(\.name) == ["Everyday", "Euro travel"])
        #expect(accounts[0].createdAt == Instant(iso8601: "2023-02-14T09:12:45.310Z"))
    }

    @Test func loadsTheSingleAccountSample() throws {
        let (doc, log) = try sample("starling/account.json")
        let account = StarlingLoader.account(doc.value)
        #expect(account?.name == "Everyday")
        #expect(account?.currency == .gbp)
        #expect(log.diagnostics.isEmpty)
    }

    @Test func readsTheFeedSampleAsWritten() throws {
        let (doc, log) = try sample("starling/feed.json")
        let items = StarlingLoader.feedItems(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(items.count == 6)
        // The minor units are never negative: the sign comes from direction.
        #expect(items.map(\.direction) == [.out, .out, .`in`, .out, .out, .`in`])
        #expect(items.map(\.amount.minorUnits) == [4425, 2367, 250_000, 6000, 385, 1250])
        // An upcoming direct debit has no settlementTime.
        #expect(items[0].status == "UPCOMING")
        #expect(items[0].source == "DIRECT_DEBIT")
        #expect(items[0].transactionTime == Instant(iso8601: "2025-03-31T23:00:00.000Z"))
        #expect(items[1].transactionTime == Instant(iso8601: "2025-03-28T18:02:10.551Z"))
        // References padded with spaces are trimmed.
        #expect(items[2].reference == "SALARY MARCH")
        #expect(items[5].reference == "TAX REFUND 2024")
        #expect(items.allSatisfy { $0.reference == Text.trimmed($0.reference) })
        // A card payment abroad: amount is in the account's currency, sourceAmount (EUR) is not read.
        #expect(items[4].amount == gbp(385))
        #expect(items[4].counterPartyName == "Café Lumière")
        #expect(items[4].spendingCategory == "EATING_OUT")
    }

    @Test func loadsTheSingleFeedItemSample() throws {
        let (doc, log) = try sample("starling/feed-item.json")
        let item = StarlingLoader.feedItem(doc.value)
        #expect(item?.source == "MASTER_CARD")
        #expect(item?.counterPartyName == "Greenway Grocers")
        #expect(item?.reference == "GREENWAY GROCERS 0417   LEEDS         GBR")
        #expect(log.diagnostics.isEmpty)
    }

    @Test func loadsTheBalanceSample() throws {
        let (doc, log) = try sample("starling/balance.json")
        let balance = StarlingLoader.balance(in: doc)
        #expect(balance?.cleared == gbp(184_255))
        #expect(balance?.effective == gbp(179_830))
        #expect(log.diagnostics.isEmpty)
    }

    @Test func loadsSavingsGoalSamplesInBothSpellings() throws {
        let (list, listLog) = try sample("starling/savings-goals.json")
        let goals = StarlingLoader.savingsGoals(in: list)
        #expect(listLog.diagnostics.isEmpty)
        #expect(goals.map(\.name) == ["New bike", "Rainy day"])
        #expect(goals[0].savedPercentage == 100)
        #expect(goals[0].target == gbp(85_000))
        // A goal without a target has no percentage either.
        #expect(goals[1].target == nil && goals[1].savedPercentage == nil)
        #expect(goals[1].totalSaved == gbp(31_415))
        let (single, singleLog) = try sample("starling/savings-goal.json")
        #expect(StarlingLoader.savingsGoal(single.value)?.savedPercentage == 45)
        // Some hand-written responses say percentageSaved.
        let (other, otherLog) = try sample("starling/savings-goal-percentage-saved.json")
        let goal = StarlingLoader.savingsGoal(other.value)
        #expect(goal?.savedPercentage == 65)
        #expect(goal?.target == gbp(2000))
        #expect(goal?.state == nil)
        #expect(singleLog.diagnostics.isEmpty && otherLog.diagnostics.isEmpty)
    }

    @Test func readsTheSourceAmountAndRefusesANegativeOne() throws {
        let json = """
        {"feedItems": [
          {"feedItemUid": "a", "amount": {"currency": "GBP", "minorUnits": 1107}, "sourceAmount": {"currency": "USD", "minorUnits": 1401},
           "direction": "OUT", "transactionTime": "2026-11-16T09:00:00Z", "status": "SETTLED"},
          {"feedItemUid": "b", "amount": {"currency": "GBP", "minorUnits": 100}, "sourceAmount": {"currency": "USD", "minorUnits": -1},
           "direction": "OUT", "transactionTime": "2026-11-16T09:00:00Z", "status": "SETTLED"}
        ]}
        """
        let (doc, log) = document(json, file: "feed.json")
        let items = StarlingLoader.feedItems(in: try #require(doc))
        #expect(items.first?.sourceAmount == usd(1_401))
        #expect(log.errors.map(\.path) == ["$.feedItems[1].sourceAmount.minorUnits"])
        #expect(log.errors.first?.line == 4)
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

/// The account holder and the accounts' identifiers, which statements print.
@Suite struct StarlingHolderTests {
    @Test func readsTheIdentifiersAndHolderSamples() throws {
        let (doc, log) = try sample("starling/identifiers.json")
        let identifiers = try #require(StarlingLoader.identifiers(in: doc))
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(identifiers.accountIdentifier == "00012345")
        #expect(identifiers.sortCode == "60-83-71")
        #expect(identifiers.iban == "GB75SRLG60837100012345", "spaces gone, as the API also writes it")
        #expect(identifiers.printedIBAN == "GB75 SRLG 6083 7100 0123 45")
        #expect(identifiers.bic == "SRLGGB2L")
        #expect(identifiers.printed(currency: .gbp).map(\.label) == ["Sort code", "Account number", "IBAN", "BIC"])
        #expect(identifiers.printed(currency: .eur).map(\.label) == ["IBAN", "BIC"], "an account abroad leads with its IBAN")
        let (holder, holderLog) = try sample("starling/account-holder.json")
        #expect(StarlingLoader.holderName(in: holder) == "Sam Rivera")
        #expect(holderLog.diagnostics.isEmpty)
    }

    @Test func readsTheCurrentAddressSample() throws {
        let (doc, log) = try sample("starling/addresses.json")
        let address = try #require(StarlingLoader.currentAddress(in: doc))
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(address.lines == ["Flat 4", "2 Tallis Court"], "the empty line3 left out, the padding trimmed")
        #expect(address.printedLines() == ["Flat 4", "2 Tallis Court", "CARDIFF", "CF10 1AA"], "no country for a UK address")
        #expect(PostalAddress(lines: ["Rua das Flores 12"], postTown: "Porto", postCode: "4050-262", countryCode: "PT").printedLines()
                == ["Rua das Flores 12", "PORTO", "4050-262", "PT"])
    }

    @Test func aWrongAddressIsAnErrorAtItsPlace() throws {
        let json = """
            {"current": {"line1": "", "postTown": "London", "countryCode": "GBR"},
             "previous": [{"line1": "1 High St", "postTown": "Leeds", "postCode": 12, "countryCode": "GB"}]}
            """
        let (doc, log) = document(json, file: "starling/addresses.json")
        #expect(StarlingLoader.currentAddress(in: try #require(doc)) == nil)
        #expect(log.errors.map(\.path) == ["$.previous[0].postCode", "$.current.line1", "$.current.postCode", "$.current.countryCode"])
        #expect(log.errors.map(\.description).contains {
            $0.hasPrefix("starling/addresses.json:1:") && $0.contains("expected the ISO 3166 country code, two letters such as \"GB\", found \"GBR\"")
        })
        #expect(log.errors.map(\.message).contains("missing required field \"postCode\" (expected the postcode)"))
        let (none, noneLog) = document(#"{"previous": []}"#)
        #expect(StarlingLoader.currentAddress(in: try #require(none)) == nil)
        #expect(noneLog.errors.map(\.path) == ["$.current"], "a missing current address")
    }

    @Test func identifiersThatNameNoAccountAndWrongIBANsAreErrors() throws {
        let (wrong, log) = document(#"{"accountIdentifier": "12345678", "iban": "GB76SRLG60837100012345"}"#, file: "starling/identifiers/a.json")
        #expect(StarlingLoader.identifiers(in: try #require(wrong)) == nil, "an account number alone, and a wrong IBAN")
        #expect(log.errors.map(\.path) == ["$.iban", "$"])
        #expect(log.errors.first?.message.contains("expected an IBAN") == true)
        let (empty, emptyLog) = document(#"{"bic": "SRLGGB2L", "accountIdentifier": ""}"#)
        #expect(StarlingLoader.identifiers(in: try #require(empty)) == nil)
        #expect(emptyLog.errors.map(\.message) == ["accountIdentifier may not be empty",
                                                   "the identifiers name no account: expected accountIdentifier and bankIdentifier (the sort code), or iban"])
        let (holder, holderLog) = document(#"{"accountHolderName": " "}"#)
        #expect(StarlingLoader.holderName(in: try #require(holder)) == nil)
        #expect(holderLog.errors.count == 1)
        #expect(StarlingLoader.isIBAN("DE89370400440532013000") && !StarlingLoader.isIBAN("DE89370400440532013001"))
    }

    @Test func aDataFolderGivesEachAccountItsIdentifiersAndTheHolder() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(#"{"accounts": [{"accountUid": "a1", "currency": "GBP"}, {"accountUid": "a2", "currency": "EUR"}]}"#,
                  to: work.appendingPathComponent("starling/accounts.json"))
        try write(try sampleText("starling/identifiers.json"), to: work.appendingPathComponent("starling/identifiers/a1.json"))
        try write(try sampleText("starling/identifiers.json"), to: work.appendingPathComponent("starling/identifiers/nobody.json"))
        try write(try sampleText("starling/account-holder.json"), to: work.appendingPathComponent("starling/account-holder.json"))
        try write(try sampleText("starling/addresses.json"), to: work.appendingPathComponent("starling/addresses.json"))
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: work), log: log)
        #expect(dataset.accounts.map(\.holderName) == ["Sam Rivera", "Sam Rivera"])
        #expect(dataset.accounts.map { $0.holderAddress?.postCode } == ["CF10 1AA", "CF10 1AA"])
        #expect(dataset.accounts.map { $0.identifiers?.accountIdentifier } == ["00012345", nil])
        #expect(log.diagnostics.map(\.description) == [
            "starling/identifiers/nobody.json: warning: no account \"nobody\" in starling/accounts.json; file ignored",
        ])
    }
}
