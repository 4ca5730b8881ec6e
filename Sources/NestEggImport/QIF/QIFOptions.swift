// What a QIF file does not say and the household must: QIF (Quicken Interchange Format) carries
// no currency and no account number, often not even an account name, and writes dates in the
// order of the writer's locale without saying which.

/// The facts a QIF file lacks, given by the household's settings for the file.
public struct QIFOptions: Sendable, Hashable {
    /// How to read a date such as `03/04/2024`: the file does not say.
    public enum DateOrder: Sendable, Hashable {
        /// From the file's own dates: day first when some date's first number is above 12
        /// (`31/01/2024`), month first when some date's second number is (`01/31/2024`), an error
        /// when both happen, and month first — Quicken's own order — when no date decides.
        case automatic
        /// `MM/DD/YYYY`, as Quicken in the United States writes.
        case monthFirst
        /// `DD/MM/YYYY`, as British and European banks' QIF exports write.
        case dayFirst
    }

    /// ISO 4217 code of every account in the file (upper case).
    public var currency: String
    /// The account's name when the file has no `!Account` block naming it.
    public var accountName: String
    public var dateOrder: DateOrder
    /// The decimal separator of amounts: `.` (Quicken everywhere, `1,234.56`) or `,` (some
    /// European programs, `1.234,56`); the other of the two is then the thousands separator.
    public var decimalSeparator: Character

    public init(currency: String, accountName: String, dateOrder: DateOrder = .automatic, decimalSeparator: Character = ".") {
        self.currency = currency
        self.accountName = accountName
        self.dateOrder = dateOrder
        self.decimalSeparator = decimalSeparator
    }
}
