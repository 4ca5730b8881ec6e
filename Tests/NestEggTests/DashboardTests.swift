import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite("Start page")
struct DashboardTests {
    @Test func everyFigureLinksToItsOwnPageOrElseItsSection() {
        let own = DashboardReport.figureView(.init(label: "Map", value: "loans by country", href: "loans/map.md"),
                                             sectionHref: "loans/index.md")
        #expect(own.href == "loans/map.md")
        #expect(own.htmlHref == "loans/map.html")
        let section = DashboardReport.figureView(.init(label: "Failed <transfers>", value: "11"),
                                                 sectionHref: "transfers/index.md")
        #expect(section.href == "transfers/index.md")
        #expect(section.htmlHref == "transfers/index.html")
    }

    /// With a thousand accounts the start page stays a start page: six figures and twelve rows a
    /// section, then a line saying how many more there are, a link away.
    @Test func longSectionsAreCutShortWithWhatIsLeft() throws {
        let section = DashboardSection(
            title: "Statements", href: "statements/index.md", linkText: "Every monthly statement",
            figures: (1...1_000).map { .init(label: "Account \($0)", value: "£\($0).00") },
            table: .init(columns: ["Account", "Closing"], numeric: [false, true],
                         rows: (1...1_000).map { .init(["Account \($0)", "£\($0).00"]) }))
        let page = DashboardReport.page(for: Dataset(settings: Settings()), sections: [section],
                                        context: ReportContext(settings: Settings()))
        let site = Site(title: "T", sections: [], pages: [page], dashboard: [], dataAsOf: nil)
        let markdown = unpadded(try PageRenderer(templates: TemplateLibrary(), site: site).render(page).markdown)
        #expect(markdown.contains("  - Account 6: **[£6.00](statements/index.md)**\n  - [and 994 more](statements/index.md)\n"))
        #expect(!markdown.contains("Account 7: "))
        #expect(markdown.contains("| Account 12 | £12.00 |\n\n[This table as CSV](index.table-1.csv)\n\nThe first 12 of 1,000 rows.\n\n[Every monthly statement →](statements/index.md)"))
        #expect(!markdown.contains("| Account 13 |"))
    }

    @Test func wordsMakeAPhraseAmountsDoNot() {
        #expect(DashboardReport.isPhrase("66 in 38 countries"))
        #expect(DashboardReport.isPhrase("US$175.00 for 4 loans, US$12.50 more than the balance"))
        #expect(!DashboardReport.isPhrase("£483.50 · US$1,083.40"))
        #expect(!DashboardReport.isPhrase("US$41,100.00 (73%)"))
    }

    /// Only Starling data: the start page has cards for the sections with data, headline
    /// figures first, every card figure a link, and no Kiva or transfer section at all.
    @Test func theStartPageLeadsWithItsFiguresAndLeavesOutSectionsWithoutData() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        for item in ["starling", "nestegg.json", "issuer"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(item), to: data.appendingPathComponent(item))
        }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8)
        let glance = try #require(html.range(of: "At a glance"))
        let firstTable = try #require(html.range(of: "<table"))
        #expect(glance.lowerBound < firstTable.lowerBound)
        #expect(html.contains("<h3><a href=\"roundups/index.html\">"))
        #expect(!html.contains("Kiva") && !html.contains("Transfers"))
        let cards = html.components(separatedBy: "class=\"figure\"").count - 1
        let linkedCards = html.components(separatedBy: "<a class=\"figure\" href=").count - 1
        #expect(cards > 0 && cards == linkedCards)
        let markdown = try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(markdown.contains("## At a glance\n\n- [Accounts and round-ups](roundups/index.md)\n  - "))
    }
}

/// The start page's headline: balances per currency from the statements, the change since the
/// last month-end, and spending compared with the same days of the month before.
@Suite struct HeadlineTests {
    func headline() throws -> HeadlineReport.View {
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        let context = ReportContext(dataset: dataset)
        return try #require(HeadlineReport.view(for: dataset, spending: TransactionsRules.items(from: dataset, clock: context.clock), context: context))
    }

    /// Personal's balance on its latest day and at the end of October, from the fixture files alone.
    func personalBalances() throws -> (now: Money, october: Money, context: ReportContext) {
        let (now, opening) = try FixtureFigures.balances(of: "Personal")
        return (now, opening, ReportContext(dataset: try FixtureFigures.dataset()))
    }

    @Test func balancesAreTheStatementsOwnPerCurrencyWithTheirChange() throws {
        let view = try headline()
        // Personal (GBP) leads: its balance on 21 Nov, and its change since it closed October (its statement).
        let (now, october, context) = try personalBalances()
        #expect(view.balances.map(\.amount) == [context.money(now), "€95.03"])
        #expect(view.balances.first?.change == context.money(now - october) && view.balances.first?.isDown == (now.minorUnits < october.minorUnits))
        #expect(view.balanceDate == "21 Nov 2026" && view.changeSince == "since 31 Oct 2026")
        #expect(view.excludedAccounts == nil)
    }

    @Test func theBalanceChartSaysItsFiguresInWords() throws {
        let view = try headline()
        let chart = try #require(view.balanceChart)
        guard case .columns(let bars, let axis) = chart.kind else { Issue.record("not columns: \(chart.kind)"); return }
        #expect(bars.count == HeadlineReport.chartMonths)
        #expect(axis.first?.value == 0 && (axis.last?.value ?? 0) >= bars.map(\.value).max() ?? 0, "the axis spans every column")
        let (now, october, context) = try personalBalances()
        #expect(bars.last?.valueText == context.money(now) && bars.last?.label == "Nov")
        let caption = try #require(view.balanceChartCaption)
        #expect(caption.contains("highest \(context.money(october)) (Oct 2026)") && caption.hasSuffix("Nov 2026 so far, on 21 Nov 2026."))
    }

    @Test func aMonthInProgressIsComparedWithTheSameDaysOfTheLast() throws {
        let spending = try #require(try headline().spending)
        #expect(spending.month == "Nov 2026 so far")
        #expect(spending.previousMonth == "Oct 2026")
        let toDate = try #require(spending.previousToDate)
        #expect(toDate.hasSuffix(" by 21 Oct"))
        #expect(spending.previousSpent != toDate.replacingOccurrences(of: " by 21 Oct", with: ""), "the whole month is more than its first 21 days here")
    }

    @Test func signedChangesSayTheirDirection() {
        let context = ReportContext(settings: Settings())
        #expect(HeadlineReport.signed(Money(minorUnits: 1200, currency: Currency(code: "GBP")!), context: context) == "+£12.00")
        #expect(HeadlineReport.signed(Money(minorUnits: -320, currency: Currency(code: "GBP")!), context: context) == "-£3.20")
        #expect(HeadlineReport.signed(Money(minorUnits: 0, currency: Currency(code: "GBP")!), context: context) == "£0.00")
    }
}
