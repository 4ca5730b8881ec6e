import Synchronization
import Crypto
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite

extension BuildCache {
    /// The fingerprint of a build's input: SHA-256 over the cache's format, the `nestegg`
    /// executable (its path, size and modification time), every data file's path and bytes, and the
    /// template overrides' names and bytes, each part length-prefixed so that no two inputs run together.
    /// (Without the executable for a sharded build's parts: workers on other machines run their
    /// own copy of the same `nestegg`, and check its version instead.)
    static func fingerprint(_ digests: DataDigests, templates: URL?, includingExecutable: Bool = true) -> String {
        var hash = InputHash()
        hash.add(format)
        hash.add(includingExecutable ? executableStamp : "nestegg " + NestEggVersion.current)
        for (path, digest) in digests.files {
            hash.add(path)
            hash.add(digest)
        }
        for problem in digests.problems { hash.add(problem) }
        addTemplates(templates, to: &hash)
        return hash.hex
    }

    /// The fingerprint of everything a build's output depends on but the data: the cache's
    /// format, the running `nestegg` and the template overrides' names and bytes.
    static func fingerprint(tool templates: URL?) -> String {
        var hash = InputHash()
        hash.add(format)
        hash.add(executableStamp)
        addTemplates(templates, to: &hash)
        return hash.hex
    }

    private static func addTemplates(_ templates: URL?, to hash: inout InputHash) {
        if let templates {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []).sorted() {
                hash.add(name)
                switch FileBytes.read(templates.path + "/" + name, limit: TemplateLibrary.largestTemplate) {
                case .success(let bytes): hash.add(bytes)
                case .failure(let failure): hash.add("unreadable: " + failure.reason)
                }
            }
        }
    }

    /// The running `nestegg` (path, size, modification time): a new build of it may render
    /// differently, so it is part of every fingerprint, the pages' included.
    static let executableStamp: String = {
        guard let executable = Bundle.main.executableURL,
              let attributes = try? FileManager.default.attributesOfItem(atPath: executable.resolvingSymlinksInPath().path) else { return "" }
        return "\(executable.path) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
    }()
}

/// Each data file's SHA-256, by path in the data folder's order (read and hashed on every core),
/// and what could not be listed. The build's fingerprint is made of them, and so is the key of
/// each older page of the transactions lists (``NestEggReport/ListRowsFrame``: the files of no account).
struct DataDigests: Sendable {
    let files: [(path: String, digest: String)]
    let problems: [String]
    let byPath: [String: String]

    /// `known`: digests already known (a census's, of feeds a share does not read), by path;
    /// `skipping`: files left out.
    init(_ data: DataFolder, known: [String: String] = [:], skipping: (String) -> Bool = { _ in false }) {
        let paths = data.files.filter { !skipping($0) }
        files = zip(paths, Concurrently.map(paths.count) { index -> String in
            known[paths[index]] ?? Self.digest(ofFile: data.root.path + "/" + paths[index])
        }).map { ($0, $1) }
        problems = data.listingProblems.map(\.description)
        byPath = Dictionary(files.map { ($0.path, $0.digest) }, uniquingKeysWith: { first, _ in first })
    }

    /// One file's digest: the SHA-256 of its bytes in hex, as a loader gives it for the bytes it
    /// parsed (``JSONDocument/contentDigest``); or, when they cannot be read, a digest of why.
    /// Read in pieces: a file no loader reads (`backup.tar`) is hashed in constant memory.
    static func digest(ofFile path: String) -> String {
        var sha = SHA256()
        if let failure = FileBytes.forEachPiece(path, { sha.update(bufferPointer: $0) }) {
            var hash = InputHash()
            hash.add("unreadable: " + failure.reason)
            return hash.hex
        }
        return Text.hex(sha.finalize())
    }

    /// SHA-256 over every file that is not in `excluded`, and the listing's problems (``InputKeys``).
    func digest(excluding excluded: Set<String>) -> String {
        var hash = InputHash()
        for (path, digest) in files where !excluded.contains(path) {
            hash.add(path)
            hash.add(digest)
        }
        for problem in problems { hash.add(problem) }
        return hash.hex
    }
}

/// The key of what a page or a final statement's digest is made of, when its report names the
/// data files (an account's ``AccountData/sources``): those files' SHA-256, every data
/// file that no account names as its own (`rest`: the accounts list, the holder, the issuer, the
/// settings and their time zone, the other sources) and `nestegg` itself. Everything else such a
/// page shows is its own to add (``PageFingerprint/ofRowsFrame(_:_:renderer:filesKey:)``).
struct InputKeys: Sendable {
    private let files: [String: String]
    private let rest: String

