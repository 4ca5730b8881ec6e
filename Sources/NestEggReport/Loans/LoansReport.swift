import NestEggModel
import NestEggSupport
/// The Kiva loan pages: `loans/index` (every loan, totals per status) and `loans/map`
/// (loans by country, and the world as a 30° grid of loan counts, with an SVG map in HTML).
public enum LoansReport {
    public static let section = Section(id: "loans", title: "Loans", path: "loans/index")
    static let mapPath = "loans/map"
    /// Loans a page of `loans/index`: on a phone each loan is a card of some seven lines, so 25
    /// keep a page near 6,000 px (a few dozen screens), newest first, the rest a link away.
    static let loansPerPage = 25

    // MARK: View data

    struct IndexView: Sendable, Encodable {
        let summary: String
        let statuses: [KivaSupport.StatusRow]
        let total: KivaSupport.StatusRow?
        let statusChart: Chart
        let loans: [KivaSupport.LoanRow]
        let hasLoans: Bool
        let mapHref: String
        let countriesHref: String
        /// Which part of the loan table this page shows; the totals by status are every loan's.
        let pager: Pagination.View
        /// The totals by status show on the first page only.
        let isFirstPage: Bool
    }

    struct MapView: Sendable, Encodable {
        let summary: String
        let countries: [CountryRow]
        let hasCountries: Bool
        let totalLoans: String
        let totalRequested: String
        let totalFunded: String
        let unknownCountries: String?
        let gridHeader: TableRow
        let gridDivider: TableDivider
        let gridRows: [TableLine]
        let placed: Int
        let unplaced: Int
        let hasUnplaced: Bool
        let map: Chart
        /// The map's largest circles as a list (``placesListed`` at most), largest first: their
        /// values without hovering.
        let places: [PlaceRow]
        let hasPlaces: Bool
        let placesShown: [String]
        let countriesHref: String
    }

    /// How many of the map's circles the list under it names.
    static let placesListed = 20

    struct PlaceRow: Sendable, Encodable {
        let name: String
        let position: String
        let loans: String
        let requested: String
    }

    struct CountryRow: Sendable, Encodable {
        let flag: String
        let name: String
        let href: String
        let coordinates: String
        let loans: String
        let requested: String
        let funded: String
        let population: String
        let gini: String
        let perMillion: String
    }

