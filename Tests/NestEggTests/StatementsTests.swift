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

@Suite struct StatementsTests {
    let london = LocalClock(identifier: "Europe/London")!

    func account(_ feed: [FeedItem], cleared: Money? = nil, currency: Currency = .gbp) -> AccountData {
        AccountData(
            account: StarlingAccount(uid: "0f4d2c6e-1111-2222-3333-44445555ae81", type: "PRIMARY", currency: currency,
                                     name: "Personal", createdAt: nil),
            feed: feed, balance: cleared.map { StarlingBalance(cleared: $0, effective: nil) }, savingsGoals: [])
    }

    /// The statements as the site makes them: up to the data's as-of date, here the latest item's
    /// date on the site's clock (or `asOf` when given).
    func statements(_ data: AccountData, clock: LocalClock? = nil, asOf: String? = nil) -> [StatementPeriods.Statement] {
        let clock = clock ?? london
        let latest = asOf.flatMap(CivilDate.init(iso8601:)) ?? Dataset(accounts: [data]).latestInstant.map(clock.date(of:))
        return StatementPeriods.statements(for: data, clock: clock, asOf: latest)
    }

    /// Opening + in − out = closing, each month opens on the previous month's close, and the
    /// running balance after the last line is the closing balance.
    func checkBalances(_ statements: [StatementPeriods.Statement], sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, statement) in statements.enumerated() {
            guard let opening = statement.opening, let closing = statement.closing else {
                Issue.record("\(statement.month) has no balance", sourceLocation: sourceLocation)
                continue
            }
            #expect(opening + statement.moneyIn - statement.moneyOut == closing, "\(statement.month)", sourceLocation: sourceLocation)
            #expect((statement.lines.last?.balance ?? opening) == closing, "\(statement.month)", sourceLocation: sourceLocation)
            if index > 0 {
                #expect(statements[index - 1].closing == opening, "\(statement.month)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func theLatestMonthClosesOnTheClearedBalanceAndEarlierMonthsChainBackwards() {
        let feed = [
            feedItem(285_000, "2026-09-25T08:00:00Z", direction: .in, source: "FASTER_PAYMENTS_IN"),
            feedItem(4_350, "2026-09-26T12:00:00Z"),
            feedItem(520, "2026-10-02T12:00:00Z"),
            feedItem(10_000, "2026-10-03T12:00:00Z", direction: .in),
            feedItem(87, "2026-11-04T12:00:00Z"),
        ]
        let statements = self.statements(account(feed, cleared: gbp(500_000)))
        #expect(statements.map { "\($0.month)" } == ["2026-09", "2026-10", "2026-11"])
        #expect(statements[2].closing == gbp(500_000))
        #expect(statements[2].opening == gbp(500_087))
        #expect(statements[1].closing == gbp(500_087))
        #expect(statements[1].opening == gbp(490_607))
        #expect(statements[1].moneyIn == gbp(10_000))
        #expect(statements[1].moneyOut == gbp(520))
        #expect(statements[1].lines.map(\.balance) == [gbp(490_087), gbp(500_087)])
        #expect(statements[0].opening == gbp(209_957))
        checkBalances(statements)
    }

    @Test func withoutABalanceFileOnlyMovementsAreKnown() {
        let feed = [feedItem(435, "2026-10-02T12:00:00Z"), feedItem(1_000, "2026-10-03T12:00:00Z", direction: .in)]
        let statements = self.statements(account(feed))
        #expect(statements.count == 1)
        #expect(statements[0].opening == nil && statements[0].closing == nil)
        #expect(statements[0].lines.allSatisfy { $0.balance == nil })
        #expect(statements[0].net == gbp(565))
    }

    @Test func aBalanceInAnotherCurrencyIsNotUsed() {
        let statements = self.statements(account([feedItem(435, "2026-10-02T12:00:00Z")], cleared: Money(minorUnits: 100, currency: .eur)))
        #expect(statements[0].opening == nil)
    }

    @Test func monthsFollowTheSiteTimeZone() {
        // 2026-09-30T23:30Z is 00:30 on 1 October in London (BST, UTC+1): an October transaction.
        // 2026-10-31T23:30Z is 23:30 on 31 October (GMT again since 25 October): still October.
        // 2026-08-31T22:59Z is 23:59 on 31 August: August.
        let feed = [feedItem(100, "2026-09-30T23:30:00Z"), feedItem(200, "2026-10-31T23:30:00Z"), feedItem(300, "2026-08-31T22:59:00Z")]
        let statements = self.statements(account(feed, cleared: gbp(10_000)))
        #expect(statements.map { "\($0.month)" } == ["2026-08", "2026-09", "2026-10"])
        #expect(statements[1].lines.isEmpty && statements[1].opening == statements[1].closing, "September has no item")
        #expect(statements[2].moneyOut == gbp(300))
        #expect(statements[0].moneyOut == gbp(300))
        // In UTC the first one belongs to September.
        let utc = self.statements(account(feed, cleared: gbp(10_000)), clock: LocalClock(identifier: "UTC")!)
        #expect(utc.map { "\($0.month)" } == ["2026-08", "2026-09", "2026-10"])
        checkBalances(statements)
        checkBalances(utc)
    }

    @Test func pendingUpcomingAndDeclinedItemsAreListedApartAndNotInTheBalance() {
        let feed = [
            feedItem(435, "2026-10-02T12:00:00Z"),
            feedItem(1_875, "2026-10-20T17:45:00Z", status: "PENDING"),
            feedItem(1_199, "2026-10-21T06:00:00Z", status: "UPCOMING"),
            feedItem(2_999, "2026-10-22T06:00:00Z", status: "DECLINED"),
            feedItem(5_000, "2026-10-23T06:00:00Z", currency: .eur),
        ]
        let statement = self.statements(account(feed, cleared: gbp(10_000)))[0]
        #expect(statement.lines.count == 1)
        #expect(statement.moneyOut == gbp(435))
        #expect(statement.opening == gbp(10_435))
        #expect(statement.apart.map(\.apart.reason) == ["Pending", "Upcoming", "Declined", "Settled in EUR, not the account's currency"])
        // The round-up rule still counts the pending payment, as the weekly round-ups do.
        #expect(statement.roundUps.count == 2)
        #expect(statement.roundUpTotal == gbp(65 + 25))
    }

    @Test func everyFixtureStatementBalances() throws {
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        #expect(!log.hasErrors)
        #expect(dataset.accounts.count == 2)
        let asOf = try #require(dataset.latestInstant.map(london.date(of:)))
        #expect("\(asOf)" == "2026-11-21")
        var counts: [Int] = []
        for data in dataset.accounts {
            let statements = StatementPeriods.statements(for: data, clock: london, asOf: asOf)
            counts.append(statements.count)
            #expect(statements.last?.closing == data.balance?.cleared)
            #expect(statements.last?.status == .provisional(through: asOf), "the month the data ends in")
            #expect(statements.dropLast().allSatisfy { $0.status == .final })
            checkBalances(statements)
        }
        // Personal, opened on 3 Nov 2025: a complete year of final statements (most of it without a
        // transaction) and the provisional November 2026; Euro Travel from August.
        #expect(counts == [13, 4])
        let personal = StatementPeriods.statements(for: dataset.accounts[0], clock: london, asOf: asOf)
        #expect(personal.first.map { "\($0.period)" } == "2025-11-03/2025-11-30")
        #expect(personal.filter { $0.lines.isEmpty }.count == 10)
    }

    @Test func everyMonthFromTheOpeningToTheAsOfDateHasAStatement() {
        var data = account([feedItem(285_000, "2026-09-25T08:00:00Z", direction: .in), feedItem(435, "2026-11-02T12:00:00Z")],
                           cleared: gbp(300_000))
        data.account.createdAt = Instant(iso8601: "2026-07-15T09:00:00Z")
        let statements = self.statements(data, asOf: "2026-11-21")
        #expect(statements.map { "\($0.month)" } == ["2026-07", "2026-08", "2026-09", "2026-10", "2026-11"])
        #expect(statements.map { "\($0.period)" } == ["2026-07-15/2026-07-31", "2026-08-01/2026-08-31", "2026-09-01/2026-09-30",
                                                     "2026-10-01/2026-10-31", "2026-11-01/2026-11-30"])
        // July, August and October carry their balance through without a transaction.
        #expect(statements[0].opening == gbp(15_435) && statements[0].closing == gbp(15_435))
        #expect(statements[1].lines.isEmpty && statements[1].opening == gbp(15_435) && statements[1].closing == gbp(15_435))
        #expect(statements[3].lines.isEmpty && statements[3].opening == gbp(300_435))
        #expect(statements.dropLast().allSatisfy { $0.status == .final })
        let november = statements[4]
        #expect(november.status == .provisional(through: CivilDate(year: 2026, month: 11, day: 21)!))
        #expect("\(november.covered)" == "2026-11-01/2026-11-21")
        #expect(november.closing == gbp(300_000))
        checkBalances(statements)
        // A first feed item before createdAt opens the account; an as-of date past November's end closes it.
        data.account.createdAt = Instant(iso8601: "2026-10-01T09:00:00Z")
        let later = self.statements(data, asOf: "2026-12-01")
        #expect(later.map { "\($0.period)" } == ["2026-09-25/2026-09-30", "2026-10-01/2026-10-31", "2026-11-01/2026-11-30",
                                                "2026-12-01/2026-12-31"])
        #expect(later[2].status == .final)
        #expect(later[3].status.isProvisional && later[3].lines.isEmpty)
        // No as-of date (no data at all), or an account opened after it: no statements.
        #expect(StatementPeriods.statements(for: data, clock: london, asOf: nil).isEmpty)
        data.feed = []
        #expect(self.statements(data, asOf: "2026-09-30").isEmpty)
    }

    func render(_ dataset: Dataset, _ path: String) throws -> String {
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == path }, "no page \(path)")
        return unpadded(try PageRenderer(templates: TemplateLibrary(), site: site).render(page).markdown)
    }

    @Test func aStatementPageHasItsHeaderBalancesAndRoundUps() throws {
        let feed = [
            feedItem(435, "2026-10-18T23:30:00Z"),  // Monday 19 Oct, 00:30 in London: 2026-W43
            feedItem(520, "2026-10-21T12:40:00Z"),
            feedItem(87, "2026-10-25T23:30:00Z"),
            feedItem(285_000, "2026-10-25T01:30:00Z", direction: .in, source: "FASTER_PAYMENTS_IN"),
            feedItem(1_875, "2026-10-30T17:45:00Z", status: "PENDING"),
            // The data runs into November, so October is final.
            feedItem(2_999, "2026-11-02T12:00:00Z", status: "DECLINED"),
        ]
        var data = account(feed, cleared: gbp(300_000))
        data.account.createdAt = Instant(iso8601: "2024-03-02T09:14:31Z")
        var dataset = Dataset(accounts: [data])
        dataset.settings.title = "Test"
        let page = try render(dataset, "statements/personal/2026-10")
        #expect(page.hasPrefix("# Statement for Personal, 1–31 Oct 2026\n"))
        #expect(page.contains("- **Account:** Personal (Primary)"))
        #expect(page.contains("- **Currency:** GBP"))
        // Without identifiers, the day it was opened names the account (never the API's UID).
        #expect(page.contains("- **Opened:** 2 Mar 2024"))
        #expect(!page.contains("UID") && !page.contains("ae81"))
        // The statement date is the period's last day, never the day of the build.
        #expect(page.contains("- **Statement date:** 31 Oct 2026"))
        #expect(page.contains("| Opening balance on 1 Oct 2026 | £160.42 |"))
        #expect(page.contains("| **Closing balance on 31 Oct 2026** | **£3,000.00** |"))
        #expect(page.contains("| 19 Oct 2026 | 00:30 | Shop | REF | | £4.35 | £156.07 |"))
        #expect(page.contains("| 30 Oct 2026 | 17:45 | Shop | Pending | -£18.75 |"))
        // Round-ups of the period, by week: the seed's £4.35, £5.20 and £0.87 give £1.58.
        // Weeks are named by their days in the period; the link keeps the ISO week.
        #expect(page.contains("| [19–25 Oct 2026](../../roundups/personal/2026-W43.md) | 3 | £1.58 |"))
        #expect(page.contains("| [26–31 Oct 2026](../../roundups/personal/2026-W44.md) | 1 | £0.25 |"))
        #expect(page.contains("| 1 Oct 2026 | | Balance brought forward | | | | £160.42 |"))
        #expect(page.contains("**Totals and closing balance**, **carried forward**"))
        let index = try render(dataset, "statements/index")
        #expect(index.contains("Primary account in GBP, opened 2 Mar 2024."), "\(index)")
    }

    @Test func aProvisionalStatementRunsToTheAsOfDateAndAnEmptyMonthCarriesItsBalance() throws {
        var data = account([feedItem(435, "2026-09-02T12:00:00Z"), feedItem(1_000, "2026-11-21T12:00:00Z", direction: .in)],
                           cleared: gbp(10_000))
        data.account.createdAt = Instant(iso8601: "2026-09-01T00:00:00Z")
        let dataset = Dataset(accounts: [data])
        let november = try render(dataset, "statements/personal/2026-11")
        #expect(november.hasPrefix("# Provisional statement for Personal, 1–21 Nov 2026\n"))
        #expect(november.contains("- **Period:** 1–21 Nov 2026 (Europe/London)"))
        #expect(november.contains("- **Status:** Provisional statement, to 21 Nov 2026"))
        #expect(november.contains("| **Balance on 21 Nov 2026** | **£100.00** |"))
        #expect(november.contains("| **21 Nov 2026** | | **Totals and balance** | | **£10.00** | **£0.00** | **£100.00** |"))
        #expect(!november.contains("Closing balance") && !november.contains("Statement date"), "no close at the period's end")
        let october = try render(dataset, "statements/personal/2026-10")
        #expect(october.contains("- **Statement date:** 31 Oct 2026"))
        #expect(october.contains("| **Closing balance on 31 Oct 2026** | **£90.00** |"))
        #expect(october.contains("No transactions in this period: the balance of £90.00 is carried forward."))
        let index = try render(dataset, "statements/index")
        #expect(index.contains("| [1–21 Nov 2026](../statements/personal/2026-11.md) (provisional) | 1 | £90.00 | £10.00 | £0.00 | – |"))
        #expect(index.contains("| [1–31 Oct 2026](../statements/personal/2026-10.md) | 0 | £90.00 | £0.00 | £0.00 | £90.00 |"))
        let section = StatementsReport.dashboard(for: dataset, context: ReportContext(settings: dataset.settings))
        #expect(section?.figures.first?.label == "Personal: balance on 21 Nov 2026 (provisional statement)")
        #expect(section?.table?.rows.first?.cells == ["Personal", "1–21 Nov 2026 (provisional)", "£10.00", "£0.00", "£100.00"])
    }

    @Test func theHeadNamesTheIssuerTheHolderAndTheAccountsNumbers() throws {
        var data = account([feedItem(435, "2026-10-02T12:00:00Z")], cleared: gbp(10_000))
        data.holderName = "Alex <b>Morgan</b>"
        data.identifiers = StarlingIdentifiers(accountIdentifier: "41234567", bankIdentifier: "608371",
                                               iban: "GB03SRLG60837141234567", bic: "SRLGGB2L")
        var dataset = Dataset(accounts: [data])
        dataset.settings.issuer = StatementIssuer(
            name: "Harbour <Bank> & *Co*", address: ["1 Quay Street", "London"], footer: "Regulated by <someone>.",
            logo: .init(path: "issuer/logo.svg", svg: Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)))
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == "statements/personal/2026-10" })
        let output = try PageRenderer(templates: TemplateLibrary(), site: site).render(page)
        let markdown = output.markdown, html = output.html
        #expect(markdown.contains("- **Issued by:** Harbour \\<Bank> & \\*Co\\*, 1 Quay Street, London\n"))
        #expect(markdown.contains("- **Account holder:** Alex \\<b>Morgan\\</b>\n"))
        #expect(markdown.contains("- **Sort code:** 60-83-71\n- **Account number:** 41234567\n- **IBAN:** GB03 SRLG 6083 7141 2345 67\n- **BIC:** SRLGGB2L\n"))
        #expect(!markdown.contains("UID ending"), "the account's numbers name it")
        // The index names it in a sentence, with abbreviations kept in capitals.
        let index = try PageRenderer(templates: TemplateLibrary(), site: site).render(try #require(site.pages.first { $0.path == "statements/index" })).markdown
        #expect(index.contains("sort code 60-83-71, account number 41234567."), "\(index)")
        // The printed pages' running head: the issuer's name (no pageHeader set), then whose and when.
        #expect(html.contains(#"<div class="running-head" aria-hidden="true"><p>Harbour &lt;Bank&gt; &amp; *Co*</p><p>Alex &lt;b&gt;Morgan&lt;/b&gt; · Personal (Primary, GBP) · sort code 60-83-71, account number 41234567 · Provisional statement, 2 Oct 2026</p></div>"#), "\(html)")
        #expect(markdown.contains("Regulated by \\<someone>."))
        #expect(html.contains("<p><strong>Harbour &lt;Bank&gt; &amp; *Co*</strong><br>1 Quay Street<br>London</p>"))
        #expect(html.contains("<p class=\"statement-footer\">Regulated by &lt;someone&gt;.</p>"))
        #expect(html.contains("<img class=\"issuer-logo\" src=\"data:image/svg+xml;base64,"))
        #expect(!html.contains("<script") && !html.contains("<svg xmlns"), "the logo's markup never reaches the page")
        #expect(!html.contains("<b>"))
        // Without an identifiers file, a creation date or an issuer, the name, type and currency
        // name the account, and the running head says who printed it.
        let bare = Dataset(accounts: [account([feedItem(435, "2026-10-02T12:00:00Z")])])
        let plain = try render(bare, "statements/personal/2026-10")
        #expect(!plain.contains("UID") && !plain.contains("…ae81"))
        let bareSite = SiteReport.build(bare)
        let bareHTML = try PageRenderer(templates: TemplateLibrary(), site: bareSite).render(try #require(bareSite.pages.first { $0.path == "statements/personal/2026-10" })).html
        #expect(bareHTML.contains("<p>Printed by NestEgg from the data as given</p><p>Personal (Primary, GBP) · Provisional statement, 2 Oct 2026</p>"))
        // A bank sets its own header line.
        dataset.settings.issuer?.pageHeader = "Harbour Bank plc · Private banking"
        let custom = SiteReport.build(dataset)
        let customHTML = try PageRenderer(templates: TemplateLibrary(), site: custom).render(try #require(custom.pages.first { $0.path == "statements/personal/2026-10" })).html
        #expect(customHTML.contains("<p>Harbour Bank plc · Private banking</p>"))
        #expect(!plain.contains("Issued by") && !plain.contains("Account holder"))
    }

    @Test func aPaymentInAnotherCurrencyShowsItsAmountBeforeConversionAndTheRate() throws {
        var item = feedItem(1_107, "2026-10-19T12:00:00Z")
        item.fields.sourceAmount = usd(1_401)
        var same = feedItem(500, "2026-10-20T12:00:00Z")
        same.fields.sourceAmount = gbp(500)
        let page = try render(Dataset(accounts: [account([item, same], cleared: gbp(10_000))]), "statements/personal/2026-10")
        #expect(page.contains("| Shop (paid US$14.01 at 0.790150 GBP per USD) | REF |"), "\(page)")
        #expect(page.contains("| Shop | REF |"), "a source amount in the account's currency is not shown")
        // The rate: rounded half up to six places, minor digits of each currency counted.
        let yen = try #require(Currency(code: "JPY"))
        #expect(StatementData.impliedRate(amount: gbp(1_107), source: usd(1_401)) == "0.790150")
        #expect(StatementData.impliedRate(amount: gbp(1_000), source: Money(minorUnits: 1_850, currency: yen)) == "0.005405")
        #expect(StatementData.impliedRate(amount: Money(minorUnits: 1_850, currency: yen), source: gbp(1_000)) == "185.000000")
        #expect(StatementData.impliedRate(amount: gbp(1), source: usd(3)) == "0.333333")
        #expect(StatementData.impliedRate(amount: gbp(2), source: usd(3)) == "0.666667")
        #expect(StatementData.impliedRate(amount: gbp(100), source: usd(0)) == nil, "no rate from nothing")
        #expect(StatementData.impliedRate(amount: gbp(100_000_000), source: Money(minorUnits: 1, currency: yen)) == nil,
                "more digits than camt.053's BaseOneRate holds")
        #expect(StatementData.impliedRate(amount: Money(minorUnits: Int128(Int64.max) * Int128(Int64.max), currency: .gbp), source: usd(1)) == nil,
                "overflow is no rate, never a trap")
    }

    @Test func aStatementWithoutABalanceSaysSo() throws {
        let dataset = Dataset(accounts: [account([feedItem(435, "2026-10-02T12:00:00Z")])])
        let page = try render(dataset, "statements/personal/2026-10")
        #expect(page.contains("There is no balance file for this account (starling/balances/0f4d2c6e-1111-2222-3333-44445555ae81.json)"))
        #expect(page.contains("| **Net movement** | **-£4.35** |"))
        #expect(!page.contains("Opening balance"))
        let index = try render(dataset, "statements/index")
        #expect(index.contains("| Period | Transactions | Money in | Money out | Net movement |"))
    }

    @Test func theDashboardShowsEachAccountsLatestStatement() {
        let dataset = Dataset(accounts: [account([feedItem(435, "2026-10-02T12:00:00Z"), feedItem(100, "2026-11-02T12:00:00Z")],
                                                 cleared: gbp(1_000))])
        let section = StatementsReport.dashboard(for: dataset, context: ReportContext(settings: dataset.settings))
        #expect(section?.figures.first?.value == "£10.00")
        #expect(section?.figures.first?.href == "statements/personal/2026-11.md")
        #expect(section?.table?.rows.first?.cells == ["Personal", "1–2 Nov 2026 (provisional)", "£0.00", "£1.00", "£10.00"])
    }

    @Test func noFeedMeansNoStatements() {
        let dataset = Dataset(accounts: [account([], cleared: gbp(1_000))])
        #expect(StatementsReport.pages(for: dataset, context: ReportContext(settings: dataset.settings)).isEmpty)
        #expect(StatementsReport.dashboard(for: dataset, context: ReportContext(settings: dataset.settings)) == nil)
    }
}
