import NestEggModel
import NestEggSupport
/// The load stage: reads every source in the data folder into a ``Dataset``.
/// Each loader reports problems to `log` and reads on, so one run shows them all.
public enum DataLoader {
    /// The sources after the settings, read at once; each returns how it fills the dataset.
    static func sources(keepsFeed: (@Sendable (StarlingAccount) -> Bool)?) -> [@Sendable (DataFolder, Settings, DiagnosticLog) -> (inout Dataset) -> Void] { [
        { folder, settings, log in
            let value = StarlingLoader.load(from: folder, settings: settings, log: log, keepsFeed: keepsFeed); return { $0.starling = value } },
        { folder, settings, log in let value = QapitalLoader.load(from: folder, settings: settings, log: log); return { $0.qapital = value } },
        { folder, settings, log in
            let value = TransactionsLoader.load(from: folder, settings: settings, log: log); return { $0.transactions = value } },
        { folder, settings, log in let value = KivaLoader.load(from: folder, settings: settings, log: log); return { $0.kiva = value } },
        { folder, settings, log in let value = TransfersLoader.load(from: folder, settings: settings, log: log); return { $0.transfers = value } },
    ] }

    /// The folders a data folder is read from; one of them must hold a file.
    public static let sourceFolders = ["starling", "qapital", "transactions", "kiva", "restcountries", "transfers"]

    /// `keepsFeed`: which Starling accounts' feeds to keep (``StarlingLoader/load(from:settings:log:keepsFeed:)``).
    public static func load(_ folder: DataFolder, log: DiagnosticLog, keepsFeed: (@Sendable (StarlingAccount) -> Bool)? = nil) -> Dataset {
        folder.listingProblems.forEach(log.report)
        if !sourceFolders.contains(where: folder.hasFolder) && !folder.listingProblems.contains(where: { $0.severity == .error }) {
            log.report(Diagnostic(.error, file: "", message: "no data to report on: the folder holds none of "
                + sourceFolders.map { $0 + "/" }.joined(separator: ", ") + " (docs/INPUTS.md says what goes in each)"))
        }
        let settings = SettingsLoader.load(from: folder, log: log)
        var dataset = Dataset(settings: settings)
        // The sources are read on every core; their diagnostics come in the order above.
        let sources = sources(keepsFeed: keepsFeed)
        let fills = Concurrently.map(sources.count, log: log) { index, own in sources[index](folder, settings, own) }
        for fill in fills { fill(&dataset) }
        for path in folder.unclaimedFiles {
            log.report(Diagnostic(.warning, file: path, message: "not part of the input contract; not read"))
        }
        return dataset
    }
}
