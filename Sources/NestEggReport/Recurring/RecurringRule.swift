import NestEggModel
import NestEggSupport
/// Recurring payments found in one account's feed (a pure function of that account alone).
///
/// The rule, as docs/household.md explains it:
/// 1. Settled items (pending ones too, which are on their way) are grouped by counterparty (its name
///    trimmed, in any case) and direction; internal transfers are left out.
/// 2. A group's amounts are sorted and split into clusters: an amount joins the cluster of the
///    smallest amount before it when it is at most 10% more than that one; so a subscription and
///    the odd purchase at the same shop fall apart.
/// 3. A cluster's items in date order recur when every gap between them fits one interval: weekly
///    (5–9 days, at least four payments), monthly (24–36 days: a calendar month, 28 to 31 days, give or take a few) or yearly (350–380 days); a monthly
///    or yearly gap may also be twice that (one payment missed). Monthly and yearly need three
///    payments, or two of exactly the same amount. The payments must also keep their day: of the
///    week within a day, of the month within three days (a debit moved off a weekend).
/// 4. Its typical amount is the median (the lower of the middle two), its next date the last one
///    plus the interval (the same day of the next month, clamped to the month's end; the same day
///    next year), its yearly cost the typical amount × 52, × 12 or × 1.
public enum RecurringRule {
    public enum Interval: String, Sendable, CaseIterable {
        case weekly, monthly, yearly

        var days: ClosedRange<Int> {
            switch self {
            case .weekly: return 5...9
            case .monthly: return 24...36
            case .yearly: return 350...380
            }
        }
        public var perYear: Int { switch self { case .weekly: 52; case .monthly: 12; case .yearly: 1 } }
        public var label: String { switch self { case .weekly: "Every week"; case .monthly: "Every month"; case .yearly: "Every year" } }

        func next(after date: CivilDate) -> CivilDate {
            switch self {
            case .weekly: return date.adding(days: 7)
            case .monthly:
                let month = CalendarMonth(date).next
                return CivilDate(year: month.year, month: month.month, day: min(date.day, month.lastDay.day))!
            case .yearly:
                return CivilDate(year: date.year + 1, month: date.month, day: min(date.day, CalendarMonth(year: date.year + 1, month: date.month).lastDay.day))!
            }
        }
    }

    /// One recurring payment (or income) of one account.
    public struct Series: Sendable, Hashable {
        public let account: String
        public let counterparty: String
        public let incoming: Bool
        public let interval: Interval
        public let typical: Money
        public let count: Int
        public let first: CivilDate
        public let last: CivilDate
        public let next: CivilDate
        /// An upcoming item the bank has scheduled for this series, if any.
        public var scheduled: Upcoming?
        public var yearlyCost: Money { Money(minorUnits: typical.minorUnits * Int128(interval.perYear), currency: typical.currency) }
    }

    /// A feed item the bank shows as `UPCOMING`: scheduled, not yet paid.
    public struct Upcoming: Sendable, Hashable {
        public let account: String
        public let counterparty: String
        public let date: CivilDate
        public let amount: Money
        public let incoming: Bool
    }

    public struct Found: Sendable, Hashable {
        public let series: [Series]
        public let upcoming: [Upcoming]
    }

    /// A dated amount, as the rule reads an item.
    public struct Payment: Sendable, Hashable {
        public let date: CivilDate
        public let amount: Money
    }

    public static func key(_ name: String) -> String { Counterparty.key(name) }

