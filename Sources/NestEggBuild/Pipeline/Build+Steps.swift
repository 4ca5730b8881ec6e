import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

// The steps of ``Build/run(_:)``, in the order the data flows: load → map → reduce → open →
// render → write → extras → commit. Each is a function of its own that takes the run and what
// the steps before it gave, and gives what the steps after it take. Every build takes them all;
// where its accounts not mapped here come from is the run's ``Elsewhere``, which the steps ask
// instead of branching on a rebuild or a share. The map stages the accounts' summaries, the
// steps from open on the rest (``BuildStaging``); nothing reaches the output before the commit.

/// One run of the build: what it is to do (``BuildPlan``), what it knows of the last build, and
/// where the accounts it does not map come from (``Elsewhere``). Every step reads it.
struct BuildRun {
    let plan: BuildPlan
    /// A plain build's cache work (``Incremental``); `nil` for a build that keeps no cache.
    let incremental: Incremental?
    /// The fingerprint of nestegg and its templates (``BuildCache/fingerprint(tool:)``).
    let tool: String
    /// Where the accounts this run does not map come from: nowhere, the last build, or the other shares.
    let elsewhere: any Elsewhere
}

/// What the load step gives: the data, and what the rest of the build needs of how it was read.
struct BuildInput {
    /// A build that keeps a cache: each feed read with a log of its own, for the account's summary.
    let cacheFeeds: Units.Feeds?
    let dataset: Dataset
    /// The load's warnings, as the console shows them.
    let warnings: [Diagnostic]
    /// The same, as the data notes page shows them.
    let notes: [Diagnostic]
}

/// What the reduce step gives: the site's report, and what the render takes from the last build's cache.
struct BuildReport {
    /// A plain build's keys, statement digests and page reuse (``Incremental/loaded(_:)``).
    let loaded: Incremental.Loaded?
    let site: Site
    /// The load's warnings and the report's (``NestEggReport/Site/reportNotes``), as the console shows them.
    let warnings: [Diagnostic]
}

/// What the build has staged, from the open step on (with the summaries the map staged before
/// it): the steps after it write into it, the commit swaps it in, and a step that fails discards it.
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
    /// The folders this build made beside the output for the accounts' summaries and the cache, innermost first.
    var madeFolders: [URL] = []

    /// A step failed: everything staged is let go, and nothing of the build is left behind.
    func discard() {
        // The rows' thread is done before the build ends.
        _ = rows?.value
        writer.discard()
        bundles?.discard()
        staged.forEach { $0.discard() }
        // The folders this build made for the summaries and the cache go too (empty once they are discarded).
        madeFolders.forEach { rmdir($0.path) }
    }

    /// The build ends, whichever way: the list beside the output and the staging folders'
    /// registrations are let go.
    func end() {
        beside?.end()
        stagedWork.forEach { $0.end() }
    }
}

extension Build {
    /// Load: the data folder read into a dataset (the feeds of accounts mapped elsewhere left
    /// unread, or read for what the site-wide pages need of them) and checked against what
    /// stands for them. Takes the run; gives ``BuildInput``.
    func loadStep(_ run: BuildRun) throws(BuildError) -> BuildInput {
        let folder = run.plan.folder
        let cacheFeeds = run.incremental == nil ? nil : Units.Feeds(held: run.elsewhere.held)
        let (dataset, warnings, notes) = try load(folder, readers: run.elsewhere.readers(cacheFeeds: cacheFeeds),
                                                  spendingCodes: run.elsewhere.unreadSpendingCodes)
        try run.elsewhere.checkLoaded(self, run, dataset)
        return BuildInput(cacheFeeds: cacheFeeds, dataset: dataset, warnings: warnings, notes: notes)
    }

