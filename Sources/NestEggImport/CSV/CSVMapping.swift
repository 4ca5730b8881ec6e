// Banks' CSV exports share no layout: each names, orders and formats its columns its own way.
// A `CSVMapping`, given in the household's settings for a bank's files, says which column is what.

/// How to read one bank's CSV export: which column holds the date, the amount, the text…, and
/// how dates and numbers are written. Columns are named as in the header row (matched ignoring
/// case and surrounding spaces) or by position as `#3` (1-based).
public struct CSVMapping: Sendable, Hashable {
    /// `,`, `;` or tab; nil → whichever of the three the header line has most of (`,` when none).
    public var delimiter: Character?
    /// Lines before the header row (a bank's preamble: account name, balance, blank lines).
    public var skipLines: Int
    /// The encoding when it is not UTF-8 (`ISO-8859-1`, `WINDOWS-1252`); nil → UTF-8 when the
    /// bytes are valid UTF-8, else Windows-1252 (see `ImportText.decode`).
    public var charset: String?

    /// The booking date's column.
    public var date: String
    /// How dates are written: `YYYY`, `YY` (00–79 → 20YY, 80–99 → 19YY), `MM` or `M` (month, one
    /// or two digits), `MMM` (`Jan`…`Dec` or the full English name, any case), `DD` or `D` (day,
    /// one or two digits), and any other character literally (a space matches one or more). A
    /// time after the date (`2024-01-31 14:05` or `2024-01-31T14:05:00`) is read past.
    /// E.g. `DD/MM/YYYY`, `YYYY-MM-DD`, `D MMM YYYY`, `YYYYMMDD`.
    public var dateFormat: String
    /// The value date's column, if the bank gives one (same format).
    public var valueDate: String?

    /// One signed amount column (negative = money out, unless `amountOutIsPositive` or
    /// `debitCreditColumn` say otherwise). Give either this or `moneyIn`/`moneyOut`.
    public var amount: String?
    /// Money-in and money-out columns (`Paid in`/`Paid out`, `Credit`/`Debit`): on each row one
    /// is filled, the other empty (or zero). Money out may be written positive or negative; its
    /// magnitude leaves the account.
    public var moneyIn: String?
    public var moneyOut: String?
    /// The single `amount` column writes money out positive and money in negative (as many
    /// credit-card exports do). Without `debitCreditColumn` the amount's sign is turned round.
    public var amountOutIsPositive: Bool
    /// A column saying which way each amount goes (`Af`/`Bij`, `S`/`H`, `DR`/`CR`, `Debit`/`Credit`):
    /// the amount's magnitude is then money out when the cell is one of `debitMarkers`, money in
    /// otherwise; an empty cell is an error.
    public var debitCreditColumn: String?
    /// Compared ignoring case and surrounding spaces.
    public var debitMarkers: [String]

    /// The columns whose text, joined with a space (empty ones left out), is the description.
    public var description: [String]
    public var payee: String?
    public var reference: String?
    /// The bank's own kind of entry (`Type`, `Transaction type`, `Code`), kept as written.
    public var kind: String?
    /// The bank's transaction id, for de-duplication across overlapping downloads.
    public var id: String?
    /// The balance after each row: checked against the amounts (see `CSVImportParser`).
    public var balance: String?

    /// `.` or `,`.
    public var decimal: Character
    /// The thousands separator, if amounts have one (`,` with decimal `.`, `.` or a space with `,`).
    public var grouping: Character?

    /// A column saying whether a row is pending; a row is pending when its cell is one of
    /// `pendingMarkers` (ignoring case and surrounding spaces), booked otherwise.
    public var status: String?
    public var pendingMarkers: [String]

    /// Text cells starting with `'` before `=`, `+`, `-`, `@`, tab or CR lose the `'`: the guard
    /// against spreadsheet formulas that NestEgg's own CSV writes (and some banks).
    public var removesFormulaGuard: Bool

    /// The account the file is of: a CSV row names none, so the settings do (currency at least).
    public var account: ImportedAccount

    public init(delimiter: Character? = nil, skipLines: Int = 0, charset: String? = nil,
                date: String, dateFormat: String, valueDate: String? = nil,
                amount: String? = nil, moneyIn: String? = nil, moneyOut: String? = nil,
                amountOutIsPositive: Bool = false, debitCreditColumn: String? = nil, debitMarkers: [String] = ["D", "DR", "Debit"],
                description: [String], payee: String? = nil, reference: String? = nil, kind: String? = nil, id: String? = nil,
                balance: String? = nil, decimal: Character = ".", grouping: Character? = nil,
                status: String? = nil, pendingMarkers: [String] = ["Pending"], removesFormulaGuard: Bool = false,
                account: ImportedAccount) {
        self.delimiter = delimiter
        self.skipLines = skipLines
        self.charset = charset
        self.date = date
        self.dateFormat = dateFormat
        self.valueDate = valueDate
        self.amount = amount
        self.moneyIn = moneyIn
        self.moneyOut = moneyOut
        self.amountOutIsPositive = amountOutIsPositive
        self.debitCreditColumn = debitCreditColumn
        self.debitMarkers = debitMarkers
        self.description = description
        self.payee = payee
        self.reference = reference
        self.kind = kind
        self.id = id
        self.balance = balance
        self.decimal = decimal
        self.grouping = grouping
        self.status = status
        self.pendingMarkers = pendingMarkers
        self.removesFormulaGuard = removesFormulaGuard
        self.account = account
    }

    /// The mapping of the statement CSV NestEgg itself writes for a GBP account (see
    /// `CSVImportParser.nestEggStatementMapping(forHeader:)` for other currencies):
    /// `Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes,Time,
    /// Transaction ID,Source Amount,Source Currency,Exchange Rate (GBP per unit)`, oldest first.
    public static let nestEggStatement = nestEggStatement(currency: "GBP")

    static func nestEggStatement(currency: String) -> CSVMapping {
        CSVMapping(delimiter: ",", date: "Date", dateFormat: "YYYY-MM-DD", amount: "Amount (\(currency))",
                   description: ["Reference", "Notes"], payee: "Counter Party", reference: "Reference", kind: "Type",
                   id: "Transaction ID", balance: "Balance (\(currency))", removesFormulaGuard: true,
                   account: ImportedAccount(currency: currency))
    }

    /// NestEgg's statement CSV header for an account in `currency` (an ISO 4217 code).
    static func nestEggHeader(currency: String) -> [String] {
        ["Date", "Counter Party", "Reference", "Type", "Amount (\(currency))", "Balance (\(currency))",
         "Spending Category", "Notes", "Time", "Transaction ID", "Source Amount", "Source Currency",
         "Exchange Rate (\(currency) per unit)"]
    }
}
