import NestEggModel
import NestEggSupport
/// Reads `rates/*.json`: the ECB's reference rates as the Frankfurter API answers them, saved as
/// returned (`nestegg fetch rates` writes `rates/<BASE>.json`).
///
/// Two shapes, told apart by their members: a time series (`GET /v1/2026-01-01..2026-11-30?base=GBP`:
/// `{"amount": 1.0, "base": "GBP", "start_date": …, "end_date": …, "rates": {"2026-01-02": {"EUR": 1.1862, …}, …}}`)
/// and one day (`GET /v1/latest?base=GBP`: `{"amount": 1.0, "base": "GBP", "date": "2026-11-20", "rates": {"EUR": 1.1386, …}}`).
/// Rates are read as exact decimals from the numbers' text. A file against another base than the
/// settings' `baseCurrency` is a warning and not used; the same currency and day with two different
/// rates in two files is an error.
public enum RatesLoader {
    public static let folder = "rates"

    /// The path `nestegg fetch rates` writes for a base currency.
    public static func path(for base: Currency) -> String { "\(folder)/\(base.code).json" }

    /// `nil` when the data folder has no `rates/` file.
    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> ExchangeRates? {
        let paths = folder.files(in: Self.folder)
        guard !paths.isEmpty else { return nil }
        var rates = ExchangeRates(base: settings.baseCurrency)
        for path in paths {
            guard let document = folder.document(path, log: log) else { continue }
            let read = self.rates(in: document)
            guard let base = read.base else { continue }
            guard base == settings.baseCurrency else {
                document.value["base"]?.warning("these rates are against \(base.code), but the base currency is \(settings.baseCurrency.code) "
                    + "(\"baseCurrency\" in nestegg.json): not used; fetch them again with nestegg fetch rates")
                continue
            }
            for (rate, value) in read.rates {
                if let held = rates.add(rate), held.text != rate.text {
                    value.error("\(rate.quote.code) on \(rate.date) is \(rate.text) here but \(held.text) in an earlier file of \(Self.folder)/; "
                        + "keep one answer per day")
                }
            }
            rates.files.append(path)
        }
        return rates
    }

    /// The rates of one Frankfurter answer, each with the value it was read from (for messages),
    /// and its base; problems go to the document's log.
    public static func rates(in document: JSONDocument) -> (base: Currency?, rates: [(ExchangeRate, JSONValue)]) {
        let root = document.value
        guard root.object != nil else { return (nil, []) }
        let base = root.required("base", "the base currency's ISO 4217 code, such as \"GBP\"")?.currency
        if let amount = root["amount"] {
            var isOne = false
            if case .number(let text) = amount.node.kind {
                isOne = ExchangeRate(base: .gbp, quote: .eur, date: CivilDate(daysSinceEpoch: 0), decimal: text)?.text == "1"
            }
            guard isOne else {
                amount.error("expected 1 (rates for one unit of the base currency, as Frankfurter answers without ?amount=)")
                return (base, [])
            }
        }
        guard let base else { return (nil, []) }
        guard let table = root.required("rates", "the rates: an object of days (a time series) or of currencies (one day)"),
              let members = table.memberValues else { return (base, []) }
        var result: [(ExchangeRate, JSONValue)] = []
        if let day = root["date"] {
            // One day: {"EUR": 1.1386, …}
            guard let text = day.string else { return (base, []) }
            guard let date = CivilDate(iso8601: text) else {
                day.error("expected a date such as \"2026-11-20\", found \"\(text)\"")
                return (base, [])
            }
            dayRates(members, base: base, date: date, into: &result)
        } else {
            for (key, value) in members {
                guard let date = CivilDate(iso8601: key) else {
                    value.error("expected a day such as \"2026-11-20\" as the key of a day's rates, found \"\(key)\"")
                    continue
                }
                guard let currencies = value.memberValues else { continue }
                dayRates(currencies, base: base, date: date, into: &result)
            }
        }
        return (base, result)
    }

    private static func dayRates(_ members: [(key: String, value: JSONValue)], base: Currency, date: CivilDate,
                                  into result: inout [(ExchangeRate, JSONValue)]) {
        for (code, value) in members {
            guard let quote = Currency(code: code) else {
                value.warning("\"\(code)\" is no ISO 4217 currency code; its rate is not used")
                continue
            }
            guard case .number(let text) = value.node.kind else {
                value.error("expected a rate (a positive decimal number such as 1.1362), found \(value.node.typeDescription)")
                continue
            }
            guard let rate = ExchangeRate(base: base, quote: quote, date: date, decimal: text) else {
                value.error("expected a positive rate with at most 15 significant digits and 12 decimals, found \(text)")
                continue
            }
            if quote == base {
                value.warning("\"\(code)\" is the base currency of these rates: one \(code) is always 1 \(code); this rate is not used")
                continue
            }
            result.append((rate, value))
        }
    }
}
