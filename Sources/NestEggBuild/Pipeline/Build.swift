import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Dispatch
import Foundation

/// What `nestegg build` is asked to do.
public struct BuildOptions: Sendable {
    public var data: URL
    public var output: URL
    public var templates: URL?
    /// How diagnostics name the data folder (the path as the user typed it); its absolute path if `nil`.
    public var dataLabel: String?
    /// `--single-file`: every report in one self-contained HTML file.
    public var singleFile: URL?
    /// `--summary`: a short Markdown digest for a CI job summary.
    public var summary: URL?
    /// `--json`: the headline figures as JSON.
    public var json: URL?
    /// Also print each statement to PDF beside its HTML, with headless Chromium.
    public var pdf: Bool
    /// The Chromium executable for `pdf`; found on `PATH` when nil.
    public var chromium: String?
    /// `--bundles`: also a folder per account with only its statements and round-ups, for its customer.
    public var bundles: URL?
    /// `--shard K/N`: build share K of N into `output`, a part for `nestegg merge`.
    public var shard: Shard?
    /// `--census DIR`: with `shard`, what `nestegg census` found in the feeds the share does not
    /// read (every `*.census` file in DIR); without it, the share reads every feed.
    public var census: URL?
    /// `--cache FILE`: where a plain build keeps its cache (``BuildCache``) and, in `FILE.units`
    /// beside it, the accounts' summaries; by default both are in the folder of state beside the
    /// output (``NestEggWrite/StateFolder``), never inside it.
    public var cache: URL?
    /// The cache file this build reads and writes.
    public var cacheFile: URL { cache ?? StateFolder.cache(of: output) }
    /// The folder of the accounts' summaries this build reads and writes (``Units``): `FILE.units`
    /// beside a `--cache FILE` elsewhere, else the folder of state's.
    var summariesFolder: URL {
        guard let cache, cache.standardizedFileURL != StateFolder.cache(of: output) else { return StateFolder.units(of: output) }
        return URL(fileURLWithPath: cache.path + ".units")
    }
    /// `--signing-key FILE`: the issuer's private key, which signs every statements manifest the
    /// build writes (``ManifestSignature``); without it no signature is written.
    public var signingKey: ManifestSignature.SigningKey?
    /// `--part-key FILE`: with `shard`, the run's secret that authenticates the share's part record (``PartKey``).
    public var partKey: PartKey?

    public init(data: URL, output: URL, templates: URL? = nil, pdf: Bool = false, chromium: String? = nil) {
        self.data = data
        self.output = output
        self.templates = templates
        self.pdf = pdf
        self.chromium = chromium
    }
}

/// The named steps of a build, in order. Each error names the step it came from.
public enum BuildStep: String, Sendable {
    case load, report, render, pdf, write
    /// `nestegg merge`: putting a sharded build's parts together.
    case merge
}


/// Why a build stopped: the step, the diagnostics (each with its file), and the exit status
/// that tells a script what kind of failure it was.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public let step: BuildStep
    public let exitCode: ExitStatus
    public internal(set) var diagnostics: [Diagnostic]
    /// Whether everything the build would write (the output folder and the files beside it) is
    /// as it was before the build. Only a failure to undo a half-finished commit makes it false.
    public var outputUnchanged = true
    /// A rebuild that mapped some accounts only and found it cannot keep the others' pages (``Units``): built again, whole.
    var unitsFallback = false
    /// A manifest not signed because a file it lists is not the bytes its entry claims (``Build/writeManifest(_:folder:signingKey:into:)``).
    var signingRefused = false

    public init(step: BuildStep, exitCode: ExitStatus, diagnostics: [Diagnostic]) {
        self.step = step
        self.exitCode = exitCode
        self.diagnostics = diagnostics
    }

    /// The write step's error for a file that could not be written (exit 73).
    init(writing error: SiteWriter.WriteError) {
        self.init(step: .write, exitCode: .cannotCreate, diagnostics: [Diagnostic(.error, file: error.path, message: error.reason)])
    }

    public var description: String {
        let errors = DiagnosticLog.tally(diagnostics).errors
        return "\(step) failed with \(errors) error\(errors == 1 ? "" : "s")"
    }
}

