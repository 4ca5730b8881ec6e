import NestEggSupport
/// Everything loaded from the data folder: the input of the report stage.
/// A source that is absent from the data folder is empty here and gets no pages.
public struct Dataset: Sendable {
    public var settings: Settings
    /// The bank accounts, whatever their source (`starling/`, a bank's export files in `imports/`,
    /// `berlingroup/`, `simplefin/`): each with its transactions, balance and savings goals.
    public var accounts: [AccountData] = []
    /// `qapital/`: shared savings goals with their feeds, rules and users.
    public var qapital = QapitalData()
    /// `transactions/`: the transactions app's model.
    public var transactions = TransactionsData()
    /// `kiva/` and `restcountries/`: micro-loans, the lender, the cart and countries.
    public var kiva = KivaData()
    /// `transfers/`: the transfer app's users and transfers.
    public var transfers = TransfersData()
    /// `rates/`: the ECB's reference rates against the base currency; `nil` without the folder.
    public var rates: ExchangeRates?

    public init(settings: Settings = Settings(), accounts: [AccountData] = []) {
        self.settings = settings
        self.accounts = accounts
    }

    /// The latest moment in the data this dataset holds (the report adds that of the units it has
    /// summaries of instead: ``ReportContext/init(dataset:summaries:)``).
    public var latestInstant: Instant? {
        let candidates: [Instant?] = [
            accounts.compactMap(\.latestFeedInstant).max(),
            qapital.latestInstant,
            transactions.latestInstant,
            kiva.latestInstant,
            transfers.latestInstant,
        ]
        return candidates.compactMap { $0 }.max()
    }
}