    // MARK: Building

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        let kiva = dataset.kiva
        guard !kiva.loans.isEmpty else { return [] }
        let crumbs = [Link("Dashboard", "index")]
        let sectionCrumbs = crumbs + [Link(section.title, section.path)]
        let countries = kiva.countriesByCode
        let slugs = KivaSupport.countrySlugs(kiva.loans.map(\.location.countryCode))
        // The loans newest first, by their places in the list: a copy of every loan cost as much as the list.
        let order = KivaSupport.newestFirstOrder(kiva.loans)
        let loans = kiva.loans
        let pagination = Pagination(count: loans.count, pageSize: loansPerPage)
        var pages = pagination.pages(base: section.path, title: "Kiva loans").map { page in
            Page(path: page.path, title: page.title, template: "loans-index", section: section.id,
                 breadcrumbs: page.number == 1 ? crumbs : sectionCrumbs,
                 view: indexView(loans, order: order, currency: kiva.currency, range: page.range, page: page.number, pagination: pagination,
                                 countries: countries, slugs: slugs, context: context))
        }
        pages.append(
            Page(path: mapPath, title: "Loan map", template: "loans-map", section: section.id,
                 breadcrumbs: sectionCrumbs, view: mapView(kiva, slugs: slugs, context: context)))
        return pages
    }

    /// One page of `loans/index`: the totals by status over every loan, and the loans at `order[range]`
    /// (`order`: the places of the loans newest first, ``KivaSupport/newestFirstOrder(_:)``).
    static func indexView(_ loans: [KivaLoan], order: [Int], currency: Currency, range: Range<Int>, page: Int, pagination: Pagination,
                          countries: [String: Country], slugs: [String: String], context: ReportContext) -> IndexView {
        // The totals per status stand on the first page only: the other pages do not work them out.
        let totals = page == 1 ? KivaSupport.statusTotals(loans, currency: currency, context: context) : nil
        var perStatus: [LoanStatus: Int] = [:]
        if page == 1 { for loan in loans { perStatus[loan.status, default: 0] += 1 } }
        let bars = KivaSupport.sortedStatuses(Array(perStatus.keys)).map { status in
            Chart.Bar(label: KivaSupport.statusLabel(status), value: Int128(perStatus[status]!), valueText: "\(perStatus[status]!)")
        }
        return IndexView(
            summary: context.counted(loans.count, "loan") + " in " + context.counted(slugs.count, "country", "countries"),
            statuses: totals?.rows ?? [], total: totals?.total,
            statusChart: Chart.bars(bars, title: "Loans by status"),
            loans: order[range].map { KivaSupport.loanRow(loans[$0], countries: countries, slugs: slugs, context: context) },
            hasLoans: !loans.isEmpty, mapHref: ReportContext.href(mapPath),
            countriesHref: ReportContext.href(CountriesReport.section.path),
            pager: pagination.view(page: page, base: section.path, noun: "loans", locale: context.locale),
            isFirstPage: page == 1)
    }

    static func mapView(_ kiva: KivaData, slugs: [String: String], context: ReportContext) -> MapView {
        let countries = kiva.countriesByCode
        let groups = KivaSupport.byCountry(kiva.loans, countries: countries, currency: kiva.currency)
        let rows = groups.map { group in
            CountryRow(
                flag: group.place.flag, name: group.place.name,
                href: ReportContext.href(KivaSupport.countryPath(slugs[group.place.code] ?? "index")),
                coordinates: KivaSupport.coordinates(group.place.country?.coordinates),
                loans: context.count(group.count), requested: context.money(group.requested), funded: context.money(group.funded),
                population: group.place.country.map { context.count($0.population) } ?? "–",
                gini: KivaSupport.gini(group.place.country?.gini),
                perMillion: group.place.country.flatMap {
                    KivaSupport.perMillion(loans: group.count, population: $0.population, locale: context.locale)
                } ?? "–")
        }
        let unknown = groups.filter { $0.place.country == nil }.map(\.place.name)
        let points = kiva.loans.compactMap(\.location.coordinates)
        let grid = WorldGrid.counts(points)
        let gridRows = grid.enumerated().map { row, counts in
            TableLine(line: TableRow(cells: [WorldGrid.rowLabel(row)] + counts.map { $0 == 0 ? "·" : "\($0)" }))
        }
        let header = TableRow(cells: ["Latitude"] + (0..<WorldGrid.columns).map(WorldGrid.columnLabel))
        let divider = TableDivider(rightAligned: [false] + Array(repeating: true, count: WorldGrid.columns))
        let requested = kiva.loans.reduce(Money.zero(kiva.currency)) { $0 + $1.loanAmount }
        let funded = kiva.loans.reduce(Money.zero(kiva.currency)) { $0 + $1.fundedAmount }
        let circles = places(kiva.loans, countries: countries, context: context)
        return MapView(
            summary: context.counted(kiva.loans.count, "loan"), countries: rows, hasCountries: !rows.isEmpty, totalLoans: context.count(kiva.loans.count),
            totalRequested: context.money(requested), totalFunded: context.money(funded),
            unknownCountries: unknown.isEmpty ? nil : unknown.joined(separator: ", "),
            gridHeader: header, gridDivider: divider, gridRows: gridRows,
            placed: points.count, unplaced: kiva.loans.count - points.count, hasUnplaced: kiva.loans.count > points.count,
            map: Chart.worldMap(circles.map(\.point), title: "Loans on a world map, sized by amount requested", cells: grid),
            places: circles.prefix(placesListed).map { place in
                PlaceRow(name: place.point.label, position: KivaSupport.coordinates(Coordinates(latitude: place.point.latitude, longitude: place.point.longitude)),
                         loans: context.count(place.loans), requested: context.money(place.requested))
            },
            hasPlaces: !circles.isEmpty,
            placesShown: Prose.lines(circles.count > placesListed
                ? "The \(placesListed) places of \(context.count(circles.count)) with the most requested (the map's largest circles), largest first: "
                    + "where Kiva puts the loans, how many and the amount requested there."
                : "The places with loans (the map's circles), largest first: where Kiva puts the loans, how many and the amount requested there."),
            countriesHref: ReportContext.href(CountriesReport.section.path))
    }

    /// The map's circles, one per country and position (Kiva often places every loan of a country
    /// at one point), sized by the amount requested there, with their loans: those on the globe,
    /// largest first (as the map draws them, smaller ones on top; the grouping's order first, so
    /// that ties stay in one order whatever the hashing).
    static func places(_ loans: [KivaLoan], countries: [String: Country], context: ReportContext)
        -> [(point: Chart.MapPoint, loans: Int, requested: Money)] {
        struct Key: Hashable { let code: String; let latitude: Double; let longitude: Double }
        var groups: [Key: [KivaLoan]] = [:]
        for loan in loans {
            guard let point = loan.location.coordinates else { continue }
            groups[Key(code: loan.location.countryCode, latitude: point.latitude, longitude: point.longitude), default: []].append(loan)
        }
        let keys = groups.keys.sorted { ($0.code, $0.latitude, $0.longitude) < ($1.code, $1.latitude, $1.longitude) }
        let circles = keys.map { key in
            let list = groups[key]!
            let place = KivaSupport.place(key.code, kivaName: list.first?.location.country, countries: countries)
            let towns = Set(list.compactMap(\.location.town)).sorted()
            let requested = list.reduce(Money.zero(list[0].loanAmount.currency)) { $0 + $1.loanAmount }
            let label = towns.isEmpty ? place.name : "\(towns.joined(separator: ", ")), \(place.name)"
            return (point: Chart.MapPoint(label: label, latitude: key.latitude, longitude: key.longitude, value: requested.minorUnits,
                                   valueText: "\(list.count) loan\(list.count == 1 ? "" : "s"), \(context.money(requested)) requested"),
                    loans: list.count, requested: requested)
        }
        return circles.filter(\.point.isOnGlobe).sorted { Chart.MapPoint.drawnBefore($0.point, $1.point) }
    }

    /// The start page's loans: how many, how much requested and funded, and the top countries.
    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        let kiva = dataset.kiva
        guard !kiva.loans.isEmpty else { return nil }
        let requested = kiva.loans.reduce(Money.zero(kiva.currency)) { $0 + $1.loanAmount }
        let funded = kiva.loans.reduce(Money.zero(kiva.currency)) { $0 + $1.fundedAmount }
        let percent = ReportContext.percent(funded.minorUnits, of: requested.minorUnits).map { " (\($0)%)" } ?? ""
        let fundraising = kiva.loans.filter { $0.status == .fundraising }.count
        let groups = KivaSupport.byCountry(kiva.loans, countries: kiva.countriesByCode, currency: kiva.currency)
        // Kiva's listing, not the household's money: its totals read as a phrase, set smaller than
        // an amount, and the countries' table stays on the loans pages.
        return DashboardSection(
            title: "Kiva loans", href: ReportContext.href(section.path), linkText: "Every loan",
            figures: [
                .init(label: "Loans in Kiva's listing", value: "\(context.count(kiva.loans.count)) in \(context.count(groups.count)) countries", href: ReportContext.href(section.path),
                      count: kiva.loans.count, id: "loans"),
                .init(label: "Borrowers funded so far", value: "\(context.money(funded)) of \(context.money(requested)) asked\(percent)",
                      amount: funded, id: "funded"),
                .init(label: "Fundraising now", value: context.count(fundraising), count: fundraising),
                .init(label: "Map", value: "loans by country and a world grid", href: ReportContext.href(mapPath)),
            ])
    }
}