/// What a successful build did.
public struct BuildResult: Sendable {
    public let pages: Int
    public let write: SiteWriter.Summary
    public let warnings: [Diagnostic]
}

/// The pipeline: load (JSON → model) → report (model → pages) → render (Markdown, then
/// HTML) → write (staged, then swapped in). Nothing reaches the output folder unless every
/// step before `write` succeeded.
public struct Build {
    public let options: BuildOptions
    /// Called with one line per step, for the progress display.
    public var progress: (String) -> Void = { _ in }

    public init(options: BuildOptions) { self.options = options }

    public func run() throws(BuildError) -> BuildResult {
        let plan = try plan()
        // A plain build whose input is unchanged has nothing to do (see BuildCache).
        var incremental = plan.keepsCache
            ? Incremental(plan.folder, templates: options.templates, cacheFile: options.cacheFile, signing: options.signingKey?.identity) : nil
        if plan.mayStopUpToDate, let cache = incremental?.upToDate(options.output) {
            progress("up to date: the data, the templates and nestegg are as they were at the last build")
            return BuildResult(pages: cache.files.keys.filter { $0.hasSuffix(".html") }.count,
                               write: .init(files: cache.files.count, changed: 0, removed: 0), warnings: cache.warnings)
        }
        incremental = incremental?.readingAll()
        // A rebuild whose input differs in some accounts' files only maps those accounts (``Units``).
        // (A single file, a summary or JSON totals are made from every page: such a build maps everything.)
        let tool = BuildCache.fingerprint(tool: options.templates)
        // (A build that signs maps every account: a held account's files are the disk's, not what it would write.)
        if let incremental, let previous = incremental.previous, options.singleFile == nil, options.summary == nil, options.json == nil,
           options.signingKey == nil,
           let units = Units.plan(previous: previous, digests: incremental.digests, tool: tool, folder: plan.folder, summaries: options.summariesFolder) {
            progress("load: \(units.changed.count) of \(units.changed.count + units.held.count) accounts changed since the last build;"
                     + " the others from their summaries")
            do {
                return try run(BuildRun(plan: plan, incremental: incremental, tool: tool, elsewhere: LastBuild(plan: units, previous: previous)))
            } catch {
                guard error.unitsFallback else { throw error }
                progress("load: \(error.diagnostics.first?.message ?? "the last build's summaries do not fit"); building every account")
            }
        }
        // A share leaves the other shares' accounts to them; a plain build maps every account.
        var elsewhere: any Elsewhere = AllHere()
        if let shard = options.shard { elsewhere = try OtherShares(self, shard: shard, folder: plan.folder) }
        return try run(BuildRun(plan: plan, incremental: incremental, tool: tool, elsewhere: elsewhere))
    }

    /// A rebuild that cannot keep the held accounts' pages after all (``Units``): it is built again, whole.
    static func unitsFallback(_ reason: String) -> BuildError {
        var error = BuildError(step: .load, exitCode: .software, diagnostics: [Diagnostic(.warning, file: "", message: reason)])
        error.unitsFallback = true
        return error
    }

    /// The build, its accounts not mapped here coming from `run.elsewhere` (``Elsewhere``). Its steps
    /// (Build+Steps.swift), in the order the data flows; each takes what the steps before it gave.
    /// Nothing reaches the output folder or the files beside it before the commit: after a step
    /// that stages fails, what it and the steps before it staged is discarded.
    func run(_ run: BuildRun) throws(BuildError) -> BuildResult {
        // The templates are parsed beside the load, and taken before the report is worked out: a
        // broken one stops the build first.
        let parsing = Beside { [overrides = options.templates] () -> Result<TemplateLibrary, BuildError> in
            do throws(BuildError) { return .success(try Self.loadTemplates(overrides: overrides)) } catch { return .failure(error) }
        }
        let input = try loadStep(run)
        let summaries = try mapStep(run, input)
        let mapped = summaries?.mapped
        let report: BuildReport, templates: TemplateLibrary
        var staging: BuildStaging
        do throws(BuildError) {
            templates = try parsing.value.get()
            report = try reduceStep(run, input, mapped: mapped)
            staging = try openStep(run, input, report, templates: templates, summaries: summaries)
        } catch {
            // The staging takes the summaries over; until then, a failure discards them here.
            summaries?.discard()
            summaries?.end()
            throw error
        }
        // The staging folders' registrations, and the list beside the output, end with the build.
        defer { staging.end() }
        let heldPages: [String]
        do throws(BuildError) {
            heldPages = try renderStep(run, report, staging)
            let written = try writeStep(run, input, report, staging)
            try extrasStep(run, input, report, templates: templates, mapped: mapped, written: written, into: &staging)
            // A share's record goes in last: the part is finished when it is there.
            if let partText = written.partText {
                try Self.writeError { () throws(SiteWriter.WriteError) in try staging.writer.write(partText, to: PartRecord.fileName) }
            }
        } catch {
            staging.discard()
            throw error
        }
        return try commitStep(input, report, staging, mapped: mapped, heldPages: heldPages)
    }

    /// The folder `writer` stages into.
    static func stagingFolder(of writer: SiteWriter) -> String {
        writer.stagedURL(SiteWriter.marker).deletingLastPathComponent().path
    }

    /// Commits the site, the bundles (`--bundles`) and the files beside them as one: the site is
    /// swapped in, then the bundles folder in the same way, then each file renamed into place; if
    /// any of them fails, those already in place and the site are put back.
    func commit(_ writer: SiteWriter, bundles: SiteWriter? = nil, with staged: [StagedFile]) throws(BuildError) -> SiteWriter.Swap {
        let swap: SiteWriter.Swap
        do {
            swap = try writer.commit()
        } catch {
            writer.discard()
            bundles?.discard()
            staged.forEach { $0.discard() }
            throw BuildError(writing: error)
        }
        var bundlesSwap: SiteWriter.Swap?
        do {
            bundlesSwap = try bundles?.commit()
        } catch {
            bundles?.discard()
            staged.forEach { $0.discard() }
            var failure = BuildError(writing: error)
            failure.outputUnchanged = swap.rollBack()
            throw failure
        }
        for (index, file) in staged.enumerated() {
            do {
                try file.commit()
            } catch {
                var restored = true
                for done in staged[..<index].reversed() where !done.rollBack() { restored = false }
                staged[index...].forEach { $0.discard() }
                if let bundlesSwap, !bundlesSwap.rollBack() { restored = false }
                if !swap.rollBack() { restored = false }
                var failure = BuildError(writing: error)
                failure.diagnostics += staged.compactMap(\.keptAside).map { kept in
                    Diagnostic(.error, file: kept.path, message: "the previous file, which could not be put back; it is left here for you")
                }
                failure.outputUnchanged = restored
                throw failure
            }
        }
        swap.finish()
        bundlesSwap?.finish()
        staged.forEach { $0.finish() }
        return swap
    }

    /// The folders the build reads, which neither the output nor the bundles folder may hold or lie
    /// inside: the data, the templates and the census (a census folder inside an old output was
    /// deleted with it).
    var inputFolders: [URL] { [options.data] + [options.templates, options.census].compactMap { $0 } }

    /// The output folder must be one nestegg may replace; checked first, with the other paths.
    func checkOutputFolder() throws(BuildError) {
        try Self.writeError { () throws(SiteWriter.WriteError) in
            try SiteWriter.checkOutputIsOurs(options.output, protecting: inputFolders)
        }
    }

    /// A `--templates` folder that is not there is an error, also when the output is up to date.
    func checkTemplatesFolder() throws(BuildError) {
        guard let templates = options.templates else { return }
        var status = stat()
        let reason: String?
        if stat(templates.path, &status) != 0 {
            reason = errno == ENOENT ? "templates folder not found" : "cannot read the templates folder: \(systemReason(errno))"
        } else if status.st_mode & S_IFMT != S_IFDIR {
            reason = "is not a folder (--templates takes a folder of templates)"
        } else {
            reason = nil
        }
        if let reason {
            throw BuildError(step: .render, exitCode: .configError, diagnostics: [Diagnostic(.error, file: templates.path, message: reason)])
        }
    }

    /// Runs a write, turning its failure into the write step's error (exit 73).
    @discardableResult
    static func writeError<T>(_ body: () throws(SiteWriter.WriteError) -> T) throws(BuildError) -> T {
        do {
            return try body()
        } catch {
            throw BuildError(writing: error)
        }
    }

    /// With `--pdf`, Chromium must be there before anything is read or written.
    func locatePrinter() throws(BuildError) -> PDFPrinter? {
        guard options.pdf else { return nil }
        do {
            return try PDFPrinter.locate(explicit: options.chromium, searchPath: ProcessInfo.processInfo.environment["PATH"])
        } catch {
            throw BuildError(step: .pdf, exitCode: .unavailable,
                             diagnostics: [Diagnostic(.error, file: error.file, message: error.message)])
        }
    }

    /// With `--pdf`: each statement's staged HTML printed to a PDF beside it, before the commit.
    /// (`prefix` places the site's pages in `writer`: a bundle's folder.)
    func printPDFs(_ site: Site, with printer: PDFPrinter, into writer: SiteWriter, prefix: String = "") throws(BuildError) {
        let statements = site.pages.filter { $0.template == StatementsReport.statementTemplate }
        for page in statements {
            let path = prefix + page.path
            do {
                try printer.print(writer.stagedURL(path + ".html"), to: writer.stagedURL(forNew: path + ".pdf"), page: path)
            } catch {
                throw BuildError(step: .pdf, exitCode: .unavailable,
                                 diagnostics: [Diagnostic(.error, file: error.page + ".pdf", message: error.reason)])
            }
            writer.adopt(path + ".pdf")
        }
        if prefix.isEmpty {
            progress("pdf: \(statements.count) statement\(statements.count == 1 ? "" : "s") printed with \(printer.chromium.path)")
        }
    }

    /// Step 1: every source in the data folder into a dataset; all errors of the run together.
    /// (With what the report would add: the rates dated after the data, ``NestEggReport/Site/reportNotes``.)
    public func load() throws(BuildError) -> (Dataset, [Diagnostic]) {
        let folder = try openDataFolder()
        let (dataset, warnings, _) = try load(folder)
        return (dataset, warnings + placed(SiteReport.ratesNotes(dataset.rates, context: ReportContext(dataset: dataset)), folder: folder))
    }

    /// The data folder, listed. `avoiding`: folders the run replaces, into which (or into a folder
    /// holding which) a link of the data is listed but not walked, for ``Destinations/checkLinks(_:replaced:)`` to refuse.
    func openDataFolder(avoiding: [URL] = []) throws(BuildError) -> DataFolder {
        do {
            return try DataFolder(root: options.data, avoiding: avoiding)
        } catch {
            let message: String
            switch error {
            case .missing(let path): message = "data folder \(path) does not exist"
            case .notAFolder(let path): message = "\(path) is not a folder"
            case .unreadable(let path, let reason): message = "cannot read the data folder \(path): \(reason)"
            }
            throw BuildError(step: .load, exitCode: .noInput,
                             diagnostics: [Diagnostic(.error, file: options.dataLabel ?? options.data.path, message: message)])
        }
    }

    /// The dataset, its warnings as the console shows them (paths from the data folder's label),
    /// and as the data notes page does (paths inside the data folder: a published page never shows
    /// where the data sat on the machine that built it).
    /// `readers`: the feeds' (``Elsewhere/readers(cacheFeeds:)``); `spendingCodes`: with readers that do not read
    /// every feed, the spending categories of the feeds they leave (``BudgetCategories/notes(_:spendingCodes:)``).
    func load(_ folder: DataFolder, readers: FeedReaders = .files, spendingCodes: Set<String>? = nil) throws(BuildError)
        -> (Dataset, [Diagnostic], notes: [Diagnostic]) {
        let log = DiagnosticLog()
        let dataset = DataLoader.load(folder, log: log, feeds: readers)
        // The budgets are checked against the categories the report gives the spending, which
        // needs every feed's (the report's one category mapping, ``BudgetCategories``).
        if readers.readsEveryFeed || spendingCodes != nil {
            BudgetCategories.notes(dataset, spendingCodes: spendingCodes ?? []).forEach(log.report)
        }
        let label = options.dataLabel ?? folder.root.path
        let diagnostics = placed(log.diagnostics, folder: folder)
        if log.hasErrors {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: diagnostics)
        }
        progress("load: \(folder.files.count) file\(folder.files.count == 1 ? "" : "s") from \(label)")
        let notes = log.diagnostics.map { diagnostic in
            var note = diagnostic
            if note.file.isEmpty { note.file = "(the data folder)" }
            return note
        }
        return (dataset, diagnostics, notes)
    }

