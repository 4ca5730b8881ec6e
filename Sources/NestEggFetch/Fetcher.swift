import Foundation
import NestEggLoad
import NestEggModel
import NestEggSupport

/// `nestegg fetch`: brings a source's data in from its API, into the data folder's contract paths.
///
/// Every answer is read with the loader `nestegg build` uses before anything is written; the
/// files are then written together (``StagedFiles``), so a failed request, a wrong answer or an
/// interrupted run leaves the data folder as it was, file by file.
public struct Fetcher: Sendable {
    /// The data folder, and how messages name it (the path as the user wrote it).
    public let data: URL
    public let label: String
    /// One line at a time, for standard error.
    public var progress: @Sendable (String) -> Void = { _ in }
    var client: any HTTPClient = URLSessionClient()
    var retry = RetryPolicy()
    /// Seconds a request may go without progress.
    var timeout = 30.0
    var now: @Sendable () -> Instant = { .now }

    public init(data: URL, label: String? = nil) {
        self.data = data
        self.label = label ?? data.path
    }

    /// `--since`: a date (`2026-01-31`, midnight UTC) or a date-time with a zone.
    public static func since(_ text: String) -> Instant? {
        if let date = CivilDate(iso8601: text) { return Instant(millisecondsSinceEpoch: Int64(date.daysSinceEpoch) * Instant.day) }
        return Instant(iso8601: text)
    }

    // MARK: Reading what is held

    /// The data folder's settings, and the folder when it exists (a first fetch creates it).
    func held() throws(FetchError) -> (settings: Settings, folder: DataFolder?) {
        let folder: DataFolder
        do {
            folder = try DataFolder(root: data)
        } catch {
            switch error {
            case .missing: return (Settings(), nil)
            case .notAFolder: throw FetchError(.cannotCreate, "the data folder \(label) is not a folder")
            case .unreadable(_, let reason): throw FetchError(.cannotCreate, "cannot read the data folder \(label): \(reason)")
            }
        }
        let log = DiagnosticLog()
        let settings = SettingsLoader.load(from: folder, log: log)
        guard !log.hasErrors else {
            throw FetchError(.dataError, "\(label)/\(SettingsLoader.fileName) is wrong (see above)", diagnostics: log.errors)
        }
        return (settings, folder)
    }

    /// Parses an API's answer and reads it with `reader` (a loader of `nestegg build`): an error
    /// in it stops the fetch before anything is written. Diagnostics name the request's path.
    static func read<T>(_ bytes: [UInt8], from path: String, api: String, _ reader: (JSONDocument) -> T) throws(FetchError) -> T {
        let log = DiagnosticLog()
        let value = JSONDocument.parse(bytes, file: path, log: log).map(reader)
        guard let value, !log.hasErrors else {
            throw FetchError(.protocolError, "\(api) answered \(path) with something other than the JSON nestegg reads (see above)", diagnostics: log.errors)
        }
        return value
    }

    func api(_ name: String, baseURL: String, token: AccessToken?, scope: @escaping @Sendable (String) -> String? = { _ in nil }) -> API {
        let progress = self.progress
        return API(name: name, baseURL: baseURL, token: token, client: client, retry: retry, timeout: timeout,
                   progress: { line in progress(token?.redact(line) ?? line) }, scope: scope)
    }

    func commit(_ files: StagedFiles) throws(FetchError) -> StagedFiles.Outcome {
        let outcome = try files.commit(into: data, label: label)
        let unchanged = outcome.files - outcome.changed
        progress("fetch: \(outcome.changed) of \(outcome.files) files written into \(label)"
            + (unchanged == 0 ? "" : " (\(unchanged) unchanged)"))
        return outcome
    }

    // MARK: RESTCountries

    /// The fields of `/v3.1/all` that ``CountriesLoader`` reads, and no others.
    static let countryFields = ["name", "cca2", "capital", "region", "subregion", "population", "gini", "latlng"]

    public struct CountriesSummary: Sendable {
        public let countries: Int
        let files: StagedFiles.Outcome
    }

