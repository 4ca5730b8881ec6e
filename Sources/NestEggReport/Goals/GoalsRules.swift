import NestEggModel
import NestEggSupport
/// The rules behind the savings-goals pages, as pure functions: progress towards a target,
/// the order of the goals list, saved per week, and when a target will be reached.
///
/// "The last N weeks" always counts back from the data's own latest moment (the newest
/// Qapital feed item), never from the day the site is built, so a build is reproducible.
public enum GoalsRules {
    // MARK: Progress

    public enum Progress: Equatable, Sendable {
        /// No target (null, or not a positive amount).
        case noTarget
        /// Below the target: the whole-number percentage saved, rounded down (99.9% shows as 99%).
        case inProgress(percent: Int)
        /// At or past the target (the percentage may exceed 100).
        case reached(percent: Int)

        public var percent: Int? {
            switch self {
            case .noTarget: return nil
            case .inProgress(let percent), .reached(let percent): return percent
            }
        }

        public var isReached: Bool { if case .reached = self { return true } else { return false } }
    }

    /// Progress of `saved` towards `target`. `reportedPercent` is a percentage the data gives
    /// (Starling's `savedPercentage`); it is shown as given, while "reached" still needs saved ≥ target
    /// (or a reported 100% or more).
    public static func progress(saved: Money, target: Money?, reportedPercent: Int? = nil) -> Progress {
        guard let target, target.minorUnits > 0 else { return .noTarget }
        let sameCurrency = saved.currency == target.currency
        guard let percent = reportedPercent ?? (sameCurrency ? ReportContext.percent(saved.minorUnits, of: target.minorUnits) : nil) else {
            return .noTarget
        }
        if (sameCurrency && saved.minorUnits >= target.minorUnits) || percent >= 100 {
            return .reached(percent: percent)
        }
        return .inProgress(percent: max(percent, 0))
    }

    /// How far along a goal is, in hundredths of a percent, capped at 100% (every reached goal
    /// is equally "there"); `nil` without a target. Used only for ordering.
    static func closeness(saved: Money, target: Money?, reportedPercent: Int?) -> Int128? {
        switch progress(saved: saved, target: target, reportedPercent: reportedPercent) {
        case .noTarget: return nil
        case .reached: return 10_000
        case .inProgress(let percent):
            guard let target, saved.currency == target.currency, reportedPercent == nil else { return Int128(percent) * 100 }
            let hundredths: Int128 = saved.minorUnits * 10_000 / target.minorUnits
            return max(0, min(10_000, hundredths))
        }
    }

    // MARK: Order

    /// What the goals list is sorted by.
    public struct SortKey: Sendable {
        public var saved: Money
        public var target: Money?
        public var reportedPercent: Int?
        public var name: String
        /// A unique, stable key (source and id) that breaks every remaining tie.
        public var id: String
    }

    /// `items` closest to their target first: goals that have reached it, then the rest by the
    /// share saved (highest first); then goals without a target. Ties by name (case-insensitive),
    /// then id. Each one's key is worked out once.
    public static func inListOrder<Item>(_ items: [Item], key: (Item) -> SortKey) -> [Item] {
        let places = items.map { ListPlace(key($0)) }
        return places.indices.sorted { places[$0] < places[$1] }.map { items[$0] }
    }

    /// A goal's place in the list, as ``inListOrder(_:key:)`` compares it.
    struct ListPlace: Comparable {
        let closeness: Int128
        let name: String
        let id: String

        init(_ key: SortKey) {
            closeness = GoalsRules.closeness(saved: key.saved, target: key.target, reportedPercent: key.reportedPercent) ?? -1
            name = key.name.lowercased()
            id = key.id
        }

        static func < (a: ListPlace, b: ListPlace) -> Bool {
            if a.closeness != b.closeness { return a.closeness > b.closeness }
            if a.name != b.name { return a.name < b.name }
            return a.id < b.id
        }
    }

    // MARK: Weeks

    public struct WeekTotal: Equatable, Sendable {
        public let week: ISOWeek
        public let saved: Money
        public let count: Int
    }

    /// Saved per ISO week (Monday to Sunday in the site's time zone) for the `count` weeks that end
    /// with the week of `asOf`, oldest first; weeks without saving are there with zero.
    public static func weeklyTotals(_ feed: [QapitalFeedItem], currency: Currency, asOf: Instant, clock: LocalClock,
                                    count: Int = 12) -> [WeekTotal] {
        let lastMonday = ISOWeek(containing: clock.date(of: asOf)).monday
        let weeks = (0..<count).map { ISOWeek(containing: lastMonday.adding(days: -7 * (count - 1 - $0))) }
        var sums: [ISOWeek: (Money, Int)] = [:]
        for item in feed where item.amount.currency == currency {
            let week = ISOWeek(containing: clock.date(of: item.timestamp))
            let (sum, n) = sums[week] ?? (.zero(currency), 0)
            sums[week] = (sum + item.amount, n + 1)
        }
        return weeks.map { week in
            let (sum, n) = sums[week] ?? (.zero(currency), 0)
            return WeekTotal(week: week, saved: sum, count: n)
        }
    }

    // MARK: Projection

