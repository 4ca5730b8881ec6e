import NestEggModel
import NestEggSupport

/// The spending list's figures as sums that add up: what the insights, the start page's spending
/// and the transactions lists' counts, filters and sums are made of, without the rows.
///
/// Per category, month, currency and pinned or not, a count and a sum; per local date, the pinned
/// sums (the start page compares a month in progress with the same days of the month before);
/// each category's shown name; the first and last dates. Totals of any set of items add to the
/// totals of their union (``add(_:)-(SpendingTotals)``), whatever the order, so a build that
/// holds only some of the rows adds up the totals of the others — cells per category and month,
/// sums per day — instead of holding them, and every page that sums the list reads the same
/// figures however the rows were held.
public struct SpendingTotals: Sendable, Equatable {
    /// Which items a ``Sum`` counts.
    public struct Cell: Hashable, Sendable {
        /// The category's key (``SpendingCategory/key``).
        public let category: String
        public let month: CalendarMonth
        public let currency: Currency
        public let pinned: Bool
    }

    public struct Sum: Sendable, Equatable {
        public var count: Int
        public var minorUnits: Int128
    }

    private(set) var cells: [Cell: Sum] = [:]
    /// Each category's name: of its spellings, the first (``NestEggSupport/Text/precedes(_:_:)``), as the list shows it
    /// (``TransactionsRules/unifyingCategoryNames(_:)``).
    private(set) var names: [String: String] = [:]
    /// The pinned items' sums on each local date.
    private(set) var pinnedByDay: [CivilDate: MoneyTotals] = [:]
    /// The first and the last item's date.
    public private(set) var dates: ClosedRange<CivilDate>?

    public init() {}

    public init<S: Sequence>(_ items: S) where S.Element == SpendingItem {
        for item in items { add(item) }
    }

    public mutating func add(_ item: SpendingItem) {
        let fields = item.fields
        let added = add(Cell(category: fields.category.key, month: CalendarMonth(fields.date), currency: fields.amount.currency, pinned: fields.pinned),
                        Sum(count: 1, minorUnits: fields.amount.minorUnits))
        precondition(added, "spending totals past what a cell holds")
        name(fields.category)
        if fields.pinned { pinnedByDay[fields.date, default: MoneyTotals()].add(fields.amount) }
        include(fields.date...fields.date)
    }

    public mutating func add(_ other: SpendingTotals) {
        // Sums of data's amounts: far from what a cell holds (totals read back are checked to count their rows).
        for (cell, sum) in other.cells { precondition(add(cell, sum), "spending totals past what a cell holds") }
        for (key, name) in other.names { self.name(SpendingCategory(key: key, name: name)) }
        for (day, totals) in other.pinnedByDay {
            for amount in totals.amounts { pinnedByDay[day, default: MoneyTotals()].add(amount) }
        }
        if let range = other.dates { include(range) }
    }

    /// Adds `sum` to `cell`, up to `limit` minor units either way. - Returns: `false`, adding
    /// nothing, when the count or the sum would go past what it can hold.
    mutating func add(_ cell: Cell, _ sum: Sum, limit: Int128 = .max) -> Bool {
        let known = cells[cell] ?? Sum(count: 0, minorUnits: 0)
        let (count, countOverflow) = known.count.addingReportingOverflow(sum.count)
        let (units, sumOverflow) = known.minorUnits.addingReportingOverflow(sum.minorUnits)
        guard !countOverflow, !sumOverflow, (-limit...limit).contains(units) else { return false }
        cells[cell] = Sum(count: count, minorUnits: units)
        return true
    }

    mutating func name(_ category: SpendingCategory) {
        if let known = names[category.key], !Text.precedes(category.name, known) { return }
        names[category.key] = category.name
    }

    mutating func include(_ range: ClosedRange<CivilDate>) {
        dates = dates.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
    }

    /// Whether there is no item.
    public var isEmpty: Bool { cells.isEmpty }

    /// How many items in all; `nil` when that is past what an `Int` holds (totals read back,
    /// before they are checked against their rows).
    public var checkedCount: Int? {
        var total = 0
        for sum in cells.values {
            let (next, overflow) = total.addingReportingOverflow(sum.count)
            if overflow { return nil }
            total = next
        }
        return total
    }

    /// The category named as the list shows it.
    func category(_ key: String) -> SpendingCategory { SpendingCategory(key: key, name: names[key] ?? key) }

    // MARK: The rules, on the totals

    /// How many items each category has, by key.
    func countsByCategory() -> [String: Int] {
        var counts: [String: Int] = [:]
        for (cell, sum) in cells { counts[cell.category, default: 0] += sum.count }
        return counts
    }

