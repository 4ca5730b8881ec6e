import Crypto
import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggSupport
@testable import NestEggWrite

/// Issue 48's cases, each through the `nestegg` binary as an attacker or an unlucky user would run
/// it: what signs (a forged or damaged part, a key rotated), what the build keeps beside the
/// output (a cache path over a user's file, a key inside the output, linked summaries and cache),
/// what verify reads (a page of 100 MB), and the smaller ones (budgets spelt twice, a key with a
/// share, rates that nothing uses).
@Suite(.serialized) struct HostileRoundThreeTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    func run(_ arguments: [String]) throws -> NestEggBinary.Result { try NestEggBinary.run(arguments) }

    /// A signing key pair and a part key in `work`.
    func keys(in work: URL) throws -> (signing: String, public: String, part: String) {
        let signing = work.appendingPathComponent("bank.key").path, part = work.appendingPathComponent("run.key").path
        #expect(try run(["keygen", "--out", signing]).status == 0)
        let made = try run(["keygen", "--part-key", "--out", part])
        #expect(made.status == 0, "\(made.stderr)")
        var status = stat()
        #expect(stat(part, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: part, encoding: .utf8).hasPrefix("nestegg-part-key "))
        return (signing, signing + ".pub", part)
    }

    /// The Fixtures built as two shares into `work/part0` and `work/part1`.
    func parts(in work: URL, partKey: String?) throws -> [String] {
        let parts = (0..<2).map { work.appendingPathComponent("part\($0)").path }
        for (index, part) in parts.enumerated() {
            let built = try run(["build", "-q", "--data", fixtures.path, "--output", part, "--shard", "\(index)/2"]
                                + (partKey.map { ["--part-key", $0] } ?? []))
            #expect(built.status == 0, "\(built.stderr)")
        }
        return parts
    }

    /// A statement page of `part` changed, and (with `record`) its record made to agree: the
    /// entry's SHA-256 the page's new one and the record's last line recomputed, as a forger who
    /// can write the part storage would. - Returns: the page's path in the part, or `nil` if the part has none.
    @discardableResult
    func forge(_ part: String, record: Bool) throws -> String? {
        let recordPath = part + "/" + PartRecord.fileName
        var lines = try String(contentsOfFile: recordPath, encoding: .utf8).components(separatedBy: "\n")
        let object = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        let entries = (object?["entries"] as? [[String: Any]] ?? []).compactMap { $0["entry"] as? String }
        let files = try entries.flatMap { entry in
            (try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])?["files"] as? [[String: String]] ?? []
        }
        guard let file = files.first(where: { $0["path"]?.hasSuffix(".html") == true }), let page = file["path"], let oldHash = file["sha256"] else { return nil }
        let path = part + "/statements/" + page
        let forged = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "</body>", with: "<p>Pay the balance to account 12345678.</p></body>")
        // A new file, as any editor would leave it (the share's own file may be linked elsewhere).
        try FileManager.default.removeItem(atPath: path)
        try Data(forged.utf8).write(to: URL(fileURLWithPath: path))
        if record {
            let newHash = Text.hex(SHA256.hash(data: Array(forged.utf8)))
            lines[1] = lines[1].replacingOccurrences(of: oldHash, with: newHash)
            let body = lines[0..<3].joined(separator: "\n") + "\n"
            try Data(RecordFile.signed(body).utf8).write(to: URL(fileURLWithPath: recordPath))
        }
        return page
    }

    // MARK: What signs

    /// Issue 48, 1: a forged statement in a part, its record made to agree, never reaches the
    /// issuer's signature: without the run's part key the merge signs nothing, with it the part is refused.
    @Test func aForgedPartIsNeverSigned() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        let parts = try parts(in: work, partKey: key.part)
        #expect(try forge(parts[0], record: true) ?? forge(parts[1], record: true) != nil, "a part has a statement to forge")
        let site = work.appendingPathComponent("site")
        let unkeyed = try run(["merge", "-q"] + parts + ["--output", site.path, "--signing-key", key.signing])
        #expect(unkeyed.status == 64 && unkeyed.stderr.contains("--signing-key needs --part-key"), "\(unkeyed.stderr)")
        let keyed = try run(["merge", "-q"] + parts + ["--output", site.path, "--signing-key", key.signing, "--part-key", key.part])
        #expect(keyed.status == 65, "\(keyed.stderr)")
        #expect(keyed.stderr.contains("was changed after the share wrote it"), "\(keyed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.path), "nothing is written")
        // Parts built without the key, or with another, are not the run's.
        let other = work.appendingPathComponent("other.key").path
        #expect(try run(["keygen", "--part-key", "--out", other]).status == 0)
        let otherKey = try run(["merge", "-q"] + parts + ["--output", site.path, "--part-key", other])
        #expect(otherKey.status == 65 && otherKey.stderr.contains("authenticated with another part key"), "\(otherKey.stderr)")
        let plainParts = try self.parts(in: work.appendingPathComponent("plain"), partKey: nil)
        let plain = try run(["merge", "-q"] + plainParts + ["--output", site.path, "--signing-key", key.signing, "--part-key", key.part])
        #expect(plain.status == 65 && plain.stderr.contains("the share was built without --part-key"), "\(plain.stderr)")
    }

    /// Issue 48, 1: the statements' index pages are signed too (as the manifest's other files):
    /// one changed in a part, its record untouched, is found as the merge places it.
    @Test func aDamagedIndexPageInAPartIsFound() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        let parts = try parts(in: work, partKey: key.part)
        let holder = try #require(parts.first { FileManager.default.fileExists(atPath: $0 + "/statements/index.html") })
        let index = holder + "/statements/index.html"
        let forged = try String(contentsOfFile: index, encoding: .utf8).replacingOccurrences(of: "</body>", with: "<p>Pay to 12345678.</p></body>")
        try FileManager.default.removeItem(atPath: index)
        try Data(forged.utf8).write(to: URL(fileURLWithPath: index))
        let site = work.appendingPathComponent("site")
        let merged = try run(["merge", "-q"] + parts + ["--output", site.path, "--signing-key", key.signing, "--part-key", key.part])
        #expect(merged.status == 65, "\(merged.stderr)")
        #expect(merged.stderr.contains("\(index): error: its SHA-256 is"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site.path))
    }

    /// Issue 48, 1: a page damaged in a part, its record untouched, is found as the merge places
    /// it, signed or not: the part is named, nothing is written.
    @Test func aDamagedPartPageIsFoundSignedOrNot() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        let parts = try parts(in: work, partKey: key.part)
        let damaged = try #require(try forge(parts[1], record: false).map { (parts[1], $0) } ?? forge(parts[0], record: false).map { (parts[0], $0) })
        let site = work.appendingPathComponent("site")
        for extra in [[], ["--signing-key", key.signing, "--part-key", key.part]] {
            let merged = try run(["merge", "-q"] + parts + ["--output", site.path] + extra)
            #expect(merged.status == 65, "\(merged.stderr)")
            #expect(merged.stderr.contains("\(damaged.0)/statements/\(damaged.1): error: its SHA-256 is"), "\(merged.stderr)")
            #expect(merged.stderr.contains("the part \(damaged.0) is damaged or was changed"), "\(merged.stderr)")
            #expect(!FileManager.default.fileExists(atPath: site.path))
        }
    }

    /// Issue 48, 1: the whole run, keyed, merges and verifies as signed.
    @Test func aKeyedRunMergesSigned() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        let parts = try parts(in: work, partKey: key.part)
        let site = work.appendingPathComponent("site")
        let merged = try run(["merge", "-q"] + parts + ["--output", site.path, "--signing-key", key.signing, "--part-key", key.part])
        #expect(merged.status == 0, "\(merged.stderr)")
        let verified = try run(["verify", site.appendingPathComponent("statements").path, "--public-key", key.public])
        #expect(verified.status == 0, "\(verified.stderr)")
        // The key goes with a merge, not a share; a part key with a build on one machine means nothing.
        let share = try run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("p").path, "--shard", "0/2",
                             "--signing-key", key.signing])
        #expect(share.status == 64 && share.stderr.contains("--signing-key does not go with --shard"), "\(share.stderr)")
        let plain = try run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("o").path, "--part-key", key.part])
        #expect(plain.status == 64 && plain.stderr.contains("--part-key goes with --shard"), "\(plain.stderr)")
    }

    /// Issue 48, 2: the signing key is part of "up to date": signing, rotating and dropping the
    /// key each rebuild the manifest's signature.
    @Test func theSigningKeyIsPartOfUpToDate() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let first = try keys(in: work)
        let second = work.appendingPathComponent("second.key").path
        #expect(try run(["keygen", "--out", second]).status == 0)
        let site = work.appendingPathComponent("site"), statements = site.appendingPathComponent("statements")
        let signature = statements.appendingPathComponent(ManifestSignature.fileName).path
        func build(_ extra: [String]) throws {
            let built = try run(["build", "-q", "--data", fixtures.path, "--output", site.path] + extra)
            #expect(built.status == 0, "\(built.stderr)")
        }
        try build([])
        #expect(!FileManager.default.fileExists(atPath: signature))
        try build(["--signing-key", first.signing])
        #expect(try run(["verify", statements.path, "--public-key", first.public]).status == 0)
        try build(["--signing-key", second])
        #expect(try run(["verify", statements.path, "--public-key", second + ".pub"]).status == 0)
        #expect(try run(["verify", statements.path, "--public-key", first.public]).status == 65)
        // The same key again: up to date, nothing rewritten.
        let again = try run(["build", "--data", fixtures.path, "--output", site.path, "--signing-key", second])
        #expect(again.status == 0 && again.stderr.contains("up to date"), "\(again.stderr)")
        try build([])
        #expect(!FileManager.default.fileExists(atPath: signature), "no stale signature")
    }

    /// Issue 48, 1 (the build's side): a statement file changed behind the cache's back (its size
    /// and modification time kept) is not kept and signed: a build that signs writes the
    /// statements anew, so the signed folder is a clean build's.
    @Test func aBuildThatSignsHashesWhatItPublishes() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        let site = work.appendingPathComponent("site"), statements = site.appendingPathComponent("statements")
        #expect(try run(["build", "-q", "--data", fixtures.path, "--output", site.path, "--signing-key", key.signing]).status == 0)
        // The same bytes' length and time, other bytes: the cache's stamps still match.
        let csv = statements.appendingPathComponent("personal/2026-10.csv").path
        var status = stat()
        #expect(lstat(csv, &status) == 0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: csv)))
        bytes[bytes.count - 2] = bytes[bytes.count - 2] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        try Data(bytes).write(to: URL(fileURLWithPath: csv))
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, csv, &times, 0) == 0)
        // A change elsewhere (a line break after a file of loans), so the build is not "up to date"
        // and keeps the statement's files as they are, by their fingerprint and stamps.
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let loans = try #require(try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("kiva").path).sorted().first)
        let handle = try FileHandle(forWritingTo: data.appendingPathComponent("kiva/" + loans))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        let rebuilt = try run(["build", "-q", "--data", data.path, "--output", site.path, "--signing-key", key.signing])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let verified = try run(["verify", statements.path, "--public-key", key.public])
        #expect(verified.status == 0, "a signed manifest lists what is published: \(verified.stderr)")
        let clean = work.appendingPathComponent("clean")
        #expect(try run(["build", "-q", "--data", data.path, "--output", clean.path, "--signing-key", key.signing]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == Data(contentsOf: clean.appendingPathComponent("statements/personal/2026-10.csv")),
                "the changed file was written again, not signed as it was")
    }

    // MARK: What the build keeps beside the output

    /// Issue 48, 3: `--cache` over a user's file (a note, a key) is refused, the file untouched.
    @Test func theCacheNeverReplacesAUsersFile() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        for file in [work.appendingPathComponent("notes.txt").path, key.public, key.signing] {
            if !FileManager.default.fileExists(atPath: file) { try write("my notes\n", to: URL(fileURLWithPath: file)) }
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            let built = try run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("site").path, "--cache", file])
            #expect(built.status == 73, "\(built.stderr)")
            #expect(built.stderr.contains("--cache: refusing to write the build cache here: it is a file that is not a build cache"), "\(built.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        }
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("site").path))
        // A cache of nestegg's own is replaced, as before.
        let cache = work.appendingPathComponent("build.cache").path
        for _ in 0..<2 {
            let built = try run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("site").path, "--cache", cache])
            #expect(built.status == 0, "\(built.stderr)")
        }
    }

    /// Issue 48, 4: a key inside the output (or the data, or beside it where nestegg keeps its
    /// spare) is refused, by build and by keygen, and survives.
    @Test func aKeyInsideWhatNesteggReplacesIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        #expect(try run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
        let inside = site.appendingPathComponent("issuer.key").path
        let keygen = try run(["keygen", "--out", inside])
        #expect(keygen.status == 64 && keygen.stderr.contains("refusing to write a key inside"), "\(keygen.stderr)")
        #expect(!FileManager.default.fileExists(atPath: inside))
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        #expect(try run(["keygen", "--out", data.appendingPathComponent("k").path]).status == 64)
        // One put there by hand is refused as --signing-key, and left where it is.
        let key = try keys(in: work)
        try FileManager.default.copyItem(atPath: key.signing, toPath: inside)
        let built = try run(["build", "-q", "--data", data.path, "--output", site.path, "--signing-key", inside])
        #expect(built.status == 64 && built.stderr.contains("refusing a key inside the output folder"), "\(built.stderr)")
        #expect(FileManager.default.fileExists(atPath: inside))
        let inData = data.appendingPathComponent("issuer.key").path
        try FileManager.default.copyItem(atPath: key.signing, toPath: inData)
        let fromData = try run(["build", "-q", "--data", data.path, "--output", site.path, "--signing-key", inData])
        #expect(fromData.status == 64 && fromData.stderr.contains("inside the data folder"), "\(fromData.stderr)")
        // Nor in the folder of state beside the output, by keygen or by hand; nor a --json there.
        let state = StateFolder.of(site)
        #expect(try run(["keygen", "--out", state.appendingPathComponent("k").path]).status == 64)
        let inState = state.appendingPathComponent("issuer.key").path
        try FileManager.default.copyItem(atPath: key.signing, toPath: inState)
        let fromState = try run(["build", "-q", "--data", data.path, "--output", site.path, "--signing-key", inState])
        #expect(fromState.status == 64 && fromState.stderr.contains("inside the state folder"), "\(fromState.stderr)")
        #expect(FileManager.default.fileExists(atPath: inState))
        try FileManager.default.removeItem(atPath: inState)
        let json = try run(["build", "-q", "--data", data.path, "--output", site.path, "--json", state.appendingPathComponent("totals.json").path])
        #expect(json.status == 64 && json.stderr.contains("the folder nestegg keeps its state in"), "\(json.stderr)")
    }

    /// Issue 48, 6: the summaries' folder replaced by a link (or holding a user's file) is refused:
    /// nothing is written through it, nothing there is deleted.
    @Test func theSummariesFolderIsNeverFollowed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        #expect(try run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
        let summaries = StateFolder.units(of: site)
        #expect(FileManager.default.fileExists(atPath: summaries.path))
        let victim = work.appendingPathComponent("victim")
        try write("keep\n", to: victim.appendingPathComponent(Units.fileName(of: "gone")))
        try FileManager.default.removeItem(at: summaries)
        try FileManager.default.createSymbolicLink(atPath: summaries.path, withDestinationPath: victim.path)
        // (Refused before anything is read: any data, changed or not.)
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let linked = try run(["build", "-q", "--data", data.path, "--output", site.path])
        #expect(linked.status == 73 && linked.stderr.contains("it is a symbolic link, which nestegg never follows"), "\(linked.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == [Units.fileName(of: "gone")])
        try FileManager.default.removeItem(at: summaries)
        try write("mine\n", to: summaries.appendingPathComponent("notes.txt"))
        let foreign = try run(["build", "-q", "--data", data.path, "--output", site.path])
        #expect(foreign.status == 73 && foreign.stderr.contains("it holds notes.txt, which nestegg did not write"), "\(foreign.stderr)")
        #expect(FileManager.default.fileExists(atPath: summaries.appendingPathComponent("notes.txt").path))
    }

    /// Issue 48, 8: a cache file that is a link (here, one that loops) is refused, and no attempt
    /// leaves anything beside the output, however often it is run.
    @Test func aLinkedCacheLeavesNothingBehind() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        #expect(try run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
        let cache = BuildCache.defaultFile(for: site)
        try FileManager.default.removeItem(at: cache)
        try FileManager.default.createSymbolicLink(atPath: cache.path, withDestinationPath: work.appendingPathComponent("loop").path)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("loop").path, withDestinationPath: cache.path)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: work.path))
        for _ in 0..<3 {
            let built = try run(["build", "-q", "--data", fixtures.path, "--output", site.path])
            #expect(built.status == 73 && built.stderr.contains("it is a symbolic link, which nestegg never writes through"), "\(built.stderr)")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: work.path)) == before)
    }

    /// The spare site's place holding a folder nestegg did not write is refused, not emptied.
    @Test func aForeignFolderAtTheSparesPlaceIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        #expect(try run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
        let spare = StateFolder.spare(of: site)
        try? FileManager.default.removeItem(at: spare)
        try write("photos\n", to: spare.appendingPathComponent("holiday.txt"))
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        try Data("{\"title\": \"Another\"}".utf8).write(to: data.appendingPathComponent("nestegg.json"))
        let built = try run(["build", "-q", "--data", data.path, "--output", site.path])
        #expect(built.status == 73 && built.stderr.contains("so nestegg did not write it"), "\(built.stderr)")
        #expect(FileManager.default.fileExists(atPath: spare.appendingPathComponent("holiday.txt").path))
    }

    /// The folder of state beside the output holds only what nestegg keeps there: a link in its
    /// place, a file there or a file of yours in it is refused (exit 73) and left as it is.
    @Test func theFolderOfStateIsNestEggsOwnOrRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site"), state = StateFolder.of(site)
        #expect(try run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
        #expect(state.lastPathComponent == ".site.nestegg")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: work.path)) == [".site.nestegg", "site"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: state.path)) == ["cache", "units"])
        try write("mine\n", to: state.appendingPathComponent("notes.txt"))
        let foreign = try run(["build", "-q", "--data", fixtures.path, "--output", site.path])
        #expect(foreign.status == 73 && foreign.stderr.contains("it holds notes.txt, which nestegg did not write"), "\(foreign.stderr)")
        #expect(try String(contentsOf: state.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine\n")
        try FileManager.default.removeItem(at: state)
        let yours = work.appendingPathComponent("yours")
        try write("keep\n", to: yours.appendingPathComponent("cache"))
        try FileManager.default.createSymbolicLink(atPath: state.path, withDestinationPath: yours.path)
        let linked = try run(["build", "-q", "--data", fixtures.path, "--output", site.path])
        #expect(linked.status == 73 && linked.stderr.contains("it is a symbolic link"), "\(linked.stderr)")
        #expect(try String(contentsOf: yours.appendingPathComponent("cache"), encoding: .utf8) == "keep\n")
        try FileManager.default.removeItem(at: state)
        try write("a file\n", to: state)
        let file = try run(["build", "-q", "--data", fixtures.path, "--output", site.path])
        #expect(file.status == 73 && file.stderr.contains("not the folder nestegg keeps its state in"), "\(file.stderr)")
    }

    /// `--cache` naming the cache's own place in the folder of state, or where an earlier nestegg
    /// kept it, keeps working build after build (the second build is up to date); any other name
    /// in the folder of state is refused (exit 64). A folder named `.nestegg` is no folder of
    /// state: a key may be written there.
    @Test func anExplicitCacheAtItsOwnPlaceOrTheEarlierOneKeepsWorking() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        for cache in [StateFolder.cache(of: site).path, work.appendingPathComponent(".site.nestegg-cache").path] {
            for round in 0..<2 {
                let built = try run(["build", "--data", fixtures.path, "--output", site.path, "--cache", cache])
                #expect(built.status == 0, "\(built.stderr)")
                #expect(round == 0 || built.stderr.contains("up to date"), "\(cache), round \(round): \(built.stderr)")
            }
            #expect(FileManager.default.fileExists(atPath: cache))
        }
        let other = try run(["build", "-q", "--data", fixtures.path, "--output", site.path, "--cache", StateFolder.of(site).appendingPathComponent("other").path])
        #expect(other.status == 64 && other.stderr.contains("the folder nestegg keeps its state in"), "\(other.stderr)")
        try FileManager.default.createDirectory(at: work.appendingPathComponent(".nestegg"), withIntermediateDirectories: true)
        #expect(try run(["keygen", "--out", work.appendingPathComponent(".nestegg/issuer.key").path]).status == 0)
    }

    /// What an earlier nestegg kept beside the output under names of its own (`.site.nestegg-cache`,
    /// `.site.nestegg-cache.units/`, `.site.nestegg-spare/`) moves into the folder of state when it
    /// is proven nestegg's, so the next build still renders only what changed; a folder of yours
    /// under an earlier name is left alone.
    @Test func anEarlierLayoutMovesIntoTheFolderOfStateWhenProvenOurs() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site"), state = StateFolder.of(site)
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        #expect(try run(["build", "-q", "--data", data.path, "--output", site.path]).status == 0)
        try Data("{\"title\": \"Another\"}".utf8).write(to: data.appendingPathComponent("nestegg.json"))
        #expect(try run(["build", "-q", "--data", data.path, "--output", site.path]).status == 0)
        let cache = try Data(contentsOf: StateFolder.cache(of: site))
        // As an earlier nestegg left them.
        for (new, old) in [("cache", ".site.nestegg-cache"), ("units", ".site.nestegg-cache.units"), ("spare", ".site.nestegg-spare")] {
            try FileManager.default.moveItem(at: state.appendingPathComponent(new), to: work.appendingPathComponent(old))
        }
        try FileManager.default.removeItem(at: state)
        let built = try run(["build", "--data", data.path, "--output", site.path])
        #expect(built.status == 0 && built.stderr.contains("up to date"), "the cache moved in: \(built.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: work.path)) == [".site.nestegg", "data", "site"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: state.path)) == ["cache", "spare", "units"])
        #expect(try Data(contentsOf: StateFolder.cache(of: site)) == cache)
        // A folder of yours under the spare's earlier name is not nestegg's: it stays where it is.
        try write("photos\n", to: work.appendingPathComponent(".site.nestegg-spare/holiday.txt"))
        #expect(try run(["build", "-q", "--data", data.path, "--output", site.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(".site.nestegg-spare/holiday.txt").path))
    }

    // MARK: What verify reads

    /// Issue 48, 7: a statement page larger than any nestegg writes is refused without being read
    /// (a sparse file: nothing is allocated for it); another file of 70 MB is hashed a piece at a time.
    @Test func verifyReadsBoundedPages() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let page = work.appendingPathComponent("page.html").path, other = work.appendingPathComponent("other.csv").path
        _ = FileManager.default.createFile(atPath: page, contents: nil)
        #expect(truncate(page, 400 << 20) == 0)
        _ = FileManager.default.createFile(atPath: other, contents: nil)
        #expect(truncate(other, 70 << 20) == 0)
        var hasher = SHA256()
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<70 { hasher.update(data: zeros) }
        let otherHash = Text.hex(hasher.finalize())
        let manifest = #"{"schemaVersion": 1, "statements": [{"files": [{"path": "page.html", "sha256": "\#(String(repeating: "a", count: 64))"}]}], "otherFiles": [{"path": "other.csv", "sha256": "\#(otherHash)"}]}"#
        try write(manifest, to: work.appendingPathComponent("manifest.json"))
        let outcome = ManifestVerifier.verify(folder: work)
        #expect(outcome.exitCode == .dataError)
        #expect(outcome.problems.count == 1, "\(outcome.problems)")
        #expect(outcome.problems.first?.message.contains("more than any statement page nestegg writes") == true, "\(outcome.problems)")
        #expect(outcome.otherFiles == 1)
    }

    // MARK: The smaller ones

    /// Issue 48, 5: one budget in two spellings is an error at its place, not counted twice.
    @Test func oneBudgetInTwoSpellingsIsAnError() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let settings = data.appendingPathComponent("nestegg.json")
        let text = try String(contentsOf: settings, encoding: .utf8)
        let budgets = try #require(text.range(of: #""budgets": \{[^}]*\}"#, options: .regularExpression))
        try Data(text.replacingCharacters(in: budgets, with: "\"budgets\": {\"food\": \"1.00\",\n    \"FOOD\": \"2.00\"}").utf8).write(to: settings)
        let checked = try run(["check", "--strict", "--data", data.path])
        #expect(checked.status == 65, "\(checked.stderr)")
        #expect(checked.stderr.contains(#"nestegg.json:9:13: error: budget "FOOD" names the same category as budget "food" on line 8"#), "\(checked.stderr)")
        #expect(checked.stderr.contains("(at $.budgets.FOOD)"), "\(checked.stderr)")
        // The budgets page is not built from the two: the build stops at the load.
        let built = try run(["build", "-q", "--data", data.path, "--output", work.appendingPathComponent("site").path])
        #expect(built.status == 65, "\(built.stderr)")
    }

    /// Issue 48, 9: a rate dated after the data and a rate of the base currency in its own file
    /// are named in warnings, not skipped in silence.
    @Test func unusedRatesAreNamed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let rates = data.appendingPathComponent("rates/GBP.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: rates)) as? [String: Any])
        var days = try #require(object["rates"] as? [String: Any])
        days["2027-01-04"] = ["EUR": 1.2, "USD": 1.3]
        let last = try #require(days.keys.filter { $0 < "2026-12" }.max())
        var lastDay = try #require(days[last] as? [String: Any])
        lastDay["GBP"] = 1
        days[last] = lastDay
        object["rates"] = days
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: rates)
        let checked = try run(["check", "--data", data.path])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stderr.contains(#"warning: "GBP" is the base currency of these rates"#), "\(checked.stderr)")
        #expect(checked.stderr.contains("GBP.json: warning: 2 rates (EUR, USD) dated after the data's last day"), "\(checked.stderr)")
        let built = try run(["build", "-q", "--data", data.path, "--output", work.appendingPathComponent("site").path])
        #expect(built.status == 0 && built.stderr.contains("2 rates (EUR, USD) dated after the data's last day"), "\(built.stderr)")
    }

    /// The names nestegg writes in the summaries' folder, and nothing else, are its own.
    @Test func summaryNamesAreRecognised() {
        let name = Units.fileName(of: "a1")
        #expect(BesideOutput.isSummaryName(name))
        #expect(BesideOutput.isSummaryName("." + name + ".nestegg-staged-vm.0123"))
        #expect(BesideOutput.isSummaryName("a1.census"), "an earlier version's name, by UID")
        #expect(!BesideOutput.isSummaryName("notes.txt"))
        #expect(!BesideOutput.isSummaryName(".census"))
        #expect(!BesideOutput.isSummaryName("census"))
    }
}
