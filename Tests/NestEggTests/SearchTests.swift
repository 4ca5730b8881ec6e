import Foundation
import Testing
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport

/// The search index: one entry per page (a list's first page standing for the rest), account, goal,
/// category and counterparty, never one per transaction; each opens a page of the site.
@Suite struct SearchTests {
    @Test func theIndexHasOneEntryPerThingAndEachOpensAPage() throws {
        let dataset = try NetWorthTests.fixtures()
        let site = SiteReport.build(dataset)
        let paths = Set(site.pages.map(\.path))
        #expect(paths.contains(SearchReport.path))
        // A page, or a row of one: an occasional payee opens its first row (`payees/occasional#payee-cafe`).
        for entry in site.search {
            let page = String(entry.path.prefix { $0 != "#" })
            #expect(paths.contains(page) && (page == entry.path || entry.kind == .counterparty), "\(entry.title) opens \(entry.path), which is no page")
        }
        #expect(!site.search.contains { SearchReport.isLaterPage($0.path) || $0.path == SearchReport.path || $0.path == "index" })
        let kinds = Set(site.search.map(\.kind))
        #expect(kinds == Set(SearchReport.Kind.allCases), "\(kinds)")
        // Counterparties once each, whatever their spelling: Starling's and the transactions app's.
        let counterparties = site.search.filter { $0.kind == .counterparty }
        #expect(Set(counterparties.map { Text.groupingKey($0.title) }).count == counterparties.count)
        let pingo = try #require(counterparties.first { $0.title == "Pingo Doce" })
        #expect(pingo.detail == "Euro Travel")
        #expect(counterparties.contains { $0.title == "Waitrose" && $0.detail == "the transactions app" }, "an app entry's payee is its provider")
        #expect(!counterparties.contains { $0.title == "Weekly shop" }, "the app's words for an entry are no payee")
        let feedItems = dataset.accounts.reduce(0) { $0 + $1.feed.count } + dataset.transactions.transactions.count
        #expect(counterparties.count < feedItems / 4, "\(counterparties.count) counterparties of \(feedItems) payments")
        // Sections by their name in the menu; accounts, goals and categories by their pages.
        #expect(site.search.contains { $0.kind == .section && $0.title == "Transactions" && $0.detail == "All transactions" })
        #expect(site.search.contains { $0.kind == .account && $0.title == "Personal" && $0.path == "statements/personal/index" })
        // An account's own pages are reached from its entry, not listed one by one.
        #expect(!site.search.contains { $0.path.hasPrefix("statements/personal/20") || $0.path.hasPrefix("roundups/personal/") })
        #expect(site.search.contains { $0.kind == .category && $0.path == "transactions/food" })
        #expect(site.search.contains { $0.kind == .goal && $0.title == "Summer in Lisbon" })
        // In order: by kind, then by title.
        #expect(site.search == site.search.sorted { ($0.kind, $0.title) < ($1.kind, $1.title) || ($0.kind == $1.kind && $0.title == $1.title && $0.path < $1.path) })
    }

    @Test func laterPagesOfAListAreLeftOut() {
        #expect(SearchReport.isLaterPage("transactions/index.page2"))
        #expect(SearchReport.isLaterPage("loans/index.page12"))
        #expect(!SearchReport.isLaterPage("transactions/index"))
        #expect(!SearchReport.isLaterPage("goals/1-a.pagex"))
        #expect(SearchReport.kind(of: "countries/ke") == .country)
        #expect(SearchReport.kind(of: "statements/personal/2026-10") == .page)
        #expect(SearchReport.kind(of: "statements/personal/index") == .page)
        #expect(SearchReport.kind(of: "transactions/categories") == .page)
    }

    /// A counterparty's entry names three places at most, and says how many more: the index stays
    /// one short line a counterparty however many accounts pay it.
    @Test func aCounterpartyNamesThreePlacesAtMost() {
        #expect(SearchReport.placesLine([]) == "")
        #expect(SearchReport.placesLine(["Personal", "Joint", "Euro Travel"]) == "Personal, Joint, Euro Travel")
        let many = (1...1_000).map { "Account \($0)" }
        #expect(SearchReport.placesLine(many) == "Account 1, Account 2, Account 3 and 997 more")
    }

