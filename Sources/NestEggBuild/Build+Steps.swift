import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

// The steps of ``Build/run(_:)``, in the order the data flows: load → map → reduce → render →
// write → extras → commit. Each is a function of its own that takes the run and what the steps
// before it gave, and gives what the steps after it take.

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
            guard Set(dataset.starling.map(\.account.uid)) == Set(held.keys).union(units!.changed) else {
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
            Units.summaries(of: dataset.starling.filter { held[$0.account.uid] == nil }, notes: feeds.notes, digests: incremental!.digests,
                            settings: dataset.settings)
        }
        return mapped
    }
}
