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

@Suite struct KivaReportTests {
    static func loan(_ id: Int, _ code: String, _ kivaName: String, amount: Int64, funded: Int64, status: LoanStatus = "fundraising",
                     posted: String = "2026-11-01T10:00:00Z", at point: Coordinates? = nil, town: String? = nil,
                     description: String? = nil) -> KivaLoan {
        KivaLoan(id: id, name: "Borrower \(id)", status: status, loanAmount: usd(amount), fundedAmount: usd(funded),
                 sector: "Food", activity: "Grocery Store", use: "to buy stock",
                 location: .init(countryCode: code, country: kivaName, town: town, coordinates: point),
                 postedDate: Instant(iso8601: posted)!, descriptionHTML: description)
    }

    static let kenya = Country(code: "KE", name: "Kenya", region: "Africa", subregion: "Eastern Africa", capital: "Nairobi",
                               population: 53_771_300, gini: Gini(text: "40.8", value: 40.8, year: 2015),
                               coordinates: Coordinates(latitude: 1, longitude: 38))
    static let peru = Country(code: "PE", name: "Peru", region: "Americas", subregion: "South America", capital: "Lima",
                              population: 32_971_846, gini: nil, coordinates: Coordinates(latitude: -10, longitude: -76))

    static func dataset() -> Dataset {
        var dataset = Dataset()
        dataset.kiva.loans = [
            loan(1, "KE", "Kenya", amount: 50_000, funded: 12_500, posted: "2026-11-01T10:00:00Z", at: .init(latitude: -1.28, longitude: 36.82), town: "Nairobi"),
            loan(2, "PE", "Peru", amount: 120_000, funded: 120_000, status: "in_repayment", posted: "2026-11-03T10:00:00Z",
                 at: .init(latitude: -12.06, longitude: -75.2), description: "<b>Rosa</b> sells <i>bread</i><img src=x onerror=alert(1)>"),
            loan(3, "KE", "Kenya", amount: 20_000, funded: 20_000, status: "paid", posted: "2026-10-01T10:00:00Z", at: .init(latitude: 1, longitude: 38)),
            loan(4, "SB", "Solomon Islands", amount: 30_000, funded: 0, status: "expired", posted: "2026-11-02T10:00:00Z"),
        ]
        dataset.kiva.countries = [kenya, peru]
        dataset.kiva.countriesVersion = .v31
        return dataset
    }

    // MARK: The world grid

    @Test func binsLatitudeNorthToSouthWithEdgesGoingSouth() {
        #expect(WorldGrid.row(latitude: 90) == 0)
        #expect(WorldGrid.row(latitude: 60.0001) == 0)
        #expect(WorldGrid.row(latitude: 60) == 1)
        #expect(WorldGrid.row(latitude: 0.5) == 2)
        #expect(WorldGrid.row(latitude: 0) == 3, "the equator counts in 0–30°S")
        #expect(WorldGrid.row(latitude: -30) == 4)
        #expect(WorldGrid.row(latitude: -89.9) == 5)
        #expect(WorldGrid.row(latitude: -90) == 5)
    }

    @Test func binsLongitudeWestToEastWithTheAntimeridianInTheOuterColumns() {
        #expect(WorldGrid.column(longitude: -180) == 0)
        #expect(WorldGrid.column(longitude: -150.0001) == 0)
        #expect(WorldGrid.column(longitude: -150) == 1)
        #expect(WorldGrid.column(longitude: -0.1) == 5)
        #expect(WorldGrid.column(longitude: 0) == 6, "the prime meridian counts in 0–30°E")
        #expect(WorldGrid.column(longitude: 179.99) == 11)
        #expect(WorldGrid.column(longitude: 180) == 11)
    }

