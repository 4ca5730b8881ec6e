import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

@Suite struct NetWorthTests {
    static func fixtures(rates: Bool = true) throws -> Dataset {
        let log = DiagnosticLog()
        var dataset = DataLoader.load(try DataFolder(root: HouseholdCheck.fixtures), log: log)
        if !rates { dataset.rates = nil }
        return dataset
    }

    /// Every month-end of every account, recomputed from the raw JSON, converted by `Decimal`.
    @Test func monthEndsEqualAnIndependentCheck() throws {
        let dataset = try Self.fixtures()
        let context = ReportContext(dataset: dataset)
        let figures = NetWorthReport.figures(dataset, context: context, accounts: nil)
        let asOf = try #require(context.progress.asOf).description
        #expect(figures.months.count == 13)
        for holdings in figures.months {
            let day = min(HouseholdCheck.lastDay(holdings.month.description), asOf)
            #expect(holdings.day.description == day)
            var total = 0
            var names: [String] = []
            for account in HouseholdCheck.accounts {
                let opened = account.items.map(\.day).min()!
                // The account's first month is that of its opening (createdAt) or first item.
                let created = HouseholdCheck.localDay(((HouseholdCheck.json("starling/accounts.json") as! [String: Any])["accounts"] as! [[String: Any]])
                    .first { $0["accountUid"] as! String == account.uid }!["createdAt"] as! String)
                guard String(min(opened, created).prefix(7)) <= holdings.month.description else { continue }
                let balance = HouseholdCheck.balance(account, endOf: day)
                let (pence, rate) = try #require(HouseholdCheck.toGBP(balance, account.currency, on: day))
                let line = try #require(holdings.lines.first { $0.name == account.name })
                #expect(line.amount.minorUnits == Int128(balance), "\(account.name) \(day)")
                #expect(line.conversion?.converted.minorUnits == Int128(pence), "\(account.name) \(day)")
                #expect((line.conversion?.rate?.text ?? "") == rate.replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression))
                total += pence
                names.append(account.name)
            }
            #expect(holdings.lines.map(\.name) == names)
            #expect(holdings.total.minorUnits == Int128(total), "\(holdings.month)")
            #expect(holdings.isComplete)
        }
    }

    /// Today's holdings: the accounts, the Starling goals, the active Qapital goals and the Kiva balance.
    @Test func todayCountsGoalsAndKivaAsTheirOwnLines() throws {
        let dataset = try Self.fixtures()
        let context = ReportContext(dataset: dataset)
        let now = try #require(NetWorthReport.figures(dataset, context: context, accounts: nil).now)
        let day = now.day.description
        var expected = 0
        for account in HouseholdCheck.accounts {
            expected += try #require(HouseholdCheck.toGBP(HouseholdCheck.balance(account, endOf: day), account.currency, on: day)).pence
        }
        let goals = (HouseholdCheck.json("starling/savings-goals/91c9cc05-a4ee-56db-b3ea-c773c9ebae81.json") as! [String: Any])["savingsGoalList"] as! [[String: Any]]
        for goal in goals { expected += (goal["totalSaved"] as! [String: Any])["minorUnits"] as! Int }
        let qapital = (HouseholdCheck.json("qapital/savingsgoals.json") as! [String: Any])["savingsGoals"] as! [[String: Any]]
        var qapitalLines = 0
        for goal in qapital where (goal["status"] as? String ?? "active") == "active" {
            let cents = Int(((goal["currentBalance"] as! NSNumber).decimalValue * 100 as NSDecimalNumber).intValue)
            expected += try #require(HouseholdCheck.toGBP(cents, "USD", on: day)).pence
            qapitalLines += 1
        }
        let kiva = ((HouseholdCheck.json("kiva/my/balance.json") as! [String: Any])["user_balance"] as! [String: Any])["balance"]
        let kivaCents = Int(((Decimal(string: "\(kiva!)")!) * 100 as NSDecimalNumber).intValue)
        expected += try #require(HouseholdCheck.toGBP(kivaCents, "USD", on: day)).pence
        #expect(now.lines.filter { $0.kind == .qapital }.count == qapitalLines)
        #expect(now.lines.filter { $0.kind == .goal }.count == goals.count)
        #expect(now.lines.filter { $0.kind == .kiva }.count == 1)
        #expect(now.total.minorUnits == Int128(expected))

        // The page shows the total, each rate with its day, and the start page the same total.
        let site = SiteReport.build(dataset)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        let page = try #require(site.pages.first { $0.path == NetWorthReport.section.path })
        let markdown = unpadded(try renderer.render(page).markdown)
        #expect(markdown.contains("| **Net worth** | | | | **\(context.money(now.total))** |"), "\(markdown)")
        #expect(markdown.contains("| Euro Travel | Account | €95.03 | 1 GBP = 1.1528 EUR (ECB, 20 Nov 2026) | £82.43 |"), "\(markdown)")
        let start = try #require(site.dashboard.first { $0.section == NetWorthReport.section })
        #expect(start.summary.figures.first?.amount == now.total)
    }

