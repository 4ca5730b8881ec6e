/// The Savings goals pages.
public enum GoalsReport {
    public static let section = Section(id: "goals", title: "Savings goals", path: "goals/index")

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        []
    }

    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        nil
    }
}
