import Foundation
import NestEggLoad
import NestEggModel
import NestEggSupport

/// `nestegg fetch starling`: Starling's public API v2, per account its balance, savings goals,
/// identifiers and the feed of its default category, and the account holder's name and address.
extension Fetcher {
    /// A later fetch starts this long before the newest item held: an item can appear (or settle)
    /// with a transaction time a little in the past.
    static let overlap = 3 * Instant.day
    /// The longest span one feed request asks for.
    static let window = 365 * Instant.day
    /// The scopes a personal access token needs for `nestegg fetch starling`.
    static let starlingScopes = ["account:read", "account-list:read", "balance:read", "savings-goal:read",
                                 "account-identifier:read", "account-holder-name:read", "address:read", "transaction:read"]

    public struct StarlingSummary: Sendable {
        public let accounts: Int
        public let feedItems: Int
        public let newItems: Int
        public let updatedItems: Int
        let files: StagedFiles.Outcome
    }

    /// One feed item: its UID and time (read by the loader), and its JSON as received, compacted.
    struct FeedEntry: Sendable, Equatable {
        let uid: String
        let time: Instant
        let json: [UInt8]
    }

    /// Fetches everything into `starling/`. `since` overrides, for every account, where the feed
    /// starts: by default the newest item held less ``overlap``, or the account's `createdAt`.
    @discardableResult
    public func starling(token: AccessToken, since: Instant?) async throws(FetchError) -> StarlingSummary {
        do {
            return try await fetchStarling(token: token, since: since)
        } catch {
            throw error.redacting(token)
        }
    }

    private func fetchStarling(token: AccessToken, since: Instant?) async throws(FetchError) -> StarlingSummary {
        let now = self.now()
        if let since, since >= now {
            throw FetchError(.usage, "--since \(since.iso8601Milliseconds) is not in the past")
        }
        let (settings, folder) = try held()
        let api = api("Starling's API", baseURL: settings.starlingBaseURL, token: token, scope: Self.starlingScope)
        var files = StagedFiles()

        let accountsPath = "/api/v2/accounts"
        let accountsBytes = try await api.get(accountsPath)
        let accounts = try Self.read(accountsBytes, from: accountsPath, api: api.name, Self.accountsAndCategories)
        files.add("starling/accounts.json", accountsBytes)
        // Every feed already held is read before the next request: one that cannot be read stops
        // the fetch before it asks for more.
        var heldFeeds: [String: [FeedEntry]] = [:]
        for (account, _) in accounts {
            heldFeeds[account.uid] = try heldFeed("starling/feed/\(account.uid).json", in: folder)
        }

        let holderPath = "/api/v2/account-holder/name"
        let holderBytes = try await api.get(holderPath)
        _ = try Self.read(holderBytes, from: holderPath, api: api.name) { StarlingLoader.holderName(in: $0) }
        files.add(StarlingLoader.holderPath, holderBytes)

        // The address only prints on statements: a token without `address:read` fetches the rest,
        // and the statements go without it (or with the address a file already held).
        let addressesPath = "/api/v2/addresses"
        if let addressesBytes = try await api.getIfPermitted(addressesPath) {
            _ = try Self.read(addressesBytes, from: addressesPath, api: api.name) { StarlingLoader.currentAddress(in: $0) }
            files.add(StarlingLoader.addressesPath, addressesBytes)
        } else {
            let held = folder?.contains(StarlingLoader.addressesPath) ?? false
            progress("fetch: warning: \(api.name) refused the token \(addressesPath) (HTTP 403: no address:read scope); statements "
                + (held ? "keep the address in \(StarlingLoader.addressesPath), which is left as it was" : "are printed without the holder's address"))
        }

        var total = 0, new = 0, updated = 0
        for (account, category) in accounts {
            let uid = account.uid
            let balancePath = "/api/v2/accounts/\(uid)/balance"
            let balance = try await api.get(balancePath)
            _ = try Self.read(balance, from: balancePath, api: api.name) { StarlingLoader.balance(in: $0) }
            files.add("starling/balances/\(uid).json", balance)

            let goalsPath = "/api/v2/account/\(uid)/savings-goals"
            let goals = try await api.get(goalsPath)
            _ = try Self.read(goals, from: goalsPath, api: api.name) { StarlingLoader.savingsGoals(in: $0) }
            files.add("starling/savings-goals/\(uid).json", goals)

            let identifiersPath = "/api/v2/accounts/\(uid)/identifiers"
            let identifiers = try await api.get(identifiersPath)
            _ = try Self.read(identifiers, from: identifiersPath, api: api.name) { StarlingLoader.identifiers(in: $0) }
            files.add("starling/identifiers/\(uid).json", identifiers)

            let held = heldFeeds[uid] ?? []
            let start = Self.feedStart(since: since, held: held, createdAt: account.createdAt, now: now)
            let feedPath = "/api/v2/feed/account/\(uid)/category/\(category)/transactions-between"
            var fetched: [FeedEntry] = []
            for (from, to) in Self.windows(from: start, to: now) {
                let query = "minTransactionTimestamp=\(from.iso8601Milliseconds)&maxTransactionTimestamp=\(to.iso8601Milliseconds)"
                let bytes = try await api.get(feedPath, query: query)
                fetched += try Self.read(bytes, from: feedPath, api: api.name) { Self.feedEntries(in: $0, bytes: bytes) }
            }
            let merged = Self.merge(held: held, fetched: fetched)
            let feedFile = "starling/feed/\(uid).json"
            files.add(feedFile, try Self.feedFile(merged.items, path: feedFile))
            total += merged.items.count
            new += merged.new
            updated += merged.updated
        }
        progress("fetch: \(counted(accounts.count, "account")), \(counted(total, "feed item")) (\(new) new"
            + (updated == 0 ? ")" : ", \(updated) updated)"))
        let outcome = try commit(files)
        return StarlingSummary(accounts: accounts.count, feedItems: total, newItems: new, updatedItems: updated, files: outcome)
    }

