import Crypto
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggSupport
import NestEggWrite

/// `nestegg census DATA --shard K/N --output FILE`: the first step of a sharded build that reads
/// each feed once. Census worker K reads the feeds of share K's accounts and goals (``Page/entity``)
/// and writes what every share needs of them: each feed's latest time, its problems, its bytes'
/// digest, and an account's figures for the site-wide pages (``AccountFigures``, which do not
/// depend on the data's as-of date). A share built with `--census` then reads its own feeds only;
/// every other feed is what the census says, checked against the data by its digest.
public struct CensusOptions: Sendable {
    public var data: URL
    public var output: URL
    public var shard: Shard
    /// How diagnostics name the data folder (the path as typed); its absolute path if `nil`.
    public var dataLabel: String?

    public init(data: URL, output: URL, shard: Shard) {
        self.data = data
        self.output = output
        self.shard = shard
    }
}

public struct Census {
    public let options: CensusOptions
    public var progress: (String) -> Void = { _ in }

    public init(options: CensusOptions) { self.options = options }

    /// The file name every census file has: a share's `--census` folder holds one per census worker.
    public static let fileExtension = "census"

    /// Whether a data file is a feed a census reads (the rest every worker reads, or hashes).
    static func isFeed(_ path: String) -> Bool { path.hasPrefix("starling/feed/") || path.hasPrefix("qapital/feed/") }

    /// - Returns: how many feeds of accounts and of goals the census holds.
    public func run() throws(BuildError) -> (accounts: Int, goals: Int) {
        try checkOutput()
        StagedFile.recover(beside: options.output)
        var buildOptions = BuildOptions(data: options.data, output: options.output)
        buildOptions.dataLabel = options.dataLabel
        let build = Build(options: buildOptions)
        let folder = try build.openDataFolder()
        if let error = Destinations.checkLinks([.init(data: folder)], replaced: [("--output", options.output, false)]) { throw error }
        let shard = options.shard
        // The files but the feeds, hashed before and after: the figures come from them too (the
        // balances, the settings), so they must be what the digest says.
        let restBefore = DataDigests(folder, skipping: Self.isFeed).digest(excluding: [])

        // What the feeds are read against: the settings, the accounts and their balances, the goals,
        // users and rules; no feed.
        let log = DiagnosticLog()
        // What the listing could not read (a feed that is a FIFO or a link to nothing) is the
        // build's error, so it is the census's: a census that took it for no feed would pass it on.
        folder.listingProblems.filter { $0.severity == .error }.forEach(log.report)
        let settings = SettingsLoader.load(from: folder, log: log)
        let accounts = StarlingLoader.load(from: folder, settings: settings, log: log, feed: FeedReaders.none.starling)
            .filter { shard.owns(Page.entity(of: $0.account)) }
        let qapital = QapitalLoader.load(from: folder, settings: settings, log: log, feed: FeedReaders.none.qapital)
        if log.hasErrors {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: build.placed(log.errors, folder: folder))
        }
        let goalIds = Set(qapital.goals.map(\.id))
        let goals = folder.files(in: "qapital/feed").compactMap { path -> (Int, String)? in
            let name = String(path.dropFirst("qapital/feed/".count).dropLast(".json".count))
            guard let id = Int(name), String(id) == name, goalIds.contains(id), shard.owns(Page.entity(ofQapitalGoal: id)) else { return nil }
            return (id, path)
        }