    init(_ digests: DataDigests, accounts: [AccountData]) {
        files = digests.byPath
        rest = digests.digest(excluding: Set(accounts.flatMap(\.sources)))
    }

    func key(of paths: [String]) -> String {
        var hash = InputHash()
        hash.add(BuildCache.executableStamp)
        hash.add(rest)
        hash.add(String(paths.count))
        for path in paths {
            hash.add(path)
            hash.add(files[path] ?? "-")
        }
        return hash.hex
    }
}

/// The digests of final statements the last build worked out, for the report stage
/// (``DigestMemo``): one is taken again while its account's ``InputKeys`` key is as recorded.
final class StatementDigestCache: DigestMemo {
    private let previous: [String: BuildCache.StatementDigest]
    private let keys: InputKeys

    init(previous: [String: BuildCache.StatementDigest], keys: InputKeys) {
        self.previous = previous
        self.keys = keys
    }

    static func id(_ account: StarlingAccount, _ month: CalendarMonth) -> String { "\(account.uid)/\(month)" }

    func finalStatementDigest(account: AccountData, month: CalendarMonth) -> String? {
        guard let entry = previous[Self.id(account.account, month)], entry.key == keys.key(of: account.sources) else { return nil }
        return entry.digest
    }

    /// What the next build's memo reads: each final statement's digest with its account's key.
    func entries(for records: [StatementRecord], accounts: [AccountData]) -> [String: BuildCache.StatementDigest] {
        var accountKeys: [String: String] = [:]
        for account in accounts { accountKeys[account.account.uid] = keys.key(of: account.sources) }
        var entries: [String: BuildCache.StatementDigest] = [:]
        for record in records where !record.status.isProvisional {
            guard let key = accountKeys[record.account.uid] else { continue }
            entries[Self.id(record.account, record.month)] = .init(key: key, digest: record.digest)
        }
        return entries
    }
}

/// SHA-256 (swift-crypto) over length-prefixed parts.
struct InputHash {
    private var hasher = SHA256()

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: bytes)
    }

    var hex: String { Text.hex(hasher.finalize()) }
}

/// A plain build's incremental work, in one place (``BuildPlan/keepsCache``): the data files'
/// digests and the build's fingerprint, worked out before anything is loaded; the last build's
/// cache, read from beside the output; once the data is loaded, the keys of the accounts' files,
/// the final statements' digests the cache holds (``StatementDigestCache``) and the pages it lets
/// the render keep (``PageReuse``); and at the end, the cache this build leaves for the next.
struct Incremental {
    let digests: DataDigests
    let fingerprint: String
    let cacheFile: URL
    /// What the last build recorded; `nil` when there is none, or it does not read (a full build).
    /// Its first line only until ``readingAll()``: all the "up to date" check needs.
    private(set) var previous: BuildCache?
    /// The last cache's bytes as read, until ``readingAll()`` decodes the rest of them: the rest
    /// comes from the same bytes as the first line, whatever another build writes meanwhile.
    private var previousBytes: [UInt8]?

    /// `signing`: the identity of the key that signs the manifests (``ManifestSignature/SigningKey/identity``),
    /// part of the fingerprint, so that a build signed with another key, or none, is not "up to date".
    init(_ folder: DataFolder, templates: URL?, cacheFile: URL, signing: String? = nil) {
        digests = DataDigests(folder)
        var fingerprint = BuildCache.fingerprint(digests, templates: templates)
        if let signing {
            var hash = InputHash()
            hash.add(fingerprint)
            hash.add("signed with " + signing)
            fingerprint = hash.hex
        }
        self.fingerprint = fingerprint
        self.cacheFile = cacheFile
        if case .success(let bytes) = FileBytes.read(cacheFile.path), let head = BuildCache.parse(bytes, whole: false) {
            (previous, previousBytes) = (head, bytes)
        }
    }

    /// The same, with the whole of the last cache: for a build that is not up to date.
    func readingAll() -> Incremental {
        var all = self
        all.previous = previous.flatMap { head in previousBytes.flatMap { BuildCache.parse($0, after: head) } }
        all.previousBytes = nil
        return all
    }