    public static func of(_ data: AccountData, clock: LocalClock) -> Found {
        var groups: [String: (name: String, incoming: Bool, payments: [Payment])] = [:]
        var upcoming: [Upcoming] = []
        let account = data.account.name
        for item in data.feed where item.source != .internalTransfer && item.amount.currency == data.account.currency {
            let date = clock.date(of: item.transactionTime)
            let name = Text.trimmed(item.counterPartyName).isEmpty ? "Unnamed" : Text.trimmed(item.counterPartyName)
            if item.status.rawValue == "UPCOMING" {
                upcoming.append(Upcoming(account: account, counterparty: name, date: date, amount: item.amount, incoming: item.direction == .in))
                continue
            }
            guard item.status == .settled || item.status.rawValue == "PENDING" else { continue }
            let key = (item.direction == .in ? "in:" : "out:") + self.key(name)
            groups[key, default: (name, item.direction == .in, [])].payments.append(Payment(date: date, amount: item.amount))
        }
        var series: [Series] = []
        for key in groups.keys.sorted() {
            let group = groups[key]!
            for found in detect(group.payments) {
                var one = Series(account: account, counterparty: group.name, incoming: group.incoming, interval: found.interval,
                                 typical: found.typical, count: found.count, first: found.first, last: found.last, next: found.next)
                one.scheduled = upcoming.first { $0.incoming == group.incoming && self.key($0.counterparty) == self.key(group.name)
                    && within($0.amount, of: found.typical) }
                series.append(one)
            }
        }
        upcoming.sort { ($0.date, $0.counterparty) < ($1.date, $1.counterparty) }
        return Found(series: series, upcoming: upcoming)
    }

    /// Whether `amount` is within 10% of `anchor` (either way).
    static func within(_ amount: Money, of anchor: Money) -> Bool {
        let difference = (amount.minorUnits - anchor.minorUnits).magnitude
        return difference * 10 <= anchor.minorUnits.magnitude
    }

    /// Whether the dates keep one day: of the week (each within a day of the middle one's), or of
    /// the month (each within three days of it, counting days after the 28th as the 28th, round
    /// the month's end); yearly dates are held by their gaps alone.
    static func onTheSameDay(_ dates: [CivilDate], _ interval: Interval) -> Bool {
        let (days, cycle, slack): ([Int], Int, Int)
        switch interval {
        case .weekly: (days, cycle, slack) = (dates.map { (($0.daysSinceEpoch % 7) + 7) % 7 }, 7, 1)
        case .monthly: (days, cycle, slack) = (dates.map { min($0.day, 28) - 1 }, 28, 3)
        case .yearly: return true
        }
        // The middle of the days round the cycle: the one from which the farthest is nearest.
        func distance(_ a: Int, _ b: Int) -> Int { let d = abs(a - b) % cycle; return min(d, cycle - d) }
        return days.contains { centre in days.allSatisfy { distance($0, centre) <= slack } }
    }

    public struct Detected: Sendable, Hashable {
        public let interval: Interval
        public let typical: Money
        public let count: Int
        public let first: CivilDate
        public let last: CivilDate
        public let next: CivilDate
    }

    /// The recurring series among one counterparty's payments (steps 2 to 4 of the rule).
    public static func detect(_ payments: [Payment]) -> [Detected] {
        let byAmount = payments.sorted { ($0.amount.minorUnits, $0.date) < ($1.amount.minorUnits, $1.date) }
        var clusters: [[Payment]] = []
        for payment in byAmount {
            if let anchor = clusters.last?.first, payment.amount.minorUnits - anchor.amount.minorUnits <= anchor.amount.minorUnits / 10 {
                clusters[clusters.count - 1].append(payment)
            } else {
                clusters.append([payment])
            }
        }
        var result: [Detected] = []
        for cluster in clusters where cluster.count >= 2 {
            let dated = cluster.sorted { $0.date < $1.date }
            if dated.count == 2 && dated[0].amount != dated[1].amount { continue }
            let gaps = zip(dated, dated.dropFirst()).map { $1.date.daysSinceEpoch - $0.date.daysSinceEpoch }
            guard let interval = Interval.allCases.first(where: { interval in
                // A weekly series needs four payments and no gap missed: a shop visited about once a week is no subscription.
                if interval == .weekly && dated.count < 4 { return false }
                let missed = interval == .weekly ? nil : interval.days.lowerBound * 2...interval.days.upperBound * 2
                return gaps.allSatisfy { interval.days.contains($0) || missed?.contains($0) == true } && gaps.contains { interval.days.contains($0) }
                    && onTheSameDay(dated.map(\.date), interval)
            }) else { continue }
            let amounts = cluster.map(\.amount.minorUnits).sorted()
            let typical = Money(minorUnits: amounts[(amounts.count - 1) / 2], currency: cluster[0].amount.currency)
            let last = dated[dated.count - 1].date
            result.append(Detected(interval: interval, typical: typical, count: dated.count, first: dated[0].date, last: last,
                                   next: interval.next(after: last)))
        }
        return result
    }
}