    /// The accounts as the loader reads them, each with its default category, whose UIDs must be
    /// safe to put in a path (they name files and requests).
    static func accountsAndCategories(_ document: JSONDocument) -> [(StarlingAccount, String)] {
        let accounts = StarlingLoader.accounts(in: document)
        guard let values = document.value["accounts"]?.array, values.count == accounts.count else { return [] }
        var result: [(StarlingAccount, String)] = []
        for (account, value) in zip(accounts, values) {
            if !isSafeUID(account.uid) {
                value["accountUid"]?.error("expected a UID of letters, digits and dashes, found \"\(account.uid)\"")
            }
            guard let category = value.required("defaultCategory", "the UID of the account's default category")?.identifier else { continue }
            if !isSafeUID(category) {
                value["defaultCategory"]?.error("expected a UID of letters, digits and dashes, found \"\(category)\"")
            }
            result.append((account, category))
        }
        return result
    }

    /// `{"feedItems": [...]}`, each item read by the loader and kept as its JSON.
    static func feedEntries(in document: JSONDocument, bytes: [UInt8]) -> [FeedEntry] {
        guard let list = document.value.required("feedItems", "a list of feed items")?.array else { return [] }
        return list.compactMap { value in
            guard let item = StarlingLoader.feedItem(value) else { return nil }
            let start = value.node.offset
            let json = RawJSON.compact(bytes[start..<RawJSON.end(ofValueAt: start, in: bytes)])
            return FeedEntry(uid: item.uid, time: item.transactionTime, json: json)
        }
    }

