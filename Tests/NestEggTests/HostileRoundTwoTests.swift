import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggServe
@testable import NestEggSupport

/// Issue 30's cases that need more than a data folder and an exit status (those are in
/// `Tests/Hostile/`): each through the `nestegg` binary, as a user or an attacker would run it.
@Suite(.serialized) struct HostileRoundTwoTests {
    /// Builds `data` (files by path) into a fresh folder: the result and the files written.
    func build(_ files: [String: String], templates: [String: String] = [:], extra: [String] = [])
        throws -> (result: NestEggBinary.Result, site: [String: Data], work: URL) {
        let work = try temporaryFolder()
        for (path, text) in files { try write(text, to: work.appendingPathComponent("data/" + path)) }
        var arguments = ["build", "--quiet", "--data", work.appendingPathComponent("data").path, "--output", work.appendingPathComponent("site").path]
        if !templates.isEmpty {
            for (name, text) in templates { try write(text, to: work.appendingPathComponent("templates/" + name)) }
            arguments += ["--templates", work.appendingPathComponent("templates").path]
        }
        let result = try NestEggBinary.run(arguments + extra)
        let site = FileManager.default.fileExists(atPath: work.appendingPathComponent("site").path) ? snapshot(work.appendingPathComponent("site")) : [:]
        return (result, site, work)
    }

    static let account = #"{"accounts": [{"accountUid": "a1", "currency": "GBP", "name": "Main", "accountType": "PRIMARY", "createdAt": "2025-12-01T09:00:00Z"}]}"#
    static let balance = #"{"clearedBalance": {"currency": "GBP", "minorUnits": 563620}, "effectiveBalance": {"currency": "GBP", "minorUnits": 563620}}"#
    static func feed(counterparty: String = "Tesco") -> String {
        let name = String(decoding: try! JSONSerialization.data(withJSONObject: [counterparty], options: []), as: UTF8.self).dropFirst().dropLast()
        return #"{"feedItems": [{"feedItemUid": "x1", "amount": {"currency": "GBP", "minorUnits": 1199}, "direction": "OUT", "transactionTime": "2025-12-16T09:00:00Z", "status": "SETTLED", "counterPartyName": "# + name + #", "reference": "REF"}]}"#
    }

    // MARK: Money that reads differently from what it is

