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

/// Runs the built `nestegg` binary, as a user or a CI job would.
struct NestEggBinary {
    static let url: URL? = {
        if let path = ProcessInfo.processInfo.environment["NESTEGG_BIN"] { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(repositoryRoot.appendingPathComponent(".build/debug"))
        for folder in candidates {
            let binary = folder.appendingPathComponent("nestegg")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return nil
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        let binary = try #require(url, "build nestegg first (make test does)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

@Suite(.serialized) struct EndToEndTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    @Test func buildsTheFixturesIntoASite() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("load: "))
        #expect(result.stderr.contains("Built "))
        let files = snapshot(output)
        for page in ["index.md", "index.html", "style.css", "roundups/index.md", "roundups/index.html",
                     "roundups/personal/2026-W43.md", "roundups/personal/2026-W43.html"] {
            #expect(files[page] != nil, "missing \(page)")
        }
        let week = String(decoding: try #require(files["roundups/personal/2026-W43.md"]), as: UTF8.self)
        #expect(week.contains("**Move £1.58 into Trip to Lisbon.**"))
        let html = String(decoding: try #require(files["roundups/index.html"]), as: UTF8.self)
        #expect(html.contains(#"href="../roundups/personal/2026-W43.html""#))
        #expect(!html.contains("2026-W43.md"), "HTML pages link to HTML pages")
        #expect(html.contains(#"<a href="index.md">This page as Markdown</a>"#))
        #expect(html.contains(#"<link rel="stylesheet" href="../style.css">"#))
    }

    @Test func quietPrintsNothingOnSuccess() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let result = try NestEggBinary.run(["build", "--quiet", "--data", fixtures.path, "--output", work.appendingPathComponent("o").path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func theSameInputGivesTheSameBytesAndUnchangedFilesKeepTheirTime() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        #expect(try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path]).status == 0)
        let first = snapshot(output)
        let index = output.appendingPathComponent("index.html").path
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: index)
        let second = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path])
        #expect(second.status == 0)
        // Only the "what changed" page: from "the first build" to "nothing changed".
        #expect(second.stderr.contains(" 2 changed"), "\(second.stderr)")
        #expect(try String(contentsOf: output.appendingPathComponent("changes.md"), encoding: .utf8).contains("Nothing changed since the last build"))
        #expect(snapshot(output) == first)
        let modified = try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date
        #expect(modified == past)
    }

    @Test func aRebuildWithUnchangedInputDoesNothing() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), output = work.appendingPathComponent("site")
        try FileManager.default.copyItem(at: fixtures, to: data)
        #expect(try NestEggBinary.run(["build", "--data", data.path, "--output", output.path]).status == 0)
        let built = snapshot(output)

        let again = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(again.status == 0)
        #expect(again.stderr.contains("up to date"), "\(again.stderr)")
        #expect(snapshot(output) == built)

        // A changed data file, or a page gone from the output, means a real build.
        try FileManager.default.removeItem(at: output.appendingPathComponent("index.md"))
        let repaired = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(!repaired.stderr.contains("up to date"))
        #expect(snapshot(output) == built)
        let settings = data.appendingPathComponent("nestegg.json")
        try write(#"{"title": "Renamed"}"#, to: settings)
        let changed = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(!changed.stderr.contains("up to date"))
        #expect(try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8).hasPrefix("# Renamed"))
    }