    public enum Projection: Equatable, Sendable {
        case noTarget
        case targetReached
        /// Nothing (or nothing positive) saved in the window.
        case noRecentSaving
        /// The source keeps no history for the goal (Starling goals), so there is no pace.
        case noHistory
        /// The target is reached on `date` at `weeklyPace`, `remaining` to go.
        case reachedOn(date: CivilDate, weeklyPace: Money, remaining: Money)
        /// At this pace, more than a century away.
        case beyondACentury(weeklyPace: Money)
    }

    /// The window the pace is measured over: the `weeks` × 7 days that end at `asOf`.
    public static func paceWindow(asOf: Instant, weeks: Int) -> (after: Instant, upTo: Instant) {
        (Instant(millisecondsSinceEpoch: asOf.millisecondsSinceEpoch - Int64(weeks) * 7 * 86_400_000), asOf)
    }

    /// When the target will be reached at the average weekly pace of the last `weeks` weeks
    /// (the items after `asOf − weeks × 7 days` up to `asOf`). `feed` is `nil` when the source has none.
    /// The date is the local date of `asOf` plus the days the rest takes at that pace, rounded up.
    public static func projection(saved: Money, target: Money?, reportedPercent: Int? = nil, feed: [QapitalFeedItem]?,
                                  asOf: Instant?, clock: LocalClock, weeks: Int = 8) -> Projection {
        let progress = progress(saved: saved, target: target, reportedPercent: reportedPercent)
        guard let target, progress != .noTarget else { return .noTarget }
        if progress.isReached { return .targetReached }
        guard let feed else { return .noHistory }
        guard let asOf, target.currency == saved.currency else { return .noRecentSaving }
        let window = paceWindow(asOf: asOf, weeks: weeks)
        var recent = Money.zero(saved.currency)
        for item in feed where item.timestamp > window.after && item.timestamp <= window.upTo && item.amount.currency == saved.currency {
            recent += item.amount
        }
        guard recent.minorUnits > 0 else { return .noRecentSaving }
        let days = Int128(weeks) * 7
        let remaining = target - saved
        let weekCount = Int128(weeks)
        let pace = Money(minorUnits: (recent.minorUnits + weekCount / 2) / weekCount, currency: saved.currency)
        // days needed = ceil(remaining × days / recent), in integers.
        let scaled: Int128 = remaining.minorUnits * days
        let needed: Int128 = (scaled + recent.minorUnits - 1) / recent.minorUnits
        guard needed <= 36_525 else { return .beyondACentury(weeklyPace: pace) }
        return .reachedOn(date: clock.date(of: asOf).adding(days: Int(needed)), weeklyPace: pace, remaining: remaining)
    }

    // MARK: Breakdowns

    public struct Share: Equatable, Sendable {
        public let label: String
        public let saved: Money
        public let count: Int
    }

    /// Sums grouped by `key` (two people called Anna stay two rows), shown by `label`, largest
    /// first (ties by label, then key), so every breakdown reads the same way.
    static func shares(_ feed: [QapitalFeedItem], currency: Currency, key: (QapitalFeedItem) -> String,
                       label: (QapitalFeedItem) -> String) -> [Share] {
        var sums: [String: (label: String, saved: Money, count: Int)] = [:]
        for item in feed where item.amount.currency == currency {
            let group = key(item)
            let (name, sum, n) = sums[group] ?? (label(item), .zero(currency), 0)
            sums[group] = (name, sum + item.amount, n + 1)
        }
        return sums.sorted { a, b in
            (b.value.saved.minorUnits, a.value.label, a.key) < (a.value.saved.minorUnits, b.value.label, b.key)
        }.map { Share(label: $0.value.label, saved: $0.value.saved, count: $0.value.count) }
    }
}

/// How Qapital's ids read on the pages, with "User 7" and "Rule 9" for ids that name nobody.
public struct QapitalNames: Sendable {
    public let data: QapitalData

    public init(_ data: QapitalData) { self.data = data }

    public func user(_ id: Int) -> String { data.users[id]?.displayName ?? "User \(id)" }

    public func avatar(_ id: Int) -> SafeURL? { data.users[id]?.avatarURL.flatMap(SafeURL.init) }

    /// `roundup` → `Round-up`, `guilty_pleasure` → `Guilty pleasure`, others as written, humanised.
    public static func ruleType(_ type: RuleType) -> String {
        switch type {
        case .roundUp: return "Round-up"
        case .guiltyPleasure: return "Guilty pleasure"
        default: return Text.humanized(type.rawValue)
        }
    }

    /// The rule type an item counts under: its rule's type, "Manual transfer", or "Rule 9" when unknown.
    public func ruleType(of item: QapitalFeedItem) -> String {
        guard let id = item.ruleId else { return "Manual transfer" }
        guard let rule = data.rules[id] else { return "Rule \(id)" }
        return Self.ruleType(rule.type)
    }

    /// The rule with its type and amount (`Round-up to US$1.00`, `Guilty pleasure, US$4.00 each`),
    /// `manual` without one, `Rule 9` when the id names no rule.
    public func rule(of item: QapitalFeedItem, money: (Money) -> String) -> String {
        guard let id = item.ruleId else { return "manual" }
        guard let rule = data.rules[id] else { return "Rule \(id)" }
        switch rule.type {
        case .roundUp: return "Round-up to \(money(rule.amount))"
        case .guiltyPleasure: return "Guilty pleasure, \(money(rule.amount)) each"
        default: return "\(Self.ruleType(rule.type)), \(money(rule.amount))"
        }
    }
}
