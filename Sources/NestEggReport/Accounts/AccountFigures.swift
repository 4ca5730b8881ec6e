import NestEggModel
import NestEggSupport
/// An account's summary: what the site-wide pages need of a Starling account's feed — its latest
/// time, its round-up weeks and its statements without their items, and, when worked out from the
/// feed, its rows of the spending list.
///
/// A report given an account's summary (by UID, `elsewhere`) works from it instead of the account's
/// feed, which the dataset then does not hold, and lists the account's own pages without making
/// them (``Page/entity``): they are made elsewhere. When the summary was worked out elsewhere too,
/// it holds no rows (they come with ``SpendingRows/runs``), and their totals are one sum of all
/// its accounts' (``SpendingTotals``).
public struct AccountFigures: Sendable {
    /// The figures as they are held: worked out from the feed (a share without a census, which
    /// keeps them decoded, its other accounts' rows too), or, read from a census, its records'
    /// lines as they stand (``records``: a few bytes a week or month), decoded each time a report
    /// asks. Every share holds every other account's figures, so that is the form that grows with
    /// the site: a thousand accounts at scale 100 are some 1.8 MB of lines against 48 MB decoded
    /// (with the statements made of them). A share decodes each account's a few times, one at a
    /// time, keeping none: to count its statements, for the start page's round-ups and statements
    /// and the headline's balances, and for the index page that lists it, if that is its own.
    private enum Held: Sendable {
        case values(weeks: [RoundUpRule.Week], basis: StatementPeriods.Basis?)
        /// The lines joined by line breaks, each account's own copy (not a slice of the census).
        case lines(String, Currency)
    }
    private let held: Held
    /// How many round-up weeks (``weeks``), for the index's pages without decoding them.
    public let weekCount: Int

    /// ``RoundUpRule/weeks(of:currency:clock:)``, each ``RoundUpRule/Week/trimmed()``.
    var weeks: [RoundUpRule.Week] { decoded(.weeks).weeks }
    /// What the account's statements are made of (``StatementPeriods/Basis``), trimmed: the
    /// figures do not depend on the data's as-of date, so a census can work them out before it is known.
    var statementBasis: StatementPeriods.Basis? { decoded(.basis).basis }
    /// The account's rows of the spending list (``TransactionsRules/items(from:clock:elsewhere:)``),
    /// when the figures were worked out from its feed; `nil` when they were read from a census,
    /// which keeps the rows apart, in one sorted run a file (``SpendingLists``), and their totals
    /// as one sum of all its accounts' (``SpendingTotals``).
    public let spending: [SpendingItem]?
    /// The latest transaction time in the account's feed: the data's as-of date is that of every
    /// unit (``ReportContext/init(dataset:summaries:)``). Set by whoever read the feed.
    public var latest: Instant?
    /// The account's cash flow (``AccountCashFlow``) and recurring series (``RecurringRule``), for
    /// the cash-flow, budgets and recurring pages: worked out from the feed; from a census, `nil`
    /// until the build reads the feed for them (``withFeedFigures(of:context:)``).
    public private(set) var cashFlow: AccountCashFlow?
    public private(set) var recurring: RecurringRule.Found?

    /// Which of the figures a read decodes: the lines of the other are passed over.
    private enum Part { case weeks, basis, both }

    private func decoded(_ part: Part = .both) -> (weeks: [RoundUpRule.Week], basis: StatementPeriods.Basis?) {
        switch held {
        case .values(let weeks, let basis): return (weeks, basis)
        case .lines(let text, let currency):
            // ``init(lines:account:)`` read these very lines before keeping them.
            let lines = text.isEmpty ? [] : text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
            guard let figures = Self.decode(lines, currency: currency, part: part) else {
                preconditionFailure("an account's figures read once no longer read")
            }
            return figures
        }
    }

    /// Only the context's clock and settings count, not its as-of date.
    public init(_ data: StarlingAccountData, context: ReportContext) {
        let weeks = RoundUpRule.weeks(of: data.feed, currency: data.account.currency, clock: context.clock).map { $0.trimmed() }
        held = .values(weeks: weeks, basis: StatementPeriods.basis(for: data, clock: context.clock)?.trimmed())
        weekCount = weeks.count
        var categories = TransactionsRules.StarlingCategories(settings: context.settings)
        spending = TransactionsRules.starlingItems(of: data, clock: context.clock, categories: &categories)
        cashFlow = AccountCashFlow.of(data, clock: context.clock, settings: context.settings)
        recurring = RecurringRule.of(data, clock: context.clock)
        latest = data.latestFeedInstant
    }