    /// Map: each account the load read (not held), summarised (``Units/summaries(of:notes:digests:settings:in:beside:)``)
    /// for the next build and for this one's lists, each summary staged beside the cache as it is
    /// made. Takes the run and the load's input; gives the summaries, or `nil` for a build that
    /// keeps no cache (or when they could not be made); throws when one cannot be written.
    func mapStep(_ run: BuildRun, _ input: BuildInput) throws(BuildError) -> Units.Staged? {
        guard let feeds = input.cacheFeeds else { return nil }
        let held = run.elsewhere.held
        // Listed beside the output first, so that a build killed from here on leaves nothing
        // the next build of the output does not clean, whatever its options.
        let beside = try Self.writeError { () throws(SiteWriter.WriteError) in try BesideList(for: options.output) }
        do {
            let staged = try Units.summaries(of: input.dataset.accounts.filter { held[$0.account.uid] == nil }, notes: feeds.notes,
                                             digests: run.incremental!.digests, settings: input.dataset.settings,
                                             in: options.summariesFolder, beside: beside)
            if staged == nil { beside.end() }
            return staged
        } catch {
            beside.end()
            throw BuildError(writing: error)
        }
    }

    /// Reduce: every account's figures and spending rows (those mapped here from the map, the
    /// others' from where they come, ``Elsewhere/others(_:_:_:mapped:)``), the change snapshot,
    /// and the site's report from them (``SiteReport/build``). Takes the run, the load's input and
    /// the map's summaries; gives ``BuildReport``.
    func reduceStep(_ run: BuildRun, _ input: BuildInput, mapped: [Units.Mapped]?) throws(BuildError) -> BuildReport {
        let (incremental, dataset) = (run.incremental, input.dataset)
        let others = try run.elsewhere.others(self, run, dataset, mapped: mapped)
        let loaded = incremental?.loaded(dataset, settledRows: others.settled)
        // The accounts mapped here are reduced from the figures the map worked out, not worked out again.
        let known = Dictionary((mapped ?? []).map { ($0.uid, $0.figures) }, uniquingKeysWith: { first, _ in first })
        var site = SiteReport.build(dataset, notes: input.notes, previous: incremental?.previous?.changes, memo: loaded?.memo,
                                    figures: others.figures.merging(known, uniquingKeysWith: { other, _ in other }),
                                    elsewhere: Set(others.figures.keys), rows: others.rows, snapshot: others.snapshot)
        site.statementPDFs = run.plan.printer != nil
        try run.elsewhere.checkReport(site)
        progress("report: \(site.pages.count) pages in \(site.sections.count) section\(site.sections.count == 1 ? "" : "s")")
        return BuildReport(loaded: loaded, site: site, warnings: input.warnings + placed(site.reportNotes, folder: run.plan.folder))
    }

