import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
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

    /// The suggestion's rule (``Text/closest(to:among:)``): the nearest name by edit distance,
    /// ignoring case, when it is at most 2 edits (or a third of the name) away.
    @Test func theSuggestionIsTheNearestNameBySpelling() {
        #expect(Text.editDistance("kitten", "sitting") == 3 && Text.editDistance("flaw", "lawn") == 2)
        #expect(Text.editDistance("", "abc") == 3 && Text.editDistance("abc", "") == 3 && Text.editDistance("", "") == 0)
        #expect(Text.editDistance("titel", "title") == 2 && Text.editDistance("café", "cafe") == 1)
        #expect(Text.closest(to: "TITEL", among: ["theme", "title"]) == "title")
        #expect(Text.closest(to: "nme", among: ["name", "address"]) == "name")
        #expect(Text.closest(to: "xyz", among: ["title"]) == nil && Text.closest(to: "title", among: []) == nil)
        // A long name allows a third of its length: 4 edits in 12 characters, not 5.
        #expect(Text.closest(to: "abcdefghijkl", among: ["abcdefgh"]) == "abcdefgh" && Text.closest(to: "abcdefghijkl", among: ["abcdefg"]) == nil)
    }

    @Test func badValuesAreErrors() throws {
        let (doc, log) = document(#"{"locale": "xx_YY", "timeZone": "Mars/Olympus", "currencies": {"qapital": "dollars", "bank": "GBP"}}"#)
        _ = SettingsLoader.settings(in: try #require(doc))
        #expect(log.errors.map(\.path) == ["$.locale", "$.timeZone", "$.currencies.qapital", "$.currencies.bank"])
    }
}

/// `issuer`: who sends the statements, with a logo read from the data folder.
@Suite struct IssuerSettingsTests {
    func load(_ settings: String, files: [String: String] = [:]) throws -> (Settings, DiagnosticLog) {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(settings, to: work.appendingPathComponent("nestegg.json"))
        for (path, text) in files { try write(text, to: work.appendingPathComponent(path)) }
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: work), log: log)
        return (dataset.settings, log)
    }

    let logo = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10"/></svg>"#

    @Test func readsTheIssuerAndItsLogo() throws {
        let (settings, log) = try load(#"""
            {"issuer": {"name": " Harbour Bank plc ", "address": ["1 Quay Street", "London"], "footer": "Regulated.", "logo": "issuer/logo.svg",
                        "pageHeader": "Harbour Bank plc · Statements"}}
            """#, files: ["issuer/logo.svg": logo, "transfers/users.json": "[]", "transfers/transfers.json": "[]"])
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let issuer = try #require(settings.issuer)
        #expect(issuer.pageHeader == "Harbour Bank plc · Statements")
        #expect(issuer.name == "Harbour Bank plc")
        #expect(issuer.address == ["1 Quay Street", "London"])
        #expect(issuer.footer == "Regulated.")
        #expect(issuer.logo?.path == "issuer/logo.svg")
        // Only ever an image: base64 in a data: URI, never the SVG's markup.
        let uri = try #require(issuer.logo?.dataURI)
        #expect(uri.hasPrefix("data:image/svg+xml;base64,"))
        #expect(uri.dropFirst("data:image/svg+xml;base64,".count).allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
    }

    @Test func everyMistakeIsAnErrorAtItsPlace() throws {
        let (settings, log) = try load(#"""
            {"issuer": {"nme": "x", "address": "1 Quay Street", "logo": "../logo.svg"}}
            """#, files: ["transfers/users.json": "[]", "transfers/transfers.json": "[]"])
        #expect(settings.issuer == nil)
        #expect(log.errors.map(\.message) == [
            "unknown issuer setting \"nme\"; did you mean \"name\"? (known: name, address, footer, logo, pageHeader)",
            "expected an array, found a string",
            "the logo must be a path inside the data folder, such as \"issuer/logo.svg\", found \"../logo.svg\"",
            "missing required field \"name\" (expected the issuer's name)",
        ])
        #expect(log.errors.allSatisfy { $0.file == "nestegg.json" && $0.line == 1 })
        let (_, logos) = try load(#"{"issuer": {"name": "B", "logo": "logo.png"}}"#, files: ["logo.png": "x", "transfers/users.json": "[]"])
        #expect(logos.errors.map(\.message) == ["the logo must be an SVG file (a name ending in .svg), found \"logo.png\""])
        let (_, missing) = try load(#"{"issuer": {"name": "B", "logo": "issuer/logo.svg"}}"#, files: ["transfers/users.json": "[]"])
        #expect(missing.errors.map(\.message) == ["no file issuer/logo.svg in the data folder (the logo is read from there)"])
        let (_, notSVG) = try load(#"{"issuer": {"name": "B", "logo": "logo.svg"}}"#, files: ["logo.svg": "<html></html>", "transfers/users.json": "[]"])
        #expect(notSVG.errors.map(\.message) == ["the logo logo.svg is not an SVG drawing (UTF-8 text with an <svg> element)"])
        let (_, typo) = try load(#"{"isuser": {}}"#, files: ["transfers/users.json": "[]"])
        #expect(typo.errors.first?.message.hasPrefix("unknown setting \"isuser\"; did you mean \"issuer\"?") == true)
    }
}
