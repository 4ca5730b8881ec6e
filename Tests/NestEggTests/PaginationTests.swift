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

/// Long lists split over pages: the helper's ranges, paths and bars, and a list through the binary.
@Suite struct PaginationTests {
    @Test func rangesCoverEveryItemOnceAtTheEdges() {
        #expect(Pagination.defaultPageSize == 100 && Pagination.defaultRowsPerPage == 500)
        #expect(Pagination(count: 0).ranges == [0..<0], "an empty list still has its one page")
        #expect(Pagination(count: 1).ranges == [0..<1])
        #expect(Pagination(count: 100).ranges == [0..<100], "exactly one page")
        #expect(Pagination(count: 101).ranges == [0..<100, 100..<101], "one more than a page")
        #expect(Pagination(count: 1_201, pageSize: 500).ranges == [0..<500, 500..<1_000, 1_000..<1_201])
        #expect(Pagination(count: 7, pageSize: 3).ranges == [0..<3, 3..<6, 6..<7])
        #expect(!Pagination(count: 100).isPaged && Pagination(count: 101).isPaged)
        #expect(Pagination(count: 1_201).count == 1_201 && Pagination(count: 0).count == 0)
    }

    @Test func itemsOfSeveralRowsShareAPageWhileTheyFit() {
        #expect(Pagination(rows: []).ranges == [0..<0])
        #expect(Pagination(rows: [53, 53, 53]).ranges == [0..<3], "the sample accounts fit on one page")
        #expect(Pagination(rows: [4, 4, 4], pageSize: 8).ranges == [0..<2, 2..<3])
        #expect(Pagination(rows: [4, 5, 3], pageSize: 8).ranges == [0..<1, 1..<3])
        #expect(Pagination(rows: [20, 1, 1], pageSize: 8).ranges == [0..<1, 1..<3], "an item larger than a page has a page of its own")
        #expect(Pagination(rows: Array(repeating: 53, count: 1_000)).ranges.count == 112, "nine accounts of 53 rows a page")
    }

    @Test func pathsKeepTheFirstPageAndCannotCollideWithSlugs() {
        #expect(Pagination.path("transactions/index", page: 1) == "transactions/index")
        #expect(Pagination.path("transactions/index", page: 2) == "transactions/index.page2")
        #expect(Pagination.path("transactions/food", page: 3) == "transactions/food.page3")
        // What the slug allocator gives names that look like later pages: never a page path.
        var allocator = SlugAllocator(reserved: ["index"])
        let slugs = ["Index", "Index 2", "Index.page2", "Food", "Food", "food page 2"].map { allocator.allocate($0) }
        #expect(slugs == ["index-2", "index-2-2", "index-page2", "food", "food-2", "food-page-2"])
        for slug in slugs { #expect(!slug.contains("."), "\(slug)") }
        #expect(Escape.markdown("transactions/index.page2.md") == "transactions/index.page2.md", "the link needs no escaping")
    }

    @Test func laterPagesSayWhereTheyAreInTheTitle() {
        let pagination = Pagination(count: 3_500, pageSize: 500)
        #expect(pagination.title("All transactions", page: 1) == "All transactions")
        #expect(pagination.title("All transactions", page: 2) == "All transactions (page 2 of 7)")
        let pages = pagination.pages(base: "loans/index", title: "Kiva loans")
        #expect(pages.map(\.path) == ["loans/index"] + (2...7).map { "loans/index.page\($0)" })
        #expect(pages.map(\.number) == Array(1...7))
        #expect(pages.last?.range == 3_000..<3_500)
    }

    @Test func theBarLinksPreviousNextFirstLastAndNeighbours() {
        let locale = SiteLocale.enGB
        let single = Pagination(count: 500, pageSize: 500).view(page: 1, base: "a/index", noun: "rows", locale: locale)
        #expect(!single.isPaged && !single.hasPrevious && !single.hasNext && single.links.isEmpty && single.rangeText == "")
        let empty = Pagination(count: 0).view(page: 1, base: "a/index", noun: "rows", locale: locale)
        #expect(!empty.isPaged && !empty.hasPrevious && !empty.hasNext)

        let two = Pagination(count: 501, pageSize: 500)
        let first = two.view(page: 1, base: "a/index", noun: "rows", locale: locale)
        #expect(first.isPaged && !first.hasPrevious && first.hasNext && first.nextHref == "a/index.page2.md")
        #expect(first.label == "Page 1 of 2" && first.rangeText == "1–500 of 501 rows")
        #expect(first.links.map(\.number) == ["1", "2"] && first.links.map(\.current) == [true, false])
        let last = two.view(page: 2, base: "a/index", noun: "rows", locale: locale)
        #expect(last.hasPrevious && !last.hasNext && last.previousHref == "a/index.md" && last.nextHref == "")
        #expect(last.rangeText == "501 of 501 rows")

        let seven = Pagination(count: 3_500, pageSize: 500)
        let middle = seven.view(page: 4, base: "t/food", noun: "transactions", locale: locale)
        #expect(middle.links.map(\.number) == ["1", "3", "4", "5", "7"])
        #expect(middle.links.map(\.gapBefore) == [false, true, false, false, true])
        #expect(middle.links.map(\.href) == ["t/food.md", "t/food.page3.md", "t/food.page4.md", "t/food.page5.md", "t/food.page7.md"])
        #expect(middle.rangeText == "1,501–2,000 of 3,500 transactions")
        let second = seven.view(page: 2, base: "t/food", noun: "transactions", locale: locale)
        #expect(second.links.map(\.number) == ["1", "2", "3", "7"] && second.links.map(\.gapBefore) == [false, false, false, true])
    }

    /// 201 transactions: All pages as 100 + 100 + 1, food (134) as 100 + 34, travel (67) whole.
    @Test func aLongListBuildsLinkedPagesWithoutLossOrDuplication() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), output = work.appendingPathComponent("site")
        let rows = (1...201).map { id in
            let time = String(format: "2026-06-%02dT%02d:%02d:00Z", 1 + id / 1_440, id / 60 % 24, id % 60)
            return #"{"id": \#(id), "name": "Purchase \#(id)", "category": "\#(id % 3 == 0 ? "travel" : "food")", "#
                + #""amount": 1.25, "date": "\#(time)", "accountName": "Card"}"#
        }
        try write("[\n" + rows.joined(separator: ",\n") + "\n]\n", to: data.appendingPathComponent("transactions/transactions.json"))
        let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = snapshot(output).mapValues { String(decoding: $0, as: UTF8.self) }

