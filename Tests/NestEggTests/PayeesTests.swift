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
                            account: "Personal", source: .bankAccount, reference: "REF", counted: counted, sourceID: id ?? "\(name)-\(day)-\(minor)")
    }

    @Test func namesThatDifferInCaseOrSpacingAreOneCounterparty() {
        let payees = PayeesReport.payees(of: [
            Self.payment("Tesco", "2026-01-02", 1_000), Self.payment("  TESCO ", "2026-01-03", 500),
            Self.payment("tesco", "2026-02-01", 250), Self.payment("Caf\u{e9}", "2026-01-05", 300),
            Self.payment("Cafe", "2026-01-06", 200), Self.payment("Index", "2026-01-07", 100),
            Self.payment("../../etc", "2026-01-08", 100), Self.payment("   ", "2026-01-09", 100),
            Self.payment("Occasional", "2026-01-10", 100),
        ])
        #expect(payees.map(\.name) == ["../../etc", "Cafe", "Caf\u{e9}", "Index", "Occasional", "  TESCO "].sorted(by: Text.precedes))
        let tesco = try! #require(payees.first { $0.key == Counterparty.key("Tesco") })
        #expect(tesco.payments.count == 3)
        #expect(tesco.payments.map(\.date) == tesco.payments.map(\.date).sorted(by: >), "newest first")
        // Slugs: unique, file- and URL-safe, never `index`, the same for the same data.
        let slugs = payees.map(\.slug)
        #expect(Set(slugs).count == slugs.count)
        #expect(slugs.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") } })
        #expect(!slugs.contains("index") && !slugs.contains("occasional"), "the index's and the occasional pages' paths")
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

    /// Fewer than ``PayeesReport/minimumPaymentsForOwnPage`` payments: no page of its own, its
    /// rows on the occasional pages; from that many, a page. The Directory gives the same places.
    @Test func aPayeeWithTwoPaymentsIsOccasionalAndOneWithThreeHasItsPage() throws {
        #expect(PayeesReport.minimumPaymentsForOwnPage == 3)
        let payments = [Self.payment("Bakery", "2026-03-01", 300), Self.payment("Bakery", "2026-03-08", 310),
                        Self.payment("Cafe Roma", "2026-03-02", 450), Self.payment("CAFE  ROMA", "2026-04-02", 420, incoming: true),
                        Self.payment("Deli", "2026-03-03", 700), Self.payment("Deli", "2026-03-04", 710), Self.payment("Deli", "2026-03-05", 720)]
        let payees = PayeesReport.payees(of: payments)
        #expect(payees.map(\.name) == ["Bakery", "CAFE  ROMA", "Deli"].sorted(by: Text.precedes))
        let byName = Dictionary(uniqueKeysWithValues: payees.map { ($0.key, $0) })
        let bakery = try #require(byName[Counterparty.key("bakery")]), cafe = try #require(byName[Counterparty.key("cafe roma")])
        let deli = try #require(byName[Counterparty.key("deli")])
        #expect(!bakery.hasOwnPage && !cafe.hasOwnPage && deli.hasOwnPage)
        #expect(bakery.target == "payees/occasional#payee-bakery")
        #expect(cafe.target == "payees/occasional#payee-cafe-roma")
        #expect(deli.target == "payees/deli")
        // The Directory: by any spelling of the name; the link keeps the anchor after `.md`, and the HTML link after `.html`.
        let directory = PayeesReport.Directory(payees)
        #expect(directory.path(of: " cafe roma") == cafe.target && directory.path(of: "DELI") == "payees/deli" && directory.path(of: "Tesco") == nil)
        #expect(ReportContext.href(cafe.target) == "payees/occasional.md#payee-cafe-roma" && ReportContext.href(deli.target) == "payees/deli.md")
        #expect(Page.htmlLink(ofMarkdownLink: "../" + ReportContext.href(cafe.target)) == "../payees/occasional.html#payee-cafe-roma")
        // The pages: the index, Deli's page, and one occasional page of Bakery's and Cafe Roma's rows, A to Z, each newest first.
        let dataset = Dataset()
        let context = ReportContext(dataset: dataset)
        let (index, pages) = PayeesReport.pages(payees, context: context, section: nil)
        #expect(pages.map(\.path) == ["payees/deli", "payees/occasional"])
        let view = try #require(pages[1].view as? PayeesReport.OccasionalView)
        #expect(view.rows.map(\.payee) == ["Bakery", "Bakery", "CAFE  ROMA", "CAFE  ROMA"])
        #expect(view.rows.map(\.first) == [true, false, true, false])
        #expect(view.rows.map(\.anchor) == ["payee-bakery", "", "payee-cafe-roma", ""])
        #expect(view.rows.map(\.date) == [context.date(CivilDate(iso8601: "2026-03-08")!), context.date(CivilDate(iso8601: "2026-03-01")!),
                                          context.date(CivilDate(iso8601: "2026-04-02")!), context.date(CivilDate(iso8601: "2026-03-02")!)])
        #expect(view.rows[2].received == context.money(gbp(420)) && view.rows[2].paidOut.isEmpty)
        let indexView = try #require(index.first?.view as? PayeesReport.IndexView)
        #expect(indexView.rows.map(\.href) == ["payees/occasional.md#payee-bakery", "payees/occasional.md#payee-cafe-roma", "payees/deli.md"])
        // Rendered: the anchor in the HTML only, the name on each row, what "occasional" means on both pages.
        let site = Site(title: "t", sections: [], pages: index + pages, dashboard: [], dataAsOf: nil, settings: dataset.settings)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        let occasional = try renderer.render(pages[1])
        #expect(occasional.html.contains("<span id=\"payee-bakery\"></span>Bakery"))
        #expect(occasional.html.contains("<span class=\"payee-more\"></span>Bakery"))
        #expect(!occasional.markdown.contains("payee-bakery") && !occasional.markdown.contains("<span"))
        #expect(occasional.tableCSVs.count == 1 && occasional.tableCSVs[0].components(separatedBy: "\r\n").filter { $0.hasPrefix("Bakery,") }.count == 2,
                "the CSV names the payee on each row")
        let meaning = "An occasional payee is one with fewer than 3 payments to or from it"
        #expect(unpadded(occasional.markdown).contains(meaning))
        let indexHTML = try renderer.render(index[0]).html
        #expect(indexHTML.contains("href=\"../payees/occasional.html#payee-bakery\"") && indexHTML.contains("href=\"../payees/deli.html\""))
        #expect(unpadded(try renderer.render(index[0]).markdown).replacingOccurrences(of: "\n", with: " ").contains(meaning))
    }

    /// A payee's slug (its page, or its anchor) is its name's, handed out in name order over every
    /// payee: a third payment moves it from its anchor to its page under the same slug, and others
    /// crossing the line, before or after it, change neither.
    @Test func slugsAndAnchorsStayWhenPayeesCrossTheLine() {
        let base = [Self.payment("Alpha", "2026-01-01", 100), Self.payment("Cafe", "2026-01-02", 200), Self.payment("Cafe", "2026-01-03", 210),
                    Self.payment("Zed", "2026-01-04", 300)]
        let before = PayeesReport.payees(of: base)
        let after = PayeesReport.payees(of: base + [Self.payment("Cafe", "2026-01-05", 220), Self.payment("Alpha", "2026-01-06", 110),
                                                    Self.payment("Alpha", "2026-01-07", 120)])
        #expect(before.map(\.slug) == after.map(\.slug))
        #expect(before.map(\.target) == ["payees/occasional#payee-alpha", "payees/occasional#payee-cafe", "payees/occasional#payee-zed"])
        #expect(after.map(\.target) == ["payees/alpha", "payees/cafe", "payees/occasional#payee-zed"])
        // Two spellings of one name slug apart, and keep apart: `cafe` and `cafe-2`.
        let two = PayeesReport.payees(of: [Self.payment("Cafe", "2026-01-01", 100), Self.payment("Caf\u{e9}", "2026-01-02", 100)])
        #expect(two.map(\.target) == ["payees/occasional#payee-cafe", "payees/occasional#payee-cafe-2"])
    }

    /// The occasional pages hold ``PayeesReport/occasionalRowsPerPage`` rows at most, a payee's
    /// rows never split over two pages, and each payee's target is the page that shows its anchor.
    @Test func theOccasionalPagesKeepAPayeeWholeAndItsTargetFindsIt() throws {
        var payments: [PayeePayment] = []
        for index in 0..<300 {
            let name = String(format: "Shop %03d", index)
            payments.append(Self.payment(name, "2026-02-01", Int64(100 + index)))
            if index % 3 == 0 { payments.append(Self.payment(name, "2026-02-02", Int64(200 + index))) }
        }
        let payees = PayeesReport.payees(of: payments)
        let context = ReportContext(dataset: Dataset())
        let pages = PayeesReport.pages(payees, context: context, section: nil).payees
        #expect(pages.first?.path == "payees/occasional" && pages.dropFirst().map(\.path) == (2...pages.count).map { "payees/occasional.page\($0)" })
        let views = try pages.map { try #require($0.view as? PayeesReport.OccasionalView) }
        #expect(views.allSatisfy { $0.rows.count <= PayeesReport.occasionalRowsPerPage && $0.rows.first?.first == true })
        #expect(views.reduce(0) { $0 + $1.rows.count } == payments.count)
        for payee in payees {
            let (page, fragment) = (String(payee.target.prefix { $0 != "#" }), String(payee.target.drop { $0 != "#" }.dropFirst()))
            let view = try #require(views[try #require(pages.firstIndex { $0.path == page })])
            let rows = view.rows.filter { $0.payee == payee.name }
            #expect(rows.count == payee.payments.count && rows.first?.anchor == fragment, "\(payee.name)")
        }
        #expect(views[1].pager.label == "Page 2 of \(pages.count)")
    }

    /// On the fixtures' site: every payment of every occasional payee is on the occasional pages
    /// exactly once, and none of a payee with its own page is.
    @Test func everyOccasionalPaymentAppearsExactlyOnce() throws {
        let dataset = try NetWorthTests.fixtures()
        let site = SiteReport.build(dataset)
        let context = ReportContext(dataset: dataset)
        let payees = PayeesReport.payees(dataset, context: context)
        var expected: [String: Int] = [:]
        for payee in payees where !payee.hasOwnPage {
            for payment in payee.payments {
                let money = context.money(payment.amount)
                expected["\(payee.name)|\(context.date(payment.date))|\(payment.reference)|\(payment.account)|\(payment.incoming ? "" : money)|\(payment.incoming ? money : "")", default: 0] += 1
            }
        }
        var actual: [String: Int] = [:]
        var anchors: [String] = []
        for page in site.pages where page.path.hasPrefix(PayeesReport.occasionalPath) {
            let view = try #require(page.view as? PayeesReport.OccasionalView)
            for row in view.rows {
                actual["\(row.payee)|\(row.date)|\(row.reference)|\(row.account)|\(row.paidOut)|\(row.received)", default: 0] += 1
                if row.first { anchors.append(row.anchor) }
            }
        }
        #expect(!expected.isEmpty)
        #expect(actual == expected)
        #expect(anchors.sorted() == payees.filter { !$0.hasOwnPage }.map { PayeesReport.anchor(slug: $0.slug) }.sorted(), "an anchor each, once")
        let own = Set(payees.filter(\.hasOwnPage).map(\.name))
        #expect(!actual.keys.contains { own.contains(String($0.prefix { $0 != "|" })) })
        let ownPages = payees.filter(\.hasOwnPage).map(\.target)
        let strays = site.pages.map(\.path).filter { path in
            path.hasPrefix("payees/") && path != PayeesReport.indexPath && !path.hasPrefix("payees/index.page")
                && !path.hasPrefix(PayeesReport.occasionalPath) && !ownPages.contains { path == $0 || path.hasPrefix($0 + ".page") }
        }
        #expect(strays.isEmpty, "no page for a payee without one: \(strays)")
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
            // Whom the entry paid: its provider, never its own words; "Unnamed payee" without one.
            let provider = (transaction["provider"] as? String ?? "").trimmingCharacters(in: .whitespaces)
            let name = provider.isEmpty ? "Unnamed payee" : provider
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
        #expect(payees.contains(where: \.hasOwnPage) && payees.contains { !$0.hasOwnPage }, "the fixtures have both kinds")
        // Each target is a page of the site; an occasional payee's is its first row there.
        var html: [String: String] = [:]
        for payee in payees {
            let page = String(payee.target.prefix { $0 != "#" })
            #expect(paths.contains(page), "\(payee.name)")
            #expect(payee.hasOwnPage ? payee.target == "payees/" + payee.slug : page.hasPrefix(PayeesReport.occasionalPath), "\(payee.name)")
            if !payee.hasOwnPage {
                if html[page] == nil { html[page] = try renderer.render(try #require(site.pages.first { $0.path == page })).html }
                #expect(html[page]!.contains("<span id=\"\(PayeesReport.anchor(slug: payee.slug))\"></span>"), "\(payee.name)")
            }
        }
        let list = try site.pages.filter { $0.path == "transactions/index" || $0.path.hasPrefix("transactions/index.page") }
            .map { try renderer.render($0).markdown }.joined()
        let linked = payees.filter { list.contains("]: ../\(ReportContext.href($0.target))\n") }
        #expect(linked.contains(where: \.hasOwnPage) && linked.contains { !$0.hasOwnPage }, "transactions rows link to their payees, an occasional one at its row")
        let recurring = try renderer.render(try #require(site.pages.first { $0.path == RecurringReport.section.path })).markdown
        #expect(payees.contains { recurring.contains("](../\(ReportContext.href($0.target)))") })
        let counterparties = site.search.filter { $0.kind == .counterparty }
        #expect(!counterparties.isEmpty)
        #expect(counterparties.allSatisfy { paths.contains(String($0.path.prefix { $0 != "#" })) && $0.path.hasPrefix("payees/") },
                "\(counterparties.filter { !$0.path.hasPrefix("payees/") }.map(\.title))")
        #expect(counterparties.contains { $0.path.contains("#payee-") }, "an occasional payee's entry opens its row")
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
