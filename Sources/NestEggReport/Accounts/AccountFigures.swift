import NestEggModel
import NestEggSupport
/// An account's figures: everything the site-wide pages need of a bank account — its latest
/// time, its round-up weeks, its statements without their items, its cash flow, recurring series
/// and payments, and, when worked out from the feed, its rows of the spending list.
///
/// The site-wide pages read every account's figures, never its feed (``SiteReport``): worked out
/// from the feed, or read back from a summary when the account's own pages are made elsewhere
/// (``Page/entity``). When the figures were read back, they hold no rows (they come with
/// ``SiteReport/SpendingRows/runs``), and their totals are one sum of all its accounts' (``SpendingTotals``).
public struct AccountFigures: Sendable {
    /// The figures as they are held: worked out from the feed, or the ``Summary`` they were read
    /// from (a few integers a week or month), decoded each time a report asks. A build holds every
    /// other account's figures, so that is the form that grows with the site: plain integers cost
    /// a fraction of the weeks and months decoded (with the statements made of them). Each
    /// account's are decoded a few times, one at a time, keeping none: to count its statements,
    /// for the start page's round-ups and statements and the headline's balances, and for the
    /// index page that lists it.
    private enum Held: Sendable {
        case values(weeks: [RoundUpRule.Week], basis: StatementPeriods.Basis?)
        case summary(Summary, Currency)
    }
    private let held: Held
    /// How many round-up weeks (``weeks``), for the index's pages without decoding them.
    public let weekCount: Int

    /// ``RoundUpRule/weeks(of:currency:clock:)``, each ``RoundUpRule/Week/trimmed()``.
    var weeks: [RoundUpRule.Week] { decoded(.weeks).weeks }
    /// What the account's statements are made of (``StatementPeriods/Basis``), trimmed: the
    /// figures do not depend on the data's as-of date, so they can be worked out before it is known.
    var statementBasis: StatementPeriods.Basis? { decoded(.basis).basis }
    /// The account's rows of the spending list (``TransactionsRules/items(from:clock:figures:)``),
    /// when the figures were worked out from its feed; `nil` when they were read from a
    /// ``Summary``: the rows are then held apart, in sorted runs (``SpendingLists``), and their
    /// totals as one sum (``SpendingTotals``).
    public let spending: [SpendingItem]?
    /// The latest transaction time in the account's feed: the data's as-of date is that of every
    /// unit (``ReportContext/init(dataset:figures:)``). Set by whoever read the feed.
    public var latest: Instant?
    /// The account's cash flow (``AccountCashFlow``) and recurring series (``RecurringRule``), for
    /// the cash-flow, budgets and recurring pages: worked out from the feed, or read from its
    /// ``Summary`` (``Summary/flows``); `nil` from a summary without them.
    public private(set) var cashFlow: AccountCashFlow?
    public private(set) var recurring: RecurringRule.Found?
    /// The account's payments to and from its counterparties (``PayeePayment/of(_:clock:)``), for
    /// the counterparty pages: as the cash flow.
    public private(set) var payments: [PayeePayment]?

    /// Which of the figures a read decodes: the other is passed over.
    private enum Part { case weeks, basis, both }

    private func decoded(_ part: Part = .both) -> (weeks: [RoundUpRule.Week], basis: StatementPeriods.Basis?) {
        switch held {
        case .values(let weeks, let basis): return (weeks, basis)
        case .summary(let summary, let currency):
            // ``init(summary:account:)`` checked this very summary before keeping it.
            guard let figures = Self.decode(summary, currency: currency, part: part) else {
                preconditionFailure("an account's figures read once no longer read")
            }
            return figures
        }
    }