    /// Runs a check whose diagnostics name files inside the data folder, placing them as the console shows them.
    func placing<T>(_ folder: DataFolder, _ body: () throws(BuildError) -> T) throws(BuildError) -> T {
        do {
            return try body()
        } catch {
            throw BuildError(step: error.step, exitCode: error.exitCode, diagnostics: placed(error.diagnostics, folder: folder))
        }
    }

    /// Diagnostics with their paths from the data folder's label, as the console shows them.
    func placed(_ diagnostics: [Diagnostic], folder: DataFolder) -> [Diagnostic] {
        let label = options.dataLabel ?? folder.root.path
        return diagnostics.map { diagnostic in
            var placed = diagnostic
            placed.file = diagnostic.file.isEmpty ? label
                : label == "." ? diagnostic.file : (label.hasSuffix("/") ? label : label + "/") + diagnostic.file
            return placed
        }
    }

    /// The templates, `overrides` (`--templates`) over the embedded ones.
    static func loadTemplates(overrides: URL?) throws(BuildError) -> TemplateLibrary {
        do {
            return try TemplateLibrary(overrides: overrides)
        } catch {
            throw BuildError(step: .render, exitCode: .configError, diagnostics: error.diagnostics)
        }
    }

    func openWriter() throws(BuildError) -> SiteWriter {
        try Self.writeError { () throws(SiteWriter.WriteError) in
            try SiteWriter(output: options.output, protecting: inputFolders, hashing: Self.manifestHashing(under: StatementsReport.section.id + "/"),
                           keepsSpare: true)
        }
    }

