import NestEggModel
import NestEggSupport
/// Reads `nestegg.json`. An unknown key is an error: a typo must not be silently ignored.
public enum SettingsLoader {
    public static let fileName = "nestegg.json"
    static let knownKeys = ["title", "locale", "timeZone", "currencies", "roundUpGoals", "issuer", "allowIndexing", "baseURL", "remoteImages",
                            "categories", "starling", "restcountries", "baseCurrency", "frankfurter", "budgets", "goalDates", "imports"]
    /// What can be set for each API that `nestegg fetch` asks.
    static let apiKeys = ["baseURL"]
    static let currencySources = ["qapital", "transactions", "transfers"]

    public static func load(from folder: DataFolder, log: DiagnosticLog) -> Settings {
        guard folder.contains(fileName), let document = folder.document(fileName, log: log) else { return Settings() }
        return settings(in: document, folder: folder)
    }

    /// The settings in `document`; `folder` is where the issuer's logo is read from.
    public static func settings(in document: JSONDocument, folder: DataFolder? = nil) -> Settings {
        var places: [String: Diagnostic] = [:]
        var settings = settings(in: document, folder: folder, budgetPlaces: &places)
        settings.budgetPlaces = places
        return settings
    }

    static func settings(in document: JSONDocument, folder: DataFolder?, budgetPlaces: inout [String: Diagnostic]) -> Settings {
        var settings = Settings()
        guard let members = document.value.memberValues else { return settings }
        // Budgets are amounts in the base currency, which may be set after them: read last.
        var budgets: JSONValue?
        for (key, value) in members {
            switch key {
            case "title":
                if let title = value.trimmedString {
                    if Text.normalised(title).isEmpty { value.error("the title may not be empty") } else { settings.title = title }
                }
            case "locale":
                if let identifier = value.string {
                    if let locale = SiteLocale(identifier: identifier) {
                        settings.locale = locale
                    } else {
                        value.error("unsupported locale \"\(identifier)\"; use one of \(SiteLocale.all.map(\.identifier).joined(separator: ", "))")
                    }
                }
            case "timeZone":
                if let identifier = value.string {
                    if let clock = LocalClock(identifier: identifier) {
                        // A fixed offset beyond any zone's (`GMT+18:00`) would move dates off the calendar's edge.
                        if clock.timeZone.secondsFromGMT() .magnitude > UInt(Instant.largestOffsetMinutes * 60) {
                            value.error("time zone \"\(identifier)\" is more than 14 hours from UTC, as no place is; use an IANA name such as \"Europe/London\"")
                        } else {
                            settings.clock = clock
                        }
                    } else {
                        value.error("unknown time zone \"\(identifier)\"; use an IANA name such as \"Europe/London\"")
                    }
                }
            case "currencies":
                for (source, code) in value.memberValues ?? [] {
                    guard currencySources.contains(source) else {
                        code.error("unknown source \"\(source)\"; currencies can be set for \(currencySources.joined(separator: ", "))")
                        continue
                    }
                    if let currency = code.currency { settings.currencies[source] = currency }
                }
            case "roundUpGoals":
                for (account, goal) in value.memberValues ?? [] {
                    if let goalUid = goal.string { settings.roundUpGoals[account] = goalUid }
                }
            case "issuer":
                settings.issuer = IssuerLoader.issuer(value, folder: folder)
            case "allowIndexing":
                if let flag = value.bool { settings.allowIndexing = flag }
            case "remoteImages":
                if let flag = value.bool { settings.remoteImages = flag }
            case "categories":
                guard let members = value.memberValues else {
                    value.error("categories is an object: a bank category to the category it counts under, such as {\"GROCERIES\": \"Food\"}")
                    continue
                }
                for (bank, target) in members {
                    guard let name = target.trimmedString else { continue }
                    if name.isEmpty || Text.trimmed(bank).isEmpty {
                        target.error("a category needs a name on both sides")
                    } else {
                        settings.categories[bank] = name
                    }
                }
            case "baseURL":
                if let text = value.string {
                    if let url = baseURL(text) { settings.baseURL = url } else {
                        value.error("the base URL must be an absolute http or https address, such as \"https://example.org/finance/\"")
                    }
                }
            case "starling":
                if let url = apiBaseURL(value, api: "Starling's API", example: "https://api.starlingbank.com") {
                    settings.starlingBaseURL = url
                }
            case "budgets":
                budgets = value
            case "imports":
                break // how `imports/` files are read: ``ImportRule/rules(in:)``, for the imports loader
            case "goalDates":
                for (name, date) in value.memberValues ?? [] {
                    guard let text = date.string else { continue }
                    if let day = CivilDate(iso8601: text) { settings.goalDates[name] = day } else {
                        date.error("expected the day the goal should reach its target, such as \"2027-06-01\", found \"\(text)\"")
                    }
                }
            case "baseCurrency":
                if let currency = value.currency { settings.baseCurrency = currency }
            case "frankfurter":
                if let url = apiBaseURL(value, api: "Frankfurter", example: "https://api.frankfurter.dev") {
                    settings.frankfurterBaseURL = url
                }
            case "restcountries":
                if let url = apiBaseURL(value, api: "RESTCountries", example: "https://restcountries.com") {
                    settings.restCountriesBaseURL = url
                }
            default:
                let hint = Text.closest(to: key, among: knownKeys).map { "; did you mean \"\($0)\"?" } ?? ""
                value.error("unknown setting \"\(key)\"\(hint) (known settings: \(knownKeys.joined(separator: ", ")))")
            }
        }
        if let budgets { settings.budgets = self.budgets(budgets, currency: settings.baseCurrency, places: &budgetPlaces) }
        return settings
    }

