import NestEggSupport
/// The site's settings, from the optional `nestegg.json` in the data folder.
/// Every setting has a default, so a data folder without the file builds as-is.
public struct Settings: Sendable {
    /// Shown in every page's header and title.
    public var title = "NestEgg"
    /// How money and dates are written.
    public var locale = SiteLocale.enGB
    /// Where weeks and months begin and end.
    public var clock = LocalClock(identifier: "Europe/London") ?? LocalClock(identifier: "UTC") ?? LocalClock(identifier: "GMT")!
    /// The currency of sources whose amounts carry none (`qapital`, `transactions`, `transfers`).
    public var currencies: [String: Currency] = ["qapital": .usd, "transactions": .gbp, "transfers": .hkd]
    /// Which Starling savings goal (UID) each account's round-ups go to, by account UID.
    /// An account not named here uses its first savings goal, if it has one.
    public var roundUpGoals: [String: String] = [:]
    /// Who issues the statements: their head and foot (none when not set).
    public var issuer: StatementIssuer?
    /// Whether search engines may index the site: by default every page says `noindex` (this is
    /// private finance data).
    public var allowIndexing = false
    /// Where the site is published (`https://example.org/finance/`, always ending in `/`): with it,
    /// pages get canonical links and the site a `sitemap.xml`.
    public var baseURL: String? = nil
    /// Whether pages may show images from other hosts (avatars, goal images; https only). By
    /// default no request leaves a page: avatars are initials, goal images a placeholder.
    public var remoteImages = false
    /// Bank categories shown as one of the app's (or any name): a Starling spending category, as
    /// its code or its name (`GROCERIES`, `Eating out`), to the category its spending counts under
    /// (`Food`), so that "Food" and "Groceries" are one line where the household thinks of them so.
    /// These are the household's own; they stand over ``defaultCategories``, key by key.
    public var categories: [String: String] = [:]
    /// The bank's categories that name what the transactions app already has a category for, mapped
    /// to it by default so that one kind of spending is one line whichever source paid it:
    /// Starling's `GROCERIES` is the app's `Food` (the app files the weekly shop there), its
    /// `TRANSPORT` and `HOLIDAYS` the app's `Travel` (taxis, trains and flights). Starling's
    /// `EATING_OUT`, `ENTERTAINMENT`, `SHOPPING` and `HEALTH` already meet the app's categories
    /// of those names; the rest (`BILLS_AND_SERVICES`, …) have no counterpart and stand as they are.
    /// `nestegg.json`'s `categories` overrides any of them (`{"GROCERIES": "Groceries"}` keeps
    /// groceries apart).
    public static let defaultCategories = ["GROCERIES": "Food", "HOLIDAYS": "Travel", "TRANSPORT": "Travel"]
    /// The currency net worth, cash flow and budgets are given in (`"baseCurrency"`): other
    /// currencies are converted into it at the ECB rates of `rates/`, each rate shown where used.
    public var baseCurrency: Currency = .gbp
    /// Monthly budgets per spending category (`"budgets": {"groceries": "250.00"}`), by the
    /// category's name as written, in the base currency.
    public var budgets: [String: Money] = [:]
    /// Where each budget stands in `nestegg.json`, by its name: a warning at its amount (file,
    /// line, column, JSON path), its message still empty, for the report's check that the budget
    /// names a category the spending has (``NestEggReport/BudgetCategories``).
    public var budgetPlaces: [String: Diagnostic] = [:]
    /// The day each savings goal should reach its target (`"goalDates": {"Trip to Lisbon": "2027-06-01"}`),
    /// by the goal's name: the goals list then says whether it is on track.
    public var goalDates: [String: CivilDate] = [:]
    /// Where `nestegg fetch rates` asks Frankfurter for the ECB's reference rates, in the same form.
    public var frankfurterBaseURL = "https://api.frankfurter.dev"
    /// Where `nestegg fetch starling` asks Starling's API: an `https` address (plain `http` only on
    /// this machine, for tests), without a trailing `/`.
    public var starlingBaseURL = "https://api.starlingbank.com"
    /// Where `nestegg fetch countries` asks RESTCountries, in the same form.
    public var restCountriesBaseURL = "https://restcountries.com"

    public init() {}

    public func currency(forSource source: String) -> Currency { currencies[source] ?? .gbp }
}
