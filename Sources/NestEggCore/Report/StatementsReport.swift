/// The Statements pages.
public enum StatementsReport {
    public static let section = Section(id: "statements", title: "Statements", path: "statements/index")

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        []
    }

    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        nil
    }
}