        func names(_ page: String) -> [String] {
            (files[page] ?? "").split(separator: "\n").compactMap { line in
                guard line.hasPrefix("| "), let range = line.range(of: "Purchase ") else { return nil }
                return String(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        let all = ["transactions/index.md", "transactions/index.page2.md", "transactions/index.page3.md"]
        #expect(all.map { names($0).count } == [100, 100, 1])
        #expect(files["transactions/index.page4.md"] == nil && files["transactions/index.page1.md"] == nil)
        let listed = all.flatMap(names)
        #expect(listed.count == 201 && Set(listed).count == 201, "every transaction once")
        #expect(listed.first == "201" && listed.last == "1", "newest first across the pages")

        #expect(["transactions/food.md", "transactions/food.page2.md"].map { names($0).count } == [100, 34])
        #expect(names("transactions/travel.md").count == 67 && files["transactions/travel.page2.md"] == nil)

        let first = try #require(files["transactions/index.md"])
        #expect(first.hasPrefix("# All transactions\n"))
        #expect(first.contains("Page 1 of 3, 1–100 of 201 transactions:\n**1**\n[2](../transactions/index.page2.md)\n"
            + "[3](../transactions/index.page3.md)\n[Next →](../transactions/index.page2.md)\n"), "a link a line, short in a terminal")
        #expect(first.contains("**Sum of 201 pinned transactions on all 3 pages: £251.25**"), "the sum is the whole list's")
        #expect(first.contains("[Food (134)](../transactions/food.md)"), "the filters count the whole category")
        #expect(first.contains("**All (201)**") && first.contains("201 transactions, newest first"), "the counts are the whole list's")
        let middle = try #require(files["transactions/index.page2.md"])
        #expect(middle.hasPrefix("# All transactions (page 2 of 3)\n"))
        #expect(middle.contains("[← Previous](../transactions/index.md)\n[1](../transactions/index.md)\n**2**\n"
            + "[3](../transactions/index.page3.md)\n[Next →](../transactions/index.page3.md)"))
        let last = try #require(files["transactions/index.page3.md"])
        #expect(last.contains("[← Previous](../transactions/index.page2.md)") && !last.contains("Next →"))
        let food = try #require(files["transactions/food.page2.md"])
        #expect(food.hasPrefix("# Transactions: Food (page 2 of 2)\n"))
        #expect(food.contains("**Sum of 134 pinned transactions in Food on all 2 pages: £167.50**"))

        let html = try #require(files["transactions/index.page2.html"])
        #expect(html.contains(#"<nav class="pagination" aria-label="Pages">"#))
        #expect(html.contains(#"<a href="../transactions/index.page3.html">Next →</a>"#))
        #expect(html.contains(#"<strong aria-current="page">2</strong>"#))
        #expect(html.contains(#"<title>All transactions (page 2 of 3) · "#))
        #expect(!(files["transactions/travel.html"] ?? "").contains("pagination"), "a short list has no bar")
    }
}