        let context = ReportContext(settings: settings)
        let starling = Concurrently.map(accounts.count) { index -> CensusRecord.Account in
            var data = accounts[index]
            let feedLog = DiagnosticLog()
            let path = StarlingLoader.feedPath(of: data.account)
            // The digest is of the bytes parsed: a file that changes while it is read cannot pass for the one the figures come from.
            let (items, digest) = StarlingLoader.readFeed(of: data.account, in: folder, log: feedLog, digest: true)
            data.feed = items
            if digest == nil, folder.contains(path), !feedLog.hasErrors {
                feedLog.report(Diagnostic(.error, file: path, message: "cannot be read for the census"))
            }
            return .init(account: data.account, known: KnownFeed(latest: data.feed.lazy.map(\.transactionTime).max(), notes: feedLog.diagnostics),
                         digest: digest, figures: AccountFigures(data, context: context))
        }
        let qapitalFeeds = Concurrently.map(goals.count) { index -> CensusRecord.Goal in
            let (id, path) = goals[index]
            let feedLog = DiagnosticLog()
            let read = QapitalLoader.readFeed(path, goalId: id, in: folder, currency: qapital.currency, log: feedLog, digest: true)
            let items = read?.items ?? []
            if read == nil, !feedLog.hasErrors { feedLog.report(Diagnostic(.error, file: path, message: "cannot be read for the census")) }
            let references = QapitalLoader.referenceNotes(items, goalId: id, users: qapital.users, rules: qapital.rules)
            return .init(id: id, known: KnownFeed(latest: items.first?.timestamp, notes: feedLog.diagnostics, references: references),
                         digest: read?.digest ?? "")
        }
        let errors = (starling.flatMap(\.known.notes) + qapitalFeeds.flatMap(\.known.notes)).filter { $0.severity == .error }
        if !errors.isEmpty {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: build.placed(errors, folder: folder))
        }
        let rest = DataDigests(folder, skipping: Self.isFeed).digest(excluding: [])
        guard rest == restBefore else {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: build.placed([Diagnostic(.error, file: "",
                message: "a file that is not a feed changed while the census read the data; run it again")], folder: folder))
        }
        let record = CensusRecord(version: NestEggVersion.current, rest: rest, shard: shard, accounts: starling, goals: qapitalFeeds)
        progress("census: share \(shard): the feeds of \(starling.count) of the accounts and \(qapitalFeeds.count) goals")
        // Staged and put in place with a stop (Termination) held off: the file is whole or as it was.
        try Termination.holding { () throws(BuildError) in
            let staged = try Build.writeError { () throws(SiteWriter.WriteError) in try StagedFile.stage(record.text(), at: options.output) }
            do throws(SiteWriter.WriteError) {
                try staged.commit()
            } catch {
                staged.discard()
                throw BuildError(writing: error)
            }
            staged.finish()
        }
        progress("write: \(options.output.path)")
        return (starling.count, qapitalFeeds.count)
    }

    /// The census file may be written where it is asked for: not in the data folder, not in place of
    /// a folder, a link or any file that is not a census (say, an input mistyped as the output).
    func checkOutput() throws(BuildError) {
        let url = options.output
        var reasons: [String] = []
        var exitCode = ExitStatus.usage
        if url.path.isEmpty || url.hasDirectoryPath { reasons.append("it names a folder, not a file") }
        if Destinations.path(Destinations.resolved(url), isWithin: Destinations.resolvedFolder(options.data)) {
            reasons.append("it is inside the data folder \(options.data.path), and would overwrite input")
        }
        if let kind = Destinations.nonFileKind(url.path) {
            reasons.append("it is \(kind); nestegg writes only regular files")
            exitCode = .cannotCreate
        } else if FileManager.default.fileExists(atPath: url.path), !CensusRecord.isCensus(url) {
            reasons.append("it is a file that is not a census; nestegg replaces only its own")
            exitCode = .cannotCreate
        }
        guard !reasons.isEmpty else { return }
        throw BuildError(step: .write, exitCode: exitCode, diagnostics: reasons.map {
            Diagnostic(.error, file: url.path, message: "--output: refusing to write the census here: \($0)")
        })
    }
}

/// What a census found in a feed, so that a share of a sharded build need not read it: its latest
/// time and its problems, as reading it reports them.
struct KnownFeed: Sendable {
    var latest: Instant?
    /// What reading the file reports (its syntax, its shape, items in another currency), in order.
    var notes: [Diagnostic]
    /// A Qapital feed's notes on users and rules it names that the folder does not have, which
    /// the load reports after every file (``QapitalLoader/referenceNotes(_:goalId:users:rules:)``).
    var references: [Diagnostic] = []
}