    /// `{"groceries": "250.00", "eating out": 120}`: a category's name to its monthly amount in the
    /// base currency (a string or a number, read exactly; not negative).
    static func budgets(_ value: JSONValue, currency: Currency, places: inout [String: Diagnostic]) -> [String: Money] {
        guard let members = value.memberValues else {
            value.error("budgets is an object: a spending category to its monthly amount in the base currency, such as {\"Groceries\": \"250.00\"}")
            return [:]
        }
        var result: [String: Money] = [:]
        // One budget a category: names the report groups as one (``Text/groupingKey(_:)``, as
        // spending categories are grouped) would each count the same spending.
        var named: [String: (name: String, line: Int?)] = [:]
        for (name, amount) in members {
            guard !Text.trimmed(name).isEmpty else {
                amount.error("a budget needs a category's name")
                continue
            }
            let key = Text.groupingKey(name)
            if let first = named[key] {
                let place = first.line.map { " on line \($0)" } ?? ""
                amount.error("budget \"\(Text.singleLine(name))\" names the same category as budget \"\(Text.singleLine(first.name))\"\(place):"
                             + " each would count that category's spending; keep one")
                continue
            }
            named[key] = (name, amount.diagnostic(.warning, "").line)
            guard let money = amount.decimalMoney(currency) else { continue }
            guard !money.isNegative else {
                amount.error("a budget is an amount to spend at most, so not negative; found \(money.decimalString)")
                continue
            }
            result[name] = money
            places[name] = amount.diagnostic(.warning, "")
        }
        return result
    }

    /// `https://host/path/`: an absolute http(s) address with a host, no query, fragment, white
    /// space or quote, given a trailing `/`; `nil` if it is not one.
    static func baseURL(_ text: String) -> String? {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lower.hasPrefix) else { return nil }
        let rest = text.dropFirst(scheme.count)
        let host = rest.prefix { $0 != "/" }
        guard !host.isEmpty, !host.hasPrefix("."), !host.contains("@"),
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"\"'<>\\`?#{}|^".unicodeScalars.contains($0) })
        else { return nil }
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// `{"baseURL": "https://…"}`: where `nestegg fetch` asks an API. An unknown key is an error.
    static func apiBaseURL(_ value: JSONValue, api: String, example: String) -> String? {
        guard let members = value.memberValues else { return nil }
        var result: String?
        for (key, member) in members {
            guard apiKeys.contains(key) else {
                let hint = Text.closest(to: key, among: apiKeys).map { "; did you mean \"\($0)\"?" } ?? ""
                member.error("unknown setting \"\(key)\" for \(api)\(hint) (known: \(apiKeys.joined(separator: ", ")))")
                continue
            }
            guard let text = member.string else { continue }
            if let url = apiURL(text) {
                result = url
            } else {
                member.error("the base URL of \(api) must be an https address such as \"\(example)\" (plain http only for "
                    + "127.0.0.1, [::1] or localhost), with no user, query or fragment; found \"\(text)\"")
            }
        }
        return result
    }

    /// An API's base URL without its trailing `/`: `https://host[:port][/path]`, or `http://` only
    /// when the host is this machine (a token must never cross a network in clear text); `nil`
    /// for anything else.
    static func apiURL(_ text: String) -> String? {
        let lower = text.lowercased()
        guard let scheme = ["https://", "http://"].first(where: lower.hasPrefix),
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"\"'<>\\`?#{}|^@%".unicodeScalars.contains($0) })
        else { return nil }
        let rest = lower.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        var host = Substring(authority)
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.hasPrefix(".") else { return nil }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), (1...65535).contains(number) else { return nil }
        }
        if scheme == "http://" && !["127.0.0.1", "localhost", "[::1]"].contains(String(host)) { return nil }
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
