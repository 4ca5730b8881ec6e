import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

@Suite struct BudgetsTests {
    /// Every budget line of the fixtures, from the raw JSON and the settings file as text.
    @Test func everyLineEqualsAnIndependentCheck() throws {
        let dataset = try NetWorthTests.fixtures()
        let context = ReportContext(dataset: dataset)
        let asOf = try #require(context.progress.asOf)
        let settings = HouseholdCheck.json("nestegg.json") as! [String: Any]
        let budgets = (settings["budgets"] as! [String: String]).mapValues { Int((Decimal(string: $0)! * 100 as NSDecimalNumber).intValue) }
        #expect(budgets.count == 4)
        let expected = CashFlowTests.expected(asOf: asOf.description)
        let months = BudgetsReport.months(dataset, context: context)
        #expect(months.count == 3)
        for month in months {
            let check = try #require(expected[month.month.description])
            let days = Int(HouseholdCheck.lastDay(month.month.description).suffix(2))!
            let inProgress = month.month == CalendarMonth(asOf)
            #expect(month.complete == !inProgress)
            let through = inProgress ? asOf.day : days
            for line in month.lines {
                let budget = try #require(budgets[line.category])
                var share = Decimal(budget) * Decimal(through) / Decimal(days)
                var rounded = Decimal()
                NSDecimalRound(&rounded, &share, 0, .plain)
                #expect(line.budget.minorUnits == Int128(budget))
                #expect(line.prorated.minorUnits == Int128(NSDecimalNumber(decimal: rounded).intValue), "\(line.category) \(month.month)")
                #expect(line.spent.minorUnits == Int128(check.categories[line.category] ?? 0), "\(line.category) \(month.month)")
                #expect(line.left.minorUnits == line.prorated.minorUnits - line.spent.minorUnits)
            }
        }
        // The page and the start page show them.
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == BudgetsReport.section.path })
        let markdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(page).markdown)
        #expect(markdown.contains("| Travel | £80.00 | £80.00 | £80.12 | **over by £0.12** |"), "\(markdown)")
        #expect(markdown.contains("each budget counts 21 of its 30 days so far"))
        #expect(site.dashboard.contains { $0.section == BudgetsReport.section })
    }

    @Test func prorationRoundsHalvesUp() {
        #expect(BudgetsReport.prorate(gbp(25_000), day: 21, of: 30).minorUnits == 17_500)
        #expect(BudgetsReport.prorate(gbp(100), day: 1, of: 8).minorUnits == 13, "12.5 pence: a half, up")
        #expect(BudgetsReport.prorate(gbp(100), day: 1, of: 3).minorUnits == 33)
        #expect(BudgetsReport.prorate(gbp(100), day: 31, of: 31).minorUnits == 100)
    }

    @Test func budgetsAreReadInTheBaseCurrencyWhereverItIsSet() throws {
        let (doc, log) = document(#"{"budgets": {"Groceries": "250.00", "eating out": 120}, "baseCurrency": "EUR"}"#)
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(!log.hasErrors)
        #expect(settings.budgets == ["Groceries": Money(minorUnits: 25_000, currency: .eur), "eating out": Money(minorUnits: 12_000, currency: .eur)])
        let (wrong, wrongLog) = document(#"{"budgets": {"Groceries": "-5", "Shopping": "1.234", "": "3", "Fun": true}}"#)
        _ = SettingsLoader.settings(in: try #require(wrong))
        #expect(wrongLog.errors.map(\.path) == ["$.budgets.Groceries", "$.budgets.Shopping", "$.budgets['']", "$.budgets.Fun"],
                "\(wrongLog.errors.map(\.description))")
        // Without budgets there is no page and no start-page card.
        var dataset = try NetWorthTests.fixtures()
        dataset.settings.budgets = [:]
        #expect(!SiteReport.build(dataset).pages.contains { $0.path == BudgetsReport.section.path })
    }

    /// A budget naming a category the data does not have is a warning at its amount, saying which
    /// categories there are; one the data has, or a mapping names, is not.
    @Test func aBudgetForACategoryNoTransactionHasIsAWarningAtItsPlace() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: HouseholdCheck.fixtures, to: data)
        let settings = """
        {"budgets": {"Food": "450.00", "Fod": "1.00", "Groceries": "2.00",
                     "Pets": "3.00", "Eating out": "4.00", "Travel": "5.00"}}
        """
        try write(settings, to: data.appendingPathComponent("nestegg.json"))
        // As `nestegg check` and a build load: the load, then the report's check of the budgets.
        let load = { (folder: URL) throws -> [Diagnostic] in
            var options = BuildOptions(data: folder, output: work.appendingPathComponent("out"))
            options.dataLabel = "data"
            return try Build(options: options).load().1
        }
        let notes = try load(data).filter { $0.path?.hasPrefix("$.budgets") == true }
        #expect(notes.map(\.path) == ["$.budgets.Fod", "$.budgets.Groceries", "$.budgets.Pets"], "\(notes.map(\.description))")
        #expect(notes.allSatisfy { $0.severity == .warning && $0.file == "data/nestegg.json" })
        #expect(notes.map(\.line) == [1, 1, 2])
        #expect(notes.map(\.column) == [39, 60, 22])
        #expect(notes[0].message.contains("did you mean \"Food\"?"))
        #expect(notes[1].message.contains("GROCERIES is counted under \"Food\""))
        #expect(!notes[2].message.contains("did you mean"))
        #expect(notes[2].message.contains("(categories: Bills and services, Eating out, Entertainment, Family, Food, Gifts & donations, Health, Shopping, Travel)"))
        // The fixtures' own budgets all name categories the data has.
        #expect(try !load(HouseholdCheck.fixtures).contains { $0.path?.hasPrefix("$.budgets") == true })
        // The report's check alone gives the same notes, at the places the load recorded.
        let dataset = DataLoader.load(try DataFolder(root: data), log: DiagnosticLog())
        #expect(BudgetCategories.notes(dataset).map(\.path) == notes.map(\.path))
        #expect(BudgetCategories.notes(dataset).map(\.message) == notes.map(\.message))
        // The load itself does not check budgets against categories (the report's mapping does).
        let loadOnly = DiagnosticLog()
        _ = DataLoader.load(try DataFolder(root: data), log: loadOnly)
        #expect(!loadOnly.diagnostics.contains { $0.path?.hasPrefix("$.budgets") == true })
    }
}
