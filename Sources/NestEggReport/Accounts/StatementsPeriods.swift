import NestEggModel
import NestEggSupport
/// Monthly statements of a bank account: which items make up each month's balance, and
/// the balances themselves, derived backwards from the account's cleared balance.
public enum StatementPeriods {
    /// Why a feed item is listed apart and not counted in the balance.
    public enum Apart: Equatable, Sendable {
        /// PENDING, UPCOMING, DECLINED, REVERSED…: not (yet) settled.
        case status(FeedStatus)
        /// Settled, but not in the account's currency (the loader warned about it).
        case foreignCurrency(Currency)

        public var reason: String {
            switch self {
            case .status(let status): return Text.humanized(status.rawValue)
            case .foreignCurrency(let currency): return "Settled in \(currency.code), not the account's currency"
            }
        }
    }

    public struct ApartItem: Sendable {
        public let item: FeedItem
        public let apart: Apart
    }

    /// A settled item with the balance after it (nil when the account has no balance).
    public struct Line: Sendable {
        public let item: FeedItem
        public let balance: Money?
    }

    public struct Statement: Sendable {
        public let month: CalendarMonth
        /// The month's days from the account's opening on: the whole month, but for the month the
        /// account was opened, which starts on the day it was.
        public let period: ReportingPeriod
        /// Final, or provisional when the data's as-of date falls inside the period.
        public internal(set) var status: ReportingPeriod.Status
        /// Settled items in the account's currency, in time order.
        public var lines: [Line]
        public var apart: [ApartItem]
        public var moneyIn: Money
        public var moneyOut: Money
        /// Both nil when the account has no balance file: the statement shows movements only.
        public var opening: Money?
        public var closing: Money?
        /// The period's payments that round up (``RoundUpRule``), in time order.
        public var roundUps: [RoundUpRule.CountedItem]
        public var roundUpTotal: Money

        public var net: Money { moneyIn - moneyOut }
        /// How many settled lines: `lines.count`, kept by ``trimmed()``.
        public var lineCount: Int { trimmedLineCount ?? lines.count }
        var trimmedLineCount: Int? = nil

        /// The statement's figures without its lines: what an account whose pages are made elsewhere keeps (its
        /// pages are made where its feed is; the index, the start page and the headline read no more).
        public func trimmed() -> Statement {
            var statement = self
            statement.trimmedLineCount = lineCount
            statement.lines = []
            statement.apart = []
            statement.roundUps = []
            return statement
        }
        public var hasBalance: Bool { opening != nil }
        public var isProvisional: Bool { status.isProvisional }
        /// The days the statement covers: its period, or for a provisional statement its first
        /// day to the data's as-of date (the day its balance is given on).
        public var covered: ReportingPeriod { period.covered(asOf: through) ?? period }
        /// The last day the statement's figures cover.
        public var through: CivilDate {
            if case .provisional(let through) = status { return through }
            return period.last
        }
    }

    /// Whether an item counts in the balance; `nil` means it does.
    public static func apart(_ item: FeedItem, accountCurrency: Currency) -> Apart? {
        if item.status != .settled { return .status(item.status) }
        if item.amount.currency != accountCurrency { return .foreignCurrency(item.amount.currency) }
        return nil
    }

    /// One statement per calendar month (on `clock`) from the month the account was opened (the
    /// day of its `createdAt`, or of its first feed item when that is earlier) to the month of
    /// `asOf`, the data's as-of date — months without a single item included, their balance carried
    /// through — oldest first; none without an as-of date. The month `asOf` falls in is
    /// provisional (``ReportingPeriod``); the first month starts on the day the account was opened.
    /// With a cleared balance in the account's currency, the newest month closes on it and each
    /// earlier month closes on the next one's opening balance; without one, only movements are known.
    public static func statements(for data: AccountData, clock: LocalClock, asOf: CivilDate?) -> [Statement] {
        statements(basis(for: data, clock: clock), asOf: asOf)
    }

    /// What an account's statements are made of, whatever the as-of date: the day the account was
    /// opened, its latest item's date, each month's items and sums from the opening month to the
    /// latest item's, and the cleared balance. ``statements(_:asOf:)`` adds the quiet months up to
    /// the as-of date, the statuses and the balances; ``trimmed()`` drops the items, so that an
    /// account's summary (``AccountFigures``) can hold its statements before the data's as-of date is known.
    public struct Basis: Sendable {
        let currency: Currency
        let opening: CivilDate
        let latest: CivilDate?
        /// From the opening month to the latest item's (or the opening one), their statuses as of that day.
        var months: [Statement]
        /// The cleared balance, when it is in the account's currency.
        let cleared: Money?

