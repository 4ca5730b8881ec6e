import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport
@testable import NestEggWrite

/// A rebuild keeps the files of every page whose fingerprint (templates, view data, layout, the
/// executable) is as the last build recorded, and renders the rest; the result must be what a
/// clean build of the same input writes, byte for byte, whatever was edited.
@Suite(.serialized) struct IncrementalBuildTests {
    typealias Edit = @Sendable (URL) throws -> Void

    static func editJSON(_ file: URL, _ change: (inout Any) -> Void) throws {
        var value = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        change(&value)
        try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }

    /// Appends five copies of the newest transaction of the first feed (by file name), `days` after it:
    /// the data's as-of date moves, and with it every other account's periods in progress.
    static func laterTransactions(_ data: URL, days: Int) throws {
        let feed = data.appendingPathComponent("starling/feed")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted().first)
        try editJSON(feed.appendingPathComponent(file)) { value in
            var object = value as! [String: Any]
            var items = object["feedItems"] as! [[String: Any]]
            let newest = items.max { ($0["transactionTime"] as! String) < ($1["transactionTime"] as! String) }!
            let time = Instant(iso8601: newest["transactionTime"] as! String)!
            for n in 0..<5 {
                var item = newest
                item["feedItemUid"] = "incremental-later-\(days)-\(n)"
                item["transactionTime"] = Instant(millisecondsSinceEpoch: time.millisecondsSinceEpoch + Int64(days * 86_400 + n * 3_600) * 1000).utcText
                items.append(item)
            }
            object["feedItems"] = items
            value = object
        }
    }

    /// Renames the `index`th element (from the end when negative) of the list `list` in `file`.
    static func rename(_ file: URL, list: String, at index: Int, to name: String) throws {
        try editJSON(file) { value in
            var object = value as! [String: Any]
            var elements = object[list] as! [[String: Any]]
            elements[index < 0 ? elements.count + index : index]["name"] = name
            object[list] = elements
            value = object
        }
    }

    static let edits: [(name: String, keepsPages: Bool, edit: Edit)] = [
        ("a day's transactions after the newest", true, { try laterTransactions($0, days: 1) }),
        // What a final statement or a finished week shows of files that no page names as its own.
        ("a renamed account", true, { try rename($0.appendingPathComponent("starling/accounts.json"), list: "accounts", at: -1, to: "Renamed account") }),
        ("another account holder", true, { data in
            try editJSON(data.appendingPathComponent("starling/account-holder.json")) { value in
                var object = value as! [String: Any]
                object["accountHolderName"] = "Another Holder"
                value = object
            }
        }),
        ("transactions three weeks after the newest", true, { try laterTransactions($0, days: 21) }),
        ("a new transaction", true, { data in
            let feed = data.appendingPathComponent("starling/feed")
            let file = try #require(try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted().first)
            try editJSON(feed.appendingPathComponent(file)) { value in
                var object = value as! [String: Any]
                var items = object["feedItems"] as! [[String: Any]]
                var item = items[0]
                item["feedItemUid"] = "incremental-test-item"
                item["counterPartyName"] = "A New Shop"
                items.insert(item, at: 0)
                object["feedItems"] = items
                value = object
            }
        }),
        ("a changed goal", true, { try rename($0.appendingPathComponent("qapital/savingsgoals.json"), list: "savingsGoals", at: 0, to: "Renamed goal") }),
        ("a removed loan", true, { data in
            try editJSON(data.appendingPathComponent("kiva/loans.json")) { value in
                var object = value as! [String: Any]
                var loans = object["loans"] as! [Any]
                loans.removeFirst()
                object["loans"] = loans
                value = object
            }
        }),
        // The account leaves the list, and its balance, feed and identifiers go with it: its pages
        // are removed, the other account's kept.
        ("a deleted account", true, { data in
            var uid = ""
            try editJSON(data.appendingPathComponent("starling/accounts.json")) { value in
                var object = value as! [String: Any]
                var accounts = object["accounts"] as! [[String: Any]]
                uid = accounts.removeLast()["accountUid"] as! String
                object["accounts"] = accounts
                value = object
            }
            for folder in ["balances", "feed", "identifiers", "savings-goals"] {
                let file = data.appendingPathComponent("starling/\(folder)/\(uid).json")
                if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            }
        }),
        ("a changed setting", false, { data in
            try editJSON(data.appendingPathComponent("nestegg.json")) { value in
                var object = value as! [String: Any]
                object["title"] = "Another title"
                value = object
            }
        }),
    ]

    func build(_ data: URL, _ output: URL, templates: URL? = nil) throws -> NestEggBinary.Result {
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path]
                                           + (templates.map { ["--templates", $0.path] } ?? []))
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    /// A copy of the fixtures in a new temporary folder (`work`), built once into `incremental`.
    func builtFixtures() throws -> (work: URL, data: URL, incremental: URL) {
        let work = try temporaryFolder()
        let data = work.appendingPathComponent("data"), incremental = work.appendingPathComponent("incremental")
        do {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures"), to: data)
            _ = try build(data, incremental)
        } catch {
            try? FileManager.default.removeItem(at: work)
            throw error
        }
        return (work, data, incremental)
    }

    @Test(arguments: 0..<edits.count)
    func anIncrementalBuildIsACleanBuild(_ index: Int) throws {
        let (name, keepsPages, edit) = Self.edits[index]
        let (work, data, incremental) = try builtFixtures()
        defer { try? FileManager.default.removeItem(at: work) }
        try edit(data)
        let rebuild = try build(data, incremental)
        #expect(rebuild.stderr.contains("unchanged since the last build, kept") == keepsPages, "\(name): \(rebuild.stderr)")
        let clean = work.appendingPathComponent("clean")
        _ = try build(data, clean)
        let differing = siteDifferences(incremental, clean)
        #expect(differing.isEmpty, "\(name): \(differing.prefix(5))")
    }

    /// A rebuild takes a final statement's digest from the cache while its account's inputs are
    /// as they were, and works it out again when they are not: with every recorded digest replaced,
    /// the account whose feed changed gets its real digests back, the other keeps what the cache says.
    @Test func finalStatementDigestsComeFromTheCacheWhileTheirInputsAreUnchanged() throws {
        let (work, data, incremental) = try builtFixtures()
        defer { try? FileManager.default.removeItem(at: work) }
        let cacheFile = BuildCache.defaultFile(for: incremental)
        let bogus = String(repeating: "0", count: 64)
        var cache = try #require(BuildCache.read(at: cacheFile))
        #expect(!cache.statementDigests.isEmpty, "the cache keeps final statements' digests")
        for id in cache.statementDigests.keys { cache.statementDigests[id]?.digest = bogus }
        // Without the accounts as units, the rebuild works out every account's statements (a rebuild
        // that holds the unchanged account as its summary takes its manifest entries whole: UnitsBuildTests).
        cache.units = [:]
        try cache.text.write(to: cacheFile, atomically: false, encoding: .utf8)
        // One account's feed, the same data written out again: its files' digest changes, nothing else.
        let feed = data.appendingPathComponent("starling/feed")
        let changed = try #require(try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted().last)
        try Self.editJSON(feed.appendingPathComponent(changed)) { _ in }
        _ = try build(data, incremental)
        let manifest = try String(contentsOf: incremental.appendingPathComponent("statements/manifest.json"), encoding: .utf8)
        let uid = String(changed.dropLast(".json".count))
        let entries = manifest.components(separatedBy: "\"account\": {").dropFirst()
        let own = entries.filter { $0.hasPrefix("\"uid\": \"\(uid)\"") }, others = entries.filter { !$0.hasPrefix("\"uid\": \"\(uid)\"") }
        #expect(!own.isEmpty && !others.isEmpty)
        #expect(own.allSatisfy { !$0.contains(bogus) }, "the changed account's digests are worked out again")
        #expect(others.contains { $0.contains(bogus) }, "the other account's final statements take the recorded digest")
    }

    /// The pages of the sources that are not Starling accounts (Kiva's loans, countries and lender,
    /// the transfers, each Qapital goal) are made of no account's data: after a Starling account's
    /// later transactions (which move the data's as-of date) their views, so their fingerprints,
    /// are as they were, and their files are kept (the same modification times).
    @Test func theOtherSourcesPagesAreKeptAfterAnAccountsTransactions() throws {
        let (work, data, incremental) = try builtFixtures()
        defer { try? FileManager.default.removeItem(at: work) }
        let cacheFile = BuildCache.defaultFile(for: incremental)
        let before = try #require(BuildCache.read(at: cacheFile))
        let others = before.pages.keys.filter { path in ["loans/", "countries/", "lender", "transfers/", "goals/1-"].contains { path.hasPrefix($0) } }
        for section in ["loans/", "countries/", "lender", "transfers/", "goals/1-"] {
            #expect(others.contains { $0.hasPrefix(section) }, "\(section) pages")
        }
        func modified(_ path: String) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: incremental.appendingPathComponent(path + ".html").path)[.modificationDate] as? Date
        }
        let times = try Dictionary(uniqueKeysWithValues: others.map { ($0, try modified($0)) })
        Thread.sleep(forTimeInterval: 0.02)
        try Self.laterTransactions(data, days: 21)
        _ = try build(data, incremental)
        let after = try #require(BuildCache.read(at: cacheFile))
        #expect(others.filter { after.pages[$0] != before.pages[$0] }.isEmpty, "their views are as they were")
        #expect(try others.filter { try modified($0) != times[$0]! }.isEmpty, "their files are kept")
        #expect(after.pages["index"] != before.pages["index"], "the start page is made anew")
    }

    /// A page's fingerprint writes each length and count as LEB128: distinct counts give distinct
    /// bytes, none the start of another's, so no two views run together; short ones take a byte.
    @Test func fingerprintCountsArePrefixFree() {
        let counts = Array(0...300) + [16_383, 16_384, 2_097_151, 2_097_152, Int(Int32.max), Int.max]
        let encoded = counts.map { count -> [UInt8] in
            var bytes: [UInt8] = []
            PageFingerprint.count(&bytes, count)
            return bytes
        }
        #expect(encoded[0] == [0] && encoded[127] == [127] && encoded[128] == [0x80, 0x01] && encoded[300] == [0xAC, 0x02])
        var starts: [String] = []
        for (a, left) in encoded.enumerated() {
            for (b, right) in encoded.enumerated() where a != b && right.starts(with: left) { starts.append("\(counts[a]) starts \(counts[b])") }
        }
        #expect(starts.isEmpty, "\(starts.prefix(5))")
        // Each decodes back to its count.
        for (count, bytes) in zip(counts, encoded) {
            var value: UInt64 = 0
            for (place, byte) in bytes.enumerated() { value |= UInt64(byte & 0x7F) << (7 * UInt64(place)) }
            #expect(value == UInt64(count))
        }
    }

    /// A rebuild reads the rest of the cache from the bytes it read first: a cache replaced in
    /// between (another build's) does not give it one build's first line and another's rest.
    @Test func theRestOfTheCacheComesFromTheBytesReadFirst() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write("{\"accounts\": []}", to: data.appendingPathComponent("starling/accounts.json"))
        let cacheFile = work.appendingPathComponent(".site.nestegg-cache")
        var first = BuildCache(fingerprint: "first", files: ["index.html": FileStamp(size: 1, modified: 1)], warnings: [], pages: ["index": "p1"])
        first.tool = "t1"
        try first.text.write(to: cacheFile, atomically: false, encoding: .utf8)
        let incremental = Incremental(try DataFolder(root: data), templates: nil, cacheFile: cacheFile)
        #expect(incremental.previous?.fingerprint == "first" && incremental.previous?.pages.isEmpty == true)
        var second = BuildCache(fingerprint: "second", files: ["other.html": FileStamp(size: 2, modified: 2)], warnings: [], pages: ["other": "p2"])
        second.tool = "t2"
        try second.text.write(to: cacheFile, atomically: false, encoding: .utf8)
        let all = try #require(incremental.readingAll().previous)
        #expect(all.text == first.text)
    }

    /// The cache reads back as written, every kind of line, and anything else is no cache.
    @Test func theCacheReadsBackAsWritten() throws {
        var cache = BuildCache(fingerprint: "f1", files: ["index.html": FileStamp(size: 12, modified: 1_700_000_000_123_456_789),
                                                          "a b/c.md": FileStamp(size: 0, modified: -1)],
                               warnings: [Diagnostic(.warning, file: "starling/feed/x.json", line: 3, column: 4, path: "$.feedItems[0]",
                                                     message: "a\tb\nc")],
                               pages: ["index": "p1", "roundups/a/2026-W01": "p2"])
        cache.keys = ["roundups/a/2026-W01": "k1"]
        cache.hashes = ["statements/a/2026-01.md": "h1"]
        cache.statementDigests = ["a/2026-01": .init(key: "k2", digest: "d2")]
        var snapshot = ChangeSnapshot()
        snapshot.accounts["x"] = .init(name: "y", balance: nil, items: [3])
        cache.changes = snapshot
        cache.inputs = ["starling/accounts.json": "i1"]
        cache.problems = ["p"]
        cache.tool = "t1"
        cache.units = ["u1": .init(sources: ["starling/feed/u1.json": "s1"], summary: "s2", pages: ["roundups/a/2026-W01"],
                                   files: ["roundups/a/2026-W01.md"], entries: ["{}"], spendingCodes: ["GROCERIES"])]
        let read = try #require(BuildCache.parse(Array(cache.text.utf8)))
        #expect(read.inputs == cache.inputs && read.problems == cache.problems && read.tool == cache.tool && read.units == cache.units)
        #expect(read.fingerprint == "f1")
        #expect(read.files == cache.files)
        #expect(read.pages == cache.pages && read.keys == cache.keys && read.hashes == cache.hashes && read.changes == cache.changes)
        #expect(read.statementDigests == cache.statementDigests)
        #expect(read.warnings == cache.warnings)
        #expect(read.text == cache.text)
        #expect(BuildCache.parse(Array(cache.text.replacingOccurrences(of: BuildCache.format, with: "nestegg-cache 4").utf8)) == nil, "another format")
        let body = String(cache.text[...cache.text.dropLast().lastIndex(of: "\n")!])
        #expect(BuildCache.parse(Array(RecordFile.signed(body + "what is this\n").utf8)) == nil, "a line of no known kind")
        #expect(BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: "12 1700000000123456789", with: "x12 1700000000123456789")).utf8)) == nil,
                "a size that is not a number")
        #expect(BuildCache.parse(Array(cache.text.replacingOccurrences(of: "\\np1", with: "\\np9").utf8)) == nil, "changed, not signed anew")
        #expect(BuildCache.parse([]) == nil)
        // The first line alone (the "up to date" check's), then the others from the same bytes (a rebuild's).
        let head = try #require(BuildCache.parse(Array(cache.text.utf8), whole: false))
        #expect(head.files == cache.files && head.pages.isEmpty && head.units.isEmpty && head.changes == nil)
        #expect(try #require(BuildCache.parse(Array(cache.text.utf8), after: head)).text == cache.text)
        // Its dictionaries are columns (keys in order, then values): one out of step, or a key twice, is no cache.
        #expect(BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: "\"\\np1\\np2\"", with: "\"\\np1\"")).utf8)) == nil,
                "a page without its fingerprint")
        #expect(BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: "\"\\np1\\np2\"", with: "\"\\np1\"")).utf8), after: head) == nil,
                "the rest of a cache that does not read, after a first line that did")
        #expect(BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: "\"s2\"", with: "2")).utf8), after: head) == nil,
                "a unit that does not read")
        #expect(BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: "\"s2\"", with: "2")).utf8)) == nil)
        #expect(body.contains("\"\\nindex\\nroundups/a/2026-W01\""))
        #expect(BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: "\"\\nindex\\nroundups/a/2026-W01\"",
                                                                                    with: "\"\\nindex\\nindex\"")).utf8)) == nil, "a page twice")
    }

    /// A dictionary as columns reads back as itself; columns of unequal length, or a key twice, read as nothing.
    @Test func sortedColumnsRoundTrip() throws {
        let dictionary = ["b": 2, "a": 1, "c": 3]
        let columns = SortedColumns(dictionary)
        #expect(columns.keys == ["a", "b", "c"] && columns.values == [1, 2, 3])
        let json = try JSONEncoder().encode(columns)
        #expect(try JSONDecoder().decode(SortedColumns<Int>.self, from: json).dictionary == dictionary)
        let uneven = try JSONDecoder().decode(SortedColumns<Int>.self, from: Data(#"{"keys":["a","b"],"values":[1]}"#.utf8))
        #expect(uneven.dictionary == nil)
        let twice = try JSONDecoder().decode(SortedColumns<Int>.self, from: Data(#"{"keys":["a","a"],"values":[1,2]}"#.utf8))
        #expect(twice.dictionary == nil)
        // Keys in the bytes' order of their UTF-8, a prefix first.
        #expect(SortedColumns(["é": 1, "z": 2, "Z": 3, "za": 4, "": 5]).keys == ["", "Z", "z", "za", "é"])
    }

    /// A changed template renders every page again (nothing kept is stale), and a page whose file
    /// was changed behind NestEgg's back is written anew, not kept.
    @Test func aChangedTemplateOrATamperedFileIsRenderedAgain() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = repositoryRoot.appendingPathComponent("Fixtures")
        let templates = work.appendingPathComponent("templates"), incremental = work.appendingPathComponent("incremental")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let layout = repositoryRoot.appendingPathComponent("Templates/layout.html.mustache")
        try FileManager.default.copyItem(at: layout, to: templates.appendingPathComponent("layout.html.mustache"))
        _ = try build(data, incremental, templates: templates)
        let changed = try String(contentsOf: layout, encoding: .utf8).replacingOccurrences(of: "Generated by NestEgg", with: "Made by NestEgg")
        try changed.write(to: templates.appendingPathComponent("layout.html.mustache"), atomically: true, encoding: .utf8)
        // And a page changed by hand: its size and time no longer what the cache recorded.
        let tampered = incremental.appendingPathComponent("goals/index.html")
        try (try String(contentsOf: tampered, encoding: .utf8) + "<!-- edited -->").write(to: tampered, atomically: false, encoding: .utf8)
        let rebuild = try build(data, incremental, templates: templates)
        #expect(!rebuild.stderr.contains("kept"), "every page renders again: \(rebuild.stderr)")
        let clean = work.appendingPathComponent("clean")
        _ = try build(data, clean, templates: templates)
        #expect(siteDifferences(incremental, clean).isEmpty)
        #expect(try String(contentsOf: incremental.appendingPathComponent("index.html"), encoding: .utf8).contains("Made by NestEgg"))

        // With nothing else changed, the tampered page alone is written anew the next time; a
        // tampered statement is also hashed anew for the manifest, not taken from the cache.
        try (try String(contentsOf: tampered, encoding: .utf8) + "<!-- edited again -->").write(to: tampered, atomically: false, encoding: .utf8)
        let statement = incremental.appendingPathComponent("statements/personal/2026-10.html")
        try (try String(contentsOf: statement, encoding: .utf8) + "<!-- edited -->").write(to: statement, atomically: false, encoding: .utf8)
        #expect(BuildCache.read(at: BuildCache.defaultFile(for: incremental))?.hashes["statements/personal/2026-10.html"] != nil, "the cache keeps the statements' hashes")
        let dataCopy = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: data, to: dataCopy)
        _ = try build(dataCopy, incremental, templates: templates)
        #expect(siteDifferences(incremental, clean).isEmpty, "the edited page is repaired")
    }
}

/// The "what changed" page compares with the snapshot the last build left: exact counts of new
/// and gone transactions, balances, goals reached, loans whose status moved; and the snapshot
/// reads back as it was written.
@Suite struct ChangesTests {
    @Test func aSnapshotReadsBackAsWritten() throws {
        var snapshot = ChangeSnapshot()
        snapshot.accounts["a\tb"] = .init(name: "Tab\tand\nline %09", balance: gbp(-1_250), items: [1, 2, UInt64.max])
        snapshot.goals["g"] = .init(name: "Goal", saved: gbp(500), target: nil, reached: false)
        snapshot.loans[7] = .init(name: "Ruth", status: "funded", funded: Money(minorUnits: 2_500, currency: Currency(code: "USD")!))
        #expect(try JSONDecoder().decode(ChangeSnapshot.self, from: JSONEncoder().encode(snapshot)) == snapshot)
        #expect((try? JSONDecoder().decode(ChangeSnapshot.self, from: Data(#"{"accounts":{"a":{"name":"only a name"}},"goals":{},"loans":{}}"#.utf8))) == nil,
                "a snapshot short of a field is no snapshot")
    }

    @Test func thePageSaysWhatChanged() throws {
        var before = ChangeSnapshot()
        before.accounts["p"] = .init(name: "Personal", balance: gbp(10_000), items: [1, 2, 3])
        before.goals["g"] = .init(name: "Bike", saved: gbp(900), target: gbp(1_000), reached: false)
        before.loans[1] = .init(name: "Ruth", status: "fundraising", funded: gbp(0))
        var after = before
        after.accounts["p"] = .init(name: "Personal", balance: gbp(9_000), items: [2, 3, 4, 5])
        after.goals["g"]?.saved = gbp(1_000)
        after.goals["g"]?.reached = true
        after.loans[1]?.status = "funded"
        let context = ReportContext(settings: Settings())
        let view = ChangesReport.view(current: after, previous: before, context: context)
        #expect(!view.isFirst && !view.nothingChanged)
        #expect(view.accounts.map { [$0.name, $0.added, $0.removed, $0.before, $0.now, $0.change] }
                == [["Personal", "2", "1", "£100.00", "£90.00", "-£10.00"]])
        #expect(view.goals.map(\.note) == ["reached its target"])
        #expect(view.loans.map(\.change) == ["fundraising → funded"])
        #expect(ChangesReport.view(current: after, previous: after, context: context).nothingChanged)
        #expect(ChangesReport.view(current: after, previous: nil, context: context).isFirst)
    }

    @Test func theSummarySaysWhatChangedInAFewSentences() throws {
        var before = ChangeSnapshot()
        before.accounts["p"] = .init(name: "Personal", balance: gbp(10_000), items: [1, 2, 3])
        before.accounts["e"] = .init(name: "Euro", balance: Money(minorUnits: 500, currency: Currency(code: "EUR")!), items: [9])
        before.goals["g"] = .init(name: "Bike *now*", saved: gbp(900), target: gbp(1_000), reached: false)
        before.loans[1] = .init(name: "Ruth", status: "fundraising", funded: gbp(0))
        var after = before
        after.accounts["p"] = .init(name: "Personal", balance: gbp(9_000), items: [2, 3, 4, 5])
        after.accounts["e"]?.balance = Money(minorUnits: 800, currency: Currency(code: "EUR")!)
        after.goals["g"]?.saved = gbp(1_000)
        after.goals["g"]?.reached = true
        after.loans[1]?.status = "funded"
        after.loans[2] = .init(name: "Ana", status: "fundraising", funded: gbp(2_500))
        let context = ReportContext(settings: Settings())
        #expect(ChangesReport.digest(current: after, previous: before, context: context) == [
            "Transactions: 2 new, 1 gone, in 1 account.",
            // Pounds and euros each on their own: never added together.
            "Balances: +€3.00 · -£10.00, over 2 accounts whose balance changed.",
            "Savings goals: +£1.00 saved, over 1 goal.",
            "Reached their target: Bike *now*.",
            "Kiva loans: 1 new (£25.00 funded), 0 no longer listed, 1 with a new status.",
        ])
        #expect(ChangesReport.digest(current: after, previous: after, context: context)
                == ["Nothing changed since the last build: the same transactions, balances, goals and loans."])
        #expect(ChangesReport.digest(current: after, previous: nil, context: context)
                == ["First build into this folder: nothing to compare with yet."])
    }

    @Test func aCacheWithAnAmountNoDataHoldsIsNoSnapshot() {
        let goal = { (units: String) in
            #"{"accounts":{},"loans":{},"goals":{"g":{"name":"Goal","saved":{"units":"\#(units)","currency":"GBP"},"target":null,"reached":false}}}"#
        }
        #expect((try? JSONDecoder().decode(ChangeSnapshot.self, from: Data(goal("\(Int128.max)").utf8))) == nil)
        #expect((try? JSONDecoder().decode(ChangeSnapshot.self, from: Data(goal("1000").utf8))) != nil)
    }

    /// `--summary` builds keep the cache too: a CI job that always asks for a summary is told,
    /// on its second run, what changed since its first.
    @Test func aSummaryBuildSaysWhatChangedSinceTheLastOne() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), site = work.appendingPathComponent("site")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures"), to: data)
        let summary = work.appendingPathComponent("summary.md")
        let first = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path, "--summary", summary.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("First build into this folder"))
        let feed = data.appendingPathComponent("starling/feed")
        let file = feed.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: feed.path).sorted().first))
        // One transaction fewer.
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        document["feedItems"] = Array(try #require(document["feedItems"] as? [Any]).dropFirst())
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        let second = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path, "--summary", summary.path])
        #expect(second.status == 0, "\(second.stderr)")
        let again = try String(contentsOf: summary, encoding: .utf8)
        #expect(again.contains("### Since the last build"))
        #expect(again.contains("Transactions: 0 new, 1 gone, in 1 account."), "\(again)")
    }
}

