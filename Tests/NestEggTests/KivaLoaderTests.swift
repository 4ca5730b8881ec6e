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


/// A data folder made of the given files (path → JSON text), removed by the caller.
func dataFolder(_ files: [String: String]) throws -> (URL, DataFolder) {
    let root = try temporaryFolder()
    for (path, text) in files { try write(text, to: root.appendingPathComponent(path)) }
    return (root, try DataFolder(root: root))
}

@Suite struct KivaLoaderTests {
    // MARK: The samples (Tests/Samples/kiva: Kiva's API v1; Tests/Samples/restcountries)

    @Test func loadsTheLoanListingSampleABareArray() throws {
        let (doc, log) = try sample("kiva/loans-bare-array.json")
        let loans = KivaLoader.loans(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(loans.map(\.id) == [402117, 402113, 402108])
        let amara = loans[0]
        #expect(amara.name == "Amara")
        // "  to buy a second sewing machine and thread " is padded in the file.
        #expect(amara.use == "to buy a second sewing machine and thread")
        #expect(amara.loanAmount == usd(122_500))
        #expect(amara.fundedAmount == usd(30_000))
        #expect(amara.location.countryCode == "SN")
        #expect(amara.location.town == nil, "the sample has no town for Senegal")
        #expect(amara.location.coordinates == Coordinates(latitude: 14, longitude: -14))
        #expect(amara.postedDate == Instant(iso8601: "2012-03-05T14:40:11Z"))
        #expect(loans[1].location.town == "Quetzaltenango")
        #expect(loans[1].location.coordinates == Coordinates(latitude: 14.833333, longitude: -91.516667))
        #expect(loans[1].borrowerCount == 11)
        #expect(loans[1].lenderCount == nil, "listings of this age have no lender_count")
        #expect(loans[2].location.town == "Hải Dương")
        #expect(loans.allSatisfy { $0.use == Text.trimmed($0.use) })
    }

    @Test func loadsTheListingPageSampleWithPaging() throws {
        let (doc, log) = try sample("kiva/loans-page.json")
        let loans = KivaLoader.loans(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(loans.map(\.id) == [1990451, 1990447])
        // 525.5 and 525.50 are the same amount, to the cent.
        #expect(loans[0].loanAmount == usd(52_550) && loans[0].fundedAmount == usd(52_550))
        #expect(loans[0].status == "in_repayment")
        #expect(loans[0].lenderCount == 19)
        #expect(loans[0].location.coordinates == Coordinates(latitude: -0.416667, longitude: 36.95))
        // An empty town is no town; themes: null is ignored.
        #expect(loans[1].location.town == nil)
        #expect(loans[1].location.country == "Peru")
        #expect(loans[1].status == "expired")
        #expect(loans[1].use == "para comprar neumáticos nuevos")
    }

    @Test func loadsTheSnapshotSampleWithAHeaderInsteadOfPaging() throws {
        let (doc, log) = try sample("kiva/snapshot-page.json")
        let loans = KivaLoader.loans(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let loan = try #require(loans.first)
        #expect(loans.count == 1)
        #expect(loan.id == 1207)
        #expect(loan.status == "paid")
        // The snapshot has no loan_amount; terms.loan_amount stands in.
        #expect(loan.loanAmount == usd(77_500))
        #expect(loan.fundedAmount == usd(77_500))
        #expect(loan.location.town == "Arequipa")
        // funded_date (19 Sep) is before posted_date (28 Sep): loaded as given.
        #expect(loan.postedDate == Instant(iso8601: "2006-09-28T16:30:00Z"))
        // The description's HTML (with its escaped "<\/i>") keeps its emphasis and line breaks, and nothing else.
        let markdown = RichText.markdown(fromHTML: try #require(loan.descriptionHTML))
        #expect(markdown.hasPrefix("*Written by a field officer of the partner in Arequipa:*"))
        #expect(markdown.contains("<br><br>Esperanza has sold"))
        #expect(!markdown.contains("<i>"))
    }

    /// The partner fixtures are not a contract file, but their `location.geo.pairs` is the shape loans use.
    @Test func thePartnerSampleGeoPairsParseAsLatitudeLongitude() throws {
        let (doc, _) = try sample("kiva/partners.json")
        var pairs: [Coordinates] = []
        for partner in doc.value.array ?? [] {
            for country in partner["countries"]?.array ?? [] {
                let text = try #require(country["location"]?["geo"]?["pairs"]?.string)
                pairs.append(try #require(KivaLoader.parsePairs(text)))
            }
        }
        #expect(pairs == [Coordinates(latitude: 14, longitude: -14), Coordinates(latitude: 17, longitude: -4),
                          Coordinates(latitude: 16.166667, longitude: 107.833333)])
        #expect(pairs.allSatisfy { $0.isOnTheGlobe })
    }

    /// The Kiva samples laid out as a data folder: three listing pages in their three shapes, the
    /// lender, the cart, and the v3.1 countries.
    @Test func theKivaSamplesLoadAsADataFolder() throws {
        let (root, folder) = try dataFolder([
            "kiva/loans.json": try sampleText("kiva/loans-page.json"),
            "kiva/loans-2.json": try sampleText("kiva/loans-bare-array.json"),
            "kiva/loans-3.json": try sampleText("kiva/snapshot-page.json"),
            "kiva/my/account.json": try sampleText("kiva/my/account.json"),
            "kiva/my/balance.json": try sampleText("kiva/my/balance.json"),
            "kiva/cart.json": try sampleText("kiva/cart.json"),
            "restcountries/countries.json": try sampleText("restcountries/v3.1.json"),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let log = DiagnosticLog()
        let data = KivaLoader.load(from: folder, settings: Settings(), log: log)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(data.loans.map(\.id) == [1990451, 1990447, 402117, 402113, 402108, 1207])
        #expect(data.account?.name == "Lena Marsh")
        #expect(data.account?.lenderID == "lenamarsh7")
        #expect(data.balance == usd(4875))
        #expect(data.cart == [KivaCartItem(loanID: 402117, amount: usd(2500)), KivaCartItem(loanID: 1990451, amount: usd(5000))])
        #expect(data.countriesVersion == .v31)
        #expect(data.countries.count == 9)
    }

    @Test(arguments: [
        ("restcountries/v2-compact.json", RESTCountriesVersion.v2, 10),
        ("restcountries/v2.json", RESTCountriesVersion.v2, 9),
        ("restcountries/v3.1.json", RESTCountriesVersion.v31, 9),
    ])
    func loadsEveryRESTCountriesSampleDetectingItsShape(path: String, version: RESTCountriesVersion, count: Int) throws {
        let (doc, log) = try sample(path)
        let (detected, countries) = CountriesLoader.countries(in: doc)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(detected == version)
        #expect(countries.count == count)
        let byCode = Dictionary(uniqueKeysWithValues: countries.map { ($0.code, $0) })
        // Population 0, an empty capital, gini missing or {}.
        #expect(byCode["BV"]?.population == 0)
        #expect(byCode["BV"]?.gini == nil)
        #expect(byCode["BV"]?.capital == nil)
        // Non-ASCII names, written as \u escapes in the compact file and as UTF-8 in the others.
        #expect(byCode["AX"]?.name == "Åland Islands")
        #expect(byCode["AX"]?.coordinates == Coordinates(latitude: 60.116667, longitude: 19.9))
        #expect(byCode["CW"]?.name == "Curaçao")
        if version == .v2 {
            #expect(byCode["UM"]?.coordinates == nil, "latlng is [] for UM in v2")
            #expect(byCode["UM"]?.population == 300)
        } else {
            #expect(byCode["UM"]?.population == 0)
            #expect(byCode["BV"]?.region == "Antarctic" && byCode["BV"]?.subregion == "")
        }
    }

    @Test func readsGiniAsANumberInV2AndByLatestYearInV31() throws {
        for path in ["restcountries/v2-compact.json", "restcountries/v2.json"] {
            let (v2, _) = try sample(path)
            let byCode = Dictionary(uniqueKeysWithValues: CountriesLoader.countries(in: v2).countries.map { ($0.code, $0) })
            #expect(byCode["XK"]?.gini == Gini(text: "29", value: 29, year: nil), "\(path)")
            #expect(byCode["KE"]?.gini == Gini(text: "40.8", value: 40.8, year: nil), "\(path)")
            #expect(byCode["CW"]?.gini == nil, "\(path): null")
            #expect(byCode["AX"]?.gini == nil, "\(path): missing or null")
        }
        let (v31, _) = try sample("restcountries/v3.1.json")
        let countries = CountriesLoader.countries(in: v31).countries
        #expect(countries.first { $0.code == "CI" }?.gini == Gini(text: "41.5", value: 41.5, year: 2015))
        #expect(countries.first { $0.code == "CI" }?.name == "Ivory Coast")
        // The later year wins though it comes first in the file.
        #expect(countries.first { $0.code == "MA" }?.gini == Gini(text: "39.5", value: 39.5, year: 2013))
        #expect(countries.first { $0.code == "XK" }?.gini == Gini(text: "29.0", value: 29, year: 2017))
        #expect(countries.first { $0.code == "JP" }?.capital == "Tokyo")

        let (doc, log) = document(#"{"gini": {"2016": 40.1, "2019": 39.0, "2010": 44}}"#)
        let gini = CountriesLoader.gini(try #require(doc?.value["gini"]))
        #expect(gini == Gini(text: "39.0", value: 39, year: 2019))
        #expect(log.diagnostics.isEmpty)
    }

    @Test func aGiniKeyThatIsNotAYearIsAnErrorWithItsPath() throws {
        let (doc, log) = document("[{\"cca2\": \"KE\", \"name\": {\"common\": \"Kenya\"}, \"population\": 5,\n  \"gini\": {\"latest\": 40.8}}]",
                                  file: "restcountries/countries.json")
        let result = CountriesLoader.countries(in: try #require(doc))
        #expect(result.countries.first?.gini == nil)
        let error = try #require(log.errors.first)
        #expect(error.path == "$[0].gini.latest")
        #expect(error.line == 2)
        #expect(error.message.contains("expected a year"))
    }

    @Test func detectsTheShapeFromTheFields() throws {
        let v2 = document(#"[{"name": "Kenya", "alpha2Code": "KE", "population": 1}]"#).0!
        let v31 = document(#"[{"name": {"common": "Kenya"}, "cca2": "KE", "population": 1}]"#).0!
        #expect(CountriesLoader.detectVersion(v2.value.array!) == .v2)
        #expect(CountriesLoader.detectVersion(v31.value.array!) == .v31)
        let (other, log) = document(#"[{"country": "Kenya"}]"#)
        let otherDocument = try #require(other)
        #expect(CountriesLoader.countries(in: otherDocument).version == nil)
        #expect(log.errors.first?.message.contains("/v2/all") == true)
        // A country in the other shape among v3.1 ones is an error naming the missing field.
        let (mixed, mixedLog) = document(#"[{"name": {"common": "Kenya"}, "cca2": "KE", "population": 1}, {"name": "Peru", "alpha2Code": "PE", "population": 2}]"#)
        let mixedDocument = try #require(mixed)
        #expect(CountriesLoader.countries(in: mixedDocument).countries.map(\.code) == ["KE"])
        #expect(mixedLog.errors.map(\.path) == ["$[1].cca2", "$[1].name"])
    }

    @Test func coordinatesOffTheGlobeAreAWarningAndLeftOffTheMap() throws {
        let json = """
        {"loans": [
          {"id": 1, "name": "A", "status": "fundraising", "loan_amount": 100, "funded_amount": 0,
           "location": {"country_code": "KE", "country": "Kenya", "geo": {"pairs": "95 200"}}, "posted_date": "2026-11-01T10:00:00Z"},
          {"id": 2, "name": "B", "status": "fundraising", "loan_amount": 100, "funded_amount": 0,
           "location": {"country_code": "KE", "country": "Kenya", "geo": {"pairs": "north"}}, "posted_date": "2026-11-01T10:00:00Z"},
          {"id": 3, "name": "C", "status": "fundraising", "loan_amount": 100, "funded_amount": 0,
           "location": {"country_code": "KE", "country": "Kenya", "geo": {"pairs": "-90 180"}}, "posted_date": "2026-11-01T10:00:00Z"}
        ]}
        """
        let (doc, log) = document(json, file: "kiva/loans.json")
        let loans = KivaLoader.loans(in: try #require(doc))
        #expect(loans.map(\.id) == [1, 2, 3])
        #expect(loans[0].location.coordinates == nil)
        #expect(loans[1].location.coordinates == nil, "a malformed pairs string is an error (the build stops)")
        #expect(loans[2].location.coordinates == Coordinates(latitude: -90, longitude: 180), "the edges are on the globe")
        #expect(log.warnings.map(\.path) == ["$.loans[0].location.geo.pairs"])
        #expect(log.warnings.first?.message.contains("left off the map") == true)
        #expect(log.errors.map(\.path) == ["$.loans[1].location.geo.pairs"])
        #expect(log.errors.first?.line == 5)
    }

    @Test func aBadAmountIsAnErrorWithFileLineAndPath() throws {
        let json = "{\"loans\": [\n {\"id\": 7, \"name\": \"A\", \"status\": \"funded\", \"loan_amount\": 100.005,\n  \"funded_amount\": \"lots\", \"location\": {\"country_code\": \"Kenya\"}}\n]}"
        let (doc, log) = document(json, file: "kiva/loans.json")
        let parsed = try #require(doc)
        #expect(KivaLoader.loans(in: parsed).isEmpty)
        #expect(log.errors.map(\.path) == [
            "$.loans[0].loan_amount", "$.loans[0].funded_amount", "$.loans[0].location.country_code", "$.loans[0].posted_date",
        ])
        #expect(log.errors[0].line == 2)
        #expect(log.errors[1].description.hasPrefix("kiva/loans.json:3:"))
        #expect(log.errors[3].message.contains("posted_date"))
    }

    @Test func decimalAmountsAreExact() throws {
        let (doc, _) = document(#"[{"id": 1, "name": "A", "status": "fundraising", "loan_amount": 1225.0, "funded_amount": "0.10", "location": {"country_code": "pe"}, "posted_date": "2026-11-01T10:00:00Z"}]"#)
        let parsed = try #require(doc)
        let loan = try #require(KivaLoader.loans(in: parsed).first)
        #expect(loan.loanAmount == usd(122_500))
        #expect(loan.fundedAmount == usd(10))
        #expect(loan.location.countryCode == "PE")
        #expect(loan.location.country == "PE", "without Kiva's name the code stands in")
    }

    // MARK: The data folder

    static func loanJSON(_ id: Int, country: String = "KE", status: String = "fundraising", posted: String = "2026-11-01T10:00:00Z") -> String {
        #"{"id": \#(id), "name": "Borrower \#(id)", "status": "\#(status)", "loan_amount": 500, "funded_amount": 125.5, "sector": "Food", "activity": "Grocery Store", "use": " to buy stock ", "location": {"country_code": "\#(country)", "country": "Kiva \#(country)", "geo": {"level": "country", "pairs": "1 38", "type": "point"}}, "posted_date": "\#(posted)"}"#
    }

    @Test func mergesLoanPagesInPageOrderAndCountsARepeatedLoanOnce() throws {
        let (root, folder) = try dataFolder([
            "kiva/loans.json": #"{"paging": {"page": 1, "pages": 3}, "loans": [\#(Self.loanJSON(1)), \#(Self.loanJSON(2))]}"#,
            "kiva/loans-2.json": #"{"paging": {"page": 2, "pages": 3}, "loans": [\#(Self.loanJSON(2)), \#(Self.loanJSON(3))]}"#,
            "kiva/loans-10.json": #"[\#(Self.loanJSON(4)), \#(Self.loanJSON(4))]"#,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let log = DiagnosticLog()
        let data = KivaLoader.load(from: folder, settings: Settings(), log: log)
        #expect(data.loans.map(\.id) == [1, 2, 3, 4])
        #expect(log.errors.isEmpty, "\(log.errors)")
        #expect(log.warnings.map(\.file) == ["kiva/loans-2.json", "kiva/loans-10.json"])
        #expect(log.warnings[0].message == "loan 2 is also in kiva/loans.json; counted once")
        #expect(log.warnings[1].message == "loan 4 is also earlier in this file; counted once")
        #expect(folder.unclaimedFiles.isEmpty)
        #expect(data.loans[0].fundedAmount == usd(12_550))
    }

    @Test func loadsTheLenderAndTheCartAndWarnsAboutDanglingAndRepeatedCartLines() throws {
        let (root, folder) = try dataFolder([
            "kiva/loans.json": #"{"loans": [\#(Self.loanJSON(1)), \#(Self.loanJSON(2))]}"#,
            "kiva/my/account.json": #"{"user_account": {"id": 99, "first_name": " Ada ", "last_name": "Mwangi", "lender_id": "ada8123", "is_public": true}}"#,
            "kiva/my/balance.json": #"{"user_balance": {"id": 99, "balance": "162.50"}}"#,
            "kiva/my/loans.json": #"{"paging": {"page": 1}, "loans": [\#(Self.loanJSON(5, status: "paid"))]}"#,
            "kiva/cart.json": #"[{"loan_id": 1, "amount": 25}, {"loan_id": "2", "amount": 50.50}, {"loan_id": 1, "amount": 75}, {"loan_id": 404, "amount": 25}, {"loan_id": 2, "amount": -5}]"#,
            "kiva/notes.json": "{}",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let log = DiagnosticLog()
        let data = KivaLoader.load(from: folder, settings: Settings(), log: log)
        #expect(data.account == KivaAccount(id: "99", firstName: "Ada", lastName: "Mwangi", lenderID: "ada8123"))
        #expect(data.account?.name == "Ada Mwangi")
        #expect(data.balance == usd(16_250))
        #expect(data.myLoans.map(\.id) == [5])
        #expect(data.cart == [KivaCartItem(loanID: 1, amount: usd(2_500)), KivaCartItem(loanID: 2, amount: usd(5_050)),
                              KivaCartItem(loanID: 404, amount: usd(2_500))])
        #expect(log.warnings.map(\.path) == ["$[2]", "$[3]"])
        #expect(log.warnings[1].message.contains("loan 404 is not in"))
        #expect(log.errors.map(\.path) == ["$[4].amount"])
        // Files under kiva/ that are not in the contract are left for the load stage to warn about.
        #expect(folder.unclaimedFiles == ["kiva/notes.json"])
    }

    @Test func theFixturesMeetTheIssuesBar() throws {
        let folder = try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures"))
        let log = DiagnosticLog()
        let dataset = DataLoader.load(folder, log: log)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let kiva = dataset.kiva
        #expect(kiva.loans.count >= 60)
        #expect(Set(kiva.loans.map(\.location.countryCode)).count >= 15)
        let countries = kiva.countriesByCode
        let continents = Set(kiva.loans.compactMap { loan in countries[loan.location.countryCode].map { $0.region == "Americas" ? $0.subregion == "South America" ? "South America" : "North America" : $0.region } })
        #expect(continents.count >= 5, "\(continents.sorted())")
        #expect(Set(kiva.loans.map(\.status)) == ["fundraising", "funded", "in_repayment", "paid", "defaulted", "refunded", "expired"])
        #expect(kiva.myLoans.count == 10)
        #expect(kiva.cart.count == 4)
        #expect(kiva.countriesVersion == .v31)
        #expect(kiva.loans.contains { countries[$0.location.countryCode] == nil }, "one country is missing from RESTCountries on purpose")
    }
}