    /// A holder's name with U+202E before the cleared balance: no bidirectional control from data
    /// reaches any page, and a right-to-left name is isolated so that the balance after it keeps
    /// its order.
    @Test func bidiControlsFromDataReachNoPage() throws {
        let (result, site, work) = try build([
            "starling/accounts.json": Self.account,
            "starling/balances/a1.json": Self.balance,
            "starling/account-holder.json": #"{"accountHolderName": "Alex \u202EMorgan"}"#,
            "starling/feed/a1.json": Self.feed(counterparty: "שלום \u{2066}Shop\u{202C}"),
        ])
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 0, "\(result.stderr)")
        var isolated = 0
        for (path, bytes) in site where path.hasSuffix(".md") || path.hasSuffix(".html") {
            let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
            let controls = scalars.filter(Text.isBidiControl)
            // Only nestegg's own isolates, in pairs, each around the Hebrew name.
            #expect(controls.allSatisfy { $0 == Text.firstStrongIsolate || $0 == Text.popDirectionalIsolate }, "\(path): \(controls.map { String($0.value, radix: 16) })")
            let text = String(scalars)
            #expect(text.components(separatedBy: "\u{2068}").count == text.components(separatedBy: "\u{2069}").count, "\(path)")
            isolated += text.components(separatedBy: "\u{2068}שלום\u{2069} Shop").count - 1
            #expect(!text.contains("\u{202E}"))
        }
        #expect(isolated > 0, "the Hebrew counterparty is isolated on some page")
    }

    /// A right-to-left account name inside a title: only the name is isolated, so the period after
    /// it keeps its order ("Statement for חשבון, 1–31 Oct 2026", not "…31–1 ,חשבון Oct 2026").
    @Test func aRightToLeftNameInATitleIsolatesTheNameOnly() {
        let title = "Statement for חשבון, 1–31 Oct 2026"
        for placement in [Placement.heading, .htmlText, .htmlAttribute, .paragraph] {
            #expect(Escape.value(title, at: placement) == "Statement for \u{2068}חשבון\u{2069}, 1–31 Oct 2026", "\(placement)")
            #expect(!Escape.isPlain(title, at: placement), "the short way must not skip the isolate (\(placement))")
        }
    }

    // MARK: One bad value that costs hours or gigabytes

    /// A 1 MB counterparty name: the Markdown grows by the name's size on each page that shows it,
    /// not by the name's width on every row of every table.
    @Test func aHugeNameDoesNotPadEveryRow() throws {
        let huge = String(repeating: "W", count: 1_000_000)
        var items: [String] = []
        for day in 1...28 {
            let name = day == 16 ? huge : "Shop \(day)"
            items.append(#"{"feedItemUid": "x\#(day)", "amount": {"currency": "GBP", "minorUnits": \#(100 + day)}, "direction": "OUT", "transactionTime": "2025-12-\#(day < 10 ? "0" : "")\#(day)T09:00:00Z", "status": "SETTLED", "counterPartyName": "\#(name)", "reference": "R"}"#)
        }
        let (result, site, work) = try build([
            "starling/accounts.json": Self.account,
            "starling/feed/a1.json": #"{"feedItems": ["# + items.joined(separator: ",") + "]}",
        ])
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 0, "\(result.stderr)")
        let markdown = site.filter { $0.key.hasSuffix(".md") }
        let pagesWithName = markdown.values.filter { String(decoding: $0, as: UTF8.self).contains(huge) }.count
        let total = markdown.values.reduce(0) { $0 + $1.count }
        #expect(pagesWithName > 0)
        // Each page holds the name once or twice (a row, a heading); padding adds little beside it.
        #expect(total < pagesWithName * 2 * huge.utf8.count + 2_000_000, "\(total) bytes of Markdown for \(pagesWithName) pages with the name")
    }

    /// Templates that include a partial twice at each of 30 levels: refused when the templates load
    /// (exit 78, naming the template), before a page is rendered.
    @Test func partialsDoublingAtEachLevelAreRefused() throws {
        var templates: [String: String] = [:]
        // The statements table partial includes pager-top twice, pager-top includes pager-bottom
        // twice…: a chain over the overridable partials, each doubling.
        templates["pager-bottom.md.mustache"] = String(repeating: "x", count: 600)
        templates["pager-top.md.mustache"] = String(repeating: "{{> pager-bottom.md}}{{> pager-bottom.md}}", count: 1000)
        let (result, _, work) = try build(["transactions/transactions.json": #"[{"id": 1, "name": "Lunch", "category": "food", "amount": 7.5, "date": "2026-06-02", "accountName": "Visa"}]"#],
                                          templates: templates)
        defer { try? FileManager.default.removeItem(at: work) }
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("pager-top.md.mustache"), "\(result.stderr)")
        #expect(result.stderr.contains("before any data"), "\(result.stderr)")
    }

    /// The same rule on the library: a chain of templates each including the next twice.
    @Test func expansionIsMeasuredThroughEveryLevel() throws {
        var templates: [String: Template] = [:]
        templates["t0"] = try Template(String(repeating: "y", count: 500), kind: .markdown)
        for level in 1...22 { templates["t\(level)"] = try Template("{{> t\(level - 1)}}{{> t\(level - 1)}}", kind: .markdown) }
        let problems = TemplateLibrary.checkExpansion(templates, sources: [:])
        // 500 bytes (and 20 of tags a level) doubled: over 1 MiB from level 11 on.
        #expect(problems.map(\.file).sorted() == (11...22).map { "t\($0)" }.sorted())
    }

    /// 2,000 one-item categories: the filter bar names at most a dozen, and the site grows as the
    /// categories do (a bar naming every category on every category's pages grew as their square).
    @Test func manyCategoriesGrowTheSiteLinearly() throws {
        func site(categories: Int) throws -> (bytes: Int, files: Int, links: Int) {
            let rows = (0..<categories).map { index in
                #"{"id": \#(index + 1), "name": "N\#(index)", "category": "c\#(index)", "amount": 1.5, "date": "2026-06-02", "accountName": "Visa"}"#
            }
            let (result, site, work) = try build(["transactions/transactions.json": "[" + rows.joined(separator: ",") + "]"])
            defer { try? FileManager.default.removeItem(at: work) }
            #expect(result.status == 0, "\(result.stderr)")
            let page = String(decoding: try #require(site["transactions/c7.md"]), as: UTF8.self)
            #expect(site["transactions/categories.md"] != nil)
            return (site.values.reduce(0) { $0 + $1.count }, site.count, page.components(separatedBy: "](").count - 1)
        }
        let small = try site(categories: 200), large = try site(categories: 2_000)
        #expect(large.links == small.links, "a category page links \(large.links) places with 2,000 categories, \(small.links) with 200")
        #expect(large.links < 40)
        // Ten times the categories: about ten times the site, not a hundred.
        #expect(Double(large.bytes) < Double(small.bytes) * 14, "\(small.bytes) → \(large.bytes) bytes")
    }

    /// A sparse file of 100 GB in a feed's place, and one named `backup.tar` that no loader reads:
    /// the feed is refused by its size before anything is allocated or hashed (exit 65, naming the
    /// limit), in seconds; an unknown file is hashed in pieces, not read whole.
    @Test func aSparseHugeFileIsRefusedNotAllocated() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write(Self.account, to: data.appendingPathComponent("starling/accounts.json"))
        try write("", to: data.appendingPathComponent("starling/feed/a1.json"))
        #expect(truncate(data.appendingPathComponent("starling/feed/a1.json").path, 100 << 30) == 0)
        try write("", to: data.appendingPathComponent("backup.tar"))
        #expect(truncate(data.appendingPathComponent("backup.tar").path, 100 << 30) == 0)
        let result = try NestEggBinary.run(["build", "--quiet", "--data", data.path, "--output", work.appendingPathComponent("site").path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("starling/feed/a1.json") && result.stderr.contains("larger than 1 GiB"), "\(result.stderr)")
    }

    @Test func anUnreadFileIsHashedInPieces() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let path = work.appendingPathComponent("backup.tar").path
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(FileBytes.read(path, limit: 1_000_000).isFailure)
        var pieces = 0, total = 0
        #expect(FileBytes.forEachPiece(path) { pieces += 1; total += $0.count } == nil)
        #expect(total == bytes.count && pieces >= 3)
    }

    // MARK: Data that reads two ways

    @Test func aRepeatedMemberNameIsAnErrorAtItsPlace() {
        let (parsed, log) = document("{\n  \"minorUnits\": 1199,\n  \"minorUnits\": 99999999\n}", file: "feed.json")
        #expect(parsed == nil)
        #expect(log.errors.count == 1)
        #expect(log.errors.first?.line == 3 && log.errors.first?.column == 3, "\(log.diagnostics)")
        #expect(log.errors.first?.message.contains("appears twice") == true)
        // In a large object too (the names are kept in a set from 16 on).
        let members = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k3\": 0"]
        #expect(document("{" + members.joined(separator: ",") + "}").0 == nil)
        #expect(document("{" + members.dropLast().joined(separator: ",") + "}").0 != nil)
    }

    @Test func datesAreISO8601Exactly() {
        for text in ["+202-06-02", "2026-+6-+2", "2026-6-2", " 2026-06-02", "2026-06-02 ", "20260602", "02026-06-02"] {
            #expect(CivilDate(iso8601: text) == nil, "\(text)")
        }
        #expect(CivilDate(iso8601: "2026-06-02") == CivilDate(year: 2026, month: 6, day: 2))
        for text in ["2026-06-02T10:00:00+99:99", "2026-06-02T10:00:00+14:01", "2026-06-02T10:00:00-15:00", "2026-06-02T10:00:00+05:60"] {
            #expect(Instant(iso8601: text) == nil, "\(text)")
        }
        #expect(Instant(iso8601: "2026-06-02T10:00:00+14:00") != nil)
        #expect(Instant(iso8601: "2026-06-02T10:00:00-12:00") != nil)
    }

    @Test func theHorizonIsAYearAfterTheBuild() {
        #expect(!DateHorizon.isPast(DateHorizon.today))
        #expect(!DateHorizon.isPast(DateHorizon.today.adding(days: 366)))
        #expect(DateHorizon.isPast(DateHorizon.today.adding(days: 367)))
        let lastMoment = Instant(secondsSinceEpoch: Int64(DateHorizon.lastDay.daysSinceEpoch + 1) * 86_400 - 1)
        #expect(!DateHorizon.isPast(lastMoment))
        #expect(DateHorizon.isPast(Instant(iso8601: "9998-01-01T00:00:00Z")!))
    }

    /// SOURCE_DATE_EPOCH sets the day of the build: data dated after it by more than a year is refused,
    /// the same data is built as of a later day.
    @Test func sourceDateEpochSetsTheDayOfTheBuild() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write(#"[{"id": 1, "name": "Lunch", "category": "food", "amount": 7.5, "date": "2031-06-02", "accountName": "Visa"}]"#,
                  to: data.appendingPathComponent("transactions/transactions.json"))
        let arguments = ["check", "--data", data.path]
        let refused = try NestEggBinary.run(arguments)
        #expect(refused.status == 65 && refused.stderr.contains("transactions/transactions.json:1:"), "\(refused.stderr)")
        let later = try NestEggBinary.run(arguments, environment: ["SOURCE_DATE_EPOCH": "1924992000"])  // 2031-01-01
        #expect(later.status == 0, "\(later.stderr)")
    }

    @Test func currencyCodesAreISO4217s() {
        #expect(Currency(code: "ZZZ") == nil)
        #expect(Currency(code: "GBP") != nil && Currency(code: "HRK") != nil && Currency(code: "XAU") != nil)
        #expect(Currency.isoCodes.count > 200)
    }

    @Test func namesSpelledTwoWaysAreAnError() {
        let problems = DataFolder.spellingTwins(["starling/feed/caf\u{E9}-1.json", "starling/feed/cafe\u{301}-1.json", "starling/feed/b.json"])
        #expect(problems.count == 1)
        #expect(problems.first?.severity == .error)
    }
}

