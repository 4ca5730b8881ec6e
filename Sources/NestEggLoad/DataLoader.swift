import NestEggModel
import NestEggSupport
/// The load stage: reads every source in the data folder into a ``Dataset``.
/// Each loader reports problems to `log` and reads on, so one run shows them all.
public enum DataLoader {
    /// The sources after the settings, read at once; each returns how it fills the dataset.
    static func sources(feeds: FeedReaders, imports: [ImportRule]) -> [@Sendable (DataFolder, Settings, DiagnosticLog) -> (inout Dataset) -> Void] { [
        { folder, settings, log in
            let value = StarlingLoader.load(from: folder, settings: settings, log: log, feed: feeds.starling); return { $0.accounts = value } },
        // After Starling's: a bank's export files are accounts of the site like Starling's.
        { folder, settings, log in
            let value = ImportsLoader.load(from: folder, settings: settings, rules: imports, log: log); return { $0.accounts += value } },
        { folder, settings, log in
            let value = QapitalLoader.load(from: folder, settings: settings, log: log, feed: feeds.qapital); return { $0.qapital = value } },
        { folder, settings, log in
            let value = TransactionsLoader.load(from: folder, settings: settings, log: log); return { $0.transactions = value } },
        { folder, settings, log in let value = KivaLoader.load(from: folder, settings: settings, log: log); return { $0.kiva = value } },
        { folder, settings, log in let value = TransfersLoader.load(from: folder, settings: settings, log: log); return { $0.transfers = value } },
        { folder, settings, log in let value = RatesLoader.load(from: folder, settings: settings, log: log); return { $0.rates = value } },
    ] }

    /// The folders a data folder is read from; one of them must hold a file.
    public static let sourceFolders = ["starling", "imports", "berlingroup", "simplefin", "qapital", "transactions", "kiva", "restcountries", "transfers"]

    /// `feeds`: how each account's and goal's feed is read (``FeedReaders``), by default from its file.
    public static func load(_ folder: DataFolder, log: DiagnosticLog, feeds: FeedReaders = .files) -> Dataset {
        folder.listingProblems.forEach(log.report)
        if !sourceFolders.contains(where: folder.hasFolder) && !folder.listingProblems.contains(where: { $0.severity == .error }) {
            log.report(Diagnostic(.error, file: "", message: "no data to report on: the folder holds none of "
                + sourceFolders.map { $0 + "/" }.joined(separator: ", ") + " (docs/INPUTS.md says what goes in each)"))
        }
        let settingsDocument = folder.contains(SettingsLoader.fileName) ? folder.document(SettingsLoader.fileName, log: log) : nil
        let settings = settingsDocument.map { SettingsLoader.settings(in: $0, folder: folder) } ?? Settings()
        let imports = settingsDocument?.value["imports"].map(ImportRule.rules(in:)) ?? []
        var dataset = Dataset(settings: settings)
        // The sources are read on every core; their diagnostics come in the order above.
        let sources = sources(feeds: feeds, imports: imports)
        let fills = Concurrently.map(sources.count, log: log) { index, own in sources[index](folder, settings, own) }
        for fill in fills { fill(&dataset) }
        for path in folder.unclaimedFiles {
            log.report(Diagnostic(.warning, file: path, message: "not part of the input contract; not read"))
        }
        return dataset
    }
}

/// How a load reads the feed of each unit that has one: a Starling account, a Qapital goal.
/// The load reads every other file itself and calls these in the order it reads the units, each
/// with the unit's own log, so that what a reader reports lands where the feed's notes belong.
/// The default reads each feed from its file; a caller that wants a unit's feed read otherwise, or
/// not at all, passes its own readers (which may, say, work something out of the feed and let it go).
public struct FeedReaders: Sendable {
    /// An account's feed (``StarlingLoader/feed(of:in:log:)``).
    public var starling: StarlingLoader.FeedReader
    /// A goal's feed, newest first (``QapitalLoader/readFeed(_:goalId:in:currency:log:)``); `nil`
    /// for none (the file cannot be read, or was not).
    public var qapital: QapitalLoader.FeedReader
    /// Whether the readers give every feed as its file holds it, so that the dataset holds all the
    /// spending: the checks over all of it (a budget naming no category any spending has,
    /// ``NestEggReport/BudgetCategories``, which the build runs after the load) run then only.
    public var readsEveryFeed: Bool

    public init(starling: @escaping StarlingLoader.FeedReader, qapital: @escaping QapitalLoader.FeedReader,
                readsEveryFeed: Bool = false) {
        self.starling = starling
        self.qapital = qapital
        self.readsEveryFeed = readsEveryFeed
    }

    /// Every feed, from its file.
    public static let files = FeedReaders(starling: { StarlingLoader.feed(of: $0, in: $1, log: $2) },
                                          qapital: { QapitalLoader.readFeed($1, goalId: $0, in: $2, currency: $3, log: $4) },
                                          readsEveryFeed: true)
    /// No feed: each feed file is claimed (it is the caller's to read, not an unknown file) and left unread.
    public static let none = FeedReaders(starling: { account, folder, _ in
        let path = StarlingLoader.feedPath(of: account)
        if folder.contains(path) { folder.claim(path) }
        return []
    }, qapital: { _, path, folder, _, _ in
        folder.claim(path)
        return nil
    })
}
