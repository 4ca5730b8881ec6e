import NestEggModel
import NestEggSupport
/// Reads `restcountries/countries.json`: RESTCountries' `/v2/all` or `/v3.1/all` array.
///
/// The shape is detected, not configured: a v3.1 country has `cca2` and `name` as an object
/// (`name.common`), a v2 country has `alpha2Code` and `name` as a string. `gini` is a number,
/// `null` or missing in v2 and an object keyed by year (`{"2019": 40.8}`, or `{}`) in v3.1; the
/// latest year is kept. `latlng` may be empty and `population` may be 0.
public enum CountriesLoader {
    public static let path = "restcountries/countries.json"

    public static func load(from folder: DataFolder, log: DiagnosticLog) -> (version: RESTCountriesVersion?, countries: [Country]) {
        guard folder.contains(path), let document = folder.document(path, log: log) else { return (nil, []) }
        return countries(in: document)
    }

    /// The shape of a countries array, from its first country that says; `nil` if none does.
    public static func detectVersion(_ items: [JSONValue]) -> RESTCountriesVersion? {
        for item in items {
            guard case .object = item.node.kind else { continue }
            if item["cca2"] != nil { return .v31 }
            if item["alpha2Code"] != nil { return .v2 }
            if let name = item["name"] {
                if case .object = name.node.kind { return .v31 }
                if case .string = name.node.kind { return .v2 }
            }
        }
        return nil
    }

    public static func countries(in document: JSONDocument) -> (version: RESTCountriesVersion?, countries: [Country]) {
        guard let items = document.value.array else { return (nil, []) }
        guard !items.isEmpty else { return (nil, []) }
        guard let version = detectVersion(items) else {
            document.value.error("expected RESTCountries' /v2/all (alpha2Code, name) or /v3.1/all (cca2, name.common) countries")
            return (nil, [])
        }
        var seen: Set<String> = []
        var result: [Country] = []
        for item in items {
            guard let country = version == .v31 ? countryV31(item) : countryV2(item) else { continue }
            guard seen.insert(country.code).inserted else {
                item.warning("country \(country.code) appears twice; the first one counts")
                continue
            }
            result.append(country)
        }
        return (version, result)
    }

    /// A `/v2/all` item: `{name, alpha2Code, region, subregion, capital, population, gini, latlng, …}`.
    public static func countryV2(_ value: JSONValue) -> Country? {
        guard value.object != nil else { return nil }
        return country(value,
                       code: value.required("alpha2Code", "an ISO 3166-1 alpha-2 code such as \"KE\"").flatMap(KivaLoader.countryCode),
                       name: value.required("name", "the country's name")?.trimmedString,
                       capital: value["capital"]?.trimmedString)
    }

    /// A `/v3.1/all` item: `{name {common, official}, cca2, region, subregion, capital [], population, gini {year: n}, latlng, …}`.
    public static func countryV31(_ value: JSONValue) -> Country? {
        guard value.object != nil else { return nil }
        return country(value,
                       code: value.required("cca2", "an ISO 3166-1 alpha-2 code such as \"KE\"").flatMap(KivaLoader.countryCode),
                       name: value.required("name", "the country's names {common, official}")?.object?
                           .required("common", "the country's common name")?.trimmedString,
                       capital: value["capital"]?.array?.first?.trimmedString)
    }

    /// The fields both shapes write alike; `code`, `name` and `capital` are read by the caller.
    static func country(_ value: JSONValue, code: String?, name: String?, capital: String?) -> Country? {
        let region = value["region"]?.trimmedString ?? ""
        let subregion = value["subregion"]?.trimmedString ?? ""
        let population = value.required("population", "the number of inhabitants")?.int
        let gini = value["gini"].flatMap(self.gini)
        let coordinates = value["latlng"].flatMap(latlng)
        guard let code, let name, let population else { return nil }
        return Country(code: code, name: name, region: region, subregion: subregion,
                       capital: capital.flatMap { $0.isEmpty ? nil : $0 }, population: population, gini: gini,
                       coordinates: coordinates ?? nil)
    }

    /// `40.8` (v2) or `{"2016": 40.8, "2019": 39.0}` (v3.1, the latest year wins) or `{}`.
    public static func gini(_ value: JSONValue) -> Gini? {
        switch value.node.kind {
        case .number:
            return giniNumber(value, year: nil)
        case .object:
            guard let members = value.memberValues else { return nil }
            var latest: (year: Int, value: JSONValue)?
            for (key, member) in members {
                guard let year = Int(Text.trimmed(key)), (1000...9999).contains(year) else {
                    member.error("expected a year such as \"2019\" as the key of a Gini coefficient, found \"\(key)\"")
                    continue
                }
                if member.isNull { continue }
                if latest == nil || year > latest!.year { latest = (year, member) }
            }
            guard let latest else { return nil }
            return giniNumber(latest.value, year: latest.year)
        default:
            value.error("expected a Gini coefficient (a number, or an object keyed by year), found \(value.node.typeDescription)")
            return nil
        }
    }

    static func giniNumber(_ value: JSONValue, year: Int?) -> Gini? {
        guard case .number(let text) = value.node.kind, let number = Double(text) else {
            value.error("expected a Gini coefficient (a number from 0 to 100), found \(value.node.typeDescription)")
            return nil
        }
        guard (0...100).contains(number) else {
            value.warning("a Gini coefficient runs from 0 to 100, found \(text); not shown")
            return nil
        }
        return Gini(text: text, value: number, year: year)
    }

    /// `[lat, lng]` or `[]` (`.some(nil)`: no position); anything else is an error.
    static func latlng(_ value: JSONValue) -> Coordinates?? {
        guard let items = value.array else { return nil }
        if items.isEmpty { return .some(nil) }
        guard items.count == 2 else {
            value.error("expected [latitude, longitude] or [], found \(items.count) numbers")
            return nil
        }
        var numbers: [Double] = []
        for item in items {
            guard case .number(let text) = item.node.kind, let number = Double(text) else {
                item.error("expected a number (degrees), found \(item.node.typeDescription)")
                return nil
            }
            numbers.append(number)
        }
        let coordinates = Coordinates(latitude: numbers[0], longitude: numbers[1])
        guard coordinates.isOnTheGlobe else {
            value.warning("coordinates [\(numbers[0]), \(numbers[1])] are outside ±90° latitude or ±180° longitude; not used")
            return .some(nil)
        }
        return .some(coordinates)
    }
}
