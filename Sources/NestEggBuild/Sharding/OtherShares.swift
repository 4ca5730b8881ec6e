import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite

/// A share of a sharded build (`--shard K/N`): it maps its own accounts (``Page/entity``) and
/// leaves the others to their shares. Of each other account it knows what the site-wide pages
/// need (``AccountFigures``) from the census (`--census`), or without one from a second read of
/// its feed; the transactions lists' rows of its own pages come from the census's runs. It writes
/// its part of the statements manifest in its part record, for the merge.
struct OtherShares: Elsewhere {
    let shard: Shard
    /// The census (`--census`), read for the data's accounts.
    let census: CensusSet?
    /// With a census: the data's digests, the census's standing for the feeds the share does not read.
    let digests: DataDigests?
    /// What the load kept of the feeds (``ShareFeeds``): the readers record into it, so a share
    /// value serves one run's one load (``Build/run()`` makes one per run).
    let record = ShareFeeds.Recorder()

    /// The share, with `census` read and no digests: for the tests of its load, which make no part record.
    init(shard: Shard, census: CensusSet?) {
        (self.shard, self.census, digests) = (shard, census, nil)
    }

    /// The share, with its census read (``readCensus(_:shard:_:)``) and the data's digests it stands for.
    init(_ build: Build, shard: Shard, folder: DataFolder) throws(BuildError) {
        self.shard = shard
        let census = try Self.readCensus(build, shard: shard, folder)
        self.census = census
        digests = try census.map { census throws(BuildError) in try build.placing(folder) { () throws(BuildError) in
            try census.digests(of: folder, notOwn: { !Self.owns(shard, feed: $0) }) } }
    }

    /// What the load kept of the feeds.
    var feeds: ShareFeeds { record.feeds }

    /// A share's readers (``ShareFeeds/readers(_:census:into:)``); a share keeps no cache (``BuildPlan/keepsCache``).
    func readers(cacheFeeds: Units.Feeds?) -> FeedReaders {
        assert(cacheFeeds == nil, "a share keeps no cache, so it makes no account's summary")
        return ShareFeeds.readers(shard, census: census, into: record)
    }

    /// `nil`: a share's readers leave the other shares' feeds unread (``FeedReaders/readsEveryFeed``
    /// is false), and the budgets are checked against every feed's categories by a build that reads them all.
    var unreadSpendingCodes: Set<String>? { nil }

    /// The feeds this share parsed are the bytes the census was made from.
    func checkLoaded(_ build: Build, _ run: BuildRun, _ dataset: Dataset) throws(BuildError) {
        guard let census else { return }
        let folder = run.plan.folder
        try build.placing(folder) { () throws(BuildError) in try census.checkAgain(folder, parsed: feeds.parsed, own: { Self.owns(shard, feed: $0) }) }
    }

    /// The other accounts' figures: the census's, or worked out again from their feeds
    /// (``figures(_:_:folder:summarised:census:)``); the lists' rows, the census's runs.
    func others(_ build: Build, _ run: BuildRun, _ dataset: Dataset, mapped: [Units.Mapped]?) throws(BuildError) -> OtherFigures {
        let summarised = feeds.summarised
        let uids = dataset.accounts.map(\.account.uid).filter { summarised[$0] != nil }
        let censusFigures = try census.map { census throws(BuildError) in try census.figures(of: uids, folder: build.options.data) }
        build.progress("load: share \(shard) keeps the feeds of \(dataset.accounts.count - summarised.count) of \(dataset.accounts.count) accounts"
            + " and \(dataset.qapital.feeds.count) goals' feeds; of the others, what the site-wide pages need")
        let figures = try Self.figures(build, dataset, folder: run.plan.folder, summarised: summarised, census: censusFigures)
        return OtherFigures(figures: figures, rows: census.map { .runs($0.totals) } ?? .inMemory)
    }

    /// The share's pages are its own accounts' and the site-wide ones; it keeps none of the last build's.
    func checkReport(_ site: Site) throws(BuildError) {}

    func keepPages(into writer: SiteWriter) throws(BuildError) -> [String] { [] }

    /// A share renders its own pages (``Shard``); share 0 also the site's files that
    /// are not pages. No share writes the site map: the merge writes it from every part's files.
    func renders(_ build: Build, _ site: Site) -> (pages: [Page], siteFiles: Bool, siteMap: Bool) {
        let pages = site.pages.filter(shard.owns)
        build.progress("render: share \(shard): \(pages.count) of \(site.pages.count) pages")
        return (pages, shard.index == 0, false)
    }

    /// With a census, the transactions lists' rows are its runs, merged: the share keeps its own
    /// pages' rows only. The merge is one core's work, done beside the rendering of the pages
    /// that show no row (``Build/render(_:into:reuse:rows:morePages:)``).
    func rows(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, renderer: PageRenderer,
              mapped: [Units.Mapped]?) -> Beside<BuildError?>? {
        guard let census, let lists = report.site.spendingLists else { return nil }
        return Beside { [shard] () -> BuildError? in
            do throws(BuildError) { try census.fillRows(lists, keeps: { shard.owns($0) }) } catch { return error }
            return nil
        }
    }

