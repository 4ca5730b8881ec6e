/// The Loans pages.
public enum LoansReport {
    public static let section = Section(id: "loans", title: "Loans", path: "loans/index")

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        []
    }

    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        nil
    }
}