    /// Open: what is rendered before anything is written (the single file, the summary and the
    /// JSON totals), the staged site, and the transactions lists' rows, when the report does not
    /// hold them, started beside the rendering. Takes the run, the load's input, the report, the
    /// templates and the map's summaries; gives ``BuildStaging``.
    func openStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, templates: TemplateLibrary,
                  summaries: Units.Staged?) throws(BuildError) -> BuildStaging {
        let renderer = PageRenderer(templates: templates, site: report.site)
        let artifacts = try renderArtifacts(renderer, warnings: report.warnings)
        let writer = try openWriter()
        // Stopped by a signal before the swap, nestegg removes the staging folders (Termination).
        let stagedWork = [Termination.removeOnStop(Self.stagingFolder(of: writer))] + [summaries?.folderStop].compactMap { $0 }
        let rows = run.elsewhere.rows(self, run, input, report, renderer: renderer, mapped: summaries?.mapped)
        return BuildStaging(renderer: renderer, artifacts: artifacts, writer: writer, stagedWork: stagedWork, rows: rows,
                            staged: summaries?.files ?? [], beside: summaries?.beside, madeFolders: summaries?.madeFolders ?? [])
    }

    /// Render: the pages kept as they are (``Elsewhere/keepPages(into:)``), every other page
    /// rendered and written into the staged site (a plain site keeping those whose fingerprint is
    /// unchanged), and with `--pdf` each statement printed. Takes the run, the report and the
    /// staging; gives the kept pages' paths.
    func renderStep(_ run: BuildRun, _ report: BuildReport, _ staging: BuildStaging) throws(BuildError) -> [String] {
        let kept = try run.elsewhere.keepPages(into: staging.writer)
        try render(staging.renderer, into: staging.writer, reuse: report.loaded?.reuse, rows: staging.rows, morePages: kept,
                   elsewhere: run.elsewhere)
        if let printer = run.plan.printer { try printPDFs(report.site, with: printer, into: staging.writer) }
        return kept
    }

    /// Write: the statements manifest, or a share's part of it (``Elsewhere/writeManifest(_:_:_:_:into:)``).
    /// Takes the run, the load's input, the report and the staging; gives the statements' files'
    /// hashes and the manifest's entries (for the cache) and a share's part record, to go in last.
    func writeStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, _ staging: BuildStaging) throws(BuildError) -> WrittenManifest {
        try run.elsewhere.writeManifest(self, run, input, report, into: staging.writer)
    }

    /// Extras: with `--bundles`, the bundles folder staged; then staged beside the output, before
    /// the site is swapped in, the single file, the summary and the JSON totals, and a plain
    /// build's cache, recording for a build that mapped its accounts each one's summary (which the
    /// map staged). Takes the run, the load's input, the report,
    /// the templates, the map's summaries and the write step's hashes and manifest entries; gives
    /// what it staged in `staging`, also when it fails, for the cleanup.
    func extrasStep(_ run: BuildRun, _ input: BuildInput, _ report: BuildReport, templates: TemplateLibrary, mapped: [Units.Mapped]?,
                    written: WrittenManifest, into staging: inout BuildStaging) throws(BuildError) {
        let (incremental, printer, tool, held, dataset, warnings) = (run.incremental, run.plan.printer, run.tool, run.elsewhere.held, input.dataset, report.warnings)
        let (loaded, site, writer) = (report.loaded, report.site, staging.writer)
        if options.bundles != nil {
            staging.bundles = try openBundlesWriter()
            staging.stagedWork.append(Termination.removeOnStop(Self.stagingFolder(of: staging.bundles!)))
            try writeBundles(StatementBundles.bundles(for: dataset), templates: templates, printer: printer, into: staging.bundles!)
        }
        // The extra files, and the cache, are staged beside their destinations before the site is
        // swapped in, so a failure here still leaves everything as it was; the cache is
        // committed with the site (it describes the site's files), outside the published folder.
        var cachePieces: [Data]?
        if let incremental, let loaded {
            var cache = incremental.record(loaded, files: writer.stamps(), warnings: warnings, site: site, hashes: written.hashes, accounts: dataset.accounts)
            cache.tool = tool
            // Each account read here left its summary beside the cache for the next build (staged by the map).
            if let mapped { incremental.recordUnits(&cache, site: site, dataset: dataset, mapped: mapped, held: held, entries: written.entries) }
            cachePieces = cache.pieces
        }
        // Listed beside the output as the map's summaries are (``mapStep(_:_:)``).
        if !staging.artifacts.isEmpty || cachePieces != nil, staging.beside == nil {
            staging.beside = try Self.writeError { () throws(SiteWriter.WriteError) in try BesideList(for: options.output) }
        }
        // The artifacts are committed before the summaries, the cache last (it names the summaries).
        for (index, (url, text)) in staging.artifacts.enumerated() {
            staging.staged.insert(try Self.writeError { () throws(SiteWriter.WriteError) in try staging.beside!.stage(text, at: url) }, at: index)
        }
        if let cachePieces {
            staging.madeFolders += Units.foldersToMake(for: options.cacheFile.deletingLastPathComponent())
            staging.staged.append(try Self.writeError { () throws(SiteWriter.WriteError) in try staging.beside!.stage(pieces: cachePieces, at: options.cacheFile) })
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
            defer {
                staging.stagedWork.forEach { $0.end() }
                staging.beside?.committed()
            }
            return try commit(writer, bundles: staging.bundles, with: staging.staged)
        }
        if mapped != nil { Units.removeOthers(in: options.summariesFolder, keeping: Set(dataset.accounts.map(\.account.uid))) }
        progress("write: \(swap.summary.files) files, \(swap.summary.changed) changed, \(swap.summary.removed) removed")
        for file in staging.staged where file.destination != options.cacheFile && !file.destination.path.hasSuffix("." + Census.fileExtension) {
            progress("write: \(file.destination.path)")
        }
        return BuildResult(pages: site.pages.count + heldPages.count, write: swap.summary, warnings: warnings)
    }
}
