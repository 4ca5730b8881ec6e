import NestEggModel
import NestEggSupport
/// Reads kiva/ and restcountries/: loans, the lender, the cart and countries.
///
/// - `kiva/loans.json` and `kiva/loans-*.json`: pages of a loan listing, merged; a loan that is
///   in two pages counts once (a warning names both places). Each page is `{"paging", "loans"}`,
///   a data snapshot's `{"header", "loans"}`, or a bare array of loans.
/// - `kiva/my/account.json`, `kiva/my/balance.json`, `kiva/my/loans.json`: the lender.
/// - `kiva/cart.json`: `[{loan_id, amount}]`.
/// - `restcountries/countries.json`: see ``CountriesLoader``.
///
/// Kiva's amounts are US dollars, written as JSON numbers (`25`, `1200.00`) and read exactly.
public enum KivaLoader {
    public static let currency = Currency.usd

    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> KivaData {
        var data = KivaData()
        data.currency = currency
        if folder.hasFolder("kiva") {
            data.loans = loanPages(in: folder, log: log)
            if folder.contains("kiva/my/account.json"), let document = folder.document("kiva/my/account.json", log: log) {
                data.account = account(in: document)
            }
            if folder.contains("kiva/my/balance.json"), let document = folder.document("kiva/my/balance.json", log: log) {
                data.balance = balance(in: document, currency: currency)
            }
            if folder.contains("kiva/my/loans.json"), let document = folder.document("kiva/my/loans.json", log: log) {
                var seen: [Int: String] = [:]
                data.myLoans = loans(in: document, currency: currency, seen: &seen)
                data.hasMyLoans = true
            }
            if folder.contains("kiva/cart.json"), let document = folder.document("kiva/cart.json", log: log) {
                let known = Set((data.loans + data.myLoans).map(\.id))
                data.cart = cart(in: document, currency: currency, knownLoans: known)
                data.hasCart = true
            }
        }
        let countries = CountriesLoader.load(from: folder, log: log)
        data.countries = countries.countries
        data.countriesVersion = countries.version
        return data
    }

    /// The listing pages in order: `loans.json`, then `loans-1.json`, `loans-2.json`, … `loans-10.json`.
    static func loanPagePaths(_ folder: DataFolder) -> [String] {
        let paths = folder.files(in: "kiva").filter { path in
            let name = path.dropFirst("kiva/".count)
            return name == "loans.json" || name.hasPrefix("loans-")
        }
        func key(_ path: String) -> (Int, Int, String) {
            let name = path.dropFirst("kiva/".count).dropLast(".json".count)
            if name == "loans" { return (0, 0, path) }
            return (1, Int(name.dropFirst("loans-".count)) ?? Int.max, path)
        }
        return paths.sorted { key($0) < key($1) }
    }

    static func loanPages(in folder: DataFolder, log: DiagnosticLog) -> [KivaLoan] {
        var seen: [Int: String] = [:]
        var pages: [[KivaLoan]] = []
        for path in loanPagePaths(folder) {
            guard let document = folder.document(path, log: log) else { continue }
            pages.append(loans(in: document, currency: currency, seen: &seen))
        }
        // Joined at their size: a list grown page by page by doubling held up to twice the room it
        // needed for the whole build (43 MB for 100,000 loans at scale 100).
        var result: [KivaLoan] = []
        result.reserveCapacity(pages.reduce(0) { $0 + $1.count })
        for index in pages.indices {
            result += pages[index]
            pages[index] = []
        }
        return result
    }

    /// The loans of one listing page. `seen` maps loan ids already read to their file, so that
    /// a loan repeated across pages (listings shift while they are paged) is kept once.
    public static func loans(in document: JSONDocument, currency: Currency, seen: inout [Int: String]) -> [KivaLoan] {
        let root = document.value
        let list: [JSONValue]?
        if case .array = root.node.kind {
            list = root.array
        } else {
            list = root.required("loans", "a list of loans")?.array
        }
        var result: [KivaLoan] = []
        result.reserveCapacity(list?.count ?? 0)
        for value in list ?? [] {
            guard let loan = loan(value, currency: currency) else { continue }
            if let first = seen[loan.id] {
                let place = first == document.file ? "earlier in this file" : "in \(first)"
                value.warning("loan \(loan.id) is also \(place); counted once")
                continue
            }
            seen[loan.id] = document.file
            result.append(loan)
        }
        return result
    }

    public static func loans(in document: JSONDocument, currency: Currency = currency) -> [KivaLoan] {
        var seen: [Int: String] = [:]
        return loans(in: document, currency: currency, seen: &seen)
    }