    @Test func stalePagesAreRemoved() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        try write("old", to: output.appendingPathComponent("roundups/gone/2020-W01.md"))
        try write("", to: output.appendingPathComponent(SiteWriter.marker))
        #expect(try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("roundups/gone/2020-W01.md").path))
    }

    @Test func badDataStopsWithEveryErrorAndLeavesTheOutputWhole() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write(#"{"accounts": [{"accountUid": "a1", "currency": "GBP", "name": "Main"}]}"#,
                  to: data.appendingPathComponent("starling/accounts.json"))
        try write("{\"feedItems\": [\n  {\"feedItemUid\": \"x\", \"amount\": {\"currency\": \"GBP\", \"minorUnits\": \"435\"},\n   \"direction\": \"OUT\", \"transactionTime\": \"2026-11-16T09:00:00Z\", \"status\": \"SETTLED\"}\n]}\n",
                  to: data.appendingPathComponent("starling/feed/a1.json"))
        try write("{\"savingsGoalList\": [", to: data.appendingPathComponent("starling/savings-goals/a1.json"))
        let output = work.appendingPathComponent("site")
        try write("previous", to: output.appendingPathComponent("index.md"))
        try write("", to: output.appendingPathComponent(SiteWriter.marker))
        let before = snapshot(output)

        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains(
            "starling/feed/a1.json:2:68: error: expected an integer, found a string (at $.feedItems[0].amount.minorUnits)"), "\(result.stderr)")
        #expect(result.stderr.contains("starling/savings-goals/a1.json:1:22: error: malformed JSON"), "\(result.stderr)")
        #expect(snapshot(output) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".nestegg") }
        #expect(leftovers.isEmpty)
    }

    @Test func aFolderNesteggDidNotWriteIsNeverReplaced() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write("keep me", to: work.appendingPathComponent("precious/notes.txt"))
        let foreign = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", work.appendingPathComponent("precious").path])
        #expect(foreign.status == 73)
        #expect(foreign.stderr.contains("nestegg did not write it"), "\(foreign.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("precious/notes.txt").path))

        // The data folder, or a folder holding it, is never the output.
        let data = work.appendingPathComponent("project/data")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let holding = try NestEggBinary.run(["build", "--data", data.path, "--output", work.appendingPathComponent("project").path])
        #expect(holding.status == 73)
        #expect(holding.stderr.contains("holds the input folder"), "\(holding.stderr)")
        let current = try NestEggBinary.run(["build", "--data", "data", "--output", "."], in: work.appendingPathComponent("project"))
        #expect(current.status == 73)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("starling/accounts.json").path))
    }

    /// Input reached through a symbolic link in the data folder is input wherever it lies: a link
    /// into the output (which the swap replaces) or to a file a build writes beside it is refused
    /// (exit 73), and the file it leads to is kept. (It was deleted with the old output.)
    @Test func aLinkInTheDataIntoWhatTheBuildReplacesIsRefused() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), output = work.appendingPathComponent("site")
        try FileManager.default.copyItem(at: fixtures, to: data)
        #expect(try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path]).status == 0)
        let kept = output.appendingPathComponent("kept-users.json")
        try FileManager.default.moveItem(at: data.appendingPathComponent("transfers/users.json"), to: kept)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("transfers/users.json"), withDestinationURL: kept)
        let before = snapshot(output)
        let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path])
        #expect(result.status == 73 && result.stderr.contains("transfers/users.json in the data folder, a symbolic link, leads to"), "\(result.stderr)")
        #expect(snapshot(output) == before && FileManager.default.fileExists(atPath: kept.path))
        // A link to a file a build writes beside the site (--json), and a linked folder inside the output.
        let totals = work.appendingPathComponent("totals.json")
        try FileManager.default.moveItem(at: kept, to: totals)
        try FileManager.default.removeItem(at: data.appendingPathComponent("transfers/users.json"))
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("transfers/users.json"), withDestinationURL: totals)
        let beside = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path, "--json", totals.path])
        #expect(beside.status == 73 && beside.stderr.contains("--json: refusing"), "\(beside.stderr)")
        #expect(try Data(contentsOf: totals).starts(with: Data("[".utf8)), "the users list, not totals")
        try FileManager.default.removeItem(at: data.appendingPathComponent("transfers/users.json"))
        try FileManager.default.moveItem(at: totals, to: data.appendingPathComponent("transfers/users.json"))
        try FileManager.default.moveItem(at: data.appendingPathComponent("kiva"), to: output.appendingPathComponent("kiva-data"))
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("kiva"), withDestinationURL: output.appendingPathComponent("kiva-data"))
        let folder = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path])
        #expect(folder.status == 73 && folder.stderr.contains("kiva in the data folder"), "\(folder.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("kiva-data").path))
        // A link to a folder that holds the output: the walk would read the old output as input.
        try FileManager.default.removeItem(at: data.appendingPathComponent("kiva"))
        try FileManager.default.moveItem(at: output.appendingPathComponent("kiva-data"), to: data.appendingPathComponent("kiva"))
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("up"), withDestinationURL: work)
        let above = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path])
        #expect(above.status == 73 && above.stderr.contains("it lies inside") && above.stderr.contains("up in the data folder"), "\(above.stderr)")
        // A template that is a link into the output, likewise.
        try FileManager.default.removeItem(at: data.appendingPathComponent("up"))
        let templates = work.appendingPathComponent("templates"), template = output.appendingPathComponent("style.css.mustache")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "body { color: black; }".write(to: template, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: templates.appendingPathComponent("style.css.mustache"), withDestinationURL: template)
        let linkedTemplate = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path, "--templates", templates.path])
        #expect(linkedTemplate.status == 73 && linkedTemplate.stderr.contains("style.css.mustache in the templates folder"), "\(linkedTemplate.stderr)")
        #expect(FileManager.default.fileExists(atPath: template.path))
    }

    @Test func aFailedArtifactLeavesTheSiteAsItWas() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", output.path]).status == 0)
        try FileManager.default.removeItem(at: output.appendingPathComponent("index.md"))
        let before = snapshot(output)
        try write("a file", to: work.appendingPathComponent("blocker"))
        let result = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", output.path,
                                            "--json", work.appendingPathComponent("blocker/totals.json").path])
        #expect(result.status == 73)
        #expect(snapshot(output) == before, "the site was not swapped in")
    }

    @Test func aMissingDataFolderExitsWith66() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let result = try NestEggBinary.run(["build", "--data", work.appendingPathComponent("nope").path, "--output", work.appendingPathComponent("o").path])
        #expect(result.status == 66)
        #expect(result.stderr.contains("does not exist"))
    }

    @Test func anUnwritableOutputExitsWith73() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write("a file", to: work.appendingPathComponent("blocker"))
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", work.appendingPathComponent("blocker/site").path])
        #expect(result.status == 73, "\(result.stderr)")
    }

    @Test func aBrokenTemplateExitsWith78NamingFileAndLine() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let templates = work.appendingPathComponent("templates")
        try write("# {{title}}\n\n{{#accounts}}\n| {{name}} |\n", to: templates.appendingPathComponent("index.md.mustache"))
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", work.appendingPathComponent("o").path,
                                            "--templates", templates.path])
        #expect(result.status == 78)
        // The position is the section that is never closed.
        #expect(result.stderr.contains("index.md.mustache:3:1: error: template error: the section {{#accounts}} is not closed"),
                "\(result.stderr)")
    }

    /// A user template that puts a value where the browser would run it as markup or script is
    /// refused as it loads: nothing is built.
    @Test func aTemplateThatPlacesAValueInCodeExitsWith78() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let templates = work.appendingPathComponent("templates")
        try write("# {{siteTitle}}\n\n<iframe srcdoc=\"{{siteTitle}}\"></iframe>\n", to: templates.appendingPathComponent("index.md.mustache"))
        let output = work.appendingPathComponent("o")
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path, "--templates", templates.path])
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("index.md.mustache:3:17: error: template error: a value inside the srcdoc attribute is code, not text"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        try write("<object data=\"{{siteTitle}}\"></object>\n<meta http-equiv=\"refresh\" content=\"0; url={{siteTitle}}\">\n",
                  to: templates.appendingPathComponent("index.md.mustache"))
        let meta = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path, "--templates", templates.path])
        #expect(meta.status == 78 && meta.stderr.contains("index.md.mustache:2:44: error: template error: a value in the content of a <meta http-equiv>"),
                "\(meta.stderr)")
    }

    @Test func templatesCanBeOverriddenByName() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let templates = work.appendingPathComponent("templates")
        try write("# Our {{siteTitle}}\n\nCustom start page.\n", to: templates.appendingPathComponent("index.md.mustache"))
        let output = work.appendingPathComponent("o")
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path, "--templates", templates.path])
        #expect(result.status == 0, "\(result.stderr)")
        let index = try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(index == "# Our NestEgg sample\n\nCustom start page.\n")
        // A misspelt template name is an error, not silently ignored.
        try write("x", to: templates.appendingPathComponent("indx.md.mustache"))
        #expect(try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path, "--templates", templates.path]).status == 78)
    }

    @Test func anUnknownFileIsAWarningNotAnError() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write(#"{"accounts": []}"#, to: data.appendingPathComponent("starling/accounts.json"))
        try write("{}", to: data.appendingPathComponent("mystery/thing.json"))
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", work.appendingPathComponent("o").path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("mystery/thing.json: warning: not part of the input contract"), "\(result.stderr)")
    }

    @Test func helpExplainsEachOption() throws {
        let result = try NestEggBinary.run(["build", "--help"])
        #expect(result.status == 0)
        for option in ["--data", "--output", "--templates", "--quiet"] {
            #expect(result.stdout.contains(option))
        }
    }
}

