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
            let staged = try Build.writeError { () throws(SiteWriter.WriteError) in try StagedFile.stage(record.text, at: options.output) }
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

/// One census file, lines of ``FieldLine`` fields in two parts, each signed by its last line so
/// that a file cut short or changed is not taken for the one nestegg wrote:
/// - the head: which data it is of (the nestegg version, the digest of every file but the feeds),
///   which share, and per feed of that share what ``KnownFeed`` holds, its digest, and an account's
///   ``AccountFigures``; then the totals of its accounts' rows of the spending list, as one sum
///   (``SpendingTotals``); last the `head` line: how many feeds and rows the file holds, how many
///   bytes follow the line, and the SHA-256 of the lines before it;
/// - the run of rows, newest first (``SpendingLists``), and the `end` line: the SHA-256 of the
///   `head` line and the rows, so that it signs the whole file.
///
/// A share reads every census file's head first, which is a few KB an account, and stops at its
/// `head` line, having checked the file's size against it; it reads the runs once, from there,
/// when it fills its pages of the transactions lists (``CensusRun``). The rows are nineteen
/// twentieths of the file, so they are read once: the head alone checks the file's signature.
/// (A share that renders no list page reads no run: a run changed but not cut short is found by
/// the shares that read it, and the pages of one that does not depend on its head alone.)
struct CensusRecord: Sendable {
    static let format = "nestegg-census 3"

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

    let version: String
    let rest: String
    let shard: Shard
    let accounts: [Account]
    let goals: [Goal]
    /// How many rows its run holds (read from a file).
    var rows = 0
    /// Its `head` line and where it starts: where a share reads the run from (read from a file).
    var head = Head(line: "", offset: 0)

    /// A census file's `head` line and where it starts, in bytes from the start of the file.
    struct Head: Sendable {
        let line: String
        let offset: Int64
    }
    /// The totals of its accounts' rows (read from a file; written from the figures).
    var totals = SpendingTotals()

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

    var text: String {
        var lines = [Self.format, "nestegg " + version, rest, "\(shard.index) \(shard.count)"]
        for entry in accounts {
            lines.append(FieldLine.join(["account", entry.account.uid, Self.text(entry.known.latest), entry.digest ?? ""]))
            lines += entry.known.notes.map { FieldLine.join(["note"] + Self.fields($0)) }
            lines += (entry.figures?.records ?? []).map(FieldLine.join)
        }
        for entry in goals {
            lines.append(FieldLine.join(["goal", String(entry.id), Self.text(entry.known.latest), entry.digest]))
            lines += entry.known.notes.map { FieldLine.join(["note"] + Self.fields($0)) }
            lines += entry.known.references.map { FieldLine.join(["ref"] + Self.fields($0)) }
        }
        // The accounts' rows of the spending list: their totals, then the rows, newest first (``TransactionsRules/newestFirst(_:_:)``).
        let rows = accounts.flatMap { entry in (entry.figures?.spending ?? []).map { (entry.account.uid, $0) } }
        var totals = self.totals
        for (_, row) in rows { totals.add(row) }
        lines.append("totals")
        lines += totals.records.map(FieldLine.join)
        let order = rows.indices.sorted { TransactionsRules.newestFirst(rows[$0].1, rows[$1].1) }
        let run = order.map { FieldLine.join(rows[$0].1.record(account: rows[$0].0)) + "\n" }.joined()
        return Self.signed(head: lines.joined(separator: "\n") + "\n", run: run, accounts: accounts.count, goals: goals.count, rows: rows.count)
    }

    /// The head's lines and the run's (each line with its break), each part signed (``CensusRecord``).
    static func signed(head: String, run: String, accounts: Int, goals: Int, rows: Int) -> String {
        let following = run.utf8.count + endLineLength
        let headLine = FieldLine.join(["head", String(accounts), String(goals), String(rows), String(following),
                                       Text.hex(SHA256.hash(data: Array(head.utf8)))]) + "\n"
        var signed = SHA256()
        signed.update(data: Array(headLine.utf8))
        signed.update(data: Array(run.utf8))
        return head + headLine + run + FieldLine.join(["end", Text.hex(signed.finalize())]) + "\n"
    }