    /// The last build's cache, when `output` holds what it wrote and the input is as it was then.
    func upToDate(_ output: URL) -> BuildCache? {
        guard let previous, previous.isCurrent(in: output, fingerprint: fingerprint) else { return nil }
        return previous
    }

    /// What the report and render steps take from the cache, once the accounts' files are known.
    struct Loaded {
        let keys: InputKeys
        let memo: StatementDigestCache
        let reuse: PageReuse
    }

    func loaded(_ dataset: Dataset, settledRows: SettledRows = .unknown) -> Loaded {
        let keys = InputKeys(digests, accounts: dataset.accounts)
        return Loaded(keys: keys, memo: StatementDigestCache(previous: previous?.statementDigests ?? [:], keys: keys),
                      reuse: PageReuse(previous: previous, keys: keys, settledRows: settledRows))
    }

    /// The manifest's known hashes: those of the files the render kept as they were.
    func knownHashes(_ loaded: Loaded) -> Build.KnownHashes {
        Build.KnownHashes(previous: previous?.hashes ?? [:], kept: loaded.reuse.keptPaths)
    }

    /// The cache this build leaves: its fingerprint, its files, and what the next build takes again.
    func record(_ loaded: Loaded, files: [String: FileStamp], warnings: [Diagnostic], site: Site, hashes: [String: String],
                accounts: [AccountData]) -> BuildCache {
        var cache = BuildCache(fingerprint: fingerprint, files: files, warnings: warnings, pages: loaded.reuse.fingerprints)
        cache.changes = site.changes
        cache.hashes = hashes
        cache.keys = loaded.reuse.keys
        cache.statementDigests = loaded.memo.entries(for: site.statements, accounts: accounts)
        return cache
    }

    /// What the next build needs to hold accounts as summaries (``Units``): the data files'
    /// digests, each account read here (`mapped`) as a unit (its files' digests, its summary's
    /// signature, its pages and their files, its manifest entries among `entries`), and each held
    /// account as the last build recorded it, with its pages' fingerprints, keys, files' hashes
    /// and final statements' digests.
    func recordUnits(_ cache: inout BuildCache, site: Site, dataset: Dataset, mapped: [Units.Mapped], held: [String: Units.Held],
                     entries: [StatementManifest.Entry]) {
        cache.inputs = digests.byPath
        cache.problems = digests.problems
        let previous = previous ?? BuildCache(fingerprint: "", files: [:], warnings: [])
        // The last build's final statements' digests by account (an id is `uid/month`, and a month
        // has no `/`), found once: looking through all of them for each held account was
        // quadratic, 9 s of a scale-100 rebuild.
        var digestsOf: [Substring: [(id: String, digest: BuildCache.StatementDigest)]] = [:]
        for (id, digest) in previous.statementDigests {
            guard let slash = id.utf8.lastIndex(of: UInt8(ascii: "/")) else { continue }
            digestsOf[id[..<slash], default: []].append((id, digest))
        }
        for (uid, entry) in held {
            cache.units[uid] = entry.unit
            for page in entry.unit.pages {
                if let value = previous.pages[page] { cache.pages[page] = value }
                if let value = previous.keys[page] { cache.keys[page] = value }
            }
            for file in entry.unit.files { if let hash = previous.hashes[file] { cache.hashes[file] = hash } }
            for (id, digest) in digestsOf[uid[...]] ?? [] { cache.statementDigests[id] = digest }
        }
        var pagesOf: [String: [Page]] = [:]
        for page in site.pages { if let entity = page.entity { pagesOf[entity, default: []].append(page) } }
        var entriesOf: [String: [String]] = [:]
        for entry in entries { entriesOf[entry.record.account.uid, default: []].append(StatementManifest.text(of: entry)) }
        let accounts = Dictionary(dataset.accounts.map { ($0.account.uid, $0) }, uniquingKeysWith: { first, _ in first })
        let tables = TableCSV.filesByPage(among: cache.files.keys)
        for entry in mapped {
            guard let data = accounts[entry.uid] else { continue }
            let pages = pagesOf[Page.entity(of: data.account)] ?? []
            let files = Units.files(of: pages, among: cache.files, tables: tables)
            cache.units[entry.uid] = BuildCache.Unit(
                sources: Dictionary(data.sources.map { ($0, digests.byPath[$0] ?? "-") }, uniquingKeysWith: { first, _ in first }),
                summary: entry.record.run.digest, pages: pages.map(\.path), files: pages.flatMap { files[$0.path] ?? [] },
                entries: entriesOf[entry.uid] ?? [], spendingCodes: BudgetCategories.spendingCodes(data.feed).sorted())
        }
    }
}

