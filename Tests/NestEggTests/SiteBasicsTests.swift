import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport

/// What every static site has: favicon, `noindex` by default, `404.html`, a sitemap and canonical
/// links only with a base URL, link-preview titles, and the settings that change them.
@Suite struct SiteBasicsTests {
    /// One transaction through the whole pipeline (``TransactionsReportTests/build(_:extra:)``), with `settings` as nestegg.json.
    func build(settings: String? = nil) throws -> [String: String] {
        try TransactionsReportTests().build(#"[{"id": 1, "name": "Lunch", "category": "food", "amount": 25.50, "date": "2026-11-02", "accountName": "Visa"}]"#,
                                            extra: settings.map { ["nestegg.json": $0] } ?? [:])
    }

    @Test func byDefaultPagesAreNotIndexedAndHaveNoSitemapOrCanonicalLink() throws {
        let site = try build()
        let page = try #require(site["transactions/index.html"])
        #expect(page.contains(#"<meta name="robots" content="noindex">"#))
        #expect(page.contains(#"<link rel="icon" href="data:image/svg+xml,"#))
        #expect(page.contains(#"<meta property="og:title" content="All transactions">"#))
        #expect(page.contains(#"<meta property="og:description" content="All transactions: a finance report of NestEgg by NestEgg.">"#))
        #expect(!page.contains("canonical") && !page.contains("og:url"))
        #expect(site["sitemap.xml"] == nil)
        let notFound = try #require(site["404.html"])
        #expect(notFound.contains("<h1>Page not found</h1>"))
        // Links from the host's root: a host serves the page at whatever address was missing.
        #expect(notFound.contains(#"<a href="/transactions/index.html">"#))
        #expect(notFound.contains(#"<link rel="stylesheet" href="/style.css">"#))
        #expect(!notFound.contains("404.md") && site["404.md"] == nil, "the 404 page is HTML only")
    }

