import NestEggModel
import NestEggSupport
/// The round-up rule of the Starling seed: "take all the transactions in a given week and
/// round them up to the nearest pound; £4.35, £5.20 and £0.87 give £1.58."
public enum RoundUpRule {
    /// Why a feed item does not count towards a round-up.
    public enum Exclusion: Equatable, Sendable {
        case incoming
        case status(FeedStatus)
        case internalTransfer
        case foreignCurrency(Currency)

        public var reason: String {
            switch self {
            case .incoming: return "money in"
            case .status(let status): return "\(status.rawValue.lowercased().replacingOccurrences(of: "_", with: " "))"
            case .internalTransfer: return "internal transfer"
            case .foreignCurrency(let currency): return "in \(currency.code), not the account's currency"
            }
        }
    }

    static let countedStatuses: Set<FeedStatus> = [.settled, .pending]

    /// `nil` when the item counts: money out, settled or pending, not a move between own accounts.
    public static func exclusion(for item: FeedItem, accountCurrency: Currency) -> Exclusion? {
        if item.direction == .in { return .incoming }
        if !countedStatuses.contains(item.status) { return .status(item.status) }
        if item.source == .internalTransfer { return .internalTransfer }
        if item.amount.currency != accountCurrency { return .foreignCurrency(item.amount.currency) }
        return nil
    }

    /// What it takes to reach the next whole unit: £4.35 → £0.65; £5.00 → £0.00.
    public static func roundUp(_ amount: Money) -> Money {
        let unit = amount.currency.minorUnitsPerUnit
        let remainder = amount.minorUnits.magnitude % UInt128(unit)
        return Money(minorUnits: remainder == 0 ? 0 : Int128(unit) - Int128(remainder), currency: amount.currency)
    }

    public struct CountedItem: Sendable {
        public let item: FeedItem
        public let roundUp: Money
    }

    public struct ExcludedItem: Sendable {
        public let item: FeedItem
        public let exclusion: Exclusion
    }

    /// One ISO week of one account.
    public struct Week: Sendable {
        public let week: ISOWeek
        public var counted: [CountedItem] = []
        public var excluded: [ExcludedItem] = []
        public var spent: Money
        public var roundUp: Money
        /// How many payments round up: `counted.count`, kept by ``trimmed()``.
        public var payments: Int { trimmedPayments ?? counted.count }
        var trimmedPayments: Int? = nil

        /// The week's figures without its items: what an account whose pages are made elsewhere keeps (its
        /// pages are made where its feed is; the index and the start page read no more).
        public func trimmed() -> Week {
            var week = Week(week: week, spent: spent, roundUp: roundUp)
            week.trimmedPayments = payments
            return week
        }
    }

    /// Every week from the account's first to its last feed item, oldest first, each with its
    /// items in time order. Weeks run Monday 00:00 to Monday 00:00 on the local clock.
    public static func weeks(of feed: [FeedItem], currency: Currency, clock: LocalClock) -> [Week] {
        guard !feed.isEmpty else { return [] }
        let ordered = feed.sorted { ($0.transactionTime, $0.uid) < ($1.transactionTime, $1.uid) }
        var byWeek: [ISOWeek: Week] = [:]
        for item in ordered {
            let key = ISOWeek(containing: clock.date(of: item.transactionTime))
            var week = byWeek[key] ?? Week(week: key, spent: .zero(currency), roundUp: .zero(currency))
            if let exclusion = exclusion(for: item, accountCurrency: currency) {
                week.excluded.append(ExcludedItem(item: item, exclusion: exclusion))
            } else {
                let up = roundUp(item.amount)
                week.counted.append(CountedItem(item: item, roundUp: up))
                week.spent += item.amount
                week.roundUp += up
            }
            byWeek[key] = week
        }
        let first = byWeek.keys.min()!, last = byWeek.keys.max()!
        // Quiet weeks between active ones are listed with nothing — unless the data spans more than
        // five years (one stray date must not add thousands of empty pages): then only active weeks.
        guard last.monday.daysSinceEpoch - first.monday.daysSinceEpoch <= 5 * 366 else {
            return byWeek.keys.sorted().map { byWeek[$0]! }
        }
        var result: [Week] = []
        var monday = first.monday
        while true {
            let key = ISOWeek(containing: monday)
            result.append(byWeek[key] ?? Week(week: key, spent: .zero(currency), roundUp: .zero(currency)))
            if key == last { break }
            monday = monday.adding(days: 7)
        }
        return result
    }
}