    /// The feed already in the data folder (none if there is no file); one that cannot be read is
    /// an error, since nothing could be merged into it.
    func heldFeed(_ path: String, in folder: DataFolder?) throws(FetchError) -> [FeedEntry] {
        guard let folder, folder.contains(path) else { return [] }
        let bytes: [UInt8]
        switch FileBytes.read(folder.root.path + "/" + path) {
        case .success(let read): bytes = read
        case .failure(let failure): throw FetchError(.dataError, "cannot read \(label)/\(path): \(failure.reason)")
        }
        let log = DiagnosticLog()
        let entries = JSONDocument.parse(bytes, file: path, log: log).map { Self.feedEntries(in: $0, bytes: bytes) }
        guard let entries, !log.hasErrors else {
            throw FetchError(.dataError, "the feed held in \(label)/\(path) cannot be read (see above), so nothing can be merged into it", diagnostics: log.errors)
        }
        return entries
    }

    /// Where an account's feed is fetched from: `since` when given; else the newest item held (or
    /// now, if that is later: upcoming payments are dated ahead) less ``overlap``; else the day the
    /// account was opened; else a year ago.
    static func feedStart(since: Instant?, held: [FeedEntry], createdAt: Instant?, now: Instant) -> Instant {
        if let since { return since }
        if let newest = held.map(\.time).max() { return min(newest, now).adding(milliseconds: -overlap) }
        if let createdAt { return min(createdAt, now) }
        return now.adding(milliseconds: -window)
    }

    /// `[start, end]` in consecutive spans of at most ``window`` (each begins where the last ended).
    static func windows(from start: Instant, to end: Instant) -> [(Instant, Instant)] {
        var result: [(Instant, Instant)] = []
        var from = start
        while from < end {
            let to = min(from.adding(milliseconds: window), end)
            result.append((from, to))
            from = to
        }
        return result
    }

    /// The held feed with the fetched items merged in by `feedItemUid`: a fetched item replaces
    /// the one held (a payment PENDING then SETTLED), in order of transaction time, then UID.
    static func merge(held: [FeedEntry], fetched: [FeedEntry]) -> (items: [FeedEntry], new: Int, updated: Int) {
        var items: [String: FeedEntry] = [:]
        for entry in held { items[entry.uid] = entry }
        let heldUIDs = Set(items.keys)
        var updated: Set<String> = []
        for entry in fetched {
            if let old = items[entry.uid], heldUIDs.contains(entry.uid), old != entry { updated.insert(entry.uid) }
            items[entry.uid] = entry
        }
        let sorted = items.values.sorted { ($0.time, $0.uid) < ($1.time, $1.uid) }
        return (sorted, items.count - heldUIDs.count, updated.count)
    }

    /// `{"feedItems": [...]}`, an item a line; read back with the loader before it is staged.
    static func feedFile(_ items: [FeedEntry], path: String) throws(FetchError) -> [UInt8] {
        var bytes = Array("{\"feedItems\": [".utf8)
        for (index, item) in items.enumerated() {
            bytes += Array((index == 0 ? "\n  " : ",\n  ").utf8)
            bytes += item.json
        }
        bytes += Array((items.isEmpty ? "]}\n" : "\n]}\n").utf8)
        let log = DiagnosticLog()
        let count = JSONDocument.parse(bytes, file: path, log: log).map { StarlingLoader.feedItems(in: $0).count }
        guard count == items.count, !log.hasErrors else {
            throw FetchError(.software, "the merged feed \(path) does not read back as written (a bug in nestegg)",
                             diagnostics: log.errors)
        }
        return bytes
    }

    /// The scope a token needs for a path of Starling's API.
    @Sendable static func starlingScope(_ path: String) -> String? {
        if path == "/api/v2/accounts" { return "account:read and account-list:read" }
        if path.hasSuffix("/balance") { return "balance:read" }
        if path.hasSuffix("/savings-goals") { return "savings-goal:read" }
        if path.hasSuffix("/identifiers") { return "account-identifier:read" }
        if path.hasPrefix("/api/v2/account-holder") { return "account-holder-name:read" }
        if path == "/api/v2/addresses" { return "address:read" }
        if path.hasPrefix("/api/v2/feed/") { return "transaction:read" }
        return nil
    }
}

/// `1 account`, `3 feed items`.
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
