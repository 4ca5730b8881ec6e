import FlyingFox
import Foundation
import NestEggBuild
import NestEggSupport
import Synchronization

/// `nestegg serve`: a live preview while someone edits the data or the templates. The site is
/// built into a temporary folder (never the output folder), served over HTTP on this machine by
/// FlyingFox, and built again — incrementally, into the same folder — when a watched file
/// changes. Open pages reload themselves: `serve` adds a small script to the HTML it sends (the
/// files it built have none), which a WebSocket tells when a build has finished. A build that
/// fails leaves the last good site served, with a banner in every page naming each error
/// (`file:line:col`), put into the response itself so that it shows without the script.
public final class PreviewServer: Sendable {
    public struct Options: Sendable {
        public var data: URL
        public var templates: URL?
        public var host: String
        public var port: UInt16

        public init(data: URL, templates: URL?, host: String = "127.0.0.1", port: UInt16 = 8000) {
            self.data = data
            self.templates = templates
            self.host = host
            self.port = port
        }
    }

    public let options: Options
    /// The temporary folder: the site is built into `site/` inside it.
    public let folder: URL
    var site: URL { folder.appendingPathComponent("site") }
    private let log: @Sendable (String) -> Void

    struct State {
        /// Builds finished so far (each tells the open pages to reload).
        var version = 0
        /// The last build's errors, while they last (`nil` once a build succeeds).
        var errors: [String]?
        var hasSite = false
        var listeners: [Int: AsyncStream<WSMessage>.Continuation] = [:]
        var nextListener = 0
    }
    private let state = Mutex(State())

