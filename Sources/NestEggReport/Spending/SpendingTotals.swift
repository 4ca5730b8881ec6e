import NestEggModel
import NestEggSupport

/// The spending list's figures as sums that add up: what the insights, the start page's spending
/// and the transactions lists' counts, filters and sums are made of, without the rows.
///
/// Per category, month, currency and pinned or not, a count and a sum; per local date, the pinned
/// sums (the start page compares a month in progress with the same days of the month before);
/// each category's shown name; the first and last dates. Totals of any set of items add to the
/// totals of their union (``add(_:)-(SpendingTotals)``), whatever the order, so a share of a
/// sharded build adds up one total a census file — cells per category and month, sums per day —
/// instead of holding the other accounts' rows, and every page that sums the list reads the same
/// figures on one machine and on N.
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
        // Sums of data's amounts: far from what a cell holds (a census's totals count their rows).
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

    /// How many items in all; `nil` when that is past what an `Int` holds (totals a census file
    /// claims, before they are checked against its rows).
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

    /// How many pinned items each category has, over all the data.
    func pinnedCounts() -> [String: Int] {
        var counts: [String: Int] = [:]
        for (cell, sum) in cells where cell.pinned { counts[cell.category, default: 0] += sum.count }
        return counts
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

extension SpendingTotals {
    /// The totals as records of fields, for a census (one ``NestEggSupport/FieldLine`` each), in a
    /// stable order; ``read(_:)`` takes them back. `t`: a cell (category key, month as ``CalendarMonth/index``,
    /// currency, pinned `1` or `0`, count, sum in minor units); `n`: a category's name; `d`: a
    /// day's pinned sum (days since 1970-01-01, currency, minor units); `p`: the first and last dates.
    public var records: [[String]] {
        var records: [[String]] = []
        for (cell, sum) in cells.sorted(by: { ($0.key.category, $0.key.month, $0.key.currency, $0.key.pinned ? 1 : 0)
                                                < ($1.key.category, $1.key.month, $1.key.currency, $1.key.pinned ? 1 : 0) }) {
            records.append(["t", cell.category, String(cell.month.index), cell.currency.code, cell.pinned ? "1" : "0", String(sum.count),
                            String(sum.minorUnits)])
        }
        records += names.sorted { $0.key < $1.key }.map { ["n", $0.key, $0.value] }
        for (day, sums) in pinnedByDay.sorted(by: { $0.key < $1.key }) {
            records += sums.amounts.map { ["d", String(day.daysSinceEpoch), $0.currency.code, String($0.minorUnits)] }
        }
        if let dates { records.append(["p", String(dates.lowerBound.daysSinceEpoch), String(dates.upperBound.daysSinceEpoch)]) }
        return records
    }

    /// The months a record may name: of the years 1 to 9999 (``CalendarMonth/index``).
    static let months = CalendarMonth(year: 1, month: 1).index...CalendarMonth(year: 9999, month: 12).index

    /// The record tags ``records`` writes.
    public static let tags: Set<Substring> = ["t", "n", "d", "p"]

    /// Adds one record ``records`` wrote, of a census (the totals of its accounts' rows). - Returns:
    /// `false` when it is not such a record (a field that is not a number, a month, a date or a
    /// currency, or out of the range a census may hold: dates of the years 1 to 9999, counts up to
    /// 2⁴⁰ and sums up to 2⁴⁰ amounts a record, and no cell's count or sum past what it can hold
    /// however many records name it). A census checks that its totals count its rows, which bounds
    /// what any number of them add up to.
    public mutating func read(_ record: [Substring]) -> Bool {
        let days = AccountFigures.days, largest = Money.maximumMinorUnits << 40
        func units(_ text: Substring) -> Int128? { Int128(text).flatMap { (-largest...largest).contains($0) ? $0 : nil } }
        func date(_ text: Substring) -> CivilDate? { Int(text).flatMap { days.contains($0) ? CivilDate(daysSinceEpoch: $0) : nil } }
        switch (record.first, record.count) {
        case ("t", 7):
            guard let month = Int(record[2]), Self.months.contains(month), let currency = Currency(code: String(record[3])),
                  record[4] == "0" || record[4] == "1", let count = Int(record[5]), (1...1 << 40).contains(count),
                  let sum = units(record[6]) else { return false }
            let cell = Cell(category: FieldLine.unescaped(record[1]), month: CalendarMonth(index: month), currency: currency, pinned: record[4] == "1")
            guard add(cell, Sum(count: count, minorUnits: sum), limit: largest) else { return false }
        case ("n", 3):
            name(SpendingCategory(key: FieldLine.unescaped(record[1]), name: FieldLine.unescaped(record[2])))
        case ("d", 4):
            // Each side is within the bound, so their sum cannot overflow before it is checked.
            guard let day = date(record[1]), let currency = Currency(code: String(record[2])), let sum = units(record[3]),
                  (-largest...largest).contains((pinnedByDay[day]?[currency].minorUnits ?? 0) + sum) else { return false }
            pinnedByDay[day, default: MoneyTotals()].add(Money(minorUnits: sum, currency: currency))
        case ("p", 3):
            guard let first = date(record[1]), let last = date(record[2]), first <= last else { return false }
            include(first...last)
        default:
            return false
        }
        return true
    }
}