    /// Only the context's clock and settings count, not its as-of date.
    public init(_ data: AccountData, context: ReportContext) {
        let weeks = RoundUpRule.weeks(of: data.feed, currency: data.account.currency, clock: context.clock).map { $0.trimmed() }
        held = .values(weeks: weeks, basis: StatementPeriods.basis(for: data, clock: context.clock)?.trimmed())
        weekCount = weeks.count
        var categories = TransactionsRules.StarlingCategories(settings: context.settings)
        spending = TransactionsRules.starlingItems(of: data, clock: context.clock, categories: &categories)
        cashFlow = AccountCashFlow.of(data, clock: context.clock, settings: context.settings)
        recurring = RecurringRule.of(data, clock: context.clock)
        payments = PayeePayment.of(data, clock: context.clock)
        latest = data.latestFeedInstant
    }

    /// ``StatementPeriods/statements(for:clock:asOf:)`` to the data's as-of date, each ``StatementPeriods/Statement/trimmed()``.
    public func statements(asOf: CivilDate?) -> [StatementPeriods.Statement] { StatementPeriods.statements(statementBasis, asOf: asOf) }

    /// How many statements ``statements(asOf:)`` gives, without making them.
    public func statementCount(asOf: CivilDate?) -> Int { StatementPeriods.statementCount(statementBasis, asOf: asOf) }
}

extension AccountFigures {
    /// The figures as plain numbers, a value that encodes as JSON (``Codable``) and is checked as
    /// it is read back (``init(summary:account:)``). Amounts are in minor units of the account's
    /// currency; dates are days since 1970-01-01. The account's rows of the spending list are not
    /// in it (``SpendingItem/StarlingRow``), nor their totals (``SpendingTotals``).
    public struct Summary: Codable, Sendable, Equatable {
        public struct Week: Codable, Sendable, Equatable {
            public var year: Int
            public var week: Int
            public var spent: Int128
            public var roundUp: Int128
            public var payments: Int
        }

        /// A month's sums of the statements' basis, from its opening month on, one a month.
        public struct Month: Codable, Sendable, Equatable {
            public var moneyIn: Int128
            public var moneyOut: Int128
            public var roundUps: Int128
            public var lines: Int
        }

        public struct Basis: Codable, Sendable, Equatable {
            public var opening: Int
            public var latest: Int?
            public var cleared: Int128?
            public var months: [Month]
        }

        public var weeks: [Week]
        public var basis: Basis?
        /// The cash flow, recurring series and payments; `nil` when the figures held none.
        public var flows: Flows?
    }

    /// The figures as ``Summary`` values; ``init(summary:account:)`` takes them back.
    public var summary: Summary {
        switch held {
        case .summary(var summary, _):
            summary.flows = flows
            return summary
        case .values(let weeks, let basis):
            return Summary(
                weeks: weeks.map { .init(year: $0.week.year, week: $0.week.week, spent: $0.spent.minorUnits, roundUp: $0.roundUp.minorUnits,
                                         payments: $0.payments) },
                basis: basis.map { basis in
                    .init(opening: basis.opening.daysSinceEpoch, latest: basis.latest?.daysSinceEpoch, cleared: basis.cleared?.minorUnits,
                          months: basis.months.map { .init(moneyIn: $0.moneyIn.minorUnits, moneyOut: $0.moneyOut.minorUnits,
                                                           roundUps: $0.roundUpTotal.minorUnits, lines: $0.lineCount) })
                },
                flows: flows)
        }
    }

    /// Times the figures may hold: those of the data (``CivilDate/supportedYears``), a day either way.
    public static let instants: ClosedRange<Int64> = -62_104_233_600_000...253_370_937_599_999
    /// Local dates the figures may hold, in days since 1970-01-01: 0001-12-30 to 9999-01-02.
    public static let days = -718_799...2_932_533

    /// The figures ``summary`` gave for `account`; `nil` when they are not such figures (a date or
    /// an amount out of range, weeks out of order, a month missing or too many).
    public init?(summary: Summary, account: StarlingAccount) {
        guard let figures = Self.decode(summary, currency: account.currency) else { return nil }
        if let flows = summary.flows {
            guard let decoded = Self.decode(flows, account: account) else { return nil }
            (cashFlow, recurring, payments) = (decoded.cashFlow, decoded.recurring, decoded.payments)
        }
        // The flows are held decoded, once: the summary keeps the weeks and months.
        var held = summary
        held.flows = nil
        self.held = .summary(held, account.currency)
        weekCount = figures.weeks.count
        spending = nil
    }