    /// `GET /v3.1/all?fields=…` into `restcountries/countries.json`, as it came.
    @discardableResult
    public func countries() async throws(FetchError) -> CountriesSummary {
        let settings = try held().settings
        let api = api("RESTCountries", baseURL: settings.restCountriesBaseURL, token: nil)
        let path = "/v3.1/all"
        let bytes = try await api.get(path, query: "fields=" + Self.countryFields.joined(separator: ","))
        let (version, countries) = try Self.read(bytes, from: path, api: api.name) { CountriesLoader.countries(in: $0) }
        guard version == .v31, !countries.isEmpty else {
            throw FetchError(.protocolError, "\(api.name) answered \(path) with \(countries.isEmpty ? "no countries" : "countries not in the v3.1 shape")")
        }
        var files = StagedFiles()
        files.add(CountriesLoader.path, bytes)
        progress("fetch: \(countries.count) countries")
        return CountriesSummary(countries: countries.count, files: try commit(files))
    }
}

extension Fetcher {
    // MARK: Frankfurter (ECB reference rates)

    public struct RatesSummary: Sendable {
        public let days: Int
        public let currencies: Int
        public let path: String
        let files: StagedFiles.Outcome
    }

    /// `GET /v1/{from}..{to}?base=BASE` into `rates/BASE.json`, as it came: the ECB's reference rates
    /// for every working day of the span against the settings' base currency. `from` defaults to the
    /// first day of the month of the data's earliest Starling date (an account's opening or its first
    /// item), or a year before today without one; `to` to the data's latest Starling date (no
    /// later than today, UTC; today without one): a rate dated after the data converts nothing,
    /// and the build names such rates in a warning.
    @discardableResult
    public func rates(from: CivilDate? = nil, to: CivilDate? = nil) async throws(FetchError) -> RatesSummary {
        let (settings, folder) = try held()
        let today = CivilDate(daysSinceEpoch: Int(now().millisecondsSinceEpoch.floorDivided(by: Instant.day).0))
        let span = folder.flatMap { Self.dateSpan(in: $0, settings: settings) }
        let last = to ?? span.map { min($0.latest, today) } ?? today
        let first = from ?? span.map { CalendarMonth($0.earliest).firstDay }
            ?? CivilDate(year: last.year - 1, month: last.month, day: 1)!
        guard first <= last else {
            throw FetchError(.usage, "the rates' span starts on \(first), after its end \(last)")
        }
        let api = api("Frankfurter", baseURL: settings.frankfurterBaseURL, token: nil)
        let path = "/v1/\(first)..\(last)"
        let base = settings.baseCurrency
        let bytes = try await api.get(path, query: "base=" + base.code)
        let (answered, rates) = try Self.read(bytes, from: path, api: api.name) { RatesLoader.rates(in: $0) }
        guard answered == base else {
            throw FetchError(.protocolError, "\(api.name) answered \(path) with rates against \(answered?.code ?? "no currency"), not \(base.code)")
        }
        guard !rates.isEmpty else {
            throw FetchError(.protocolError, "\(api.name) answered \(path) with no rates")
        }
        var files = StagedFiles()
        let target = RatesLoader.path(for: base)
        files.add(target, bytes)
        let days = Set(rates.map(\.0.date)).count, currencies = Set(rates.map(\.0.quote)).count
        progress("fetch: \(days) days of ECB rates for \(currencies) currencies against \(base.code)")
        return RatesSummary(days: days, currencies: currencies, path: target, files: try commit(files))
    }

    /// The earliest and the latest day of the folder's Starling accounts (an opening, a feed item), on the settings' clock.
    static func dateSpan(in folder: DataFolder, settings: Settings) -> (earliest: CivilDate, latest: CivilDate)? {
        let log = DiagnosticLog()
        let accounts = StarlingLoader.load(from: folder, settings: settings, log: log)
        let instants = accounts.flatMap { data in
            [data.account.createdAt, data.feed.lazy.map(\.transactionTime).min(), data.feed.lazy.map(\.transactionTime).max()]
        }.compactMap { $0 }
        guard let earliest = instants.min(), let latest = instants.max() else { return nil }
        return (settings.clock.date(of: earliest), settings.clock.date(of: latest))
    }
}
