import NestEggSupport
/// Everything loaded from kiva/ and restcountries/: loans, the lender, the cart and countries.
public struct KivaData: Sendable {
    /// `kiva/loans.json` and `kiva/loans-*.json`, merged (a loan in two pages once), in file order.
    public var loans: [KivaLoan] = []
    /// `kiva/my/account.json`.
    public var account: KivaAccount?
    /// `kiva/my/balance.json`.
    public var balance: Money?
    /// `kiva/my/loans.json`: the lender's own loans.
    public var myLoans: [KivaLoan] = []
    /// Whether `kiva/my/loans.json` was given (an empty portfolio is still a portfolio).
    public var hasMyLoans = false
    /// `kiva/cart.json`: loans in the cart with the chosen donation, in file order.
    public var cart: [KivaCartItem] = []
    /// Whether `kiva/cart.json` was given.
    public var hasCart = false
    /// `restcountries/countries.json`, in either the v2 or the v3.1 shape.
    public var countries: [Country] = []
    /// Which shape `restcountries/countries.json` had; `nil` when there is none.
    public var countriesVersion: RESTCountriesVersion?
    /// The currency of Kiva's amounts (US dollars unless `nestegg.json` says otherwise).
    public var currency: Currency = .usd

    public init() {}

    /// Whether the lender pages have anything to show.
    public var hasLender: Bool { account != nil || balance != nil || hasMyLoans || hasCart }

    /// The latest moment in this source, for the start page's "data as of".
    /// (Without joining the lists: a copy of 100,000 loans was the largest thing in memory at a build's peak.)
    public var latestInstant: Instant? {
        [loans.lazy.map(\.postedDate).max(), myLoans.lazy.map(\.postedDate).max()].compactMap { $0 }.max()
    }

    /// Countries by ISO 3166-1 alpha-2 code (upper case).
    public var countriesByCode: [String: Country] {
        Dictionary(countries.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A point on the globe, in degrees (north and east positive). Not money: a Double is right here.
public struct Coordinates: Sendable, Hashable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether the point lies within ±90° latitude and ±180° longitude.
    public var isOnTheGlobe: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

/// One Kiva loan, as the loan listings (`/loans/newest`, `/loans/search`, data snapshots) describe it.
public struct KivaLoan: Sendable, Hashable {
    public struct Location: Sendable, Hashable {
        /// ISO 3166-1 alpha-2, upper case.
        public let countryCode: String
        /// Kiva's name for the country (shown when RESTCountries does not know the code).
        public let country: String
        public let town: String?
        /// From `geo.pairs` ("lat lon"); `nil` when absent or off the globe (a warning).
        public let coordinates: Coordinates?
        /// `geo.level`: `country`, `town`, …
        public let geoLevel: String?

        public init(countryCode: String, country: String, town: String?, coordinates: Coordinates?, geoLevel: String? = nil) {
            self.countryCode = countryCode
            self.country = country
            self.town = town
            self.coordinates = coordinates
            self.geoLevel = geoLevel
        }
    }

    public let id: Int
    public let name: String
    /// `fundraising`, `funded`, `in_repayment`, `paid`, `defaulted`, `refunded`, `expired`, …
    public let status: LoanStatus
    public let loanAmount: Money
    public let fundedAmount: Money
    public let sector: String
    public let activity: String
    /// What the loan is for (Kiva pads it with spaces; trimmed).
    public let use: String
    public let location: Location
    public let postedDate: Instant
    public let borrowerCount: Int?
    public let lenderCount: Int?
    /// `description.texts.en`, as HTML (emphasis and line breaks survive via ``RichText``).
    public let descriptionHTML: String?

    public init(id: Int, name: String, status: LoanStatus, loanAmount: Money, fundedAmount: Money, sector: String,
                activity: String, use: String, location: Location, postedDate: Instant, borrowerCount: Int? = nil,
                lenderCount: Int? = nil, descriptionHTML: String? = nil) {
        self.id = id
        self.name = name
        self.status = status
        self.loanAmount = loanAmount
        self.fundedAmount = fundedAmount
        self.sector = sector
        self.activity = activity
        self.use = use
        self.location = location
        self.postedDate = postedDate
        self.borrowerCount = borrowerCount
        self.lenderCount = lenderCount
        self.descriptionHTML = descriptionHTML
    }
}

/// `{"user_account": {first_name, last_name, lender_id, id}}`
public struct KivaAccount: Sendable, Hashable {
    public let id: String?
    public let firstName: String
    public let lastName: String
    public let lenderID: String

    public init(id: String?, firstName: String, lastName: String, lenderID: String) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.lenderID = lenderID
    }

    public var name: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// One line of the cart: a loan and the donation chosen for it.
public struct KivaCartItem: Sendable, Hashable {
    public let loanID: Int
    public let amount: Money

    public init(loanID: Int, amount: Money) {
        self.loanID = loanID
        self.amount = amount
    }
}

/// The two shapes of RESTCountries' `/all`, told apart by their fields.
public enum RESTCountriesVersion: String, Sendable, Hashable {
    /// `name` a string, `alpha2Code`, `gini` a number.
    case v2 = "v2"
    /// `name.common`, `cca2`, `gini` an object keyed by year.
    case v31 = "v3.1"
}

/// A Gini coefficient (0 complete equality … 100 maximum inequality) and, in v3.1, its year.
public struct Gini: Sendable, Hashable {
    /// The number as the file wrote it (`40.8`), so it shows exactly.
    public let text: String
    /// For sorting only.
    public let value: Double
    public let year: Int?

    public init(text: String, value: Double, year: Int?) {
        self.text = text
        self.value = value
        self.year = year
    }
}

/// One country from RESTCountries.
public struct Country: Sendable, Hashable {
    /// ISO 3166-1 alpha-2, upper case.
    public let code: String
    public let name: String
    public let region: String
    public let subregion: String
    public let capital: String?
    public let population: Int
    public let gini: Gini?
    /// `nil` when `latlng` is empty or off the globe.
    public let coordinates: Coordinates?

    public init(code: String, name: String, region: String = "", subregion: String = "", capital: String? = nil,
                population: Int, gini: Gini?, coordinates: Coordinates?) {
        self.code = code
        self.name = name
        self.region = region
        self.subregion = subregion
        self.capital = capital
        self.population = population
        self.gini = gini
        self.coordinates = coordinates
    }
}

public enum FlagEmoji {
    /// The flag emoji for an ISO 3166-1 alpha-2 code (`KE` → 🇰🇪), or "" for anything that is not two letters.
    public static func emoji(_ code: String) -> String {
        let letters = Array(code.uppercased().unicodeScalars)
        guard letters.count == 2, letters.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) else { return "" }
        var result = ""
        for letter in letters {
            result.unicodeScalars.append(Unicode.Scalar(0x1F1E6 + letter.value - 0x41)!)
        }
        return result
    }
}