/// Dates at the edges of the calendar: the reports step months back and weeks on from the data's
/// dates, so a date of the year 1 or 9999 once stopped the build with a trap. Such data is refused
/// with an error that says which years are read; the first and last years read build.
@Suite(.serialized) struct CalendarEdgeTests {
    func build(_ dates: [String], timeZone: String) throws -> NestEggBinary.Result {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("transactions"), withIntermediateDirectories: true)
        let items = dates.enumerated().map { index, date in
            #"{"id": \#(index + 1), "name": "Shop", "category": "food", "amount": 7.03, "date": "\#(date)", "accountName": "Visa", "pinned": true}"#
        }
        try Data(("[" + items.joined(separator: ",") + "]").utf8).write(to: data.appendingPathComponent("transactions/transactions.json"))
        try Data(#"{"timeZone": "\#(timeZone)"}"#.utf8).write(to: data.appendingPathComponent("nestegg.json"))
        // Built as of the last days of 9998, so that its dates are not past the horizon (a year after the build).
        let lateIn9998 = Int64(CivilDate(year: 9998, month: 12, day: 1)!.daysSinceEpoch) * 86_400
        return try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", work.appendingPathComponent("site").path],
                                     environment: ["SOURCE_DATE_EPOCH": String(lateIn9998)])
    }

    @Test(arguments: [(["0001-02-02T16:54:00Z"], "Europe/London"), (["9999-12-31T23:59:00Z"], "Asia/Tokyo"), (["9999-06-01"], "UTC"),
                      (["2026-06-01", "0001-12-31"], "Pacific/Kiritimati")])
    func datesOutsideTheYearsReadAreRefused(_ dates: [String], _ timeZone: String) throws {
        let result = try build(dates, timeZone: timeZone)
        #expect(result.status == 65 && result.stderr.contains("in the years 2 to 9998"), "\(dates): \(result.stderr.prefix(600))")
    }

    @Test(arguments: [(["0002-01-01T00:00:00+14:00"], "Pacific/Pago_Pago"), (["9998-12-31T23:59:59-12:00"], "Pacific/Kiritimati"),
                      (["0002-01-01", "9998-12-31"], "UTC")])
    func theFirstAndLastYearsReadBuild(_ dates: [String], _ timeZone: String) throws {
        let result = try build(dates, timeZone: timeZone)
        #expect(result.status == 0, "\(dates): \(result.stderr.prefix(600))")
    }
}