    /// These figures with the cash flow and recurring series of `data` (the account's feed, read
    /// again for them): what a census does not carry.
    public func withFeedFigures(of data: StarlingAccountData, context: ReportContext) -> AccountFigures {
        var figures = self
        figures.cashFlow = AccountCashFlow.of(data, clock: context.clock, settings: context.settings)
        figures.recurring = RecurringRule.of(data, clock: context.clock)
        return figures
    }

    /// ``StatementPeriods/statements(for:clock:asOf:)`` to the data's as-of date, each ``StatementPeriods/Statement/trimmed()``.
    public func statements(asOf: CivilDate?) -> [StatementPeriods.Statement] { StatementPeriods.statements(statementBasis, asOf: asOf) }

    /// How many statements ``statements(asOf:)`` gives, without making them.
    public func statementCount(asOf: CivilDate?) -> Int { StatementPeriods.statementCount(statementBasis, asOf: asOf) }
}

extension AccountFigures {
    /// The figures as records of fields, for a census (one ``NestEggSupport/FieldLine`` each);
    /// ``init(records:account:)`` reads them back. Amounts are in minor units of the account's
    /// currency; dates are days since 1970-01-01. The spending rows and their totals are not among
    /// them: a census keeps them for all its accounts at once (``SpendingItem/record(account:)``, ``SpendingTotals/records``).
    public var records: [[String]] {
        let (weeks, statementBasis) = decoded()
        var records: [[String]] = weeks.map { ["w", String($0.week.year), String($0.week.week), String($0.spent.minorUnits),
                                              String($0.roundUp.minorUnits), String($0.payments)] }
        if let basis = statementBasis {
            records.append(["b", String(basis.opening.daysSinceEpoch), basis.latest.map { String($0.daysSinceEpoch) } ?? "",
                            basis.cleared.map { String($0.minorUnits) } ?? ""])
            records += basis.months.map { ["m", String($0.moneyIn.minorUnits), String($0.moneyOut.minorUnits), String($0.roundUpTotal.minorUnits),
                                           String($0.lineCount)] }
        }
        return records
    }

    /// Times the records may hold: those of the data (``CivilDate/supportedYears``), a day either way.
    public static let instants: ClosedRange<Int64> = -62_104_233_600_000...253_370_937_599_999
    /// Local dates the records may hold, in days since 1970-01-01: 0001-12-30 to 9999-01-02.
    static let days = -718_799...2_932_533

    /// The figures ``records`` wrote for `account`; `nil` when they are not such records (a field
    /// that is not a number, a date out of range, a month missing or too many).
    public init?(records: [[String]], account: StarlingAccount) {
        self.init(lines: records.map { FieldLine.join($0)[...] }, account: account)
    }

    /// ``init(records:account:)`` from the records' lines as a census holds them (``NestEggSupport/FieldLine``):
    /// numbers are read from the lines in place, and only text fields become strings.
    public init?(lines: [Substring], account: StarlingAccount) {
        guard let figures = Self.decode(lines, currency: account.currency) else { return nil }
        held = .lines(lines.joined(separator: "\n"), account.currency)
        weekCount = figures.weeks.count
        spending = nil
    }

