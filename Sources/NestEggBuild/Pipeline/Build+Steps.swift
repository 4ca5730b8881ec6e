import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

// The steps of ``Build/run(_:)``, in the order the data flows: load → map → reduce → open →
// render → write → extras → commit. Each is a function of its own that takes the run and what
// the steps before it gave, and gives what the steps after it take. Only the steps from open on
// stage files (``BuildStaging``); nothing reaches the output before the commit.

/// One run of the build: what it is to do (``BuildPlan``), what it knows of the last build, and
/// whether it is a rebuild that maps the changed accounts only (``Units``). Every step reads it.
struct BuildRun {
    let plan: BuildPlan
    /// A plain build's cache work (``Incremental``); `nil` for a build that keeps no cache.
    let incremental: Incremental?
    /// The fingerprint of nestegg and its templates (``BuildCache/fingerprint(tool:)``).
    let tool: String
    /// With units: a rebuild that maps the changed accounts only, the others held as summaries.
    let units: Units.Plan?
}

/// What the load step gives: the data, and what the rest of the build needs of how it was read.
struct BuildInput {
    /// A share's census (`--census`), read for the data's accounts.
    let census: CensusSet?
    /// With a census: the data's digests, the census's standing for the feeds the share does not read.
    let shareDigests: DataDigests?
    /// The accounts a rebuild holds as the last build's summaries, by UID (empty without units).
    let held: [String: Units.Held]
    /// A build that keeps a cache: each feed read with a log of its own, for the account's summary.
    let unitFeeds: Units.Feeds?
    let dataset: Dataset
    /// The load's warnings, as the console shows them.
    let warnings: [Diagnostic]
    /// The same, as the data notes page shows them.
    let notes: [Diagnostic]
    /// What a share kept of the feeds it does not own.
    let feeds: ShareFeeds
}

/// What the reduce step gives: the site's report, and what the render takes from the last build's cache.
struct BuildReport {
    /// A plain build's keys, statement digests and page reuse (``Incremental/loaded(_:)``).
    let loaded: Incremental.Loaded?
    let site: Site
    /// The load's warnings and the report's (``NestEggReport/Site/reportNotes``), as the console shows them.
    let warnings: [Diagnostic]
}

/// What the build has staged, from the open step on: the steps after it write into it, the
/// commit swaps it in, and a step that fails discards it.
struct BuildStaging {
    let renderer: PageRenderer
    /// The single file, the summary and the JSON totals (`--single-file`, `--summary`, `--json`),
    /// rendered before anything is written, to be staged beside the output.
    let artifacts: [(URL, String)]
    /// The site, staged.
    let writer: SiteWriter
    /// The staging folders, which nestegg removes when a signal stops it before the swap (``Termination``).
    var stagedWork: [Termination.Registration]
    /// The transactions lists' rows, filled on a thread of their own beside the rendering (a
    /// census's runs, or every account's summary's); `nil` when the report holds them.
    let rows: Beside<BuildError?>?
    /// `--bundles`: the bundles folder, staged.
    var bundles: SiteWriter?
    /// The files staged beside the output (the artifacts, the cache, the accounts' summaries).
    var staged: [StagedFile] = []
    /// Their list beside the output (``BesideList``), for the next build to clean after a kill.
    var beside: BesideList?
    /// The accounts' summaries' folder, when this build made it.
    var madeSummaries: URL?

    /// A step failed: everything staged is let go, and nothing of the build is left behind.
    func discard() {
        // The rows' thread is done before the build ends.
        _ = rows?.value
        writer.discard()
        bundles?.discard()
        staged.forEach { $0.discard() }
        // A folder this build made for the summaries goes too (it is empty once they are discarded).
        if let madeSummaries { rmdir(madeSummaries.path) }
    }

    /// The build ends, whichever way: the list beside the output and the staging folders'
    /// registrations are let go.
    func end() {
        beside?.end()
        stagedWork.forEach { $0.end() }
    }
}

