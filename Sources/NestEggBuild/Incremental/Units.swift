import Synchronization
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite

/// A plain build's units (issue 31): each bank account is one. Every build that keeps a cache
/// leaves, beside it, each account's summary as a census of that account alone (``CensusRecord``:
/// its feed's latest time, notes and digest, its ``AccountFigures`` and its rows of the
/// transactions lists), and records in the cache (``BuildCache/Unit``) the digests of the
/// account's files, its pages and their files, and its statements' manifest entries.
///
/// A rebuild whose input differs from the last build's in some accounts' files only (the same
/// `nestegg`, templates, settings and every other file; ``plan(previous:digests:tool:folder:summaries:)``)
/// takes the path of a share of a sharded build with a census: it parses the changed accounts'
/// feeds only, holds every other account as its summary, fills the lists from the summaries' rows
/// and the changed accounts' new ones, renders the site-wide pages and the changed accounts' own,
/// and keeps the other accounts' files as the last build wrote them. Anything that does not fit
/// (a summary missing or changed, a kept file changed, budgets to check against every feed) makes
/// it a full build: never a wrong site.
enum Units {
    /// An account's summary file in `folder`, named by the SHA-256 of its UID (``fileName(of:)``).
    static func file(of uid: String, in folder: URL) -> URL { folder.appendingPathComponent(fileName(of: uid)) }

    /// The name of an account's summary file: the SHA-256 of its UID in hex, not the UID itself,
    /// which is the data's text and may hold `/` and `..` (a UID `../../x` wrote `x.census` two
    /// folders above the summaries), a name too long for the disk, or bytes it refuses.
    static func fileName(of uid: String) -> String {
        var hash = InputHash()
        hash.add(uid)
        return hash.hex + "." + Census.fileExtension
    }

    /// An account the rebuild holds as its summary: the census of it alone as read (figures,
    /// notes, where its rows start), the file, and what the last build recorded of it.
    struct Held: Sendable {
        let record: CensusRecord
        let path: String
        let unit: BuildCache.Unit

        var known: KnownFeed { record.accounts[0].known }

        /// Its figures, with its feed's latest time (for the data's as-of date).
        var figures: AccountFigures {
            var figures = record.accounts[0].figures!
            figures.latest = known.latest
            return figures
        }
    }

    /// What a rebuild maps and what it holds, by UID.
    struct Plan: Sendable {
        let held: [String: Held]
        let changed: Set<String>
    }

