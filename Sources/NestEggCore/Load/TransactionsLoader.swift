/// Reads transactions/ (issue 4): the transactions app's model.
public enum TransactionsLoader {
    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> TransactionsData {
        TransactionsData()
    }
}
