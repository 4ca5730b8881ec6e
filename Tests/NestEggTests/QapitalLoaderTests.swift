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


/// Loads a data folder written by `files` (path → JSON text) with the real DataLoader.
func loadFolder(_ files: [String: String]) throws -> (Dataset, DiagnosticLog) {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    for (path, text) in files { try write(text, to: root.appendingPathComponent(path)) }
    let log = DiagnosticLog()
    let dataset = DataLoader.load(try DataFolder(root: root), log: log)
    return (dataset, log)
}

@Suite struct QapitalLoaderTests {
    // MARK: The samples (Tests/Samples/qapital: Qapital's test-task API)

    @Test func everyQapitalSampleLoadsWithoutErrors() throws {
        let folder = samplesRoot.appendingPathComponent("qapital")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count == 8)
        for name in names {
            let (doc, log) = try sample("qapital/" + name)
            let loaded: Int
            if name.hasSuffix("_feed.json") || name == "activities.json" {
                loaded = QapitalLoader.feed(in: doc, goalId: 21, currency: .usd).count
            } else if name.hasPrefix("savingsgoals") {
                loaded = QapitalLoader.goals(in: doc, currency: .usd).count
            } else if name == "savingsrules.json" {
                loaded = QapitalLoader.rules(in: doc, currency: .usd).count
            } else if name.hasPrefix("users_") {
                loaded = QapitalLoader.user(doc.value) == nil ? 0 : 1
            } else {
                Issue.record("a sample nobody loads: \(name)")
                continue
            }
            #expect(log.diagnostics.isEmpty, "\(name): \(log.diagnostics)")
            #expect(loaded > 0 || name == "savingsgoals_empty.json", "\(name) loaded nothing")
        }
    }

    @Test func readsTheGoalsSampleAsWritten() throws {
        let (doc, log) = try sample("qapital/savingsgoals.json")
        let goals = QapitalLoader.goals(in: doc, currency: .usd)
        #expect(log.diagnostics.isEmpty)
        #expect(goals.map(\.id) == [21, 22, 23, 24, 25])
        let canoe = goals[0]
        #expect(canoe.name == "Canoe")
        #expect(canoe.target == usd(240_000))
        #expect(canoe.saved == usd(61_235))
        #expect(canoe.created == CivilDate(year: 2019, month: 4, day: 27))
        // The owner (11) is listed among connectedUsers in the file, and left out of them here.
        #expect(canoe.ownerId == 11)
        #expect(canoe.connectedUserIds == [12, 13])
        #expect(canoe.status == .active)
        #expect(canoe.imageURL == "https://images.example.net/goals/3b0f7c1e-canoe.jpg")
        // Null target and null connectedUsers.
        #expect(goals[1].target == nil)
        #expect(goals[1].connectedUserIds.isEmpty)
        #expect(goals[3].status == .deleted)
        // 40.50 keeps its cents; a padded name is trimmed; 29 Feb 2020 is a date.
        #expect(goals[4].saved == usd(4050))
        #expect(goals[4].name == "Emergency fund")
        #expect(goals[4].created == CivilDate(year: 2020, month: 2, day: 29))
        #expect(QapitalLoader.goals(in: try sample("qapital/savingsgoals_empty.json").0, currency: .usd).isEmpty)
    }

    @Test func readsTheFeedSampleExactly() throws {
        let (doc, log) = try sample("qapital/savingsgoals_21_feed.json")
        let items = QapitalLoader.feed(in: doc, goalId: 21, currency: .usd)
        #expect(log.diagnostics.isEmpty)
        #expect(items.count == 6)
        #expect(items[0].id == "a1f3c5e7-0b2d-4f68-9a1c-3e5f7b9d1f2a")
        #expect(items[0].timestamp == Instant(iso8601: "2019-09-14T16:20:05.117Z"))
        #expect(items[0].messageHTML == "<strong>You</strong> made a manual transfer.")
        // A manual transfer leaves savingsRuleId out.
        #expect(items[0].ruleId == nil)
        #expect(items[4].ruleId == nil)
        #expect(items[1].ruleId == 31)
        #expect(items[2].ruleId == 32)
        // 0.64, 7.50 and 0.05 read exactly.
        #expect(items[1].amount == usd(64))
        #expect(items[4].amount == usd(750))
        #expect(items[5].amount == usd(5))
        #expect(items.map(\.userId) == [11, 11, 12, 12, 11, 13])
    }

    @Test func readsTheLaterActivitiesShapeWithoutIds() throws {
        let (doc, log) = try sample("qapital/activities.json")
        let items = QapitalLoader.feed(in: doc, goalId: 4, currency: .usd)
        #expect(log.diagnostics.isEmpty)
        #expect(items.map(\.id) == ["4-1", "4-2", "4-3", "4-4", "4-5"])
        #expect(items[0].amount == usd(81))
        #expect(items[4].amount == usd(1225))
        // Timestamps with an offset and no milliseconds: +00:00, and +02:00 two hours ahead of UTC.
        #expect(items[0].timestamp == Instant(iso8601: "2023-05-20T00:00:00Z"))
        #expect(items[2].timestamp == Instant(iso8601: "2023-05-15T07:30:00Z"))
    }

    @Test func readsRulesAndUsers() throws {
        let rules = QapitalLoader.rules(in: try sample("qapital/savingsrules.json").0, currency: .usd)
        #expect(rules == [QapitalRule(id: 31, type: "roundup", amount: usd(200)), QapitalRule(id: 32, type: "guilty_pleasure", amount: usd(300))])
        for (id, name, avatar) in [(11, "Sam", "sam"), (12, "Priya", "priya"), (13, "Tomás", "tomas")] {
            let user = QapitalLoader.user(try sample("qapital/users_\(id).json").0.value)
            #expect(user?.id == id)
            #expect(user?.displayName == name)
            #expect(user?.avatarURL == "http://avatars.example.net/qapital/\(avatar).jpg")
        }
    }

    // MARK: Errors and warnings

    @Test func aBadValueIsAnErrorNamingLineAndPathAndTheLoaderReadsOn() throws {
        let json = """
        {"savingsGoals": [
          {"id": 1, "name": "A", "userId": 1, "currentBalance": "lots", "status": "active"},
          {"id": 2, "name": "B", "userId": 1, "currentBalance": 0.785, "status": "active"},
          {"id": 3, "name": "C", "userId": 1, "currentBalance": 5, "status": "paused", "created": [2014, 13, 5]},
          {"id": 4, "name": "D", "userId": 1, "currentBalance": 5, "status": "active"}
        ]}
        """
        let (doc, log) = document(json, file: "qapital/savingsgoals.json")
        let goals = QapitalLoader.goals(in: try #require(doc), currency: .usd)
        #expect(goals.map(\.id) == [4])
        #expect(log.errors.map(\.path) == ["$.savingsGoals[0].currentBalance", "$.savingsGoals[1].currentBalance",
                                           "$.savingsGoals[2].status", "$.savingsGoals[2].created"])
        #expect(log.errors.map(\.line) == [2, 3, 4, 4])
        #expect(log.errors[1].message.contains("0.785"))
        #expect(log.errors[2].message == #"expected one of "active", "deleted", found "paused""#)
        #expect(log.errors[0].description.hasPrefix("qapital/savingsgoals.json:2:"))
    }

    @Test func aMissingRequiredFieldIsAnError() throws {
        let (doc, log) = document(#"{"feed": [{"id": "x", "type": "saving", "amount": 1, "userId": 1}]}"#, file: "qapital/feed/1.json")
        #expect(QapitalLoader.feed(in: try #require(doc), goalId: 1, currency: .usd).isEmpty)
        #expect(log.errors.count == 1)
        #expect(log.errors[0].message.contains(#"missing required field "timestamp""#))
    }

    @Test func danglingUsersAndRulesAreWarningsNotErrors() throws {
        let (data, log) = try loadFolder([
            "qapital/savingsgoals.json": #"{"savingsGoals": [{"id": 1, "name": "A", "userId": 1, "currentBalance": 5, "status": "active", "connectedUsers": [1, 7]}]}"#,
            "qapital/feed/1.json": #"{"feed": [{"id": "a", "type": "saving", "timestamp": "2015-03-10T14:55:16.025Z", "message": "x", "amount": 5, "userId": 7, "savingsRuleId": 9}]}"#,
            "qapital/savingsrules.json": #"{"savingsRules": []}"#,
            "qapital/users/1.json": #"{"userId": 1, "displayName": "Mikael", "avatarUrl": "http://example.com/m.jpg"}"#,
        ])
        #expect(!log.hasErrors, "\(log.diagnostics)")
        let warnings = log.warnings.map(\.description)
        #expect(warnings.contains { $0.hasPrefix("qapital/savingsgoals.json: warning: no qapital/users/7.json for user 7") })
        #expect(warnings.contains { $0.hasPrefix("qapital/feed/1.json: warning: 1 feed item name user 7") })
        #expect(warnings.contains { $0.contains("savings rule 9, which is not in qapital/savingsrules.json") })
        // The owner is not repeated among the connected users.
        #expect(data.qapital.goals[0].connectedUserIds == [7])
        let names = QapitalNames(data.qapital)
        let item = data.qapital.feed(of: 1)[0]
        #expect(names.user(item.userId) == "User 7")
        #expect(names.rule(of: item, money: { $0.decimalString }) == "Rule 9")
        #expect(names.ruleType(of: item) == "Rule 9")
    }

    @Test func strayFilesMismatchedNamesAndDuplicatesAreWarnings() throws {
        let goal = #"{"id": 1, "name": "A", "userId": 1, "currentBalance": 5, "status": "active"}"#
        let (data, log) = try loadFolder([
            "qapital/savingsgoals.json": "{\"savingsGoals\": [\(goal), \(goal)]}",
            "qapital/feed/99.json": #"{"feed": []}"#,
            "qapital/users/2.json": #"{"userId": 1, "displayName": "Mikael", "avatarUrl": "javascript:alert(1)"}"#,
        ])
        #expect(!log.hasErrors, "\(log.diagnostics)")
        #expect(data.qapital.goals.count == 1)
        let warnings = log.warnings.map(\.description)
        #expect(warnings.contains { $0.contains("duplicate goal id 1") })
        #expect(warnings.contains { $0.hasPrefix("qapital/feed/99.json: warning: no goal with id \"99\"") })
        #expect(warnings.contains { $0.contains("the file is named 2.json but holds user 1") })
        #expect(warnings.contains { $0.contains("avatarUrl is not an http or https URL") })
        #expect(!warnings.contains { $0.contains("not part of the input contract") })
        // The unsafe avatar never reaches a page.
        #expect(QapitalNames(data.qapital).avatar(1) == nil)
    }

    @Test func aQapitalFolderWithoutItsGoalsFileIsAnError() throws {
        let (_, log) = try loadFolder(["qapital/savingsrules.json": #"{"savingsRules": []}"#])
        #expect(log.errors.map(\.file) == ["qapital/savingsgoals.json"])
    }

    @Test func amountsAreInTheCurrencySetForTheSource() throws {
        let (data, log) = try loadFolder([
            "nestegg.json": #"{"currencies": {"qapital": "EUR"}}"#,
            "qapital/savingsgoals.json": #"{"savingsGoals": [{"id": 1, "name": "A", "userId": 1, "currentBalance": 12.5, "targetAmount": 100, "status": "active"}]}"#,
        ])
        #expect(!log.hasErrors, "\(log.diagnostics)")
        #expect(data.qapital.goals[0].saved == Money(minorUnits: 1250, currency: .eur))
        #expect(data.qapital.goals[0].target == Money(minorUnits: 10_000, currency: .eur))
        // Without the setting: USD.
        let (plain, _) = try loadFolder(["qapital/savingsgoals.json": #"{"savingsGoals": []}"#])
        #expect(plain.qapital.currency == .usd)
    }
}
