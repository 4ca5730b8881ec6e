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

/// Issue 13: careless or hostile input never crashes, hangs, or loses anything — not the
/// previous site, not the input. Each test goes through the real binary unless it needs to
/// stop the write stage half-way, which only a unit test can.
@Suite(.serialized) struct NeverLoseDataTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// A work folder with a copy of the fixtures in `data/` and a site built from them in `site/`.
    func builtSite() throws -> (work: URL, data: URL, site: URL, before: [String: Data]) {
        let work = try temporaryFolder()
        let data = work.appendingPathComponent("data"), site = work.appendingPathComponent("site")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path])
        #expect(result.status == 0, "\(result.stderr)")
        return (work, data, site, snapshot(site))
    }

    /// Runs nestegg as an unprivileged user when the tests run as root (root reads every file, so
    /// an unreadable one can only be tried as someone else), with the work folder handed to them.
    func runUnprivileged(_ arguments: [String], work: URL) throws -> NestEggBinary.Result {
        guard getuid() == 0 else { return try NestEggBinary.run(arguments) }
        _ = try Shell.run("/bin/chown", ["-R", "65534:65534", work.path])
        // (The temporary folder above it is left as it is: it is the system's `/tmp`, whose mode
        // 1777 every other user of the machine needs; it lets the user in already.)
        let binary = try #require(NestEggBinary.url)
        return try Shell.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path] + arguments)
    }

    // MARK: A read failure is an error, never an absent source

    @Test func anUnreadableSourceFolderIsAnErrorAndTheSiteStays() throws {
        let (work, data, site, before) = try builtSite()
        defer { try? FileManager.default.removeItem(at: work) }
        let starling = data.appendingPathComponent("starling")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: starling.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: starling.path) }
        for command in [["build", "--data", data.path, "--output", site.path], ["check", "--data", data.path]] {
            let result = try runUnprivileged(command, work: work)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("starling: error: cannot read this folder: Permission denied"), "\(result.stderr)")
        }
        #expect(snapshot(site) == before)
    }

    @Test func anUnreadableFileOrDataFolderIsAnError() throws {
        let (work, data, site, before) = try builtSite()
        defer { try? FileManager.default.removeItem(at: work) }
        let feed = data.appendingPathComponent("qapital/feed/1.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: feed.path)
        let file = try runUnprivileged(["build", "--data", data.path, "--output", site.path], work: work)
        #expect(file.status == 65)
        #expect(file.stderr.contains("qapital/feed/1.json: error: cannot read the file: Permission denied"), "\(file.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: data.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: data.path) }
        let folder = try runUnprivileged(["build", "--data", data.path, "--output", site.path], work: work)
        #expect(folder.status == 66)
        #expect(folder.stderr.contains("cannot read the data folder"), "\(folder.stderr)")
        #expect(snapshot(site) == before)
    }

    @Test func entriesThatAreNotRegularFilesAreErrorsNeverSilenceOrAHang() throws {
        let (work, data, site, before) = try builtSite()
        defer { try? FileManager.default.removeItem(at: work) }
        let files = FileManager.default
        // A FIFO where a feed belongs (opening it to read would wait for a writer for ever).
        let fifo = data.appendingPathComponent("qapital/feed/2.json")
        try files.removeItem(at: fifo)
        #expect(mkfifo(fifo.path, 0o644) == 0)
        // A folder where a file belongs, a link to nothing, a link to itself, a link to a device.
        let balances = data.appendingPathComponent("kiva/my/balance.json")
        try files.removeItem(at: balances)
        try files.createDirectory(at: balances, withIntermediateDirectories: false)
        try files.createSymbolicLink(atPath: data.appendingPathComponent("transactions/more.json").path, withDestinationPath: "nowhere.json")
        try files.createSymbolicLink(atPath: data.appendingPathComponent("transfers/loop.json").path, withDestinationPath: "loop.json")
        try files.createSymbolicLink(atPath: data.appendingPathComponent("kiva/loans-4.json").path, withDestinationPath: "/dev/zero")
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", site.path])
        #expect(result.status == 65)
        for expected in ["qapital/feed/2.json: error: not read: it is a FIFO, not a regular file",
                         "kiva/my/balance.json: error: is a folder, but a JSON file belongs here",
                         "transactions/more.json: error: not read: it is a symbolic link to nothing",
                         "transfers/loop.json: error: not read: it is a symbolic link that leads back to itself",
                         "kiva/loans-4.json: error: not read: it is a link to a device"] {
            #expect(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
        #expect(snapshot(site) == before)
    }

    @Test func aFolderWithNoSourceIsAnErrorThatSaysWhatNestEggLooksFor() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let empty = work.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try NestEggBinary.run(["build", "--data", empty.path, "--output", work.appendingPathComponent("site").path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no data to report on: the folder holds none of starling/, imports/, berlingroup/, simplefin/, qapital/"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("site").path))
        let blank = try NestEggBinary.run(["build", "--data", "", "--output", work.appendingPathComponent("site").path])
        #expect(blank.status == 64, "\(blank.stderr)")
    }

    // MARK: Files written beside the site

    @Test func extraFilesNeverOverwriteInputOrLandWhereTheyWouldVanish() throws {
        let (work, data, site, before) = try builtSite()
        defer { try? FileManager.default.removeItem(at: work) }
        let input = snapshot(data)
        let cases: [([String], Int32, String)] = [
            (["--json", data.appendingPathComponent("nestegg.json").path], 64, "inside the data folder"),
            (["--summary", data.appendingPathComponent("new.md").path], 64, "inside the data folder"),
            (["--single-file", site.appendingPathComponent("report.html").path], 64, "inside the output folder"),
            (["--json", work.appendingPathComponent("a.json").path, "--summary", work.appendingPathComponent("a.json").path], 64, "writes the same file"),
            (["--json", work.path], 73, "it is a folder"),
            (["--json", "/dev/null"], 73, "it is a device"),
        ]
        for (options, status, message) in cases {
            let result = try NestEggBinary.run(["build", "--data", data.path, "--output", site.path] + options)
            #expect(result.status == status, "\(options) \(result.stderr)")
            #expect(result.stderr.contains(message), "\(options) \(result.stderr)")
        }
        // Through a link: its target is never replaced.
        let target = work.appendingPathComponent("target.txt"), link = work.appendingPathComponent("link.json")
        try write("keep me", to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let linked = try NestEggBinary.run(["build", "--data", data.path, "--output", site.path, "--json", link.path])
        #expect(linked.status == 73 && linked.stderr.contains("a symbolic link"), "\(linked.stderr)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        #expect(snapshot(data) == input)
        #expect(snapshot(site) == before)
    }

    @Test func theSiteAndTheFilesBesideItCommitTogetherOrNotAtAll() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let first = try SiteWriter(output: output)
        try first.write("old page", to: "index.md")
        _ = try first.commit().finished()
        let kept = work.appendingPathComponent("summary.md"), failing = work.appendingPathComponent("totals.json")
        try write("old summary", to: kept)

        let writer = try SiteWriter(output: output)
        try writer.write("new page", to: "index.md")
        let staged = [try StagedFile.stage("new summary", at: kept), try StagedFile.stage("{}", at: failing)]
        // The second file's staged bytes vanish before the commit: its rename fails after the
        // site and the first file are in place, and both must be put back.
        try FileManager.default.removeItem(at: try #require(staged[1].temporary))
        let build = Build(options: BuildOptions(data: work, output: output))
        #expect(throws: BuildError.self) { _ = try build.commit(writer, with: staged) }
        do { _ = try build.commit(writer, with: staged) } catch { #expect(error.outputUnchanged) }
        #expect(try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8) == "old page")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "old summary")
        #expect(!FileManager.default.fileExists(atPath: failing.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func aPreviousFileThatCannotBePutBackIsKeptNamedAndNoRecoveryRemovesIt() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let summary = work.appendingPathComponent("summary.md")
        try write("old summary", to: summary)
        let staged = try StagedFile.stage("new summary", at: summary)
        try staged.commit()
        // Before it is put back, something takes the summary's place that no rename replaces (a
        // folder with a file in it): the previous file is then the only copy of the old summary.
        try FileManager.default.removeItem(at: summary)
        try FileManager.default.createDirectory(at: summary, withIntermediateDirectories: false)
        try write("in the way", to: summary.appendingPathComponent("file"))
        #expect(!staged.rollBack())
        let kept = try #require(staged.keptAside)
        #expect(kept.lastPathComponent.hasPrefix(".summary.md.nestegg-kept-"))
        StagedFile.recover(beside: summary)
        #expect(try String(contentsOf: kept, encoding: .utf8) == "old summary", "no recovery removes it")
        let others = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".") && $0 != kept.lastPathComponent }
        #expect(others.isEmpty, "\(others)")
    }

    // MARK: The swap, leftovers and the "up to date" shortcut

    @Test func aBuildKilledAtAnyMomentLeavesTheOldSiteOrTheNewOne() throws {
        let (work, data, site, old) = try builtSite()
        defer { try? FileManager.default.removeItem(at: work) }
        let settings = data.appendingPathComponent("nestegg.json")
        try write(#"{"title": "Changed", "locale": "en_GB", "timeZone": "Europe/London"}"#, to: settings)
        let new = try { () throws -> [String: Data] in
            let reference = work.appendingPathComponent("reference")
            #expect(try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", reference.path]).status == 0)
            return snapshot(reference)
        }()
        #expect(new != old)
        let binary = try #require(NestEggBinary.url)
        var sawOld = false, sawNew = false
        for delay in [0.05, 0.4, 0.8, 1.2] {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["build", "-q", "--data", data.path, "--output", site.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = snapshot(site)
            #expect(now == old || now == new, "killed after \(delay) s: the output is neither site")
            sawOld = sawOld || now == old
            sawNew = sawNew || now == new
            if now == new {
                // Back to the old input for the next try.
                #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
            }
        }
        // The next build cleans up whatever the killed ones left beside the output.
        #expect(try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path]).status == 0)
        #expect(snapshot(site) == new)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".nestegg") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(sawOld || sawNew)
    }

    @Test func anInterruptedSwapIsRepairedAndLeftoversGoWhateverTheirProcessNumber() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        // A swap killed between its two renames: no output, the old site retired. The leftover
        // names carry this very process's number, which is alive: only the lock decides.
        let retired = work.appendingPathComponent(".nestegg-old-site-\(getpid())")
        try write("old", to: retired.appendingPathComponent("index.md"))
        let staging = work.appendingPathComponent(".nestegg-staging-site-\(getpid())")
        try write("half", to: staging.appendingPathComponent("index.md"))
        let busy = work.appendingPathComponent(".nestegg-staging-site-1")
        try write("another build's", to: busy.appendingPathComponent("index.md"))
        // Folders that merely share the prefix stay: a user's (deleted, notes and all, before), and
        // the leftover of another output, `site-2`, whose name begins with `site`'s prefix too.
        let mine = [".nestegg-staging-site-notes", ".nestegg-staging-site-2-\(getpid())"].map(work.appendingPathComponent)
        for folder in mine { try write("my notes", to: folder.appendingPathComponent("notes.txt")) }
        let owner = try #require(Ownership(of: busy.path))
        SiteWriter.recover(output)
        #expect(try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8) == "old")
        #expect(!FileManager.default.fileExists(atPath: staging.path))
        #expect(mine.allSatisfy { FileManager.default.fileExists(atPath: $0.appendingPathComponent("notes.txt").path) }, "others' folders are left alone")
        #expect(FileManager.default.fileExists(atPath: busy.path), "a folder another build holds is left alone")
        owner.release()
        SiteWriter.recover(output)
        #expect(!FileManager.default.fileExists(atPath: busy.path))
    }

    /// The files beside the site (`--summary`, `--json`, `--single-file`) are recovered by name
    /// too: a staged copy goes, a previous one comes back where its file is missing, and a file
    /// that merely shares the prefix stays.
    @Test func leftoversBesideTheSiteAreTakenByTheirNamesOnly() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let summary = work.appendingPathComponent("summary.md")
        let staged = work.appendingPathComponent(".summary.md.nestegg-staged-\(getpid())")
        let previous = work.appendingPathComponent(".summary.md.nestegg-previous-\(getpid())")
        let notes = work.appendingPathComponent(".summary.md.nestegg-notes")
        for (file, text) in [(staged, "half"), (previous, "old"), (notes, "my notes")] { try write(text, to: file) }
        StagedFile.recover(beside: summary)
        #expect(!FileManager.default.fileExists(atPath: staged.path) && !FileManager.default.fileExists(atPath: previous.path))
        #expect(try String(contentsOf: summary, encoding: .utf8) == "old", "put back where its file was missing")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes", "a file of yours is left alone")
    }

    @Test func theUpToDateShortcutRepairsSameSizeDamageAndChecksItsOptions() throws {
        let (work, data, site, before) = try builtSite()
        defer { try? FileManager.default.removeItem(at: work) }
        let index = site.appendingPathComponent("index.md")
        var bytes = try Data(contentsOf: index)
        bytes[0] = bytes[0] == UInt8(ascii: "X") ? UInt8(ascii: "Y") : UInt8(ascii: "X")
        try bytes.write(to: index)
        let repaired = try NestEggBinary.run(["build", "--data", data.path, "--output", site.path])
        #expect(repaired.status == 0)
        #expect(!repaired.stderr.contains("up to date"), "\(repaired.stderr)")
        #expect(snapshot(site) == before)
        let missing = try NestEggBinary.run(["build", "--data", data.path, "--output", site.path,
                                             "--templates", work.appendingPathComponent("no-such-folder").path])
        #expect(missing.status == 78, "\(missing.stderr)")
        #expect(missing.stderr.contains("templates folder not found"), "\(missing.stderr)")
    }

    // MARK: Linear cost, whatever is wrong

    @Test func aMillionWrongElementsAreCountedNotListed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let count = 200_000
        let file = work.appendingPathComponent("data/transactions/transactions.json")
        try write("[" + Array(repeating: "\"x\"", count: count).joined(separator: ",") + "]", to: file)
        let result = try NestEggBinary.run(["check", "--data", work.appendingPathComponent("data").path])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == DiagnosticLog.perFileLimit + 2, "100 in full, one count, one total")
        #expect(result.stderr.contains("… and \(count - DiagnosticLog.perFileLimit) more errors in this file, not shown"), "\(lines.suffix(3))")
        #expect(result.stderr.contains(": \(count) errors, 0 warnings"))
    }

    // MARK: The hostile corpus: every case gives its status and message, never a crash

    static let corpus = repositoryRoot.appendingPathComponent("Tests/Hostile")
    static let cases = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()

    @Test(arguments: cases) func hostileCase(_ name: String) throws {
        let folder = Self.corpus.appendingPathComponent(name)
        let expected = try String(contentsOf: folder.appendingPathComponent("expected.txt"), encoding: .utf8).split(separator: "\n")
        let status = try #require(Int32(expected[0].dropFirst("status ".count)))
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let result = try NestEggBinary.run(["build", "-q", "--data", folder.appendingPathComponent("data").path,
                                            "--output", work.appendingPathComponent("site").path])
        #expect(result.status == status, "\(name): \(result.stderr)")
        if expected.count > 1, !expected[1].hasPrefix("#") {
            #expect(result.stderr.contains(expected[1]), "\(name): \(result.stderr)")
        }
    }
}

/// A command's status and output (for tools the tests call, and nestegg run as another user).
enum Shell {
    static func run(_ executable: String, _ arguments: [String]) throws -> NestEggBinary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return NestEggBinary.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                    stderr: String(decoding: errData, as: UTF8.self))
    }
}