/// One census file, in the one format of nestegg's own files (``RecordFile``): its format line,
/// then one JSON value a line (JSON Lines), then the SHA-256 of the lines before it:
/// - the head (``HeadLine``): which data it is of (the nestegg version, the digest of every file
///   but the feeds), which share, how many feeds of accounts and goals and rows it holds;
/// - per feed of that share what ``KnownFeed`` holds and its digest, and an account's
///   ``AccountFigures/Summary`` (``AccountLine``, ``GoalLine``);
/// - the totals of its accounts' rows of the spending list, as one sum (``SpendingTotals``);
/// - the rows (``SpendingItem/StarlingRow``), newest first (``SpendingLists``).
///
/// A share reads every census file whole once: it decodes the lines before the rows, and only
/// hashes the rows, counting them, to check the file's signature; it keeps where the rows start
/// (``RecordFile/Lines/Mark``). It reads the rows again, decoding them, when it fills its pages
/// of the transactions lists (``CensusRun``), and checks the signature again at their end.
struct CensusRecord: Sendable {
    static let format = "nestegg-census 5"

    struct Account: Sendable {
        let account: StarlingAccount
        let known: KnownFeed
        /// ``DataDigests/digest(ofFile:)``; `nil`: the account has no feed file.
        let digest: String?
        /// `nil` when the reader did not ask for them (a share's own account's).
        let figures: AccountFigures?
    }

    struct Goal: Sendable {
        let id: Int
        let known: KnownFeed
        let digest: String
    }

    /// The census's first JSON line.
    struct HeadLine: Codable {
        var version: String
        var rest: String
        var shard: Int
        var shards: Int
        var accounts: Int
        var goals: Int
        var rows: Int
    }

    /// A Starling account's feed: the UID, the latest time (milliseconds since 1970), the digest,
    /// the notes and the figures.
    struct AccountLine: Codable {
        var uid: String
        var latest: Int64?
        var digest: String?
        var notes: [Diagnostic]
        var figures: AccountFigures.Summary?
    }

    /// A Qapital goal's feed: its notes, and the notes on what it refers to (users, rules).
    struct GoalLine: Codable {
        var id: Int
        var latest: Int64?
        var digest: String
        var notes: [Diagnostic]
        var references: [Diagnostic]
    }

    let version: String
    let rest: String
    let shard: Shard
    let accounts: [Account]
    let goals: [Goal]
    /// How many rows it holds (read from a file).
    var rows = 0
    /// Where its rows start, and the SHA-256 the file was found to have (read from a file).
    var run = Run(mark: nil, digest: "")
    /// The totals of its accounts' rows (read from a file; written from the figures).
    var totals = SpendingTotals()

    /// Where a census file's rows start (`nil`: at the start of a text, for a record not read from
    /// one), and the whole file's SHA-256 as the share first read it.
    struct Run: Sendable {
        let mark: RecordFile.Lines.Mark?
        let digest: String
    }

    init(version: String, rest: String, shard: Shard, accounts: [Account], goals: [Goal]) {
        self.version = version
        self.rest = rest
        self.shard = shard
        self.accounts = accounts
        self.goals = goals
    }

