import Crypto
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggSupport
import NestEggWrite


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
        problems += Shard.problems(of: read.map { ($0.0, $0.1.shard) }, differs: { place in
            let (record, first) = (read[place].1, read[0].1)
            return record.version != NestEggVersion.current ? "made by nestegg \(record.version), not \(NestEggVersion.current)"
                : record.rest != first.rest ? "made from other data than \(read[0].0)" : nil
        }, missing: { share in
            Diagnostic(.error, file: folder.path, message: "the census of share \(share) is missing (\(read.count) of \(share.count) files)")
        })
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