    /// The files the statements manifest under `folder` lists are hashed as they are written
    /// (``StatementFiles``), not read back.
    static func manifestHashing(under folder: String) -> SiteWriter.Hashing {
        SiteWriter.Hashing(prefix: folder, hash: { StatementDigest.sha256($0) })
    }

    /// The single-file report, the summary and the JSON totals, rendered before anything is written.
    func renderArtifacts(_ renderer: PageRenderer, warnings: [Diagnostic]) throws(BuildError) -> [(URL, String)] {
        var artifacts: [(URL, String)] = []
        do {
            if let url = options.singleFile {
                artifacts.append((url, try SingleFileRenderer(pages: renderer).render()))
            }
            if let url = options.summary {
                artifacts.append((url, try SummaryRenderer(templates: renderer.templates, site: renderer.site, warnings: warnings).render()))
            }
        } catch {
            throw Self.renderFailure(error, page: nil)
        }
        if let url = options.json {
            artifacts.append((url, TotalsJSON.render(site: renderer.site, warnings: warnings)))
        }
        return artifacts
    }

    /// Steps 3 and 4: pages are rendered on every core, and each worker writes the page it has
    /// just rendered before taking the next, so memory holds a page per core, never the site.
    /// After a failure the workers skip the pages after it, but not those before it, so the
    /// error reported is always the first page's in site order, whichever worker met it first
    /// (with `rows`: the first of the pages that show no row, then the first list page's).
    /// `rows`: the transactions lists' rows being filled (``SpendingLists/fill(_:keeps:)``), whose
    /// pages wait for them; the others are rendered meanwhile. Its failure comes first: a census
    /// that does not fill the lists explains what else failed.
    /// `morePages`: the paths of pages the build keeps without rendering them (``Units``), for the site map.
    /// `elsewhere`: which pages the run renders, and whether the site's other files (``Elsewhere/renders(_:_:)``).
    func render(_ renderer: PageRenderer, into writer: SiteWriter, reuse: PageReuse? = nil, rows: Beside<BuildError?>? = nil,
                morePages: [String] = [], elsewhere: any Elsewhere) throws(BuildError) {
        let (pages, siteFiles, siteMap) = elsewhere.renders(self, renderer.site)
        let count = pages.count
        // A build that signs writes the statements' pages anew: a file kept from the last build is
        // the disk's bytes, which someone may have changed since, keeping its size and time.
        let signing = options.signingKey != nil, statements = StatementsReport.section.id + "/"
        func renderAll(_ pages: [Page]) -> BuildError? {
            Concurrently.firstFailure(pages.count) {
                Self.renderAndWrite(pages[$0], renderer, writer, reuse: signing && pages[$0].path.hasPrefix(statements) ? nil : reuse)
            }
        }
        if let rows {
            let listPaths = Set(renderer.site.spendingLists?.paths ?? [])
            let failure = renderAll(pages.filter { !listPaths.contains($0.path) })
            if let error = rows.value ?? failure ?? renderAll(pages.filter { listPaths.contains($0.path) }) { throw error }
        } else if let error = renderAll(pages) {
            throw error
        }
        guard siteFiles else { return }
        if let reuse, reuse.kept > 0 { progress("render: \(reuse.kept) of \(count) pages unchanged since the last build, kept") }
        // The page for addresses that have none: HTML only (a static host serves it; nothing links to it).
        let notFound: PageRenderer.Output
        do {
            notFound = try renderer.render(SiteMeta.notFoundPage(site: renderer.site))
        } catch {
            throw Self.renderFailure(error, page: SiteMeta.notFoundPath)
        }
        let sitemap = !siteMap ? nil : morePages.isEmpty ? SiteMeta.sitemap(for: renderer.site)
            : renderer.site.settings.baseURL.map { SiteMeta.sitemap(paths: renderer.site.pages.map(\.path) + morePages, baseURL: $0) }
        do {
            try writer.write(renderer.templates.stylesheet, to: "style.css")
            try writer.write(renderer.templates.searchScript, to: SearchIndexScript.scriptName)
            try writer.write(SearchIndexScript.script(renderer.site.search, months: renderer.site.searchMonths, lists: renderer.site.searchLists), to: SearchIndexScript.fileName)
            try writer.write(notFound.html, to: "404.html")
            if let sitemap { try writer.write(sitemap, to: "sitemap.xml") }
        } catch {
            throw BuildError(writing: error)
        }
        progress("render: \(count * 2 + 4 + (sitemap == nil ? 0 : 1)) files")
    }