    static func isCensus(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: "nestegg-census ".utf8.count)) ?? Data()
        // Any format's census (a file an earlier nestegg wrote is replaced as well).
        return head.starts(with: Data("nestegg-census ".utf8))
    }

    /// The file's text: the rows are the accounts' figures' (``AccountFigures/spending``), or
    /// `rows` with the totals it holds.
    func text(rows given: [SpendingItem.StarlingRow]? = nil) -> String {
        var totals = self.totals
        var rows: [SpendingItem.StarlingRow]
        if let given {
            rows = given
        } else {
            let items = accounts.flatMap { entry in (entry.figures?.spending ?? []).map { (entry.account.uid, $0) } }
            totals = SpendingTotals(items.lazy.map(\.1))
            // Newest first (``TransactionsRules/newestFirst(_:_:)``).
            let order = items.indices.sorted { TransactionsRules.newestFirst(items[$0].1, items[$1].1) }
            rows = order.map { items[$0].1.row(account: items[$0].0) }
        }
        var writer = RecordFile.Writer(format: Self.format)
        writer.append(HeadLine(version: version, rest: rest, shard: shard.index, shards: shard.count, accounts: accounts.count,
                               goals: goals.count, rows: rows.count))
        for entry in accounts {
            writer.append(AccountLine(uid: entry.account.uid, latest: entry.known.latest?.millisecondsSinceEpoch, digest: entry.digest,
                                      notes: entry.known.notes, figures: entry.figures?.summary))
        }
        for entry in goals {
            writer.append(GoalLine(id: entry.id, latest: entry.known.latest?.millisecondsSinceEpoch, digest: entry.digest,
                                   notes: entry.known.notes, references: entry.known.references))
        }
        writer.append(totals)
        for row in rows { writer.append(row) }
        return writer.text
    }

    /// Reads a census's text; see ``read(_:accounts:figuresOf:)-(RecordFile.Lines,_,_)``.
    static func read(_ text: String, accounts: [String: StarlingAccount],
                     figuresOf: (String) -> Bool = { _ in true }) -> Result<CensusRecord, ShardError> {
        read(RecordFile.Lines(text: text), accounts: accounts, figuresOf: figuresOf)
    }

    /// Reads a census file a line at a time; `accounts` names the data's Starling accounts by UID
    /// (an account's figures are read with its currency), and `figuresOf` says whose figures to
    /// keep (not those of a share's own accounts, which it works out from their feeds). The rows
    /// are hashed and counted, not decoded: the file's signature is checked whole.
    /// - Returns: the record, or why it is not one.
    static func read(_ lines: RecordFile.Lines, accounts: [String: StarlingAccount],
                     figuresOf: (String) -> Bool = { _ in true }) -> Result<CensusRecord, ShardError> {
        var line = lines.next()
        var signed = ""
        // The signature line signs the lines before it: a file that is not the one nestegg wrote
        // is refused as such, whatever line gave out first.
        func signatureProblem() -> String? {
            while let read = line, RecordFile.signature(read) == nil { line = lines.next() }
            if let failure = lines.failure { return failure }
            guard let last = line, lines.hasBreak, let signature = RecordFile.signature(last) else { return "cut short: its last line is missing" }
            let digest = lines.digest
            guard signature == digest else { return "changed since nestegg wrote it (its SHA-256 is not the one it was written with)" }
            guard lines.next() == nil else { return lines.failure ?? "changed since nestegg wrote it (a line after its last)" }
            signed = digest
            return nil
        }
        func fail(_ reason: String) -> Result<CensusRecord, ShardError> { .failure(ShardError(signatureProblem() ?? reason)) }
        // A file that is no census at all (empty, or another file named like one) is named so.
        guard let first = line, first.hasPrefix("nestegg-census") else {
            return .failure(ShardError(lines.failure ?? (line == nil ? "empty: not a census" : "not a census: its first line is not a census's")))
        }
        guard first == Substring(format) else {
            // Another format's census (a whole first line, its number another) is not read
            // further: its signature is another format's too.
            if lines.hasBreak, first.hasPrefix("nestegg-census "), case let number = first.dropFirst("nestegg-census ".count),
               (1...9).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return .failure(ShardError("a census of another format (\(first), where this nestegg reads \(format)); run nestegg census again"))
            }
            return fail("not a census this nestegg wrote")
        }
        let decoder = JSONDecoder()
        /// The next line's value; `nil` at the signature line, or a line that is not one.
        func decoded<Value: Decodable>(_ type: Value.Type) -> Value? {
            line = lines.next()
            guard let text = line, RecordFile.signature(text) == nil else { return nil }
            return try? decoder.decode(type, from: Data(text.utf8))
        }
        func instant(_ value: Int64?) -> Instant?? {
            guard let value else { return .some(nil) }
            return AccountFigures.instants.contains(value) ? .some(Instant(millisecondsSinceEpoch: value)) : nil
        }
        func notes(_ notes: [Diagnostic]) -> Bool { notes.allSatisfy { (1...1 << 32).contains($0.count) } }
        guard let head = decoded(HeadLine.self), head.version.utf8.count <= 64, let shard = Shard(index: head.shard, count: head.shards),
              head.accounts >= 0, head.goals >= 0, head.rows >= 0 else { return fail("its head is not a census's") }
        var number = 2
        var starling: [Account] = []
        for _ in 0..<head.accounts {
            number += 1
            guard let entry = decoded(AccountLine.self), notes(entry.notes) else { return fail("line \(number): not an account's feed") }
            guard let data = accounts[entry.uid] else { return fail("line \(number): account \(entry.uid) is not in starling/accounts.json") }
            guard let latest = instant(entry.latest) else { return fail("line \(number): not a time: \(entry.latest ?? 0)") }
            var figures: AccountFigures?
            if figuresOf(data.uid) {
                guard let summary = entry.figures, let read = AccountFigures(summary: summary, account: data) else {
                    return fail("the figures of account \(data.uid) cannot be read")
                }
                figures = read
            }
            starling.append(Account(account: data, known: KnownFeed(latest: latest, notes: entry.notes), digest: entry.digest, figures: figures))
        }
        var goals: [Goal] = []
        for _ in 0..<head.goals {
            number += 1
            guard let entry = decoded(GoalLine.self), notes(entry.notes), notes(entry.references), !entry.digest.isEmpty,
                  let latest = instant(entry.latest) else { return fail("line \(number): not a goal's feed") }
            goals.append(Goal(id: entry.id, known: KnownFeed(latest: latest, notes: entry.notes, references: entry.references), digest: entry.digest))
        }
        number += 1
        guard let totals = decoded(SpendingTotals.self) else { return fail("line \(number): not the totals of its spending list") }
        // The rows are hashed as they are counted, not decoded: the share that fills list pages
        // decodes them once, later, from here.
        let mark = lines.mark()
        var rows = 0
        line = lines.next()
        while let row = line, RecordFile.signature(row) == nil {
            rows += 1
            line = lines.next()
        }
        if let problem = signatureProblem() { return .failure(ShardError(problem)) }
        // Signed as nestegg signs a census, and still not one it writes: no signature to blame.
        guard rows == head.rows else { return .failure(ShardError("it holds \(rows) rows of the spending list where its head says \(head.rows)")) }
        // Its totals count its rows: what a share lays out from them is the rows it will read.
        guard let counted = totals.checkedCount, counted == rows else {
            return .failure(ShardError("its spending totals count \(totals.checkedCount.map(String.init) ?? "more") rows where it holds \(rows)"))
        }
        var record = CensusRecord(version: head.version, rest: head.rest, shard: shard, accounts: starling, goals: goals)
        record.rows = rows
        record.run = Run(mark: mark, digest: signed)
        record.totals = totals
        return .success(record)
    }
}