    /// Without rates nothing is converted: the euro account stands apart and the page says why.
    @Test func withoutRatesNothingIsConverted() throws {
        let dataset = try Self.fixtures(rates: false)
        let context = ReportContext(dataset: dataset)
        let figures = NetWorthReport.figures(dataset, context: context, accounts: nil)
        #expect(!figures.hasRates)
        let october = try #require(figures.months.first { $0.month == CalendarMonth(year: 2026, month: 10) })
        #expect(october.notConverted.amounts == [Money(minorUnits: 54_630, currency: .eur)])
        #expect(october.lines.first { $0.name == "Euro Travel" }?.conversion == nil)
        #expect(october.total == october.lines.first { $0.name == "Personal" }?.amount)

        let site = SiteReport.build(dataset)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        let page = try #require(site.pages.first { $0.path == "networth/2026-10" })
        let markdown = unpadded(try renderer.render(page).markdown)
        #expect(markdown.contains("There are no exchange rates in the data folder"))
        #expect(markdown.contains("| Euro Travel | €546.30 | no rate on or before the day | not converted |"), "\(markdown)")
        #expect(markdown.contains("Not converted, so not in the total (no rate for the day): €546.30."))
    }

    /// A month after an account's latest data carries its balance; before its opening it has none.
    @Test func balancesCarryOnAfterTheLatestDataAndStartAtTheOpening() throws {
        let account = StarlingAccount(uid: "a", type: "PRIMARY", currency: .eur, name: "A", createdAt: Instant(iso8601: "2026-01-15T10:00:00Z"))
        var data = AccountData(account: account, feed: [
            feedItem(1_000, "2026-02-10T10:00:00Z", direction: .in, currency: .eur),
            feedItem(250, "2026-03-05T10:00:00Z", currency: .eur),
            feedItem(99, "2026-03-06T10:00:00Z", status: .pending, currency: .eur),
        ], savingsGoals: [])
        data.balance = StarlingBalance(cleared: Money(minorUnits: 5_000, currency: .eur))
        let balances = AccountBalances.of(data, clock: LocalClock(identifier: "Europe/London")!)
        #expect(balances.monthEnds.map(\.balance.minorUnits) == [4_250, 5_250, 5_000])
        #expect(balances.balance(atEndOf: CalendarMonth(year: 2025, month: 12)) == nil)
        #expect(balances.balance(atEndOf: CalendarMonth(year: 2026, month: 6))?.minorUnits == 5_000)
        var rates = ExchangeRates(base: .gbp)
        rates.add(ExchangeRate(base: .gbp, quote: .eur, date: CivilDate(year: 2026, month: 1, day: 30)!, decimal: "1.25")!)
        let figures = NetWorthReport.figures(accounts: [balances], qapitalGoals: [], kivaBalance: nil, rates: rates, base: .gbp,
                                             asOf: CivilDate(year: 2026, month: 4, day: 2))
        #expect(figures.months.map(\.total.minorUnits) == [3_400, 4_200, 4_000, 4_000])
        #expect(figures.months.last?.day == CivilDate(year: 2026, month: 4, day: 2))
    }
}