    /// The weeks and the statements' basis of `summary`, in `currency`; `nil` when it is not the
    /// summary of an account's figures. With `part` other than `.both`, the other part is passed
    /// over (and not checked): its weeks are empty, or its basis `nil`. Only a summary checked
    /// whole once (``init(summary:account:)``) is read in part.
    private static func decode(_ summary: Summary, currency: Currency, part: Part = .both)
        -> (weeks: [RoundUpRule.Week], basis: StatementPeriods.Basis?)? {
        // Bounds that no figure of real data reaches and no sum of them overflows: an amount, a sum
        // of up to 2²⁴ of them, a count, a time of years 1 to 9999.
        let largest = Money.maximumMinorUnits << 24
        func money(_ units: Int128, limit: Int128 = largest) -> Money? {
            (-limit...limit).contains(units) ? Money(minorUnits: units, currency: currency) : nil
        }
        func count(_ value: Int) -> Int? { (0...1 << 32).contains(value) ? value : nil }
        func date(_ days: Int) -> CivilDate? { Self.days.contains(days) ? CivilDate(daysSinceEpoch: days) : nil }
        var weeks: [RoundUpRule.Week] = []
        if part != .basis {
            weeks.reserveCapacity(summary.weeks.count)
            for entry in summary.weeks {
                guard (1...9998).contains(entry.year), (1...53).contains(entry.week), let spent = money(entry.spent),
                      let roundUp = money(entry.roundUp), let payments = count(entry.payments),
                      weeks.last.map({ $0.week < ISOWeek(year: entry.year, week: entry.week) }) ?? true else { return nil }
                var week = RoundUpRule.Week(week: ISOWeek(year: entry.year, week: entry.week), spent: spent, roundUp: roundUp)
                week.trimmedPayments = payments
                weeks.append(week)
            }
        }
        guard part != .weeks, let entry = summary.basis else { return (weeks, nil) }
        guard let opening = date(entry.opening) else { return nil }
        let latest = entry.latest.flatMap(date)
        let cleared = entry.cleared.flatMap { money($0, limit: Money.maximumMinorUnits) }
        guard (entry.latest == nil) == (latest == nil), (entry.cleared == nil) == (cleared == nil) else { return nil }
        var basis = StatementPeriods.Basis(currency: currency, opening: opening, latest: latest, months: [], cleared: cleared)
        // One month of sums from the opening month to the latest item's, as ``StatementPeriods/basis(for:clock:)`` has.
        let end = max(opening, latest ?? opening)
        let first = CalendarMonth(opening).index
        guard entry.months.count == CalendarMonth(end).index - first + 1 else { return nil }
        for (offset, sum) in entry.months.enumerated() {
            var month = StatementPeriods.emptyMonth(CalendarMonth(index: first + offset), opening: opening, asOf: end, currency: currency)
            guard let moneyIn = money(sum.moneyIn), let moneyOut = money(sum.moneyOut), let roundUps = money(sum.roundUps),
                  let lines = count(sum.lines) else { return nil }
            (month.moneyIn, month.moneyOut, month.roundUpTotal, month.trimmedLineCount) = (moneyIn, moneyOut, roundUps, lines)
            basis.months.append(month)
        }
        return (weeks, basis)
    }
}

extension SpendingItem {
    /// A bank account's row of the spending list as plain values, for a file that holds rows
    /// apart from their account's figures (``AccountFigures/spending`` is `nil` there): the
    /// account's UID, then the item's fields, amounts in minor units and dates in days since
    /// 1970-01-01. ``init(row:accountName:category:)`` takes it back, checked.
    public struct StarlingRow: Codable, Sendable, Equatable {
        public var account: String
        public var id: String
        public var name: String
        public var category: String
        public var categoryName: String
        public var units: Int128
        public var currency: String
        public var day: Int
        /// Milliseconds since 1970-01-01T00:00Z, when the item has a time.
        public var time: Int64?
        public var pending: Bool