    /// ``signed(head:run:accounts:goals:rows:)`` of lines as a hand-made file could have them: the
    /// head is every line before the first row (a line that starts `r` and a tab), the run the rest.
    static func signed(body: String, accounts: Int, goals: Int, rows: Int = 0) -> String {
        var lineStart = body.utf8.startIndex
        while lineStart < body.utf8.endIndex, !body[lineStart...].isRowOfTheSpendingList {
            guard let lineBreak = body.utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else { lineStart = body.utf8.endIndex; break }
            lineStart = body.utf8.index(after: lineBreak)
        }
        return signed(head: String(body[..<lineStart]), run: String(body[lineStart...]), accounts: accounts, goals: goals, rows: rows)
    }

    /// The fields of a census's `head` line: the counts, how many bytes follow it (the rows and the
    /// `end` line) and the SHA-256 of the lines before it.
    static func head(_ line: Substring) -> (accounts: Substring, goals: Substring, rows: Int, following: Int64, signature: Substring)? {
        let fields = FieldLine.fields(line)
        // As many rows as the bytes that follow can hold, each a line of eleven fields: a count no
        // file bears out is refused here, before the lists are laid out for it.
        guard fields.count == 6, fields[0] == "head", let rows = Int(fields[3]), rows >= 0,
              let following = Int64(fields[4]), (Int64(endLineLength)...Int64(1) << 56).contains(following),
              Int64(rows) <= (following - Int64(endLineLength)) / Int64(shortestRow) else { return nil }
        return (fields[1], fields[2], rows, following, fields[5])
    }

    /// The shortest a row's line can be, its break included: its tag, ten tabs, an amount, a
    /// currency, a date and the pending flag of a character or three each (``SpendingItem/record(account:)``).
    static let shortestRow = "r".utf8.count + 10 + 1 + 3 + 1 + 1 + 1

    /// The `end` line's length, its break included: its tag and a SHA-256 in hexadecimal.
    static let endLineLength = "end\t".utf8.count + 64 + 1

    /// Whether the line is a census's `head` line (``head(_:)``), by its tag.
    static func isHead(_ line: Substring) -> Bool { line.utf8.starts(with: "head\t".utf8) }

    /// The SHA-256 an `end` line gives of the `head` line and the rows; `nil` if it is not one.
    static func end(_ line: Substring) -> Substring? {
        let fields = FieldLine.fields(line)
        return fields.count == 2 && fields[0] == "end" ? fields[1] : nil
    }


    static func text(_ instant: Instant?) -> String { instant.map { String($0.millisecondsSinceEpoch) } ?? "" }

    /// A diagnostic's fields; an absent value is empty, a present one starts with `=`.
    static func fields(_ diagnostic: Diagnostic) -> [String] {
        [diagnostic.severity.rawValue, diagnostic.file, diagnostic.line.map { "=\($0)" } ?? "", diagnostic.column.map { "=\($0)" } ?? "",
         diagnostic.path.map { "=" + $0 } ?? "", String(diagnostic.count), diagnostic.message]
    }

    static func diagnostic(_ fields: ArraySlice<String>) -> Diagnostic? {
        let fields = Array(fields)
        guard fields.count == 7, let severity = Diagnostic.Severity(rawValue: fields[0]), let count = Int(fields[5]), (1...1 << 32).contains(count) else { return nil }
        func optional(_ text: String) -> String?? { text.isEmpty ? .some(nil) : text.hasPrefix("=") ? .some(String(text.dropFirst())) : nil }
        guard let line = optional(fields[2]), let column = optional(fields[3]), let path = optional(fields[4]) else { return nil }
        guard line == nil || Int(line!) != nil, column == nil || Int(column!) != nil else { return nil }
        var diagnostic = Diagnostic(severity, file: fields[1], line: line.flatMap { Int($0) }, column: column.flatMap { Int($0) }, path: path,
                                    message: fields[6])
        diagnostic.count = count
        return diagnostic
    }

    /// Reads a census file; `accounts` names the data's Starling accounts by UID (an account's
    /// figures are read with its currency and name), and `figuresOf` says whose figures to read
    /// (not those of a share's own accounts, which it works out from their feeds).
    /// - Returns: the record, or why it is not one.
    static func read(_ text: String, accounts: [String: StarlingAccount],
                     figuresOf: (String) -> Bool = { _ in true }) -> Result<CensusRecord, ShardError> {
        read(CensusLines(text: text), accounts: accounts, figuresOf: figuresOf)
    }

