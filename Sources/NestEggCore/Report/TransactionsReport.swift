/// The Transactions pages.
public enum TransactionsReport {
    public static let section = Section(id: "transactions", title: "Transactions", path: "transactions/index")

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        []
    }

    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        nil
    }
}
