import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

/// The year's page: each category's spending in the year and its average month over the last 3
/// and 12 whole months, and the money in by source, against the raw fixtures.
@Suite struct YearReportTests {
    @Test func theYearToDateEqualsAnIndependentCheck() throws {
        let dataset = try NetWorthTests.fixtures()
        let context = ReportContext(dataset: dataset)
        let asOf = try #require(context.progress.asOf)
        let spent = BudgetsTests.expectedSpent(asOf: asOf.description)
        let flows = CashFlowTests.expected(asOf: asOf.description)
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == "insights/2026" })
        #expect(page.title == "Spending and income, 2026 so far")
        let markdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(page).markdown)
        // Spending from June, cash flow from September: the whole months before November are June to October.
        #expect(markdown.contains("| Category | 2026 so far | A month, Aug–Oct 2026 | A month, Jun–Oct 2026 (5 months) |"), "\(markdown)")
        let money = { (pence: Int) in context.money(Money(minorUnits: Int128(pence), currency: .gbp)) }
        // Halves away from zero, as the report rounds an average.
        func average(_ total: Int, _ count: Int) -> Int {
            var quotient = Decimal(total) / Decimal(count), rounded = Decimal()
            NSDecimalRound(&rounded, &quotient, 0, .plain)
            return NSDecimalNumber(decimal: rounded).intValue
        }
        let year = ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]
        for category in ["Food", "Eating out", "Travel"] {
            let inYear = year.reduce(0) { $0 + (spent[$1]?[category] ?? 0) }
            let recent = ["2026-08", "2026-09", "2026-10"].reduce(0) { $0 + (spent[$1]?[category] ?? 0) }
            let longer = year.dropLast().reduce(0) { $0 + (spent[$1]?[category] ?? 0) }
            #expect(markdown.contains("| \(money(inYear)) | \(money(average(recent, 3))) | \(money(average(longer, 5))) |"), "\(category)")
            #expect(markdown.contains("[\(category)]("), "a category opens its transactions")
        }
        let all = year.reduce(0) { $0 + (spent[$1]?.values.reduce(0, +) ?? 0) }
        #expect(markdown.contains("| **Spent** | **\(money(all))** |"), "\(markdown)")
        // Money in: the cash flow's, from September.
        let income = year.reduce(0) { $0 + (flows[$1]?.income ?? 0) }
        // Its averages over its own months only: the cash flow starts in September, so two whole months.
        let incomeRecent = ["2026-09", "2026-10"].reduce(0) { $0 + (flows[$1]?.income ?? 0) }
        #expect(markdown.contains("| Source | 2026 so far | A month, Sep–Oct 2026 (2 months) | A month, Sep–Oct 2026 (2 months) |"), "\(markdown)")
        #expect(markdown.contains("| **Money in** | **\(money(income))** | **\(money(average(incomeRecent, 2)))** | **\(money(average(incomeRecent, 2)))** |"), "\(markdown)")
        #expect(markdown.contains("| Northwind Ltd | "))
        // The insights index links the year.
        let index = try #require(site.pages.first { $0.path == "insights/index" })
        #expect(unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(index).markdown).contains("[2026 so far](../insights/2026.md)"))
    }

    @Test func anAverageRoundsHalvesAwayFromZero() {
        #expect(YearReport.average(Money(minorUnits: 5, currency: .gbp), over: 2).minorUnits == 3)
        #expect(YearReport.average(Money(minorUnits: -5, currency: .gbp), over: 2).minorUnits == -3)
        #expect(YearReport.average(Money(minorUnits: 10, currency: .gbp), over: 3).minorUnits == 3)
        #expect(YearReport.average(Money(minorUnits: 7, currency: .gbp), over: 1).minorUnits == 7)
    }
}
