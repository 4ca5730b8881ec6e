import NestEggModel
import NestEggSupport
/// The load stage: reads every source in the data folder into a ``Dataset``.
/// Each loader reports problems to `log` and reads on, so one run shows them all.
public enum DataLoader {
    /// The sources after the settings, read at once; each returns how it fills the dataset.
    static func sources(keeping kept: FeedsKept?) -> [@Sendable (DataFolder, Settings, DiagnosticLog) -> (inout Dataset) -> Void] { [
        { folder, settings, log in
            let value = StarlingLoader.load(from: folder, settings: settings, log: log, kept: kept); return { $0.starling = value } },
        { folder, settings, log in
            let value = QapitalLoader.load(from: folder, settings: settings, log: log, kept: kept); return { $0.qapital = value } },
        { folder, settings, log in
            let value = TransactionsLoader.load(from: folder, settings: settings, log: log); return { $0.transactions = value } },
        { folder, settings, log in let value = KivaLoader.load(from: folder, settings: settings, log: log); return { $0.kiva = value } },
        { folder, settings, log in let value = TransfersLoader.load(from: folder, settings: settings, log: log); return { $0.transfers = value } },
        { folder, settings, log in let value = RatesLoader.load(from: folder, settings: settings, log: log); return { $0.rates = value } },
    ] }

    /// The folders a data folder is read from; one of them must hold a file.
    public static let sourceFolders = ["starling", "qapital", "transactions", "kiva", "restcountries", "transfers"]

    /// `keeping`: which feeds to keep, all when `nil`.
    public static func load(_ folder: DataFolder, log: DiagnosticLog, keeping kept: FeedsKept? = nil) -> Dataset {
        folder.listingProblems.forEach(log.report)
        if !sourceFolders.contains(where: folder.hasFolder) && !folder.listingProblems.contains(where: { $0.severity == .error }) {
            log.report(Diagnostic(.error, file: "", message: "no data to report on: the folder holds none of "
                + sourceFolders.map { $0 + "/" }.joined(separator: ", ") + " (docs/INPUTS.md says what goes in each)"))
        }
        let (settings, budgetPlaces) = SettingsLoader.loadPlacingBudgets(from: folder, log: log)
        var dataset = Dataset(settings: settings)
        // The sources are read on every core; their diagnostics come in the order above.
        let sources = sources(keeping: kept)
        let fills = Concurrently.map(sources.count, log: log) { index, own in sources[index](folder, settings, own) }
        for fill in fills { fill(&dataset) }
        if kept == nil { BudgetCategories.notes(dataset, places: budgetPlaces).forEach(log.report) }
        for path in folder.unclaimedFiles {
            log.report(Diagnostic(.warning, file: path, message: "not part of the input contract; not read"))
        }
        return dataset
    }
}

/// Which feeds a load keeps: a share of a sharded build keeps those of the accounts and goals
/// whose pages it renders. Of a feed not kept only its latest time stays (the data's as-of date is
/// everybody's), and its problems are reported all the same: from a census when ``known`` has it
/// (the feed is then not read at all), else from reading it.
public struct FeedsKept: Sendable {
    public var starling: @Sendable (StarlingAccount) -> Bool
    /// By goal id.
    public var qapital: @Sendable (Int) -> Bool
    /// What a census found in a feed not kept, by the feed's path in the data folder.
    public var known: @Sendable (String) -> KnownFeed?
    /// Whether to keep the SHA-256 of the bytes each kept feed was parsed from
    /// (``StarlingAccountData/feedDigest``, ``QapitalData/feedDigests``).
    public var digests = false

    public init(starling: @escaping @Sendable (StarlingAccount) -> Bool, qapital: @escaping @Sendable (Int) -> Bool,
                known: @escaping @Sendable (String) -> KnownFeed? = { _ in nil }) {
        self.starling = starling
        self.qapital = qapital
        self.known = known
    }

    /// No feed at all: what a census worker loads before it reads its own feeds one by one.
    public static let noFeed = FeedsKept(starling: { _ in false }, qapital: { _ in false }, known: { _ in .unread })
}

/// What a census (`nestegg census`) found in a feed, so that a share of a sharded build need not
/// read it: its latest time and its problems, as reading it reports them.
public struct KnownFeed: Sendable {
    public var latest: Instant?
    /// What reading the file reports (its syntax, its shape, items in another currency), in order.
    public var notes: [Diagnostic]
    /// A Qapital feed's notes on users and rules it names that the folder does not have, which
    /// the load reports after every file (``QapitalLoader/referenceNotes(_:goalId:users:rules:)``).
    public var references: [Diagnostic]

    public init(latest: Instant?, notes: [Diagnostic], references: [Diagnostic] = []) {
        self.latest = latest
        self.notes = notes
        self.references = references
    }

    /// A feed left unread, and nothing known of it.
    public static let unread = KnownFeed(latest: nil, notes: [])
}
