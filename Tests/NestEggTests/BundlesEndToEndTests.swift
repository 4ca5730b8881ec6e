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

/// `nestegg build --bundles DIR`, through the binary: a folder per account that holds that account
/// and nothing of any other, whose links all stay inside it, and that `nestegg verify` accepts.
@Suite(.serialized) struct BundlesEndToEndTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    func loadFixtures() throws -> Dataset {
        let log = DiagnosticLog()
        return DataLoader.load(try DataFolder(root: fixtures), log: log)
    }

    /// Every link of a bundle file (HTML `href`/`src`, Markdown `](…)`), resolved from the file's folder.
    func links(in text: String, html: Bool) -> [String] {
        let pattern = html ? #"(?:href|src)="([^"]*)""# : #"\]\(([^)\s]*)\)"#
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func eachBundleHoldsItsAccountAloneAndEveryLinkStaysInside() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let bundles = work.appendingPathComponent("bundles")
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", work.appendingPathComponent("site").path,
                                            "--bundles", bundles.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("bundles: 2 folders, 17 statements"), "\(result.stderr)")
        let files = snapshot(bundles)
        let folders = Set(files.keys.compactMap { $0.split(separator: "/").count > 1 ? String($0.split(separator: "/")[0]) : nil })
        #expect(folders == ["personal", "euro-travel"])
        #expect(Set(files.keys.filter { !$0.contains("/") }) == [".nestegg-output", "manifest.json"])
        let personal = files.keys.filter { $0.hasPrefix("personal/") }.sorted()
        // Each statement's Markdown, HTML, CSV and camt.053.
        #expect(personal.filter { $0.hasPrefix("personal/statements/") }.count == 52)
        #expect(personal.contains("personal/index.html") && personal.contains("personal/style.css") && personal.contains("personal/manifest.json"))
        #expect(personal.contains("personal/roundups/2026-W43.md"))
        #expect(personal.allSatisfy { $0.hasSuffix(".md") || $0.hasSuffix(".html") || $0.hasSuffix(".css") || $0.hasSuffix("manifest.json")
            || $0.hasSuffix(".csv") || $0.hasSuffix(".camt053.xml") })
        let october = unpadded(String(decoding: try #require(files["personal/statements/2026-10.md"]), as: UTF8.self))
        #expect(october.contains("| [19–25 Oct 2026](../roundups/2026-W43.md) | 3 | £1.58 |"))
        #expect(october.contains("- **Sort code:** 60-83-71"))

        let dataset = try loadFixtures()
        let context = ReportContext(settings: dataset.settings)
        let records = StatementsReport.records(for: dataset, context: context)
        let slugs = ["personal", "euro-travel"]
        for (index, data) in dataset.accounts.enumerated() {
            let slug = slugs[index]
            let own = files.filter { $0.key.hasPrefix(slug + "/") }
            for (otherIndex, other) in dataset.accounts.enumerated() where otherIndex != index {
                let otherSlug = slugs[otherIndex]
                // What would give the other account away: its UID (and its ending), its numbers,
                // its folder, and each of its statements' balances.
                var secrets = [other.account.uid, String(other.account.uid.suffix(4)), "/\(otherSlug)/", "\(otherSlug)/"]
                secrets += [other.identifiers?.accountIdentifier, other.identifiers?.iban, other.identifiers?.printedIBAN].compactMap { $0 }
                secrets += records.filter { $0.account.uid == other.account.uid }
                    .flatMap { [$0.opening, $0.closing].compactMap { $0 } }.map(dataset.settings.locale.format)
                for (path, bytes) in own {
                    let text = String(decoding: bytes, as: UTF8.self)
                    for secret in Set(secrets) { #expect(!text.contains(secret), "\(path) gives away \(other.account.name): \(secret)") }
                    // The other account's name appears only where this account's own transactions
                    // name it (a transfer to it, as the bank printed it): in a table row, never a
                    // title, a heading or a link.
                    if path.hasSuffix(".md") {
                        for line in text.split(separator: "\n") where line.contains(other.account.name) {
                            #expect(line.hasPrefix("| ") && !line.contains("](") && !line.hasPrefix("| **"), "\(path): \(line)")
                            #expect(data.feed.contains { line.contains($0.counterPartyName) && $0.counterPartyName.contains(other.account.name)
                                || line.contains($0.reference) && $0.reference.contains(other.account.name) }, "\(path): \(line)")
                        }
                    }
                }
            }
            // Every link resolves to a file of the bundle.
            for (path, bytes) in own where path.hasSuffix(".md") || path.hasSuffix(".html") {
                let text = String(decoding: bytes, as: UTF8.self)
                let folder = URL(fileURLWithPath: "/" + path).deletingLastPathComponent()
                for link in links(in: text, html: path.hasSuffix(".html")) where !link.hasPrefix("#") && !link.hasPrefix("data:image/svg+xml") {
                    let target = folder.appendingPathComponent(link).standardizedFileURL.path.dropFirst()
                    #expect(target.hasPrefix(slug + "/") && files[String(target)] != nil, "\(path) links to \(link), outside its bundle")
                }
            }
        }

        for folder in [bundles, bundles.appendingPathComponent("personal"), bundles.appendingPathComponent("euro-travel")] {
            let verify = try NestEggBinary.run(["verify", folder.path])
            #expect(verify.status == 0, "\(verify.stderr)")
        }
        let top = try String(contentsOf: bundles.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(top.contains(#"{"path": "personal/statements/2026-10.md", "sha256": ""#))
        let own = try String(contentsOf: bundles.appendingPathComponent("euro-travel/manifest.json"), encoding: .utf8)
        #expect(own.contains(#"{"path": "statements/2026-10.md", "sha256": ""#) && !own.contains("personal"))
    }

    @Test func theBundlesFolderFollowsTheOutputFoldersRules() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site"), bundles = work.appendingPathComponent("bundles")
        func build(_ extra: [String]) throws -> NestEggBinary.Result {
            try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path] + extra)
        }
        // A folder nestegg did not write is never replaced.
        try write("keep me", to: bundles.appendingPathComponent("notes.txt"))
        let foreign = try build(["--bundles", bundles.path])
        #expect(foreign.status == 73)
        #expect(foreign.stderr.contains("refusing to replace this folder: it is not empty and nestegg did not write it"), "\(foreign.stderr)")
        #expect(try String(contentsOf: bundles.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: site.path), "nothing written")
        try FileManager.default.removeItem(at: bundles)
        // Not the output folder, not inside it, not around it; no extra file inside it.
        for (bundlesPath, output) in [(site.path, site.path), (site.appendingPathComponent("b").path, site.path), (work.path, site.path)] {
            let refused = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", output, "--bundles", bundlesPath])
            #expect(refused.status == 64, "\(bundlesPath): \(refused.stderr)")
            #expect(refused.stderr.contains("--bundles: refusing to write here"), "\(refused.stderr)")
        }
        let json = try build(["--bundles", bundles.path, "--json", bundles.appendingPathComponent("totals.json").path])
        #expect(json.status == 64)
        #expect(json.stderr.contains("it is inside the bundles folder"), "\(json.stderr)")
        // Written, then replaced whole: a file put into it is gone after the next build, which
        // leaves no staging folder behind.
        #expect(try build(["--bundles", bundles.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: bundles.appendingPathComponent(SiteWriter.marker).path))
        try write("stray", to: bundles.appendingPathComponent("personal/stray.md"))
        #expect(try build(["--bundles", bundles.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: bundles.appendingPathComponent("personal/stray.md").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".nestegg") }.isEmpty)
        // A build without --bundles leaves the folder as it is.
        #expect(try build([]).status == 0)
        #expect(FileManager.default.fileExists(atPath: bundles.appendingPathComponent("personal/index.md").path))
    }
}