    /// How many items of `category` (a key; `nil`: every one) in `month` (`nil`: every month).
    func count(category: String? = nil, month: CalendarMonth? = nil, pinned: Bool? = nil) -> Int {
        cells.reduce(0) { $0 + (Self.matches($1.key, category: category, month: month, pinned: pinned) ? $1.value.count : 0) }
    }

    /// The sum of the pinned items of `category` in `month`, per currency (``TransactionsRules/pinnedSum(_:)``).
    func pinnedSum(category: String? = nil, month: CalendarMonth? = nil) -> MoneyTotals {
        var totals = MoneyTotals()
        for (cell, sum) in cells where Self.matches(cell, category: category, month: month, pinned: true) {
            totals.add(Money(minorUnits: sum.minorUnits, currency: cell.currency))
        }
        return totals
    }

    /// The pinned items' sum from `first` to `last`, per currency.
    func pinnedSum(from first: CivilDate, to last: CivilDate) -> MoneyTotals {
        var totals = MoneyTotals()
        for (day, sums) in pinnedByDay where first <= day && day <= last { sums.amounts.forEach { totals.add($0) } }
        return totals
    }

    /// The categories that occur in `month` (`nil`: any), each once, in the stable order
    /// (``TransactionsRules/categories(in:)``); with `currency`, only those of its pinned items.
    func categories(month: CalendarMonth? = nil, months: Set<CalendarMonth>? = nil, pinnedIn currency: Currency? = nil) -> [SpendingCategory] {
        var keys: Set<String> = []
        for cell in cells.keys where (month.map { cell.month == $0 } ?? true) && (months.map { $0.contains(cell.month) } ?? true)
            && (currency.map { cell.pinned && cell.currency == $0 } ?? true) {
            keys.insert(cell.category)
        }
        return keys.map(category).sorted(by: TransactionsRules.precedes)
    }

    /// Currencies of the pinned items in `month` (`nil`: every month), `preferred` first (``TransactionsRules/currencies(in:preferred:)``).
    func currencies(month: CalendarMonth? = nil, preferred: Currency) -> [Currency] {
        TransactionsRules.ordered(Set(cells.keys.filter { cell in cell.pinned && (month.map { cell.month == $0 } ?? true) }.map(\.currency)), preferred: preferred)
    }

    /// Pinned spending per category in `currency` (in `month`, `nil`: every month), in the stable
    /// category order (``TransactionsRules/spendingByCategory(_:currency:)``).
    func byCategory(currency: Currency, month: CalendarMonth? = nil) -> [TransactionsRules.CategoryTotal] {
        var sums: [String: Sum] = [:]
        for (cell, sum) in cells where cell.pinned && cell.currency == currency && (month.map { cell.month == $0 } ?? true) {
            var total = sums[cell.category] ?? Sum(count: 0, minorUnits: 0)
            total.count += sum.count
            total.minorUnits += sum.minorUnits
            sums[cell.category] = total
        }
        return sums.keys.map(category).sorted(by: TransactionsRules.precedes).map { category in
            let sum = sums[category.key]!
            return TransactionsRules.CategoryTotal(category: category, amount: Money(minorUnits: sum.minorUnits, currency: currency), count: sum.count)
        }
    }

    /// Each month's count and pinned sum, of `category` (`nil`: every one).
    func months(category: String? = nil) -> [CalendarMonth: (count: Int, pinned: MoneyTotals)] {
        var months: [CalendarMonth: (count: Int, pinned: MoneyTotals)] = [:]
        for (cell, sum) in cells where category.map({ cell.category == $0 }) ?? true {
            months[cell.month, default: (0, MoneyTotals())].count += sum.count
            if cell.pinned { months[cell.month, default: (0, MoneyTotals())].pinned.add(Money(minorUnits: sum.minorUnits, currency: cell.currency)) }
        }
        return months
    }

    /// How many items the newest month of every item has, and of each category's items its
    /// newest month: in one pass over the cells.
    func newestMonthCounts() -> (all: Int, byCategory: [String: Int]) {
        var newest: CalendarMonth?, all = 0
        var byCategory: [String: (month: CalendarMonth, count: Int)] = [:]
        for (cell, sum) in cells {
            if newest.map({ cell.month > $0 }) ?? true { (newest, all) = (cell.month, 0) }
            if cell.month == newest { all += sum.count }
            let known = byCategory[cell.category]
            if known.map({ cell.month > $0.month }) ?? true { byCategory[cell.category] = (cell.month, sum.count) }
            else if known?.month == cell.month { byCategory[cell.category]!.count += sum.count }
        }
        return (all, byCategory.mapValues(\.count))
    }

