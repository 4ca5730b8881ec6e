import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

/// The counterparty pages (``PayeesReport``): grouping, totals by month and currency, paging, the
/// links to them, and every payee's totals recomputed from the raw JSON.
@Suite struct PayeesTests {
    static func payment(_ name: String, _ day: String, _ minor: Int64, currency: Currency = .gbp, incoming: Bool = false,
                        counted: Bool = true, id: String? = nil) -> PayeePayment {
        let date = CivilDate(iso8601: day)!
        return PayeePayment(name: name, date: date, amount: Money(minorUnits: Int128(minor), currency: currency), incoming: incoming,
                            account: "Personal", source: .starling, reference: "REF", counted: counted, sourceID: id ?? "\(name)-\(day)-\(minor)")
    }

    @Test func namesThatDifferInCaseOrSpacingAreOneCounterparty() {
        let payees = PayeesReport.payees(of: [
            Self.payment("Tesco", "2026-01-02", 1_000), Self.payment("  TESCO ", "2026-01-03", 500),
            Self.payment("tesco", "2026-02-01", 250), Self.payment("Caf\u{e9}", "2026-01-05", 300),
            Self.payment("Cafe", "2026-01-06", 200), Self.payment("Index", "2026-01-07", 100),
            Self.payment("../../etc", "2026-01-08", 100), Self.payment("   ", "2026-01-09", 100),
        ])
        #expect(payees.map(\.name) == ["../../etc", "Cafe", "Caf\u{e9}", "Index", "  TESCO "].sorted(by: Text.precedes))
        let tesco = try! #require(payees.first { $0.key == Counterparty.key("Tesco") })
        #expect(tesco.payments.count == 3)
        #expect(tesco.payments.map(\.date) == tesco.payments.map(\.date).sorted(by: >), "newest first")
        // Slugs: unique, file- and URL-safe, never `index`, the same for the same data.
        let slugs = payees.map(\.slug)
        #expect(Set(slugs).count == slugs.count)
        #expect(slugs.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") } })
        #expect(!slugs.contains("index"))
        #expect(slugs.contains("etc"))
        #expect(PayeesReport.payees(of: tesco.payments.reversed() + payees.flatMap(\.payments).filter { $0.name != "Tesco" && $0.name != "  TESCO " && $0.name != "tesco" })
            .map(\.slug).sorted() == slugs.sorted())
        // The search and the recurring payments group the same way.
        #expect(RecurringRule.key("  TESCO ") == Counterparty.key("tesco"))
    }

    @Test func totalsByMonthKeepCurrenciesApart() {
        let payees = PayeesReport.payees(of: [
            Self.payment("Shop", "2026-03-01", 1_000), Self.payment("Shop", "2026-03-09", 250, currency: .usd),
            Self.payment("Shop", "2026-03-10", 400, incoming: true), Self.payment("Shop", "2026-03-11", 999, counted: false),
            Self.payment("Shop", "2025-12-31", 700),
        ])
        let shop = payees[0]
        let months = shop.months()
        let march = try! #require(months[CalendarMonth(year: 2026, month: 3)])
        #expect(march.count == 4)
        #expect(march.paidOut.amounts == [gbp(1_000), usd(250)])
        #expect(march.received.amounts == [gbp(400)])
        #expect(shop.totals().paidOut.amounts == [gbp(1_700), usd(250)], "an unpinned payment is not counted")
        #expect(shop.totals(year: 2026).paidOut.amounts == [gbp(1_000), usd(250)])
        let top = PayeesReport.top(payees, year: 2026)
        #expect(top.map(\.amount) == [gbp(1_000), usd(250)], "one ranking per currency, the base currency first")
        #expect(PayeesReport.top(payees, year: 2026, base: .usd).map(\.amount) == [usd(250), gbp(1_000)])
    }

    @Test func aPayeesPaymentsArePagedAMonthsHeadingCountingAsARow() throws {
        var payments: [PayeePayment] = []
        for index in 0..<250 {
            let date = CivilDate(year: 2026, month: 1, day: 1)!.adding(days: index)
            payments.append(Self.payment("Corner shop", date.description, Int64(100 + index)))
        }
        // A monthly bill: a month's heading for each payment.
        for index in 0..<150 {
            payments.append(Self.payment("Gym", CivilDate(year: 2014 + index / 12, month: index % 12 + 1, day: 3)!.description, 2_499))
        }
        let payees = PayeesReport.payees(of: payments)
        let dataset = Dataset()
        let context = ReportContext(dataset: dataset)
        let (index, pages) = PayeesReport.pages(payees, context: context, section: "transactions")
        #expect(index.map(\.path) == ["payees/index"])
        // 250 payments and 9 months' headings, 80 to a page; 150 payments and as many headings.
        #expect(pages.map(\.path) == ["payees/corner-shop", "payees/corner-shop.page2", "payees/corner-shop.page3", "payees/corner-shop.page4",
                                      "payees/gym", "payees/gym.page2", "payees/gym.page3", "payees/gym.page4"])
        let views = pages.map { $0.view as! PayeesReport.PayeeView }
        let rows = views.map { $0.months.reduce(0) { $0 + $1.rows.count } }
        #expect(rows[0..<4].reduce(0, +) == 250 && rows[4...].reduce(0, +) == 150)
        for (view, count) in zip(views, rows) {
            #expect(count + view.months.count <= PayeesReport.rowsPerPage + 1, "rows and headings: \(count) + \(view.months.count)")
        }
        #expect(rows[4...].allSatisfy { $0 <= 40 }, "a monthly bill: 40 payments and 40 headings a page")
        // The newest first: page 1 opens with the last day; a month split over two pages says so.
        #expect(views[0].months.first?.rows.first?.date == context.date(CivilDate(year: 2026, month: 1, day: 1)!.adding(days: 249)))
        #expect(views[0..<4].flatMap(\.months).contains { $0.continues })
        let site = Site(title: "t", sections: [], pages: index + pages, dashboard: [], dataAsOf: nil, settings: dataset.settings)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        let markdown = unpadded(try renderer.render(pages[2]).markdown)
        #expect(markdown.contains("[Next →](../payees/corner-shop.page4.md)"))
        #expect(markdown.contains("[← Previous](../payees/corner-shop.page2.md)"))
        #expect(markdown.components(separatedBy: "\n| ").count - 1 == rows[2] + views[2].months.count, "a row each and a header per month")
        #expect(!markdown.contains("received"), "nothing received: not said")
    }

    @Test func theIndexIsPagedAndItsTopTablesAreOnPageOne() {
        let payments = (0..<95).map { Self.payment(String(format: "Shop %02d", $0), "2026-05-01", Int64(100 + $0)) }
            + [Self.payment("Old shop", "2024-05-01", 99_999), Self.payment("Euro shop", "2026-05-02", 500, currency: .eur)]
        let payees = PayeesReport.payees(of: payments)
        // The data's as-of date (its latest item's) makes "this year": 2026.
        var dataset = Dataset()
        dataset.transactions = TransactionsData(transactions: [Transaction(id: "1", name: "Shop 00", category: "food", amount: gbp(100),
                                                                           date: .day(CivilDate(year: 2026, month: 5, day: 2)!), accountName: "Visa")])
        let context = ReportContext(dataset: dataset)
        let index = PayeesReport.pages(payees, context: context, section: nil).index
        #expect(index.map(\.path) == ["payees/index", "payees/index.page2", "payees/index.page3"])
        let views = index.map { $0.view as! PayeesReport.IndexView }
        #expect(views.map(\.rows.count) == [40, 40, 17])
        #expect(views.flatMap(\.rows).map(\.name) == payees.map(\.name), "A to Z")
        #expect(views[0].hasTopYear && views[0].hasTopAll && !views[1].hasTopYear && !views[2].hasTopAll)
        // The year's (2026: no old shop) and all time's, ten per currency, the base currency's first.
        #expect(views[0].topYear.map(\.currency) == ["GBP", "EUR"] && views[0].topYear[0].rows.count == 10)
        #expect(views[0].topYear[0].rows.first?.name == "Shop 94" && views[0].topAll[0].rows.first?.name == "Old shop")
    }

    /// Every payee's counted payments by month, direction and currency, from the raw JSON: the
    /// Starling feeds (settled, in the account's currency, internal transfers left out) and the
    /// transactions app (pinned ones), grouped by the name trimmed, spaces collapsed, in lower case.
    @Test func everyPayeesTotalsEqualAnIndependentCheck() throws {
        func key(_ name: String) -> String {
            name.replacingOccurrences(of: "_", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        }
        var expected: [String: Int] = [:]  // "key|yyyy-MM|out|GBP" → minor units
        var counts: [String: Int] = [:]    // key → payments
        for account in HouseholdCheck.accounts {
            for item in account.items where HouseholdCheck.counted(item, account) && item.source != "INTERNAL_TRANSFER" {
                let trimmed = item.counterParty.trimmingCharacters(in: .whitespacesAndNewlines)
                let name = !trimmed.isEmpty ? trimmed : item.out ? (item.reference.isEmpty ? "Unnamed payee" : item.reference) : "Unnamed payer"
                expected["\(key(name))|\(item.day.prefix(7))|\(item.out ? "out" : "in")|\(item.currency)", default: 0] += item.minor
                counts[key(name), default: 0] += 1
            }
        }
        let dataset = try NetWorthTests.fixtures()
        let currency = dataset.settings.currency(forSource: "transactions").code
        let transactions = HouseholdCheck.json("transactions/transactions.json") as! [[String: Any]]
        for transaction in transactions {
            let name = transaction["name"] as! String
            counts[key(name), default: 0] += 1
            guard transaction["pinned"] as? Bool ?? true else { continue }
            let day = transaction["date"] as! String
            let month: String
            if day.count == 10 { month = String(day.prefix(7)) } else {
                let formatter = ISO8601DateFormatter()
                let instant = try #require(formatter.date(from: day), "\(day)")
                let parts = HouseholdCheck.london.dateComponents([.year, .month], from: instant)
                month = String(format: "%04d-%02d", parts.year!, parts.month!)
            }
            let minor = NSDecimalNumber(decimal: Decimal(string: "\(transaction["amount"]!)")! * 100).intValue
            expected["\(key(name))|\(month)|out|\(transaction["currency"] as? String ?? currency)", default: 0] += minor
        }
        let payees = PayeesReport.payees(dataset, context: ReportContext(dataset: dataset))
        var actual: [String: Int] = [:]
        for payee in payees {
            #expect(counts[payee.key] == payee.payments.count, "\(payee.name)")
            for (month, figures) in payee.months() {
                for amount in figures.paidOut.amounts { actual["\(payee.key)|\(month)|out|\(amount.currency.code)", default: 0] += Int(amount.minorUnits) }
                for amount in figures.received.amounts { actual["\(payee.key)|\(month)|in|\(amount.currency.code)", default: 0] += Int(amount.minorUnits) }
            }
        }
        #expect(!expected.isEmpty)
        #expect(actual == expected.filter { $0.value != 0 || actual[$0.key] != nil })
        #expect(Set(payees.map(\.key)) == Set(counts.keys))
    }

    /// The transactions lists, the recurring payments and the search link each counterparty to its page.
    @Test func counterpartiesAreLinkedToTheirPages() throws {
        let dataset = try NetWorthTests.fixtures()
        let site = SiteReport.build(dataset)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        let paths = Set(site.pages.map(\.path))
        let payees = PayeesReport.payees(dataset, context: ReportContext(dataset: dataset))
        #expect(paths.contains(PayeesReport.indexPath))
        for payee in payees { #expect(paths.contains(payee.path), "\(payee.name)") }
        let list = try renderer.render(try #require(site.pages.first { $0.path == "transactions/index" })).markdown
        let linked = payees.filter { list.contains("]: ../\($0.path).md\n") }
        #expect(!linked.isEmpty, "transactions rows link to their payees")
        let recurring = try renderer.render(try #require(site.pages.first { $0.path == RecurringReport.section.path })).markdown
        #expect(payees.contains { recurring.contains("](../\($0.path).md)") })
        let counterparties = site.search.filter { $0.kind == .counterparty }
        #expect(!counterparties.isEmpty)
        #expect(counterparties.allSatisfy { paths.contains($0.path) && $0.path.hasPrefix("payees/") }, "\(counterparties.filter { !$0.path.hasPrefix("payees/") }.map(\.title))")
        // The search names each counterparty once, not again as a page.
        #expect(!site.search.contains { $0.kind != .counterparty && $0.path.hasPrefix("payees/") && $0.path != PayeesReport.indexPath })
        let index = unpadded(try renderer.render(try #require(site.pages.first { $0.path == PayeesReport.indexPath })).markdown)
        #expect(index.contains("## Top payees in 2026"))
        #expect(index.contains("| # | Payee | Paid out in GBP | Payments |"))
        let insights = unpadded(try renderer.render(try #require(site.pages.first { $0.path == TransactionsInsightsReport.section.path })).markdown)
        #expect(insights.contains("## Top payees in 2026"))
    }

    /// Through the binary, as a household builds: the index and a payee's page in Markdown and
    /// HTML, reached from the transactions list's HTML.
    @Test func theBinaryBuildsThePayeePages() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "-q", "--data", HouseholdCheck.fixtures.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = snapshot(output)
        #expect(files["payees/index.md"] != nil && files["payees/index.html"] != nil)
        let list = String(decoding: try #require(files["transactions/index.html"]), as: UTF8.self)
        let slugs = list.matches(of: /href="\.\.\/payees\/([a-z0-9-]+)\.html"/).map { String($0.1) }
        #expect(slugs.first == "index", "the list's introduction links the index")
        let slug = try #require(slugs.first { $0 != "index" }, "a row links its payee")
        let page = String(decoding: try #require(files["payees/\(slug).html"]), as: UTF8.self)
        #expect(page.contains("<h1"))
        #expect(page.contains("paid out") && page.contains("<table"))
        let markdown = String(decoding: try #require(files["payees/\(slug).md"]), as: UTF8.self)
        #expect(markdown.contains("[Every payee](../payees/index.md)"))
    }
}