    /// One page's Markdown and HTML, rendered and written. - Returns: what went wrong, or `nil`.
    /// (`prefix` places the page in `writer`: a bundle's folder.)
    static func renderAndWrite(_ page: Page, _ renderer: PageRenderer, _ writer: SiteWriter, prefix: String = "",
                               reuse: PageReuse? = nil) -> BuildError? {
        do {
            // A statement's other formats are files of its page, kept and written with it.
            let formats = page.statementData == nil ? [] : StatementData.Format.allCases
            // Its Markdown, HTML, other formats and chunk of the search index (``TransactionSearch``).
            let ownFiles = page.files(prefix: prefix)
            // With its tables' CSVs as the last build wrote them: a page kept as it was keeps them too.
            let files = ownFiles + (reuse?.previousTableFiles[prefix + page.path] ?? [])
            // An older page of the transactions lists is kept, its view never worked out, while
            // its key is as recorded and the rows it shows are the last build's.
            let key = page.rowsFrame.flatMap { reuse?.key(of: page, $0, renderer: renderer) }
            if let reuse, let key, let frame = page.rowsFrame, reuse.settledRows.covers(frame.before),
               reuse.previous?.keys[page.path] == key, let recorded = reuse.previous?.pages[page.path],
               writer.reuse(files, expected: reuse.previous?.files ?? [:]) {
                reuse.record(page.path, recorded, key: key)
                reuse.countKept(page.path)
                return nil
            }
            // A list page whose rows this rebuild did not read is kept above, or the rebuild is a full build.
            if let reuse, reuse.rowsUnread(page.path) {
                return unitsFallback("a file of the transactions lists' page \(page.path) is not as the last build wrote it")
            }
            let view = TemplateValue(encoding: page.view)
            // (What they show beyond the view, such as a line's spending category, is in the fingerprint by their hash.)
            let data = page.statementData?()
            let extra = data.map { data in formats.map { StatementFormats.render(data, as: $0) } } ?? []
            let chunk = page.searchChunk.map { SearchIndexScript.chunk(path: $0.path, rows: $0.rows()) }
            if let reuse {
                let salt = BuildCache.executableStamp + (extra + (chunk.map { [$0] } ?? [])).map { StatementDigest.sha256(Array($0.utf8)) }.joined()
                let fingerprint = PageFingerprint.of(page, view: view, renderer: renderer, salt: salt)
                reuse.record(page.path, fingerprint, key: key)
                if reuse.previous?.pages[page.path] == fingerprint, writer.reuse(files, expected: reuse.previous?.files ?? [:]) {
                    reuse.countKept(page.path)
                    return nil
                }
            }
            let output = try renderer.render(page, view: view)
            // In the order of ``Page/files(prefix:)``.
            let texts = [output.markdown, output.html] + extra + (chunk.map { [$0] } ?? [])
            precondition(texts.count == ownFiles.count, "\(page.path): \(texts.count) texts for \(ownFiles.count) files")
            for (name, text) in zip(ownFiles, texts) {
                try writer.write(text, to: name)
            }
            for (index, csv) in output.tableCSVs.enumerated() {
                try writer.write(csv, to: TableCSV.fileName(page: Substring(prefix + page.path), number: index + 1))
            }
            return nil
        } catch let error as SiteWriter.WriteError {
            return BuildError(writing: error)
        } catch {
            return renderFailure(error, page: page.path)
        }
    }

