import Foundation
import Testing
@testable import NestEggFetch
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggSupport

/// What tests record from several tasks: requests, waits, progress lines.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []
    func append(_ value: Value) { lock.withLock { items.append(value) } }
    var values: [Value] { lock.withLock { items } }
}

/// Starling's API v2 as a fake transport: two accounts, feeds that answer by time window, and
/// answers queued per path (an error, a 429, a wrong shape) served before the normal one.
final class FakeStarling: HTTPClient, @unchecked Sendable {
    struct Account {
        var uid: String
        var category: String
        var currency = "GBP"
        var createdAt = "2026-01-05T09:00:00.000Z"
    }

    private let lock = NSLock()
    var accounts: [Account] = [Account(uid: "acc-1", category: "cat-1"), Account(uid: "acc-2", category: "cat-2", currency: "EUR")]
    /// Per account: feed items (their JSON) with their times.
    var feeds: [String: [(time: Instant, json: String)]] = [:]
    /// Per path: answers served first, in order; a `.failure` is a network error.
    var queued: [String: [Result<HTTPResponse, TransportError>]] = [:]
    let requests = Recorded<HTTPRequest>()

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        let path = request.url.path
        let next: Result<HTTPResponse, TransportError>? = lock.withLock {
            guard var answers = queued[path], !answers.isEmpty else { return nil }
            let first = answers.removeFirst()
            queued[path] = answers
            return first
        }
        if let next { return try next.get() }
        return answer(path, URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
    }

    func queue(_ path: String, _ answers: Result<HTTPResponse, TransportError>...) {
        lock.withLock { queued[path, default: []] += answers }
    }

    func addItem(_ account: String, _ uid: String, _ time: String, status: String = "SETTLED", minor: Int = 100) {
        let currency = accounts.first { $0.uid == account }?.currency ?? "GBP"
        feeds[account, default: []].append((Instant(iso8601: time)!, FakeStarling.item(uid, time, status: status, minor: minor, currency: currency)))
    }

    static func item(_ uid: String, _ time: String, status: String = "SETTLED", minor: Int = 100, currency: String = "GBP") -> String {
        #"{"feedItemUid":"\#(uid)","amount":{"currency":"\#(currency)","minorUnits":\#(minor)},"direction":"OUT","transactionTime":"\#(time)","#
            + #""status":"\#(status)","source":"MASTER_CARD","counterPartyName":"Shop","reference":"REF"}"#
    }

