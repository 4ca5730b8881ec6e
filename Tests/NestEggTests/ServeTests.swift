import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import NestEggServe

/// `nestegg serve`: the pieces (paths, types, the banner) and the whole, through the binary, on
/// 127.0.0.1 only.
@Suite(.serialized) struct ServeTests {
    @Test func pathsNeverLeaveTheSite() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("goals"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("y".utf8).write(to: root.appendingPathComponent("goals/index.html"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("out").path, withDestinationPath: "/etc")
        #expect(PreviewServer.resolve("/", in: root) == .file(root.appendingPathComponent("index.html")))
        #expect(PreviewServer.resolve("/goals/", in: root) == .file(root.appendingPathComponent("goals/index.html")))
        #expect(PreviewServer.resolve("/nothing.html", in: root) == .missing)
        for hostile in ["/../etc/passwd", "/%2e%2e/etc/passwd", "/goals/..%2f..%2fetc", "/out/passwd", "/a\\b", "/%00"] {
            #expect(PreviewServer.resolve(hostile, in: root) == .outside, "\(hostile)")
        }
    }

    @Test func typesAndTheBanner() {
        #expect(PreviewServer.contentType(of: "a/b.html") == "text/html; charset=utf-8")
        #expect(PreviewServer.contentType(of: "b.md") == "text/markdown; charset=utf-8")
        #expect(PreviewServer.contentType(of: "style.css") == "text/css; charset=utf-8")
        #expect(PreviewServer.contentType(of: "sitemap.xml") == "application/xml")
        #expect(PreviewServer.contentType(of: "statements/personal/2026-10.csv") == "text/csv; charset=utf-8")
        #expect(PreviewServer.contentType(of: "statements/personal/2026-10.camt053.xml") == "application/xml")
        let page = "<html><body class=\"x\"><p>hi</p></body></html>"
        let injected = PreviewServer.inject(into: page, errors: ["data/a.json:1:2: error: <script>alert(1)</script>"])
        #expect(injected.hasPrefix("<html><body class=\"x\"><div role=\"alert\""))
        #expect(injected.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !injected.contains("<script>alert"))
        #expect(injected.hasSuffix("</script></body></html>"), "the reload script before </body>")
        #expect(!PreviewServer.inject(into: page, errors: nil).contains("role=\"alert\""))
    }

    static func get(_ url: String) -> (status: Int, type: String, body: String) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result = (0, "", "")
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 5
        URLSession.shared.dataTask(with: request) { data, response, _ in
            let http = response as? HTTPURLResponse
            result = (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type") ?? "", data.map { String(decoding: $0, as: UTF8.self) } ?? "")
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return result
    }

    /// Waits up to `seconds` for `condition`, polling.
    static func eventually(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return condition()
    }

    @Test func servesRebuildsShowsErrorsAndStops() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), templates = work.appendingPathComponent("templates")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures"), to: data)
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let port = 18_000 + Int(getpid() % 2_000)
        let process = Process()
        process.executableURL = try #require(NestEggBinary.url)
        process.arguments = ["serve", "--data", data.path, "--templates", templates.path, "--port", "\(port)"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        #expect(Self.eventually { Self.get(base + "/").status == 200 }, "it serves")
        let index = Self.get(base + "/")
        #expect(index.type == "text/html; charset=utf-8" && index.body.contains("<title>NestEgg sample</title>"))
        #expect(index.body.contains("/__nestegg/reload"), "the reload script, in what it sends")
        #expect(Self.get(base + "/index.md").type == "text/markdown; charset=utf-8")
        #expect(Self.get(base + "/%2e%2e/%2e%2e/etc/passwd").status == 403)
        #expect(Self.get(base + "/no-such-page.html").status == 404)

        // A data change: the page changes.
        try #"{"title": "Served title"}"#.write(to: data.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        #expect(Self.eventually { Self.get(base + "/").body.contains("<title>Served title</title>") })
        // A template change too.
        let layout = try String(contentsOf: repositoryRoot.appendingPathComponent("Templates/layout.html.mustache"), encoding: .utf8)
        try layout.replacingOccurrences(of: "Generated by NestEgg", with: "Previewed by NestEgg")
            .write(to: templates.appendingPathComponent("layout.html.mustache"), atomically: true, encoding: .utf8)
        #expect(Self.eventually { Self.get(base + "/").body.contains("Previewed by NestEgg") })
        // Broken data: the last good page, with the error where it is.
        try #"{"title": "#.write(to: data.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        #expect(Self.eventually { Self.get(base + "/goals/index.html").body.contains("role=\"alert\"") })
        let broken = Self.get(base + "/goals/index.html").body
        #expect(broken.contains("nestegg.json:1:") && broken.contains("Served title"), "the error's place, over the last good site")
        // Fixed: the banner goes.
        try #"{"title": "Fixed title"}"#.write(to: data.appendingPathComponent("nestegg.json"), atomically: true, encoding: .utf8)
        #expect(Self.eventually { let page = Self.get(base + "/").body; return page.contains("Fixed title") && !page.contains("role=\"alert\"") })

        // Ctrl-C: a clean stop, its temporary folder gone.
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("nestegg-serve-\(process.processIdentifier)-") }
        #expect(before.count == 1)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("nestegg-serve-\(process.processIdentifier)-") }
        #expect(after.isEmpty)
    }
}
