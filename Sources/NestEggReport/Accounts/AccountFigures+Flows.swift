import NestEggModel
import NestEggSupport

extension AccountFigures.Summary {
    /// What the cash-flow, budgets, recurring and counterparty pages need of an account's feed
    /// (``AccountCashFlow``, ``RecurringRule/Found``, ``PayeePayment``), as plain values: amounts in
    /// minor units of the account's currency, dates in days since 1970-01-01, months as
    /// ``CalendarMonth/index``. The account's name and currency are the account's, not repeated.
    /// ``AccountFigures/init(summary:account:)`` takes them back, checked.
    public struct Flows: Codable, Sendable, Equatable {
        public struct Month: Codable, Sendable, Equatable {
            public var month: Int
            public var income: [String: Int128]
            public var spending: [String: Int128]
            public var payees: [String: Int128]
            public var spendingByDay: [String: [Int: Int128]]
            public var movedOutTo: [String: Int128]
            public var movedInFrom: [String: Int128]
        }

        public struct Series: Codable, Sendable, Equatable {
            public var counterparty: String
            public var incoming: Bool
            public var interval: String
            public var typical: Int128
            public var count: Int
            public var first: Int
            public var last: Int
            public var next: Int
            public var scheduled: Upcoming?
        }

        public struct Upcoming: Codable, Sendable, Equatable {
            public var counterparty: String
            public var day: Int
            public var units: Int128
            public var incoming: Bool
        }

        /// One payment to or from a counterparty: its name, day, amount, direction, reference and
        /// the feed item's UID, as one JSON array (the most numerous value here).
        public struct Payment: Codable, Sendable, Equatable {
            public var name: String
            public var day: Int
            public var units: Int128
            public var incoming: Bool
            public var reference: String
            public var id: String

            public init(name: String, day: Int, units: Int128, incoming: Bool, reference: String, id: String) {
                (self.name, self.day, self.units, self.incoming, self.reference, self.id) = (name, day, units, incoming, reference, id)
            }

            public func encode(to encoder: any Encoder) throws {
                var fields = encoder.unkeyedContainer()
                try fields.encode(name)
                try fields.encode(day)
                try fields.encode(units)
                try fields.encode(incoming)
                try fields.encode(reference)
                try fields.encode(id)
            }

            public init(from decoder: any Decoder) throws {
                var fields = try decoder.unkeyedContainer()
                self.init(name: try fields.decode(String.self), day: try fields.decode(Int.self), units: try fields.decode(Int128.self),
                          incoming: try fields.decode(Bool.self), reference: try fields.decode(String.self), id: try fields.decode(String.self))
                guard fields.isAtEnd else {
                    throw DecodingError.dataCorruptedError(in: fields, debugDescription: "a payment has six fields")
                }
            }
        }

        public var months: [Month]
        public var series: [Series]
        public var upcoming: [Upcoming]
        public var payments: [Payment]
    }
}

extension AccountFigures {
    /// The cash flow, recurring series and payments as ``Summary/Flows``; `nil` when the figures
    /// hold none (read from a summary without them).
    var flows: Summary.Flows? {
        guard let cashFlow, let recurring, let payments else { return nil }
        func upcoming(_ item: RecurringRule.Upcoming) -> Summary.Flows.Upcoming {
            .init(counterparty: item.counterparty, day: item.date.daysSinceEpoch, units: item.amount.minorUnits, incoming: item.incoming)
        }
        return Summary.Flows(
            months: cashFlow.months.map { month in
                .init(month: month.month.index, income: month.income.mapValues(\.minorUnits), spending: month.spending.mapValues(\.minorUnits),
                      payees: month.payees.mapValues(\.minorUnits), spendingByDay: month.spendingByDay.mapValues { $0.mapValues(\.minorUnits) },
                      movedOutTo: month.movedOutTo.mapValues(\.minorUnits), movedInFrom: month.movedInFrom.mapValues(\.minorUnits))
            },
            series: recurring.series.map { series in
                .init(counterparty: series.counterparty, incoming: series.incoming, interval: series.interval.rawValue,
                      typical: series.typical.minorUnits, count: series.count, first: series.first.daysSinceEpoch,
                      last: series.last.daysSinceEpoch, next: series.next.daysSinceEpoch, scheduled: series.scheduled.map(upcoming))
            },
            upcoming: recurring.upcoming.map(upcoming),
            payments: payments.map { payment in
                .init(name: payment.name, day: payment.date.daysSinceEpoch, units: payment.amount.minorUnits, incoming: payment.incoming,
                      reference: payment.reference, id: payment.sourceID)
            })
    }

