import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite

/// Where the accounts a run does not map itself come from. Every build takes the same steps
/// (Build+Steps.swift); which accounts they map, and where the others' part comes from, is this
/// value's, which each step asks instead of branching:
/// - a plain build maps every account (``AllHere``);
/// - a rebuild holds the accounts whose files are unchanged as the last build left them
///   (``LastBuild``: their summaries, files and manifest entries);
/// - a share of a sharded build leaves the other shares' accounts to them, knowing what the
///   site-wide pages need of them from a census or a second read of their feeds (``OtherShares``).
protocol Elsewhere: Sendable {
    /// The accounts held as the last build's summaries, by UID (a rebuild's; none otherwise).
    var held: [String: Units.Held] { get }

    /// Load: the feed readers. `cacheFeeds`: a build that keeps a cache reads each feed with a log
    /// of its own, for the account's summary (``Units/Feeds``).
    func readers(cacheFeeds: Units.Feeds?) -> FeedReaders

    /// Load: the spending categories of the feeds the readers leave unread, which the budgets are
    /// checked against beside the read ones' (``BudgetCategories``); `nil` when that check needs every feed.
    var unreadSpendingCodes: Set<String>? { get }

    /// Load, once the data is read: checks it against what stands for the accounts it did not read.
    func checkLoaded(_ build: Build, _ run: BuildRun, _ dataset: Dataset) throws(BuildError)

    /// Reduce: what the report takes of the accounts not mapped here. `mapped`: the summaries of
    /// the accounts mapped here, when the build keeps a cache.
    func others(_ build: Build, _ run: BuildRun, _ dataset: Dataset, mapped: [Units.Mapped]?) throws(BuildError) -> OtherFigures

    /// Reduce: checks the site's report against what is kept of the others (none has pages of its own in it).
    func checkReport(_ site: Site) throws(BuildError)

    /// Open: the transactions lists' rows, when the report does not hold them all, filled on a
    /// thread of their own beside the rendering; `nil` when it does.
    func rows(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, renderer: PageRenderer,
              mapped: [Units.Mapped]?) -> Beside<BuildError?>?

    /// Render: the others' files kept as the last build wrote them, checked; gives their pages' paths.
    func keepPages(into writer: SiteWriter) throws(BuildError) -> [String]

    /// Render: which of the site's pages this run renders, and whether it writes the site's files
    /// that are not pages (the stylesheet, the scripts, the search index, `404.html`) and the site map.
    func renders(_ build: Build, _ site: Site) -> (pages: [Page], siteFiles: Bool, siteMap: Bool)

    /// Write: the statements manifest, or a share's part of it.
    func writeManifest(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, into writer: SiteWriter) throws(BuildError) -> WrittenManifest
}

/// What the reduce takes of the accounts not mapped here (``Elsewhere/others(_:_:_:mapped:)``).
struct OtherFigures {
    /// Their figures, by UID.
    var figures: [String: AccountFigures] = [:]
    /// Where the transactions lists' rows come from.
    var rows: SiteReport.SpendingRows = .inMemory
    /// What the next build compares with, when the report cannot make it from the data alone.
    var snapshot: ChangeSnapshot?
    /// How far back the accounts' rows are the last build's.
    var settled: SettledRows = .unknown
}

/// What the write step gives: the statements' files' hashes and the manifest's entries (for the
/// cache), and a share's part record, to go in last.
struct WrittenManifest {
    var hashes: [String: String] = [:]
    var entries: [StatementManifest.Entry] = []
    var partText: String?
}

extension Elsewhere {
    var held: [String: Units.Held] { [:] }
}

/// A plain build: every account is mapped here, read from its feed.
struct AllHere: Elsewhere {
    func readers(cacheFeeds: Units.Feeds?) -> FeedReaders { cacheFeeds?.readers ?? .files }

    var unreadSpendingCodes: Set<String>? { nil }

    func checkLoaded(_ build: Build, _ run: BuildRun, _ dataset: Dataset) throws(BuildError) {}

    func others(_ build: Build, _ run: BuildRun, _ dataset: Dataset, mapped: [Units.Mapped]?) throws(BuildError) -> OtherFigures {
        OtherFigures()
    }

    func checkReport(_ site: Site) throws(BuildError) {}

    /// The report holds every account's rows.
    func rows(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, renderer: PageRenderer,
              mapped: [Units.Mapped]?) -> Beside<BuildError?>? { nil }

    func keepPages(into writer: SiteWriter) throws(BuildError) -> [String] { [] }

    func renders(_ build: Build, _ site: Site) -> (pages: [Page], siteFiles: Bool, siteMap: Bool) { (site.pages, true, true) }

    /// Every statement's entry, hashed as written (or as the cache knows the unchanged files).
    func writeManifest(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, into writer: SiteWriter) throws(BuildError) -> WrittenManifest {
        let records = report.site.statements
        guard !records.isEmpty else { return WrittenManifest() }
        let (hashes, entries) = try build.writeManifestEntries(records, folder: StatementsReport.section.id + "/", pdf: run.plan.printer != nil,
                                                               dataAsOf: report.site.dataAsOf, into: writer, known: build.knownHashes(run, report))
        return WrittenManifest(hashes: hashes, entries: entries)
    }
}

extension Build {
    /// The statements' files' hashes the cache knows (unchanged since the last build), unless the
    /// build signs: one that signs hashes what it lists from the bytes it publishes.
    func knownHashes(_ run: BuildRun, _ report: BuildReport) -> KnownHashes? {
        options.signingKey != nil ? nil : report.loaded.flatMap { run.incremental?.knownHashes($0) }
    }
}