/// The census a share of a sharded build reads (`--census DIR`: every `*.census` file in DIR):
/// one file per census worker, all of the same data and the same N, each share once.
struct CensusSet: Sendable {
    let folder: URL
    let rest: String
    /// Every feed the census read, by its path in the data folder: what it found, and its digest (`nil`: no file).
    let feeds: [String: (known: KnownFeed, digest: String?)]
    /// Each account's figures, by UID.
    let figures: [String: AccountFigures]
    /// Each file's rows: its path, where they start and the file's SHA-256 as first read, how many rows it
    /// holds and their totals.
    var runs: [(path: String, run: CensusRecord.Run, rows: Int, totals: SpendingTotals)] = []
    /// The totals of every Starling account's rows of the spending list: the runs' totals.
    var totals = SpendingTotals()
    /// The accounts' names, by UID, for their rows.
    var accountNames: [String: String] = [:]

    /// Reads the census in `folder` for data whose Starling accounts are `accounts`; `figuresOf`
    /// says whose figures to keep.
    static func read(_ folder: URL, accounts: [StarlingAccount], figuresOf: @escaping @Sendable (String) -> Bool = { _ in true }) throws(BuildError) -> CensusSet {
        func failure(_ file: String, _ message: String, _ exitCode: ExitStatus = .dataError) -> BuildError {
            BuildError(step: .load, exitCode: exitCode, diagnostics: [Diagnostic(.error, file: file, message: message)])
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") && $0.hasSuffix("." + Census.fileExtension) }.sorted()
        } catch {
            throw failure(folder.path, "cannot read the census folder: \(error.localizedDescription)", .noInput)
        }
        guard !names.isEmpty else { throw failure(folder.path, "no census here (*.\(Census.fileExtension), from nestegg census)", .noInput) }
        let byUID = Dictionary(accounts.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        let records = Concurrently.map(names.count) { index -> Result<CensusRecord, ShardError> in
            CensusRecord.read(RecordFile.Lines(path: folder.path + "/" + names[index]), accounts: byUID, figuresOf: figuresOf)
        }
        var problems: [Diagnostic] = []
        var read: [(String, CensusRecord)] = []
        for (name, record) in zip(names, records) {
            switch record {
            case .success(let record): read.append((folder.path + "/" + name, record))
            case .failure(let reason): problems.append(Diagnostic(.error, file: folder.path + "/" + name, message: reason.description))
            }
        }
        if let (firstPath, first) = read.first {
            var seen: [Int: String] = [:]
            for (path, record) in read {
                if record.version != NestEggVersion.current {
                    problems.append(Diagnostic(.error, file: path, message: "made by nestegg \(record.version), not \(NestEggVersion.current)"))
                } else if record.rest != first.rest {
                    problems.append(Diagnostic(.error, file: path, message: "made from other data than \(firstPath)"))
                } else if record.shard.count != first.shard.count {
                    problems.append(Diagnostic(.error, file: path, message: "share \(record.shard) of another number of shares than \(first.shard.count)"))
                } else if let other = seen[record.shard.index] {
                    problems.append(Diagnostic(.error, file: path, message: "share \(record.shard) twice: also \(other)"))
                } else {
                    seen[record.shard.index] = path
                }
            }
            if problems.isEmpty, let missing = (0..<min(first.shard.count, read.count + 1)).first(where: { seen[$0] == nil }) {
                problems.append(Diagnostic(.error, file: folder.path, message:
                    "the census of share \(missing)/\(first.shard.count) is missing (\(read.count) of \(first.shard.count) files)"))
            }
        }
        // Every feed once, in the file of the share that owns it.
        var holder: [String: String] = [:]
        let whole = problems.isEmpty
        for (path, record) in read where whole {
            let feeds = record.accounts.map { (StarlingLoader.feedPath(of: $0.account), Page.entity(of: $0.account)) }
                + record.goals.map { ("qapital/feed/\($0.id).json", Page.entity(ofQapitalGoal: $0.id)) }
            for (feed, entity) in feeds {
                if let other = holder.updateValue(path, forKey: feed) {
                    problems.append(Diagnostic(.error, file: path, message: "holds \(feed), which \(other) holds too"))
                } else if !record.shard.owns(entity) {
                    problems.append(Diagnostic(.error, file: path, message: "holds \(feed), which is not share \(record.shard)'s"))
                }
            }
        }
        if !problems.isEmpty { throw BuildError(step: .load, exitCode: .dataError, diagnostics: problems) }
        var feeds: [String: (known: KnownFeed, digest: String?)] = [:]
        var figures: [String: AccountFigures] = [:]
        for (_, record) in read {
            for entry in record.accounts {
                feeds[StarlingLoader.feedPath(of: entry.account)] = (entry.known, entry.digest)
                if let accountFigures = entry.figures { figures[entry.account.uid] = accountFigures }
            }
            for entry in record.goals { feeds["qapital/feed/\(entry.id).json"] = (entry.known, entry.digest) }
        }
        var census = CensusSet(folder: folder, rest: read[0].1.rest, feeds: feeds, figures: figures)
        census.runs = read.map { ($0.0, $0.1.run, $0.1.rows, $0.1.totals) }
        for (_, record) in read { census.totals.add(record.totals) }
        census.accountNames = byUID.mapValues(\.name)
        return census
    }

    /// The data's digests, the census's for the feeds `notOwn` says a share does not read, checked
    /// against the data: the files but the feeds are those the census read, a feed the share reads
    /// is as the census read it, and every other feed is there if and only if the census found it.
    func digests(of data: DataFolder, notOwn: (String) -> Bool) throws(BuildError) -> DataDigests {
        let others = feeds.filter { notOwn($0.key) }
        let digests = DataDigests(data, known: others.compactMapValues(\.digest))
        var problems: [Diagnostic] = []
        if digests.digest(excluding: Set(digests.files.map(\.path).filter(Census.isFeed))) != rest {
            problems.append(Diagnostic(.error, file: "", message: "the census in \(folder.path) was made from other data (a file that is not a feed differs); run it again"))
        }
        for (path, entry) in feeds.sorted(by: { $0.key < $1.key }) where notOwn(path) ? data.contains(path) != (entry.digest != nil)
                                                                       : digests.byPath[path] != entry.digest {
            problems.append(Diagnostic(.error, file: path, message: "changed since the census read it; run the census again"))
        }
        if !problems.isEmpty { throw BuildError(step: .load, exitCode: .dataError, diagnostics: problems) }
        return digests
    }
}

extension CensusSet {
    /// After the load: the feeds a share read are the bytes the census read (the digests of the
    /// bytes the load parsed), and the other files still the ones the census was checked against, so that a file changed
    /// while the share read it cannot give pages that disagree with the census's figures, which
    /// every other share uses.
    /// `parsed`: the digests of the very bytes the load parsed, by path (``ShareFeeds/parsed``; not
    /// of a second read, which a file changed and changed back would pass).
    func checkAgain(_ data: DataFolder, parsed: [String: String?], own: (String) -> Bool) throws(BuildError) {
        let paths = feeds.keys.filter(own).sorted()
        let digests = paths.map { parsed[$0] ?? nil }
        var changed = zip(paths, digests).filter { feeds[$0.0]?.digest != $0.1 }.map {
            Diagnostic(.error, file: $0.0, message: "changed while the build read it; run the census again")
        }
        // The other files too: the share's pages come from them as the census's figures do.
        if DataDigests(data, skipping: Census.isFeed).digest(excluding: []) != rest {
            changed.append(Diagnostic(.error, file: "", message: "a file that is not a feed changed while the build read it; build again"))
        }
        guard changed.isEmpty else { throw BuildError(step: .load, exitCode: .dataError, diagnostics: changed) }
    }

