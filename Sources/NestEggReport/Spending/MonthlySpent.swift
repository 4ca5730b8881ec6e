import NestEggModel
import NestEggSupport

/// What was spent each month, per category, in the base currency: the figure the site calls spent
/// (``HeadlineReport/definition``) from the spending's totals (``SpendingTotals``), each month's
/// sum of a category in another currency converted at the rate of the month's last day (the
/// as-of date in the month in progress). The budgets and the year's pages read it.
public struct MonthlySpent: Sendable {
    public struct Month: Sendable {
        public let month: CalendarMonth
        /// Through which day the month's figures run: its last, or the as-of date's.
        public let throughDay: Int
        public let days: Int
        public let complete: Bool
        /// Spent per category (by ``SpendingCategory/key``), converted.
        public let byCategory: [String: Money]
        /// Every category's together: the sum of ``byCategory``.
        public let all: Money
        /// The month's spending before conversion, per currency (as the start page gives it).
        public let unconverted: MoneyTotals
        /// The rates used, by currency.
        public let rates: [ExchangeRate]
        /// Sums that could not be converted (no rate), per currency: in none of the figures.
        public let notConverted: MoneyTotals
    }

    /// Every month with spending, and the as-of date's, oldest first (a month without any, between
    /// two far apart, is not made: one payment dated in the year 2 would otherwise make 24,000).
    public let months: [Month]
    /// Each category's name, by key.
    public let names: [String: String]

    public init(_ totals: SpendingTotals, rates: ExchangeRates?, base: Currency, progress: PeriodProgress) {
        names = totals.names
        guard let dates = totals.dates else { months = []; return }
        // Each category's pinned sum per month and currency, in one pass over the cells.
        var sums: [CalendarMonth: [String: MoneyTotals]] = [:]
        for (cell, sum) in totals.cells where cell.pinned {
            sums[cell.month, default: [:]][cell.category, default: MoneyTotals()].add(Money(minorUnits: sum.minorUnits, currency: cell.currency))
        }
        var result: [Month] = []
        var wanted = Set(sums.keys)
        if let asOf = progress.asOf, CalendarMonth(asOf) >= CalendarMonth(dates.lowerBound) { wanted.insert(CalendarMonth(asOf)) }
        for month in wanted.sorted() {
            let days = month.lastDay.day
            let complete = progress.isComplete(month)
            let through = complete ? days : progress.asOf.map { min($0.day, days) } ?? days
            let day = CivilDate(year: month.year, month: month.month, day: through) ?? month.lastDay
            var used: [Currency: ExchangeRate] = [:]
            var notConverted = MoneyTotals(), unconverted = MoneyTotals()
            var byKey: [String: Money] = [:]
            var all = Money.zero(base)
            for (key, amounts) in (sums[month] ?? [:]).sorted(by: { $0.key < $1.key }) {
                for amount in amounts.amounts {
                    unconverted.add(amount)
                    var value = amount
                    if amount.currency != base {
                        guard let conversion = rates?.convert(amount, on: day) else { notConverted.add(amount); continue }
                        if let rate = conversion.rate { used[rate.quote] = rate }
                        value = conversion.converted
                    }
                    byKey[key, default: .zero(base)] += value
                    all += value
                }
            }
            result.append(Month(month: month, throughDay: through, days: days, complete: complete, byCategory: byKey, all: all,
                                unconverted: unconverted, rates: used.keys.sorted().map { used[$0]! }, notConverted: notConverted))
        }
        months = result
    }
}