/// The published folder holds the site and its ownership marker, nothing else: the cache is beside it.
@Suite(.serialized) struct PublishedFolderTests {
    @Test func theCacheLivesBesideTheOutputAndTwoBuildsAreIdenticalFileForFile() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures").path
        var sites: [[String: Data]] = []
        for name in ["a", "b"] {
            let output = work.appendingPathComponent(name)
            let result = try NestEggBinary.run(["build", "-q", "--data", fixtures, "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            // Every file, dotfiles included.
            var files: [String: Data] = [:]
            for path in SiteWriter.listFiles(under: output) { files[path] = try Data(contentsOf: output.appendingPathComponent(path)) }
            #expect(files[BuildCache.fileName] == nil, "no cache in the published folder")
            #expect(Set(files.keys.filter { $0.hasPrefix(".") }) == [SiteWriter.marker])
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(".\(name).nestegg/cache").path))
            sites.append(files)
        }
        #expect(sites[0] == sites[1])
        // A rebuild takes the cache from beside the output: nothing to do.
        let again = try NestEggBinary.run(["build", "--data", fixtures, "--output", work.appendingPathComponent("a").path])
        #expect(again.status == 0 && again.stderr.contains("up to date"), "\(again.stderr)")
        // --cache names another file; one inside the output is refused.
        let elsewhere = work.appendingPathComponent("caches/site.cache")
        try FileManager.default.createDirectory(at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
        let named = try NestEggBinary.run(["build", "-q", "--data", fixtures, "--output", work.appendingPathComponent("c").path, "--cache", elsewhere.path])
        #expect(named.status == 0 && FileManager.default.fileExists(atPath: elsewhere.path), "\(named.stderr)")
        let inside = try NestEggBinary.run(["build", "-q", "--data", fixtures, "--output", work.appendingPathComponent("c").path,
                                            "--cache", work.appendingPathComponent("c/cache").path])
        #expect(inside.status == 64 && inside.stderr.contains("--cache"), "\(inside.stderr)")
    }
}