    /// The weeks and the statements' basis of the lines ``records`` wrote, in `currency`; `nil`
    /// when they are not such records. With `part` other than `.both`, the other part's lines are
    /// passed over unread (and not checked): its weeks are empty, or its basis `nil`. Only lines
    /// read whole once (``init(lines:account:)``) are read in part.
    private static func decode(_ lines: [Substring], currency: Currency, part: Part = .both)
        -> (weeks: [RoundUpRule.Week], basis: StatementPeriods.Basis?)? {
        // Bounds that no figure of real data reaches and no sum of them overflows: an amount, a sum
        // of up to 2²⁴ of them, a count, a time of years 1 to 9999.
        let largest = Money.maximumMinorUnits << 24
        func money(_ text: Substring, _ currency: Currency = currency, limit: Int128 = largest) -> Money? {
            guard let units = Int128(text), (-limit...limit).contains(units) else { return nil }
            return Money(minorUnits: units, currency: currency)
        }
        func count(_ text: Substring) -> Int? { Int(text).flatMap { (0...1 << 32).contains($0) ? $0 : nil } }
        func date(_ text: Substring) -> CivilDate? {
            guard let days = Int(text), Self.days.contains(days) else { return nil }
            return CivilDate(daysSinceEpoch: days)
        }
        var weeks: [RoundUpRule.Week] = []
        var basis: StatementPeriods.Basis?
        var sums: [[Substring]] = []
        for line in lines {
            // A line of the part not asked for is passed over by its tag (the whole was read once, at init).
            switch (part, line.utf8.first) {
            case (.basis, UInt8(ascii: "w")), (.weeks, UInt8(ascii: "b")), (.weeks, UInt8(ascii: "m")): continue
            default: break
            }
            let record = FieldLine.fields(line)
            switch (record.first, record.count) {
            case ("w", 6):
                guard let year = Int(record[1]), (1...9998).contains(year), let number = Int(record[2]), (1...53).contains(number),
                      let spent = money(record[3]), let roundUp = money(record[4]), let payments = count(record[5]),
                      weeks.last.map({ $0.week < ISOWeek(year: year, week: number) }) ?? true else { return nil }
                var week = RoundUpRule.Week(week: ISOWeek(year: year, week: number), spent: spent, roundUp: roundUp)
                week.trimmedPayments = payments
                weeks.append(week)
            case ("b", 4) where basis == nil:
                guard let opening = date(record[1]) else { return nil }
                let latest = record[2].isEmpty ? nil : date(record[2])
                let cleared = record[3].isEmpty ? nil : money(record[3], limit: Money.maximumMinorUnits)
                guard record[2].isEmpty || latest != nil, record[3].isEmpty || cleared != nil else { return nil }
                basis = StatementPeriods.Basis(currency: currency, opening: opening, latest: latest, months: [], cleared: cleared)
            case ("m", 5) where basis != nil:
                sums.append(record)
            default:
                return nil
            }
        }
        if var filled = basis {
            // One month of sums from the opening month to the latest item's, as ``StatementPeriods/basis(for:clock:)`` has.
            let end = max(filled.opening, filled.latest ?? filled.opening)
            let first = CalendarMonth(filled.opening).index
            guard sums.count == CalendarMonth(end).index - first + 1 else { return nil }
            for (offset, sum) in sums.enumerated() {
                var month = StatementPeriods.emptyMonth(CalendarMonth(index: first + offset), opening: filled.opening, asOf: end, currency: currency)
                guard let moneyIn = money(sum[1]), let moneyOut = money(sum[2]), let roundUps = money(sum[3]), let lines = count(sum[4]) else { return nil }
                (month.moneyIn, month.moneyOut, month.roundUpTotal, month.trimmedLineCount) = (moneyIn, moneyOut, roundUps, lines)
                filled.months.append(month)
            }
            basis = filled
        } else if !sums.isEmpty {
            return nil
        }
        return (weeks, basis)
    }
}

extension SpendingItem {
    /// A Starling account's row as a census's sorted run holds it (``AccountFigures/records``
    /// leaves the rows out): the account's UID, then the item's fields.
    public func record(account uid: String) -> [String] {
        let fields = self.fields
        return ["r", uid, fields.sourceID, fields.name, fields.category.key, fields.category.name, String(fields.amount.minorUnits),
                fields.amount.currency.code, String(fields.date.daysSinceEpoch),
                fields.instant.map { String($0.millisecondsSinceEpoch) } ?? "", fields.pending ? "1" : "0"]
    }

    /// The row ``record(account:)`` wrote, its fields as a census line holds them (escaped), of
    /// the account `accountName` names, its category made by `category` (from the key and name
    /// fields, so that rows can share one); `nil` when it is not such a row (an amount, a date or
    /// a time out of range, a currency that is not one).
    public init?(record: [Substring], accountName: String,
                 category: (Substring, Substring) -> SpendingCategory = { SpendingCategory(key: FieldLine.unescaped($0), name: FieldLine.unescaped($1)) }) {
        guard record.count == 11, record[0] == "r", let currency = Currency(code: String(record[7])),
              let units = Int128(record[6]), (-Money.maximumMinorUnits...Money.maximumMinorUnits).contains(units),
              let days = Int(record[8]), AccountFigures.days.contains(days), record[10] == "0" || record[10] == "1" else { return nil }
        let instant = record[9].isEmpty ? nil : Int64(record[9]).flatMap { AccountFigures.instants.contains($0) ? Instant(millisecondsSinceEpoch: $0) : nil }
        guard record[9].isEmpty || instant != nil else { return nil }
        self.init(sourceID: FieldLine.unescaped(record[2]), source: .starling, name: FieldLine.unescaped(record[3]),
                  category: category(record[4], record[5]),
                  amount: Money(minorUnits: units, currency: currency), date: CivilDate(daysSinceEpoch: days), instant: instant,
                  accountName: accountName, provider: nil, pinned: true, pending: record[10] == "1")
    }
}
