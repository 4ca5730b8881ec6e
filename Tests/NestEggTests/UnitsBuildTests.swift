import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggSupport
@testable import NestEggWrite

/// A rebuild whose input changed in some Starling accounts' files only maps those accounts
/// (``Units``): it reads their feeds alone, holds every other account as the summary the last
/// build left beside its cache, and keeps that account's files as they were. Whatever changed,
/// the rebuilt site is what a clean build of the edited data writes, file for file, dotfiles
/// included ("what changed" aside, which depends on the build before); an edit outside the
/// accounts' files (a setting, a template, a goal of the savings app, the accounts list) builds
/// everything. Run through the binary on synthetic data (`nestegg fixtures --scale 1`).
@Suite(.serialized) struct UnitsBuildTests {
    static let mapsSome = "accounts changed since the last build"
    static let fellBack = "building every account"

    func build(_ data: URL, _ output: URL, templates: URL? = nil) throws -> NestEggBinary.Result {
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path]
                                           + (templates.map { ["--templates", $0.path] } ?? []))
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    /// A folder of its own holding `data`, synthetic data (`nestegg fixtures --scale`), and the path
    /// of a `site` to build it into.
    func synthetic(scale: Int) throws -> (work: URL, data: URL, site: URL) {
        let work = try temporaryFolder()
        let data = work.appendingPathComponent("data"), site = work.appendingPathComponent("site")
        let fixtures = try NestEggBinary.run(["fixtures", "--scale", "\(scale)", "--seed", "42", "--out", data.path])
        #expect(fixtures.status == 0, "\(fixtures.stderr)")
        return (work, data, site)
    }

    /// The size and modification time of every file under `root`, by path.
    func stamps(_ root: URL) -> [String: FileStamp] {
        var found: [String: FileStamp] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            if let stamp = FileStamp(path: root.appendingPathComponent(path).path) { found[path] = stamp }
        }
        return found
    }

    static func editJSON(_ file: URL, _ change: (inout [String: Any]) throws -> Void) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        try change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: file)
    }

    /// `make bench`'s edit: five payments, copies of the newest item of the first feed by name, a day after it, an hour apart.
    static func aDaysPayments(_ data: URL) throws -> String {
        let feed = data.appendingPathComponent("starling/feed")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted().first)
        try editJSON(feed.appendingPathComponent(file)) { object in
            var items = try #require(object["feedItems"] as? [[String: Any]])
            let newest = try #require(items.max { ($0["transactionTime"] as! String) < ($1["transactionTime"] as! String) })
            let time = try #require(Instant(iso8601: newest["transactionTime"] as! String))
            for n in 0..<5 {
                var item = newest
                item["feedItemUid"] = "units-day-\(items.count)-\(n)"
                item["transactionTime"] = Instant(millisecondsSinceEpoch: time.millisecondsSinceEpoch + Int64(86_400 + n * 3_600) * 1000).utcText
                items.append(item)
            }
            object["feedItems"] = items
        }
        return String(file.dropLast(".json".count))
    }

    /// The map stages each account's summary beside the cache as it is made; the templates are
    /// taken after it. A build that then fails on a broken template leaves no summary staged, nor
    /// the summaries' folder it made; one after a good build leaves the last summaries as they were.
    @Test func aBuildThatFailsAfterTheMapLeavesNoSummaryStaged() throws {
        let (work, data, site) = try synthetic(scale: 1)
        defer { try? FileManager.default.removeItem(at: work) }
        let broken = work.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("# {{title}}\n\n{{#accounts}}\n".utf8).write(to: broken.appendingPathComponent("index.md.mustache"))
        func failedBuild() throws {
            let result = try NestEggBinary.run(["build", "--data", data.path, "--output", site.path, "--templates", broken.path])
            #expect(result.status == 78, "\(result.stderr)")
        }
        try failedBuild()
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["data", "templates"])
        _ = try build(data, site)
        let summaries = StateFolder.units(of: site)
        func files() throws -> [String: Data] {
            let names = try FileManager.default.contentsOfDirectory(atPath: summaries.path)
            return try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: summaries.appendingPathComponent($0))) })
        }
        let before = try files()
        #expect(!before.isEmpty && before.keys.allSatisfy { $0.hasSuffix(".census") })
        _ = try Self.aDaysPayments(data)
        try failedBuild()
        #expect(try files() == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(left.contains(".site.nestegg") && !left.contains { $0.contains("nestegg-beside") || $0.contains("nestegg-staging") }, "\(left)")
    }

    /// A build stopped by SIGTERM once the map has staged the accounts' summaries (the folder it
    /// made for them is there) removes them with that folder and the list beside the output:
    /// nothing of the build is left.
    @Test func aBuildStoppedAfterTheMapRemovesTheSummariesItStaged() throws {
        let (work, data, site) = try synthetic(scale: 1)
        defer { try? FileManager.default.removeItem(at: work) }
        let summaries = StateFolder.units(of: site)
        let process = Process()
        process.executableURL = try #require(NestEggBinary.url)
        process.arguments = ["build", "-q", "--data", data.path, "--output", site.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var staged = false
        for _ in 0..<4000 where !staged && process.isRunning {
            staged = FileManager.default.fileExists(atPath: summaries.path)
            if !staged { Thread.sleep(forTimeInterval: 0.005) }
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(staged && process.terminationStatus == 143, "staged: \(staged), exit \(process.terminationStatus)")
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(left == ["data"], "\(left)")
    }

    /// Each staged summary holds a descriptor until the commit: a build of more accounts than the
    /// soft limit on open files allows (20 accounts under 24; `ulimit -Sn`, the hard limit left as
    /// it is) raises the soft limit and succeeds, its rebuild after a day's payments too. (Before,
    /// both failed with "Too many open files", exit 73.)
    @Test func moreAccountsThanTheSoftLimitOnOpenFilesBuild() throws {
        let (work, data, site) = try synthetic(scale: 2)
        defer { try? FileManager.default.removeItem(at: work) }
        let binary = try #require(NestEggBinary.url)
        func limitedBuild() throws -> NestEggBinary.Result {
            let result = try HostileIOTests.shell("ulimit -Sn 24 && exec \"$0\" build --data \"$1\" --output \"$2\"", [binary.path, data.path, site.path])
            #expect(result.status == 0, "\(result.stderr)")
            return result
        }
        _ = try limitedBuild()
        _ = try Self.aDaysPayments(data)
        #expect(try limitedBuild().stderr.contains(Self.mapsSome))
    }

    @Test func aRebuildMapsOnlyTheChangedAccountsAndIsACleanBuild() throws {
        let (work, data, site) = try synthetic(scale: 1)
        defer { try? FileManager.default.removeItem(at: work) }
        _ = try build(data, site)
        let summaries = StateFolder.units(of: site)
        let kept = try FileManager.default.contentsOfDirectory(atPath: summaries.path).filter { $0.hasSuffix(".census") }
        #expect(kept.count > 2, "a summary of each account beside the cache: \(kept)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent(BuildCache.fileName).path), "none in the site")

        /// Rebuilds after `edit`, checks which way it went, and compares with a clean build.
        /// (`newStatements`: the edit changes the edited account's statements, which are rendered again.)
        func rebuild(_ name: String, mapsSome: Bool, newStatements: Bool = false, templates: URL? = nil, _ edit: () throws -> Void) throws {
            let before = stamps(site)
            let cacheBefore = BuildCache.read(at: BuildCache.defaultFile(for: site))
            try edit()
            let rebuilt = try build(data, site, templates: templates)
            #expect(rebuilt.stderr.contains(Self.mapsSome) == mapsSome, "\(name): \(rebuilt.stderr)")
            #expect(!rebuilt.stderr.contains(Self.fellBack), "\(name): \(rebuilt.stderr)")
            let clean = work.appendingPathComponent("clean")
            try? FileManager.default.removeItem(at: clean)
            try? FileManager.default.removeItem(at: BuildCache.defaultFile(for: clean))
            _ = try build(data, clean, templates: templates)
            let differing = siteDifferences(site, clean)
            #expect(differing.isEmpty, "\(name): \(differing.prefix(5))")
            if mapsSome {
                // The held accounts' files are the last build's own: not written again.
                let after = stamps(site)
                let statements = before.keys.filter { $0.hasPrefix("statements/") && $0.hasSuffix(".html") && $0.split(separator: "/").count == 3 }
                let untouched = statements.filter { after[$0] == before[$0] }
                #expect(!untouched.isEmpty, "\(name): the other accounts' statements kept")
                if newStatements { #expect(untouched.count < statements.count, "\(name): the edited account's statements rendered") }
                // The held accounts' final statements' digests go on to the next cache as they were;
                // only the mapped account's may change.
                let cacheAfter = try #require(BuildCache.read(at: BuildCache.defaultFile(for: site)))
                let previous = try #require(cacheBefore).statementDigests
                #expect(!previous.isEmpty)
                let lost = previous.keys.filter { cacheAfter.statementDigests[$0] == nil }
                #expect(lost.isEmpty, "\(name): \(lost.prefix(3))")
                let changed = Set(previous.filter { cacheAfter.statementDigests[$0.key] != $0.value }.keys.map { $0.split(separator: "/").dropLast() })
                #expect(changed.count <= 1, "\(name): digests of \(changed.count) accounts changed")
            }
        }

        var editedAccount = ""
        let listsBefore = stamps(site).filter { $0.key.hasPrefix("transactions/") && $0.key.contains(".page") }
        try rebuild("a day's payments in one feed", mapsSome: true, newStatements: true) { editedAccount = try Self.aDaysPayments(data) }
        #expect(!editedAccount.isEmpty)
        // The lists' older pages show older rows only: kept, and keyed for the next build by what they show besides them.
        let listsAfter = stamps(site)
        #expect(listsBefore.count > 10 && listsBefore.filter { listsAfter[$0.key] == $0.value }.count >= listsBefore.count - 12,
                "the lists' older pages kept")
        let keyed = try #require(BuildCache.read(at: BuildCache.defaultFile(for: site))).keys.keys.filter { $0.hasPrefix("transactions/") }
        let pages = Set(listsBefore.keys.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) })
        #expect(pages.count > 10 && Set(keyed).isSuperset(of: pages), "every older page of the lists keyed: \(pages.subtracting(keyed).sorted().prefix(5))")
        // A row that changes far back, in one account, and nothing else the older pages show (its
        // payee's, its category's pages stay where they are): every page from its month on is worked out again.
        try rebuild("an old payment's amount changed", mapsSome: true, newStatements: true) {
            let feed = data.appendingPathComponent("starling/feed/\(editedAccount).json")
            try Self.editJSON(feed) { object in
                var items = try #require(object["feedItems"] as? [[String: Any]])
                let oldest = try #require(items.indices.filter { items[$0]["direction"] as? String == "OUT" }
                    .min { (items[$0]["transactionTime"] as! String) < (items[$1]["transactionTime"] as! String) })
                for key in ["amount", "sourceAmount"] {
                    var amount = try #require(items[oldest][key] as? [String: Any])
                    amount["minorUnits"] = (amount["minorUnits"] as? Int ?? 0) + 101
                    items[oldest][key] = amount
                }
                object["feedItems"] = items
            }
        }
        try rebuild("a payment to a new payee, in another category", mapsSome: true, newStatements: true) {
            let feed = data.appendingPathComponent("starling/feed/\(editedAccount).json")
            try Self.editJSON(feed) { object in
                var items = try #require(object["feedItems"] as? [[String: Any]])
                let index = try #require(items.indices.filter { items[$0]["direction"] as? String == "OUT" }
                    .max { (items[$0]["transactionTime"] as! String) < (items[$1]["transactionTime"] as! String) })
                var item = items[index]
                item["feedItemUid"] = "units-new-payee"
                item["counterPartyName"] = "Aardvark Newcomer Ltd"
                item["spendingCategory"] = "GIFTS"
                items.append(item)
                object["feedItems"] = items
            }
        }
        try rebuild("a changed savings goal of one account", mapsSome: true) {
            let goals = data.appendingPathComponent("starling/savings-goals")
            let file = try #require(try FileManager.default.contentsOfDirectory(atPath: goals.path).sorted().last)
            try Self.editJSON(goals.appendingPathComponent(file)) { object in
                let key = try #require(object.keys.first { object[$0] is [[String: Any]] })
                var list = try #require(object[key] as? [[String: Any]])
                try #require(!list.isEmpty)
                list[0]["name"] = "A renamed goal"
                object[key] = list
            }
        }
        try rebuild("a changed goal of the savings app", mapsSome: false) {
            try Self.editJSON(data.appendingPathComponent("qapital/savingsgoals.json")) { object in
                var goals = try #require(object["savingsGoals"] as? [[String: Any]])
                goals[0]["name"] = "Renamed goal"
                object["savingsGoals"] = goals
            }
        }
        try rebuild("a changed setting", mapsSome: false) {
            try Self.editJSON(data.appendingPathComponent("nestegg.json")) { object in object["title"] = "Another title" }
        }
        let templates = work.appendingPathComponent("templates")
        try rebuild("a changed template", mapsSome: false, templates: templates) {
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            let layout = repositoryRoot.appendingPathComponent("Templates/layout.html.mustache")
            try (try String(contentsOf: layout, encoding: .utf8).replacingOccurrences(of: "Generated by NestEgg", with: "Made by NestEgg"))
                .write(to: templates.appendingPathComponent("layout.html.mustache"), atomically: true, encoding: .utf8)
        }
        try rebuild("a deleted account", mapsSome: false, templates: templates) {
            try Self.editJSON(data.appendingPathComponent("starling/accounts.json")) { object in
                var accounts = try #require(object["accounts"] as? [[String: Any]])
                let uid = try #require(accounts.removeLast()["accountUid"] as? String)
                object["accounts"] = accounts
                for folder in ["balances", "feed", "identifiers", "savings-goals"] {
                    try? FileManager.default.removeItem(at: data.appendingPathComponent("starling/\(folder)/\(uid).json"))
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: summaries.path).filter { $0.hasSuffix(".census") }.count == kept.count - 1,
                "the deleted account's summary goes")
        // After the full builds, the same edit maps one account again.
        try rebuild("another day's payments", mapsSome: true, newStatements: true, templates: templates) { _ = try Self.aDaysPayments(data) }
    }

    /// A held account's file changed behind nestegg's back, or its summary damaged: the rebuild
    /// builds every account, and the site is a clean build's.
    @Test func aTamperedFileOrSummaryBuildsEverything() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), site = work.appendingPathComponent("site")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures"), to: data)
        _ = try build(data, site)
        // The budgets (which the Fixtures set) are checked against the held accounts' spending categories as recorded.
        let changed = try Self.aDaysPayments(data)
        let mapped = try build(data, site)
        #expect(mapped.stderr.contains(Self.mapsSome) && !mapped.stderr.contains(Self.fellBack), "\(mapped.stderr)")
        let cleanFirst = work.appendingPathComponent("clean-first")
        _ = try build(data, cleanFirst)
        #expect(siteDifferences(site, cleanFirst).isEmpty)
        _ = try Self.aDaysPayments(data)
        // Another account's statement, changed by hand.
        let cache = try #require(BuildCache.read(at: BuildCache.defaultFile(for: site)))
        let other = try #require(cache.units.keys.sorted().first { $0 != changed })
        let file = try #require(cache.units[other]?.files.first { $0.hasSuffix(".html") })
        let tampered = site.appendingPathComponent(file)
        try (try String(contentsOf: tampered, encoding: .utf8) + "<!-- edited -->").write(to: tampered, atomically: false, encoding: .utf8)
        let rebuilt = try build(data, site)
        #expect(rebuilt.stderr.contains(Self.fellBack), "\(rebuilt.stderr)")
        // What the rebuild that fell back had staged (its summaries, its list beside the output) is gone.
        func nothingStagedLeft() throws -> Bool {
            let summaries = StateFolder.units(of: site)
            return try FileManager.default.contentsOfDirectory(atPath: summaries.path).allSatisfy { $0.hasSuffix(".census") }
                && !FileManager.default.contentsOfDirectory(atPath: work.path).contains { $0.hasPrefix(".nestegg-beside-") }
        }
        #expect(try nothingStagedLeft())
        let clean = work.appendingPathComponent("clean")
        _ = try build(data, clean)
        #expect(siteDifferences(site, clean).isEmpty)

        // A held account's summary cut short: not read, everything built.
        _ = try Self.aDaysPayments(data)
        let summary = Units.file(of: other, in: StateFolder.units(of: site))
        let bytes = try Data(contentsOf: summary)
        try bytes.prefix(bytes.count / 2).write(to: summary)
        let again = try build(data, site)
        #expect(!again.stderr.contains(Self.mapsSome), "\(again.stderr)")
        try FileManager.default.removeItem(at: clean)
        try? FileManager.default.removeItem(at: BuildCache.defaultFile(for: clean))
        _ = try build(data, clean)
        #expect(siteDifferences(site, clean).isEmpty)

        // An older page of the transactions lists changed by hand: the rebuild, which reads no row
        // of the pages it keeps by their key, cannot make it again, and builds everything.
        _ = try Self.aDaysPayments(data)
        let listPage = try #require(SiteWriter.listFiles(under: site).filter { $0.hasPrefix("transactions/index.page") && $0.hasSuffix(".html") }.min())
        let page = site.appendingPathComponent(listPage)
        try (try String(contentsOf: page, encoding: .utf8) + "<!-- edited -->").write(to: page, atomically: false, encoding: .utf8)
        let third = try build(data, site)
        #expect(third.stderr.contains(Self.fellBack) && third.stderr.contains("transactions lists"), "\(third.stderr)")
        #expect(try nothingStagedLeft())
        try FileManager.default.removeItem(at: clean)
        try? FileManager.default.removeItem(at: BuildCache.defaultFile(for: clean))
        _ = try build(data, clean)
        #expect(siteDifferences(site, clean).isEmpty)
    }

    /// An account's UID is the data's text: one that reads as a path (`../../escape`) names no
    /// file outside the summaries folder, through a full build and a rebuild that holds it.
    @Test func aUIDThatReadsAsAPathWritesNothingOutsideTheSummaries() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let fixtures = try NestEggBinary.run(["fixtures", "--scale", "1", "--seed", "42", "--out", data.path])
        #expect(fixtures.status == 0, "\(fixtures.stderr)")
        let accountsFile = data.appendingPathComponent("starling/accounts.json")
        var uids: [String] = []
        try Self.editJSON(accountsFile) { object in
            var accounts = try #require(object["accounts"] as? [[String: Any]])
            uids = accounts.compactMap { $0["accountUid"] as? String }
            accounts[accounts.count - 1]["accountUid"] = "../../escape"
            object["accounts"] = accounts
        }
        // The account's own files go with it (a feed's name is its UID, so this one has none).
        for folder in ["feed", "balances", "savings-goals", "identifiers"] {
            try? FileManager.default.removeItem(at: data.appendingPathComponent("starling/\(folder)/\(uids.last!).json"))
        }
        let nested = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let site = nested.appendingPathComponent("site")
        _ = try build(data, site)
        _ = try Self.aDaysPayments(data)
        #expect(try build(data, site).stderr.contains(Self.mapsSome))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["a", "data"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("a").path).sorted() == ["b"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested.path).sorted()
                == [".site.nestegg", "site"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested.appendingPathComponent(".site.nestegg").path).sorted() == ["cache", "spare", "units"])
        let summaries = try FileManager.default.contentsOfDirectory(atPath: nested.appendingPathComponent(".site.nestegg/units").path)
        #expect(summaries.count == uids.count && summaries.contains(Units.fileName(of: "../../escape")))
    }
}