extension Build {
    /// Load: the census (a share's), the data folder read into a dataset (a rebuild's held
    /// accounts' feeds left unread), and the check that a rebuild's accounts are the last build's
    /// (else ``unitsFallback(_:)``). Takes the run; gives ``BuildInput``.
    func loadStep(_ run: BuildRun) throws(BuildError) -> BuildInput {
        let (folder, incremental, units) = (run.plan.folder, run.incremental, run.units)
        // A share with a census reads its own feeds only; the census's digests stand for the others'.
        let census = try readCensus(folder)
        let shareDigests = try census.map { census throws(BuildError) in try placing(folder) { () throws(BuildError) in
            try census.digests(of: folder, notOwn: { !ownsFeed($0) }) } }
        // A build that keeps a cache reads each feed with a log of its own, for the account's summary.
        let held = units?.held ?? [:]
        let unitFeeds = incremental == nil ? nil : Units.Feeds(held: held)
        // The budgets are checked against every account's spending categories: the held accounts' as recorded.
        let heldCodes = units.map { _ in Set(held.values.flatMap(\.unit.spendingCodes)) }
        let (dataset, warnings, notes, feeds) = try load(folder, census: census, readers: unitFeeds?.readers, spendingCodes: heldCodes)
        if let census { try placing(folder) { () throws(BuildError) in try census.checkAgain(folder, parsed: feeds.parsed, own: ownsFeed) } }
        if units != nil {
            guard Set(dataset.accounts.map(\.account.uid)) == Set(held.keys).union(units!.changed) else {
                throw Self.unitsFallback("the accounts are not the last build's")
            }
        }
        return BuildInput(census: census, shareDigests: shareDigests, held: held, unitFeeds: unitFeeds, dataset: dataset,
                          warnings: warnings, notes: notes, feeds: feeds)
    }

    /// Map: each account the load read (not held), summarised (``Units/summaries(of:notes:digests:settings:)``)
    /// for the next build and for this one's lists. Takes the run and the load's input; gives the
    /// summaries, or `nil` for a build that keeps no cache (or when they could not be made).
    func mapStep(_ run: BuildRun, _ input: BuildInput) -> [Units.Mapped]? {
        let (incremental, held, unitFeeds, dataset) = (run.incremental, input.held, input.unitFeeds, input.dataset)
        // Each account read here, summarised for the next build (and for this one's lists).
        let mapped = unitFeeds.flatMap { feeds in
            Units.summaries(of: dataset.accounts.filter { held[$0.account.uid] == nil }, notes: feeds.notes, digests: incremental!.digests,
                            settings: dataset.settings)
        }
        return mapped
    }

    /// Reduce: every account's figures and spending rows (a share's from its census or the feeds
    /// read again, a rebuild's held accounts' from their summaries, the others' from the data),
    /// the change snapshot, and the site's report from them (``SiteReport/build``); a rebuild that
    /// cannot hold its accounts after all stops here (``unitsFallback(_:)``). Takes the run, the
    /// load's input and the map's summaries; gives ``BuildReport``.
    func reduceStep(_ run: BuildRun, _ input: BuildInput, mapped: [Units.Mapped]?) throws(BuildError) -> BuildReport {
        let (incremental, units, folder, printer) = (run.incremental, run.units, run.plan.folder, run.plan.printer)
        let (census, held, dataset, notes, feeds) = (input.census, input.held, input.dataset, input.notes, input.feeds)
        // A rebuild knows how far back the accounts' rows are the last build's (the held ones' are).
        var settled = SettledRows.unknown
        if units != nil, let mapped, let previous = incremental?.previous {
            settled = Units.settledRows(mapped: mapped, in: Units.summariesFolder(for: options.cacheFile),
                                        accounts: Dictionary(dataset.accounts.map { ($0.account.uid, $0.account) }, uniquingKeysWith: { first, _ in first }),
                                        previous: previous)
        }
        let loaded = incremental?.loaded(dataset, settledRows: settled)
        // A census carries what every site-wide page needs of the accounts it holds; without one,
        // a share reads the other accounts' feeds again for it.
        let summarised = dataset.accounts.map(\.account.uid).filter { feeds.summarised[$0] != nil }
        var elsewhere = try figuresElsewhere(dataset, folder: folder, summarised: feeds.summarised,
                                            census: census.map { census throws(BuildError) in try census.figures(of: summarised, folder: options.data) })
        var spendingRows: SiteReport.SpendingRows = census.map { .runs($0.totals) } ?? .inMemory
        var snapshot: ChangeSnapshot?
        if units != nil {
            guard let mapped else { throw Self.unitsFallback("the changed accounts' summaries could not be made") }
            // Every account's rows are its summary's: the held accounts' as kept, the others' as made now.
            var totals = SpendingTotals()
            for uid in held.keys.sorted() {
                elsewhere[uid] = held[uid]!.figures
                totals.add(held[uid]!.record.totals)
            }
            for entry in mapped { totals.add(entry.record.totals) }
            spendingRows = .runs(totals)
            guard let previous = incremental?.previous?.changes, let whole = ChangeSnapshot(dataset, itemsOf: Array(held.keys), from: previous) else {
                throw Self.unitsFallback("the last build's snapshot does not hold every account")
            }
            snapshot = whole
        }
        // A share compares with nothing: its part is rebuilt whole, without a build cache.
        // The accounts mapped here are reduced from the figures the map worked out, not worked out again.
        let known = Dictionary((mapped ?? []).map { ($0.uid, $0.figures) }, uniquingKeysWith: { first, _ in first })
        var site = SiteReport.build(dataset, notes: notes, previous: incremental?.previous?.changes, memo: loaded?.memo,
                                    figures: elsewhere.merging(known, uniquingKeysWith: { held, _ in held }), elsewhere: Set(elsewhere.keys),
                                    rows: spendingRows, snapshot: snapshot)
        site.statementPDFs = printer != nil
        let heldEntities = Set(held.keys.map(Page.entity(ofStarlingAccount:)))
        if !heldEntities.isEmpty, site.pages.contains(where: { $0.entity.map(heldEntities.contains) ?? false }) {
            throw Self.unitsFallback("a held account has pages of its own in the report")
        }
        progress("report: \(site.pages.count) pages in \(site.sections.count) section\(site.sections.count == 1 ? "" : "s")")
        return BuildReport(loaded: loaded, site: site, warnings: input.warnings + placed(site.reportNotes, folder: folder))
    }

