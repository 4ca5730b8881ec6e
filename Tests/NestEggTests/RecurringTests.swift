import Foundation
import Testing
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

/// The recurring-payments rule on generated series with noise: dates a day or two off, amounts a
/// few per cent off, missed payments, one-off purchases at the same payee, and irregular payees
/// that must not be taken for subscriptions.
@Suite struct RecurringTests {
    /// A seeded generator (SplitMix64), so that every run tests the same series.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let start = CivilDate(year: 2025, month: 1, day: 10)!

    /// `count` payments every `days` days (or calendar month), each date moved by up to `jitter`
    /// days and each amount by up to `spread` per mille, `skip` of them left out.
    static func series(every days: Int?, count: Int, amount: Int, jitter: Int, spread: Int, skip: Set<Int> = [],
                       random: inout Seeded) -> [RecurringRule.Payment] {
        (0..<count).filter { !skip.contains($0) }.map { index in
            let base: CivilDate
            if let days { base = start.adding(days: index * days) } else {
                let month = (start.month - 1 + index)
                base = CivilDate(year: start.year + month / 12, month: month % 12 + 1, day: start.day)!
            }
            let date = base.adding(days: Int.random(in: -jitter...jitter, using: &random))
            let minor = amount + amount * Int.random(in: -spread...spread, using: &random) / 1000
            return RecurringRule.Payment(date: date, amount: gbp(Int64(minor)))
        }
    }

    @Test func monthlyWeeklyAndYearlySeriesAreFoundThroughNoise() {
        var random = Seeded(state: 2026)
        for trial in 0..<50 {
            // A monthly subscription with dates ±2 days and amounts ±3%, one payment missed, and
            // purchases at the same payee of very different amounts.
            var monthly = Self.series(every: nil, count: 12, amount: 1_199, jitter: 2, spread: 30, skip: [5], random: &random)
            monthly += (0..<6).map { _ in RecurringRule.Payment(date: Self.start.adding(days: Int.random(in: 0...360, using: &random)),
                                                          amount: gbp(Int64.random(in: 3_000...20_000, using: &random))) }
            let found = RecurringRule.detect(monthly.shuffled(using: &random))
            #expect(found.map(\.interval) == [.monthly], "trial \(trial): \(found) \(monthly.sorted { $0.date < $1.date }.map { "\($0.date) \($0.amount.minorUnits)" })")
            #expect(found.first?.count == 11)
            if let typical = found.first?.typical.minorUnits { #expect((1_163...1_235).contains(typical)) }

            let weekly = Self.series(every: 7, count: 20, amount: 500, jitter: 1, spread: 40, random: &random)
            #expect(RecurringRule.detect(weekly).map(\.interval) == [.weekly], "trial \(trial)")

            let yearly = Self.series(every: 365, count: 3, amount: 9_900, jitter: 5, spread: 0, random: &random)
            let yearlyFound = RecurringRule.detect(yearly)
            #expect(yearlyFound.map(\.interval) == [.yearly], "trial \(trial)")
            #expect(yearlyFound.first?.typical == gbp(9_900))
        }
    }

    @Test func irregularPaymentsAreNotRecurring() {
        var random = Seeded(state: 7)
        var falsePositives = 0
        for _ in 0..<200 {
            // A shop visited on random days (1 to 20 days apart) for amounts of £5 to £60.
            var date = Self.start
            var payments: [RecurringRule.Payment] = []
            for _ in 0..<25 {
                date = date.adding(days: Int.random(in: 1...20, using: &random))
                payments.append(RecurringRule.Payment(date: date, amount: gbp(Int64.random(in: 500...6_000, using: &random))))
            }
            if !RecurringRule.detect(payments).isEmpty { falsePositives += 1 }
        }
        // Chance alone makes a few; a rule that finds series in most shops would fail here.
        #expect(falsePositives <= 10, "\(falsePositives) of 200 irregular payees taken for recurring")
        // Two different amounts a month apart are not enough; two equal ones are.
        let two = [RecurringRule.Payment(date: Self.start, amount: gbp(1_000)), RecurringRule.Payment(date: Self.start.adding(days: 31), amount: gbp(1_050))]
        #expect(RecurringRule.detect(two).isEmpty)
        let same = [RecurringRule.Payment(date: Self.start, amount: gbp(1_000)), RecurringRule.Payment(date: Self.start.adding(days: 31), amount: gbp(1_000))]
        #expect(RecurringRule.detect(same).map(\.next) == [CivilDate(year: 2025, month: 3, day: 10)!])
    }

    @Test func nextDatesKeepTheDayOfTheMonth() {
        #expect(RecurringRule.Interval.monthly.next(after: CivilDate(year: 2026, month: 1, day: 31)!) == CivilDate(year: 2026, month: 2, day: 28)!)
        #expect(RecurringRule.Interval.yearly.next(after: CivilDate(year: 2024, month: 2, day: 29)!) == CivilDate(year: 2025, month: 2, day: 28)!)
        #expect(RecurringRule.Interval.weekly.next(after: CivilDate(year: 2026, month: 12, day: 29)!) == CivilDate(year: 2027, month: 1, day: 5)!)
    }

    /// The fixtures: the direct debits, the salary and Priya's monthly share of the bills are found,
    /// the shops are not, Spotify's upcoming item is shown as scheduled.
    @Test func theFixturesDirectDebitsAreFound() throws {
        let dataset = try NetWorthTests.fixtures()
        let context = ReportContext(dataset: dataset)
        let found = RecurringReport.found(dataset, context: context, figures: nil)
        let names = found.flatMap(\.series).map(\.counterparty).sorted()
        #expect(names == ["Gym Group", "Lambeth Council", "Northwind Ltd", "Octopus Energy", "Priya Shah", "Spotify", "Thames Water"])
        let spotify = try #require(found.flatMap(\.series).first { $0.counterparty == "Spotify" })
        #expect(spotify.scheduled?.date == CivilDate(year: 2026, month: 11, day: 21))
        #expect(found.flatMap(\.upcoming).count == 1)
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == RecurringReport.section.path })
        let markdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(page).markdown)
        #expect(markdown.contains("| [Spotify](../payees/spotify.md) | Personal | Every month | £11.99 | 12 Nov 2026 | 21 Nov 2026 (scheduled by the bank) | £143.88 | 3 |"))
        #expect(markdown.contains("| **Total a year** | | | | | | **£3,761.76** | |"))
        #expect(markdown.contains("| 21 Nov 2026 | [Spotify](../payees/spotify.md) | Personal | Out | £11.99 |"))
        // Every yearly cost is in pounds: the total row says it all, and no line repeats it.
        #expect(!markdown.contains("In all,"))
        // A payment in euros: the total row has both currencies, and a line adds them up in pounds at the rate.
        var euros = dataset
        let travel = try #require(euros.accounts.firstIndex { $0.account.currency == .eur })
        for (index, day) in ["2026-08-03", "2026-09-03", "2026-10-03", "2026-11-03"].enumerated() {
            euros.accounts[travel].feed.append(feedItem(999, day + "T09:00:00.000Z", currency: .eur, uid: "recurring-euros-\(index)"))
        }
        let withEuros = SiteReport.build(euros)
        let eurosPage = try #require(withEuros.pages.first { $0.path == RecurringReport.section.path })
        let eurosMarkdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: withEuros).render(eurosPage).markdown)
        #expect(eurosMarkdown.contains("In all, £"), "\(eurosMarkdown)")
        #expect(eurosMarkdown.contains("(ECB, "))
    }
}
