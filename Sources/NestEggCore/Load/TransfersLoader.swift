/// Reads transfers/ (issue 6): the transfer app's users and transfers.
public enum TransfersLoader {
    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> TransfersData {
        TransfersData()
    }
}