    /// A share hashes its own statements' files; the merge puts the manifest together from the parts' records.
    func writeManifest(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, into writer: SiteWriter) throws(BuildError) -> WrittenManifest {
        let site = report.site
        let records = site.statements
        let owned = records.indices.filter { shard.owns(Page.entity(of: records[$0].account)) }
        let statements = StatementsReport.section.id + "/"
        let entries = try build.manifestEntries(owned.map { records[$0] }, folder: statements, pdf: false, into: writer)
        let files = writer.stamps().keys.sorted()
        let part = PartRecord(fingerprint: BuildCache.fingerprint(digests ?? DataDigests(run.plan.folder), templates: build.options.templates,
                                                                  includingExecutable: false),
                              shard: shard, manifestHead: StatementManifest.head(dataAsOf: site.dataAsOf), statementCount: site.statementCount,
                              files: files,
                              entries: zip(owned, entries).map { .init(place: site.statementPlaces[$0], entry: StatementManifest.text(of: $1)) },
                              baseURL: site.settings.baseURL,
                              hashes: try Build.stagedHashes(files.filter { $0.hasPrefix(statements) }, in: writer))
        return WrittenManifest(partText: part.text(key: build.options.partKey))
    }

    /// Whether the feed at `path` (a Starling account's or a Qapital goal's) is `shard`'s to read.
    static func owns(_ shard: Shard, feed path: String) -> Bool {
        for (folder, entity) in [("starling/feed/", { Page.entity(ofStarlingAccount: $0) }), ("qapital/feed/", { Int($0).map(Page.entity(ofQapitalGoal:)) })]
            as [(String, (String) -> String?)] where path.hasPrefix(folder) && path.hasSuffix(".json") {
            guard let entity = entity(String(path.dropFirst(folder.count).dropLast(".json".count))) else { return true }
            return shard.owns(entity)
        }
        return true
    }

    /// With `--census`: the census, read for the data's accounts (`starling/accounts.json`).
    static func readCensus(_ build: Build, shard: Shard, _ folder: DataFolder) throws(BuildError) -> CensusSet? {
        guard let url = build.options.census else { return nil }
        try Census.refuseImports(folder)
        // A census file that is a link may not lead into the output, which the swap replaces.
        if let error = Destinations.checkLinks([.init(flat: url, what: "census", suffix: "." + Census.fileExtension)],
                                               replaced: [("--output", build.options.output, true)]) { throw error }
        let scratch = DiagnosticLog()
        let accounts = folder.contains("starling/accounts.json")
            ? folder.document("starling/accounts.json", log: scratch).map(StarlingLoader.accounts(in:)) ?? [] : []
        // A broken accounts list is the load's to report, in its own words: the census is not read.
        if scratch.hasErrors { return nil }
        // The figures of this share's own accounts come from their feeds, not from the census.
        let census = try CensusSet.read(url, accounts: accounts, figuresOf: { uid in !shard.owns(Page.entity(ofStarlingAccount: uid)) })
        build.progress("load: the census in \(url.path): \(census.feeds.count) feeds")
        return census
    }

    /// The summaries of the accounts whose pages are not this share's (``AccountFigures``), by
    /// UID (`summarised`: what the load kept of their feeds). With a census (`census`, by UID) they
    /// are the census's, which carry everything the site-wide pages need: no feed is read again.
    /// Without one, each feed the load let go is read again, one account per core at a time, its
    /// summary worked out and the feed let go; a feed that cannot be read now, or whose bytes
    /// changed since the load read them (SHA-256), stops the build. (The census's figures are
    /// checked to be there for every account it holds, ``CensusSet/figures(of:folder:)``.) Either way the load reported
    /// the feeds' problems and kept their latest times, which the summaries carry: they make the
    /// data's as-of date.
    static func figures(_ build: Build, _ dataset: Dataset, folder: DataFolder, summarised: [String: ShareFeeds.Summarised],
                        census: [String: AccountFigures]? = nil) throws(BuildError) -> [String: AccountFigures] {
        var all = census ?? [:]
        for (uid, loaded) in summarised where all[uid] != nil { all[uid]!.latest = loaded.latest }
        let others = dataset.accounts.filter { summarised[$0.account.uid] != nil && all[$0.account.uid] == nil }
        guard !others.isEmpty else { return all }
        let context = ReportContext(dataset: dataset)
        let log = DiagnosticLog()
        let figures = Concurrently.map(others.count, log: log) { index, log -> AccountFigures in
            var data = others[index]
            let (items, digest) = StarlingLoader.readFeed(of: data.account, in: folder, log: log, digest: true)
            data.feed = items
            let loaded = summarised[data.account.uid]
            if let first = loaded?.digest, digest != first {
                log.report(Diagnostic(.error, file: StarlingLoader.feedPath(of: data.account), message: "changed while the build read it; build again"))
            }
            var figures = AccountFigures(data, context: context)
            figures.latest = loaded?.latest
            return figures
        }
        if log.hasErrors {
            throw BuildError(step: .load, exitCode: .dataError,
                             diagnostics: build.placed(log.diagnostics.filter { $0.severity == .error }, folder: folder))
        }
        for (uid, figure) in zip(others.map(\.account.uid), figures) { all[uid] = figure }
        return all
    }
}
