/// The Transfers pages.
public enum TransfersReport {
    public static let section = Section(id: "transfers", title: "Transfers", path: "transfers/index")

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        []
    }

    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        nil
    }
}
