import NestEggModel
import NestEggSupport
/// What the Kiva pages (loans, map, countries, lender) share: country lookup, per-country
/// totals, the 30° world grid, and how loans, populations and coordinates are written.
enum KivaSupport {
    // MARK: Countries

    /// A country as the loan pages show it: RESTCountries' facts when it knows the code,
    /// otherwise Kiva's name and nothing else.
    struct Place: Sendable {
        let code: String
        let name: String
        let country: Country?

        var flag: String { FlagEmoji.emoji(code) }
    }

    static func place(_ code: String, kivaName: String?, countries: [String: Country]) -> Place {
        if let country = countries[code] { return Place(code: code, name: country.name, country: country) }
        return Place(code: code, name: kivaName ?? code, country: nil)
    }

    /// The loans of one country, by their places in the list grouped (not copies of them: the
    /// loans of a large portfolio are the largest thing a build holds), with their totals.
    struct CountryLoans: Sendable {
        let place: Place
        /// Places in the list ``byCountry(_:countries:currency:)`` grouped, in its order.
        let indices: [Int]
        let requested: Money
        let funded: Money

        var count: Int { indices.count }
    }

    /// Loans grouped by country: most loans first, then the larger amount requested, then the code.
    static func byCountry(_ loans: [KivaLoan], countries: [String: Country], currency: Currency) -> [CountryLoans] {
        var groups: [String: [Int]] = [:]
        for (index, loan) in loans.enumerated() { groups[loan.location.countryCode, default: []].append(index) }
        let result = groups.keys.sorted().map { code -> CountryLoans in
            let list = groups[code]!
            let place = self.place(code, kivaName: list.first.map { loans[$0].location.country }, countries: countries)
            return CountryLoans(place: place, indices: list,
                                requested: list.reduce(Money.zero(currency)) { $0 + loans[$1].loanAmount },
                                funded: list.reduce(Money.zero(currency)) { $0 + loans[$1].fundedAmount })
        }
        return result.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            if a.requested.minorUnits != b.requested.minorUnits { return a.requested.minorUnits > b.requested.minorUnits }
            return a.place.code < b.place.code
        }
    }

    /// Page slugs for countries with loans, by code (`KE` → `ke`); stable whatever the order of loans.
    static func countrySlugs(_ codes: [String]) -> [String: String] {
        var allocator = SlugAllocator(reserved: ["index"])
        var result: [String: String] = [:]
        for code in Set(codes).sorted() { result[code] = allocator.allocate(code, fallback: "country") }
        return result
    }

    static func countryPath(_ slug: String) -> String { "countries/\(slug)" }

    // MARK: Statuses

    /// Kiva's statuses in the order a loan passes through them; any other status sorts after, by name.
    static func statusRank(_ status: LoanStatus) -> Int { LoanStatus.lifecycle.firstIndex(of: status) ?? LoanStatus.lifecycle.count }

    static func sortedStatuses<S: Sequence>(_ statuses: S) -> [LoanStatus] where S.Element == LoanStatus {
        Set(statuses).sorted { (statusRank($0), $0) < (statusRank($1), $1) }
    }

    /// `in_repayment` → `In repayment`.
    static func statusLabel(_ status: LoanStatus) -> String { Text.humanized(status.rawValue) }

    /// Newest first; ties by id, highest first.
    static func newestFirst(_ loans: [KivaLoan]) -> [KivaLoan] {
        newestFirstOrder(loans).map { loans[$0] }
    }

    /// The places of ``newestFirst(_:)``'s loans in `loans` (loans that tie keep their order).
    static func newestFirstOrder(_ loans: [KivaLoan]) -> [Int] { newestFirstOrder(loans.indices, of: loans) }

    /// `places` in `loans` (ascending), ordered as their loans are newest first; ties keep their order.
    static func newestFirstOrder(_ places: some Collection<Int>, of loans: [KivaLoan]) -> [Int] {
        places.sorted { a, b in
            let (x, y) = (loans[a], loans[b])
            if x.postedDate != y.postedDate { return x.postedDate > y.postedDate }
            if x.id != y.id { return x.id > y.id }
            return a < b
        }
    }

    // MARK: Numbers


    /// Loans per million inhabitants, to two decimals (rounded half up); `nil` without a population.
    /// `"<0.01"` when there are loans but too few to show.
    static func perMillion(loans: Int, population: Int, locale: SiteLocale) -> String? {
        guard population > 0 else { return nil }
        let numerator = Int128(loans) * 100_000_000
        let hundredths = (2 * numerator + Int128(population)) / (2 * Int128(population))
        if hundredths == 0 && loans > 0 { return "<0\(locale.decimalSeparator)01" }
        let whole = Int(hundredths / 100), fraction = Int(hundredths % 100)
        return locale.format(whole) + locale.decimalSeparator + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// `40.8 (2015)`, `40.8` (v2 gives no year), or `–`.
    static func gini(_ gini: Gini?) -> String {
        guard let gini else { return "–" }
        return gini.year.map { "\(gini.text) (\($0))" } ?? gini.text
    }

    /// `0.58°N 33.25°E`: two decimals at most.
    static func coordinates(_ point: Coordinates?) -> String {
        guard let point else { return "–" }
        func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
            let rounded = (value.magnitude * 100).rounded() / 100
            var text = String(rounded)
            if text.hasSuffix(".0") { text.removeLast(2) }
            if rounded == 0 { return "0°" }
            return "\(text)°\(value < 0 ? negative : positive)"
        }
        return "\(degrees(point.latitude, "N", "S")) \(degrees(point.longitude, "E", "W"))"
    }

    static func percentFunded(_ loan: KivaLoan) -> String {
        ReportContext.percent(loan.fundedAmount.minorUnits, of: loan.loanAmount.minorUnits).map { "\($0)%" } ?? "–"
    }

    // MARK: Views shared by the loan tables

    struct LoanRow: Sendable, Encodable {
        let posted: String
        let borrower: String
        let flag: String
        let country: String
        let countryHref: String?
        let town: String
        /// Whether the data names the town (else `town` is `–`, and the place is the country alone).
        let hasTown: Bool
        let sector: String
        let activity: String
        /// `Weaving (Arts)`: one column for both, so that the table fits a page.
        let activityAndSector: String
        let use: String
        let status: String
        let requested: String
        let funded: String
        let percentFunded: String
        /// `US$75.00 (50%)`: the amount funded and the share of the request, in one column.
        let fundedAndPercent: String
    }

    static func activityAndSector(_ loan: KivaLoan) -> String {
        switch (loan.activity.isEmpty, loan.sector.isEmpty) {
        case (true, true): return "–"
        case (false, true): return loan.activity
        case (true, false): return loan.sector
        case (false, false): return loan.activity == loan.sector ? loan.activity : "\(loan.activity) (\(loan.sector))"
        }
    }

    static func loanRow(_ loan: KivaLoan, countries: [String: Country], slugs: [String: String], context: ReportContext) -> LoanRow {
        let place = self.place(loan.location.countryCode, kivaName: loan.location.country, countries: countries)
        return LoanRow(
            posted: context.date(loan.postedDate), borrower: loan.name, flag: place.flag, country: place.name,
            countryHref: slugs[place.code].map { ReportContext.href(countryPath($0)) },
            town: loan.location.town ?? "–", hasTown: loan.location.town != nil, sector: loan.sector, activity: loan.activity,
            activityAndSector: activityAndSector(loan), use: loan.use,
            status: statusLabel(loan.status), requested: context.money(loan.loanAmount),
            funded: context.money(loan.fundedAmount), percentFunded: percentFunded(loan),
            fundedAndPercent: "\(context.money(loan.fundedAmount)) (\(percentFunded(loan)))")
    }

    struct StatusRow: Sendable, Encodable {
        let status: String
        let loans: String
        let requested: String
        let funded: String
        let percentFunded: String
    }

    struct StatusTotals: Sendable {
        let rows: [StatusRow]
        let total: StatusRow
    }

    static func statusTotals(_ loans: [KivaLoan], currency: Currency, context: ReportContext) -> StatusTotals {
        func row(_ label: String, _ list: [KivaLoan]) -> StatusRow {
            let requested = list.reduce(Money.zero(currency)) { $0 + $1.loanAmount }
            let funded = list.reduce(Money.zero(currency)) { $0 + $1.fundedAmount }
            return StatusRow(status: label, loans: context.count(list.count), requested: context.money(requested), funded: context.money(funded),
                             percentFunded: ReportContext.percent(funded.minorUnits, of: requested.minorUnits).map { "\($0)%" } ?? "–")
        }
        let rows = sortedStatuses(loans.map(\.status)).map { status in
            row(statusLabel(status), loans.filter { $0.status == status })
        }
        return StatusTotals(rows: rows, total: row("Total", loans))
    }
}