    /// The figures of the accounts a share holds as summaries (`uids`, in the data's order), by
    /// UID; every one must be in the census (`data` names the data folder in the error).
    func figures(of uids: [String], folder data: URL) throws(BuildError) -> [String: AccountFigures] {
        var result: [String: AccountFigures] = [:]
        var missing: [Diagnostic] = []
        for uid in uids {
            if let figures = figures[uid] {
                result[uid] = figures
            } else {
                missing.append(Diagnostic(.error, file: folder.path, message: "the census has no figures of account \(uid)"))
            }
        }
        if !missing.isEmpty { throw BuildError(step: .load, exitCode: .dataError, diagnostics: missing) }
        return result
    }
}

extension CensusSet {
    /// Fills the transactions lists' pages `keeps` names with their rows, from the census's runs
    /// (one a file, read a row at a time from its `head` line) and the lists' own (the
    /// transactions app's): only the kept pages' rows are held. A file's head must be the one read
    /// before, its run signed by its last line, and its rows add up to its totals. All the files are open at once: the limit of open files
    /// is raised to what the system allows, which bounds how many census files a share can read.
    func fillRows(_ lists: SpendingLists, keeps: (String) -> Bool) throws(BuildError) {
        // The runs stay open while every core renders and writes pages beside them.
        Self.allowOpenFiles(runs.count + 64 + 8 * ProcessInfo.processInfo.activeProcessorCount)
        let runs = runs.map { CensusRun(path: $0.path, run: $0.run, rows: $0.rows, totals: $0.totals, accountNames: accountNames) }
        let mismatch = lists.fill(runs.map { $0 as any IteratorProtocol<SpendingItem> }, keeps: keeps)
        // After a mismatch the other runs are read to their end: a file changed since is named as such, first.
        if mismatch != nil { for run in runs { while run.next() != nil {} } }
        var problems = runs.compactMap { run in run.problem.map { Diagnostic(.error, file: run.path, message: $0) } }
        if problems.isEmpty, let mismatch {
            problems.append(Diagnostic(.error, file: mismatch.run.map { runs[$0].path } ?? folder.path,
                                       message: "the census's rows of the spending list are not what its totals count: \(mismatch)"))
        }
        if !problems.isEmpty { throw BuildError(step: .load, exitCode: .dataError, diagnostics: problems) }
    }
}

extension CensusSet {
    /// Raises the soft limit of open files towards `count`, as far as the hard limit allows.
    static func allowOpenFiles(_ count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// A census file's rows, read a line at a time (``SpendingItem/init(row:accountName:category:)``)
/// from where the share's first reading marked their start: at their end, the signature line must
/// be the one the share found then, and sign the lines before the rows as first read and the rows
/// as read now; the rows must be as many as the head says and add up to the totals. A problem
/// ends the run and is kept in ``problem``.
final class CensusRun: IteratorProtocol {
    let path: String
    private let run: CensusRecord.Run
    private let expected: Int
    private let totals: SpendingTotals
    /// The rows' totals, added up as they are read.
    private var read = SpendingTotals()
    private let accountNames: [String: String]
    /// Opened at the first row asked for: a share that keeps no list page opens none.
    private lazy var lines = open()
    private let open: () -> RecordFile.Lines
    private let decoder = JSONDecoder()
    private var count = 0
    private var done = false
    private(set) var problem: String?
    /// One category a spelling (by its key, then its name), as rows worked out from a feed share theirs.
    private var categories: [String: [String: SpendingCategory]] = [:]

    /// `text`: the file's text, to read instead of the file at `path` (for the fuzz target).
    init(path: String, run: CensusRecord.Run, rows: Int, totals: SpendingTotals, accountNames: [String: String], text: String? = nil) {
        self.path = path
        self.run = run
        open = { text.map { RecordFile.Lines(text: $0, from: run.mark) } ?? RecordFile.Lines(path: path, from: run.mark) }
        self.expected = rows
        self.totals = totals
        self.accountNames = accountNames
    }

    /// The category of a row's key and name, one for each spelling.
    private func category(_ key: String, _ name: String) -> SpendingCategory {
        if let known = categories[key]?[name] { return known }
        let category = SpendingCategory(key: key, name: name)
        categories[key, default: [:]][name] = category
        return category
    }

    func next() -> SpendingItem? {
        guard !done else { return nil }
        guard let line = lines.next() else {
            return stop(lines.failure.map { "cannot read it again: \($0)" } ?? "cut short: its last line is missing")
        }
        if RecordFile.signature(line) == nil {
            guard let row = try? decoder.decode(SpendingItem.StarlingRow.self, from: Data(line.utf8)), let name = accountNames[row.account],
                  let item = SpendingItem(row: row, accountName: name, category: category(row.category, row.categoryName)) else {
                return stop(signatureProblem(from: line) ?? "row \(count + 1) of its spending list is not one")
            }
            count += 1
            read.add(item)
            return item
        }
        if let problem = signatureProblem(from: line) { return stop(problem) }
        if count != expected { return stop("holds \(count) rows of the spending list where its head says \(expected)") }
        if read != totals { return stop("its rows of the spending list do not add up to its totals") }
        done = true
        return nil
    }

    /// Why the run is not the one the share first read, read on from `line` to the signature
    /// line: a run damaged (cut short, changed) is named as such, before any row of it that does not read.
    private func signatureProblem(from line: Substring) -> String? {
        var line: Substring? = line
        while let read = line, RecordFile.signature(read) == nil { line = lines.next() }
        if let failure = lines.failure { return "cannot read it again: \(failure)" }
        guard let line, let signature = RecordFile.signature(line) else { return "cut short: its last line is missing" }
        guard lines.hasBreak else { return "cut short: its last line is missing" }
        // Another signature: the file was written anew since the share read it first.
        guard signature == run.digest else { return "changed since the build first read it; run the census again" }
        guard signature == lines.digest else { return "changed since nestegg wrote it (its SHA-256 is not the one it was written with)" }
        guard lines.next() == nil else { return lines.failure.map { "cannot read it again: \($0)" } ?? "changed since nestegg wrote it (a line after its last)" }
        return nil
    }

    private func stop(_ reason: String) -> SpendingItem? {
        problem = reason
        done = true
        return nil
    }
}