    /// ``read(_:accounts:figuresOf:)`` from a file's lines, read one at a time (``CensusLines``):
    /// its head only, to its `head` line, which must sign it; only the figures asked for are held.
    static func read(_ lines: CensusLines, accounts: [String: StarlingAccount],
                     figuresOf: (String) -> Bool = { _ in true }) -> Result<CensusRecord, ShardError> {
        // The `head` line signs the lines before it: a file that is not the one nestegg wrote is
        // refused as such, whatever line gave out first.
        func signatureProblem(at line: Substring?) -> String? {
            var line = line
            while let read = line, !isHead(read) { line = lines.next() }
            if let failure = lines.failure { return failure }
            guard let line, lines.hasBreak else { return "cut short: its head's last line is missing" }
            guard let head = head(line) else { return "its head's last line is not a census's" }
            return head.signature == lines.digest ? nil : "changed since nestegg wrote it (its SHA-256 is not the one it was written with)"
        }
        var line = lines.next()
        func fail(_ reason: String) -> Result<CensusRecord, ShardError> { .failure(ShardError(signatureProblem(at: line) ?? reason)) }
        func nextLine() -> Substring? {
            line = lines.next()
            return line.flatMap { isHead($0) ? nil : $0 }
        }
        // A file that is no census at all (empty, or another file named like one) is named so.
        guard let first = line, first.hasPrefix("nestegg-census") else {
            return .failure(ShardError(lines.failure ?? (line == nil ? "empty: not a census" : "not a census: its first line is not a census's")))
        }
        guard line == Substring(format) else {
            // Another format's census (a whole first line, its number another) is not read
            // further: its signature is another format's too.
            if let line, lines.hasBreak, line.hasPrefix("nestegg-census "), case let number = line.dropFirst("nestegg-census ".count),
               (1...9).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return .failure(ShardError("a census of another format (\(line), where this nestegg reads \(format)); run nestegg census again"))
            }
            return fail("not a census this nestegg wrote")
        }
        guard let version = nextLine(), version.hasPrefix("nestegg "), let rest = nextLine(),
              let numbers = nextLine()?.split(separator: " ").compactMap({ Int($0) }), numbers.count == 2,
              let shard = Shard(index: numbers[0], count: numbers[1]) else { return fail("its head is not a census's") }
        var starling: [Account] = []
        var goals: [Goal] = []
        // The feed being read: an account (its figures' records gathered) or a goal.
        var account: (StarlingAccount, Instant?, String?, notes: [Diagnostic], records: [Substring], wanted: Bool)?
        var goal: (Int, Instant?, String, notes: [Diagnostic], references: [Diagnostic])?
        func instant(_ text: String) -> Instant?? {
            if text.isEmpty { return .some(nil) }
            guard let value = Int64(text), AccountFigures.instants.contains(value) else { return nil }
            return .some(Instant(millisecondsSinceEpoch: value))
        }
        func finish() -> String? {
            if let (data, latest, digest, notes, records, wanted) = account {
                let figures = wanted ? AccountFigures(lines: records, account: data) : nil
                guard figures != nil || !wanted else { return "the figures of account \(data.uid) cannot be read" }
                starling.append(Account(account: data, known: KnownFeed(latest: latest, notes: notes), digest: digest, figures: figures))
            }
            if let (id, latest, digest, notes, references) = goal {
                goals.append(Goal(id: id, known: KnownFeed(latest: latest, notes: notes, references: references), digest: digest))
            }
            account = nil
            goal = nil
            return nil
        }
        var number = 4
        let figureTags: Set<Substring> = ["w", "b", "m"]
        // After the feeds, the totals of the rows (`totals`, then their records), then the `head` line.
        var totals: SpendingTotals?
        while let line = nextLine() {
            number += 1
            if line == "totals", totals == nil {
                if let problem = finish() { return fail(problem) }
                totals = SpendingTotals()
                continue
            }
            if totals != nil {
                guard totals!.read(FieldLine.fields(line)) else {
                    return fail("line \(number): not a record of the spending list's totals")
                }
                continue
            }
            // An account's figures are kept as lines, read by AccountFigures; those nobody asked
            // for are passed over unread (the file's digest vouches for them).
            if figureTags.contains(line.prefix { $0 != "\t" }) {
                guard account != nil else { return fail("line \(number): not a census line") }
                if account!.wanted { account!.records.append(line) }
                continue
            }
            let fields = FieldLine.split(line)
            switch fields.first {
            case "account" where fields.count == 4:
                if let problem = finish() { return fail(problem) }
                guard let data = accounts[fields[1]] else { return fail("line \(number): account \(fields[1]) is not in starling/accounts.json") }
                guard let latest = instant(fields[2]) else { return fail("line \(number): not a time: \(fields[2])") }
                account = (data, latest, fields[3].isEmpty ? nil : fields[3], [], [], figuresOf(data.uid))
            case "goal" where fields.count == 4:
                if let problem = finish() { return fail(problem) }
                guard let id = Int(fields[1]), let latest = instant(fields[2]), !fields[3].isEmpty else { return fail("line \(number): not a goal's feed") }
                goal = (id, latest, fields[3], [], [])
            case "note":
                guard let diagnostic = diagnostic(fields.dropFirst()), account != nil || goal != nil else { return fail("line \(number): not a note") }
                if account != nil { account!.notes.append(diagnostic) } else { goal!.notes.append(diagnostic) }
            case "ref":
                guard let diagnostic = diagnostic(fields.dropFirst()), goal != nil else { return fail("line \(number): not a goal's note") }
                goal!.references.append(diagnostic)

            default:
                return fail("line \(number): not a census line")
            }
        }
        if let problem = finish() { return fail(problem) }
        if let problem = signatureProblem(at: line) { return .failure(ShardError(problem)) }
        guard let headLine = line, let head = head(headLine), head.accounts == String(starling.count), head.goals == String(goals.count) else {
            return fail("it does not hold what its head's last line says")
        }
        // The run is read later, and only by a share that renders list pages: a file cut short
        // (or added to) is found now, by its size.
        let size = lines.offset + Int64(headLine.utf8.count + 1) + head.following
        if let actual = lines.size, actual != size {
            return .failure(ShardError(actual < size ? "cut short: \(actual) bytes where its head says \(size)"
                                                     : "changed since nestegg wrote it: \(actual) bytes where its head says \(size)"))
        }
        guard let totals else { return fail("the totals of its spending list are missing") }
        // Its totals count its rows: what a share lays out from them is the rows it will read.
        guard let counted = totals.checkedCount, counted == head.rows else {
            return fail("its spending totals count \(totals.checkedCount.map(String.init) ?? "more") rows where it holds \(head.rows)")
        }
        var record = CensusRecord(version: String(version.dropFirst("nestegg ".count)), rest: String(rest), shard: shard,
                                  accounts: starling, goals: goals)
        record.rows = head.rows
        record.head = Head(line: String(headLine), offset: lines.offset)
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
    /// Each file's run of rows: its path, its `head` line and where that starts, how many rows it
    /// holds and their totals.
    var runs: [(path: String, head: CensusRecord.Head, rows: Int, totals: SpendingTotals)] = []
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
            CensusRecord.read(CensusLines(path: folder.path + "/" + names[index]), accounts: byUID, figuresOf: figuresOf)
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
        census.runs = read.map { ($0.0, $0.1.head, $0.1.rows, $0.1.totals) }
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
        let runs = runs.map { CensusRun(path: $0.path, head: $0.head, rows: $0.rows, totals: $0.totals, accountNames: accountNames) }
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

/// A census file's run of rows, read a line at a time (``SpendingItem/init(record:accountName:category:)``)
/// from its `head` line, which must be the one the share read first: at its end, the `end` line
/// must sign the `head` line and the rows, and the rows be as many as it says and add up to its
/// totals. A problem ends the run and is kept in ``problem``.
final class CensusRun: IteratorProtocol {
    let path: String
    private let head: CensusRecord.Head
    private let expected: Int
    private let totals: SpendingTotals
    /// The rows' totals, added up as they are read.
    private var read = SpendingTotals()
    private let accountNames: [String: String]
    /// Opened at the first row asked for: a share that keeps no list page opens none.
    private lazy var lines = open()
    private let open: () -> CensusLines
    /// Whether the `head` line was read, and is the one the share read first.
    private var atRows = false
    private var count = 0
    private var done = false
    private(set) var problem: String?
    /// One category a spelling (by its key's, then its name's field), as rows worked out from a
    /// feed share theirs; looked up by the fields as they stand, without a string made for each row.
    private var categories: [Substring: [Substring: SpendingCategory]] = [:]
    /// The accounts' names by their UID's field as it stands in a row, likewise.
    private var names: [Substring: String] = [:]