/// The loan map as a table: 30° bands of latitude (rows, north to south) by 30° bands of
/// longitude (columns, west to east).
///
/// A point on a boundary belongs to the band south or east of it (the equator to 0–30°S, the
/// prime meridian to 0–30°E); the poles and the antimeridian fall in the outermost bands
/// (90°N in the top row, 90°S in the bottom row, 180°W in the first column, 180°E in the last).
public enum WorldGrid {
    public static let bandDegrees = 30
    public static let rows = 180 / bandDegrees
    public static let columns = 360 / bandDegrees

    /// 0 (90–60°N) … 5 (60–90°S).
    public static func row(latitude: Double) -> Int {
        min(rows - 1, max(0, Int(((90 - latitude) / Double(bandDegrees)).rounded(.down))))
    }

    /// 0 (180–150°W) … 11 (150–180°E).
    public static func column(longitude: Double) -> Int {
        min(columns - 1, max(0, Int(((longitude + 180) / Double(bandDegrees)).rounded(.down))))
    }

    /// How many points fall in each cell: `[row][column]`. Points off the globe are not counted.
    public static func counts(_ points: [Coordinates]) -> [[Int]] {
        var grid = Array(repeating: Array(repeating: 0, count: columns), count: rows)
        for point in points where point.isOnTheGlobe {
            grid[row(latitude: point.latitude)][column(longitude: point.longitude)] += 1
        }
        return grid
    }

    /// `90–60°N`, …, `30–0°N`, `0–30°S`, …
    public static func rowLabel(_ row: Int) -> String {
        let north = 90 - row * bandDegrees, south = north - bandDegrees
        if south >= 0 { return "\(north)–\(south)°N" }
        return "\(-north)–\(-south)°S"
    }

    /// `180–150°W`, …, `30–0°W`, `0–30°E`, …, `150–180°E`
    public static func columnLabel(_ column: Int) -> String {
        let west = -180 + column * bandDegrees, east = west + bandDegrees
        if east <= 0 { return "\(-west)–\(-east)°W" }
        return "\(west)–\(east)°E"
    }
}
