import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite

/// A rebuild's accounts whose files are unchanged (``Units/plan(previous:digests:tool:folder:summaries:)``):
/// held as the last build left them. Their feeds are not read; their figures and rows are their
/// summaries'; their files and statements' manifest entries are the last build's. Whatever does
/// not fit stops the rebuild (``Build/unitsFallback(_:)``), which is then built again, whole.
struct LastBuild: Elsewhere {
    let plan: Units.Plan
    /// The last build's cache, which the plan was made from.
    let previous: BuildCache

    var held: [String: Units.Held] { plan.held }

    func readers(cacheFeeds: Units.Feeds?) -> FeedReaders { cacheFeeds?.readers ?? .files }

    /// The budgets are checked against every account's spending categories: the held accounts' as recorded.
    var unreadSpendingCodes: Set<String>? { Set(held.values.flatMap(\.unit.spendingCodes)) }

    /// The accounts read and held are the last build's.
    func checkLoaded(_ build: Build, _ run: BuildRun, _ dataset: Dataset) throws(BuildError) {
        guard Set(dataset.accounts.map(\.account.uid)) == Set(held.keys).union(plan.changed) else {
            throw Build.unitsFallback("the accounts are not the last build's")
        }
    }

    /// The held accounts' figures and rows are their summaries'; the mapped accounts' rows are
    /// their new summaries'. The snapshot is the last build's for the held accounts.
    func others(_ build: Build, _ run: BuildRun, _ dataset: Dataset, mapped: [Units.Mapped]?) throws(BuildError) -> OtherFigures {
        guard let mapped else { throw Build.unitsFallback("the changed accounts' summaries could not be made") }
        guard let changes = previous.changes,
              let snapshot = ChangeSnapshot(dataset, itemsOf: Array(held.keys), from: changes) else {
            throw Build.unitsFallback("the last build's snapshot does not hold every account")
        }
        var others = OtherFigures(snapshot: snapshot)
        // How far back the accounts' rows are the last build's (the held ones' all of them).
        others.settled = Units.settledRows(mapped: mapped, in: build.options.summariesFolder,
                                           accounts: Dictionary(dataset.accounts.map { ($0.account.uid, $0.account) },
                                                                uniquingKeysWith: { first, _ in first }),
                                           previous: previous)
        var totals = SpendingTotals()
        for uid in held.keys.sorted() {
            others.figures[uid] = held[uid]!.figures
            totals.add(held[uid]!.record.totals)
        }
        for entry in mapped { totals.add(entry.record.totals) }
        others.rows = .runs(totals)
        return others
    }

    func checkReport(_ site: Site) throws(BuildError) {
        let heldEntities = Set(held.keys.map(Page.entity(ofStarlingAccount:)))
        if site.pages.contains(where: { $0.entity.map(heldEntities.contains) ?? false }) {
            throw Build.unitsFallback("a held account has pages of its own in the report")
        }
    }

    /// Every account's rows are its summary's: the held accounts' as kept, the others' as made now.
    func rows(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, renderer: PageRenderer,
              mapped: [Units.Mapped]?) -> Beside<BuildError?>? {
        let site = report.site
        let accountNames = Dictionary(input.dataset.accounts.map { ($0.account.uid, $0.account.name) }, uniquingKeysWith: { first, _ in first })
        return site.spendingLists.map { lists in
            // The older pages kept by their key need no rows: those older than the oldest page rendered are not read.
            let listPaths = Set(lists.paths)
            let unread = report.loaded?.reuse.keptByRows(site.pages.filter { listPaths.contains($0.path) }, renderer: renderer) ?? []
            return Beside { [held] () -> BuildError? in
                Units.fillRows(lists, held: held.keys.sorted().map { held[$0]! }, mapped: mapped ?? [], accountNames: accountNames,
                               keeps: { !unread.contains($0) }, toTheEnd: unread.isEmpty)
                    .map { Build.unitsFallback("the summaries' rows do not fill the lists: \($0)") }
            }
        }
    }

    /// The held accounts' files, as the last build wrote them, checked on every core
    /// (``SiteWriter`` links them one at a time).
    func keepPages(into writer: SiteWriter) throws(BuildError) -> [String] {
        let uids = held.keys.sorted()
        let unchanged = Concurrently.map(uids.count) { writer.reuse(held[uids[$0]]!.unit.files, expected: previous.files) }
        if let index = unchanged.firstIndex(of: false) {
            throw Build.unitsFallback("a file of account \(uids[index])'s pages is not as the last build wrote it")
        }
        return uids.flatMap { held[$0]!.unit.pages }
    }

    /// Every page of the report (the held accounts' are kept, not in it), and the site's files.
    func renders(_ build: Build, _ site: Site) -> (pages: [Page], siteFiles: Bool, siteMap: Bool) { (site.pages, true, true) }

    /// The manifest with the held accounts' entries as the last build recorded them, in their places.
    func writeManifest(_ build: Build, _ run: BuildRun, _ input: BuildInput, _ report: BuildReport, into writer: SiteWriter) throws(BuildError) -> WrittenManifest {
        guard report.site.statementCount > 0 else { return WrittenManifest() }
        let heldEntries = input.dataset.accounts.flatMap { held[$0.account.uid]?.unit.entries ?? [] }
        do {
            let (hashes, entries) = try build.writeManifest(report.site, held: heldEntries, into: writer, known: build.knownHashes(run, report))
            return WrittenManifest(hashes: hashes, entries: entries)
        } catch where error.signingRefused {
            // A held account's file is not what the last build's entry says: built again, whole.
            throw Build.unitsFallback(error.diagnostics.first?.message ?? "a held statement's file is not as its manifest entry says")
        }
    }
}