    /// The `count` months that end with the month of the last item, oldest first (``TransactionsRules/lastMonths(of:count:)``).
    func lastMonths(count: Int = 6) -> [CalendarMonth] {
        guard let latest = dates?.upperBound else { return [] }
        var months = [CalendarMonth(latest)]
        while months.count < count { months.insert(months[0].previous, at: 0) }
        return months
    }

    static func matches(_ cell: Cell, category: String?, month: CalendarMonth?, pinned: Bool?) -> Bool {
        (category.map { cell.category == $0 } ?? true) && (month.map { cell.month == $0 } ?? true) && (pinned.map { cell.pinned == $0 } ?? true)
    }
}

extension SpendingTotals: Codable {
    /// How the totals encode, in a stable order: the cells (category key, month as
    /// ``CalendarMonth/index``, currency, pinned, count, sum in minor units), each category's
    /// name, each day's pinned sums (days since 1970-01-01), and the first and last dates.
    private struct Coded: Codable {
        struct Cell: Codable {
            var category: String
            var month: Int
            var currency: String
            var pinned: Bool
            var count: Int
            var units: Int128
        }
        struct Name: Codable {
            var key: String
            var name: String
        }
        struct Day: Codable {
            var day: Int
            var currency: String
            var units: Int128
        }
        var cells: [Cell]
        var names: [Name]
        var days: [Day]
        var dates: [Int]?
    }

    public func encode(to encoder: any Encoder) throws {
        let cells = cells.sorted { ($0.key.category, $0.key.month, $0.key.currency, $0.key.pinned ? 1 : 0)
                                   < ($1.key.category, $1.key.month, $1.key.currency, $1.key.pinned ? 1 : 0) }
        let coded = Coded(
            cells: cells.map { .init(category: $0.key.category, month: $0.key.month.index, currency: $0.key.currency.code, pinned: $0.key.pinned,
                                     count: $0.value.count, units: $0.value.minorUnits) },
            names: names.sorted { $0.key < $1.key }.map { .init(key: $0.key, name: $0.value) },
            days: pinnedByDay.sorted { $0.key < $1.key }.flatMap { day, sums in
                sums.amounts.map { .init(day: day.daysSinceEpoch, currency: $0.currency.code, units: $0.minorUnits) } },
            dates: dates.map { [$0.lowerBound.daysSinceEpoch, $0.upperBound.daysSinceEpoch] })
        try coded.encode(to: encoder)
    }

    /// The months the totals may name: of the years 1 to 9999 (``CalendarMonth/index``).
    static let months = CalendarMonth(year: 1, month: 1).index...CalendarMonth(year: 9999, month: 12).index

    /// Totals ``encode(to:)`` wrote, checked: a currency that is not one, a month or a date out of
    /// the years 1 to 9999, a count out of 1 to 2⁴⁰, a sum past 2⁴⁰ amounts, or a cell's count or
    /// sum past what it can hold however many entries name it, is a `DecodingError`. Whoever reads
    /// totals apart from their rows checks that they count the rows (``checkedCount``), which
    /// bounds what any number of them add up to.
    public init(from decoder: any Decoder) throws {
        let coded = try Coded(from: decoder)
        self.init()
        let days = AccountFigures.days, largest = Money.maximumMinorUnits << 40
        func refuse(_ what: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not spending totals: \(what)"))
        }
        func date(_ day: Int) -> CivilDate? { days.contains(day) ? CivilDate(daysSinceEpoch: day) : nil }
        for entry in coded.cells {
            guard Self.months.contains(entry.month), let currency = Currency(code: entry.currency), (1...1 << 40).contains(entry.count),
                  (-largest...largest).contains(entry.units) else { throw refuse("a cell out of range") }
            let cell = Cell(category: entry.category, month: CalendarMonth(index: entry.month), currency: currency, pinned: entry.pinned)
            guard add(cell, Sum(count: entry.count, minorUnits: entry.units), limit: largest) else { throw refuse("a cell past what it holds") }
        }
        for entry in coded.names { name(SpendingCategory(key: entry.key, name: entry.name)) }
        for entry in coded.days {
            // Each side is within the bound, so their sum cannot overflow before it is checked.
            guard let day = date(entry.day), let currency = Currency(code: entry.currency), (-largest...largest).contains(entry.units),
                  (-largest...largest).contains((pinnedByDay[day]?[currency].minorUnits ?? 0) + entry.units) else {
                throw refuse("a day's sum out of range")
            }
            pinnedByDay[day, default: MoneyTotals()].add(Money(minorUnits: entry.units, currency: currency))
        }
        if let range = coded.dates {
            guard range.count == 2, let first = date(range[0]), let last = date(range[1]), first <= last else { throw refuse("dates out of range") }
            include(first...last)
        }
    }
}
