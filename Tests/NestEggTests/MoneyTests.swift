import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct MoneyTests {
    @Test func parsesDecimalsExactly() throws {
        #expect(try Money.parse(decimal: "12.50", currency: .usd).minorUnits == 1250)
        #expect(try Money.parse(decimal: "0.78", currency: .usd).minorUnits == 78)
        #expect(try Money.parse(decimal: "3", currency: .usd).minorUnits == 300)
        #expect(try Money.parse(decimal: "-3.2", currency: .gbp).minorUnits == -320)
        #expect(try Money.parse(decimal: "1.500", currency: .gbp).minorUnits == 150)
        #expect(try Money.parse(decimal: "1.5e2", currency: .gbp).minorUnits == 15000)
        #expect(try Money.parse(decimal: "1250", currency: Currency(code: "JPY")!).minorUnits == 1250)
        #expect(try Money.parse(decimal: "1.234", currency: Currency(code: "KWD")!).minorUnits == 1234)
        // 0.1 + 0.2 is exact here.
        let sum = try Money.parse(decimal: "0.1", currency: .gbp) + Money.parse(decimal: "0.2", currency: .gbp)
        #expect(sum == gbp(30))
    }

    @Test func rejectsWhatIsNotExact() {
        #expect(throws: Money.ParseError.tooManyDecimals(allowed: 2)) { try Money.parse(decimal: "0.785", currency: .gbp) }
        #expect(throws: Money.ParseError.notADecimal) { try Money.parse(decimal: "12,50", currency: .gbp) }
        #expect(throws: Money.ParseError.notADecimal) { try Money.parse(decimal: "", currency: .gbp) }
        #expect(throws: Money.ParseError.outOfRange) { try Money.parse(decimal: "99999999999999999999", currency: .gbp) }
    }

    @Test func formatsInTheSiteLocale() {
        #expect(SiteLocale.enGB.format(gbp(123_450)) == "£1,234.50")
        #expect(SiteLocale.enGB.format(gbp(-320)) == "-£3.20")
        #expect(SiteLocale.enGB.format(gbp(5)) == "£0.05")
        #expect(SiteLocale.enGB.format(Money(minorUnits: 123_456_789, currency: .eur)) == "€1,234,567.89")
        #expect(SiteLocale.enGB.format(Money(minorUnits: 1000, currency: .usd)) == "US$10.00")
        #expect(SiteLocale.enUS.format(Money(minorUnits: 1000, currency: .usd)) == "$10.00")
        #expect(SiteLocale.deDE.format(Money(minorUnits: 123_450, currency: .eur)) == "1.234,50\u{00A0}€")
        #expect(SiteLocale.enGB.format(Money(minorUnits: 1500, currency: Currency(code: "JPY")!)) == "JP¥1,500")
        #expect(SiteLocale.enGB.format(Money(minorUnits: 1500, currency: Currency(code: "CHF")!)) == "CHF\u{00A0}15.00")
        #expect(Money(minorUnits: -5, currency: .gbp).decimalString == "-0.05")
    }

    /// A chart's short figure: whole units under a thousand, else a tenth of a thousand or a
    /// million, halves away from zero, the symbol where the locale puts it; nothing traps.
    @Test func formatsCompactlyForCharts() {
        let en = SiteLocale.enGB
        #expect(en.formatCompact(gbp(0)) == "£0")
        #expect(en.formatCompact(gbp(95_000)) == "£950")
        #expect(en.formatCompact(gbp(95_049)) == "£950.49", "under a thousand nothing is rounded")
        #expect(en.formatCompact(gbp(30)) == "£0.30", "a small column never reads £0")
        #expect(en.formatCompact(gbp(99_999)) == "£999.99")
        #expect(en.formatCompact(gbp(100_000)) == "£1k")
        #expect(en.formatCompact(gbp(618_670)) == "£6.2k")
        #expect(en.formatCompact(gbp(615_000)) == "£6.2k", "a half goes away from zero")
        #expect(en.formatCompact(gbp(614_999)) == "£6.1k")
        #expect(en.formatCompact(gbp(-130_000_000)) == "-£1.3m")
        #expect(en.formatCompact(gbp(-40)) == "-£0.40")
        #expect(en.formatCompact(gbp(99_994_900)) == "£999.9k")
        #expect(en.formatCompact(gbp(99_994_950)) == "£999.9k", "the scale from the rounded tenths: not £1m")
        #expect(en.formatCompact(gbp(99_994_999)) == "£999.9k")
        #expect(en.formatCompact(gbp(-105_000)) == "-£1.1k", "a half rounds away from zero")
        #expect(en.formatCompact(gbp(-104_999)) == "-£1k")
        #expect(en.formatCompact(gbp(99_995_000)) == "£1m")
        #expect(en.formatCompact(gbp(123_456_789_000_000)) == "£1,234,567.9m")
        #expect(SiteLocale.deDE.formatCompact(Money(minorUnits: 618_670, currency: .eur)) == "6,2k\u{00A0}€")
        #expect(en.formatCompact(Money(minorUnits: 12_345, currency: Currency(code: "JPY")!)) == "JP¥12.3k")
        #expect(en.formatCompact(Money(minorUnits: 200_000, currency: Currency(code: "CHF")!)) == "CHF\u{00A0}2k")
        #expect(!en.formatCompact(Money(minorUnits: Int128.max, currency: .gbp)).isEmpty)
        #expect(!en.formatCompact(Money(minorUnits: Int128.min, currency: .gbp)).isEmpty)
    }

    @Test func currenciesKnowTheirMinorDigits() {
        #expect(Currency.gbp.minorDigits == 2)
        #expect(Currency(code: "JPY")?.minorDigits == 0)
        #expect(Currency(code: "KWD")?.minorDigits == 3)
        #expect(Currency(code: "gbp") == nil)
        #expect(Currency(code: "POUND") == nil)
    }

    @Test func totalsAreKeptPerCurrency() {
        var totals = MoneyTotals()
        totals.add(gbp(100))
        totals.add(Money(minorUnits: 250, currency: .eur))
        totals.add(gbp(50))
        #expect(totals.amounts == [Money(minorUnits: 250, currency: .eur), gbp(150)])
    }
}