    @Test func aBaseURLGivesCanonicalLinksAndASitemap() throws {
        let site = try build(settings: #"{"title": "Ours", "baseURL": "https://example.org/money", "allowIndexing": true}"#)
        let page = try #require(site["transactions/index.html"])
        #expect(!page.contains("noindex"))
        #expect(page.contains(#"<link rel="canonical" href="https://example.org/money/transactions/index.html">"#))
        #expect(page.contains(#"<meta property="og:url" content="https://example.org/money/transactions/index.html">"#))
        let sitemap = try #require(site["sitemap.xml"])
        #expect(sitemap.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"))
        #expect(sitemap.contains("<url><loc>https://example.org/money/index.html</loc></url>\n"))
        #expect(sitemap.contains("<url><loc>https://example.org/money/insights/2026-11.html</loc></url>\n"))
        #expect(!sitemap.contains("404"))
        // Under a base URL's path, the page for missing addresses links from that path.
        let notFound = try #require(site["404.html"])
        #expect(notFound.contains(#"<a href="/money/transactions/index.html">"#) && notFound.contains(#"href="/money/style.css""#))
        // Every page once, in the order of the paths' bytes (what a sharded build's merge writes from its parts' lists).
        let paths = sitemap.split(separator: "\n").filter { $0.hasPrefix("<url>") }
            .map { String($0.dropFirst("<url><loc>https://example.org/money/".count).dropLast(".html</loc></url>".count)) }
        #expect(Set(paths).count == paths.count && paths.count > 5)
        #expect(paths == paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } && paths.contains("transactions/index"))
    }

    @Test func theNewSettingsAreValidated() throws {
        let (doc, log) = document(#"{"allowIndexing": "yes", "remoteImages": 1, "baseURL": "ftp://example.org/"}"#, file: "nestegg.json")
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(log.errors.count == 3, "\(log.diagnostics)")
        #expect(!settings.allowIndexing && !settings.remoteImages && settings.baseURL == nil)
        let (good, goodLog) = document(#"{"allowIndexing": true, "remoteImages": true, "baseURL": "http://host.example"}"#)
        let read = SettingsLoader.settings(in: try #require(good))
        #expect(goodLog.diagnostics.isEmpty)
        #expect(read.allowIndexing && read.remoteImages && read.baseURL == "http://host.example/")
        for bad in ["https://", "//example.org/", "https://exa mple.org/", "https://example.org/?q", "javascript:alert(1)", "https://\"x/"] {
            #expect(SettingsLoader.baseURL(bad) == nil, "\(bad)")
        }
    }

    @Test func theVersionIsOneConstant() {
        #expect(NestEggVersion.current.split(separator: ".").count == 3)
    }
}

/// No request leaves a page unless `remoteImages` allows https images.
@Suite struct RemoteImagesTests {
    @Test func byDefaultNoImageFromDataIsShown() {
        let context = ReportContext(settings: Settings())
        #expect(GoalsReport.shownImage(SafeURL("https://images.example/a.jpg"), context: context) == nil)
    }

    @Test func remoteImagesAllowsHTTPSOnly() {
        var settings = Settings()
        settings.remoteImages = true
        let context = ReportContext(settings: settings)
        #expect(GoalsReport.shownImage(SafeURL("https://images.example/a.jpg"), context: context) == "https://images.example/a.jpg")
        #expect(GoalsReport.shownImage(SafeURL("http://images.example/a.jpg"), context: context) == nil)
        #expect(GoalsReport.shownImage(nil, context: context) == nil)
    }

    @Test func initialsAndTheirColourComeFromTheNameAlone() {
        #expect(Initials.of("Sara Lind") == "SL")
        #expect(Initials.of("mikael") == "M")
        #expect(Initials.of("User 7") == "U7")
        #expect(Initials.of("Anna-Karin Berg Holm") == "AK")
        #expect(Initials.of("---") == "?")
        #expect(Initials.of("Åsa Öberg") == "ÅÖ")
        #expect((1...6).contains(Initials.colour(of: "Sara")))
        #expect(Initials.colour(of: "Sara") == Initials.colour(of: "Sara"))
        #expect(Set(["Sara", "Tom", "Mikael", "Priya", "Sam", "Henrik", "Johan"].map(Initials.colour)).count > 2)
    }
}

/// Pages speak the customer's language: no data file paths or API shape names (those belong in
/// the console and `--summary`). Checked on the committed site, which the golden test keeps equal
/// to what Fixtures/ generate.
@Suite struct CustomerLanguageTests {
    @Test func noPageNamesADataFileOrAnAPIShape() {
        let site = snapshot(repositoryRoot.appendingPathComponent("Output"))
        var offending: [String] = []
        for (path, data) in site where path.hasSuffix(".md") && !path.hasPrefix("statements/") {
            let text = String(decoding: data, as: UTF8.self)
            for word in [".json", "/all shape", "the source's API"] where text.contains(word) { offending.append("\(path): \(word)") }
        }
        #expect(offending.isEmpty, "\(offending)")
    }
}

/// Data-quality notes have a page of their own, linked from every page's footer, naming files
/// inside the data folder only; without notes there is no such page and no link.
@Suite struct DataNotesTests {
    @Test func warningsGetAPageLinkedFromEveryFooter() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures"), to: data)
        try Data("{}".utf8).write(to: data.appendingPathComponent("starling/stray.json"))
        let site = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", site.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("starling/stray.json: warning: not part of the input contract"), "the console has it too")
        let notes = unpadded(try String(contentsOf: site.appendingPathComponent("data-notes.md"), encoding: .utf8))
        #expect(notes.contains("| starling/stray.json | | not part of the input contract; not read |"))
        #expect(!notes.contains(work.path), "no path of the machine that built it")
        for page in ["index.html", "roundups/index.html", "statements/index.html"] {
            let html = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
            #expect(html.contains("Data notes (1)</a>"), "\(page)")
        }
        // An account's own page links them without the site's count, which would make it depend on every file.
        for page in ["statements/personal/2026-10.html", "roundups/personal/2026-W43.html"] {
            let html = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
            #expect(html.contains("Data notes</a>") && !html.contains("Data notes ("), "\(page)")
        }

        let clean = work.appendingPathComponent("clean")
        #expect(try NestEggBinary.run(["build", "-q", "--data", repositoryRoot.appendingPathComponent("Fixtures").path, "--output", clean.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: clean.appendingPathComponent("data-notes.html").path))
        #expect(try !String(contentsOf: clean.appendingPathComponent("index.html"), encoding: .utf8).contains("Data notes"))
    }
}