    /// `text`: the file's text, to read instead of the file at `path` (for the fuzz target).
    init(path: String, head: CensusRecord.Head, rows: Int, totals: SpendingTotals, accountNames: [String: String],
         text: String? = nil) {
        self.path = path
        self.head = head
        open = { text.map { CensusLines(text: $0, from: head.offset) } ?? CensusLines(path: path, from: head.offset) }
        self.expected = rows
        self.totals = totals
        self.accountNames = accountNames
    }

    /// The category of a row's key and name fields, one for each spelling.
    private func category(_ key: Substring, _ name: Substring) -> SpendingCategory {
        if let known = categories[key]?[name] { return known }
        let category = SpendingCategory(key: FieldLine.unescaped(key), name: FieldLine.unescaped(name))
        categories[key, default: [:]][name] = category
        return category
    }

    /// The name of the account whose UID's field is `uid`; `nil` for an account the data does not have.
    private func accountName(_ uid: Substring) -> String? {
        if let known = names[uid] { return known }
        let name = accountNames[FieldLine.unescaped(uid)]
        if let name { names[uid] = name }
        return name
    }

    func next() -> SpendingItem? {
        guard !done else { return nil }
        if !atRows {
            guard lines.next() == head.line[...] else {
                return stop(lines.failure.map { "cannot read it again: \($0)" } ?? "changed since the build first read it; run the census again")
            }
            atRows = true
        }
        guard let line = lines.next() else {
            return stop(lines.failure.map { "cannot read it again: \($0)" } ?? "cut short: its last line is missing")
        }
        if line.isRowOfTheSpendingList {
            let record = FieldLine.fields(line)
            guard record.count > 1, let name = accountName(record[1]),
                  let item = SpendingItem(record: record, accountName: name, category: category) else {
                return stop(signatureProblem(from: line) ?? "row \(count + 1) of its spending list is not one")
            }
            count += 1
            read.add(item)
            return item
        }
        if let problem = signatureProblem(from: line) { return stop(problem) }
        guard CensusRecord.end(line) != nil else { return stop("row \(count + 1) of its spending list is not one") }
        if count != expected { return stop("holds \(count) rows of the spending list where its head says \(expected)") }
        if read != totals { return stop("its rows of the spending list do not add up to its totals") }
        done = true
        return nil
    }

