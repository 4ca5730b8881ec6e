import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggSupport

/// Hostile input at the edges of the file system and the network, through the binary: a preview
/// reached by another name or from another page, `fixtures` pointed at real data, two runs of one
/// output at once, builds killed or failing half-way, paths that are not UTF-8, a data link to `/`.
@Suite(.serialized) struct HostileIOTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// Runs `/bin/sh -c script` with `arguments` as `$0`, `$1`, …: for what `Process` cannot give
    /// (bytes that are not UTF-8, a limit, a signal ignored).
    static func shell(_ script: String, _ arguments: [String]) throws -> NestEggBinary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return NestEggBinary.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                    stderr: String(decoding: errData, as: UTF8.self))
    }

    // MARK: serve

    /// A port nothing listens on now (the system's pick, given back).
    static func freePort() -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Sends `request` as it is (headers forged at will) to 127.0.0.1:`port`; the status and the
    /// whole answer (up to the end of the headers for a WebSocket's 101).
    static func exchange(port: UInt16, _ request: String) -> (status: Int, text: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return (0, "") }
        let bytes = Array(request.utf8)
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return (0, "") }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[..<count]
            // Whole: the headers of a 101, or as many bytes after the headers as they announce.
            let text = String(decoding: answer, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            if text.hasPrefix("HTTP/1.1 101") { break }
            let length = text[..<end.lowerBound].split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
            if let length, text.utf8.count - text[..<end.upperBound].utf8.count >= length { break }
        }
        let text = String(decoding: answer, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }

    static func get(_ path: String, host: String?, port: UInt16, extra: String = "Connection: close\r\n") -> (status: Int, text: String) {
        exchange(port: port, "GET \(path) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + extra + "\r\n")
    }

    static func upgrade(origin: String?, port: UInt16) -> Int {
        get("/__nestegg/reload", host: "127.0.0.1:\(port)", port: port, extra: (origin.map { "Origin: \($0)\r\n" } ?? "")
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n").status
    }

    /// `serve` answers its own names only (a page elsewhere that rebinds its name to 127.0.0.1 gets
    /// 421 and nothing of the site), takes the reload WebSocket from its own pages only, and answers
    /// a path that does not decode to a name with the site's 404 page, never the start page.
    @Test func serveAnswersItsOwnNamesAndOriginsOnly() throws {
        let port = Self.freePort()
        let process = Process()
        process.executableURL = try #require(NestEggBinary.url)
        process.arguments = ["serve", "--data", fixtures.path, "--port", "\(port)"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        #expect(ServeTests.eventually(20) { Self.get("/", host: "127.0.0.1:\(port)", port: port).status == 200 }, "it serves")

        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
            let page = Self.get("/", host: host, port: port)
            #expect(page.status == 200 && page.text.contains("<title>NestEgg sample</title>"), "\(host)")
        }
        for host in ["evil.example:\(port)", "evil.example", "127.0.0.1", "127.0.0.1:\(port + 1)", "127.0.0.1.evil.example:\(port)", "", nil] as [String?] {
            let page = Self.get("/", host: host, port: port)
            #expect(page.status == 421, "\(host ?? "no Host")")
            #expect(!page.text.contains("NestEgg sample") && !page.text.contains("<html"), "\(host ?? "no Host"): nothing of the site")
        }
        #expect(Self.get("/goals/index.html", host: "attacker.test:\(port)", port: port).status == 421)

        #expect(Self.upgrade(origin: "http://127.0.0.1:\(port)", port: port) == 101, "its own page")
        #expect(Self.upgrade(origin: "http://localhost:\(port)", port: port) == 101)
        for origin in ["http://evil.example:\(port)", "http://evil.example", "null", "https://127.0.0.1:\(port)", "http://127.0.0.1:\(port + 1)", nil] as [String?] {
            #expect(Self.upgrade(origin: origin, port: port) == 403, "\(origin ?? "no Origin")")
        }

        let notFound = Self.get("/no-such-page.html", host: "127.0.0.1:\(port)", port: port)
        #expect(notFound.status == 404)
        let notFoundPage = notFound.text.components(separatedBy: "\r\n\r\n").dropFirst().joined()
        for path in ["/%ff", "/x%c0", "/%3f", "/index.html%3f", "/%", "/%zz", "/goals/%ff/"] {
            let answer = Self.get(path, host: "127.0.0.1:\(port)", port: port)
            #expect(answer.status == 404, "\(path)")
            #expect(answer.text.components(separatedBy: "\r\n\r\n").dropFirst().joined() == notFoundPage, "\(path): the site's 404 page")
        }
        #expect(Self.get("/index.html?x=1", host: "127.0.0.1:\(port)", port: port).status == 200, "a real query is still a query")
    }

    // MARK: fixtures

    /// `fixtures --out` refuses (exit 73) a folder that holds files it did not write, leaving them
    /// as they were; it writes into a new or empty folder, and into its own again.
    @Test func fixturesRefuseAFolderTheyDidNotMake() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let real = work.appendingPathComponent("real")
        try FileManager.default.copyItem(at: fixtures, to: real)
        let before = try Data(contentsOf: real.appendingPathComponent("starling/accounts.json"))
        let refused = try NestEggBinary.run(["fixtures", "--out", real.path])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("refusing to write here") && refused.stderr.contains(real.path), "\(refused.stderr)")
        #expect(try Data(contentsOf: real.appendingPathComponent("starling/accounts.json")) == before)
        #expect(!FileManager.default.fileExists(atPath: real.appendingPathComponent(".nestegg-fixtures").path))

        let file = work.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        #expect(try NestEggBinary.run(["fixtures", "--out", file.path]).status == 73)

        // An empty folder, then the same folder again (it made it).
        let empty = work.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for _ in 0..<2 {
            let result = try NestEggBinary.run(["fixtures", "--out", empty.path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent("starling/accounts.json").path))
        // The marker is hidden: the data folder's walk does not list it (no "not read" warning).
        #expect(try !DataFolder(root: empty).files.contains { $0.contains(".nestegg-fixtures") })
    }

    // MARK: two runs of one output

    /// Two merges of one output at once, and a merge beside a build of it, each run 20 times:
    /// every run succeeds (neither takes the other's new staging folder for a leftover), and
    /// nothing of theirs is left beside the output.
    @Test func concurrentMergesAndBuildsOfOneOutputBothSucceed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let parts = try twoParts(in: work)
        let site = work.appendingPathComponent("site")
        let merge = ["merge", "-q"] + parts + ["--output", site.path]
        let build = ["build", "-q", "--data", fixtures.path, "--output", site.path]
        for round in 0..<20 {
            let second = round % 2 == 0 ? merge : build
            let results = try Self.together([merge, second])
            for (index, result) in results.enumerated() {
                #expect(result.status == 0, "round \(round), \(index == 0 ? "merge" : second[0]): \(result.stderr)")
            }
        }
        // (The folder of state beside the output — the build cache, the accounts' summaries and the
        // site a build swapped out, which the next stages into — is the site's, and stays.)
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".") && $0 != ".site.nestegg" }
        #expect(left.isEmpty, "\(left)")
    }

    /// Two merges into an output that is not there yet, at once, ten times: the one that finds
    /// the other's new site in place when it swaps swaps with it, as with any site there, and
    /// neither fails ("Directory not empty" was the second's error, exit 73, before).
    @Test func twoFirstRunsOfOneOutputAtOnceBothSucceed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let parts = try twoParts(in: work)
        for round in 0..<10 {
            let site = work.appendingPathComponent("site-\(round)")
            let results = try Self.together([["merge", "-q"] + parts + ["--output", site.path], ["merge", "-q"] + parts + ["--output", site.path]])
            for result in results { #expect(result.status == 0, "round \(round): \(result.stderr)") }
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
        }
    }

    /// The fixtures built as two shares' parts in `work`: their paths.
    func twoParts(in work: URL) throws -> [String] {
        try (0..<2).map { index in
            let part = work.appendingPathComponent("part-\(index)")
            let result = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", part.path, "--shard", "\(index)/2"])
            try #require(result.status == 0, "\(result.stderr)")
            return part.path
        }
    }

    /// Runs the binary with each argument list at once; their results in order.
    static func together(_ runs: [[String]]) throws -> [NestEggBinary.Result] {
        let binary = try #require(NestEggBinary.url)
        let processes = try runs.map { arguments -> (Process, Pipe) in
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return (process, errors)
        }
        return processes.map { process, errors in
            let text = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return NestEggBinary.Result(status: process.terminationStatus, stdout: "", stderr: String(decoding: text, as: UTF8.self))
        }
    }

    // MARK: leftovers

    /// What a build killed while it staged `--json` leaves (the list of files beside the output,
    /// the staged file, a staging folder, none of their owners running) is cleaned by the next
    /// build of that output, without `--json`; a file of the user's that shares a prefix stays.
    @Test func theNextBuildCleansWhatAKilledBuildLeftBesideTheOutput() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site"), totals = work.appendingPathComponent("totals.json")
        let first = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path, "--json", totals.path])
        try #require(first.status == 0, "\(first.stderr)")
        let token = "otherbox.0123456789abcdef"
        try Data((totals.path + "\n").utf8).write(to: work.appendingPathComponent(".nestegg-beside-site-" + token))
        try Data("{}".utf8).write(to: work.appendingPathComponent(".totals.json.nestegg-staged-" + token))
        try Data("{}".utf8).write(to: work.appendingPathComponent(".totals.json.nestegg-previous-" + token))
        try FileManager.default.createDirectory(at: work.appendingPathComponent(".nestegg-staging-site-" + token + "/goals"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work.appendingPathComponent(".nestegg-old-site-4242"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: work.appendingPathComponent(".totals.json.nestegg-staged-notes"))
        let next = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path])
        #expect(next.status == 0, "\(next.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
        #expect(left == [".site.nestegg", ".totals.json.nestegg-staged-notes", "site", "totals.json"], "\(left)")
    }

    /// Builds with `--json` killed at moments spread over their run, and killed the moment a file
    /// beside the output is staged, then one plain build: nothing is left beside the output but the
    /// site and the files written beside it (no staging folder, no staged or previous file, no
    /// Foundation `.dat.nosync…` temporary).
    @Test func buildsKilledAtAnyMomentLeaveNothingTheNextBuildDoesNotClean() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.removeItem(at: data)
        try FileManager.default.copyItem(at: fixtures, to: data)
        let site = work.appendingPathComponent("site"), totals = work.appendingPathComponent("totals.json")
        let binary = try #require(NestEggBinary.url)
        let started = Date()
        let first = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path, "--json", totals.path])
        try #require(first.status == 0, "\(first.stderr)")
        let duration = Date().timeIntervalSince(started)
        for round in 0..<8 {
            // Another title each time: every page changes, so there is a whole site to stage.
            try #"{"title": "Round \#(round)"}"#.write(to: data.appendingPathComponent("nestegg.json"), atomically: false, encoding: .utf8)
            let process = Process()
            process.executableURL = binary
            process.arguments = ["build", "-q", "--data", data.path, "--output", site.path, "--json", totals.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: duration * Double(round + 1) / 9)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // Then builds killed the moment a file beside the output is staged (up to 10 tries).
        var caught = 0
        for round in 0..<10 where caught < 4 {
            try #"{"title": "Staged \#(round)"}"#.write(to: data.appendingPathComponent("nestegg.json"), atomically: false, encoding: .utf8)
            let process = Process()
            process.executableURL = binary
            process.arguments = ["build", "-q", "--data", data.path, "--output", site.path, "--json", totals.path, "--single-file", work.appendingPathComponent("all.html").path]
            process.standardError = FileHandle.nullDevice
            // (Only its own: what an earlier round left has other names.)
            let earlier = Set((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? [])
            try process.run()
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []
                if names.contains(where: { !earlier.contains($0) && ($0.contains("nestegg-staged") || $0.contains("nosync")) }) {
                    kill(process.processIdentifier, SIGKILL)
                    caught += 1
                    break
                }
            }
            process.waitUntilExit()
        }
        let next = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path])
        #expect(next.status == 0, "\(next.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
        #expect(left.allSatisfy { [".site.nestegg", "site", "totals.json", "all.html"].contains($0) },
                "\(left)")
    }

    /// A write that fails says the system's reason: a `--json` name too long for the file system
    /// to hold its temporary; a file-size limit reached while the pages are written (as a full
    /// disk would be). Neither leaves a staging folder or a temporary beside the output.
    @Test func aFailedWriteNamesTheSystemsReasonAndLeavesNothing() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        let long = work.appendingPathComponent(String(repeating: "t", count: 240) + ".json")
        let tooLong = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path, "--json", long.path])
        #expect(tooLong.status == 73)
        #expect(tooLong.stderr.contains(systemReason(ENAMETOOLONG)), "\(tooLong.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)

        // (SIGXFSZ ignored, a write past the limit fails with EFBIG instead of ending the process.)
        let binary = try #require(NestEggBinary.url)
        let limited = try Self.shell("trap '' XFSZ; ulimit -f 16; exec \"$0\" build -q --data \"$1\" --output \"$2\"",
                                     [binary.path, fixtures.path, site.path])
        #expect(limited.status == 73, "\(limited.stderr)")
        #expect(limited.stderr.contains(systemReason(EFBIG)), "\(limited.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    /// An old site whose permissions were taken away (every folder and file read-only) is still
    /// replaced, and its copy moved aside is removed, not left beside the output for every later
    /// build to fail on. Run as another user than root (root ignores permissions): only where the
    /// tests run as root, with `setpriv`, to become `nobody`.
    @Test func aReadOnlyOldSiteIsReplacedAndLeavesNothing() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), out = work.appendingPathComponent("out")
        try FileManager.default.copyItem(at: fixtures, to: data)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for path in [work.path, data.path] { chmod(path, 0o755) }
        chown(out.path, 65_534, 65_534)
        let binary = try #require(NestEggBinary.url)
        let asNobody = "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" build -q --data \"$1\" --output \"$2/site\" --json \"$2/totals.json\""
        let first = try Self.shell(asNobody, [binary.path, data.path, out.path])
        try #require(first.status == 0, "\(first.stderr)")
        #expect(try Self.shell("chmod -R a-w \"$0/site\"", [out.path]).status == 0)
        try #"{"title": "Read-only, replaced"}"#.write(to: data.appendingPathComponent("nestegg.json"), atomically: false, encoding: .utf8)
        let second = try Self.shell(asNobody, [binary.path, data.path, out.path])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try String(contentsOf: out.appendingPathComponent("site/index.md"), encoding: .utf8).contains("Read-only, replaced"))
        // The read-only site is now the spare, which the next build cannot stage into file by file:
        // it is removed whole, and the build stages into a new folder.
        try #"{"title": "Replaced again"}"#.write(to: data.appendingPathComponent("nestegg.json"), atomically: false, encoding: .utf8)
        let third = try Self.shell(asNobody, [binary.path, data.path, out.path])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try String(contentsOf: out.appendingPathComponent("site/index.md"), encoding: .utf8).contains("Replaced again"))
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(left == [".site.nestegg", "site", "totals.json"], "\(left)")
        #expect(access(out.appendingPathComponent(".site.nestegg/spare/index.md").path, F_OK) == 0
                && FileManager.default.isWritableFile(atPath: out.appendingPathComponent(".site.nestegg/spare").path), "the spare is the second build's site")
    }

    // MARK: paths that are not UTF-8

    /// An argument that is not UTF-8 is refused (exit 64) before anything is read or written:
    /// never built into, or written over, the path with U+FFFD in its place.
    @Test func pathsThatAreNotUTF8AreRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let binary = try #require(NestEggBinary.url)
        let replaced = work.appendingPathComponent("notes-\u{FFFD}.json")
        try Data("the user's notes".utf8).write(to: replaced)
        for arguments in [["--output", "site-\\377"], ["--output", "site", "--json", "notes-\\377.json"], ["--data", "data-\\300"]] {
            let script = "cd \"$1\" && exec \"$0\" build -q --data \"$2\" " + arguments.map { $0.hasPrefix("--") ? $0 : "\"$(printf '\($0)')\"" }.joined(separator: " ")
            let result = try Self.shell(script, [binary.path, work.path, fixtures.path])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("is not valid UTF-8") && result.stderr.contains("\\x"), "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == [replaced.lastPathComponent])
        #expect(try Data(contentsOf: replaced) == Data("the user's notes".utf8))
        // Text that is UTF-8 is taken as it is.
        let accented = work.appendingPathComponent("sité")
        #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", accented.path]).status == 0)
    }

    // MARK: a data link to /

    /// A link in the data folder to `/` (or to a folder holding the data folder) is refused at the
    /// link, once, without walking through it (`/proc` and all).
    @Test func aDataLinkToTheRootIsRefusedAtTheLink() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        try FileManager.default.createSymbolicLink(atPath: data.appendingPathComponent("everything").path, withDestinationPath: "/")
        // (Stopped after 60 s: a walk of the whole file system can take far longer.)
        let binary = try #require(NestEggBinary.url)
        let started = Date()
        let build = try Self.shell("exec timeout 60 \"$0\" build --data \"$1\" --output \"$2\"", [binary.path, data.path, work.appendingPathComponent("site").path])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(build.status == 73, "\(build.stderr.prefix(2_000))")
        #expect(build.stderr.contains("everything in the data folder, a symbolic link"), "\(build.stderr)")
        #expect(!build.stderr.contains("/proc"), "\(build.stderr.prefix(2_000))")
        #expect(build.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.count == 1, "\(build.stderr.prefix(2_000))")

        let check = try Self.shell("exec timeout 60 \"$0\" check --data \"$1\"", [binary.path, data.path])
        #expect(check.status == 65, "\(check.stderr.prefix(2_000))")
        #expect(check.stderr.contains("everything") && check.stderr.contains("holds the data folder itself"), "\(check.stderr.prefix(2_000))")
        #expect(!check.stderr.contains("/proc"))

        // A link to the data folder's own parent: the same, at the link.
        try FileManager.default.removeItem(at: data.appendingPathComponent("everything"))
        try FileManager.default.createSymbolicLink(atPath: data.appendingPathComponent("up").path, withDestinationPath: "..")
        let up = try NestEggBinary.run(["check", "--data", data.path])
        #expect(up.status == 65 && up.stderr.contains("holds the data folder itself"), "\(up.stderr.prefix(2_000))")
    }
}
