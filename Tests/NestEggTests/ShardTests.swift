import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggSupport
@testable import NestEggSynthetic

/// A sharded build — N workers, each a separate `nestegg build` with its share from the batch
/// engine's variables, then `nestegg merge` — writes what one `nestegg build` writes, byte for byte.
@Suite(.serialized) struct ShardTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// The environment one engine gives worker `index`, turn by turn: Kubernetes, AWS Batch, Slurm.
    static func engine(_ index: Int) -> [String: String] {
        switch index % 3 {
        case 0: return ["JOB_COMPLETION_INDEX": "\(index)"]
        case 1: return ["AWS_BATCH_JOB_ARRAY_INDEX": "\(index)"]
        default: return ["SLURM_ARRAY_TASK_ID": "\(index)", "SLURM_ARRAY_TASK_MIN": "0"]
        }
    }

    /// `census`: first that many census workers (`nestegg census`), and each share reads its own
    /// feeds only (a census of any N serves shares of any N).
    func shardedBuild(data: URL, count: Int, work: URL, census: Int? = nil) throws -> URL {
        var parts: [String] = []
        let censusFolder = work.appendingPathComponent("census")
        if let census {
            for index in 0..<census {
                let result = try NestEggBinary.run(["census", "-q", "--data", data.path, "--output", censusFolder.appendingPathComponent("\(index).census").path,
                                                    "--shards", "\(census)"], environment: Self.engine(index))
                #expect(result.status == 0, "census \(index)/\(census): \(result.stderr)")
            }
        }
        for index in 0..<count {
            let part = work.appendingPathComponent("part-\(index)")
            let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", part.path, "--shards", "\(count)"]
                                                + (census == nil ? [] : ["--census", censusFolder.path]), environment: Self.engine(index))
            #expect(result.status == 0, "share \(index)/\(count): \(result.stderr)")
            parts.append(part.path)
        }
        let site = work.appendingPathComponent("merged")
        let merge = try NestEggBinary.run(["merge", "-q"] + parts.reversed() + ["--output", site.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        return site
    }

    /// The "what changed" page (which ``snapshot(_:)`` leaves out) is the same too: a first build of either kind.
    func sameChangesPage(_ single: URL, _ merged: URL) {
        for name in [ChangesReport.path + ".md", ChangesReport.path + ".html"] {
            let expected = FileManager.default.contents(atPath: single.appendingPathComponent(name).path)
            #expect(expected != nil && FileManager.default.contents(atPath: merged.appendingPathComponent(name).path) == expected, "\(name)")
        }
    }

    @Test(arguments: [(1, nil), (2, nil), (3, nil), (7, nil), (2, 2), (7, 7), (3, 2)] as [(Int, Int?)])
    func aMergedBuildIsTheOneMachineBuild(_ count: Int, census: Int?) throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let single = work.appendingPathComponent("single")
        #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", single.path]).status == 0)
        let merged = try shardedBuild(data: fixtures, count: count, work: work, census: census)
        let (expected, actual) = (snapshot(single), snapshot(merged))
        #expect(expected.count > 200)
        #expect(Set(actual.keys) == Set(expected.keys))
        #expect(actual.keys.sorted().filter { actual[$0] != expected[$0] }.isEmpty)
        sameChangesPage(single, merged)
        #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent(".nestegg-output").path), "the output marker")
    }

    /// The one-machine build of ``synthetic``, made once for every N below (kept as its files'
    /// bytes, the "what changed" page's too, and the folder removed); `nil` when it failed.
    static let syntheticSingle: [String: Data]? = {
        guard let work = try? temporaryFolder() else { return nil }
        defer { try? FileManager.default.removeItem(at: work) }
        let single = work.appendingPathComponent("single")
        guard let result = try? NestEggBinary.run(["build", "-q", "--data", synthetic.path, "--output", single.path]),
              result.status == 0 else { return nil }
        var files = snapshot(single)
        for name in [ChangesReport.path + ".md", ChangesReport.path + ".html"] {
            files["changes page: " + name] = FileManager.default.contents(atPath: single.appendingPathComponent(name).path)
        }
        return files
    }()

    @Test(arguments: [(1, nil), (2, 2), (3, nil), (7, 3)] as [(Int, Int?)])
    func syntheticDataMergesToo(_ count: Int, census: Int?) throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        // Notes from every account's feed: the data notes page and every footer count them all.
        let expected = try #require(Self.syntheticSingle, "the one-machine build of the synthetic data")
        let merged = try shardedBuild(data: Self.synthetic, count: count, work: work, census: census)
        var actual = snapshot(merged)
        for name in [ChangesReport.path + ".md", ChangesReport.path + ".html"] {
            actual["changes page: " + name] = FileManager.default.contents(atPath: merged.appendingPathComponent(name).path)
        }
        #expect(expected.count > 1_000 && expected.keys.contains(DataNotesReport.path + ".html") && expected.keys.contains("sitemap.xml"))
        #expect(expected["changes page: " + ChangesReport.path + ".html"] != nil)
        #expect(Set(actual.keys) == Set(expected.keys) && actual.keys.filter { actual[$0] != expected[$0] }.isEmpty)
    }

    /// The merge hard-links the parts' pages instead of copying them; merged again from the same
    /// parts it changes nothing (the old files and their times are kept); a part's file that is a
    /// symbolic link, not a file nestegg wrote, is refused and the site left as it was.
    @Test func theMergeLinksThePartsPages() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = try shardedBuild(data: fixtures, count: 2, work: work)
        let parts = (0..<2).map { work.appendingPathComponent("part-\($0)").path }
        func inode(_ path: String) throws -> UInt64 {
            var status = stat()
            try #require(lstat(path, &status) == 0, "\(path)")
            return UInt64(status.st_ino)
        }
        let linked = try FileManager.default.subpathsOfDirectory(atPath: parts[0]).filter { $0.hasSuffix(".html") }
        #expect(!linked.isEmpty)
        for page in linked { #expect(try inode(parts[0] + "/" + page) == inode(site.path + "/" + page), "\(page) is its part's file") }
        let manifest = "statements/manifest.json"
        #expect(FileManager.default.fileExists(atPath: site.path + "/" + manifest) && !parts.contains { FileManager.default.fileExists(atPath: $0 + "/" + manifest) },
                "the manifest is the merge's own")
        let before = snapshot(site)
        let again = try NestEggBinary.run(["merge"] + parts + ["--output", site.path])
        #expect(again.status == 0 && again.stderr.contains(" 0 changed, 0 removed"), "\(again.stderr)")
        #expect(snapshot(site) == before)
        // A part built again, from other data, after the merge: the site does not change with it
        // (nestegg writes new files; the site keeps the ones it linked).
        let other = work.appendingPathComponent("other-data")
        try FileManager.default.copyItem(at: fixtures, to: other)
        try #"{"title": "Another site"}"#.write(to: other.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        let rebuilt = try NestEggBinary.run(["build", "-q", "--data", other.path, "--output", parts[0], "--shard", "0/2"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try String(contentsOfFile: parts[0] + "/" + linked[0], encoding: .utf8).contains("Another site"))
        #expect(snapshot(site) == before, "the merged site is as it was")
        _ = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", parts[0], "--shard", "0/2"])
        let target = parts[1] + "/" + (try #require(try FileManager.default.subpathsOfDirectory(atPath: parts[1]).first { $0.hasSuffix(".html") }))
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: "/etc/hostname")
        let refused = try NestEggBinary.run(["merge"] + parts + ["--output", site.path])
        // The part's fault, not the output's: a data error naming the file (it was 73, as if the site could not be written).
        #expect(refused.status == 65 && refused.stderr.contains("not a regular file") && refused.stderr.contains(target)
                && refused.stderr.contains("the part \(parts[1]) is not whole"), "\(refused.stderr)")
        #expect(snapshot(site) == before)
        // A file the record lists, gone from the part (a copy cut short): the same.
        try FileManager.default.removeItem(atPath: target)
        let missing = try NestEggBinary.run(["merge"] + parts + ["--output", site.path])
        #expect(missing.status == 65 && missing.stderr.contains(target) && missing.stderr.contains("not there") && missing.stderr.contains("the part \(parts[1]) is not whole"), "\(missing.stderr)")
        #expect(snapshot(site) == before)
    }

    @Test func partsThatDoNotBelongTogetherAreRefusedAndNothingIsWritten() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        func part(_ index: Int, of count: Int, data: URL, name: String) throws -> String {
            let folder = work.appendingPathComponent(name)
            #expect(try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", folder.path, "--shard", "\(index)/\(count)"]).status == 0)
            return folder.path
        }
        let p0 = try part(0, of: 2, data: fixtures, name: "p0"), p1 = try part(1, of: 2, data: fixtures, name: "p1")
        let other = work.appendingPathComponent("other")
        try FileManager.default.copyItem(at: fixtures, to: other)
        try #"{"title": "Another site"}"#.write(to: other.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        let foreign = try part(1, of: 2, data: other, name: "foreign")
        let three = try part(2, of: 3, data: fixtures, name: "three")
        let site = work.appendingPathComponent("site")
        // Records that do not hold together: one cut short (a copy of the part interrupted), one
        // with its files' lines lost, and two re-signed by hand (as nestegg signs them): another
        // count of statements (which made the merge trap), and a statement's entry in two parts.
        func edited(_ from: String, _ name: String, _ edit: (String) -> String) throws -> String {
            let folder = work.appendingPathComponent(name)
            try FileManager.default.copyItem(atPath: from, toPath: folder.path)
            let record = folder.appendingPathComponent(PartRecord.fileName)
            try edit(try String(contentsOf: record, encoding: .utf8)).write(to: record, atomically: true, encoding: .utf8)
            return folder.path
        }
        // The record's JSON line, changed; signed anew (as nestegg signs) or with its old signature.
        func changed(_ text: String, signed: Bool = true, _ change: (inout [String: Any]) -> Void) -> String {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var object = (try? JSONSerialization.jsonObject(with: Data(lines[1].utf8))) as? [String: Any] ?? [:]
            change(&object)
            let json = String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
            // (The second JSON line, the record's authentication, as it was.)
            let body = lines[0] + "\n" + json + "\n" + lines[2] + "\n"
            return signed ? RecordFile.signed(body) : body + lines[3] + "\n"
        }
        func record(_ part: String) throws -> PartRecord {
            try #require(PartRecord(text: try String(contentsOfFile: part + "/" + PartRecord.fileName, encoding: .utf8)))
        }
        func adding(file: String) -> (inout [String: Any]) -> Void { { $0["files"] = ($0["files"] as? [Any] ?? []) + [file] } }
        let cut = try edited(p0, "cut", { String($0.dropLast(200)) })
        let lost = try edited(p0, "lost", { changed($0, signed: false) { $0["files"] = Array(($0["files"] as? [Any] ?? []).dropFirst()) } })
        let recount = try edited(p0, "recount", { changed($0) { $0["statementCount"] = ($0["statementCount"] as? Int ?? 0) - 1 } })
        let p1Entry = try record(p1).entries.first
        let doubled = try edited(p0, "doubled", { changed($0) {
            $0["entries"] = ($0["entries"] as? [Any] ?? []) + [["place": p1Entry?.place ?? 0, "entry": p1Entry?.entry ?? ""]]
        } })
        // A page of share 1's listed by share 0's record too (it was the output's error, exit 73).
        let p1Page = try #require(try record(p1).files.first { $0.hasSuffix(".html") })
        let listsTwice = try edited(p0, "lists-twice", { changed($0, adding(file: p1Page)) })
        let p0Page = try #require(try record(p0).files.first { $0.hasSuffix(".html") })
        let ownTwice = try edited(p0, "own-twice", { changed($0, adding(file: p0Page)) })
        let sitemap = try edited(p0, "sitemap", { changed($0, adding(file: "sitemap.xml")) })
        // A file inside a folder that is another part's file; a number of shares no engine runs
        // (the merge looked for every missing share up to it: a hang).
        let inside = try edited(p1, "inside", { changed($0, adding(file: "404.html/x")) })
        let hugeN = try edited(p0, "huge-n", { changed($0) { $0["shard"] = ["index": 0, "count": Int.max] } })
        #expect(p1Entry != nil, "share 1 has a statement")
        for (parts, expected) in [([p0], "share 1/2 is missing"), ([p0, p1, p1], "twice"), ([p0, foreign], "other data or templates"),
                                  ([p0, p1, three], "another number of shares"), ([p0, work.path], "not a finished part"),
                                  ([cut, p1], "not a part record"), ([lost, p1], "not a part record"),
                                  ([recount, p1], "does not agree"),
                                  // (The entry's files are the other part's: refused for that first.)
                                  ([doubled, p1], "which is not a file of the part"),
                                  ([listsTwice, p1], "which \(listsTwice) lists too"), ([ownTwice, p1], "which it lists twice"),
                                  ([sitemap, p1], "sitemap.xml, which the merge writes"),
                                  ([p0, inside], "lists 404.html/x, inside 404.html, which \(p0) lists as a file"),
                                  ([hugeN], "share 1/9223372036854775807 is missing")] {
            let result = try NestEggBinary.run(["merge"] + parts + ["--output", site.path])
            #expect(result.status == 65, "\(parts): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: site.path), "nothing written")
        }
    }

    @Test func theShareComesFromTheOptionOrTheEngine() throws {
        #expect(Shard("2/5") == Shard(index: 2, count: 5))
        #expect(Shard("5/5") == nil && Shard("-1/2") == nil && Shard("1") == nil && Shard("a/b") == nil)
        #expect(try Shard.fromEnvironment(count: 4, ["JOB_COMPLETION_INDEX": "3", "AWS_BATCH_JOB_ARRAY_INDEX": "1"]).get() == Shard(index: 3, count: 4),
                "Kubernetes first")
        #expect(try Shard.fromEnvironment(count: 4, ["SLURM_ARRAY_TASK_ID": "2"]).get() == Shard(index: 2, count: 4))
        for environment in [[:], ["JOB_COMPLETION_INDEX": "4"], ["AWS_BATCH_JOB_ARRAY_INDEX": "x"], ["SLURM_ARRAY_TASK_ID": "\(Int.max)"],
                            ["SLURM_ARRAY_TASK_ID": "-1"], ["SLURM_ARRAY_TASK_ID": ""]] as [[String: String]] {
            #expect(throws: ShardError.self) { try Shard.fromEnvironment(count: 4, environment).get() }
        }
        // Every page has exactly one share, and the shares are not all one.
        // Every page has exactly one share, and the shares are not all one.
        let paths = (0..<1_000).map { "statements/account-\($0)/2026-11" }
        let counts = (0..<7).map { index in paths.filter { Shard(index: index, count: 7)!.owns($0) }.count }
        #expect(counts.reduce(0, +) == paths.count && counts.allSatisfy { $0 > 100 })
    }

    /// A Slurm task's id is its share, whatever the array's first task: the re-run of one task
    /// (`sbatch --array=2`, which Slurm gives `SLURM_ARRAY_TASK_MIN=2` and a count of 1) builds
    /// share 2, and so does a list of re-runs. What could build another share than the one meant
    /// is refused, saying what to submit: an array reaching past N, more tasks than N, a step.
    @Test func aSlurmTaskIdIsItsShare() throws {
        func slurm(_ id: Int, min: Int, max: Int, count: Int, step: Int? = 1) -> [String: String] {
            var environment = ["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)", "SLURM_ARRAY_TASK_MAX": "\(max)",
                               "SLURM_ARRAY_TASK_COUNT": "\(count)", "SLURM_ARRAY_JOB_ID": "41"]
            environment["SLURM_ARRAY_TASK_STEP"] = step.map(String.init)
            return environment
        }
        let built: [([String: String], Int)] = [
            (slurm(0, min: 0, max: 3, count: 4), 0), (slurm(3, min: 0, max: 3, count: 4), 3),
            (slurm(2, min: 2, max: 2, count: 1), 2),                      // sbatch --array=2
            (slurm(3, min: 1, max: 3, count: 2, step: nil), 3),           // sbatch --array=1,3
            (slurm(1, min: 1, max: 3, count: 3), 1),                      // sbatch --array=1-3
            (["SLURM_ARRAY_TASK_ID": "2"], 2)]                            // the array's other variables unset
        for (environment, share) in built {
            #expect(try Shard.fromEnvironment(count: 4, environment).get() == Shard(index: share, count: 4), "\(environment)")
        }
        let refused: [([String: String], String)] = [
            (["SLURM_ARRAY_TASK_ID": "4"], "not one of the shares 0…3"),
            (slurm(4, min: 0, max: 4, count: 5), "reaches task 4 (SLURM_ARRAY_TASK_MAX) but --shards 4"),
            (slurm(0, min: 0, max: 6, count: 4, step: 2), "steps by 2"),
            (slurm(0, min: 0, max: 7, count: 8), "reaches task 7 (SLURM_ARRAY_TASK_MAX) but --shards 4"),
            (slurm(2, min: 0, max: 6, count: 4, step: 2), "steps by 2"),  // sbatch --array=0-6:2
            (slurm(0, min: 0, max: 3, count: 5), "has 5 tasks (SLURM_ARRAY_TASK_COUNT) but --shards 4"),
            (slurm(1, min: 0, max: 3, count: 4).merging(["SLURM_ARRAY_TASK_MAX": "x"]) { $1 }, "SLURM_ARRAY_TASK_MAX=x is not a number"),
            (slurm(1, min: 0, max: 3, count: 4).merging(["SLURM_ARRAY_TASK_COUNT": ""]) { $1 }, "SLURM_ARRAY_TASK_COUNT= is not a number")]
        for (environment, expected) in refused {
            let result = Shard.fromEnvironment(count: 4, environment)
            guard case .failure(let error) = result else { Issue.record("\(environment) gave \(result)"); continue }
            #expect(error.description.contains(expected), "\(error)")
            if !expected.contains("not a number") { #expect(error.description.contains("--array=0-3"), "says what to submit: \(error)") }
        }
    }

    /// A Kubernetes worker's index is its share, and the Job's completions, which the manifests
    /// give the pods, must be N.
    @Test func aKubernetesIndexIsItsShareOfTheJobsCompletions() throws {
        #expect(try Shard.fromEnvironment(count: 4, ["JOB_COMPLETION_INDEX": "3", Shard.completionsVariable: "4"]).get() == Shard(index: 3, count: 4))
        #expect(try Shard.fromEnvironment(count: 4, ["JOB_COMPLETION_INDEX": "3"]).get() == Shard(index: 3, count: 4))
        for completions in ["8", "2", "", "four"] {
            let result = Shard.fromEnvironment(count: 4, ["JOB_COMPLETION_INDEX": "1", Shard.completionsVariable: completions])
            guard case .failure(let error) = result else { Issue.record("completions \(completions) gave \(result)"); continue }
            #expect(error.description.contains("completions but --shards 4"), "\(error)")
        }
    }

    /// Through the binary: a refused share is a usage error (64) at the share, saying why, and
    /// nothing is written.
    @Test func aShareTheEngineCannotVouchForIsAUsageError() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let part = work.appendingPathComponent("part-2")
        for (command, environment) in [("build", ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2"]),
                                       ("census", ["JOB_COMPLETION_INDEX": "2", Shard.completionsVariable: "8"])] {
            let output = command == "build" ? part.path : work.appendingPathComponent("2.census").path
            let result = try NestEggBinary.run([command, "-q", "--data", fixtures.path, "--output", output, "--shards", "4"], environment: environment)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(command == "build" ? "steps by 2" : "completions but --shards 4"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    /// Synthetic data (ten accounts), once for the tests that load it in process.
    /// Every Starling feed has an item in another currency and one twice, and Qapital feeds name a
    /// user without a file: notes from every account and many goals.
    static let synthetic: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-shard-data-\(UUID().uuidString)")
        _ = try! SyntheticData(scale: 1, seed: 7).write(to: folder)
        // A site map (every page's address, those of other shares' accounts too) and bank categories mapped.
        try! #"{"title": "Synthetic data with notes", "baseURL": "https://example.org/money/", "#
            .appending(#""categories": {"EATING_OUT": "Groceries and eating out", "GROCERIES": "Groceries and eating out"}}"#)
            .write(to: folder.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        let feeds = folder.appendingPathComponent("starling/feed")
        for name in try! FileManager.default.contentsOfDirectory(atPath: feeds.path) {
            let file = feeds.appendingPathComponent(name)
            let item = #"{"feedItemUid": "odd-\#(name)", "amount": {"currency": "JPY", "minorUnits": 100}, "direction": "OUT", "#
                + #""transactionTime": "2026-01-05T10:00:00Z", "status": "SETTLED"}"#
            let before = try! String(contentsOf: file, encoding: .utf8)
            let text = before.replacingOccurrences(of: #"{"feedItems": ["#, with: #"{"feedItems": ["# + item + "," + item + ",")
            precondition(text != before, "the synthetic feeds' shape changed: \(name)")
            try! text.write(to: file, atomically: true, encoding: .utf8)
        }
        // Qapital feeds that name a user the folder does not have.
        try! FileManager.default.removeItem(at: folder.appendingPathComponent("qapital/users/1.json"))
        return folder
    }()

    /// What a share's load keeps of the accounts and goals: the feeds of its own accounts and of
    /// every goal, and of the other accounts only what their summaries need first (the latest time,
    /// the digest of the bytes read), their problems reported all the same, so that its memory falls with N.
    @Test func aShareKeepsTheFeedsOfItsOwnAccountsOnly() throws {
        let folder = try DataFolder(root: Self.synthetic)
        let wholeLog = DiagnosticLog(), whole = DataLoader.load(folder, log: wholeLog)
        let shard = try #require(Shard(index: 1, count: 3))
        var options = BuildOptions(data: Self.synthetic, output: FileManager.default.temporaryDirectory.appendingPathComponent("unused"))
        options.shard = shard
        let shares = OtherShares(shard: shard, census: nil)
        let (share, warnings, _) = try Build(options: options).load(try DataFolder(root: Self.synthetic), readers: shares.readers(cacheFeeds: nil))
        let feeds = shares.feeds
        #expect(whole.accounts.count == 10 && share.accounts.count == 10)
        var kept = 0
        for (all, part) in zip(whole.accounts, share.accounts) {
            #expect(all.account.uid == part.account.uid)
            #expect(part.balance?.cleared == all.balance?.cleared && part.savingsGoals.count == all.savingsGoals.count)
            if shard.owns(Page.entity(of: all.account)) {
                kept += 1
                #expect(feeds.summarised[all.account.uid] == nil && part.feed.map(\.uid) == all.feed.map(\.uid))
            } else {
                let summarised = try #require(feeds.summarised[all.account.uid])
                #expect(part.feed.isEmpty && !all.feed.isEmpty && summarised.latest == all.latestFeedInstant)
                #expect(summarised.digest == DataDigests.digest(ofFile: Self.synthetic.path + "/" + StarlingLoader.feedPath(of: all.account)))
            }
        }
        #expect(kept > 0 && kept < 10, "the share keeps some accounts' feeds, not all")
        #expect(feeds.parsed.isEmpty, "without a census no digest of the feeds mapped here is kept")
        let latest = ([share.latestInstant] + feeds.summarised.values.map(\.latest)).compactMap { $0 }.max()
        #expect(latest == whole.latestInstant && share.qapital.latestInstant == whole.qapital.latestInstant)
        for id in whole.qapital.goals.map(\.id) { #expect(share.qapital.feed(of: id).map(\.id) == whole.qapital.feed(of: id).map(\.id)) }
        #expect(wholeLog.diagnostics.count > 25 && wholeLog.diagnostics.filter { $0.file.hasPrefix("qapital/feed/") }.count > 5)
        #expect(warnings.map(\.description) == Build(options: BuildOptions(data: Self.synthetic, output: options.output))
            .placed(wholeLog.diagnostics, folder: folder).map(\.description), "the same notes, in the same order")
    }

    /// With a census, a share's load keeps the digest of the bytes each feed mapped here was
    /// parsed from, in the form the census and the data's digests have, and reads no other
    /// account's feed: the census stands for it (its latest time, and no digest of a read).
    @Test func withACensusTheLoadKeepsTheDigestsOfTheBytesItParsed() throws {
        let censusFolder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: censusFolder) }
        try CensusFileTests.whole.0.write(to: censusFolder.appendingPathComponent("0.census"), atomically: true, encoding: .utf8)
        let census = try CensusSet.read(censusFolder, accounts: CensusFileTests.whole.1.values.sorted { $0.uid < $1.uid })
        let shard = try #require(Shard(index: 1, count: 3))
        var options = BuildOptions(data: Self.synthetic, output: FileManager.default.temporaryDirectory.appendingPathComponent("unused"))
        options.shard = shard
        let folder = try DataFolder(root: Self.synthetic)
        let shares = OtherShares(shard: shard, census: census)
        let (dataset, _, _) = try Build(options: options).load(folder, readers: shares.readers(cacheFeeds: nil))
        let feeds = shares.feeds
        let own = dataset.accounts.filter { shard.owns(Page.entity(of: $0.account)) }
        #expect(!own.isEmpty && own.count < dataset.accounts.count)
        for data in dataset.accounts {
            let path = StarlingLoader.feedPath(of: data.account)
            if shard.owns(Page.entity(of: data.account)) {
                #expect(feeds.parsed[path] == .some(DataDigests.digest(ofFile: Self.synthetic.path + "/" + path)))
            } else {
                #expect(feeds.parsed[path] == nil && feeds.summarised[data.account.uid]?.digest == nil)
                #expect(feeds.summarised[data.account.uid]?.latest == census.feeds[path]?.known.latest)
            }
        }
        #expect(dataset.qapital.goals.allSatisfy { feeds.parsed["qapital/feed/\($0.id).json"] != nil })
        for id in dataset.qapital.goals.map(\.id) {
            #expect(feeds.parsed["qapital/feed/\(id).json"] == .some(DataDigests.digest(ofFile: Self.synthetic.path + "/qapital/feed/\(id).json")))
        }
    }

    /// The library refuses a census without a share, as the command line does: a census stands
    /// for the feeds a share does not read, and a build of every account reads them all. Nothing is written.
    @Test func aCensusWithoutAShareIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let census = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: census) }
        var options = BuildOptions(data: Self.synthetic, output: work.appendingPathComponent("site"))
        options.census = census
        let error = try #require(throws: BuildError.self) { try Build(options: options).run() }
        #expect(error.exitCode == .usage, "\(error.diagnostics)")
        #expect(error.diagnostics.map(\.message) == ["--census goes with --shard: it stands for the feeds a share does not read"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    /// A feed the load let go is read again for its summary; if its bytes are not what the load
    /// read (the file changed in between), the build stops, naming it, instead of mixing two versions.
    @Test func aFeedThatChangedBetweenItsTwoReadsStopsTheShare() throws {
        var options = BuildOptions(data: Self.synthetic, output: FileManager.default.temporaryDirectory.appendingPathComponent("unused"))
        options.shard = Shard(index: 0, count: 3)
        let build = Build(options: options)
        let folder = try DataFolder(root: Self.synthetic)
        let shares = OtherShares(shard: try #require(options.shard), census: nil)
        let (dataset, _, _) = try build.load(folder, readers: shares.readers(cacheFeeds: nil))
        var summarised = shares.feeds.summarised
        let figures = try OtherShares.figures(build, dataset, folder: folder, summarised: summarised)
        #expect(!summarised.isEmpty && figures.count == summarised.count)
        #expect(figures.allSatisfy { $0.value.latest == summarised[$0.key]?.latest })
        let index = try #require(dataset.accounts.firstIndex { summarised[$0.account.uid] != nil })
        let uid = dataset.accounts[index].account.uid
        summarised[uid]?.digest = "the bytes of an earlier version"
        let error = try #require(throws: BuildError.self) { try OtherShares.figures(build, dataset, folder: folder, summarised: summarised) }
        #expect(error.step == .load && error.exitCode == .dataError)
        #expect(error.diagnostics.map(\.file) == [Self.synthetic.path + "/starling/feed/\(uid).json"])
    }

    /// An account's figures (``AccountFigures``) are what its own pages' report works out, less the items.
    @Test func anAccountsFiguresAreItsReportsFiguresWithoutTheItems() throws {
        let dataset = DataLoader.load(try DataFolder(root: Self.synthetic), log: DiagnosticLog())
        let context = ReportContext(dataset: dataset)
        for data in dataset.accounts {
            let figures = AccountFigures(data, context: context)
            let weeks = RoundUpRule.weeks(of: data.feed, currency: data.account.currency, clock: context.clock)
            #expect(figures.weeks.map(\.week) == weeks.map(\.week) && figures.weeks.map(\.payments) == weeks.map(\.counted.count))
            #expect(figures.weeks.map(\.spent) == weeks.map(\.spent) && figures.weeks.map(\.roundUp) == weeks.map(\.roundUp))
            #expect(figures.weeks.allSatisfy { $0.counted.isEmpty && $0.excluded.isEmpty })
            // The figures do not depend on the as-of date: the statements they give to any date
            // (the data's, later ones, one before the account was opened, none) are the report's.
            let asOf = try #require(context.progress.asOf)
            for date in [asOf, asOf.adding(days: 40), asOf.adding(days: 400), asOf.adding(days: -20_000), nil] as [CivilDate?] {
                let statements = StatementPeriods.statements(for: data, clock: context.clock, asOf: date)
                let trimmed = figures.statements(asOf: date)
                #expect(trimmed.map(\.month) == statements.map(\.month) && trimmed.map(\.period) == statements.map(\.period))
                #expect(trimmed.map(\.status) == statements.map(\.status) && trimmed.map(\.lineCount) == statements.map(\.lines.count))
                #expect(trimmed.map(\.opening) == statements.map(\.opening) && trimmed.map(\.closing) == statements.map(\.closing))
                #expect(trimmed.map(\.moneyIn) == statements.map(\.moneyIn) && trimmed.map(\.moneyOut) == statements.map(\.moneyOut))
                #expect(trimmed.map(\.roundUpTotal) == statements.map(\.roundUpTotal))
                #expect(trimmed.allSatisfy { $0.lines.isEmpty && $0.apart.isEmpty && $0.roundUps.isEmpty })
                #expect(statements.isEmpty == (date == nil), "an as-of date before the latest item counts as the latest item's")
                #expect(figures.statementCount(asOf: date) == statements.count, "counted without making them")
            }
            // The figures' summary, encoded as JSON and read back, gives the same figures.
            let json = try JSONEncoder().encode(figures.summary)
            let read = try #require(AccountFigures(summary: try JSONDecoder().decode(AccountFigures.Summary.self, from: json), account: data.account))
            #expect(read.summary == figures.summary && read.spending == nil)
            // The cash flow, recurring series and payments come back as the feed gave them: no feed is read again for them.
            #expect(figures.summary.flows != nil)
            #expect(read.cashFlow == AccountCashFlow.of(data, clock: context.clock, settings: context.settings))
            #expect(read.recurring == RecurringRule.of(data, clock: context.clock))
            #expect(read.payments == PayeePayment.of(data, clock: context.clock))
            var badInterval = figures.summary
            badInterval.flows?.series.append(.init(counterparty: "x", incoming: false, interval: "fortnightly", typical: 100, count: 3,
                                                   first: 20_000, last: 20_028, next: 20_042))
            #expect(AccountFigures(summary: badInterval, account: data.account) == nil, "an interval that is not one")
            var hugePayment = figures.summary
            hugePayment.flows?.payments.append(.init(name: "x", day: 20_000, units: Money.maximumMinorUnits + 1, incoming: false, reference: "", id: "x"))
            #expect(AccountFigures(summary: hugePayment, account: data.account) == nil, "a payment out of range")
            var monthTwice = figures.summary
            if let month = monthTwice.flows?.months.first { monthTwice.flows?.months.append(month) }
            #expect(monthTwice.flows?.months.isEmpty == true || AccountFigures(summary: monthTwice, account: data.account) == nil, "a month twice")
            // Read back, they are held as the summary and decoded on each read: the same weeks, counted without decoding.
            #expect(read.weekCount == weeks.count && figures.weekCount == weeks.count)
            #expect(read.weeks.map(\.week) == weeks.map(\.week) && read.weeks.map(\.roundUp) == weeks.map(\.roundUp))
            for date in [asOf, asOf.adding(days: 400), asOf.adding(days: -20_000), nil] as [CivilDate?] {
                let statements = StatementPeriods.statements(for: data, clock: context.clock, asOf: date)
                #expect(read.statementCount(asOf: date) == statements.count)
                #expect(read.statements(asOf: date).map(\.closing) == statements.map(\.closing))
            }
            #expect(read.statements(asOf: asOf).map(\.lineCount) == figures.statements(asOf: asOf).map(\.lineCount))
            var monthMissing = figures.summary
            monthMissing.basis?.months.removeLast()
            #expect(AccountFigures(summary: monthMissing, account: data.account) == nil, "a month missing is no basis")
            var negativeCount = figures.summary
            negativeCount.basis?.months[0].lines = -1
            #expect(AccountFigures(summary: negativeCount, account: data.account) == nil)
            var farFuture = figures.summary
            farFuture.basis?.latest = 3_000_000
            #expect(AccountFigures(summary: farFuture, account: data.account) == nil, "a date past the year 9999")
            if !figures.summary.weeks.isEmpty {
                var outOfOrder = figures.summary
                outOfOrder.weeks.append(outOfOrder.weeks[0])
                #expect(AccountFigures(summary: outOfOrder, account: data.account) == nil, "weeks out of order")
                var huge = figures.summary
                huge.weeks[0].spent = Int128.max
                #expect(AccountFigures(summary: huge, account: data.account) == nil, "an amount out of range")
            }
            var categories = TransactionsRules.StarlingCategories(settings: dataset.settings)
            let spending = TransactionsRules.starlingItems(of: data, clock: context.clock, categories: &categories)
            #expect(!spending.isEmpty && figures.spending?.map(\.fields) == spending.map(\.fields))
            // A row, encoded as JSON and read back, is the item.
            for item in spending {
                let row = try JSONDecoder().decode(SpendingItem.StarlingRow.self, from: JSONEncoder().encode(item.row(account: data.account.uid)))
                let read = try #require(SpendingItem(row: row, accountName: data.account.name, category: item.category))
                #expect(read.fields == item.fields && row.account == data.account.uid)
            }
            #expect(spending.contains { $0.category.name == "Groceries and eating out" }, "the settings' category mapping applies")
        }
    }

    /// All of an account's pages fall to one share, with its statements' manifest entries.
    @Test func anAccountsPagesAllFallToOneShare() throws {
        let dataset = DataLoader.load(try DataFolder(root: Self.synthetic), log: DiagnosticLog())
        let site = SiteReport.build(dataset)
        for data in dataset.accounts {
            let slug = site.statements.first { $0.account.uid == data.account.uid }.map { $0.path.split(separator: "/")[1] }
            let own = site.pages.filter { page in
                ["statements/", "roundups/"].contains { page.path.hasPrefix("\($0)\(slug ?? "-")/") }
            }
            #expect(own.count > 50 && own.allSatisfy { $0.entity == Page.entity(of: data.account) })
        }
        #expect(site.pages.filter { $0.entity == nil }.contains { $0.path == "statements/index" })
    }

    @Test func aPartRecordReadsBackAsWritten() throws {
        let record = PartRecord(fingerprint: "abc", shard: Shard(index: 1, count: 2)!, manifestHead: "{\n  \"a\": 1,\n",
                                statementCount: 3, files: ["index.md", "a/b.html"], entries: [.init(place: 2, entry: "  {\n\t\"x\": \"\\\\n\"\n  }")])
        let read = try #require(PartRecord(text: record.text(key: nil)))
        #expect(read.fingerprint == "abc" && read.shard == record.shard && read.manifestHead == record.manifestHead)
        #expect(read.files == record.files && read.entries == record.entries)
        #expect(read.text(key: nil) == record.text(key: nil), "the same record, the same bytes")
        // Signed: a record cut short, or changed, is not one.
        let text = record.text(key: nil)
        #expect(PartRecord(text: String(text.dropLast(10))) == nil && PartRecord(text: String(text.dropLast(1))) == nil)
        #expect(PartRecord(text: text.replacingOccurrences(of: "\"index.md\",", with: "")) == nil)
        #expect(PartRecord(text: text.replacingOccurrences(of: "nestegg-part 5", with: "nestegg-part 4")) == nil, "another format")
        // Signed anew, as a hand-made record would be: no path out of the part, no count below zero.
        let body = String(text[...text.dropLast().lastIndex(of: "\n")!])
        #expect(PartRecord(text: RecordFile.signed(body)) != nil)
        #expect(PartRecord(text: RecordFile.signed(body.replacingOccurrences(of: "\"index.md\"", with: "\"../index.md\""))) == nil, "no path out of the part")
        #expect(PartRecord(text: RecordFile.signed(body.replacingOccurrences(of: "\"index.md\"", with: "\"./index.md\""))) == nil, "one spelling a path")
        #expect(PartRecord(text: RecordFile.signed(body.replacingOccurrences(of: "\"statementCount\":3", with: "\"statementCount\":-1"))) == nil,
                "no count below zero")
        #expect(PartRecord(text: RecordFile.signed(body.replacingOccurrences(of: "\"place\":2", with: "\"place\":3"))) == nil,
                "no place past the manifest")
    }

    /// A record written with the run's part key is authenticated by it, and by no other; changed
    /// and signed anew (its SHA-256 line recomputed, as a forger can), it is not.
    @Test func aPartRecordIsAuthenticatedByItsKey() throws {
        let key = PartKey(raw: Data(repeating: 1, count: 32), file: nil), other = PartKey(raw: Data(repeating: 2, count: 32), file: nil)
        let record = PartRecord(fingerprint: "abc", shard: Shard(index: 0, count: 2)!, manifestHead: "{", statementCount: 1,
                                files: ["statements/a/2026-10.md"], entries: [.init(place: 0, entry: #"{"files": [{"path": "a/2026-10.md", "sha256": "00"}]}"#)])
        let read = try #require(PartRecord(text: record.text(key: key)))
        #expect(read.unauthenticated(by: key) == nil)
        #expect(read.unauthenticated(by: other)?.contains("another part key") == true)
        #expect(try #require(PartRecord(text: record.text(key: nil))).unauthenticated(by: key)?.contains("without --part-key") == true)
        let text = record.text(key: key)
        let body = String(text[...text.dropLast().lastIndex(of: "\n")!])
        let forged = try #require(PartRecord(text: RecordFile.signed(body.replacingOccurrences(of: "\\\"00\\\"", with: "\\\"01\\\""))))
        #expect(forged.entries != read.entries)
        #expect(forged.unauthenticated(by: key)?.contains("changed after the share wrote it") == true)
    }

    /// A share with a census reads no other share's bank feed: with every other Starling feed
    /// replaced by bytes that are not JSON, it writes the same part as from the data as it was.
    /// (Qapital goals' feeds are still read by every share, for the goals list: issue 31.)
    @Test func aShareWithACensusReadsNoOtherSharesFeed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let census = work.appendingPathComponent("census")
        for index in 0..<3 {
            let result = try NestEggBinary.run(["census", "-q", "--data", Self.synthetic.path, "--shard", "\(index)/3",
                                                "--output", census.appendingPathComponent("\(index).census").path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let shard = try #require(Shard(index: 1, count: 3))
        let garbled = work.appendingPathComponent("garbled")
        try FileManager.default.copyItem(at: Self.synthetic, to: garbled)
        var replaced = 0
        for folder in ["starling/feed"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: garbled.appendingPathComponent(folder).path) {
                let stem = String(name.dropLast(".json".count))
                let entity = folder.hasPrefix("starling") ? Page.entity(ofStarlingAccount: stem) : Page.entity(ofQapitalGoal: Int(stem) ?? -1)
                guard !shard.owns(entity) else { continue }
                try Data("not a feed".utf8).write(to: garbled.appendingPathComponent(folder + "/" + name))
                replaced += 1
            }
        }
        #expect(replaced >= 5)  // two thirds of the synthetic data's feeds
        var parts: [[String: Data]] = []
        for data in [Self.synthetic, garbled] {
            let part = work.appendingPathComponent("part-\(parts.count)")
            let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--shard", "1/3", "--census", census.path, "--output", part.path])
            #expect(result.status == 0, "\(result.stderr)")
            parts.append(snapshot(part))
        }
        #expect(parts[0].count > 100 && parts[0] == parts[1])
    }

    /// A census that does not fit the data, or is not whole, stops the share (exit 65, naming
    /// why) before it writes anything; and a census is never written over input or another file.
    @Test func aCensusThatDoesNotFitTheDataIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let census = work.appendingPathComponent("census")
        func runCensus(_ index: Int, of count: Int, to folder: URL) throws -> NestEggBinary.Result {
            try NestEggBinary.run(["census", "-q", "--data", data.path, "--shard", "\(index)/\(count)",
                                   "--output", folder.appendingPathComponent("\(index).census").path])
        }
        for index in 0..<2 { #expect(try runCensus(index, of: 2, to: census).status == 0) }
        let part = work.appendingPathComponent("part")
        func share(_ index: Int) throws -> NestEggBinary.Result {
            try NestEggBinary.run(["build", "-q", "--data", data.path, "--shard", "\(index)/2", "--census", census.path, "--output", part.path])
        }
        #expect(try share(0).status == 0 && share(1).status == 0)
        try FileManager.default.removeItem(at: part)

        // Every share's own feed, changed after the census read it.
        let feed = try #require(try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("starling/feed").path).first)
        let feedURL = data.appendingPathComponent("starling/feed/" + feed)
        let before = try Data(contentsOf: feedURL)
        try (before + Data(" ".utf8)).write(to: feedURL)
        let owner = Shard(index: 0, count: 2)!.owns(Page.entity(ofStarlingAccount: String(feed.dropLast(5)))) ? 0 : 1
        let changed = try share(owner)
        #expect(changed.status == 65 && changed.stderr.contains("starling/feed/\(feed): error: changed since the census read it"), "\(changed.stderr)")
        try before.write(to: feedURL)

        // An output that holds the census is refused, the census kept (it was replaced with the old output).
        let out = work.appendingPathComponent("out")
        #expect(try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", out.path]).status == 0)
        let inner = out.appendingPathComponent("census")
        try FileManager.default.copyItem(at: census, to: inner)
        let holding = try NestEggBinary.run(["build", "-q", "--data", data.path, "--shard", "0/2", "--census", inner.path, "--output", out.path])
        #expect(holding.status == 73 && holding.stderr.contains("holds the input folder"), "\(holding.stderr)")
        #expect(FileManager.default.fileExists(atPath: inner.appendingPathComponent("0.census").path))
        // A FIFO named like a census is refused, not waited on.
        let fifo = census.appendingPathComponent("2.census")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let waiting = try share(0)
        #expect(waiting.status == 65 && waiting.stderr.contains("2.census: error: cannot read it: not a regular file"), "\(waiting.stderr)")
        try FileManager.default.removeItem(at: fifo)

        // Other data; a share's census missing, twice, cut short.
        let settings = data.appendingPathComponent("nestegg.json")
        let settingsBefore = try? Data(contentsOf: settings)
        try Data(#"{"title": "Another site"}"#.utf8).write(to: settings)
        let other = try share(0)
        #expect(other.status == 65 && other.stderr.contains("was made from other data"), "\(other.stderr)")
        if let settingsBefore { try settingsBefore.write(to: settings) } else { try FileManager.default.removeItem(at: settings) }
        let first = census.appendingPathComponent("1.census")
        let text = try Data(contentsOf: first)
        try FileManager.default.removeItem(at: first)
        let missing = try share(0)
        #expect(missing.status == 65 && missing.stderr.contains("the census of share 1/2 is missing"), "\(missing.stderr)")
        try text.write(to: census.appendingPathComponent("1-again.census"))
        try text.write(to: census.appendingPathComponent("1.census"))
        let twice = try share(0)
        #expect(twice.status == 65 && twice.stderr.contains("twice"), "\(twice.stderr)")
        try FileManager.default.removeItem(at: census.appendingPathComponent("1-again.census"))
        try text.prefix(text.count - 10).write(to: first)
        let short = try share(0)
        #expect(short.status == 65 && short.stderr.contains("1.census: error:"), "\(short.stderr)")
        #expect(!FileManager.default.fileExists(atPath: part.path), "nothing written")
        try text.write(to: first)

        // Rows out of order, the file signed anew (its head reads): found while the rows are merged,
        // beside the other pages' rendering; the share that merges them stops (exit 65) and its
        // previous part is as it was.
        let runs = try (0..<2).map { index -> (URL, [String]) in
            let file = census.appendingPathComponent("\(index).census")
            return (file, try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
        }
        let isRow = { (line: String) in line.hasPrefix("[") }
        let (runFile, lines) = try #require(runs.max { $0.1.filter(isRow).count < $1.1.filter(isRow).count })
        var body = Array(lines.dropLast())
        let firstRow = try #require(body.firstIndex(where: isRow))
        try #require(body.count > firstRow + 1 && isRow(body[firstRow + 1]), "a census file with two rows")
        body.swapAt(firstRow, firstRow + 1)
        let original = try Data(contentsOf: runFile)
        var refused = 0
        for index in 0..<2 {
            let kept = work.appendingPathComponent("kept-\(index)")
            let build = { try NestEggBinary.run(["build", "-q", "--data", data.path, "--shard", "\(index)/2", "--census", census.path, "--output", kept.path]) }
            try original.write(to: runFile)
            #expect(try build().status == 0)
            let previous = snapshot(kept)
            try RecordFile.signed(body.map { $0 + "\n" }.joined()).write(to: runFile, atomically: true, encoding: .utf8)
            let unordered = try build()
            guard unordered.status != 0 else { continue }
            refused += 1
            #expect(unordered.status == 65 && unordered.stderr.contains("not newest first"), "\(unordered.stderr)")
            #expect(snapshot(kept) == previous, "the previous part as it was")
        }
        #expect(refused > 0, "a share that renders list pages merges the rows")
        try original.write(to: runFile)

        // A census file that is a link into the share's own part (which the swap replaces) is refused, and kept.
        let keptPart = work.appendingPathComponent("kept-0"), moved = keptPart.appendingPathComponent("0.census")
        let censusFile = census.appendingPathComponent("0.census")
        try FileManager.default.moveItem(at: censusFile, to: moved)
        try FileManager.default.createSymbolicLink(at: censusFile, withDestinationURL: moved)
        let linked = try NestEggBinary.run(["build", "-q", "--data", data.path, "--shard", "0/2", "--census", census.path, "--output", keptPart.path])
        #expect(linked.status == 73 && linked.stderr.contains("0.census in the census folder, a symbolic link, leads to"), "\(linked.stderr)")
        #expect(FileManager.default.fileExists(atPath: moved.path))
        try FileManager.default.removeItem(at: censusFile)
        try FileManager.default.moveItem(at: moved, to: censusFile)

        // A broken accounts list is reported by the load, in its words, not as a census that does not fit.
        let accountsList = data.appendingPathComponent("starling/accounts.json")
        let accountsBefore = try Data(contentsOf: accountsList)
        try Data(#"{"accounts": [1"#.utf8).write(to: accountsList)
        let broken = try share(0)
        #expect(broken.status == 65 && broken.stderr.contains("starling/accounts.json:1:") && !broken.stderr.contains("census"), "\(broken.stderr)")
        try accountsBefore.write(to: accountsList)

        // A feed that is a FIFO is the census's error, as it is the build's (it was taken for no feed).
        try FileManager.default.moveItem(at: feedURL, to: work.appendingPathComponent("feed-aside"))
        #expect(mkfifo(feedURL.path, 0o600) == 0)
        let fifoFeed = try runCensus(0, of: 2, to: work.appendingPathComponent("fifo-census"))
        #expect(fifoFeed.status == 65 && fifoFeed.stderr.contains("starling/feed/\(feed): error: not read: it is a FIFO"), "\(fifoFeed.stderr)")
        try FileManager.default.removeItem(at: feedURL)
        try FileManager.default.moveItem(at: work.appendingPathComponent("feed-aside"), to: feedURL)

        // Never into the data folder, never over a file that is not a census.
        let inside = try runCensus(0, of: 2, to: data)
        #expect(inside.status == 64 && inside.stderr.contains("inside the data folder"), "\(inside.stderr)")
        let notes = work.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: notes.appendingPathComponent("0.census"))
        let over = try runCensus(0, of: 2, to: notes)
        #expect(over.status == 73 && over.stderr.contains("not a census"), "\(over.stderr)")
        #expect(try Data(contentsOf: notes.appendingPathComponent("0.census")) == Data("my notes".utf8))
        // A census of an earlier format is nestegg's own: it is replaced.
        try Data("nestegg-census 1\nnestegg 0.1\n".utf8).write(to: notes.appendingPathComponent("0.census"))
        let earlier = try runCensus(0, of: 2, to: notes)
        #expect(earlier.status == 0, "\(earlier.stderr)")
    }
}

/// The Kubernetes Jobs in `deploy/kubernetes`, as `run.sh render` writes them from `nestegg.env`,
/// run as written: each Indexed Job's `args` for every index (its `$(JOB_COMPLETION_INDEX)` and
/// the variables set, as Kubernetes does), then the merge Job's shell script, with the volumes'
/// paths mapped to folders here; the site is the one-machine build.
@Suite(.serialized) struct DeploymentFileTests {
    let deploy = repositoryRoot.appendingPathComponent("deploy/kubernetes")

    /// The manifests of run `run` as `run.sh render` prints them, one string each.
    func rendered(run: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [deploy.appendingPathComponent("run.sh").path, "render", run]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text.components(separatedBy: "---\n").filter { !$0.isEmpty }
    }

    struct Job {
        var args: [String] = []
        var completions: Int?
        var parallelism: Int?
        var environment: [String: String] = [:]
        /// The shell script of `args: - |`, for the merge.
        var script: String?
    }

    /// The Job named `name`: its `args` (a flow sequence, JSON as written, over one line or more),
    /// `completions`, `parallelism`, the variables its container sets, its shell script.
    func job(_ manifests: [String], named name: String) throws -> Job {
        let text = try #require(manifests.first { $0.contains("kind: Job\n") && $0.contains("\n  name: \(name)\n") }, "\(name)")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var job = Job()
        func number(_ key: String) -> Int? {
            lines.first { $0.hasPrefix("  \(key):") }.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
        }
        job.completions = number("completions")
        job.parallelism = number("parallelism")
        if let first = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("args: [") }) {
            var json = String(lines[first].drop { $0 != "[" })
            var next = first + 1
            while !json.hasSuffix("]") && next < lines.count { json += lines[next]; next += 1 }
            job.args = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        } else if let first = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "- |" }) {
            let indent = lines[first + 1].prefix { $0 == " " }.count
            job.script = lines[(first + 1)...].prefix { $0.hasPrefix(String(repeating: " ", count: indent)) }.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
        }
        let variable = try Regex(#"- \{name: ([A-Z_]+), value: "([^"]*)"\}"#)
        for line in lines {
            if let match = line.firstMatch(of: variable), let key = match.output[1].substring, let value = match.output[2].substring {
                job.environment[String(key)] = String(value)
            }
        }
        return job
    }

    @Test func theKubernetesJobsBuildTheSite() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        let volumes = [("/shared", work.appendingPathComponent("shared").path), ("/data", fixtures.path)]
        func mapped(_ argument: String, index: Int) -> String {
            var argument = argument.replacingOccurrences(of: "$(JOB_COMPLETION_INDEX)", with: "\(index)")
            for (volume, folder) in volumes { argument = argument.replacingOccurrences(of: volume, with: folder) }
            return argument
        }
        let run = "20260101-000000"
        let manifests = try rendered(run: run)
        let census = try job(manifests, named: "nestegg-census-\(run)"), shares = try job(manifests, named: "nestegg-shares-\(run)")
        let merge = try job(manifests, named: "nestegg-merge-\(run)")
        let count = try #require(shares.completions)
        #expect(count > 1 && census.completions == count && census.parallelism == count && shares.parallelism == count, "N in one place")
        #expect(shares.args.contains("--census") && census.args.first == "census" && shares.args.first == "build")
        for (name, manifest) in [("census", census), ("share", shares)] {
            #expect(manifest.args.contains(String(count)), "\(name): --shards \(count), as many as its completions")
            #expect(manifest.environment == [Shard.completionsVariable: String(count)], "\(name): \(manifest.environment)")
            for index in 0..<count {
                let result = try NestEggBinary.run(manifest.args.map { mapped($0, index: index) },
                                                   environment: manifest.environment.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { $1 })
                #expect(result.status == 0, "\(name) \(index): \(result.stderr)")
            }
        }
        // The merge Job runs its script in a shell (for the parts' list), with nestegg on its PATH.
        let script = try #require(merge.script)
        #expect(merge.environment == ["NESTEGG_SHARDS": String(count), "NESTEGG_RUN": run])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", mapped(script, index: 0)]
        var environment = ProcessInfo.processInfo.environment.merging(merge.environment) { $1 }
        environment["PATH"] = try #require(NestEggBinary.url).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let single = work.appendingPathComponent("single")
        #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", single.path]).status == 0)
        let site = work.appendingPathComponent("shared/site")
        let (expected, actual) = (snapshot(single), snapshot(site))
        #expect(expected.count > 200 && actual == expected)
        // A pod of a Job edited by hand to another N is refused.
        let edited = try NestEggBinary.run(shares.args.map { mapped($0, index: 0) }, environment: [Shard.completionsVariable: "\(count + 1)", "JOB_COMPLETION_INDEX": "0"])
        #expect(edited.status == 64 && edited.stderr.contains("completions but --shards \(count)"), "\(edited.stderr)")
    }
}

/// A census file is data a share trusts: it is read only whole and as nestegg wrote it, and even a
/// file signed anew with values out of range gives an error naming it, never a trap or a hang.
@Suite(.serialized) struct CensusFileTests {
    /// The census of share 0 of 1 of the synthetic data: (its text, the data's accounts by UID).
    static let whole: (String, [String: StarlingAccount]) = {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-census-\(UUID().uuidString).census")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try! Census(options: CensusOptions(data: ShardTests.synthetic, output: file, shard: Shard(index: 0, count: 1)!)).run()
        let dataset = DataLoader.load(try! DataFolder(root: ShardTests.synthetic), log: DiagnosticLog())
        return (try! String(contentsOf: file, encoding: .utf8), Dictionary(uniqueKeysWithValues: dataset.accounts.map { ($0.account.uid, $0.account) }))
    }()

    /// The census's lines before its signature line: the format line, the head, the feeds, the totals, the rows.
    static let lines = whole.0.split(separator: "\n", omittingEmptySubsequences: false).dropLast(2).map(String.init)
    static let head = try! JSONDecoder().decode(CensusRecord.HeadLine.self, from: Data(lines[1].utf8))
    /// Where the first account's, the first goal's and the totals' lines are, and the rows'.
    static let firstAccount = 2, firstGoal = 2 + head.accounts, totalsLine = 2 + head.accounts + head.goals
    static var rowLines: [String] { Array(lines[(totalsLine + 1)...]) }

    /// The census with `change` made to its lines, signed anew.
    func resigned(_ change: (inout [String]) -> Void) -> String {
        var lines = Self.lines
        change(&lines)
        return RecordFile.signed(lines.map { $0 + "\n" }.joined())
    }

    /// `line` (JSON) with the first value of `key` (a number, a Boolean or an array of numbers) replaced by `value`.
    static func replacing(_ key: String, in line: String, with value: String) -> String {
        guard let start = line.range(of: "\"\(key)\":") else { return line }
        var end = start.upperBound
        if line[end] == "[" { end = line.index(after: line[end...].firstIndex(of: "]")!) } else {
            end = line[end...].firstIndex { $0 == "," || $0 == "}" }!
        }
        return String(line[..<start.upperBound]) + value + String(line[end...])
    }

    /// The first value of `key` in `line`, as it stands.
    /// A census row (a JSON array, ``SpendingItem/StarlingRow``) with its field at `index` (5: the
    /// units, 7: the day) replaced by the JSON text `value`.
    static func rowReplacing(_ index: Int, in line: String, with value: String) -> String {
        var fields = rowFields(line)
        fields[index] = value
        return "[" + fields.joined(separator: ",") + "]"
    }

    /// The JSON text of each field of a census row.
    static func rowFields(_ line: String) -> [String] {
        let values = try! JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) as! [Any]
        return values.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]), as: UTF8.self) }
    }

    static func value(_ key: String, in line: String) -> String {
        let start = line.range(of: "\"\(key)\":")!.upperBound
        return String(line[start..<line[start...].firstIndex { $0 == "," || $0 == "}" }!])
    }

    /// A record file's lines are read one at a time and hashed as read, in chunks: with each line
    /// read, the digest is the SHA-256 of every byte before it (over many chunks, and where a line
    /// is not UTF-8: its bytes, not their repair), the lines come back without breaks, and a
    /// reading from a mark goes on from there, hashing on from the hash so far.
    @Test func recordLinesHashTheBytesAsRead() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var body: [UInt8] = []
        var expected: [String] = []
        for number in 0..<20_000 {
            let line = number == 7 ? [UInt8(ascii: "r"), 0xFF, 0xC3, UInt8(ascii: "\t"), UInt8(ascii: "x")] : Array("r\t\(number)\té\t\(String(repeating: "y", count: number % 50))".utf8)
            body += line + [UInt8(ascii: "\n")]
            expected.append(String(decoding: line, as: UTF8.self))
        }
        let file = folder.appendingPathComponent("a.census")
        try Data(body + Array("end\tlast line\n".utf8)).write(to: file)
        let lines = RecordFile.Lines(path: file.path)
        var read: [String] = []
        var marks: [RecordFile.Lines.Mark] = []
        while let line = lines.next(), line != "end\tlast line" {
            read.append(String(line))
            if read.count == 12_345 { marks.append(lines.mark()) }
        }
        #expect(lines.failure == nil && read == expected && lines.hasBreak && lines.next() == nil)
        #expect(read[7].unicodeScalars.contains("\u{FFFD}"))
        #expect(lines.digest == StatementDigest.sha256(body + Array("end\tlast line\n".utf8)))
        // From a mark: the lines from there, the hash going on from the mark's.
        let mark = try #require(marks.first)
        let middle = RecordFile.Lines(path: file.path, from: mark)
        #expect(middle.next().map(String.init) == expected[12_345] && middle.offset == mark.offset)
        while let line = middle.next(), line != "end\tlast line" {}
        #expect(middle.digest == StatementDigest.sha256(body))
        // The same from a text, whose last line has no break.
        let text = RecordFile.Lines(text: String(decoding: body, as: UTF8.self) + "end")
        while let line = text.next(), line != "end" {}
        #expect(!text.hasBreak && text.digest == StatementDigest.sha256(Array(String(decoding: body, as: UTF8.self).utf8)))
    }

    /// A census's lines carry any text: rows of generated strings (tabs, line breaks, backslashes,
    /// escapes, quotes, any scalar) are one line each, and read back as written.
    @Test func recordLinesCarryAnyText() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["\\", "\t", "\n", "\r", "\\t", "\\n", "\t\n", "é", "🏦", "\u{0}", "\u{1B}[31m", " ", "a", "\"", "=", "\r\n", "\u{2028}", "sha256 "]
        func text() -> String {
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                Bool.random(using: &generator) ? pieces.randomElement(using: &generator)!
                    : String(UnicodeScalar(UInt32.random(in: 0...0xD7FF, using: &generator))!)
            }.joined()
        }
        var writer = RecordFile.Writer(format: "test 1")
        var rows: [SpendingItem.StarlingRow] = []
        for _ in 0..<2_000 {
            let row = SpendingItem.StarlingRow(account: text(), id: text(), name: text(), category: text(), categoryName: text(), units: 1,
                                               currency: "GBP", day: 1, time: nil, pending: false)
            rows.append(row)
            writer.append(row)
        }
        let lines = RecordFile.Lines(text: writer.text)
        #expect(lines.next() == "test 1")
        var read: [SpendingItem.StarlingRow] = []
        while let line = lines.next(), RecordFile.signature(line) == nil {
            read.append(try JSONDecoder().decode(SpendingItem.StarlingRow.self, from: Data(line.utf8)))
        }
        #expect(read == rows)
    }

    /// The census's rows fill the transactions lists as one machine's rows do; a row that is not
    /// one, rows out of order, a file changed between the share's two reads, or rows fewer than
    /// the totals count are refused, naming the file.
    @Test func aRunOfRowsFillsTheListsOrIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = DataLoader.load(try DataFolder(root: ShardTests.synthetic), log: DiagnosticLog())
        let accounts = Self.whole.1.values.sorted { $0.uid < $1.uid }
        let file = folder.appendingPathComponent("0.census")
        func fill(_ text: String, changing: String? = nil) throws -> (SpendingLists?, [String]) {
            try text.write(to: file, atomically: true, encoding: .utf8)
            do {
                let census = try CensusSet.read(folder, accounts: accounts)
                if let changing { try changing.write(to: file, atomically: true, encoding: .utf8) }
                let lists = try #require(SiteReport.build(dataset, rows: .runs(census.totals)).spendingLists)
                try census.fillRows(lists, keeps: { _ in true })
                return (lists, [])
            } catch let error as BuildError {
                return (nil, error.diagnostics.map { "\($0.file): \($0.message)" })
            }
        }
        let (filled, none) = try fill(Self.whole.0)
        #expect(none.isEmpty, "\(none)")
        let oneMachine = try #require(SiteReport.build(dataset).spendingLists)
        #expect(filled?.paths == oneMachine.paths && oneMachine.paths.count > 3)
        for path in oneMachine.paths {
            #expect(filled?.rows(of: path).map(\.fields) == oneMachine.rows(of: path).map(\.fields), "\(path)")
        }

        let first = Self.totalsLine + 1
        let garbled = try fill(resigned { $0[first] = Self.rowReplacing(5, in: $0[first], with: "\"x\"") }).1
        #expect(garbled == [file.path + ": row 1 of its spending list is not one"], "\(garbled)")
        let past = try fill(resigned { $0[first] = Self.rowReplacing(7, in: $0[first], with: "99999999") }).1
        #expect(past == [file.path + ": row 1 of its spending list is not one"], "a date past the year 9999: \(past)")
        let swapped = try fill(resigned { $0.swapAt(first, first + 1) }).1
        #expect(swapped == [file.path + ": the census's rows of the spending list are not what its totals count: its rows are not newest first"],
                "\(swapped)")
        // A row of another amount, signed anew: the rows no longer add up to the file's totals.
        let other = try fill(resigned { $0[first + 3] = Self.rowReplacing(5, in: $0[first + 3], with: String(Int(Self.rowFields($0[first + 3])[5])! + 1)) }).1
        #expect(other == [file.path + ": its rows of the spending list do not add up to its totals"], "\(other)")
        // Read again from where the rows start: a census signed anew since the share read it (its
        // head changed); the rows changed (a digit of an amount, the file's size the same), cut
        // short (at its last line, or in a row that then does not read: the damage is named, not
        // the row), a line after the last.
        let otherHead = resigned { $0[1] = Self.replacing("version", in: $0[1], with: "\"0.0.0-other\"") }
        let changed = try fill(Self.whole.0, changing: otherHead).1
        #expect(changed == [file.path + ": changed since the build first read it; run the census again"], "\(changed)")
        let row = Self.lines[first + 3], units = Self.rowFields(row)[5]
        let digit = Self.rowReplacing(5, in: row, with: String(units.dropLast()) + (units.last == "9" ? "8" : "9"))
        let runChanged = try fill(Self.whole.0, changing: Self.whole.0.replacingOccurrences(of: row + "\n", with: digit + "\n")).1
        #expect(runChanged == [file.path + ": changed since nestegg wrote it (its SHA-256 is not the one it was written with)"], "\(runChanged)")
        let lastLine = Self.whole.0.dropLast().lastIndex(of: "\n")!
        for damaged in [String(Self.whole.0[...lastLine]), String(Self.whole.0.dropLast(200)),
                        String(Self.whole.0[..<Self.whole.0.range(of: Self.lines[first + 9])!.upperBound].dropLast(3))] {
            let cut = try fill(Self.whole.0, changing: damaged).1
            #expect(cut == [file.path + ": cut short: its last line is missing"], "\(cut)")
        }
        let after = try fill(Self.whole.0, changing: Self.whole.0 + "x\n").1
        #expect(after == [file.path + ": changed since nestegg wrote it (a line after its last)"], "\(after)")
        // Cut short or added to before the share read it: the first reading hashes it whole.
        let cutBefore = try fill(String(Self.whole.0[...lastLine])).1
        #expect(cutBefore == [file.path + ": cut short: its last line is missing"], "\(cutBefore)")
        let addedBefore = try fill(Self.whole.0 + "x\n").1
        #expect(addedBefore == [file.path + ": changed since nestegg wrote it (a line after its last)"], "\(addedBefore)")
        let rows = Self.rowLines.count
        let fewer = try fill(resigned { $0.remove(at: first + 5) }).1
        #expect(fewer == [file.path + ": it holds \(rows - 1) rows of the spending list where its head says \(rows)"], "\(fewer)")
        let short = try fill(resigned {
            $0.remove(at: first + 5)
            $0[1] = Self.replacing("rows", in: $0[1], with: String(rows - 1))
        }).1
        #expect(short == [file.path + ": its spending totals count \(rows) rows where it holds \(rows - 1)"], "\(short)")
    }

    func refusal(_ text: String) -> String? {
        if case .failure(let reason) = CensusRecord.read(text, accounts: Self.whole.1) { return reason.description }
        return nil
    }

    @Test func aWholeCensusReadsBack() throws {
        let (text, accounts) = Self.whole
        let record = try CensusRecord.read(text, accounts: accounts).get()
        #expect(record.accounts.count == 10 && record.goals.count > 10 && record.shard == Shard(index: 0, count: 1))
        #expect(record.accounts.allSatisfy { $0.digest != nil && !$0.known.notes.isEmpty }, "every synthetic feed has notes")
        // The rows are counted, not decoded: a share reads them later (CensusRun), from where the
        // first reading marked their start. Written again with them, the record is the same bytes.
        #expect(record.rows == Self.rowLines.count && record.rows > 1_000)
        let before = Self.lines[...Self.totalsLine].map { $0 + "\n" }.joined()
        #expect(record.run.mark?.offset == Int64(before.utf8.count))
        let rows = try Self.rowLines.map { try JSONDecoder().decode(SpendingItem.StarlingRow.self, from: Data($0.utf8)) }
        #expect(record.text(rows: rows) == text)
    }

    @Test func aCensusCutShortOrChangedIsRefused() {
        let (text, _) = Self.whole
        let headEnd = text.range(of: Self.lines[1] + "\n")!.upperBound
        #expect(refusal(String(text[..<headEnd]))?.contains("cut short") == true)
        #expect(refusal(String(text[..<text.index(before: headEnd)]))?.contains("cut short") == true)
        let digit = text[text.firstIndex(of: "\n")!...].firstIndex(where: \.isNumber)!
        var changed = text
        changed.replaceSubrange(digit...digit, with: text[digit] == "1" ? "2" : "1")
        #expect(refusal(changed)?.contains("changed since nestegg wrote it") == true)
        #expect(refusal(String(decoding: Array(text.utf8.dropFirst(4)), as: UTF8.self)) != nil)
        #expect(refusal(resigned { _ in }) == nil, "signed anew, unchanged, it reads")
        // Counts no file bears out (signed anew by hand) are refused, not a trap or gigabytes.
        for (key, value) in [("rows", "1099511627776"), ("rows", "-1"), ("accounts", String(Int.max)), ("goals", "-1"), ("shard", "5"),
                             ("shards", "0"), ("rows", "\"1\"")] {
            #expect(refusal(resigned { $0[1] = Self.replacing(key, in: $0[1], with: value) }) != nil, "\(key) \(value)")
        }
        #expect(refusal("") == "empty: not a census" && refusal("my notes\n") == "not a census: its first line is not a census's")
        #expect(refusal(String(text.dropLast(200)))?.hasPrefix("cut short: ") == true)
        // A first line of this format damaged (a line break made CRLF), or cut: not another format.
        #expect(refusal(text.replacingOccurrences(of: "\n", with: "\r\n"))?.contains("another format") == false)
        #expect(refusal("nestegg-census ") == "cut short: its last line is missing")
        // A census of an earlier format is named as such, not as a file cut short.
        #expect(refusal("nestegg-census 3" + text.drop { $0 != "\n" })
                == "a census of another format (nestegg-census 3, where this nestegg reads \(CensusRecord.format)); run nestegg census again")
    }

    /// Signed anew (as a hand-made file could be): values no data has in the first account's
    /// figures are refused, naming the account, and nothing traps. (key, value)
    @Test(arguments: [
        ("year", "9999"), ("year", "10000"), ("week", "54"), ("payments", "-1"), ("payments", "99999999999"), ("opening", "99999999999"),
        ("cleared", "99999999999999999"), ("moneyIn", "170141183460469231731687303715884105727"), ("lines", "99999999999999"),
        ("latest", "-99999999999"), ("month", "99999999999"),
        // A month's moves: the first month moved nothing in (`{}`), so this opens the object with
        // one sum no data has, then with two each in range whose total is not.
        ("movedInFrom", #"{"x":170141183460469231731687303715884105727"#),
        ("movedInFrom", #"{"x":16777216000000000000,"y":16777216000000000000"#),
    ])
    func valuesOutOfRangeAreRefused(_ key: String, _ value: String) throws {
        let line = Self.lines[Self.firstAccount]
        // A week's fields in the weeks, a month's of the cash flow in the flows (keys sorted: the flows come before the weeks).
        let part = ["year", "week", "payments"].contains(key) ? "\"weeks\":" : ["month", "movedInFrom"].contains(key) ? "\"flows\":" : "\"figures\":"
        let figures = line.range(of: part)!.upperBound
        let changed = String(line[..<figures]) + Self.replacing(key, in: String(line[figures...]), with: value)
        try #require(changed != line, "\(key)")
        let reason = refusal(resigned { $0[Self.firstAccount] = changed })
        #expect(reason?.contains("the figures of account") == true, "\(key) = \(value): \(reason ?? "read")")
    }

    /// The same for the totals of the file's rows.
    @Test(arguments: [
        ("month", "11"), ("month", "120000"), ("currency", "\"gbp\""), ("pinned", "2"), ("count", "0"), ("count", "1099511627777"),
        ("units", "170141183460469231731687303715884105727"), ("day", "99999999999"), ("dates", "[99999999999,1]"), ("dates", "[5,-1000000]"),
        ("dates", "[1]"),
    ])
    func totalsOutOfRangeAreRefused(_ key: String, _ value: String) throws {
        let line = Self.lines[Self.totalsLine]
        let changed = Self.replacing(key, in: line, with: value)
        try #require(changed != line, "\(key)")
        let reason = refusal(resigned { $0[Self.totalsLine] = changed })
        #expect(reason?.contains("not the totals of its spending list") == true, "\(key) = \(value): \(reason ?? "read")")
    }

    @Test func timesOutOfRangeAndHugeCountsAreRefused() {
        let account = Self.lines[Self.firstAccount]
        let latest = account.range(of: "\"latest\":", options: .backwards)!
        let end = account[latest.upperBound...].firstIndex { $0 == "," || $0 == "}" }!
        let farFuture = String(account[..<latest.upperBound]) + String(Int64.max) + String(account[end...])
        #expect(refusal(resigned { $0[Self.firstAccount] = farFuture })?.contains("not a time") == true)
        let hugeNote = Self.replacing("count", in: account, with: String(Int.max))
        #expect(hugeNote != account && refusal(resigned { $0[Self.firstAccount] = hugeNote })?.contains("not an account's feed") == true)
        let goal = Self.lines[Self.firstGoal]
        let goalFuture = Self.replacing("latest", in: goal, with: String(Int64.max))
        #expect(goalFuture != goal && refusal(resigned { $0[Self.firstGoal] = goalFuture })?.contains("not a goal's feed") == true)
    }

    /// A head naming a huge N, or two files holding one feed, is refused at once.
    @Test func aHugeNOrAFeedInTwoFilesIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let accounts = Self.whole.1.values.sorted { $0.uid < $1.uid }
        func share(_ index: Int, of count: String) -> String {
            resigned { $0[1] = Self.replacing("shards", in: Self.replacing("shard", in: $0[1], with: String(index)), with: count) }
        }
        try share(0, of: "9223372036854775807").write(to: folder.appendingPathComponent("0.census"), atomically: true, encoding: .utf8)
        let huge = try #require(throws: BuildError.self) { try CensusSet.read(folder, accounts: accounts) }
        #expect(huge.diagnostics.map(\.message) == ["the census of share 1/9223372036854775807 is missing (1 of 9223372036854775807 files)"])
        // The same census as share 0 of 2 and 1 of 2: every feed is in both, and some not the file's share's.
        try share(0, of: "2").write(to: folder.appendingPathComponent("0.census"), atomically: true, encoding: .utf8)
        try share(1, of: "2").write(to: folder.appendingPathComponent("1.census"), atomically: true, encoding: .utf8)
        let twice = try #require(throws: BuildError.self) { try CensusSet.read(folder, accounts: accounts) }
        #expect(twice.diagnostics.contains { $0.message.contains("which is not share 0/2's") })
        #expect(twice.diagnostics.contains { $0.message.contains("holds too") })
    }
}