    /// Why the run is not the one nestegg wrote, read on from `line` to its `end` line: a run
    /// damaged (cut short, changed) is named as such, before any row of it that does not read.
    private func signatureProblem(from line: Substring) -> String? {
        var line: Substring? = line
        while let read = line, CensusRecord.end(read) == nil { line = lines.next() }
        if let failure = lines.failure { return "cannot read it again: \(failure)" }
        guard let line, let signature = CensusRecord.end(line) else { return "cut short: its last line is missing" }
        guard lines.hasBreak, signature == lines.digest else { return "changed since nestegg wrote it (its SHA-256 is not the one it was written with)" }
        guard lines.next() == nil else { return lines.failure.map { "cannot read it again: \($0)" } ?? "changed since nestegg wrote it (a line after its last)" }
        return nil
    }

    private func stop(_ reason: String) -> SpendingItem? {
        problem = reason
        done = true
        return nil
    }
}

/// A census's lines, read one at a time from a file (or a text) and hashed as they go: a census
/// of a thousand accounts has millions of lines, and a share reads every census file, so none is
/// held whole. ``next()`` gives each line without its break; ``digest`` is then the SHA-256 of
/// the bytes of the lines before it (since the start of the reading), so a line that signs the
/// lines before it (a census's `head` and `end` lines: ``CensusRecord``) is checked as it is read.
final class CensusLines {
    private var file: UnsafeMutablePointer<FILE>?
    private var text: Substring.UTF8View?
    /// `getline`'s buffer, kept from line to line.
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// The line ``next()`` gave last, not hashed yet. `raw`: its bytes as read, where they are not
    /// UTF-8 (the line is their repair, and they are what is hashed).
    private var current: (line: String, hasBreak: Bool, raw: [UInt8]?)?
    private var hasher = SHA256()
    /// Where the line ``next()`` gave last starts, in bytes from the start of the file (or text).
    private(set) var offset: Int64
    /// Whether the line ``next()`` gave last ended with a line break (a file's last may not).
    var hasBreak: Bool { current?.hasBreak ?? false }
    /// Why the file could not be read, if it could not.
    private(set) var failure: String?
    /// How many bytes the file (or text) holds, from its start; `nil` if that cannot be told.
    private(set) var size: Int64?