    /// Every settled line of every statement is a transaction of the search page, in its
    /// statement's chunk (`search/<account>/<month>`), found by the data's payee, reference and
    /// exact amount, and opening its statement at its row; the index lists every chunk, newest month first.
    @Test func everyStatementLineIsATransactionOfTheSearch() throws {
        let dataset = try NetWorthTests.fixtures()
        let site = SiteReport.build(dataset)
        let chunked = site.pages.filter { $0.searchChunk != nil && $0.statementData != nil }
        #expect(!chunked.isEmpty)
        // Each feed item, by what the search shows of it: the data's own fields, not the report's.
        var items: [String: Int] = [:]
        for account in dataset.accounts {
            for item in account.feed {
                let payee = item.counterPartyName.isEmpty ? Text.humanized(item.source.rawValue) : item.counterPartyName
                let key = [account.account.name, Text.singleLine(payee), Text.singleLine(item.reference), item.signedAmount.decimalString].joined(separator: "|")
                items[key, default: 0] += 1
            }
        }
        var listed: [String: [String]] = [:]
        var rowCount = 0
        for page in chunked {
            let chunk = try #require(page.searchChunk)
            #expect(page.path.hasPrefix("statements/") && page.template == StatementsReport.statementTemplate)
            let parts = page.path.split(separator: "/")
            #expect(chunk.path == "search/\(parts[1])/\(parts[2])")
            listed[String(parts[2]), default: []].append(String(parts[1]))
            let rows = chunk.rows()
            #expect(!rows.isEmpty)
            for (index, row) in rows.enumerated() {
                #expect(row.target == page.path + "#line-\(index + 1)")
                #expect(row.day.count == 10 && row.day.hasPrefix(String(parts[2])), "\(row.day) in \(page.path)")
                let key = [row.account, row.payee, row.reference, row.amount].joined(separator: "|")
                #expect((items[key] ?? 0) > 0, "\(key) is no feed item of the data")
                items[key, default: 0] -= 1
                // Exact: the amount reads back as the minor units it was written from.
                let currency = try #require(dataset.accounts.first { $0.account.name == row.account }?.account.currency)
                let magnitude = try Money.parse(decimal: row.amount.hasPrefix("-") ? String(row.amount.dropFirst()) : row.amount, currency: currency)
                #expect(magnitude.decimalString == (row.amount.hasPrefix("-") ? String(row.amount.dropFirst()) : row.amount))
            }
            rowCount += rows.count
        }
        #expect(rowCount > 50, "\(rowCount) transactions")
        // The index's months: newest first, each with the accounts that have a chunk then.
        let months = site.searchMonths
        #expect(months.map(\.month) == months.map(\.month).sorted(by: >))
        #expect(Dictionary(uniqueKeysWithValues: months.map { ($0.month, $0.accounts.sorted()) }) == listed.mapValues { $0.sorted() })
        // Some transaction has a reference and is paid out: the browser test finds one by each field.
        #expect(chunked.flatMap { $0.searchChunk!.rows() }.contains { !$0.reference.isEmpty && $0.amount.hasPrefix("-") })
    }

    /// Every entry of the transactions app and every pending Starling payment (no statement shows
    /// them) is in the chunk of the page of the list of every transaction that shows it, found by
    /// the data's name and exact amount (money out negative), linking to its row on that page; the
    /// index lists those chunks in the list's order. Nothing else is in them.
    @Test func everyListRowNoStatementShowsIsATransactionOfTheSearch() throws {
        let dataset = try NetWorthTests.fixtures()
        let site = SiteReport.build(dataset)
        // The data's own fields, not the report's.
        var items: [String: Int] = [:]
        for transaction in dataset.transactions.transactions {
            let payee = Text.singleLine(transaction.provider ?? "")
            items[[transaction.accountName, payee.isEmpty ? "Unnamed payee" : payee, (-transaction.amount).decimalString].joined(separator: "|"), default: 0] += 1
        }
        var pending = 0
        for account in dataset.accounts {
            for item in account.feed where item.direction == .out && item.status == .pending && item.source != .internalTransfer {
                let name = item.counterPartyName.isEmpty ? Text.singleLine(item.reference) : item.counterPartyName
                items[[account.account.name, Text.singleLine(name), (-item.amount).decimalString].joined(separator: "|"), default: 0] += 1
                pending += 1
            }
        }
        let expected = items.values.reduce(0, +)
        #expect(!dataset.transactions.transactions.isEmpty && expected >= dataset.transactions.transactions.count)
        let lists = site.pages.filter { $0.searchChunk != nil && $0.statementData == nil }
        #expect(lists.allSatisfy { $0.path.hasPrefix("transactions/index") && $0.template == "transactions-list" })
        #expect(site.searchLists == lists.map { $0.searchChunk!.path })
        #expect(site.searchLists.first == "search/transactions/index")
        var found = 0
        for page in lists {
            for row in page.searchChunk!.rows() {
                let key = [row.account, row.payee, row.amount].joined(separator: "|")
                #expect((items[key] ?? 0) > 0, "\(key) is no entry of the app nor a pending payment")
                items[key, default: 0] -= 1
                found += 1
                #expect(row.target.hasPrefix(page.path + "#row-"), "\(row.target)")
            }
        }
        #expect(found == expected, "\(found) of \(expected) (\(pending) pending)")
    }

    /// A chunk is made of its statement alone: the same data gives the same chunks, byte for byte.
    @Test func theSameDataGivesTheSameChunks() throws {
        let chunks = { () throws -> [String] in
            SiteReport.build(try NetWorthTests.fixtures()).pages.compactMap { page in
                page.searchChunk.map { SearchIndexScript.chunk(path: $0.path, rows: $0.rows()) }
            }
        }
        let first = try chunks()
        #expect(first == (try chunks()))
        #expect(first.allSatisfy { $0.hasPrefix("// NestEgg's search index") && $0.hasSuffix("]);\n") })
    }
}
