import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggModel
@testable import NestEggSupport
import NestEggWrite

/// Seeded random edits of a household's data, each followed by a rebuild that must equal a clean
/// build of the edited data, file for file, dotfiles included ("what changed" aside, which depends
/// on the build before by design). Whichever way the rebuild goes — the changed accounts mapped
/// and the others held as their summaries, pages kept by what they are made of, or everything
/// built — what it publishes is what a build from nothing publishes. Through the binary, on
/// synthetic data at scale 1 (`nestegg fixtures --scale 1`) with rates and budgets added.
///
/// `NESTEGG_RANDOM_EDITS` sets how many edits (50 by default), `NESTEGG_RANDOM_SEED` the seed.
@Suite(.serialized) struct RandomEditsTests {
    /// The same seed, the same edits, on every machine (SplitMix64, as the recurring payments' tests use).
    typealias Generator = RecurringTests.Seeded

    /// One kind of edit: its name, and what it does to the data folder (`false`: nothing to edit).
    typealias Edit = (name: String, apply: @Sendable (URL, inout Generator) throws -> Bool)

    static func feeds(_ data: URL) throws -> [URL] {
        let folder = data.appendingPathComponent("starling/feed")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0) }
    }

    /// Edits one random feed's items (`change` returns whether it changed anything).
    static func editFeed(_ data: URL, _ random: inout Generator, _ change: ([[String: Any]], inout Generator) -> [[String: Any]]?) throws -> Bool {
        let feeds = try feeds(data)
        guard let file = feeds.randomElement(using: &random) else { return false }
        var changed = false
        try UnitsBuildTests.editJSON(file) { object in
            let items = object["feedItems"] as? [[String: Any]] ?? []
            if let edited = change(items, &random) {
                object["feedItems"] = edited
                changed = true
            }
        }
        return changed
    }

    static func time(_ item: [String: Any]) -> Int64 {
        Instant(iso8601: item["transactionTime"] as? String ?? "")?.millisecondsSinceEpoch ?? 0
    }

    /// A copy of a settled outgoing item of `items`, a new UID, at `time` (milliseconds).
    static func payment(like items: [[String: Any]], at time: Int64, _ random: inout Generator, tag: String) -> [String: Any]? {
        let out = items.filter { $0["direction"] as? String == "OUT" && $0["status"] as? String == "SETTLED" }
        guard var item = out.randomElement(using: &random) else { return nil }
        item["feedItemUid"] = "edit-\(tag)-\(random.next() % 1_000_000_000)"
        let text = Instant(millisecondsSinceEpoch: time).utcText
        item["transactionTime"] = text
        item["updatedAt"] = text
        return item
    }

    static let day: Int64 = 86_400_000

    /// Every kind of edit the issue names, each as a household's data changes.
    static let edits: [Edit] = [
        ("a payment today", { data, random in try editFeed(data, &random) { items, random in
            let newest = items.map(time).max() ?? 0
            return payment(like: items, at: newest + Int64(random.next() % 5 + 1) * 3_600_000, &random, tag: "today").map { items + [$0] }
        } }),
        ("a payment back-dated into this month", { data, random in try editFeed(data, &random) { items, random in
            let newest = items.map(time).max() ?? 0
            return payment(like: items, at: newest - Int64(random.next() % 10 + 1) * day, &random, tag: "back").map { items + [$0] }
        } }),
        ("a payment in an old month", { data, random in try editFeed(data, &random) { items, random in
            let newest = items.map(time).max() ?? 0
            return payment(like: items, at: newest - Int64(random.next() % 200 + 120) * day, &random, tag: "old").map { items + [$0] }
        } }),
        ("an old payment's amount", { data, random in try editFeed(data, &random) { items, random in
            let old = items.indices.filter { items[$0]["direction"] as? String == "OUT" }
            guard let index = old.randomElement(using: &random) else { return nil }
            var items = items, amount = items[index]["amount"] as? [String: Any] ?? [:]
            amount["minorUnits"] = Int(random.next() % 50_000 + 1)
            items[index]["amount"] = amount
            items[index]["sourceAmount"] = amount
            return items
        } }),
        ("an old payment's payee", { data, random in try editFeed(data, &random) { items, random in
            guard let index = items.indices.randomElement(using: &random) else { return nil }
            var items = items
            items[index]["counterPartyName"] = ["Corner Shop", "Tesco", "A New Payee \(random.next() % 100)"].randomElement(using: &random)!
            return items
        } }),
        ("an old payment's category", { data, random in try editFeed(data, &random) { items, random in
            let out = items.indices.filter { items[$0]["direction"] as? String == "OUT" }
            guard let index = out.randomElement(using: &random) else { return nil }
            var items = items
            items[index]["spendingCategory"] = ["GROCERIES", "EATING_OUT", "TRANSPORT", "HOLIDAYS", "GENERAL"].randomElement(using: &random)!
            return items
        } }),
        ("a payment deleted", { data, random in try editFeed(data, &random) { items, random in
            guard items.count > 1, let index = items.indices.randomElement(using: &random) else { return nil }
            var items = items
            items.remove(at: index)
            return items
        } }),
        ("a pending payment settled", { data, random in try editFeed(data, &random) { items, random in
            let pending = items.indices.filter { items[$0]["status"] as? String == "PENDING" }
            guard let index = pending.randomElement(using: &random) else { return nil }
            var items = items
            items[index]["status"] = "SETTLED"
            return items
        } }),
        ("an account renamed", { data, random in
            try UnitsBuildTests.editJSON(data.appendingPathComponent("starling/accounts.json")) { object in
                var accounts = object["accounts"] as? [[String: Any]] ?? []
                guard !accounts.isEmpty else { return }
                let index = Int(random.next() % UInt64(accounts.count))
                accounts[index]["name"] = "Renamed \(random.next() % 1000)"
                object["accounts"] = accounts
            }
            return true
        }),
        ("a balance", { data, random in
            let folder = data.appendingPathComponent("starling/balances")
            guard let file = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().randomElement(using: &random) else { return false }
            try UnitsBuildTests.editJSON(folder.appendingPathComponent(file)) { object in
                let units = Int(random.next() % 5_000_000)
                for key in ["clearedBalance", "effectiveBalance", "totalClearedBalance"] where object[key] != nil {
                    var money = object[key] as? [String: Any] ?? [:]
                    money["minorUnits"] = units
                    object[key] = money
                }
            }
            return true
        }),
        ("a savings goal", { data, random in
            let folder = data.appendingPathComponent("starling/savings-goals")
            guard let file = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().randomElement(using: &random) else { return false }
            var changed = false
            try UnitsBuildTests.editJSON(folder.appendingPathComponent(file)) { object in
                var goals = object["savingsGoalList"] as? [[String: Any]] ?? []
                guard !goals.isEmpty else { return }
                let index = Int(random.next() % UInt64(goals.count))
                var saved = goals[index]["totalSaved"] as? [String: Any] ?? [:]
                saved["minorUnits"] = Int(random.next() % 200_000)
                goals[index]["totalSaved"] = saved
                object["savingsGoalList"] = goals
                changed = true
            }
            return changed
        }),
        ("a goal of the savings app", { data, random in
            try UnitsBuildTests.editJSON(data.appendingPathComponent("qapital/savingsgoals.json")) { object in
                var goals = object["savingsGoals"] as? [[String: Any]] ?? []
                guard !goals.isEmpty else { return }
                let index = Int(random.next() % UInt64(goals.count))
                goals[index]["currentBalance"] = Int(random.next() % 2_000)
                object["savingsGoals"] = goals
            }
            return true
        }),
        ("an entry of the transactions app", { data, random in
            let file = data.appendingPathComponent("transactions/transactions.json")
            var entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
            guard !entries.isEmpty else { return false }
            let index = Int(random.next() % UInt64(entries.count))
            entries[index]["amount"] = Int(random.next() % 300 + 1)
            entries[index]["pinned"] = random.next() % 2 == 0
            try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys]).write(to: file)
            return true
        }),
        ("a transfer's status", { data, random in
            let file = data.appendingPathComponent("transfers/transfers.json")
            var transfers = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
            guard !transfers.isEmpty else { return false }
            let index = Int(random.next() % UInt64(transfers.count))
            transfers[index]["tstatus"] = ["001", "002", "003"].randomElement(using: &random)!
            try JSONSerialization.data(withJSONObject: transfers, options: [.sortedKeys]).write(to: file)
            return true
        }),
        ("a rate", { data, random in
            // In the text, as the API wrote it: one rate of the file changed.
            let file = data.appendingPathComponent("rates/GBP.json")
            var text = try String(contentsOf: file, encoding: .utf8)
            let rates = text.ranges(of: #/"EUR": ?[0-9.]+/#)
            guard let range = rates.randomElement(using: &random) else { return false }
            text.replaceSubrange(range, with: "\"EUR\": 1.\(1000 + random.next() % 8999)")
            try Data(text.utf8).write(to: file)
            return true
        }),
        ("a budget", { data, random in
            try UnitsBuildTests.editJSON(data.appendingPathComponent("nestegg.json")) { object in
                var budgets = object["budgets"] as? [String: Any] ?? [:]
                budgets[["Groceries", "Eating out", "Transport"].randomElement(using: &random)!] = "\(random.next() % 500 + 10).00"
                object["budgets"] = budgets
            }
            return true
        }),
        ("the title", { data, random in
            try UnitsBuildTests.editJSON(data.appendingPathComponent("nestegg.json")) { object in object["title"] = "Household \(random.next() % 1000)" }
            return true
        }),
    ]

    @Test func everyRebuildAfterARandomEditIsACleanBuild() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["NESTEGG_RANDOM_EDITS"].flatMap(Int.init) ?? 50
        let seed = environment["NESTEGG_RANDOM_SEED"].flatMap(UInt64.init) ?? 2026
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), site = work.appendingPathComponent("site"), clean = work.appendingPathComponent("clean")
        #expect(try NestEggBinary.run(["fixtures", "--scale", "1", "--seed", "42", "--out", data.path]).status == 0)
        // Rates and budgets, which the synthetic data does not have.
        try FileManager.default.createDirectory(at: data.appendingPathComponent("rates"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures/rates/GBP.json"), to: data.appendingPathComponent("rates/GBP.json"))
        try UnitsBuildTests.editJSON(data.appendingPathComponent("nestegg.json")) { $0["budgets"] = ["Groceries": "250.00", "Eating out": "120.00"] }
        func build(_ output: URL) throws -> String {
            let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        _ = try build(site)
        var random = Generator(state: seed)
        var done: [String] = [], ways: [String: Int] = [:]
        while done.count < count {
            let edit = Self.edits[Int(random.next() % UInt64(Self.edits.count))]
            guard try edit.apply(data, &random) else { continue }
            done.append(edit.name)
            let said = try build(site)
            let way = said.contains(UnitsBuildTests.mapsSome) ? "some accounts mapped" : said.contains("up to date") ? "up to date" : "every account"
            ways[way, default: 0] += 1
            try? FileManager.default.removeItem(at: clean)
            try? FileManager.default.removeItem(at: StateFolder.of(clean))
            _ = try build(clean)
            let differing = siteDifferences(site, clean)
            #expect(differing.isEmpty, "edit \(done.count) (\(edit.name); seed \(seed)): \(differing.prefix(5))")
            if !differing.isEmpty { break }
        }
        // Both ways through the build were taken, and every kind of edit was made (a run of a few
        // edits, NESTEGG_RANDOM_EDITS, may take one way only).
        if count >= 20 { #expect(ways["some accounts mapped", default: 0] > 0 && ways["every account", default: 0] > 0, "\(ways)") }
        if count >= 50 { #expect(Set(done).count == Self.edits.count, "kinds made: \(Set(done).sorted())") }
    }
}