    @Test func countsPointsPerCellAndSkipsPointsOffTheGlobe() {
        let grid = WorldGrid.counts([
            .init(latitude: 90, longitude: 180), .init(latitude: 90, longitude: -180), .init(latitude: -90, longitude: 180),
            .init(latitude: 1, longitude: 38), .init(latitude: 0.58, longitude: 33.25), .init(latitude: 95, longitude: 0),
        ])
        #expect(grid.count == 6 && grid.allSatisfy { $0.count == 12 })
        #expect(grid[0][11] == 1 && grid[0][0] == 1 && grid[5][11] == 1)
        #expect(grid[2][7] == 2)
        #expect(grid.flatMap { $0 }.reduce(0, +) == 5)
    }

    @Test func labelsTheBands() {
        #expect((0..<6).map(WorldGrid.rowLabel) == ["90–60°N", "60–30°N", "30–0°N", "0–30°S", "30–60°S", "60–90°S"])
        #expect(WorldGrid.columnLabel(0) == "180–150°W")
        #expect(WorldGrid.columnLabel(5) == "30–0°W")
        #expect(WorldGrid.columnLabel(6) == "0–30°E")
        #expect(WorldGrid.columnLabel(11) == "150–180°E")
    }

    /// Newest first by places in the list is the order the loans sorted themselves had, ties on
    /// both the date and the id included (kept in their order, as Swift's stable sort kept them).
    @Test func theLoansNewestFirstByPlaceAreTheSortedLoans() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let loans = (0..<60).map { index in
                Self.loan(Int.random(in: 1...6, using: &generator), "KE", "Kenya \(index)", amount: 100, funded: 0,
                          posted: "2026-11-0\(Int.random(in: 1...3, using: &generator))T10:00:00Z")
            }
            let sorted = loans.sorted { ($0.postedDate, $0.id) > ($1.postedDate, $1.id) }
            #expect(KivaSupport.newestFirstOrder(loans).map { loans[$0].location.country } == sorted.map(\.location.country))
        }
    }

    // MARK: Per country

    @Test func aggregatesLoansPerCountryMostLoansFirst() {
        let dataset = Self.dataset()
        let groups = KivaSupport.byCountry(dataset.kiva.loans, countries: dataset.kiva.countriesByCode, currency: .usd)
        #expect(groups.map(\.place.code) == ["KE", "PE", "SB"], "two loans first, then the larger amount")
        #expect(groups[0].indices.map { dataset.kiva.loans[$0].id } == [1, 3])
        #expect(groups[0].indices == [0, 2] && groups[0].count == 2, "places in the list, not copies")
        #expect(groups[0].requested == usd(70_000))
        #expect(groups[0].funded == usd(32_500))
        #expect(groups[0].place.name == "Kenya" && groups[0].place.country == Self.kenya)
        // Not in RESTCountries: Kiva's name, no facts.
        #expect(groups[2].place.name == "Solomon Islands")
        #expect(groups[2].place.country == nil)
    }

    @Test func writesLoansPerMillionPeopleGiniAndCoordinates() {
        let locale = SiteLocale.enGB
        #expect(KivaSupport.perMillion(loans: 5, population: 53_771_300, locale: locale) == "0.09")
        #expect(KivaSupport.perMillion(loans: 3, population: 198_410, locale: locale) == "15.12")
        #expect(KivaSupport.perMillion(loans: 1, population: 1_380_004_385, locale: locale) == "<0.01")
        #expect(KivaSupport.perMillion(loans: 1, population: 0, locale: locale) == nil, "population 0 (Bouvet Island)")
        #expect(KivaSupport.perMillion(loans: 2_000, population: 1_000_000, locale: .deDE) == "2.000,00")
        #expect(locale.format(53_771_300) == "53,771,300")
        #expect(KivaSupport.gini(Gini(text: "40.8", value: 40.8, year: 2015)) == "40.8 (2015)")
        #expect(KivaSupport.gini(Gini(text: "27.8", value: 27.8, year: nil)) == "27.8")
        #expect(KivaSupport.gini(nil) == "–")
        #expect(KivaSupport.coordinates(.init(latitude: 0.583333, longitude: 33.25)) == "0.58°N 33.25°E")
        #expect(KivaSupport.coordinates(.init(latitude: -13.58333333, longitude: -172.33333333)) == "13.58°S 172.33°W")
        #expect(KivaSupport.coordinates(nil) == "–")
    }

    @Test func flagsComeFromTheCountryCode() {
        #expect(FlagEmoji.emoji("KE") == "🇰🇪")
        #expect(FlagEmoji.emoji("gb") == "🇬🇧")
        #expect(FlagEmoji.emoji("XK") == "🇽🇰")
        #expect(FlagEmoji.emoji("KEN") == "")
        #expect(FlagEmoji.emoji("É1") == "")
    }

    // MARK: Pages

    @Test func listsEveryLoanNewestFirstWithTotalsPerStatus() throws {
        let context = ReportContext(settings: Settings())
        let pages = LoansReport.pages(for: Self.dataset(), context: context)
        #expect(pages.map(\.path) == ["loans/index", "loans/map"])
        let view = try #require(pages[0].view as? LoansReport.IndexView)
        #expect(view.loans.map(\.borrower) == ["Borrower 2", "Borrower 4", "Borrower 1", "Borrower 3"])
        #expect(view.loans[0].flag == "🇵🇪")
        #expect(view.loans[0].percentFunded == "100%")
        #expect(view.loans[2].percentFunded == "25%")
        #expect(view.loans[2].town == "Nairobi" && view.loans[1].town == "–")
        #expect(view.loans[1].country == "Solomon Islands")
        #expect(view.loans[1].countryHref == "countries/sb.md")
        #expect(view.statuses.map(\.status) == ["Fundraising", "In repayment", "Paid", "Expired"])
        #expect(view.total?.loans == "4")
        #expect(view.total?.requested == "US$2,200.00")
        #expect(view.total?.funded == "US$1,525.00")
        #expect(view.summary == "4 loans in 3 countries")
    }

    @Test func mapsLoansByCountryAndOnTheGrid() throws {
        let context = ReportContext(settings: Settings())
        let pages = LoansReport.pages(for: Self.dataset(), context: context)
        let view = try #require(pages[1].view as? LoansReport.MapView)
        #expect(view.countries.map(\.name) == ["Kenya", "Peru", "Solomon Islands"])
        let kenya = view.countries[0]
        #expect(kenya.coordinates == "1°N 38°E")
        #expect(kenya.population == "53,771,300")
        #expect(kenya.gini == "40.8 (2015)")
        #expect(kenya.perMillion == "0.04")
        #expect(view.countries[2].population == "–" && view.countries[2].gini == "–")
        #expect(view.unknownCountries == "Solomon Islands")
        #expect(view.placed == 3 && view.unplaced == 1 && view.hasUnplaced)
        #expect(view.gridRows.map { MarkdownTable.line($0.line) }[2] == "| 30–0°N | · | · | · | · | · | · | · | 1 | · | · | · | · |")
        #expect(view.gridRows.map { MarkdownTable.line($0.line) }[3] == "| 0–30°S | · | · | · | 1 | · | · | · | 1 | · | · | · | · |")
        let map = ChartSVG.draw(view.map)
        #expect(map.contains("<circle"))
        #expect(map.components(separatedBy: "<circle").count - 1 == 3)
        #expect(map.contains("Nairobi, Kenya: 1 loan, US$500.00 requested"))
        // The circles listed under the map, largest first, as the map draws them: no value only on hover.
        #expect(view.places.count == 3 && view.hasPlaces)
        let drawn = map.components(separatedBy: "<title>").dropFirst(2).map { String($0.prefix { $0 != ":" }) }
        #expect(view.places.map(\.name) == drawn)
        let requested = view.places.map { SiteLocale.enGB.money(parsing: $0.requested)!.minorUnits }
        #expect(requested == requested.sorted(by: >))
        #expect(view.places.first { $0.name == "Nairobi, Kenya" }.map { ($0.loans, $0.requested, $0.position) }! == ("1", "US$500.00", "1.28°S 36.82°E"))
    }

    @Test func countryPagesShowTheirLoansAndStoriesWithEmphasisOnly() throws {
        let context = ReportContext(settings: Settings())
        let pages = CountriesReport.pages(for: Self.dataset(), context: context)
        #expect(pages.map(\.path) == ["countries/index", "countries/ke", "countries/pe", "countries/sb"])
        #expect(pages[2].title == "🇵🇪 Peru")
        let index = try #require(pages[0].view as? CountriesReport.IndexView)
        #expect(index.regions.map(\.name) == ["Africa", "Americas", "Not in RESTCountries"])
        #expect(index.regions[0].countries.map(\.loans) == ["2"])
        #expect(index.source == "RESTCountries")
        let peru = try #require(pages[2].view as? CountriesReport.CountryView)
        #expect(peru.stories.first.map { RichText.markdown($0.description) } == "**Rosa** sells *bread*")
        #expect(peru.gini == "–")
        let solomon = try #require(pages[3].view as? CountriesReport.CountryView)
        #expect(!solomon.known)
        #expect(solomon.population == nil)
    }

    @Test func theCartIsComparedWithTheBalance() {
        let context = ReportContext(settings: Settings())
        let covered = LenderReport.coverage(balance: usd(20_000), total: usd(17_500), context: context)
        #expect(covered.covered && covered.text.contains("leaving US$25.00"))
        let short = LenderReport.coverage(balance: usd(16_250), total: usd(17_500), context: context)
        #expect(!short.covered && short.text.contains("US$12.50 short"))
        let exact = LenderReport.coverage(balance: usd(17_500), total: usd(17_500), context: context)
        #expect(exact.covered)
        #expect(!LenderReport.coverage(balance: nil, total: usd(1), context: context).covered)
    }

    @Test func theLenderPageListsTheCartWithNotes() throws {
        var dataset = Self.dataset()
        dataset.kiva.account = KivaAccount(id: "1", firstName: "Ada", lastName: "Mwangi", lenderID: "ada8123")
        dataset.kiva.balance = usd(5_000)
        dataset.kiva.myLoans = [Self.loan(9, "KE", "Kenya", amount: 40_000, funded: 40_000, status: "paid")]
        dataset.kiva.hasMyLoans = true
        dataset.kiva.cart = [KivaCartItem(loanID: 1, amount: usd(2_500)), KivaCartItem(loanID: 2, amount: usd(2_500)),
                             KivaCartItem(loanID: 77, amount: usd(1_000))]
        dataset.kiva.hasCart = true
        let pages = LenderReport.pages(for: dataset, context: ReportContext(settings: Settings()))
        let view = try #require(pages.first?.view as? LenderReport.View)
        #expect(view.name == "Ada Mwangi" && view.lenderID == "ada8123" && view.balance == "US$50.00")
        #expect(view.cart.map(\.stillNeeded) == ["US$375.00", "US$0.00", "–"])
        #expect(view.cart.map(\.note) == ["", "no longer fundraising", "not in the loan listing"])
        #expect(view.cartTotal == "US$60.00")
        #expect(!view.covered && view.coverage.contains("US$10.00 short"))
        #expect(view.myLoans.map(\.borrower) == ["Borrower 9"])
    }

    /// The listing's totals are Kiva's, not the household's money: one phrase, no table on the start page.
    @Test func theDashboardShowsTheListingAsAPhrase() throws {
        let section = try #require(LoansReport.dashboard(for: Self.dataset(), context: ReportContext(settings: Settings())))
        #expect(section.figures.map(\.value).prefix(3) == ["4 in 3 countries", "US$1,525.00 of US$2,200.00 asked (69%)", "1"])
        #expect(section.figures.first?.label == "Loans in Kiva's listing")
        #expect(DashboardReport.isPhrase(section.figures[1].value), "set smaller than an amount")
        #expect(section.table == nil)
        #expect(LoansReport.dashboard(for: Dataset(), context: ReportContext(settings: Settings())) == nil)
    }

    // MARK: End to end

    @Test func buildsKivaAndV2CountriesIntoPagesThroughTheBinary() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        func loanJSON(_ id: Int, _ code: String, _ country: String, _ pairs: String, _ extra: String = "") -> String {
            #"{"id": \#(id), "name": "Borrower \#(id)", "status": "fundraising", "loan_amount": 1000, "funded_amount": 250.50, "sector": "Retail", "activity": "Retail", "use": " buy more merchandise ", "location": {"country_code": "\#(code)", "country": "\#(country)", "geo": {"level": "country", "pairs": "\#(pairs)", "type": "point"}}, "posted_date": "2026-11-0\#(id)T08:00:00Z"\#(extra)}"#
        }
        try write(#"{"paging": {"page": 1, "pages": 2}, "loans": [\#(loanJSON(1, "KE", "Kenya", "1 38", #", "description": {"languages": ["en"], "texts": {"en": "<b>Strong</b> start<script>alert(1)</script><img src=x onerror=alert(2)>"}}"#)), \#(loanJSON(2, "SB", "Solomon Islands", "-9.43 159.95"))]}"#,
                  to: data.appendingPathComponent("kiva/loans.json"))
        try write(#"{"paging": {"page": 2, "pages": 2}, "loans": [\#(loanJSON(2, "SB", "Solomon Islands", "-9.43 159.95")), \#(loanJSON(3, "KE", "Kenya", "91 38"))]}"#,
                  to: data.appendingPathComponent("kiva/loans-2.json"))
        try write(#"[{"name": "Kenya", "alpha2Code": "KE", "population": 53771300, "gini": 40.8, "latlng": [1, 38], "region": "Africa"}, {"name": "Bouvet Island", "alpha2Code": "BV", "population": 0, "latlng": [-54.43, 3.4], "region": "Antarctic"}]"#,
                  to: data.appendingPathComponent("restcountries/countries.json"))
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("kiva/loans-2.json:1:"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: loan 2 is also in kiva/loans.json; counted once"), "\(result.stderr)")
        #expect(result.stderr.contains("the loan is left off the map"), "\(result.stderr)")
        let files = snapshot(output)
        for page in ["loans/index", "loans/map", "countries/index", "countries/ke", "countries/sb"] {
            #expect(files[page + ".md"] != nil && files[page + ".html"] != nil, "missing \(page)")
        }
        #expect(files["lender/index.md"] == nil, "no lender files, no lender page")
        let text = { (path: String) in unpadded(String(decoding: files[path] ?? Data(), as: UTF8.self)) }
        #expect(text("loans/index.md").contains("3 loans in 2 countries"))
        #expect(text("loans/index.md").contains("| US$1,000.00 | US$250.50 (25%) |"))
        #expect(text("loans/index.md").contains(": buy more merchandise |"))
        #expect(text("loans/map.md").contains("| 30–0°N | · | · | · | · | · | · | · | 1 | · | · | · | · |"))
        #expect(text("loans/map.md").contains("| 0–30°S | · | · | · | · | · | · | · | · | · | · | · | 1 |"))
        #expect(text("loans/map.md").contains("2 loans placed by the coordinates Kiva gives them. 1 without usable coordinates"))
        #expect(text("loans/map.md").contains("| 40.8 | 0.04 |"), "v2 gini has no year")
        #expect(!text("loans/map.md").contains("<svg"), "the SVG map is for HTML only")
        let mapHTML = text("loans/map.html")
        #expect(mapHTML.contains(#"<svg class="chart chart-map""#))
        #expect(mapHTML.components(separatedBy: "<circle").count - 1 == 2)
        #expect(!mapHTML.contains("<script"))
        #expect(text("countries/index.md").contains("from RESTCountries") && !text("countries/index.md").contains("shape"), "no API shape names on pages")
        #expect(text("countries/index.md").contains("| 🇧🇻 Bouvet Island | – | 0 | – | 0 |"))
        let kenya = text("countries/ke.md")
        #expect(kenya.hasPrefix("# 🇰🇪 Kenya\n"))
        #expect(kenya.contains("**Strong** start"))
        #expect(!kenya.contains("onerror") && !kenya.contains("alert"))
        #expect(text("countries/ke.html").contains("<strong>Strong</strong> start"))
        #expect(text("countries/sb.md").contains("RESTCountries does not list this country (SB)"))
        #expect(text("index.md").contains("- [Kiva loans](loans/index.md)"))
    }
}
