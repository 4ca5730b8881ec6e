/// The load stage: reads every source in the data folder into a ``Dataset``.
/// Each loader reports problems to `log` and reads on, so one run shows them all.
public enum DataLoader {
    public static func load(_ folder: DataFolder, log: DiagnosticLog) -> Dataset {
        let settings = SettingsLoader.load(from: folder, log: log)
        var dataset = Dataset(settings: settings)
        dataset.starling = StarlingLoader.load(from: folder, settings: settings, log: log)
        dataset.qapital = QapitalLoader.load(from: folder, settings: settings, log: log)
        dataset.transactions = TransactionsLoader.load(from: folder, settings: settings, log: log)
        dataset.kiva = KivaLoader.load(from: folder, settings: settings, log: log)
        dataset.transfers = TransfersLoader.load(from: folder, settings: settings, log: log)
        for path in folder.unclaimedFiles {
            log.report(Diagnostic(.warning, file: path, message: "not part of the input contract; not read"))
        }
        return dataset
    }
}
