import Crypto
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggSupport
import NestEggWrite


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
    static let format = "nestegg-census 7"

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
        return .success(CensusRecord(version: head.version, rest: head.rest, shard: shard, accounts: starling, goals: goals,
                                     rows: rows, run: Run(mark: mark, digest: signed), totals: totals))
    }
}