/// The second hunt's findings (by someone who had not seen the first list), each through the binary
/// or the template loader.
@Suite(.serialized) struct HostileHuntTwoTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// A value inside an `<svg>` of a Markdown template is HTML (the renderer lifts each SVG past
    /// cmark-gfm as it is), so it is escaped for HTML, and a `<style>` there is refused.
    @Test func aValueInAnSVGIsEscapedForHTML() throws {
        let template = try Template("# Of {{name}}\n\n<svg><text>{{name}}</text></svg>\n", kind: .markdown)
        #expect(template.placements.map(\.placement) == [.heading, .htmlText])
        let page = try template.render(.object(["name": .text("Q<img src=x onerror=alert(1)>")]))
        #expect(page.contains("<svg><text>Q&lt;img src=x onerror=alert(1)&gt;</text></svg>"), "\(page)")
        #expect(throws: Template.ParseError.self) { try Template("<svg><style>{{name}}</style></svg>\n", kind: .markdown) }
        #expect(throws: Template.ParseError.self) { try Template("{{#html}}<svg><desc>x</desc><style>{{name}}</style></svg>{{/html}}\n", kind: .markdown) }
    }

    /// A scheme the template writes before a value in a URL (`javascript:{{x}}`) is refused: the
    /// browser undoes the value's percent-encoding and runs it.
    @Test func aValueAfterATemplatesSchemeIsRefused() throws {
        for text in [#"<a href="javascript:{{v}}">z</a>"#, #"<a HREF='JavaScript:void({{v}})'>z</a>"#, #"<object data="data:text/html,{{v}}"></object>"#,
                     #"<img srcset="a.png 1x, javascript:{{v}} 2x">"#, #"<a href="&#106;avascript:{{v}}">z</a>"#] {
            #expect(throws: Template.ParseError.self, "\(text)") { try Template(text + "\n", kind: .markdown) }
            #expect(throws: Template.ParseError.self, "\(text)") { try Template(text + "\n", kind: .html) }
        }
        #expect(throws: Template.ParseError.self) { try Template("[x](javascript:{{v}})\n", kind: .markdown) }
        for text in [#"<a href="{{root}}{{v}}">z</a>"#, #"<a href="https://example.org/{{v}}">z</a>"#, #"<a href="mailto:{{v}}">z</a>"#,
                     "[x]({{root}}{{v}})", #"<a href="/x?y=a:b&z={{v}}">z</a>"#] {
            #expect(try Template(text + "\n", kind: .markdown).placements.last?.placement == .url, "\(text)")
        }
    }

    /// A file whose name is not UTF-8 text, added to a signed statements folder, is named by
    /// `verify` (exit 65), never passed over.
    @Test func verifyNamesAFileWhoseNameIsNotText() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        #expect(try NestEggBinary.run(["build", "-q", "--data", Self.fixtures.path, "--output", site.path]).status == 0)
        let statements = site.appendingPathComponent("statements")
        #expect(try NestEggBinary.run(["verify", statements.path]).status == 0)
        // A raw byte 0xFF in the name (not the replacement character): written with the C library.
        var raw = Array((statements.path + "/personal/2026-10").utf8) + [0xFF] + Array(".html".utf8) + [0]
        let descriptor = raw.withUnsafeMutableBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(descriptor >= 0)
        close(descriptor)
        let forged = try NestEggBinary.run(["verify", statements.path])
        #expect(forged.status == 65, "\(forged.stderr)")
        #expect(forged.stderr.contains("\\xFF") && forged.stderr.contains("not UTF-8"), "\(forged.stderr)")
    }

    /// `fixtures --out` into its own folder replaces a symbolic link put in a file's or a folder's
    /// place; it never writes through it.
    @Test func fixturesNeverWriteThroughALink() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let out = work.appendingPathComponent("fx"), victim = work.appendingPathComponent("victim.txt"), victims = work.appendingPathComponent("victims")
        #expect(try NestEggBinary.run(["fixtures", "--scale", "1", "--out", out.path]).status == 0)
        try write("precious", to: victim)
        try FileManager.default.createDirectory(at: victims, withIntermediateDirectories: true)
        let transactions = out.appendingPathComponent("transactions/transactions.json")
        try FileManager.default.removeItem(at: transactions)
        try FileManager.default.createSymbolicLink(at: transactions, withDestinationURL: victim)
        try FileManager.default.removeItem(at: out.appendingPathComponent("transfers"))
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("transfers"), withDestinationURL: victims)
        let again = try NestEggBinary.run(["fixtures", "--scale", "1", "--out", out.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victims.path).isEmpty)
        var status = stat()
        #expect(lstat(transactions.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG, "the link was replaced by a file")
    }

    /// `serve` does not serve nestegg's hidden files (the ownership marker): they are no page.
    @Test func serveAnswersNoHiddenFile() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try write("x", to: root.appendingPathComponent(".nestegg-output"))
        try write("<p>x</p>", to: root.appendingPathComponent("index.html"))
        #expect(PreviewServer.resolve("/.nestegg-output", in: root) == .missing)
        #expect(PreviewServer.resolve("/%2Enestegg-output", in: root) == .missing)
        #expect(PreviewServer.resolve("/index.html", in: root) == .file(root.appendingPathComponent("index.html")))
    }
}

private extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}
