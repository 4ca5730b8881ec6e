import NestEggModel
import NestEggSupport
/// What every report needs besides the data: the settings and how to write values.
public struct ReportContext: Sendable {
    public let settings: Settings
    /// Which weeks and months are over by the data's "as of" date (``PeriodProgress``).
    public let progress: PeriodProgress

    /// `asOf` is the data's latest date on the site's clock (``init(dataset:figures:)``); `nil`
    /// makes every period complete.
    public init(settings: Settings, asOf: CivilDate? = nil) {
        self.settings = settings
        self.progress = PeriodProgress(asOf: asOf)
    }

    /// The context of a dataset and of the accounts' figures (``AccountFigures``, by UID): its
    /// settings, and "as of" the latest instant of them all (an account's figures carry its
    /// latest time, also when its transactions are not in the dataset).
    public init(dataset: Dataset, figures: [String: AccountFigures] = [:]) {
        let latest = ([dataset.latestInstant] + figures.values.map(\.latest)).compactMap { $0 }.max()
        self.init(settings: dataset.settings, asOf: latest.map(dataset.settings.clock.date))
    }

    /// The context of one account's own pages: as of its own latest data (``asOf(of:figures:clock:)``), so
    /// that its periods in progress end where its data does, whatever the rest of the data holds.
    public func account(_ data: AccountData, figures: AccountFigures?) -> ReportContext {
        ReportContext(settings: settings, asOf: Self.asOf(of: data, figures: figures, clock: clock))
    }

    /// An account's own "as of" date on `clock`: its latest transaction's (as its figures hold
    /// it), or without one the day it was opened; `nil` with neither.
    public static func asOf(of data: AccountData, figures: AccountFigures?, clock: LocalClock) -> CivilDate? {
        ((figures?.latest ?? data.latestFeedInstant) ?? data.account.createdAt).map(clock.date(of:))
    }

    public var locale: SiteLocale { settings.locale }
    public var clock: LocalClock { settings.clock }

    public func money(_ amount: Money) -> String { locale.format(amount) }
    /// A chart's short figure: `£6.2k` (``SiteLocale/formatCompact(_:)``).
    public func compactMoney(_ amount: Money) -> String { locale.formatCompact(amount) }
    /// A count as the locale groups it: `12,345`.
    public func count(_ value: Int) -> String { locale.format(value) }
    /// A count with its noun: `1 loan`, `1,500 loans`, `3 countries` (`plural` when not just `+s`).
    public func counted(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count(value)) \(value == 1 ? singular : plural ?? singular + "s")"
    }

    /// Totals per currency, joined: `£12.00 · €3.50`.
    public func money(_ totals: MoneyTotals) -> String {
        totals.isEmpty ? "–" : totals.amounts.map(locale.format).joined(separator: " · ")
    }

    public func date(_ date: CivilDate) -> String { locale.format(date) }

    /// An exchange rate as the pages name it: `1 GBP = 1.1362 EUR (ECB, 30 Oct 2026)`.
    public func rate(_ rate: ExchangeRate) -> String { "\(rate.description) (ECB, \(date(rate.date)))" }

    /// The sentence naming the rates a page's figures were converted at: "Rates used: 1 GBP =
    /// 1.1475 EUR (ECB, 30 Oct 2026), the European Central Bank's reference rate of the month's
    /// last day or the working day before." `day` names the day; empty without rates.
    public func ratesUsed(_ rates: [ExchangeRate], of day: String, lead: String = "Rates used") -> String {
        guard !rates.isEmpty else { return "" }
        let which = rates.count == 1 ? "reference rate" : "reference rates"
        return "\(lead): \(rates.map(rate).joined(separator: "; ")), the European Central Bank's \(which) of \(day) or the working day before."
    }
    public func date(_ instant: Instant) -> String { locale.format(clock.date(of: instant)) }
    public func time(_ instant: Instant) -> String { clock.localDateTime(of: instant).timeText }

    /// The link target of a page from the site root, as Markdown pages write it.
    /// A fragment stays after the extension: `payees/occasional.page2#payee-cafe` →
    /// `payees/occasional.page2.md#payee-cafe` (the HTML flavour turns `.md` into `.html`, keeping it).
    public static func href(_ path: String) -> String {
        // Found in bytes: a search by Character (grapheme breaking) was a few per cent of a rebuild.
        guard let hash = path.utf8.firstIndex(of: UInt8(ascii: "#")) else { return path + ".md" }
        return path[..<hash] + ".md" + path[hash...]
    }

    /// A whole-number percentage of part in whole, rounded down (1.99% shows as 1%), without
    /// overflowing however large the amounts; `nil` when the whole is not positive.
    public static func percent(_ part: Int128, of whole: Int128) -> Int? {
        guard whole > 0 else { return nil }
        // Amounts are at most 10¹² × a count of items each, so part × 100 stays inside Int128.
        return Int(clamping: part * 100 / whole)
    }
}
