import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggSupport
@testable import NestEggSynthetic

/// Issue 51's "done when", read off the built pages as a household reads them, on two sites: the
/// fixtures', and a larger synthetic household's (ten accounts, one in euros) given the fixtures'
/// exchange rates and budgets of its own. Each check reads the written Markdown or the HTML's
/// visible text, not the report's values, so a page that says something else fails it.
@Suite(.serialized) struct OneStoryTests {
    struct BuiltSite: Sendable {
        let name: String
        let data: URL
        let output: URL

        func markdown(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path + ".md"), encoding: .utf8)
        }

        /// Every page's path (without its extension), found by its `.md`.
        var paths: [String] {
            let found = FileManager.default.enumerator(atPath: output.path)?.compactMap { $0 as? String } ?? []
            return found.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
        }

        /// The text a reader sees on a page's HTML: scripts, styles and tags left out, a few
        /// entities read back.
        func visibleText(_ path: String) throws -> String {
            var html = try String(contentsOf: output.appendingPathComponent(path + ".html"), encoding: .utf8)
            for element in ["script", "style"] {
                html = html.replacingOccurrences(of: "<\(element)[^>]*>[\\s\\S]*?</\(element)>", with: " ", options: .regularExpression)
            }
            html = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            for (entity, text) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
                html = html.replacingOccurrences(of: entity, with: text)
            }
            return html
        }
    }

    /// The two sites, built once.
    static let sites: [BuiltSite] = {
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        let work = try! temporaryFolder()
        let synthetic = work.appendingPathComponent("synthetic")
        _ = try! SyntheticData(scale: 1, seed: 51).write(to: synthetic)
        try! FileManager.default.createDirectory(at: synthetic.appendingPathComponent("rates"), withIntermediateDirectories: true)
        try! FileManager.default.copyItem(at: fixtures.appendingPathComponent("rates/GBP.json"), to: synthetic.appendingPathComponent("rates/GBP.json"))
        try! write("""
            {"title": "A larger household", "baseCurrency": "GBP",
             "budgets": {"Groceries and eating out": "900.00", "Shopping": "400.00", "Travel": "300.00", "Bills and services": "700.00"}}
            """, to: synthetic.appendingPathComponent("nestegg.json"))
        return [("fixtures", fixtures), ("synthetic", synthetic)].map { name, data in
            let output = work.appendingPathComponent("Output-\(name)")
            var build = Build(options: BuildOptions(data: data, output: output))
            build.progress = { _ in }
            _ = try! build.run()
            return BuiltSite(name: name, data: data, output: output)
        }
    }()

    /// The first captures of `pattern` in `text`, each match's groups.
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    /// Every start-page "Spent in <month>" is one figure, and the budgets' whole-month line gives
    /// the same before conversion: one answer to "what did we spend this month?".
    @Test(arguments: ["fixtures", "synthetic"]) func everySpentOfAMonthIsOneFigure(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        let start = try site.markdown("index")
        var figures: [String: Set<String>] = [:]
        for groups in Self.matches(#"Spent in (\w{3} \d{4})(?: so far)?(?: \([^)]*\))?:\*?\*? \*\*\[([^\]]+)\]"#, in: start) {
            figures[groups[0], default: []].insert(groups[1])
        }
        #expect(!figures.isEmpty, "\(site.name): the start page names no month's spending")
        for (month, values) in figures { #expect(values.count == 1, "\(site.name): Spent in \(month): \(values)") }
        let budgets = try site.markdown("budgets/index")
        var compared = 0
        for groups in Self.matches(#"Spent in every category in (\w{3} \d{4})(?: so far)?: [^(]*\(([^)]+?) before conversion"#, in: budgets) {
            guard let values = figures[groups[0]] else { continue }
            compared += 1
            #expect(values == [groups[1]], "\(site.name): budgets \(groups[0]): \(groups[1]) against \(values)")
        }
        #expect(compared > 0, "\(site.name): the budgets name no month the start page does")
        // No other start-page figure is just "Spent".
        #expect(Self.matches(#"(?m)^\s*- Spent: "#, in: start).isEmpty, "\(site.name)")
    }

    /// "Net worth" means one figure wherever a page gives one.
    @Test(arguments: ["fixtures", "synthetic"]) func netWorthIsOneFigureOnEveryPage(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        var figures: [String: Set<String>] = [:]
        for path in site.paths {
            for line in try site.markdown(path).split(separator: "\n") where line.contains("Net worth") {
                for groups in Self.matches(#"(-?(?:£|€|US\$)[\d,]+\.\d\d)"#, in: String(line)) { figures[groups[0], default: []].insert(path) }
            }
        }
        #expect(figures.count == 1, "\(site.name): net worth figures and their pages: \(figures)")
    }

    /// No savings rate reads below −100% (a month whose pay has not come has none yet).
    @Test(arguments: ["fixtures", "synthetic"]) func noSavingsRateBelowMinusAHundred(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        var rates: [Int] = []
        for path in ["index"] + site.paths.filter({ $0.hasPrefix("cashflow/") }) {
            let text = try site.markdown(path)
            rates += Self.matches(#"Savings rate(?: +\|)?:? *\*?\*?\[?(-?\d+)%"#, in: text).compactMap { Int($0[0]) }
            // The cash-flow index's table: the savings rate is the fifth column.
            for line in text.split(separator: "\n") where line.hasPrefix("| [") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                if cells.count > 5, cells[5].hasSuffix("%"), let rate = Int(cells[5].dropLast()) { rates.append(rate) }
            }
        }
        #expect(!rates.isEmpty, "\(site.name): no savings rate found to check")
        #expect(rates.allSatisfy { $0 >= -100 }, "\(site.name): \(rates.filter { $0 < -100 })")
    }

    /// Every start-page round-up week links the page of that week (its days in the page's title).
    @Test(arguments: ["fixtures", "synthetic"]) func everyWeekCardLinksItsWeek(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        let links = Self.matches(#"round-up, ([^:]+?)(?: so far)?: \*\*\[[^\]]+\]\((roundups/[^)]+)\.md\)"#, in: try site.markdown("index"))
        #expect(!links.isEmpty, "\(site.name)")
        for link in links where link[1] != "roundups/index" {
            let title = try site.markdown(link[1]).split(separator: "\n").first.map(String.init) ?? ""
            #expect(title.contains(link[0]), "\(site.name): the card of \(link[0]) opens \(link[1]), '\(title)'")
        }
    }

    /// The transactions list a visitor opens holds at least the newest 100 (or all of them).
    @Test(arguments: ["fixtures", "synthetic"]) func theFirstTransactionsPageHoldsTheNewest(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        let text = try site.markdown("transactions/index")
        let all = try #require(Int(Self.matches(#"\*\*All \(([\d,]+)\)\*\*"#, in: text).first?[0].replacingOccurrences(of: ",", with: "") ?? ""))
        let rows = text.split(separator: "\n").filter { $0.range(of: #"^\| \d{1,2} \w{3} \d{4} "#, options: .regularExpression) != nil }.count
        #expect(rows >= min(100, all), "\(site.name): \(rows) rows of \(all) on the first page")
    }

    /// The data's own words stay off the pages: no transfer user's id, no ISO week label, no "UID",
    /// no "unpinned" in any page's visible text (the data notes page, which quotes the data, aside).
    @Test(arguments: ["fixtures", "synthetic"]) func theDatasOwnWordsAreNotShown(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        let dataset = DataLoader.load(try DataFolder(root: site.data), log: DiagnosticLog())
        let ids = Set(dataset.transfers.users.map(\.uid) + dataset.transfers.transfers.flatMap { [$0.fromUid, $0.toUid] }).filter { $0.count >= 8 }
        #expect(!ids.isEmpty, "\(site.name)")
        var found: [String] = []
        for path in site.paths where path != DataNotesReport.path && FileManager.default.fileExists(atPath: site.output.appendingPathComponent(path + ".html").path) {
            let text = try site.visibleText(path)
            if text.range(of: "unpinned", options: .caseInsensitive) != nil { found.append("\(path): unpinned") }
            if let week = text.range(of: #"\b\d{4}-W\d{2}\b"#, options: .regularExpression) { found.append("\(path): \(text[week])") }
            if text.range(of: #"\bUID\b"#, options: .regularExpression) != nil { found.append("\(path): UID") }
            if let id = ids.first(where: { text.contains($0) }) { found.append("\(path): \(id)") }
        }
        #expect(found.isEmpty, "\(site.name): \(found.prefix(8))")
    }

    /// The flow diagrams name every flow in full: no label cut with "…".
    @Test(arguments: ["fixtures", "synthetic"]) func noFlowLabelIsCut(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        var diagrams = 0
        for path in site.paths where path.hasPrefix("cashflow/") {
            let html = try String(contentsOf: site.output.appendingPathComponent(path + ".html"), encoding: .utf8)
            for groups in Self.matches(#"(<svg class="chart chart-flow"[\s\S]*?</svg>)"#, in: html) {
                diagrams += 1
                #expect(!groups[0].contains("…"), "\(site.name): \(path)")
            }
        }
        #expect(diagrams > 0, "\(site.name)")
    }

    /// The start page in the order a household asks: net worth, budgets and cash flow before the
    /// loans and the transfers.
    @Test(arguments: ["fixtures", "synthetic"]) func theStartPageAnswersFirstWhereWeStand(_ name: String) throws {
        let site = try #require(Self.sites.first { $0.name == name })
        let start = try site.markdown("index")
        func position(_ card: String) -> String.Index? { start.range(of: "- [\(card)")?.lowerBound }
        let first = ["Net worth", "Budgets", "Cash flow"].map { (card: $0, at: position($0)) }
        let later = ["Kiva loans", "Transfers"].compactMap { card in position(card).map { (card: card, at: $0) } }
        #expect(first.allSatisfy { $0.at != nil }, "\(site.name): \(first.filter { $0.at == nil }.map(\.card))")
        for early in first { for late in later { #expect(early.at! < late.at, "\(site.name): \(early.card) after \(late.card)") } }
    }
}