        public init(account: String, id: String, name: String, category: String, categoryName: String, units: Int128,
                    currency: String, day: Int, time: Int64?, pending: Bool) {
            (self.account, self.id, self.name, self.category, self.categoryName) = (account, id, name, category, categoryName)
            (self.units, self.currency, self.day, self.time, self.pending) = (units, currency, day, time, pending)
        }

        // A row is a JSON array of its fields in this order, not an object: the accounts held as
        // summaries may bring a million of them, and the keys would be three fifths of each (about 245 bytes a row against 145 at scale 1).
        public func encode(to encoder: any Encoder) throws {
            var fields = encoder.unkeyedContainer()
            try fields.encode(account); try fields.encode(id); try fields.encode(name)
            try fields.encode(category); try fields.encode(categoryName); try fields.encode(units)
            try fields.encode(currency); try fields.encode(day)
            if let time { try fields.encode(time) } else { try fields.encodeNil() }
            try fields.encode(pending)
        }

        public init(from decoder: any Decoder) throws {
            var fields = try decoder.unkeyedContainer()
            account = try fields.decode(String.self); id = try fields.decode(String.self); name = try fields.decode(String.self)
            category = try fields.decode(String.self); categoryName = try fields.decode(String.self)
            units = try fields.decode(Int128.self); currency = try fields.decode(String.self); day = try fields.decode(Int.self)
            time = try fields.decodeNil() ? nil : try fields.decode(Int64.self)
            pending = try fields.decode(Bool.self)
            guard fields.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: fields, debugDescription: "a row has ten fields")
            }
        }
    }

    /// The row of this Starling item, of the account whose UID is `uid`.
    public func row(account uid: String) -> StarlingRow {
        let fields = self.fields
        return StarlingRow(account: uid, id: fields.sourceID, name: fields.name, category: fields.category.key, categoryName: fields.category.name,
                           units: fields.amount.minorUnits, currency: fields.amount.currency.code, day: fields.date.daysSinceEpoch,
                           time: fields.instant?.millisecondsSinceEpoch, pending: fields.pending)
    }

    /// The item of `row`, of the account `accountName` names, its category `category` (so that
    /// rows can share one); `nil` when it is not an item's (an amount, a date or a time out of
    /// range, a currency that is not one).
    public init?(row: StarlingRow, accountName: String, category: SpendingCategory) {
        guard let currency = Currency(code: row.currency), (-Money.maximumMinorUnits...Money.maximumMinorUnits).contains(row.units),
              AccountFigures.days.contains(row.day) else { return nil }
        var instant: Instant?
        if let time = row.time {
            guard AccountFigures.instants.contains(time) else { return nil }
            instant = Instant(millisecondsSinceEpoch: time)
        }
        self.init(sourceID: row.id, source: .bankAccount, name: row.name, category: category,
                  amount: Money(minorUnits: row.units, currency: currency), date: CivilDate(daysSinceEpoch: row.day), instant: instant,
                  accountName: accountName, provider: nil, pinned: true, pending: row.pending)
    }
}

extension AccountFigures {
    /// Every bank account's figures worked out from its feed, by UID, on every core: the map's
    /// work for a dataset that holds every feed (`except`: the accounts whose figures the caller
    /// already has, held elsewhere or mapped by the build). Only the context's clock and settings count.
    public static func of(_ dataset: Dataset, context: ReportContext, except: Set<String> = []) -> [String: AccountFigures] {
        of(dataset.accounts.filter { !except.contains($0.account.uid) }, context: context)
    }

    /// The figures of `accounts`, by UID, on every core.
    public static func of(_ accounts: [AccountData], context: ReportContext) -> [String: AccountFigures] {
        let figures = Concurrently.map(accounts.count) { AccountFigures(accounts[$0], context: context) }
        return Dictionary(zip(accounts.map(\.account.uid), figures), uniquingKeysWith: { first, _ in first })
    }
}