    public static func loan(_ value: JSONValue, currency: Currency = currency) -> KivaLoan? {
        guard value.object != nil else { return nil }
        let id = value.required("id", "the loan's id")?.intOrDigitString
        let name = value.required("name", "the borrower's name")?.trimmedString
        let status = value.required("status", "a status such as \"fundraising\"")?.trimmedString
        // Listings write loan_amount; data snapshots only have terms.loan_amount.
        let amountValue = value["loan_amount"] ?? value["terms"]?["loan_amount"]
            ?? value.required("loan_amount", "the amount requested, in US dollars")
        let loanAmount = amountValue?.decimalMoney(currency)
        let fundedAmount = value.required("funded_amount", "the amount funded so far, in US dollars")?.decimalMoney(currency)
        let sector = value["sector"]?.trimmedString ?? ""
        let activity = value["activity"]?.trimmedString ?? ""
        let use = value["use"].flatMap { $0.trimmedString.map(Text.singleLine) } ?? ""
        let location = value.required("location", "the borrower's location {country_code, country, town, geo}").flatMap(self.location)
        let posted = value.required("posted_date", "an ISO 8601 date-time")?.instant
        let borrowerCount = value["borrower_count"]?.int
        let lenderCount = value["lender_count"]?.int
        var description: String?
        if let texts = value["description"]?["texts"], texts.object != nil {
            description = (texts["en"] ?? texts.memberValues?.first?.value)?.string
        }
        guard let id, let name, let status, let loanAmount, let fundedAmount, let location, let posted else { return nil }
        if loanAmount.isNegative { amountValue?.error("expected a positive amount, found \(loanAmount.decimalString)"); return nil }
        if fundedAmount.isNegative { value["funded_amount"]?.error("expected a positive amount, found \(fundedAmount.decimalString)"); return nil }
        return KivaLoan(id: id, name: name, status: LoanStatus(rawValue: status), loanAmount: loanAmount, fundedAmount: fundedAmount,
                        sector: sector, activity: activity, use: use, location: location, postedDate: posted,
                        borrowerCount: borrowerCount, lenderCount: lenderCount,
                        descriptionHTML: description.map(Text.trimmed).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `{country_code, country, town?, geo?: {level, pairs: "lat lon", type}}`
    static func location(_ value: JSONValue) -> KivaLoan.Location? {
        guard value.object != nil else { return nil }
        let codeValue = value.required("country_code", "an ISO 3166-1 alpha-2 code such as \"KE\"")
        let code = codeValue.flatMap(countryCode)
        let country = value["country"]?.trimmedString
        let town = value["town"]?.trimmedString
        var coordinates: Coordinates?
        var level: String?
        if let geo = value["geo"], geo.object != nil {
            level = geo["level"]?.trimmedString
            if let pairs = geo["pairs"] { coordinates = self.coordinates(pairs: pairs) }
        }
        guard let code else { return nil }
        return KivaLoan.Location(countryCode: code, country: country.flatMap { $0.isEmpty ? nil : $0 } ?? code,
                                 town: town.flatMap { $0.isEmpty ? nil : $0 }, coordinates: coordinates, geoLevel: level)
    }

    /// An ISO 3166-1 alpha-2 code, upper-cased: two letters.
    static func countryCode(_ value: JSONValue) -> String? {
        guard let text = value.trimmedString else { return nil }
        let code = text.uppercased()
        guard code.unicodeScalars.count == 2, code.unicodeScalars.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) else {
            value.error("expected an ISO 3166-1 alpha-2 country code such as \"KE\", found \"\(text)\"")
            return nil
        }
        return code
    }

    /// Kiva's `geo.pairs`: latitude and longitude in one string, `"0.583333 33.25"`.
    /// A point off the globe is a warning and leaves the loan off the map.
    static func coordinates(pairs value: JSONValue) -> Coordinates? {
        guard let text = value.string else { return nil }
        guard let coordinates = parsePairs(text) else {
            value.error("expected \"latitude longitude\" such as \"0.583333 33.25\", found \"\(text)\"")
            return nil
        }
        guard coordinates.isOnTheGlobe else {
            value.warning("coordinates \"\(Text.trimmed(text))\" are outside ±90° latitude or ±180° longitude; the loan is left off the map")
            return nil
        }
        return coordinates
    }

    /// `"lat lon"` (spaces, or a comma) → coordinates; `nil` unless exactly two numbers.
    public static func parsePairs(_ text: String) -> Coordinates? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite else { return nil }
        return Coordinates(latitude: latitude, longitude: longitude)
    }

    /// `{"user_account": {first_name, last_name, lender_id, id}}`
    public static func account(in document: JSONDocument) -> KivaAccount? {
        guard let value = document.value.required("user_account", "the lender's account")?.object else { return nil }
        let id = value["id"]?.identifier
        let first = value["first_name"]?.trimmedString ?? ""
        let last = value["last_name"]?.trimmedString ?? ""
        let lenderID = value.required("lender_id", "the lender's Kiva id")?.identifier
        guard let lenderID else { return nil }
        return KivaAccount(id: id, firstName: first, lastName: last, lenderID: lenderID)
    }

    /// `{"user_balance": {balance}}`
    public static func balance(in document: JSONDocument, currency: Currency = currency) -> Money? {
        guard let value = document.value.required("user_balance", "the lender's balance")?.object else { return nil }
        return value.required("balance", "the balance, in US dollars")?.decimalMoney(currency)
    }

    /// `[{loan_id, amount}]`. A loan in the cart twice keeps its first line (a warning);
    /// a loan missing from the listings is a warning and still shows.
    public static func cart(in document: JSONDocument, currency: Currency = currency, knownLoans: Set<Int>? = nil) -> [KivaCartItem] {
        guard let list = document.value.array else { return [] }
        var seen: Set<Int> = []
        var result: [KivaCartItem] = []
        for value in list {
            guard value.object != nil else { continue }
            let loanID = value.required("loan_id", "the loan's id")?.intOrDigitString
            let amountValue = value.required("amount", "the donation, in US dollars")
            let amount = amountValue?.decimalMoney(currency)
            guard let loanID, let amount else { continue }
            guard amount.minorUnits > 0 else {
                amountValue?.error("expected a positive donation, found \(amount.decimalString)")
                continue
            }
            guard seen.insert(loanID).inserted else {
                value.warning("loan \(loanID) is in the cart twice; the first line counts")
                continue
            }
            if let knownLoans, !knownLoans.contains(loanID) {
                value.warning("loan \(loanID) is not in kiva/loans*.json or kiva/my/loans.json; shown without its details")
            }
            result.append(KivaCartItem(loanID: loanID, amount: amount))
        }
        return result
    }
}