    static func ok(_ json: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: headers, body: Array(json.utf8))
    }

    static func status(_ code: Int, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: code, headers: headers, body: Array(#"{"error":"nope"}"#.utf8))
    }

    private func answer(_ path: String, _ query: [URLQueryItem]) -> HTTPResponse {
        if path == "/api/v2/accounts" {
            let list = accounts.map {
                #"{"accountUid":"\#($0.uid)","accountType":"PRIMARY","defaultCategory":"\#($0.category)","currency":"\#($0.currency)","#
                    + #""createdAt":"\#($0.createdAt)","name":"Account \#($0.uid)"}"#
            }
            return Self.ok(#"{"accounts":["# + list.joined(separator: ",") + "]}")
        }
        if path == "/api/v2/account-holder/name" { return Self.ok(#"{"accountHolderName":"Alex Morgan"}"#) }
        if path == "/api/v2/addresses" {
            return Self.ok(#"{"current":{"line1":"Flat 2","line2":"18 Albemarle Terrace","line3":"","postTown":"LONDON","postCode":"SW9 8QT","countryCode":"GB"},"previous":[]}"#)
        }
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 4, let account = accounts.first(where: { parts.contains($0.uid) }) else { return Self.status(404) }
        switch parts.last {
        case "balance":
            return Self.ok(#"{"clearedBalance":{"currency":"\#(account.currency)","minorUnits":1000},"effectiveBalance":{"currency":"\#(account.currency)","minorUnits":900}}"#)
        case "savings-goals":
            return Self.ok(#"{"savingsGoalList":[]}"#)
        case "identifiers":
            return Self.ok(#"{"accountIdentifier":"12345678","bankIdentifier":"608371","iban":"GB03SRLG60837141234567","bic":"SRLGGB2L"}"#)
        case "transactions-between":
            guard parts.contains(account.category),
                  let low = query.first(where: { $0.name == "minTransactionTimestamp" })?.value.flatMap(Instant.init(iso8601:)),
                  let high = query.first(where: { $0.name == "maxTransactionTimestamp" })?.value.flatMap(Instant.init(iso8601:))
            else { return Self.status(400) }
            let items = (feeds[account.uid] ?? []).filter { $0.time >= low && $0.time <= high }.map(\.json)
            return Self.ok(#"{"feedItems":["# + items.joined(separator: ",") + "]}")
        default:
            return Self.status(404)
        }
    }
}

@Suite struct FetchTests {
    static let now = Instant(iso8601: "2026-11-24T12:00:00Z")!
    static let secret = "tok-SECRET-7f3a9c"
    let token = AccessToken(FetchTests.secret, source: "STARLING_TOKEN")

    /// A fetcher over a fake transport, with no waiting, a fixed clock, and its waits and
    /// progress recorded.
    func fetcher(_ data: URL, _ client: any HTTPClient, waits: Recorded<Double> = Recorded(),
                 progress: Recorded<String> = Recorded()) -> Fetcher {
        var fetcher = Fetcher(data: data, label: "data")
        fetcher.client = client
        fetcher.retry.sleep = { waits.append($0) }
        fetcher.now = { FetchTests.now }
        fetcher.progress = { progress.append($0) }
        return fetcher
    }

    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The feed file's items, in file order: (uid, status).
    func feed(_ data: URL, _ account: String) throws -> [(String, String)] {
        let url = data.appendingPathComponent("starling/feed/\(account).json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return (object["feedItems"] as! [[String: Any]]).map { ($0["feedItemUid"] as! String, $0["status"] as! String) }
    }

    func feedQueries(_ api: FakeStarling, account: String) -> [(Instant, Instant)] {
        api.requests.values.filter { $0.url.path.hasPrefix("/api/v2/feed/account/\(account)/") }.compactMap { request in
            let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            guard let low = items.first(where: { $0.name == "minTransactionTimestamp" })?.value.flatMap(Instant.init(iso8601:)),
                  let high = items.first(where: { $0.name == "maxTransactionTimestamp" })?.value.flatMap(Instant.init(iso8601:)) else { return nil }
            return (low, high)
        }
    }

    // MARK: Windows and merging

    @Test func feedWindowsSpanAtMostAYearAndFollowEachOther() async throws {
        let start = Instant(iso8601: "2023-02-28T10:00:00Z")!
        let windows = Fetcher.windows(from: start, to: Self.now)
        #expect(windows.count == 4)
        #expect(windows.first?.0 == start)
        #expect(windows.last?.1 == Self.now)
        for (index, window) in windows.enumerated() {
            #expect(window.1.millisecondsSinceEpoch - window.0.millisecondsSinceEpoch <= 365 * 86_400_000)
            #expect(window.0 < window.1)
            if index > 0 { #expect(window.0 == windows[index - 1].1) }
        }
        #expect(Fetcher.windows(from: Self.now, to: Self.now).isEmpty)

        // Through a fetch: an account opened three years ago is asked for in four windows, with
        // timestamps in milliseconds and Z.
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let api = FakeStarling()
        api.accounts = [.init(uid: "acc-1", category: "cat-1", createdAt: "2023-02-28T10:00:00.000Z")]
        api.addItem("acc-1", "old", "2023-06-01T08:00:00.000Z")
        api.addItem("acc-1", "new", "2026-11-20T08:00:00.000Z")
        try await fetcher(work, api).starling(token: token, since: nil)
        let queries = feedQueries(api, account: "acc-1")
        #expect(queries.count == 4)
        let urls = api.requests.values.map(\.url.absoluteString).filter { $0.contains("transactions-between") }
        #expect(urls.first?.hasSuffix("minTransactionTimestamp=2023-02-28T10:00:00.000Z&maxTransactionTimestamp=2024-02-28T10:00:00.000Z") == true)
        #expect(urls.last?.hasSuffix("maxTransactionTimestamp=2026-11-24T12:00:00.000Z") == true)
        #expect(try feed(work, "acc-1").map(\.0) == ["old", "new"])
    }

    @Test func mergeReplacesByFeedItemUIDDropsDuplicatesAndKeepsOrder() throws {
        func entry(_ uid: String, _ time: String, _ status: String) -> Fetcher.FeedEntry {
            Fetcher.FeedEntry(uid: uid, time: Instant(iso8601: time)!, json: Array(FakeStarling.item(uid, time, status: status).utf8))
        }
        let held = [entry("b", "2026-11-02T10:00:00Z", "SETTLED"), entry("a", "2026-11-03T10:00:00Z", "PENDING")]
        let fetched = [entry("a", "2026-11-03T10:00:00Z", "SETTLED"), entry("c", "2026-11-03T10:00:00Z", "SETTLED"),
                       entry("c", "2026-11-03T10:00:00Z", "SETTLED"), entry("0", "2026-11-01T09:00:00Z", "PENDING")]
        let merged = Fetcher.merge(held: held, fetched: fetched)
        #expect(merged.items.map(\.uid) == ["0", "b", "a", "c"], "by transaction time, then feedItemUid")
        #expect(merged.new == 2)
        #expect(merged.updated == 1)
        #expect(String(decoding: merged.items[2].json, as: UTF8.self).contains(#""status":"SETTLED""#))
        // The same merge again changes nothing.
        let again = Fetcher.merge(held: merged.items, fetched: fetched)
        #expect(again.items == merged.items)
        #expect(again.new == 0 && again.updated == 0)
    }

    @Test func aLaterFetchMergesIntoTheHeldFeed() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let api = FakeStarling()
        api.addItem("acc-1", "pay-1", "2026-11-20T08:00:00.000Z", status: "PENDING")
        api.addItem("acc-1", "pay-0", "2026-10-01T08:00:00.000Z")
        let progress = Recorded<String>()
        try await fetcher(work, api, progress: progress).starling(token: token, since: nil)
        #expect(try feed(work, "acc-1").map(\.0) == ["pay-0", "pay-1"])
        #expect(progress.values.contains("fetch: 2 accounts, 2 feed items (2 new)"), "\(progress.values)")

        // The payment settles, a new one comes, and the API no longer lists the old one in the
        // window asked for: the held feed keeps it.
        let later = FakeStarling()
        later.addItem("acc-1", "pay-1", "2026-11-20T08:00:00.000Z", status: "SETTLED")
        later.addItem("acc-1", "pay-2", "2026-11-21T08:00:00.000Z")
        let progress2 = Recorded<String>()
        let summary = try await fetcher(work, later, progress: progress2).starling(token: token, since: nil)
        #expect(try feed(work, "acc-1").map(\.0) == ["pay-0", "pay-1", "pay-2"])
        #expect(try feed(work, "acc-1").map(\.1) == ["SETTLED", "SETTLED", "SETTLED"])
        #expect(summary.newItems == 1 && summary.updatedItems == 1 && summary.feedItems == 3)
        #expect(progress2.values.contains("fetch: 2 accounts, 3 feed items (1 new, 1 updated)"), "\(progress2.values)")

        // What was written builds: the loader reads every file without an error.
        let log = DiagnosticLog()
        _ = DataLoader.load(try DataFolder(root: work), log: log)
        #expect(!log.hasErrors, "\(log.diagnostics)")
        #expect(log.warnings.isEmpty, "\(log.diagnostics)")
    }

    @Test func sinceDefaultsToTheNewestHeldItemLessThreeDays() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        // Held: acc-1's newest item is 10 Nov; acc-2 has no feed yet (opened 5 Jan).
        let held = #"{"feedItems": ["# + FakeStarling.item("h1", "2026-11-01T08:00:00.000Z") + ","
            + FakeStarling.item("h2", "2026-11-10T12:30:00.000Z") + "]}"
        try write(held, to: work.appendingPathComponent("starling/feed/acc-1.json"))
        let api = FakeStarling()
        try await fetcher(work, api).starling(token: token, since: nil)
        #expect(feedQueries(api, account: "acc-1").first?.0 == Instant(iso8601: "2026-11-07T12:30:00Z"))
        #expect(feedQueries(api, account: "acc-2").first?.0 == Instant(iso8601: "2026-01-05T09:00:00Z"))
        #expect(try feed(work, "acc-1").map(\.0) == ["h1", "h2"], "held items stay")

        // An upcoming payment dated after now does not push the start past now.
        let ahead = [Fetcher.FeedEntry(uid: "x", time: Self.now.adding(milliseconds: 10 * Instant.day), json: [])]
        #expect(Fetcher.feedStart(since: nil, held: ahead, createdAt: nil, now: Self.now) == Self.now.adding(milliseconds: -3 * Instant.day))

        // --since wins for every account.
        let api2 = FakeStarling()
        let since = try #require(Fetcher.since("2026-11-01"))
        try await fetcher(work, api2).starling(token: token, since: since)
        #expect(feedQueries(api2, account: "acc-1").first?.0 == Instant(iso8601: "2026-11-01T00:00:00Z"))
        #expect(feedQueries(api2, account: "acc-2").first?.0 == Instant(iso8601: "2026-11-01T00:00:00Z"))
        #expect(Fetcher.since("2026-11-01T09:00:00+01:00") == Instant(iso8601: "2026-11-01T08:00:00Z"))
        #expect(Fetcher.since("yesterday") == nil)

        await #expect(throws: FetchError.self) { try await fetcher(work, FakeStarling()).starling(token: token, since: Self.now) }
    }

    // MARK: Retries

    @Test func aServerErrorIsTriedAgainWithBackoff() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let api = FakeStarling()
        api.queue("/api/v2/accounts", .success(FakeStarling.status(500)), .failure(TransportError(reason: "The request timed out.")))
        let waits = Recorded<Double>(), progress = Recorded<String>()
        try await fetcher(work, api, waits: waits, progress: progress).starling(token: token, since: nil)
        #expect(waits.values == [1, 2])
        #expect(progress.values.contains("fetch: /api/v2/accounts: HTTP 500; trying again in 1 s (try 2 of 3)"))
        #expect(progress.values.contains("fetch: /api/v2/accounts: The request timed out.; trying again in 2 s (try 3 of 3)"))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("starling/accounts.json").path))

        // Three failures in a row: exit 69, naming the path, and nothing written.
        let empty = work.appendingPathComponent("fresh")
        let failing = FakeStarling()
        failing.queue("/api/v2/accounts/acc-2/balance", .success(FakeStarling.status(503)), .success(FakeStarling.status(502)),
                      .success(FakeStarling.status(500)))
        let error = try await #require(throws: FetchError.self) { try await fetcher(empty, failing).starling(token: token, since: nil) }
        #expect(error.exitCode == 69)
        #expect(error.message == "Starling's API did not answer /api/v2/accounts/acc-2/balance after 3 tries (last: HTTP 500)")
        #expect(!FileManager.default.fileExists(atPath: empty.path), "nothing is written, not even the folder")
    }

    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let api = FakeStarling()
        api.queue("/api/v2/account-holder/name", .success(FakeStarling.status(429, headers: ["retry-after": "7"])))
        let waits = Recorded<Double>()
        try await fetcher(work, api, waits: waits).starling(token: token, since: nil)
        #expect(waits.values == [7])
        #expect(api.requests.values.filter { $0.url.path == "/api/v2/account-holder/name" }.count == 2)

        // An API that asks for longer than nestegg waits is an error at once.
        let slow = FakeStarling()
        slow.queue("/api/v2/accounts", .success(FakeStarling.status(429, headers: ["retry-after": "3600"])))
        let waits2 = Recorded<Double>()
        let error = try await #require(throws: FetchError.self) {
            try await fetcher(work.appendingPathComponent("other"), slow, waits: waits2).starling(token: token, since: nil)
        }
        #expect(error.exitCode == 69)
        #expect(error.message.contains("asks to wait 3600 s"))
        #expect(waits2.values.isEmpty)
    }

    // MARK: Refusals and wrong answers

    @Test func aRefusedTokenExits77NamingTheScopeNotTheToken() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let api = FakeStarling()
        api.queue("/api/v2/accounts", .success(FakeStarling.status(401)))
        let error = try await #require(throws: FetchError.self) { try await fetcher(work, api).starling(token: token, since: nil) }
        #expect(error.exitCode == 77)
        #expect(error.message == "Starling's API refused the token for /api/v2/accounts (HTTP 401: the token is not valid, or has expired): "
            + "check that STARLING_TOKEN holds a current personal access token with the scope account:read and account-list:read")
        #expect(api.requests.values.count == 1, "a refusal is not tried again")

        let forbidden = FakeStarling()
        forbidden.queue("/api/v2/feed/account/acc-1/category/cat-1/transactions-between", .success(FakeStarling.status(403)))
        let error403 = try await #require(throws: FetchError.self) { try await fetcher(work, forbidden).starling(token: token, since: nil) }
        #expect(error403.exitCode == 77)
        #expect(error403.message.contains("(HTTP 403: the token may not do this)"))
        #expect(error403.message.contains("transaction:read"))

        let missing = FakeStarling()
        missing.queue("/api/v2/account/acc-1/savings-goals", .success(FakeStarling.status(404)))
        let error404 = try await #require(throws: FetchError.self) { try await fetcher(work, missing).starling(token: token, since: nil) }
        #expect(error404.exitCode == 69)
        #expect(error404.message == "Starling's API answered HTTP 404 for /api/v2/account/acc-1/savings-goals")

        let moved = FakeStarling()
        moved.queue("/api/v2/accounts", .success(FakeStarling.status(302, headers: ["location": "https://elsewhere.example/"])))
        let error302 = try await #require(throws: FetchError.self) { try await fetcher(work, moved).starling(token: token, since: nil) }
        #expect(error302.exitCode == 69)
        #expect(error302.message.contains("redirect"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "nothing was written")
    }

    @Test func aTokenWithoutTheAddressScopeFetchesTheRestAndSaysSo() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let api = FakeStarling()
        api.addItem("acc-1", "i-1", "2026-11-20T10:00:00.000Z")
        api.queue("/api/v2/addresses", .success(FakeStarling.status(403)))
        let progress = Recorded<String>()
        let summary = try await fetcher(work, api, progress: progress).starling(token: token, since: nil)
        #expect(summary.accounts == 2 && summary.feedItems == 1)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("starling/addresses.json").path))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("starling/feed/acc-1.json").path))
        #expect(progress.values.contains { $0.contains("refused the token /api/v2/addresses (HTTP 403: no address:read scope)")
            && $0.contains("without the holder's address") }, "\(progress.values)")

        // An address held from before is left as it was, and the warning says so.
        let held = work.appendingPathComponent("starling/addresses.json")
        try write(#"{"current":{"line1":"1 High St","postTown":"LONDON","postCode":"SW9 8QT","countryCode":"GB"},"previous":[]}"#, to: held)
        let before = try Data(contentsOf: held)
        api.queue("/api/v2/addresses", .success(FakeStarling.status(403)))
        let again = Recorded<String>()
        _ = try await fetcher(work, api, progress: again).starling(token: token, since: nil)
        #expect(try Data(contentsOf: held) == before)
        #expect(again.values.contains { $0.contains("which is left as it was") }, "\(again.values)")

        // A token that is not valid still stops the fetch there.
        let invalid = FakeStarling()
        invalid.queue("/api/v2/addresses", .success(FakeStarling.status(401)))
        let error = try await #require(throws: FetchError.self) { try await fetcher(work, invalid).starling(token: token, since: nil) }
        #expect(error.exitCode == 77)
    }

    @Test func anAnswerOfTheWrongShapeWritesNothing() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        // A first fetch fills the folder; the second gets one wrong answer, late in the run.
        try await fetcher(work, FakeStarling()).starling(token: token, since: nil)
        let before = snapshot(work)
        let api = FakeStarling()
        api.addItem("acc-1", "new-1", "2026-11-22T08:00:00.000Z")
        api.queue("/api/v2/accounts/acc-2/identifiers", .success(FakeStarling.ok(#"{"iban": "GB00 NOT AN IBAN"}"#)))
        let error = try await #require(throws: FetchError.self) { try await fetcher(work, api).starling(token: token, since: nil) }
        #expect(error.exitCode == 76)
        #expect(error.diagnostics.map(\.description).contains { $0.hasPrefix("/api/v2/accounts/acc-2/identifiers:1:10: error: expected an IBAN") },
                "\(error.diagnostics)")
        #expect(snapshot(work) == before)

        // Not JSON at all, and a feed item without its amount.
        let html = FakeStarling()
        html.queue("/api/v2/accounts", .success(FakeStarling.ok("<html>maintenance</html>")))
        let htmlError = try await #require(throws: FetchError.self) { try await fetcher(work, html).starling(token: token, since: nil) }
        #expect(htmlError.exitCode == 76)
        #expect(htmlError.diagnostics.first?.message.hasPrefix("malformed JSON") == true)
        let broken = FakeStarling()
        broken.queue("/api/v2/feed/account/acc-2/category/cat-2/transactions-between",
                     .success(FakeStarling.ok(#"{"feedItems":[{"feedItemUid":"x","direction":"OUT","transactionTime":"2026-11-20T08:00:00.000Z","status":"SETTLED"}]}"#)))
        let brokenError = try await #require(throws: FetchError.self) { try await fetcher(work, broken).starling(token: token, since: nil) }
        #expect(brokenError.diagnostics.first?.message == #"missing required field "amount" (expected an amount {currency, minorUnits})"#)
        #expect(snapshot(work) == before)

        // An account UID that would name a file outside its folder.
        let escaping = FakeStarling()
        escaping.accounts = [.init(uid: "../../evil", category: "cat-1")]
        let escapeError = try await #require(throws: FetchError.self) { try await fetcher(work, escaping).starling(token: token, since: nil) }
        #expect(escapeError.exitCode == 76)
        #expect(escapeError.diagnostics.first?.message.contains("expected a UID of letters, digits and dashes") == true)
        #expect(snapshot(work) == before)
        #expect(escaping.requests.values.count == 1, "no request is made with such a UID")
    }

    @Test func aFeedHeldThatCannotBeReadStopsTheFetch() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(#"{"feedItems": [{"feedItemUid": 7}]}"#, to: work.appendingPathComponent("starling/feed/acc-2.json"))
        let before = snapshot(work)
        let error = try await #require(throws: FetchError.self) { try await fetcher(work, FakeStarling()).starling(token: token, since: nil) }
        #expect(error.exitCode == 65)
        #expect(error.diagnostics.first?.file == "starling/feed/acc-2.json")
        #expect(snapshot(work) == before)
    }

    // MARK: The token

    @Test func theTokenNeverAppearsInWhatIsPrinted() async throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let progress = Recorded<String>()
        var printed: [String] = []
        let scenarios: [(String, Result<HTTPResponse, TransportError>)] = [
            ("/api/v2/accounts", .success(FakeStarling.status(401))),
            ("/api/v2/accounts", .success(FakeStarling.status(403))),
            ("/api/v2/accounts/acc-1/balance", .success(FakeStarling.status(400))),
            ("/api/v2/accounts/acc-1/balance", .success(FakeStarling.ok(#"{"clearedBalance": "\#(Self.secret)"}"#))),
            ("/api/v2/account-holder/name", .failure(TransportError(reason: "connection reset (Authorization: Bearer \(Self.secret))"))),
        ]
        for (path, answer) in scenarios {
            let api = FakeStarling()
            api.queue(path, answer, answer, answer)
            do {
                try await fetcher(work, api, progress: progress).starling(token: token, since: nil)
            } catch {
                printed.append(error.message)
                printed += error.diagnostics.map(\.description)
            }
        }
        let api = FakeStarling()
        try await fetcher(work, api, progress: progress).starling(token: token, since: nil)
        printed += progress.values
        #expect(printed.count > 8)
        for line in printed { #expect(!line.contains(Self.secret), "\(line)") }
        #expect(printed.contains { $0.contains("<token>") }, "the transport's reason is scrubbed")
        // The token went where it belongs, and nowhere on disk.
        #expect(api.requests.values.allSatisfy { $0.authorization?.value == Self.secret })
        for (path, bytes) in snapshot(work) { #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.secret), "\(path)") }
        // Printing or dumping the token shows a placeholder.
        var dumped = ""
        dump(token, to: &dumped)
        for shown in ["\(token)", String(reflecting: token), dumped, "\(HTTPRequest(url: work, authorization: token, timeout: 1))"] {
            #expect(!shown.contains(Self.secret), "\(shown)")
        }
    }

    @Test func aTokenFileOthersMayReadIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("token")
        try write(Self.secret + "\n", to: file)
        for mode in [0o644, 0o640, 0o604, 0o660, 0o602] as [mode_t] {
            chmod(file.path, mode)
            let error = try #require(throws: FetchError.self) { try AccessToken.load(file: file.path, environment: [:], variable: "STARLING_TOKEN") }
            #expect(error.exitCode == 77)
            #expect(error.message.contains("is open to its group or others (mode \(String(mode, radix: 8)))"))
            #expect(error.message.contains("chmod 600"))
            #expect(!error.message.contains(Self.secret))
        }
        chmod(file.path, 0o600)
        let loaded = try AccessToken.load(file: file.path, environment: ["STARLING_TOKEN": "other"], variable: "STARLING_TOKEN")
        #expect(loaded.value == Self.secret, "the file wins, trimmed of its newline")
        #expect(loaded.source == "the token file \(file.path)")
        chmod(file.path, 0o400)
        #expect(try AccessToken.load(file: file.path, environment: [:], variable: "STARLING_TOKEN").value == Self.secret)

        #expect(try AccessToken.load(file: nil, environment: ["STARLING_TOKEN": " abc \n"], variable: "STARLING_TOKEN").value == "abc")
        for environment in [[:], ["STARLING_TOKEN": ""], ["STARLING_TOKEN": "two words"], ["STARLING_TOKEN": "a\u{7}b"]] {
            let error = try #require(throws: FetchError.self) { try AccessToken.load(file: nil, environment: environment, variable: "STARLING_TOKEN") }
            #expect(error.exitCode == 77)
        }
        let missing = try #require(throws: FetchError.self) {
            try AccessToken.load(file: work.appendingPathComponent("none").path, environment: [:], variable: "STARLING_TOKEN")
        }
        #expect(missing.exitCode == 77)
    }

    // MARK: Settings

    @Test func aBaseURLMustBeHTTPSUnlessOnThisMachine() async throws {
        for good in ["https://api.starlingbank.com", "https://api-sandbox.starlingbank.com/", "https://example.org:8443/prefix",
                     "http://127.0.0.1:8080", "http://localhost:1234/", "http://[::1]:9000", "HTTPS://Restcountries.com"] {
            #expect(SettingsLoader.apiURL(good) != nil, "\(good)")
        }
        #expect(SettingsLoader.apiURL("https://api.starlingbank.com/") == "https://api.starlingbank.com")
        for bad in ["http://api.starlingbank.com", "http://127.0.0.2:80", "http://localhost.example.com", "http://user@127.0.0.1",
                    "https://user:pw@api.starlingbank.com", "ftp://x", "api.starlingbank.com", "https://", "https://x?y=1", "https://x#f",
                    "https://x:0", "https://x:+80", "https://x:99999", "https://exa mple.org", "http://[::2]:80"] {
            #expect(SettingsLoader.apiURL(bad) == nil, "\(bad)")
        }

        let (doc, log) = document(#"{"starling": {"baseURL": "http://api.example.com"}, "restcountries": {"baseUrl": "https://x.org"}}"#,
                                  file: "nestegg.json")
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(log.errors.map(\.path) == ["$.starling.baseURL", "$.restcountries.baseUrl"])
        #expect(log.errors[0].message.contains("must be an https address"))
        #expect(log.errors[1].message.contains(#"did you mean "baseURL"?"#))
        #expect(settings.starlingBaseURL == "https://api.starlingbank.com")

        let (custom, customLog) = document(#"{"starling": {"baseURL": "http://127.0.0.1:9/"}, "restcountries": {"baseURL": "https://c.example"}}"#)
        let read = SettingsLoader.settings(in: try #require(custom))
        #expect(customLog.diagnostics.isEmpty)
        #expect(read.starlingBaseURL == "http://127.0.0.1:9")
        #expect(read.restCountriesBaseURL == "https://c.example")

        // A fetch with such a setting asks nothing and writes nothing.
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(#"{"starling": {"baseURL": "http://api.example.com"}}"#, to: work.appendingPathComponent("nestegg.json"))
        let api = FakeStarling()
        let error = try await #require(throws: FetchError.self) { try await fetcher(work, api).starling(token: token, since: nil) }
        #expect(error.exitCode == 65)
        #expect(error.diagnostics.first?.file == "nestegg.json")
        #expect(api.requests.values.isEmpty)
        // The base URL set is the one asked.
        try write(#"{"starling": {"baseURL": "https://sandbox.example/base/"}}"#, to: work.appendingPathComponent("nestegg.json"))
        await #expect(throws: FetchError.self, "the fake knows no /base/ prefix") { try await fetcher(work, api).starling(token: token, since: nil) }
        #expect(api.requests.values.first?.url.absoluteString == "https://sandbox.example/base/api/v2/accounts")
    }

    // MARK: RESTCountries

    @Test func countriesAreFetchedWithTheFieldsTheLoaderReads() async throws {
        let fixture = try Data(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/restcountries/countries.json"))
        // Only the fields asked for: the loader reads the same countries from them as from the full answer.
        let body = try Self.only(Fetcher.countryFields, ofEachObjectIn: [UInt8](fixture))
        let (fullDoc, fullLog) = document(String(decoding: fixture, as: UTF8.self))
        let (trimmedDoc, trimmedLog) = document(String(decoding: body, as: UTF8.self))
        let expected = CountriesLoader.countries(in: try #require(fullDoc)).countries
        #expect(CountriesLoader.countries(in: try #require(trimmedDoc)).countries == expected)
        #expect(!fullLog.hasErrors && !trimmedLog.hasErrors)
        #expect(expected.count > 40)

        let api = CannedClient { request in
            guard request.url.path == "/v3.1/all" else { return FakeStarling.status(404) }
            #expect(request.url.query == "fields=name,cca2,capital,region,subregion,population,gini,latlng")
            #expect(request.authorization == nil)
            return HTTPResponse(status: 200, body: [UInt8](body))
        }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let summary = try await fetcher(work, api).countries()
        #expect(summary.countries == expected.count)
        #expect(try Data(contentsOf: work.appendingPathComponent(CountriesLoader.path)) == body, "written as received")

        let wrong = CannedClient { _ in FakeStarling.ok(#"[{"alpha2Code": "KE", "name": "Kenya", "population": 1}]"#) }
        let error = try await #require(throws: FetchError.self) { try await fetcher(work, wrong).countries() }
        #expect(error.exitCode == 76)
        let none = CannedClient { _ in FakeStarling.ok("[]") }
        #expect(try await #require(throws: FetchError.self) { try await fetcher(work, none).countries() }.exitCode == 76)
        #expect(try Data(contentsOf: work.appendingPathComponent(CountriesLoader.path)) == body)
    }

    /// A JSON array of objects with only the members named `keys`, each as it was written
    /// (as RESTCountries answers `?fields=`).
    static func only(_ keys: [String], ofEachObjectIn bytes: [UInt8]) throws -> Data {
        let root = try JSONParser.parse(bytes)
        guard case .array(let elements) = root.kind else { throw SampleError(message: "not an array") }
        var objects: [String] = []
        for element in elements {
            guard case .object(let members) = element.kind else { continue }
            let kept = members.filter { keys.contains($0.key) }.map { member in
                JSONText.quote(member.key) + ":" + String(decoding: bytes[member.value.offset..<RawJSON.end(ofValueAt: member.value.offset, in: bytes)], as: UTF8.self)
            }
            objects.append("{" + kept.joined(separator: ",") + "}")
        }
        return Data(("[" + objects.joined(separator: ",\n") + "]").utf8)
    }

    // MARK: Writing

    @Test func filesAreSwappedInWholeOrNotAtAll() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let a = work.appendingPathComponent("starling/a.json")
        try write("old a", to: a)
        try write("left over", to: work.appendingPathComponent("starling/.b.json.nestegg-fetch"))
        chmod(a.path, 0o640)
        var files = StagedFiles()
        files.add("starling/a.json", Array("new a".utf8))
        files.add("starling/b.json", Array("new b".utf8))
        files.add("starling/same.json", Array("same".utf8))
        try write("same", to: work.appendingPathComponent("starling/same.json"))
        let sameDate = try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent("starling/same.json").path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.01)
        let outcome = try files.commit(into: work, label: "data")
        #expect(outcome == StagedFiles.Outcome(files: 3, changed: 2))
        #expect(try text(a) == "new a")
        #expect(try FileManager.default.attributesOfItem(atPath: a.path)[.posixPermissions] as? Int == 0o640, "a replaced file keeps its mode")
        #expect(try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent("starling/b.json").path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent("starling/same.json").path)[.modificationDate] as? Date
                == sameDate, "an unchanged file is left alone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("starling").path).sorted()
                == ["a.json", "b.json", "same.json"], "no staged file is left, an old one is cleaned up")

        // A destination that cannot be replaced: refused before anything is staged or renamed.
        try FileManager.default.createDirectory(at: work.appendingPathComponent("starling/c.json/inside"), withIntermediateDirectories: true)
        var more = StagedFiles()
        more.add("starling/a.json", Array("newer a".utf8))
        more.add("starling/c.json", Array("c".utf8))
        let error = try #require(throws: FetchError.self) { try more.commit(into: work, label: "data") }
        #expect(error.exitCode == 73)
        #expect(error.dataUnchanged)
        #expect(error.message == "data/starling/c.json is not a regular file, so it cannot be replaced")
        #expect(try text(a) == "new a")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("starling").path).sorted()
                == ["a.json", "b.json", "c.json", "same.json"])
    }
}

/// `nestegg fetch` through the binary, against a stand-in for the APIs on 127.0.0.1
/// (Tests/FetchServer/server.py, serving Fixtures/), then `nestegg build` on what it wrote.
extension FetchTests {
    @Test func fetchesFromALocalServerAndTheResultBuilds() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/FetchServer/server.py").path,
                            "--data", repositoryRoot.appendingPathComponent("Fixtures").path, "--token", Self.secret, "--lifetime", "120"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        var firstLine = Data()
        while !firstLine.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            firstLine.append(chunk)
        }
        let port = try #require(Int(String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
                                "the server did not start")
        let data = work.appendingPathComponent("data")
        try write(#"{"starling": {"baseURL": "http://127.0.0.1:\#(port)"}, "restcountries": {"baseURL": "http://127.0.0.1:\#(port)"}}"#,
                  to: data.appendingPathComponent("nestegg.json"))
        let environment = ["STARLING_TOKEN": Self.secret]

        let starling = try NestEggBinary.run(["fetch", "starling", "--data", data.path], environment: environment)
        #expect(starling.status == 0, "\(starling.stderr)")
        // What the server holds: the Fixtures' feeds, and per account a balance, goals and identifiers
        // besides the accounts, the holder's name and address.
        let starlingFixtures = repositoryRoot.appendingPathComponent("Fixtures/starling")
        let feedFiles = try FileManager.default.contentsOfDirectory(at: starlingFixtures.appendingPathComponent("feed"), includingPropertiesForKeys: nil)
        let items = try feedFiles.map { file -> Int in
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            return (object["feedItems"] as! [Any]).count
        }.reduce(0, +)
        let files = 3 + 4 * feedFiles.count
        #expect(starling.stderr.contains("fetch: \(feedFiles.count) accounts, \(items) feed items (\(items) new)"), "\(starling.stderr)")
        #expect(starling.stderr.contains("fetch: \(files) of \(files) files written into \(data.path)"), "\(starling.stderr)")
        #expect(!starling.stderr.contains(Self.secret) && !starling.stdout.contains(Self.secret))
        let countries = try NestEggBinary.run(["fetch", "countries", "-q", "--data", data.path])
        #expect(countries.status == 0, "\(countries.stderr)")
        #expect(countries.stderr.isEmpty, "--quiet prints nothing on success")
        for path in ["starling/accounts.json", "starling/account-holder.json", "starling/addresses.json", "restcountries/countries.json",
                     "starling/feed/91c9cc05-a4ee-56db-b3ea-c773c9ebae81.json", "starling/identifiers/bfddc8b7-9a50-5e33-808c-a63b484b293d.json"] {
            #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent(path).path), "\(path)")
        }
        #expect(try Data(contentsOf: data.appendingPathComponent("starling/accounts.json"))
                == Data(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/starling/accounts.json")), "written as received")

        let build = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", work.appendingPathComponent("site").path])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("site/statements/index.html").path))

        // Again: nothing new, nothing rewritten.
        let again = try NestEggBinary.run(["fetch", "starling", "--data", data.path], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("fetch: \(feedFiles.count) accounts, \(items) feed items (0 new)"), "\(again.stderr)")
        #expect(again.stderr.contains("fetch: 0 of \(files) files written"), "\(again.stderr)")

        // A wrong token, and a token file others may read: exit 77, the token never shown.
        let refused = try NestEggBinary.run(["fetch", "starling", "--data", data.path], environment: ["STARLING_TOKEN": "wrong-\(Self.secret)"])
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("nestegg: fetch failed: Starling's API refused the token for /api/v2/accounts (HTTP 401"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(Self.secret))
        let tokenFile = work.appendingPathComponent("token")
        try write(Self.secret, to: tokenFile)
        chmod(tokenFile.path, 0o644)
        let open = try NestEggBinary.run(["fetch", "starling", "--data", data.path, "--token-file", tokenFile.path])
        #expect(open.status == 77)
        #expect(open.stderr.contains("chmod 600"), "\(open.stderr)")

        // A redirect is not followed (the token would go with it): exit 69, the data as it was.
        let before = snapshot(data)
        try write(#"{"starling": {"baseURL": "http://127.0.0.1:\#(port)/redirect"}}"#, to: data.appendingPathComponent("nestegg.json"))
        let redirected = try NestEggBinary.run(["fetch", "starling", "--data", data.path], environment: environment)
        #expect(redirected.status == 69, "\(redirected.stderr)")
        #expect(redirected.stderr.contains("answered /api/v2/accounts with a redirect (HTTP 302)"), "\(redirected.stderr)")
        #expect(snapshot(data).filter { $0.key != "nestegg.json" } == before.filter { $0.key != "nestegg.json" })
    }
}

/// A transport that answers every request with `answer`.
struct CannedClient: HTTPClient {
    let answer: @Sendable (HTTPRequest) -> HTTPResponse
    init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.answer = answer }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { answer(request) }
}