/// How far back every account's rows of the transactions lists are known to be the last build's
/// (``Units/settledRows(mapped:in:accounts:)``): a page that shows rows dated before a month
/// (``NestEggReport/ListRowsFrame/before``) is kept by its key while they are.
enum SettledRows: Sendable, Equatable {
    /// Not known (a build that maps every account): no page is kept by its rows.
    case unknown
    /// Those dated before this month.
    case before(CalendarMonth)
    /// All of them.
    case all

    /// Whether the rows dated before `month` are the last build's.
    func covers(_ month: CalendarMonth) -> Bool {
        switch self {
        case .unknown: false
        case .before(let settled): month <= settled
        case .all: true
        }
    }

    /// Also only those before `month`.
    func narrowed(to month: CalendarMonth) -> SettledRows {
        switch self {
        case .unknown: .unknown
        case .before(let settled): .before(min(settled, month))
        case .all: .before(month)
        }
    }
}

/// A plain build's page-level reuse: the last build's cache (its pages' fingerprints and keys, its
/// files' stamps), and this build's fingerprints and keys, recorded by the render workers for the next one.
final class PageReuse: Sendable {
    let previous: BuildCache?
    private let inputKeys: InputKeys?
    private let state = Mutex((fingerprints: [String: String](), keys: [String: String](), kept: Set<String>(),
                               keptByRows: [String: String]()))

    /// The last build's tables' CSVs (``TableCSV``) by their page's path (without extension), in
    /// order: files of their page, kept with it.
    let previousTableFiles: [String: [String]]
    /// How far back the accounts' rows are the last build's, for the pages that show them.
    let settledRows: SettledRows

    init(previous: BuildCache?, keys: InputKeys? = nil, settledRows: SettledRows = .unknown) {
        self.previous = previous
        inputKeys = keys
        self.settledRows = settledRows
        previousTableFiles = TableCSV.filesByPage(among: previous?.files.keys ?? [:].keys)
    }

    /// The key of an older page of the transactions lists (``PageFingerprint/ofRowsFrame(_:_:renderer:filesKey:)``);
    /// `nil` without the data files' digests.
    func key(of page: Page, _ frame: ListRowsFrame, renderer: PageRenderer) -> String? {
        if let known = state.withLock({ $0.keptByRows[page.path] }) { return known }
        // (Besides its rows, made of no account's files: the key of the data folder's other files.)
        return inputKeys.map { PageFingerprint.ofRowsFrame(page, frame, renderer: renderer, filesKey: $0.key(of: [])) }
    }

    /// The pages of the transactions lists that show only rows settled since the last build
    /// (``settledRows``), and whose key is the one it recorded: kept without their rows, which a
    /// rebuild then does not read (``Units/fillRows(_:held:mapped:accountNames:keeps:toTheEnd:)``). Their keys are
    /// remembered for the render.
    func keptByRows(_ pages: [Page], renderer: PageRenderer) -> Set<String> {
        guard let previous else { return [] }
        var keys: [String: String] = [:]
        for page in pages {
            guard let frame = page.rowsFrame, settledRows.covers(frame.before), previous.pages[page.path] != nil,
                  let key = key(of: page, frame, renderer: renderer), previous.keys[page.path] == key else { continue }
            keys[page.path] = key
        }
        state.withLock { $0.keptByRows = keys }
        return Set(keys.keys)
    }

    /// Whether the page at `path` is one whose rows this build did not read (``keptByRows(_:renderer:)``):
    /// kept as the last build wrote it, or the build cannot make it.
    func rowsUnread(_ path: String) -> Bool { state.withLock { $0.keptByRows[path] != nil } }

    func record(_ path: String, _ fingerprint: String, key: String? = nil) {
        state.withLock {
            $0.fingerprints[path] = fingerprint
            if let key { $0.keys[path] = key }
        }
    }
    var keys: [String: String] { state.withLock { $0.keys } }
    /// The page at `path` (without extension) was kept as the last build wrote it.
    func countKept(_ path: String) { state.withLock { _ = $0.kept.insert(path) } }
    var fingerprints: [String: String] { state.withLock { $0.fingerprints } }
    var kept: Int { state.withLock { $0.kept.count } }
    var keptPaths: Set<String> { state.withLock { $0.kept } }
}
