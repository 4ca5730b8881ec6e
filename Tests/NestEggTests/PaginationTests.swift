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

    @Test func pagesCountedFromTheOldestKeepTheirRowsAsTheListGrows() {
        #expect(OldestFirstPagination(count: 0).pageCount == 1 && OldestFirstPagination(count: 0).range(ofPage: 1) == 0..<0)
        #expect(OldestFirstPagination(count: 199).pageCount == 1 && !OldestFirstPagination(count: 199).isPaged)
        let list = OldestFirstPagination(count: 201)
        #expect(list.pageCount == 2 && list.newestFirst == [2, 1])
        // Positions are newest first: the newest page (the entry page) holds the newest 101 rows, never fewer than 100.
        #expect(list.range(ofPage: 2) == 0..<101 && list.range(ofPage: 1) == 101..<201)
        #expect([0, 1, 100, 101, 200].map(list.page(ofPosition:)) == [2, 2, 2, 1, 1])
        #expect([1, 2].map { list.path("transactions/index", page: $0) } == ["transactions/index.page1", "transactions/index"])
        #expect(OldestFirstPagination(count: 300).range(ofPage: 3) == 0..<100, "a full newest page")
        #expect(OldestFirstPagination(count: 399).range(ofPage: 3) == 0..<199, "a newest page short of two pages")

        /// Each page's rows (ids, newest first) by path, as a list of `ids` (newest first) pages them.
        func pages(_ ids: [Int], newestMonth: Int = 0) -> [String: [Int]] {
            let pagination = OldestFirstPagination(count: ids.count, newestMonth: newestMonth)
            var result: [String: [Int]] = [:]
            for (position, id) in ids.enumerated() { result[pagination.path("l", page: pagination.page(ofPosition: position)), default: []].append(id) }
            return result
        }
        let ids = Array((1...350).reversed())
        let before = pages(ids)
        #expect(before.keys.sorted() == ["l", "l.page1", "l.page2"] && before["l"]?.count == 150)
        #expect(before["l.page2"] == Array((101...200).reversed()), "page 2: rows 101–200 from the oldest")
        // A day's rows after the newest change the entry page only; enough of them add a page.
        let day = pages((351...355).reversed() + ids)
        #expect(day["l"]?.count == 155 && ["l.page1", "l.page2"].allSatisfy { day[$0] == before[$0] })
        let fifty = pages((351...399).reversed() + ids)
        #expect(fifty["l"]?.count == 199 && fifty["l.page3"] == nil)
        let more = pages((351...400).reversed() + ids)
        #expect(more["l"] == Array((301...400).reversed()) && more["l.page3"] == Array((201...300).reversed()),
                "the entry page's oldest hundred become page 3 under its number")
        #expect(["l.page1", "l.page2"].allSatisfy { more[$0] == before[$0] })
        // The newest month is shown whole: 180 rows of it take the entry page back to row 101 from the oldest.
        let month = pages(ids, newestMonth: 180)
        #expect(month.keys.sorted() == ["l", "l.page1"] && month["l"]?.count == 250 && month["l.page1"] == before["l.page1"])
        // But no more than five pages' worth of it.
        let long = pages(Array((1...2_000).reversed()), newestMonth: 1_900)
        #expect(long["l"]?.count == 500 && long["l.page15"] == Array((1_401...1_500).reversed()))
        // A row inserted among the old ones (between 150 and 151 from the oldest) shifts the pages at
        // and after it, never the pages before it.
        var inserted = ids
        inserted.insert(1_000, at: ids.firstIndex(of: 150)!)
        let shifted = pages(inserted)
        #expect(shifted["l.page1"] == before["l.page1"])
        #expect(shifted["l.page2"] == Array((151...199).reversed()) + [1_000] + Array((101...150).reversed()))
        #expect(shifted["l"]?.count == 151)
    }

    @Test func theBarOfAnOlderPageNamesOnlyItsOwnPlace() {
        let list = OldestFirstPagination(count: 3_750)
        #expect(list.pageCount == 37)
        let entry = list.view(page: 37, base: "t/food", noun: "transactions", dates: "1–9 Nov 2026", locale: .enGB)
        #expect(entry.isEntry && entry.isPaged && entry.label == "The newest 150 of 3,750 transactions")
        #expect(!entry.hasNewer && !entry.hasNewest && entry.olderHref == "t/food.page36.md" && entry.oldestHref == "t/food.page1.md")
        let older = list.view(page: 36, base: "t/food", noun: "transactions", dates: "3 Nov – 10 Nov 2026", locale: .enGB)
        #expect(!older.isEntry && older.label == "Page 36 from the oldest, transactions 3,501–3,600, 3 Nov – 10 Nov 2026")
        #expect(older.newerHref == "t/food.md" && !older.hasNewest && older.olderHref == "t/food.page35.md" && older.hasOldest)
        let middle = list.view(page: 2, base: "t/food", noun: "transactions", dates: "", locale: .enGB)
        #expect(middle.newerHref == "t/food.page3.md" && middle.newestHref == "t/food.md" && middle.olderHref == "t/food.page1.md" && !middle.hasOldest)
        #expect(middle.label == "Page 2 from the oldest, transactions 101–200")
        // The same page of a longer list: the same bar, but for the entry page's own.
        let longer = OldestFirstPagination(count: 9_999).view(page: 2, base: "t/food", noun: "transactions", dates: "", locale: .enGB)
        #expect(longer.label == middle.label && longer.newerHref == middle.newerHref && longer.olderHref == middle.olderHref)
        #expect(!OldestFirstPagination(count: 100).view(page: 1, base: "t/food", noun: "transactions", dates: "", locale: .enGB).isPaged)
    }

    /// 401 transactions, 400 in May and one in June, paged from the oldest: All as 100 (oldest) +
    /// 100 + 100 + 101 (the entry page, never fewer than 100), food (268) as 100 + 168, travel (133) whole.
    @Test func aLongListBuildsLinkedPagesWithoutLossOrDuplication() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data"), output = work.appendingPathComponent("site")
        let rows = (1...401).map { id in
            let time = id == 401 ? "2026-06-01T09:00:00Z" : String(format: "2026-05-%02dT%02d:%02d:00Z", 1 + id / 20, id / 60 % 24, id % 60)
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
        let all = ["transactions/index.md", "transactions/index.page3.md", "transactions/index.page2.md", "transactions/index.page1.md"]
        #expect(all.map { names($0).count } == [101, 100, 100, 100])
        #expect(files["transactions/index.page4.md"] == nil && files["transactions/index.page0.md"] == nil)
        let listed = all.flatMap(names)
        #expect(listed.count == 401 && Set(listed).count == 401, "every transaction once")
        #expect(listed.first == "401" && listed.last == "1", "newest first across the pages")
        #expect(names("transactions/index.page1.md").last == "1" && names("transactions/index.page1.md").first == "100", "page 1: the oldest hundred")

        #expect(["transactions/food.md", "transactions/food.page1.md"].map { names($0).count } == [168, 100])
        #expect(names("transactions/travel.md").count == 133 && files["transactions/travel.page1.md"] == nil)

        let entry = try #require(files["transactions/index.md"])
        #expect(entry.hasPrefix("# All transactions\n"))
        #expect(entry.contains("The newest 101 of 401 transactions:\n[Older →](../transactions/index.page3.md)\n"
            + "[Oldest](../transactions/index.page1.md)\n"), "a link a line, short in a terminal")
        #expect(entry.contains("**Spent in 401 pinned transactions on all pages: £501.25**"), "the sum is the whole list's")
        #expect(entry.contains("[Food (268)](../transactions/food.md)"), "the filters count the whole category")
        #expect(entry.contains("**All (401)**") && entry.contains("401 transactions, newest first"), "the counts are the whole list's")
        #expect(entry.contains("400 transactions in all (some on another page)"), "May's whole count, with a note")

        let middle = try #require(files["transactions/index.page2.md"])
        #expect(middle.hasPrefix("# All transactions (page 2 from the oldest)\n"))
        #expect(middle.contains("Page 2 from the oldest, transactions 101–200, ") && middle.contains("2026:\n[← Newer](../transactions/index.page3.md)\n"
            + "[Newest](../transactions/index.md)\n[Older →](../transactions/index.page1.md)\n"))
        for figure in ["(401)", "(268)", "401 transactions", "Spent in", "so far"] { #expect(!middle.contains(figure), "no list-wide figure on an older page: \(figure)") }
        #expect(middle.contains("**All** ·\n[Food](../transactions/food.md) ·\n[Travel](../transactions/travel.md)"), "the filters' names, without counts")
        #expect(middle.contains("100 transactions on this page (more of the month on another page); spent in the pinned ones here: **£125.00**."))
        let oldest = try #require(files["transactions/index.page1.md"])
        #expect(oldest.contains("[← Newer](../transactions/index.page2.md)\n[Newest](../transactions/index.md)") && !oldest.contains("Older →"))
        let food = try #require(files["transactions/food.page1.md"])
        #expect(food.hasPrefix("# Transactions: Food (page 1 from the oldest)\n") && !food.contains("Spent in"))

        let html = try #require(files["transactions/index.page2.html"])
        #expect(html.contains(#"<nav class="pagination" aria-label="Pages">"#))
        #expect(html.contains(#"<a href="../transactions/index.page1.html">Older →</a>"#))
        #expect(html.contains(#"<title>All transactions (page 2 from the oldest) · "#))
        #expect(!(files["transactions/travel.html"] ?? "").contains("pagination"), "a short list has no bar")
    }

    /// The promise of the layout, through the binary on the synthetic data: a day's payments (five,
    /// a day after the newest, in one account's feed, as `make bench` edits) change the lists'
    /// entry pages and the newest older page or two of the lists they fall in, and no other file of
    /// `transactions/`.
    @Test func aDaysTransactionsChangeOnlyTheEntryAndNewestPages() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        let fixtures = try NestEggBinary.run(["fixtures", "--scale", "1", "--seed", "42", "--out", data.path])
        #expect(fixtures.status == 0, "\(fixtures.stderr)")
        func build(_ name: String) throws -> [String: Data] {
            let output = work.appendingPathComponent(name)
            let result = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", output.path])
            #expect(result.status == 0, "\(result.stderr)")
            return snapshot(output).filter { $0.key.hasPrefix("transactions/") }
        }
        let before = try build("before")

        // Five payments a day after the feed's newest, copies of its newest payment.
        let feeds = data.appendingPathComponent("starling/feed")
        let feed = feeds.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: feeds.path).sorted().first))
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: feed)) as? [String: Any])
        var items = try #require(document["feedItems"] as? [[String: Any]])
        let payments = items.filter { ($0["direction"] as? String) == "OUT" && ($0["status"] as? String) == "SETTLED" }
        let newest = try #require(payments.max { ($0["transactionTime"] as! String) < ($1["transactionTime"] as! String) })
        let latest = try #require(items.compactMap { $0["transactionTime"] as? String }.max())
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let day = try #require(formatter.date(from: latest)).addingTimeInterval(86_400)
        for n in 0..<5 {
            var item = newest
            item["feedItemUid"] = "day-edit-\(n)"
            item["transactionTime"] = formatter.string(from: day.addingTimeInterval(Double(n) * 3_600))
            items.append(item)
        }
        document["feedItems"] = items
        try JSONSerialization.data(withJSONObject: document).write(to: feed)
        let after = try build("after")

        // A file's page (`transactions/index.page37` of `….page37.html` and `….page37.table-1.csv`) and its list (`transactions/index`).
        func page(_ file: String) -> String {
            let stem = file[..<(file.lastIndex(of: ".") ?? file.endIndex)]
            return String(stem.range(of: ".table-").map { stem[..<$0.lowerBound] } ?? stem)
        }
        func list(_ page: String) -> String { String(page.prefix { $0 != "." }) }
        func number(_ page: String) -> Int? { page.range(of: ".page").flatMap { Int(page[$0.upperBound...]) } }
        let changed = Set(Set(after.keys).union(before.keys).filter { before[$0] != after[$0] }.map(page))
        #expect(changed.contains("transactions/index"), "the entry page shows the new payments")
        // Every entry page may change (the filters' counts); an older page only if it is among the
        // newest two of its list (the all-transactions list and the payments' category).
        let older = changed.filter { number($0) != nil }
        for path in older {
            let top = after.keys.map(page).filter { list($0) == list(path) }.compactMap(number).max() ?? 0
            #expect(number(path)! >= top - 1, "\(path) changed, an older page than the newest two of \(top)")
        }
        #expect(Set(older.map(list)).count <= 2, "older pages of more lists than the payments fall in: \(older.sorted())")
        let olderBefore = before.keys.filter { $0.contains(".page") }
        #expect(olderBefore.count > 20, "the lists are paged (\(olderBefore.count) older files)")
        let kept = olderBefore.filter { before[$0] == after[$0] }
        #expect(kept.count >= olderBefore.count - 8, "\(olderBefore.count - kept.count) of \(olderBefore.count) older files changed")
    }
}