    /// Only a regular file is read (``FileBytes/openRegular(_:)``: a FIFO named `*.census` hung a
    /// share), from `offset` bytes in.
    init(path: String, from offset: Int64 = 0) {
        self.offset = offset
        switch FileBytes.openRegular(path) {
        case .success(let (descriptor, status)):
            size = Int64(status.st_size)
            file = fdopen(descriptor, "rb")
            if file == nil {
                failure = "cannot read it: \(systemReason(errno))"
                close(descriptor)
            } else if offset > 0, fseeko(file, off_t(offset), SEEK_SET) != 0 {
                failure = "cannot read it: \(systemReason(errno))"
            }
        case .failure(let reading):
            failure = "cannot read it: \(reading.reason)"
        }
    }

    init(text: String, from offset: Int64 = 0) {
        self.offset = offset
        self.text = text.utf8.dropFirst(Int(offset))
        size = Int64(text.utf8.count)
    }

    deinit {
        if let file { fclose(file) }
        free(buffer)
    }

    /// The next line, without its break; `nil` at the end (or at a ``failure``).
    func next() -> Substring? {
        if let (line, hasBreak, raw) = current {
            // The bytes as read: the line's own where they were UTF-8 (one string a line; its
            // bytes are copied once more, into the chunk to hash).
            if let raw {
                unhashed += raw
            } else {
                var bytes = line
                bytes.withUTF8 { unhashed += $0 }
                if hasBreak { unhashed.append(UInt8(ascii: "\n")) }
            }
            offset += Int64(raw?.count ?? line.utf8.count + (hasBreak ? 1 : 0))
            if unhashed.count >= 1 << 16 { hashUnhashed() }
        }
        current = read()
        return current?.line[...]
    }

    /// The SHA-256 of the lines before the one ``next()`` gave last, in hexadecimal.
    var digest: String {
        hashUnhashed()
        return Text.hex(hasher.finalize())
    }

    /// The bytes not hashed yet: hashed 64 KiB at a time, as a line at a time cost more than the
    /// hashing itself (a census has millions of short lines).
    private var unhashed: [UInt8] = []

    private func hashUnhashed() {
        hasher.update(data: unhashed)
        unhashed.removeAll(keepingCapacity: true)
    }

    /// The next line as read, without its break; `nil` at the end.
    private func read() -> (line: String, hasBreak: Bool, raw: [UInt8]?)? {
        if let rest = text {
            guard !rest.isEmpty else { return nil }
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let line = String(Substring(rest[..<(newline ?? rest.endIndex)]))
            text = newline.map { rest[rest.index(after: $0)...] } ?? rest[rest.endIndex...]
            return (line, newline != nil, nil)
        }
        guard failure == nil, let file else { return nil }
        let length = getline(&buffer, &capacity, file)
        guard length > 0, let buffer else {
            if ferror(file) != 0 { failure = "cannot read it: \(systemReason(errno))" }
            fclose(file)
            self.file = nil
            return nil
        }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length)
        let hasBreak = bytes.last == UInt8(ascii: "\n")
        let body = UnsafeBufferPointer(rebasing: bytes[..<(hasBreak ? length - 1 : length)])
        if let line = String(validating: body, as: UTF8.self) { return (line, hasBreak, nil) }
        return (String(decoding: body, as: UTF8.self), hasBreak, Array(bytes))
    }
}

extension Substring {
    /// Whether the census line is a row of the spending list (`r` and a tab), by its bytes:
    /// `hasPrefix(_:)` goes the generic way, which a million rows felt.
    var isRowOfTheSpendingList: Bool {
        let bytes = utf8
        guard bytes.first == UInt8(ascii: "r") else { return false }
        let second = bytes.index(after: bytes.startIndex)
        return second < bytes.endIndex && bytes[second] == UInt8(ascii: "\t")
    }
}
