import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggSite
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct SettingsTests {
    @Test func everySettingHasADefault() throws {
        let (doc, log) = document("{}")
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(log.diagnostics.isEmpty)
        #expect(settings.title == "NestEgg")
        #expect(settings.locale == .enGB)
        #expect(settings.clock.identifier == "Europe/London")
        #expect(settings.currency(forSource: "qapital") == .usd)
        #expect(settings.currency(forSource: "transfers") == .hkd)
    }

    @Test func readsEverySetting() throws {
        let json = #"{"title": "Our money", "locale": "en-US", "timeZone": "America/New_York", "currencies": {"qapital": "EUR"}, "roundUpGoals": {"acc": "goal"}}"#
        let (doc, log) = document(json)
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(log.diagnostics.isEmpty)
        #expect(settings.title == "Our money")
        #expect(settings.locale == .enUS)
        #expect(settings.clock.identifier == "America/New_York")
        #expect(settings.currency(forSource: "qapital") == .eur)
        #expect(settings.roundUpGoals == ["acc": "goal"])
    }

    @Test func anUnknownKeyIsAnErrorWithASuggestion() throws {
        let (doc, log) = document("{\n  \"titel\": \"x\"\n}", file: "nestegg.json")
        _ = SettingsLoader.settings(in: try #require(doc))
        #expect(log.errors.count == 1)
        #expect(log.errors[0].description.hasPrefix("nestegg.json:2:12: error: unknown setting \"titel\"; did you mean \"title\"?"))
    }

    @Test func badValuesAreErrors() throws {
        let (doc, log) = document(#"{"locale": "xx_YY", "timeZone": "Mars/Olympus", "currencies": {"qapital": "dollars", "bank": "GBP"}}"#)
        _ = SettingsLoader.settings(in: try #require(doc))
        #expect(log.errors.map(\.path) == ["$.locale", "$.timeZone", "$.currencies.qapital", "$.currencies.bank"])
    }
}