        public func trimmed() -> Basis {
            var basis = self
            basis.months = months.map { $0.trimmed() }
            return basis
        }
    }

    /// `nil`: the account has neither an opening date nor an item, so no statement.
    public static func basis(for data: AccountData, clock: LocalClock) -> Basis? {
        let currency = data.account.currency
        let ordered = data.feed.sorted { ($0.transactionTime, $0.uid) < ($1.transactionTime, $1.uid) }
        let dates = ordered.map { clock.date(of: $0.transactionTime) }
        // Where a clock turns back across midnight, an item can fall on a later date than the
        // latest instant, and a later item on an earlier date than the first: the data reaches both.
        guard let opening = ([data.account.createdAt.map(clock.date(of:))] + [dates.min()]).compactMap({ $0 }).min() else {
            return nil
        }
        let latest = dates.max()
        let end = max(opening, latest ?? opening)
        let firstMonth = CalendarMonth(opening)
        let monthCount = CalendarMonth(end).index - firstMonth.index + 1
        // Statements are filled in place, found by month: a month's lines are never copied per item.
        var months: [Statement] = (0..<monthCount).map { offset in
            emptyMonth(CalendarMonth(index: firstMonth.index + offset), opening: opening, asOf: end, currency: currency)
        }
        for (item, date) in zip(ordered, dates) {
            let index = CalendarMonth(date).index - firstMonth.index
            if let apart = apart(item, accountCurrency: currency) {
                months[index].apart.append(ApartItem(item: item, apart: apart))
            } else {
                months[index].lines.append(Line(item: item, balance: nil))
                if item.direction == .in { months[index].moneyIn += item.amount } else { months[index].moneyOut += item.amount }
            }
            // Round-ups are shown for the accounts that have them (``AccountData/roundUps``).
            if data.roundUps, RoundUpRule.exclusion(for: item, accountCurrency: currency) == nil {
                let up = RoundUpRule.roundUp(item.amount)
                months[index].roundUps.append(RoundUpRule.CountedItem(item: item, roundUp: up))
                months[index].roundUpTotal += up
            }
        }
        let cleared = data.balance?.cleared
        return Basis(currency: currency, opening: opening, latest: latest, months: months,
                     cleared: cleared?.currency == currency ? cleared : nil)
    }

    /// The statements of ``statements(for:clock:asOf:)`` from their basis.
    public static func statements(_ basis: Basis?, asOf: CivilDate?) -> [Statement] {
        guard let basis, let (asOf, monthCount) = span(basis, asOf: asOf) else { return [] }
        let firstMonth = CalendarMonth(basis.opening)
        var statements = basis.months
        statements.reserveCapacity(monthCount)
        for index in statements.indices { statements[index].status = statements[index].period.status(asOf: asOf) }
        for offset in statements.count..<monthCount {
            statements.append(emptyMonth(CalendarMonth(index: firstMonth.index + offset), opening: basis.opening, asOf: asOf, currency: basis.currency))
        }
        guard var closing = basis.cleared else { return statements }
        for index in statements.indices.reversed() {
            let opening = closing - statements[index].net
            statements[index].opening = opening
            statements[index].closing = closing
            var running = opening
            statements[index].lines = statements[index].lines.map { line in
                running += line.item.signedAmount
                return Line(item: line.item, balance: running)
            }
            closing = opening
        }
        return statements
    }

    /// How many statements ``statements(_:asOf:)`` makes of `basis`, without making them.
    public static func statementCount(_ basis: Basis?, asOf: CivilDate?) -> Int {
        basis.flatMap { span($0, asOf: asOf)?.months } ?? 0
    }

    /// The date the statements run to (the as-of date, or the latest item's if later) and how
    /// many months they cover; `nil`: none (no as-of date, or the account opened after it).
    private static func span(_ basis: Basis, asOf: CivilDate?) -> (asOf: CivilDate, months: Int)? {
        guard var asOf else { return nil }
        if let latest = basis.latest { asOf = max(asOf, latest) }
        guard basis.opening <= asOf else { return nil }
        return (asOf, CalendarMonth(asOf).index - CalendarMonth(basis.opening).index + 1)
    }

    static func emptyMonth(_ month: CalendarMonth, opening: CivilDate, asOf: CivilDate, currency: Currency) -> Statement {
        let period = ReportingPeriod(first: max(month.firstDay, opening), last: month.lastDay)
        return Statement(month: month, period: period, status: period.status(asOf: asOf), lines: [], apart: [],
                         moneyIn: .zero(currency), moneyOut: .zero(currency), opening: nil, closing: nil,
                         roundUps: [], roundUpTotal: .zero(currency))
    }
}
