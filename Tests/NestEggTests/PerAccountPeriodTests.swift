import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggSupport
@testable import NestEggWrite

/// An account's pages depend on its own data only: its period in progress ends on its own latest
/// data, not on the newest date anywhere in the data folder. So a new transaction in one account,
/// later than every other date in the data, makes a rebuild rewrite that account's pages and the
/// site-wide pages, and no page of any other account (or goal); and the rebuild is what a clean
/// build of the edited data writes, byte for byte.
@Suite(.serialized) struct PerAccountPeriodTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    static func load(_ data: URL) throws -> Dataset {
        DataLoader.load(try DataFolder(root: data), log: DiagnosticLog())
    }

    /// Appends three copies of the newest item of `account`'s feed, the first a day after the
    /// data's latest instant (every source's), the others an hour apart.
    static func appendAfterEverything(_ data: URL, account: StarlingAccount, latest: Instant) throws {
        let file = data.appendingPathComponent(StarlingLoader.feedPath(of: account))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var items = try #require(object["feedItems"] as? [[String: Any]])
        let newest = try #require(items.max { ($0["transactionTime"] as! String) < ($1["transactionTime"] as! String) })
        for n in 0..<3 {
            var item = newest
            item["feedItemUid"] = "per-account-\(n)"
            item["counterPartyName"] = "A New Shop"
            item["transactionTime"] = Instant(millisecondsSinceEpoch: latest.millisecondsSinceEpoch + Int64(86_400 + n * 3_600) * 1000).utcText
            items.append(item)
        }
        object["feedItems"] = items
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }

    /// Every file of a built site, with its bytes and stamp (size and modification time: a file
    /// the rebuild kept keeps its stamp, one it wrote has a new one), the build cache left out.
    static func files(_ root: URL) -> [String: (bytes: Data?, stamp: FileStamp?)] {
        var result: [String: (bytes: Data?, stamp: FileStamp?)] = [:]
        for path in SiteWriter.listFiles(under: root) where path != BuildCache.fileName {
            let full = root.appendingPathComponent(path).path
            result[path] = (FileManager.default.contents(atPath: full), FileStamp(path: full))
        }
        return result
    }

    /// The entity whose page a file belongs to (``Page/entity``), `nil` for a site-wide page's
    /// file or a file that is no page's: a page's files are its path with `.md`, `.html`, and for
    /// a statement its CSV and camt.053.
    static func entities(of site: Site) -> [String: String] {
        var byFile: [String: String] = [:]
        for page in site.pages {
            guard let entity = page.entity else { continue }
            for suffix in [".md", ".html"] + StatementData.Format.allCases.map({ "." + $0.fileExtension }) {
                byFile[page.path + suffix] = entity
            }
        }
        return byFile
    }

    func build(_ data: URL, _ output: URL) throws -> NestEggBinary.Result {
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    @Test(arguments: [0, 1])
    func aNewTransactionInOneAccountRewritesItsPagesAndTheSitesOnly(_ which: Int) throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), site = work.appendingPathComponent("site")
        try FileManager.default.copyItem(at: fixtures, to: data)
        let before = try Self.load(data)
        let edited = before.accounts[which].account
        let latest = try #require(before.latestInstant)
        _ = try build(data, site)
        let first = Self.files(site)

        try Self.appendAfterEverything(data, account: edited, latest: latest)
        let after = try Self.load(data)
        // The data's as-of date moved: the site-wide pages' date is the edited account's newest.
        #expect(try #require(after.latestInstant) > latest)
        let rebuild = try build(data, site)
        #expect(rebuild.stderr.contains("unchanged since the last build, kept"), "\(rebuild.stderr)")
        let second = Self.files(site)

        let rewritten = Set(first.keys).union(second.keys).filter { path in
            first[path]?.bytes != second[path]?.bytes || first[path]?.stamp != second[path]?.stamp
        }
        // Each file's entity, by the pages of either build (the edited account may have new ones).
        let entities = Self.entities(of: SiteReport.build(before)).merging(Self.entities(of: SiteReport.build(after))) { a, _ in a }
        let own = Page.entity(of: edited)
        let others = rewritten.filter { path in entities[path].map { $0 != own } ?? false }.sorted()
        #expect(others.isEmpty, "rewritten pages of other accounts or goals: \(others.prefix(10))")
        // What the rebuild did rewrite: the account's own pages (its provisional statement) and
        // site-wide ones (the start page, which says "data as of").
        #expect(rewritten.contains { entities[$0] == own && $0.hasPrefix("statements/") })
        #expect(rewritten.contains("index.html") && rewritten.contains("index.md"))
        // The other accounts' pages are there, kept as they were.
        let otherAccountFiles = second.keys.filter { path in entities[path].map { $0 != own && $0.hasPrefix("starling") } ?? false }
        #expect(otherAccountFiles.count > 20)

        let clean = work.appendingPathComponent("clean")
        _ = try build(data, clean)
        let (incremental, fresh) = (snapshot(site), snapshot(clean))
        #expect(incremental.count > 100)
        let differing = Set(incremental.keys).union(fresh.keys).filter { incremental[$0] != fresh[$0] }.sorted()
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    /// The account's provisional statement runs to its own latest data and says so; the start page
    /// keeps the latest date of all.
    @Test func theProvisionalStatementEndsOnTheAccountsOwnLatestData() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        _ = try build(fixtures, site)
        let dataset = try Self.load(fixtures)
        let clock = dataset.settings.clock
        let siteAsOf = try #require(dataset.latestInstant.map(clock.date(of:)))
        let euro = try #require(dataset.accounts.first { $0.account.name == "Euro Travel" })
        let own = try #require(euro.latestFeedInstant.map(clock.date(of:)))
        #expect(own < siteAsOf, "the fixtures' Euro Travel account ends before the rest of the data")
        let ownText = dataset.settings.locale.format(own), siteText = dataset.settings.locale.format(siteAsOf)
        let page = try String(contentsOf: site.appendingPathComponent("statements/euro-travel/\(CalendarMonth(own)).md"), encoding: .utf8)
        #expect(page.contains("- **Status:** Provisional statement, to \(ownText), the account's latest data"), "\(page.prefix(800))")
        #expect(!page.contains(siteText))
        let start = try String(contentsOf: site.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(start.contains("Data as of \(siteText)."))
    }
}
