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

/// The transactions and insights pages through the `nestegg` binary, as a user runs it.
@Suite(.serialized) struct TransactionsEndToEndTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    @Test func theFixturesBuildTransactionAndInsightPages() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let files = snapshot(output).mapValues { unpadded(String(decoding: $0, as: UTF8.self)) }
        for category in ["index", "food", "health", "entertainment", "shopping", "travel", "eating-out", "gifts-donations"] {
            #expect(files["transactions/\(category).md"] != nil && files["transactions/\(category).html"] != nil, "missing \(category)")
        }
        for month in ["index", "2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"] {
            #expect(files["insights/\(month).md"] != nil, "missing insights/\(month)")
        }
        let all = try #require(files["transactions/index.md"])
        #expect(all.hasPrefix("# All transactions\n\n**All ("))
        #expect(all.contains("| Bank account |"), "the bank accounts' payments join the list, marked by source")
        #expect(all.contains("| Transactions app |"))
        #expect(all.contains("*(not counted)*"))
        #expect(all.contains(try #require(all.firstMatch(of: /\[Dishoom\]\[(p[0-9]+)\] \(pending\)/).map { "\n[\($0.1)]: ../payees/dishoom.md\n" })))
        #expect(all.contains("[Eating out](../transactions/eating-out.md)"))
        #expect(!all.contains("Northwind"), "money in is not spending")
        #expect(!all.contains("[Saving]"), "a transfer to one's own account (category SAVING) is not spending")
        #expect(all.contains("**Spent in ") && all.contains(" pinned transactions on all pages: £"))
        #expect(all.contains("The newest 148 of 348 transactions:\n[Older →](../transactions/index.page2.md)\n[Oldest](../transactions/index.page1.md)"),
                "the sample's 348 rows, 100 to an older page counted from the oldest: the entry page holds the newest 148, never fewer than 100")
        #expect(all.contains("98 transactions; spent in the pinned ones"), "November's 98 whole on the page a visitor opens")
        let html = try #require(files["transactions/index.html"])
        #expect(html.contains(#"<summary>Menu</summary>\#n<nav aria-label="Sections">"#) && html.contains(#"href="../insights/index.html">Insights</a>"#))
        #expect(html.contains(#"<strong>All ("#))
        let insights = try #require(files["insights/index.md"])
        #expect(insights.contains("## Spending in GBP") && insights.contains("## Spending in EUR"))
        #expect(insights.contains("| Category | Jun 2026 | Jul 2026 | Aug 2026 | Sep 2026 | Oct 2026 | Nov 2026 so far |"))
        let index = try #require(files["index.md"])
        #expect(index.contains("## Spending by category"))
        #expect(index.contains("| Top categories, Nov 2026 so far | Spent | Share | Transactions |"))
        #expect(index.contains("[Spending by category →](insights/index.md)"))
    }

    @Test func aBadTransactionStopsTheBuildNamingFileLineAndPath() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        try write("""
        [{"id": 1, "name": "a", "category": "food", "amount": 1, "date": "2026-11-16", "accountName": "A"},
         {"id": 2, "name": "b", "category": "food", "amount": 1, "date": "yesterday", "accountName": "A"}]
        """, to: data.appendingPathComponent("transactions/transactions.json"))
        let result = try NestEggBinary.run(["build", "--data", data.path, "--output", work.appendingPathComponent("o").path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("transactions/transactions.json:2:66: error: expected an ISO 8601 date-time"), "\(result.stderr)")
        #expect(result.stderr.contains("(at $[1].date)"))
    }
}