    /// The render step's error: a missing template, or a template that places a report's text
    /// raw (both the templates' fault: exit 78), or anything else (ours: exit 70).
    static func renderFailure(_ error: any Error, page: String?) -> BuildError {
        switch error {
        case let missing as PageRenderer.MissingTemplate:
            return BuildError(step: .render, exitCode: .configError, diagnostics: [
                Diagnostic(.error, file: missing.name, message: "no template \(missing.name) for page \(missing.page)"),
            ])
        case let raw as Template.RawTextError:
            return BuildError(step: .render, exitCode: .configError, diagnostics: [
                Diagnostic(.error, file: page ?? "templates", message: raw.description),
            ])
        default:
            return BuildError(step: .render, exitCode: .software, diagnostics: [Diagnostic(.error, file: page ?? "render", message: "\(error)")])
        }
    }
}

extension Page {
    /// The files the build writes of the page but its tables' CSVs: its Markdown and HTML, a
    /// statement's other formats (``NestEggReport/StatementData/Format``) and its search chunk, in
    /// the order the render writes them. (`prefix` places the page: a bundle's folder.)
    func files(prefix: String = "") -> [String] {
        let base = prefix + path
        return [base + ".md", base + ".html"] + (statementData == nil ? [] : StatementData.Format.allCases.map { base + "." + $0.fileExtension })
            + (searchChunk.map { [prefix + $0.path + ".js"] } ?? [])
    }
}
