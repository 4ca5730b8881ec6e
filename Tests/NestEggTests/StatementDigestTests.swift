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

@Suite struct StatementDigestTests {
    let london = LocalClock(identifier: "Europe/London")!

    func statement(_ feed: [FeedItem], holder: String? = nil) -> (StatementPeriods.Statement, AccountData) {
        var data = AccountData(
            account: StarlingAccount(uid: "acc-1", type: "PRIMARY", currency: .gbp, name: "Personal", createdAt: nil),
            feed: feed, balance: StarlingBalance(cleared: gbp(10_000), effective: nil), savingsGoals: [])
        data.holderName = holder
        let statements = StatementPeriods.statements(for: data, clock: london, asOf: CivilDate(year: 2026, month: 11, day: 21))
        return (statements[0], data)
    }

    @Test func sha256IsTheStandardOne() {
        // FIPS 180-2's test vector.
        #expect(StatementDigest.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The canonical form, exactly as docs/statements.md describes it: RFC 8785 (keys sorted, no
    /// white space, only the escapes JSON needs), money as decimal strings, UTC times.
    @Test func theCanonicalFormIsJCS() {
        var item = feedItem(435, "2026-10-18T23:30:00.5Z", uid: "i-1")
        item.fields.reference = "Tab\there \"quoted\" \\ é\u{1}"
        let (statement, data) = statement([item], holder: "Alex")
        let text = StatementDigest.canonical(statement, data: data, timeZone: "Europe/London")
        #expect(text == #"{"account":{"accountNumber":null,"bankIdentifier":null,"bic":null,"currency":"GBP","holder":"Alex","iban":null,"name":"Personal","type":"PRIMARY","uid":"acc-1"},"#
            + #""closing":{"amount":"100.00","currency":"GBP"},"format":"nestegg-statement-v1","#
            + #""lines":[{"amount":{"amount":"4.35","currency":"GBP"},"balance":{"amount":"100.00","currency":"GBP"},"counterParty":"Shop","direction":"OUT","id":"i-1","reference":"Tab\there \"quoted\" \\ é\u0001","source":"MASTER_CARD","time":"2026-10-18T23:30:00.500Z"}],"#
            + #""moneyIn":{"amount":"0.00","currency":"GBP"},"moneyOut":{"amount":"4.35","currency":"GBP"},"#
            + #""opening":{"amount":"104.35","currency":"GBP"},"#
            + #""period":{"first":"2026-10-19","last":"2026-10-31","status":"final","through":"2026-10-31","timeZone":"Europe/London"}}"#)
        #expect(StatementDigest.digest(statement, data: data, timeZone: "Europe/London") == StatementDigest.sha256(Array(text.utf8)))
        // JCS's escapes differ from --json's in three characters.
        #expect(JSONText.quote("\u{8}\u{C}\u{2028}", canonical: true) == "\"\\b\\f\u{2028}\"")
        #expect(JSONText.quote("\u{8}\u{C}\u{2028}") == #""\u0008\u000c\u2028""#)
    }

    @Test func theDigestChangesWithWhatTheStatementSaysAndNothingElse() throws {
        let (statement, data) = statement([feedItem(435, "2026-10-18T23:30:00Z"), feedItem(520, "2026-10-21T12:40:00Z")])
        let digest = StatementDigest.digest(statement, data: data, timeZone: "Europe/London")
        #expect(digest.count == 64 && digest.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        var altered = statement
        altered.lines[0] = .init(item: feedItem(436, "2026-10-18T23:30:00Z"), balance: altered.lines[0].balance)
        #expect(StatementDigest.digest(altered, data: data, timeZone: "Europe/London") != digest)
        var renamed = data
        renamed.account.name = "Personal "
        #expect(StatementDigest.digest(statement, data: renamed, timeZone: "Europe/London") != digest)
        // The page's locale is layout, not content: the same statement printed in German has the same digest.
        func printed(_ locale: SiteLocale) throws -> String {
            var dataset = Dataset(accounts: [data])
            dataset.settings.locale = locale
            let site = SiteReport.build(dataset)
            let page = try #require(site.pages.first { $0.path == "statements/personal/2026-10" })
            let markdown = try PageRenderer(templates: TemplateLibrary(), site: site).render(page).markdown
            return try #require(markdown.split(whereSeparator: { !$0.isHexDigit }).first { $0.count == 64 }.map(String.init))
        }
        #expect(try printed(.enGB) == printed(.deDE))
    }

    /// The fixture's October statement, recomputed outside NestEgg (Python's json with sorted keys
    /// and hashlib, from the data files, following docs/statements.md) gave this digest; the same
    /// script gave the digest NestEgg gave for the sample before Fixtures/ became one household.
    @Test func theFixturesDigestMatchesAnIndependentComputation() throws {
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        let records = StatementsReport.records(for: dataset, context: ReportContext(settings: dataset.settings))
        #expect(records.count == 17)
        let october = try #require(records.first { $0.path == "statements/personal/2026-10" })
        #expect(october.digest == "9db8ef7ac1128bca685dabfa818bd1b8c9255764ce9cc924afadfc678eb7a43d")
        #expect(records.filter { $0.status.isProvisional }.map(\.path) == ["statements/personal/2026-11", "statements/euro-travel/2026-11"])
    }
}

/// `statements/manifest.json` and `nestegg verify`, through the binary.
@Suite(.serialized) struct VerifyEndToEndTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    @Test func verifyPassesOnABuildAndNamesEveryFileThatDiffersOrIsMissing() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path]).status == 0)
        let statements = site.appendingPathComponent("statements")
        let manifest = try String(contentsOf: statements.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains(#""schemaVersion": 1,"#))
        #expect(manifest.contains(#"{"path": "personal/2026-10.md", "sha256": ""#))
        // The provisional month has a balance but no closing balance.
        let (now, november) = try FixtureFigures.balances(of: "Personal")
        #expect(manifest.contains(#""status": "provisional",\#n      "opening": {"amount": "\#(FixtureFigures.decimal(november))", "currency": "GBP"},\#n      "closing": null,\#n      "balance": {"amount": "\#(FixtureFigures.decimal(now))", "currency": "GBP"},"#))

        // Every key the file uses is one the schema names.
        let schema = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/statements-manifest.schema.json"), encoding: .utf8)
        func keys(_ value: Any) -> Set<String> {
            if let object = value as? [String: Any] { return Set(object.keys).union(object.values.flatMap(keys)) }
            if let array = value as? [Any] { return Set(array.flatMap(keys)) }
            return []
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(manifest.utf8))
        #expect(keys(parsed).count == 23)
        for key in keys(parsed) { #expect(schema.contains("\"\(key)\""), "\(key)") }

        let clean = try NestEggBinary.run(["verify", statements.path])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr.contains("68 files of 17 statements and 10 other files match the manifest"), "\(clean.stderr)")

        // Same size, one figure changed; and a file gone.
        let october = statements.appendingPathComponent("personal/2026-10.md")
        let text = try String(contentsOf: october, encoding: .utf8)
        let closing = ReportContext(settings: Settings()).money(november)
        #expect(text.contains(closing))
        try Data(text.replacingOccurrences(of: closing, with: "£9" + closing.dropFirst(2)).utf8).write(to: october)
        try FileManager.default.removeItem(at: statements.appendingPathComponent("euro-travel/2026-09.html"))
        let tampered = try NestEggBinary.run(["verify", statements.path])
        #expect(tampered.status == 65)
        #expect(tampered.stderr.contains("\(statements.path)/personal/2026-10.md: error: differs from the manifest: its SHA-256 is "), "\(tampered.stderr)")
        #expect(tampered.stderr.contains("\(statements.path)/euro-travel/2026-09.html: error: missing: the manifest lists it"), "\(tampered.stderr)")
        #expect(tampered.stderr.contains("2 problems in 68 files of 17 statements"), "\(tampered.stderr)")

        // No manifest: 66. A manifest that points outside its folder: 65, and nothing outside is read.
        #expect(try NestEggBinary.run(["verify", work.path]).status == 66)
        try write(#"{"schemaVersion": 1, "statements": [{"files": [{"path": "../site/index.md", "sha256": "\#(String(repeating: "0", count: 64))"}]}]}"#,
                  to: work.appendingPathComponent("bad/manifest.json"))
        let outside = try NestEggBinary.run(["verify", work.appendingPathComponent("bad").path])
        #expect(outside.status == 65)
        #expect(outside.stderr.contains("not a path inside the manifest's folder: \"../site/index.md\""), "\(outside.stderr)")
    }
}