    /// The cash flow, recurring series and payments `flows` holds for `account`; `nil` when they are
    /// not such figures (an amount or a date out of range, a month twice or out of order, an
    /// interval that is not one).
    static func decode(_ flows: Summary.Flows, account: StarlingAccount)
        -> (cashFlow: AccountCashFlow, recurring: RecurringRule.Found, payments: [PayeePayment])? {
        let currency = account.currency
        // As the weeks' and months' figures: an amount, or a sum of up to 2²⁴ of them.
        func money(_ units: Int128, limit: Int128 = Money.maximumMinorUnits << 24) -> Money? {
            (-limit...limit).contains(units) ? Money(minorUnits: units, currency: currency) : nil
        }
        func date(_ days: Int) -> CivilDate? { Self.days.contains(days) ? CivilDate(daysSinceEpoch: days) : nil }
        /// Each value, and their total, in range (a total is a figure too: ``AccountCashFlow/Month/movedOut``).
        func sums(_ values: [String: Int128]) -> [String: Money]? {
            var sums: [String: Money] = [:]
            var total: Int128 = 0
            for (name, units) in values {
                guard let amount = money(units) else { return nil }
                let (sum, overflow) = total.addingReportingOverflow(units)
                guard !overflow, money(sum) != nil else { return nil }
                (total, sums[name]) = (sum, amount)
            }
            return sums
        }
        let months = CalendarMonth(year: CivilDate.supportedYears.lowerBound, month: 1).index
            ... CalendarMonth(year: CivilDate.supportedYears.upperBound, month: 12).index
        var cashFlow: [AccountCashFlow.Month] = []
        for entry in flows.months {
            guard months.contains(entry.month), cashFlow.last.map({ $0.month.index < entry.month }) ?? true,
                  let income = sums(entry.income), let spending = sums(entry.spending), let payees = sums(entry.payees),
                  let movedOutTo = sums(entry.movedOutTo), let movedInFrom = sums(entry.movedInFrom) else { return nil }
            var month = AccountCashFlow.Month(month: CalendarMonth(index: entry.month), currency: currency)
            (month.income, month.spending, month.payees) = (income, spending, payees)
            (month.movedOutTo, month.movedInFrom) = (movedOutTo, movedInFrom)
            for (name, days) in entry.spendingByDay {
                var byDay: [Int: Money] = [:]
                for (day, units) in days {
                    guard (1...31).contains(day), let amount = money(units) else { return nil }
                    byDay[day] = amount
                }
                month.spendingByDay[name] = byDay
            }
            cashFlow.append(month)
        }
        func upcoming(_ entry: Summary.Flows.Upcoming) -> RecurringRule.Upcoming? {
            guard let day = date(entry.day), let amount = money(entry.units, limit: Money.maximumMinorUnits) else { return nil }
            return RecurringRule.Upcoming(account: account.name, counterparty: entry.counterparty, date: day, amount: amount, incoming: entry.incoming)
        }
        var series: [RecurringRule.Series] = []
        for entry in flows.series {
            guard let interval = RecurringRule.Interval(rawValue: entry.interval), let typical = money(entry.typical, limit: Money.maximumMinorUnits),
                  (2...1 << 32).contains(entry.count), let first = date(entry.first), let last = date(entry.last), let next = date(entry.next),
                  first <= last, last < next else { return nil }
            var one = RecurringRule.Series(account: account.name, counterparty: entry.counterparty, incoming: entry.incoming, interval: interval,
                                           typical: typical, count: entry.count, first: first, last: last, next: next)
            if let scheduled = entry.scheduled {
                guard let item = upcoming(scheduled) else { return nil }
                one.scheduled = item
            }
            series.append(one)
        }
        var upcomingItems: [RecurringRule.Upcoming] = []
        for entry in flows.upcoming {
            guard let item = upcoming(entry) else { return nil }
            upcomingItems.append(item)
        }
        var payments: [PayeePayment] = []
        payments.reserveCapacity(flows.payments.count)
        for entry in flows.payments {
            guard let day = date(entry.day), let amount = money(entry.units, limit: Money.maximumMinorUnits) else { return nil }
            payments.append(PayeePayment(name: entry.name, date: day, amount: amount, incoming: entry.incoming, account: account.name,
                                         source: .bankAccount, reference: entry.reference, counted: true, sourceID: entry.id))
        }
        return (AccountCashFlow(uid: account.uid, name: account.name, currency: currency, months: cashFlow),
                RecurringRule.Found(series: series, upcoming: upcomingItems), payments)
    }
}
