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

@Suite(.serialized) struct CIReportsTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    @Test func singleFileWorksAfterBeingMovedAloneIntoAnEmptyFolder() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("report.html")
        let result = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("site").path,
                                            "--single-file", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let alone = work.appendingPathComponent("elsewhere/report.html")
        try FileManager.default.createDirectory(at: alone.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: file, to: alone)
        let html = try String(contentsOf: alone, encoding: .utf8)
        // Nothing points at another file: every link is an in-page anchor or an absolute URL (the
        // statements' issuer logo is embedded, a data: URI).
        let references = matches(of: #"(?:href|src)="([^"]*)""#, in: html)
        #expect(!references.isEmpty)
        for reference in references {
            #expect(reference.hasPrefix("#") || reference.hasPrefix("https://") || reference.hasPrefix("http://")
                    || reference.hasPrefix("data:image/svg+xml;base64,"), "\(reference)")
        }
        // Every anchor exists in the file.
        let ids = Set(matches(of: #"id="([^"]*)""#, in: html))
        for anchor in references where anchor.hasPrefix("#") {
            #expect(ids.contains(String(anchor.dropFirst())), "dangling \(anchor)")
        }
        #expect(html.contains("<style>"))
        #expect(!html.contains("<link rel=\"stylesheet\""))
        #expect(html.contains("Move £1.58 into Trip to Lisbon."))
        #expect(html.components(separatedBy: "<h1").count == 2, "one h1 for the whole file")
    }

    @Test func summaryIsShortAndHasTheHeadlines() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let summary = work.appendingPathComponent("summary.md")
        let result = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("site").path,
                                            "--summary", summary.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = unpadded(try String(contentsOf: summary, encoding: .utf8))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 60)
        #expect(text.hasPrefix("## NestEgg sample\n"))
        #expect(text.contains("| Accounts and round-ups | Personal: round-up, 16–22 Nov 2026 so far | £3.67 |"))
        #expect(!text.contains("]("), "a job summary has no relative links")
    }

    @Test func summaryListsDataWarnings() throws {
        let site = Site(title: "T", sections: [], pages: [])
        let warnings = (1...12).map { (number: Int) in
            Diagnostic(.warning, file: "kiva/x.json", line: number, column: 1, message: "odd \(number)")
        }
        let text = try SummaryRenderer(templates: try TemplateLibrary(), site: site, warnings: warnings).render()
        #expect(text.contains("12 data warning(s)"))
        #expect(!text.contains("Data as of"), "no date line without dates")
        #expect(text.contains("- kiva/x.json:1:1: warning: odd 1"))
        #expect(!text.contains("odd 11"))
        #expect(text.contains("…and 2 more (run `nestegg check`)"))
    }

    @Test func jsonTotalsFollowTheSchema() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let json = work.appendingPathComponent("totals.json")
        let result = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("site").path,
                                            "--json", json.path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(object["dataAsOf"] as? String == "2026-11-21")
        let sections = try #require(object["sections"] as? [[String: Any]])
        let roundUps = try #require(sections.first { $0["id"] as? String == "roundups" })
        let figures = try #require(roundUps["figures"] as? [[String: Any]])
        let personal = try #require(figures.first { $0["id"] as? String == "personal.latest-round-up" })
        let amount = try #require(personal["amount"] as? [String: String])
        #expect(amount == ["amount": "3.67", "currency": "GBP"])
        // Every key the file uses is one the schema names.
        let schema = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/totals.schema.json"), encoding: .utf8)
        for key in ["schemaVersion", "title", "dataAsOf", "warnings", "sections", "id", "figures", "label", "value", "amount", "currency"] {
            #expect(schema.contains("\"\(key)\""))
        }
    }

    @Test func jsonStringsAreEscaped() {
        #expect(JSONText.quote("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }

    @Test func checkExitsZeroOnCleanData() throws {
        let result = try NestEggBinary.run(["check", "--data", fixtures.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no errors"))
    }

    @Test func checkReportsErrorsWith65AndWritesNothing() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(#"{"accounts": [{"accountUid": "a", "currency": 7}]}"#, to: work.appendingPathComponent("data/starling/accounts.json"))
        let before = snapshot(work)
        let result = try NestEggBinary.run(["check", "--data", "data"], in: work)
        #expect(result.status == 65)
        #expect(result.stderr.contains("data/starling/accounts.json:1:47: error: "), "\(result.stderr)")
        #expect(snapshot(work) == before)
    }

    @Test func strictTurnsWarningsIntoFailure() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(#"{"accounts": []}"#, to: work.appendingPathComponent("starling/accounts.json"))
        try write("{}", to: work.appendingPathComponent("notes/readme.json"))
        let relaxed = try NestEggBinary.run(["check", "--data", work.path])
        #expect(relaxed.status == 0)
        #expect(relaxed.stderr.contains("notes/readme.json: warning: not part of the input contract"))
        let strict = try NestEggBinary.run(["check", "--strict", "--data", work.path])
        #expect(strict.status == 65)
        let missing = try NestEggBinary.run(["check", "--data", work.appendingPathComponent("none").path])
        #expect(missing.status == 66)
    }

    @Test func githubActionsGetAnnotationsAndNoColour() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write("{\"accounts\": [\n{\"accountUid\": \"a\", \"currency\": 5}]}", to: work.appendingPathComponent("starling/accounts.json"))
        let result = try NestEggBinary.run(["check", "--data", "."], in: work, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("::error file=starling/accounts.json,line=2,col=33::expected a string, found a number (at $.accounts[0].currency)"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}["), "no colour when stderr is not a terminal")
        let plain = try NestEggBinary.run(["check", "--data", "."], in: work)
        #expect(!plain.stderr.contains("::error"))
    }

    private func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
