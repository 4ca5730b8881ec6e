import NestEggModel
import NestEggSupport
/// One statement's figures and lines as typed data, for the files a statement is also written as
/// besides its page (``StatementData/Format``: CSV and ISO 20022 camt.053). Render writes each
/// format from this; nothing here is text for a format, and nothing is escaped.
public struct StatementData: Sendable {
    /// The files written for every statement besides its `.md` and `.html`, in the order the
    /// manifest lists them.
    public enum Format: String, Sendable, CaseIterable {
        case csv
        case camt053

        /// What follows the statement's path: `statements/personal/2026-10.csv`.
        public var fileExtension: String {
            switch self {
            case .csv: return "csv"
            case .camt053: return "camt053.xml"
            }
        }
    }

    public struct Account: Sendable {
        public let uid: String
        public let name: String
        public let type: String
        public let currency: Currency
        public let holderName: String?
        /// Where the holder lives (`starling/addresses.json`), when the data says.
        public let holderAddress: PostalAddress?
        /// From the account's identifiers file, when it has one.
        public let iban: String?
        public let bic: String?
        public let sortCode: String?
        public let accountNumber: String?
    }

    /// A settled line of the statement, in the account's currency.
    public struct Entry: Sendable {
        /// The feed item's UID: Starling's reference for the transaction.
        public let uid: String
        /// Never negative; `direction` says which way.
        public let amount: Money
        public let direction: FeedItem.Direction
        /// The transaction time on the site's clock, and that clock's offset from UTC then.
        public let local: LocalDateTime
        public let offsetSeconds: Int
        /// `MASTER_CARD`, `DIRECT_DEBIT`, `FASTER_PAYMENTS_IN`…: as the feed writes it.
        public let source: String
        public let counterparty: String
        public let reference: String
        public let category: String?
        /// The balance after it; `nil` without a balance file.
        public let balance: Money?
        /// What was paid or received in another currency before conversion (the feed's
        /// `sourceAmount`); `nil` when the feed gives none or it is in the account's currency.
        public let sourceAmount: Money?
        /// Whether the source gives the day only (``FeedItem/Fields/dateOnly``): no time is written.
        public var dateOnly = false

        /// The exchange rate the feed's two amounts imply: units of the account's currency for one
        /// of the source's, as a decimal with `digits` after the point (rounded half up), or `nil`
        /// without a source amount, for a zero one, or when it has more than `totalDigits` digits.
        public func exchangeRate(digits: Int = 6, totalDigits: Int = 11) -> String? {
            sourceAmount.flatMap { StatementData.impliedRate(amount: amount, source: $0, digits: digits, totalDigits: totalDigits) }
        }

        /// The amount with its sign: negative when money leaves the account.
        public var signedAmount: Money { direction == .out ? -amount : amount }
    }

    /// The rate two amounts of one payment imply: units of `amount`'s currency for one of
    /// `source`'s, with `digits` after the point (rounded half up); `nil` for a zero source or
    /// when the rate has more than `totalDigits` digits (camt.053's `BaseOneRate` allows 11).
    public static func impliedRate(amount: Money, source: Money, digits: Int = 6, totalDigits: Int = 11) -> String? {
        guard source.minorUnits > 0, amount.minorUnits >= 0 else { return nil }
        // amount / 10^a ÷ (source / 10^s) = amount · 10^s / (source · 10^a), scaled by 10^digits.
        var numerator = amount.minorUnits, denominator = source.minorUnits
        for _ in 0..<(source.currency.minorDigits + digits) {
            let (product, overflow) = numerator.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            numerator = product
        }
        for _ in 0..<amount.currency.minorDigits {
            let (product, overflow) = denominator.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            denominator = product
        }
        let scaled = (numerator + denominator / 2) / denominator
        var text = String(scaled)
        if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
        let whole = text.dropLast(digits), fraction = text.suffix(digits)
        guard whole.count + digits <= totalDigits else { return nil }
        return whole + "." + fraction
    }

    public let account: Account
    /// Who issues the statement (`nestegg.json`'s issuer), if named.
    public let issuerName: String?
    public let month: CalendarMonth
    /// 1 for the account's first statement, then one more each month.
    public let sequence: Int
    public let isProvisional: Bool
    public let first: CivilDate
    /// The last day the figures cover: the period's last day, or the as-of date while provisional.
    public let through: CivilDate
    /// The site's time zone, which the dates and times are in.
    public let timeZone: String
    /// Offsets from UTC at the start of `first` and the end of `through`.
    public let firstOffsetSeconds: Int
    public let throughOffsetSeconds: Int
    /// Both `nil` without a balance file.
    public let opening: Money?
    /// The balance on `through`: the closing balance of a final statement.
    public let closing: Money?
    public let moneyIn: Money
    public let moneyOut: Money
    /// ``StatementDigest``: 64 hexadecimal digits.
    public let digest: String
    public let entries: [Entry]

    public var net: Money { moneyIn - moneyOut }
    public var currency: Currency { account.currency }

    init(_ statement: StatementPeriods.Statement, data: AccountData, sequence: Int, digest: String, context: ReportContext) {
        let clock = context.clock
        let identifiers = data.identifiers
        account = Account(uid: data.account.uid, name: data.account.name, type: data.account.type, currency: data.account.currency,
                          holderName: data.holderName, holderAddress: data.holderAddress, iban: identifiers?.iban, bic: identifiers?.bic,
                          sortCode: identifiers?.bankIdentifier, accountNumber: identifiers?.accountIdentifier)
        issuerName = context.settings.issuer?.name
        month = statement.month
        self.sequence = sequence
        isProvisional = statement.isProvisional
        first = statement.period.first
        through = statement.through
        timeZone = clock.identifier
        firstOffsetSeconds = Self.offset(clock, at: first, endOfDay: false)
        throughOffsetSeconds = Self.offset(clock, at: through, endOfDay: true)
        opening = statement.opening
        closing = statement.closing
        moneyIn = statement.moneyIn
        moneyOut = statement.moneyOut
        self.digest = digest
        entries = statement.lines.map { line in
            let item = line.item
            var entry = Entry(uid: item.uid, amount: item.amount, direction: item.direction, local: clock.localDateTime(of: item.transactionTime),
                         offsetSeconds: clock.offsetSeconds(at: item.transactionTime), source: item.source.rawValue,
                         counterparty: item.counterPartyName, reference: item.reference, category: item.spendingCategory,
                         balance: line.balance,
                         sourceAmount: item.sourceAmount.flatMap { $0.currency == item.amount.currency ? nil : $0 })
            entry.dateOnly = item.dateOnly
            return entry
        }
    }

    /// The clock's offset at the start (00:00) or the end (23:59:59) of a local day, found by
    /// trying the offset at that wall time read as UTC (exact but within an hour of a change).
    static func offset(_ clock: LocalClock, at date: CivilDate, endOfDay: Bool) -> Int {
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + (endOfDay ? 86_399 : 0)
        let guess = clock.offsetSeconds(at: Instant(millisecondsSinceEpoch: seconds * 1000))
        return clock.offsetSeconds(at: Instant(millisecondsSinceEpoch: (seconds - Int64(guess)) * 1000))
    }
}