    /// The rebuild's plan, or `nil` for a full build: the last build recorded units with the same
    /// `nestegg`, templates and listing problems, and every data file that differs from the last
    /// build's (added, removed or changed) is one of some accounts' own files; every other
    /// account's summary is there, whole, and the one the cache names.
    static func plan(previous: BuildCache, digests: DataDigests, tool: String, folder: DataFolder, summaries: URL) -> Plan? {
        guard previous.tool == tool, !previous.units.isEmpty, previous.problems == digests.problems,
              previous.changes != nil else { return nil }
        var changedPaths: [String] = []
        for (path, digest) in digests.byPath where previous.inputs[path] != digest { changedPaths.append(path) }
        for path in previous.inputs.keys where digests.byPath[path] == nil { changedPaths.append(path) }
        guard !changedPaths.isEmpty else { return nil }
        var owner: [String: String] = [:]
        for (uid, unit) in previous.units { for path in unit.sources.keys { owner[path] = uid } }
        var changed: Set<String> = []
        for path in changedPaths {
            guard let uid = owner[path] else { return nil }
            changed.insert(uid)
        }
        guard changed.count < previous.units.count else { return nil }
        let scratch = DiagnosticLog()
        guard folder.contains("starling/accounts.json"),
              let accounts = folder.document("starling/accounts.json", log: scratch).map(StarlingLoader.accounts(in:)),
              !scratch.hasErrors else { return nil }
        let byUID = Dictionary(accounts.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        guard Set(byUID.keys) == Set(previous.units.keys) else { return nil }
        let uids = previous.units.keys.filter { !changed.contains($0) }.sorted()
        let read = Concurrently.map(uids.count) { index -> Held? in
            let uid = uids[index]
            guard let unit = previous.units[uid],
                  unit.sources.allSatisfy({ (digests.byPath[$0.key] ?? "-") == $0.value }) else { return nil }
            let path = file(of: uid, in: summaries).path
            guard case .success(let record) = CensusRecord.read(RecordFile.Lines(path: path), accounts: byUID),
                  record.run.digest == unit.summary, record.accounts.count == 1, record.goals.isEmpty,
                  record.accounts[0].account.uid == uid, record.accounts[0].figures != nil else { return nil }
            return Held(record: record, path: path, unit: unit)
        }
        var held: [String: Held] = [:]
        for (uid, entry) in zip(uids, read) {
            guard let entry else { return nil }
            held[uid] = entry
        }
        return Plan(held: held, changed: changed)
    }

    /// The load's feed readers: a held account's feed is not read (its notes are its summary's);
    /// every other one is read with a log of its own, whose notes its summary keeps (``notes``).
    final class Feeds: Sendable {
        private let state = Mutex([String: [Diagnostic]]())
        let held: [String: Held]

        init(held: [String: Held]) { self.held = held }

        /// The notes of each feed read, by UID.
        var notes: [String: [Diagnostic]] { state.withLock { $0 } }

        var readers: FeedReaders {
            FeedReaders(starling: { [self] account, folder, log in
                let path = StarlingLoader.feedPath(of: account)
                if let held = held[account.uid] {
                    if folder.contains(path) { folder.claim(path) }
                    log.absorb(held.known.notes)
                    return []
                }
                let feedLog = DiagnosticLog()
                let items = StarlingLoader.feed(of: account, in: folder, log: feedLog)
                let notes = feedLog.diagnostics
                log.absorb(notes)
                state.withLock { $0[account.uid] = notes }
                return items
            }, qapital: FeedReaders.files.qapital, readsEveryFeed: held.isEmpty)
        }
    }

    /// An account mapped by this build: where its summary is staged, the census of it read back
    /// (where its rows start, their totals, its signature), and its figures, which the reduce reads.
    struct Mapped: Sendable {
        let uid: String
        /// The staged summary's path (``NestEggWrite/StagedFile/stagedPath``), from which the lists read its rows.
        let path: String
        /// Where it is staged for.
        let destination: URL
        let record: CensusRecord
        let figures: AccountFigures
    }

    /// The map's summaries, each staged beside the cache as soon as it is made, so that no
    /// summary's text is held in memory while the rest of the build runs; committed with the site
    /// (``Build/commit(_:bundles:with:)``), or discarded with the rest of the build, or removed by
    /// a signal that stops it (``NestEggSupport/Termination``).
    struct Staged {
        let mapped: [Mapped]
        let files: [StagedFile]
        /// The list beside the output that names their destinations, for the next build to clean after a kill.
        let beside: BesideList
        /// The folders this build made for the summaries (their folder, and the folder of state
        /// that holds it when that was not there either), innermost first.
        let madeFolders: [URL]
        /// The outermost folder this build made, removed whole if a signal stops the build (each
        /// staged file, and the list, removes itself).
        let folderStop: Termination.Registration?

        /// A step failed: they go, with the folders this build made.
        func discard() {
            files.forEach { $0.discard() }
            madeFolders.forEach { rmdir($0.path) }
        }

        /// The build is over before the staging took them over: the list and the registration go.
        func end() {
            beside.end()
            folderStop?.end()
        }
    }

    /// The folders that making `folder` makes: it and those of its parents that are not there, innermost first.
    static func foldersToMake(for folder: URL) -> [URL] {
        Array(sequence(first: folder) { $0.deletingLastPathComponent() }.prefix { !FileManager.default.fileExists(atPath: $0.path) })
    }

    /// The summaries of the accounts this build read (`accounts`), worked out on every core and
    /// each staged at once in `folder` (made if it is not there), listed in `beside` first.
    /// - Returns: `nil` when a summary does not read back (the build then keeps none, and the
    ///   caller ends the list).
    static func summaries(of accounts: [AccountData], notes: [String: [Diagnostic]], digests: DataDigests,
                          settings: Settings, in folder: URL, beside: BesideList) throws(SiteWriter.WriteError) -> Staged? {
        let madeFolders = foldersToMake(for: folder)
        // The folders this build makes are removed whole on a stop (registered before they are there).
        let folderStop = madeFolders.last.map { Termination.removeOnStop($0.path) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            folderStop?.end()
            throw SiteWriter.WriteError(path: folder.path, reason: "cannot make the folder of the accounts' summaries: \(error.localizedDescription)")
        }
        let destinations = accounts.map { file(of: $0.account.uid, in: folder) }
        do {
            try beside.list(destinations)
        } catch {
            folderStop?.end()
            madeFolders.forEach { rmdir($0.path) }
            throw error
        }
        // Each staged file holds two descriptors at most (its lock, and the previous file's at the
        // commit) until the commit, beside those the render opens.
        CensusSet.allowOpenFiles(2 * accounts.count + 64 + 8 * ProcessInfo.processInfo.activeProcessorCount)
        let context = ReportContext(settings: settings)
        typealias Made = (mapped: Mapped, file: StagedFile)
        let made = Concurrently.map(accounts.count) { index -> Result<Made, SiteWriter.WriteError>? in
            let data = accounts[index]
            let figures = AccountFigures(data, context: context)
            let account = CensusRecord.Account(account: data.account,
                                               known: KnownFeed(latest: data.latestFeedInstant, notes: notes[data.account.uid] ?? []),
                                               digest: digests.byPath[StarlingLoader.feedPath(of: data.account)],
                                               figures: figures)
            let file: StagedFile
            do throws(SiteWriter.WriteError) {
                file = try StagedFile.stage(CensusRecord(version: NestEggVersion.current, rest: "", shard: Shard(index: 0, count: 1)!,
                                                         accounts: [account], goals: []).text(),
                                            at: destinations[index], makingFolder: false)
            } catch {
                return .failure(error)
            }
            // Read back from the file, as the lists will read its rows (the text is not kept).
            let lines = RecordFile.Lines(path: file.stagedPath)
            guard case .success(let record) = CensusRecord.read(lines, accounts: [data.account.uid: data.account], figuresOf: { _ in false }) else {
                file.discard()
                // A file that cannot be read is a writing problem; one that does not read back, the build keeps no summaries.
                return lines.failure.map { .failure(SiteWriter.WriteError(path: destinations[index].path, reason: "cannot read it back: \($0)")) }
            }
            return .success((Mapped(uid: data.account.uid, path: file.stagedPath, destination: destinations[index], record: record, figures: figures), file))
        }
        let done = made.compactMap { try? $0?.get() }
        let staged = Staged(mapped: done.map(\.mapped), files: done.map(\.file), beside: beside, madeFolders: madeFolders,
                            folderStop: folderStop)
        if done.count == made.count { return staged }
        staged.discard()
        folderStop?.end()
        for case .failure(let error)? in made { throw error }
        return nil
    }

    /// Fills the transactions lists' pages `keeps` names from every account's rows: the held
    /// accounts' from their files, the mapped accounts' from their new summaries; without
    /// `toTheEnd`, read no further back than the oldest page kept (the held summaries were read
    /// whole, and checked, by ``plan(previous:digests:tool:folder:summaries:)``; read to their end,
    /// each is checked again). - Returns: what did not fit, or `nil`.
    static func fillRows(_ lists: SpendingLists, held: [Held], mapped: [Mapped], accountNames: [String: String],
                         keeps: (String) -> Bool = { _ in true }, toTheEnd: Bool = true) -> String? {
        CensusSet.allowOpenFiles(held.count + 3 * mapped.count + 64 + 8 * ProcessInfo.processInfo.activeProcessorCount)
        let runs = held.map { CensusRun(path: $0.path, run: $0.record.run, rows: $0.record.rows, totals: $0.record.totals, accountNames: accountNames) }
            + mapped.map { CensusRun(path: $0.path, run: $0.record.run, rows: $0.record.rows, totals: $0.record.totals, accountNames: accountNames) }
        let mismatch = lists.fill(runs.map { $0 as any IteratorProtocol<SpendingItem> }, keeps: keeps, toTheEnd: toTheEnd)
        if mismatch != nil { for run in runs { while run.next() != nil {} } }
        // A mapped account's summary is named by the file it is staged for, not the staged one.
        let names = held.map(\.path) + mapped.map { $0.destination.path }
        if let problem = zip(runs, names).lazy.compactMap({ run, name in run.problem.map { "\(name): \($0)" } }).first { return problem }
        return mismatch.map { "\($0)" }
    }

    /// How far back every account's rows of the transactions lists are the last build's: the held
    /// accounts' all of them; each mapped account's compared, from its oldest, with the rows of its
    /// last summary (still beside the cache): those before the month of the oldest row that
    /// differs. ``SettledRows/unknown`` when a last summary does not read.
    static func settledRows(mapped: [Mapped], in folder: URL, accounts: [String: StarlingAccount], previous: BuildCache) -> SettledRows {
        var settled = SettledRows.all
        for entry in mapped {
            // The last summary is the one the last cache names (not one another build left since).
            guard let account = accounts[entry.uid],
                  case .success(let old) = CensusRecord.read(RecordFile.Lines(path: file(of: entry.uid, in: folder).path),
                                                             accounts: [entry.uid: account], figuresOf: { _ in false }),
                  old.run.digest == previous.units[entry.uid]?.summary else { return .unknown }
            let before = rowLines(RecordFile.Lines(path: file(of: entry.uid, in: folder).path, from: old.run.mark))
            let after = rowLines(RecordFile.Lines(path: entry.path, from: entry.record.run.mark))
            // Newest first: the rows they end with alike are the oldest, and the same.
            var (a, b) = (before.endIndex, after.endIndex)
            while a > before.startIndex, b > after.startIndex, before[a - 1] == after[b - 1] { (a, b) = (a - 1, b - 1) }
            for line in [a > before.startIndex ? before[a - 1] : nil, b > after.startIndex ? after[b - 1] : nil].compactMap({ $0 }) {
                guard let row = try? JSONDecoder().decode(SpendingItem.StarlingRow.self, from: Data(line.utf8)),
                      let item = SpendingItem(row: row, accountName: "", category: SpendingCategory(key: row.category, name: row.categoryName))
                else { return .unknown }
                settled = settled.narrowed(to: CalendarMonth(item.date))
            }
        }
        return settled
    }

    /// A summary's rows of the transactions lists, each as its line: those from its rows' start to its signature.
    private static func rowLines(_ lines: RecordFile.Lines) -> [Substring] {
        var rows: [Substring] = []
        while let line = lines.next(), RecordFile.signature(line) == nil { rows.append(line) }
        return rows
    }

    /// Each entity page's files among `files` (the build's): its Markdown and HTML, a statement's
    /// other formats, its search chunk and its tables' CSVs (`tables`: ``TableCSV/filesByPage(among:)`` of the same files).
    static func files(of pages: [Page], among files: [String: FileStamp], tables: [String: [String]]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for page in pages {
            result[page.path] = (page.files() + (tables[page.path] ?? [])).filter { files[$0] != nil }
        }
        return result
    }

    /// Removes the summaries of accounts the data no longer has.
    static func removeOthers(in folder: URL, keeping uids: Set<String>) {
        let suffix = "." + Census.fileExtension
        let kept = Set(uids.map(fileName(of:)))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(suffix) && !kept.contains(name) {
            unlink(folder.path + "/" + name)
        }
    }
}