    public init(options: Options, log: @escaping @Sendable (String) -> Void) throws {
        self.options = options
        self.log = log
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Removes the temporary folder.
    public func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    // MARK: Building

    /// Builds the site; on failure keeps the last good one and remembers the errors.
    func rebuild(reason: String) {
        let started = DispatchTime.now()
        var build = Build(options: BuildOptions(data: options.data, output: site, templates: options.templates))
        var kept = ""
        build.progress = { line in if line.contains("unchanged since the last build") { kept = line } }
        do {
            let result = try build.run()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            let version = state.withLock { state -> Int in
                state.errors = nil
                state.hasSite = true
                state.version += 1
                return state.version
            }
            log(String(format: "serve: %@: built %d pages in %.2f s%@", reason, result.pages, seconds,
                       kept.isEmpty ? "" : " (" + kept.replacingOccurrences(of: "render: ", with: "") + ")"))
            notify(version)
        } catch {
            let lines = error.diagnostics.map { Diagnostic.printable($0.description) }
            let version = state.withLock { state -> Int in
                state.errors = lines
                state.version += 1
                return state.version
            }
            lines.forEach(log)
            log("serve: \(reason): the build failed (\(error)); still serving the last good site")
            notify(version)
        }
    }

    private func notify(_ version: Int) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(.text("build \(version)")) }
    }

    // MARK: Watching

    /// Every watched file's path, size and modification time: what a change changes.
    static func signature(of folders: [URL]) -> [String: String] {
        var result: [String: String] = [:]
        for folder in folders {
            let root = folder.standardizedFileURL.path
            guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = enumerator.nextObject() as? String {
                var status = stat()
                guard lstat(root + "/" + relative, &status) == 0 else { continue }
                result[root + "/" + relative] = "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_mode)"
            }
        }
        return result
    }

    /// Polls the data and templates folders every `interval`; a change starts a rebuild once the
    /// files have stopped changing for one more interval, so a burst of saves is one rebuild.
    func watch(interval: Duration = .milliseconds(300)) async {
        let folders = [options.data] + (options.templates.map { [$0] } ?? [])
        var last = Self.signature(of: folders)
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            var now = Self.signature(of: folders)
            guard now != last else { continue }
            // Settle: wait while the files keep changing.
            while true {
                try? await Task.sleep(for: interval)
                let later = Self.signature(of: folders)
                if later == now { break }
                now = later
            }
            let changed = Set(now.keys).symmetricDifference(last.keys).union(now.keys.filter { last[$0] != nil && last[$0] != now[$0] })
            last = now
            let names = changed.sorted().prefix(3).map { URL(fileURLWithPath: $0).lastPathComponent }
            rebuild(reason: names.joined(separator: ", ") + (changed.count > 3 ? " and \(changed.count - 3) more" : "") + " changed")
        }
    }

    // MARK: Serving

    /// Builds, then serves until the task is cancelled (or the server fails).
    public func run() async throws {
        rebuild(reason: "first build")
        let address = try sockaddr_in.inet(ip4: options.host, port: options.port)
        let server = HTTPServer(address: address, logger: .disabled, handler: Gate(server: self))
        log("Serving http://\(options.host):\(options.port)/ — watching \(options.data.path)"
            + (options.templates.map { " and \($0.path)" } ?? "") + " (Ctrl-C stops)")
        let watcher = Task { await watch() }
        defer { watcher.cancel() }
        try await server.run()
    }

    /// The `Host` values this server answers: `127.0.0.1`, `localhost`, `[::1]` and the `--host`
    /// given, each with the port (and without it on port 80, where browsers leave it out), in
    /// lower case. Any other name is a page elsewhere that has pointed its own name at this
    /// machine (DNS rebinding): the browser would take the preview for that page's origin.
    static func allowedHosts(host: String, port: UInt16) -> Set<String> {
        let given = host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host
        let names = ["127.0.0.1", "localhost", "[::1]", given].map { $0.lowercased() }
        return Set(names.map { "\($0):\(port)" } + (port == 80 ? names : []))
    }

    /// Whether a request's `Host` header names this server (``allowedHosts(host:port:)``).
    func accepts(host: String?) -> Bool {
        guard let host else { return false }
        return Self.allowedHosts(host: options.host, port: options.port).contains(host.lowercased())
    }

    /// Whether a WebSocket's `Origin` is one of this server's own pages: `http://` and an allowed
    /// host. A browser always sends it; a page from anywhere else is refused.
    func accepts(origin: String?) -> Bool {
        guard let origin, origin.lowercased().hasPrefix("http://") else { return false }
        return accepts(host: String(origin.dropFirst("http://".count)))
    }

    /// The response for a request's path: the built file (HTML with the reload script and, after
    /// a failed build, the error banner), `index.html` for a folder, the site's `404.html` for a
    /// path with nothing, 403 for a path that would leave the site.
    func respond(to requestPath: String) -> HTTPResponse {
        let (errors, hasSite) = state.withLock { ($0.errors, $0.hasSite) }
        guard hasSite else {
            return html(status: .serviceUnavailable, Self.page(title: "The site could not be built", body: ""), errors: errors ?? ["not built yet"])
        }
        switch Self.resolve(requestPath, in: site) {
        case .outside:
            return HTTPResponse(statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"], body: Data("not in the site\n".utf8))
        case .file(let url):
            guard let data = FileManager.default.contents(atPath: url.path) else { return notFound(errors) }
            let type = Self.contentType(of: url.path)
            if type.hasPrefix("text/html") { return html(status: .ok, String(decoding: data, as: UTF8.self), errors: errors) }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: type], body: data)
        case .missing:
            return notFound(errors)
        }
    }

    private func notFound(_ errors: [String]?) -> HTTPResponse {
        let page = FileManager.default.contents(atPath: site.appendingPathComponent("404.html").path).map { String(decoding: $0, as: UTF8.self) }
        return html(status: .notFound, page ?? Self.page(title: "Not found", body: "<p>There is no page at this address.</p>"), errors: errors)
    }

    private func html(status: HTTPStatusCode, _ page: String, errors: [String]?) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/html; charset=utf-8", .init("Cache-Control"): "no-store"],
                     body: Data(Self.inject(into: page, errors: errors).utf8))
    }

    enum Resolved: Equatable {
        case file(URL)
        case missing
        case outside
    }

    /// Where a request's path (as sent, percent-encoded, without the query) leads in `root`: never
    /// outside it — not by `..`, an encoded one, a backslash or a symbolic link. A path that does
    /// not decode to UTF-8 text (`/%ff`, `/x%c0`, a stray `%`) names no file: `missing`. An encoded
    /// `?` (`%3f`) is a character of a name, not the start of a query.
    static func resolve(_ requestPath: String, in root: URL) -> Resolved {
        guard requestPath.hasPrefix("/"), let path = decode(requestPath) else { return .missing }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        if parts.contains(where: { $0 == ".." || $0 == "." || $0.contains("\\") || $0.contains("\0") }) { return .outside }
        // Hidden files (the ownership marker) are nestegg's, not pages of the site.
        if parts.contains(where: { $0.hasPrefix(".") }) { return .missing }
        var url = root
        for part in parts { url.appendPathComponent(String(part)) }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            url.appendPathComponent("index.html")
        }
        let real = url.resolvingSymlinksInPath().path, base = root.resolvingSymlinksInPath().path
        guard real == base || real.hasPrefix(base + "/") else { return .outside }
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { return .missing }
        return .file(url)
    }

    /// A percent-encoded path decoded exactly: `nil` for a `%` not followed by two hex digits or
    /// bytes that are not UTF-8 (never a replacement character, which could name another file).
    static func decode(_ encoded: String) -> String? {
        var bytes: [UInt8] = []
        var input = encoded.utf8.makeIterator()
        while let byte = input.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = input.next().flatMap(hexValue), let low = input.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func contentType(of path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "md": return "text/markdown; charset=utf-8"
        case "csv": return "text/csv; charset=utf-8"
        case "json": return "application/json"
        case "xml": return "application/xml"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "png": return "image/png"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    /// The reload script (before `</body>`), and after a failed build the errors' banner (right
    /// after `<body…>`), every error escaped as HTML text.
    static func inject(into page: String, errors: [String]?) -> String {
        var page = page
        if let errors, let body = page.range(of: "<body") , let end = page[body.upperBound...].firstIndex(of: ">") {
            let items = errors.map { "<li>" + escape($0) + "</li>" }.joined()
            let banner = "<div role=\"alert\" style=\"margin:0;padding:.75rem 1rem;background:#b42318;color:#fff;font:14px/1.4 system-ui,sans-serif\">"
                + "<strong>nestegg serve: the last build failed</strong> — this is the last good site. Fix the data or the template and save:"
                + "<ul style=\"margin:.5rem 0 0;padding-left:1.25rem;font-family:ui-monospace,monospace\">\(items)</ul></div>"
            page.insert(contentsOf: banner, at: page.index(after: end))
        }
        let script = "<script>(function(){function c(){var w=new WebSocket((location.protocol==='https:'?'wss://':'ws://')+location.host+'/__nestegg/reload');"
            + "w.onmessage=function(){location.reload()};w.onclose=function(){setTimeout(c,1000)}}c()})();</script>"
        if let close = page.range(of: "</body>", options: .backwards) {
            page.insert(contentsOf: script, at: close.lowerBound)
        } else {
            page += script
        }
        return page
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func page(title: String, body: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(escape(title))</title></head><body><h1>\(escape(title))</h1>\(body)</body></html>"
    }

    // MARK: Reload

    func listen() -> AsyncStream<WSMessage> {
        AsyncStream { continuation in
            let id = state.withLock { state -> Int in
                state.nextListener += 1
                state.listeners[state.nextListener] = continuation
                return state.nextListener
            }
            continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        }
    }

    /// The builds this far (for tests).
    var version: Int { state.withLock { $0.version } }
}

/// Every request, before anything of the site: a `Host` that is not this server's gets 421 and
/// no content; the reload WebSocket only from one of its own pages (`Origin`), else 403; then
/// `GET` and `HEAD` of the site's files by the path as sent (FlyingFox's decoded `path` turns
/// bytes that are not UTF-8 into nothing, and `%3f` into a query).
struct Gate: HTTPHandler {
    let server: PreviewServer
    static let reloadPath = "/__nestegg/reload"

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard server.accepts(host: request.headers[.host]) else {
            return Self.refusal(.misdirectedRequest, "this preview answers only http://127.0.0.1, localhost or [::1] with its port\n")
        }
        let path = request.target.path(percentEncoded: true)
        if path == Self.reloadPath {
            guard server.accepts(origin: request.headers[HTTPHeader("Origin")]) else {
                return Self.refusal(.forbidden, "only the preview's own pages may listen for builds\n")
            }
            return try await WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: ReloadSocket(server: server))).handleRequest(request)
        }
        guard request.method == .GET || request.method == .HEAD else {
            return Self.refusal(.methodNotAllowed, "the preview only reads\n")
        }
        return server.respond(to: path)
    }

    static func refusal(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8", .init("Cache-Control"): "no-store"], body: Data(text.utf8))
    }
}

/// Tells an open page's WebSocket of every finished build.
struct ReloadSocket: WSMessageHandler {
    let server: PreviewServer

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        server.listen()
    }
}