    /// Open: what is rendered before anything is written (a single file's rows, then the single
    /// file, the summary and the JSON totals), the staged site, and the transactions lists' rows
    /// started beside the rendering. Takes the run, the load's input, the report, the templates
    /// and the map's summaries; gives ``BuildStaging``.
    func openStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, templates: TemplateLibrary,
                  mapped: [Units.Mapped]?) throws(BuildError) -> BuildStaging {
        let (units, census, held, dataset, warnings, site) = (run.units, input.census, input.held, input.dataset, report.warnings, report.site)
        // With a census, the transactions lists' rows are its runs, merged: the share keeps its own
        // pages' rows only. The merge is one core's work, done beside the rendering of the pages that
        // show no row (``render(_:into:reuse:rows:)``); first, where a single file shows every page.
        let shard = options.shard
        let fillRows = { @Sendable (census: CensusSet, lists: SpendingLists) throws(BuildError) in
            try census.fillRows(lists, keeps: { path in shard?.owns(path) ?? true })
        }
        // (The command refuses --shard, which --census goes with, beside --single-file; a caller of
        // the library may not, and a single file renders every page.)
        if options.singleFile != nil, let census, let lists = site.spendingLists { try fillRows(census, lists) }
        let renderer = PageRenderer(templates: templates, site: site)
        let artifacts = try renderArtifacts(renderer, warnings: warnings)
        let writer = try openWriter()
        // Stopped by a signal before the swap, nestegg removes the staging folders (Termination).
        let stagedWork = [Termination.removeOnStop(Self.stagingFolder(of: writer))]
        let censusRows = options.singleFile != nil ? nil : census.flatMap { census in site.spendingLists.map { lists in
            Beside { () -> BuildError? in
                do throws(BuildError) { try fillRows(census, lists) } catch { return error }
                return nil
            }
        } }
        // With units, the lists' rows are every account's summary's, merged beside the rendering.
        let accountNames = Dictionary(dataset.accounts.map { ($0.account.uid, $0.account.name) }, uniquingKeysWith: { first, _ in first })
        let unitRows = units == nil ? nil : site.spendingLists.map { lists in
            // The older pages kept by their key need no rows: those older than the oldest page rendered are not read.
            let listPaths = Set(lists.paths)
            let unread = report.loaded?.reuse.keptByRows(site.pages.filter { listPaths.contains($0.path) }, renderer: renderer) ?? []
            return Beside { () -> BuildError? in
                Units.fillRows(lists, held: held.keys.sorted().map { held[$0]! }, mapped: mapped ?? [], accountNames: accountNames,
                               keeps: { !unread.contains($0) }, toTheEnd: unread.isEmpty)
                    .map { Self.unitsFallback("the summaries' rows do not fill the lists: \($0)") }
            }
        }
        let rows = censusRows ?? unitRows
        return BuildStaging(renderer: renderer, artifacts: artifacts, writer: writer, stagedWork: stagedWork, rows: rows)
    }

    /// Render: a rebuild's held accounts' files kept as the last build wrote them (else
    /// ``unitsFallback(_:)``), every other page rendered and written into the staged site (a plain
    /// site keeping those whose fingerprint is unchanged), and with `--pdf` each statement printed.
    /// Takes the run, the load's input, the report and the staging; gives the held accounts' pages' paths.
    func renderStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, _ staging: BuildStaging) throws(BuildError) -> [String] {
        let (incremental, units, printer, held, loaded, site) = (run.incremental, run.units, run.plan.printer, input.held, report.loaded, report.site)
        let (renderer, writer, rows) = (staging.renderer, staging.writer, staging.rows)
        var heldPages: [String] = []
        // The held accounts' files are kept as the last build wrote them, checked on every core
        // (``SiteWriter`` links them one at a time).
        if let previous = incremental?.previous, units != nil {
            let uids = held.keys.sorted()
            let unchanged = Concurrently.map(uids.count) { writer.reuse(held[uids[$0]]!.unit.files, expected: previous.files) }
            if let index = unchanged.firstIndex(of: false) {
                throw Self.unitsFallback("a file of account \(uids[index])'s pages is not as the last build wrote it")
            }
            heldPages = uids.flatMap { held[$0]!.unit.pages }
        }
        // A plain site keeps the pages whose fingerprint the last build recorded unchanged.
        try render(renderer, into: writer, reuse: loaded?.reuse, rows: rows, morePages: heldPages)
        if let printer { try printPDFs(site, with: printer, into: writer) }
        return heldPages
    }

    /// Write: the statements manifest — a share's own statements' entries in its part record, a
    /// rebuild's with the held accounts' entries as recorded, a full build's hashed as written.
    /// Takes the run, the load's input, the report and the staging; gives the statements' files'
    /// hashes and the manifest's entries (for the cache) and a share's part record, to go in last.
    func writeStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, _ staging: BuildStaging) throws(BuildError)
        -> (hashes: [String: String], manifestEntries: [StatementManifest.Entry], partText: String?) {
        let (incremental, units, folder, printer) = (run.incremental, run.units, run.plan.folder, run.plan.printer)
        let (shareDigests, held, dataset, loaded, site, writer) = (input.shareDigests, input.held, input.dataset, report.loaded, report.site, staging.writer)
        var partText: String?
        var hashes: [String: String] = [:]
        var manifestEntries: [StatementManifest.Entry] = []
        let records = site.statements
        if let shard = options.shard {
            // A share hashes its own statements' files; the merge puts the manifest together.
            let owned = records.indices.filter { shard.owns(Page.entity(of: records[$0].account)) }
            let statements = StatementsReport.section.id + "/"
            let entries = try self.manifestEntries(owned.map { records[$0] }, folder: statements, pdf: false, into: writer)
            let files = writer.stamps().keys.sorted()
            let part = PartRecord(fingerprint: BuildCache.fingerprint(shareDigests ?? DataDigests(folder), templates: options.templates,
                                                                      includingExecutable: false),
                                  shard: shard, manifestHead: StatementManifest.head(dataAsOf: site.dataAsOf), statementCount: site.statementCount,
                                  files: files,
                                  entries: zip(owned, entries).map { .init(place: site.statementPlaces[$0], entry: StatementManifest.text(of: $1)) },
                                  baseURL: site.settings.baseURL,
                                  hashes: try Self.stagedHashes(files.filter { $0.hasPrefix(statements) }, in: writer))
            partText = part.text(key: options.partKey)
        } else if units != nil {
            if site.statementCount > 0 {
                // A build that signs hashes what it lists from the bytes it publishes, not as the cache says.
                let known = options.signingKey != nil ? nil : loaded.flatMap { incremental?.knownHashes($0) }
                let heldEntries = dataset.accounts.flatMap { held[$0.account.uid]?.unit.entries ?? [] }
                do {
                    (hashes, manifestEntries) = try writeManifest(site, held: heldEntries, into: writer, known: known)
                } catch where error.signingRefused {
                    // A held account's file is not what the last build's entry says: built again, whole.
                    throw Self.unitsFallback(error.diagnostics.first?.message ?? "a held statement's file is not as its manifest entry says")
                }
            }
        } else if !records.isEmpty {
            let known = options.signingKey != nil ? nil : loaded.flatMap { incremental?.knownHashes($0) }
            (hashes, manifestEntries) = try writeManifestEntries(records, folder: StatementsReport.section.id + "/", pdf: printer != nil,
                                                                 dataAsOf: site.dataAsOf, into: writer, known: known)
        }
        return (hashes, manifestEntries, partText)
    }

    /// Extras: with `--bundles`, the bundles folder staged; then staged beside the output, before
    /// the site is swapped in, the single file, the summary and the JSON totals, and a plain
    /// build's cache with, for a build that mapped its accounts, each one's summary in the
    /// summaries' folder (made if it is not there). Takes the run, the load's input, the report,
    /// the templates, the map's summaries and the write step's hashes and manifest entries; gives
    /// what it staged in `staging`, also when it fails, for the cleanup.
    func extrasStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, templates: TemplateLibrary, mapped: [Units.Mapped]?,
                    hashes: [String: String], manifestEntries: [StatementManifest.Entry], into staging: inout BuildStaging) throws(BuildError) {
        let (incremental, printer, tool, held, dataset, warnings) = (run.incremental, run.plan.printer, run.tool, input.held, input.dataset, report.warnings)
        let (loaded, site, writer) = (report.loaded, report.site, staging.writer)
        if options.bundles != nil {
            staging.bundles = try openBundlesWriter()
            staging.stagedWork.append(Termination.removeOnStop(Self.stagingFolder(of: staging.bundles!)))
            try writeBundles(StatementBundles.bundles(for: dataset), templates: templates, printer: printer, into: staging.bundles!)
        }
        // The extra files, and the cache, are staged beside their destinations before the site is
        // swapped in, so a failure here still leaves everything as it was; the cache is
        // committed with the site (it describes the site's files), outside the published folder.
        var besides = staging.artifacts
        if let incremental, let loaded {
            var cache = incremental.record(loaded, files: writer.stamps(), warnings: warnings, site: site, hashes: hashes, accounts: dataset.accounts)
            cache.tool = tool
            if let mapped {
                // Each account read here leaves its summary beside the cache for the next build.
                let summaries = Units.summariesFolder(for: options.cacheFile)
                if !FileManager.default.fileExists(atPath: summaries.path) { staging.madeSummaries = summaries }
                if let reason = Units.makeFolder(summaries) {
                    throw BuildError(writing: SiteWriter.WriteError(path: summaries.path, reason: "cannot make the folder of the accounts' summaries: \(reason)"))
                }
                incremental.recordUnits(&cache, site: site, dataset: dataset, mapped: mapped, held: held, entries: manifestEntries)
                for entry in mapped { besides.append((Units.file(of: entry.uid, in: summaries), entry.text)) }
            }
            besides.append((options.cacheFile, cache.text))
        }
        // Listed beside the output first, so that a build killed from here on leaves nothing
        // the next build of the output does not clean, whatever its options.
        if !besides.isEmpty { staging.beside = try Self.writeError { () throws(SiteWriter.WriteError) in try BesideList(for: options.output) } }
        for (url, text) in besides {
            staging.staged.append(try Self.writeError { () throws(SiteWriter.WriteError) in try staging.beside!.stage(text, at: url) })
        }
    }

    /// Commit: the staged site, bundles and files beside the output swapped in as one (not cut in
    /// two by a stop), the summaries of accounts no longer in the data removed, and the write's
    /// progress lines. Takes the load's input, the report, the staging, the map's summaries and
    /// the held accounts' pages; gives the build's result.
    func commitStep(_ input: BuildInput, _ report: BuildReport, _ staging: BuildStaging, mapped: [Units.Mapped]?,
                    heldPages: [String]) throws(BuildError) -> BuildResult {
        let (dataset, warnings, site, writer) = (input.dataset, report.warnings, report.site, staging.writer)
        // The swap is not cut in two by a stop: one that comes meanwhile waits for it, and then
        // has nothing of this build's to remove.
        let swap = try Termination.holding { () throws(BuildError) -> SiteWriter.Swap in
            defer { staging.stagedWork.forEach { $0.end() } }
            return try commit(writer, bundles: staging.bundles, with: staging.staged)
        }
        if mapped != nil { Units.removeOthers(in: Units.summariesFolder(for: options.cacheFile), keeping: Set(dataset.accounts.map(\.account.uid))) }
        progress("write: \(swap.summary.files) files, \(swap.summary.changed) changed, \(swap.summary.removed) removed")
        for file in staging.staged where file.destination != options.cacheFile && !file.destination.path.hasSuffix("." + Census.fileExtension) {
            progress("write: \(file.destination.path)")
        }
        return BuildResult(pages: site.pages.count + heldPages.count, write: swap.summary, warnings: warnings)
    }
}
