import NestEggModel
import NestEggSupport
/// Monthly statements of a Starling account: which items make up each month's balance, and
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
        public var hasBalance: Bool { opening != nil }
    }

    /// Whether an item counts in the balance; `nil` means it does.
    public static func apart(_ item: FeedItem, accountCurrency: Currency) -> Apart? {
        if item.status != .settled { return .status(item.status) }
        if item.amount.currency != accountCurrency { return .foreignCurrency(item.amount.currency) }
        return nil
    }

    /// One statement per calendar month (on `clock`) that has any feed item, oldest first.
    /// With a cleared balance in the account's currency, the newest month closes on it and each
    /// earlier month closes on the next one's opening balance; without one, only movements are known.
    public static func statements(for data: StarlingAccountData, clock: LocalClock) -> [Statement] {
        let currency = data.account.currency
        let ordered = data.feed.sorted { ($0.transactionTime, $0.uid) < ($1.transactionTime, $1.uid) }
        // Statements are filled in place, found by month (not copied out of a dictionary and
        // back, which copied each month's lines at every item).
        var statements: [Statement] = []
        var position: [CalendarMonth: Int] = [:]
        for item in ordered {
            let key = CalendarMonth(clock.date(of: item.transactionTime))
            let index: Int
            if let known = position[key] {
                index = known
            } else {
                index = statements.count
                position[key] = index
                statements.append(Statement(month: key, lines: [], apart: [], moneyIn: .zero(currency), moneyOut: .zero(currency),
                                            opening: nil, closing: nil, roundUps: [], roundUpTotal: .zero(currency)))
            }
            if let apart = apart(item, accountCurrency: currency) {
                statements[index].apart.append(ApartItem(item: item, apart: apart))
            } else {
                statements[index].lines.append(Line(item: item, balance: nil))
                if item.direction == .in { statements[index].moneyIn += item.amount } else { statements[index].moneyOut += item.amount }
            }
            if RoundUpRule.exclusion(for: item, accountCurrency: currency) == nil {
                let up = RoundUpRule.roundUp(item.amount)
                statements[index].roundUps.append(RoundUpRule.CountedItem(item: item, roundUp: up))
                statements[index].roundUpTotal += up
            }
        }
        // In time order the months come in order too, but for a clock that turns back across midnight.
        statements.sort { $0.month < $1.month }
        guard let cleared = data.balance?.cleared, cleared.currency == currency else { return statements }
        var closing = cleared
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
}
