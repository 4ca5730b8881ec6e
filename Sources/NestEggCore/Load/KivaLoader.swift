/// Reads kiva/ and restcountries/ (issue 5): loans, the lender, the cart and countries.
public enum KivaLoader {
    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> KivaData {
        KivaData()
    }
}
