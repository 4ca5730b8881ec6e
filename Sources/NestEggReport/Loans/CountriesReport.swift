import NestEggModel
import NestEggSupport
/// The countries pages: `countries/index` (every country, by region, with its flag, population,
/// Gini coefficient and number of loans) and `countries/<code>` (one country's loans).
public enum CountriesReport {
    public static let section = Section(id: "countries", title: "Countries", path: "countries/index")

    // MARK: View data

    struct IndexView: Sendable, Encodable {
        let summary: String
        let source: String?
        let withLoans: Int
        let regions: [RegionView]
        let hasRegions: Bool
    }

    struct RegionView: Sendable, Encodable {
        let name: String
        let summary: String
        let note: String?
        let countries: [CountryRow]
    }

    struct CountryRow: Sendable, Encodable {
        let flag: String
        let name: String
        let href: String?
        let capital: String
        let population: String
        let gini: String
        let loans: String
    }

    struct CountryView: Sendable, Encodable {
        let flag: String
        let name: String
        let code: String
        let kivaName: String?
        let known: Bool
        let region: String?
        let capital: String?
        let population: String?
        let gini: String
        let coordinates: String
        let perMillion: String?
        let loans: [KivaSupport.LoanRow]
        let summary: String
        let requested: String
        let funded: String
        let percentFunded: String
        let stories: [StoryView]
        let hasStories: Bool
        let mapHref: String
    }

    struct StoryView: Sendable, Encodable {
        let borrower: String
        let status: String
        let requested: String
        /// `RichText.markdown(fromHTML:)` of Kiva's description: emphasis kept, everything else text.
        let description: SanitizedText
    }

    // MARK: Building

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        let kiva = dataset.kiva
        guard !kiva.countries.isEmpty || !kiva.loans.isEmpty else { return [] }
        let crumbs = [Link("Dashboard", "index")]
        let sectionCrumbs = crumbs + [Link(section.title, section.path)]
        let countries = kiva.countriesByCode
        let slugs = KivaSupport.countrySlugs(kiva.loans.map(\.location.countryCode))
        let groups = KivaSupport.byCountry(kiva.loans, countries: countries, currency: kiva.currency)
        let loansByCode = Dictionary(uniqueKeysWithValues: groups.map { ($0.place.code, $0) })

        func row(_ place: KivaSupport.Place) -> CountryRow {
            CountryRow(
                flag: place.flag, name: place.name,
                href: slugs[place.code].map { ReportContext.href(KivaSupport.countryPath($0)) },
                capital: place.country?.capital ?? "–",
                population: place.country.map { context.count($0.population) } ?? "–",
                gini: KivaSupport.gini(place.country?.gini), loans: context.count(loansByCode[place.code]?.count ?? 0))
        }

        var regions: [RegionView] = []
        let byRegion = Dictionary(grouping: kiva.countries) { $0.region.isEmpty ? "Other" : $0.region }
        for region in byRegion.keys.sorted() {
            let list = byRegion[region]!.sorted { ($0.name, $0.code) < ($1.name, $1.code) }
            let rows = list.map { row(KivaSupport.Place(code: $0.code, name: $0.name, country: $0)) }
            regions.append(RegionView(name: region, summary: regionSummary(list.map(\.code), loansByCode, context: context),
                                      note: nil, countries: rows))
        }
        let unknown = groups.filter { $0.place.country == nil }.map(\.place).sorted { ($0.name, $0.code) < ($1.name, $1.code) }
        if !unknown.isEmpty {
            let rows = unknown.map(row)
            regions.append(RegionView(
                name: "Not in RESTCountries", summary: regionSummary(unknown.map(\.code), loansByCode, context: context),
                note: kiva.countries.isEmpty
                    ? "There is no country data, so these countries show Kiva's names and no population or Gini coefficient."
                    : "Kiva has loans in these countries, but the country data does not list them: they show Kiva's names and no population or Gini coefficient.",
                countries: rows))
        }
        let index = IndexView(
            summary: context.counted(kiva.countries.count + unknown.count, "country", "countries"),
            source: kiva.countriesVersion.map { _ in "RESTCountries" }, withLoans: groups.count,
            regions: regions, hasRegions: !regions.isEmpty)
        var pages = [Page(path: section.path, title: "Countries", template: "countries-index", section: section.id,
                          breadcrumbs: crumbs, view: index)]
        for group in groups.sorted(by: { $0.place.code < $1.place.code }) {
            guard let slug = slugs[group.place.code] else { continue }
            pages.append(Page(path: KivaSupport.countryPath(slug), title: Text.trimmed("\(group.place.flag) \(group.place.name)"),
                              template: "countries-country", section: section.id, breadcrumbs: sectionCrumbs,
                              view: countryView(group, loans: kiva.loans, context: context)))
        }
        return pages
    }

    /// `3 countries, 12 loans`.
    static func regionSummary(_ codes: [String], _ loansByCode: [String: KivaSupport.CountryLoans], context: ReportContext) -> String {
        context.counted(codes.count, "country", "countries") + ", "
            + context.counted(codes.reduce(0) { $0 + (loansByCode[$1]?.count ?? 0) }, "loan")
    }

    /// (`loans`: every loan, which `group` holds the places of.)
    static func countryView(_ group: KivaSupport.CountryLoans, loans all: [KivaLoan], context: ReportContext) -> CountryView {
        let place = group.place
        let country = place.country
        // One copy of the country's loans, made in order (no second, sorted copy).
        let loans = KivaSupport.newestFirstOrder(group.indices, of: all).map { all[$0] }
        let kivaName = loans.first?.location.country
        let rows = loans.map { KivaSupport.loanRow($0, countries: [:], slugs: [:], context: context) }
        let stories = loans.compactMap { loan -> StoryView? in
            guard let html = loan.descriptionHTML else { return nil }
            let description = SanitizedText(html: html)
            guard !description.isEmpty else { return nil }
            return StoryView(borrower: loan.name, status: KivaSupport.statusLabel(loan.status),
                             requested: context.money(loan.loanAmount), description: description)
        }
        var region: String?
        if let country, !country.region.isEmpty {
            region = country.subregion.isEmpty || country.subregion == country.region ? country.region : "\(country.subregion), \(country.region)"
        }
        return CountryView(
            flag: place.flag, name: place.name, code: place.code,
            kivaName: kivaName != nil && kivaName != place.name ? kivaName : nil,
            known: country != nil, region: region, capital: country?.capital,
            population: country.map { context.count($0.population) },
            gini: KivaSupport.gini(country?.gini), coordinates: KivaSupport.coordinates(country?.coordinates),
            perMillion: country.flatMap { KivaSupport.perMillion(loans: loans.count, population: $0.population, locale: context.locale) },
            loans: rows, summary: context.counted(rows.count, "loan"), requested: context.money(group.requested), funded: context.money(group.funded),
            percentFunded: ReportContext.percent(group.funded.minorUnits, of: group.requested.minorUnits).map { "\($0)%" } ?? "–",
            stories: stories, hasStories: !stories.isEmpty, mapHref: ReportContext.href(LoansReport.mapPath))
    }

}
