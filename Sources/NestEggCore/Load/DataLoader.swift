/// The load stage: reads every source in the data folder into a ``Dataset``.
public enum DataLoader {
    public static func load(_ folder: DataFolder, log: DiagnosticLog) -> Dataset {
        let settings = SettingsLoader.load(from: folder, log: log)
        var dataset = Dataset(settings: settings)
        dataset.starling = StarlingLoader.load(from: folder, log: log)
        for path in folder.unclaimedFiles {
            log.report(Diagnostic(.warning, file: path, message: "not part of the input contract; not read"))
        }
        return dataset
    }
}
