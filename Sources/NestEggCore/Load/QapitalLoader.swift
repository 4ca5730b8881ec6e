/// Reads qapital/ (issue 3): savings goals, their feeds, rules and users.
public enum QapitalLoader {
    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> QapitalData {
        QapitalData()
    }
}
