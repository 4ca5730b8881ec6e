import NestEggModel
import NestEggSupport
import Synchronization

/// The transactions lists — `transactions/index` with every row, and one list per category — laid
/// out in pages counted from their oldest rows (``OldestFirstPagination``) from the spending list's
/// totals alone (``SpendingTotals``), and the rows of the pages a build renders, taken from the
/// rows in sorted runs merged k-way (``fill(_:keeps:)``): the totals give each list's length, so a
/// row's page follows from its place in the merge, newest first, counted back from that length.
///
/// When the report worked out every row, they are one run, in memory. Otherwise the build brings
/// runs it reads from files — one a file, newest first — and the lists keep the rows of the pages
/// the build renders (``fill(_:keeps:)``'s `keeps`) only: what is held of a list falls with them.
public final class SpendingLists: Sendable {
    /// One list: its category (`nil`: every row) and its pages, in order.
    struct List: Sendable {
        let category: SpendingCategory?
        let base: String
        let pagination: OldestFirstPagination
    }

    /// Why the runs could not fill the lists; the rows are then not to be shown.
    public struct Mismatch: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// The run it was found in (its index in the runs given), when it is one run's.
        public var run: Int?
    }

    let lists: [List]
    /// Each category's list, by key (``lists`` index).
    private let byCategory: [String: Int]
    /// Each category's name (``SpendingTotals``), for the rows that spell it otherwise.
    private let names: [String: String]
    /// The rows of each kept page, by path; `nil` until filled.
    private let rows = Mutex<[String: [SpendingItem]]?>(nil)
    /// The rows that come in memory with the report (the transactions app's, newest first), to be
    /// merged with the runs a build brings (``fill(_:keeps:)``).
    let ownRun: [SpendingItem]

    /// The lists of `totals`, with `slugs` for the categories' paths.
    init(_ totals: SpendingTotals, slugs: [String: String], ownRun: [SpendingItem] = []) {
        // Each list's entry page shows its newest month whole (``OldestFirstPagination``).
        let newest = totals.newestMonthCounts()
        func pagination(_ category: String?, count: Int) -> OldestFirstPagination {
            OldestFirstPagination(count: count, newestMonth: category.map { newest.byCategory[$0] ?? 0 } ?? newest.all)
        }
        var lists = [List(category: nil, base: "transactions/index", pagination: pagination(nil, count: totals.count()))]
        var byCategory: [String: Int] = [:]
        let counts = totals.countsByCategory()
        for category in totals.categories() {
            byCategory[category.key] = lists.count
            lists.append(List(category: category, base: "transactions/" + (slugs[category.key] ?? "index"),
                              pagination: pagination(category.key, count: counts[category.key] ?? 0)))
        }
        self.lists = lists
        self.byCategory = byCategory
        self.names = Dictionary(uniqueKeysWithValues: totals.categories().map { ($0.key, $0.name) })
        self.ownRun = ownRun
    }

    /// Every page's path, in the lists' order, each list's entry page first.
    public var paths: [String] { lists.flatMap { list in list.pagination.newestFirst.map { list.pagination.path(list.base, page: $0) } } }

    /// Takes the rows of the pages `keeps` names (by path) from `runs` and from ``ownRun``: each run
    /// newest first (``TransactionsRules/newestFirst(_:_:)``), merged k-way, so that no more than
    /// the kept pages' rows and a row a run are held. With `toTheEnd` false, the merge stops once
    /// every list has its oldest kept page: the older rows are not read (nor checked against the
    /// totals; runs a build has checked whole otherwise, as a rebuild does its summaries).
    /// - Returns: why the runs are not the list the totals describe (a run out of order, more or
    /// fewer rows than the totals count); `nil` when they are.
    public func fill(_ runs: [any IteratorProtocol<SpendingItem>], keeps: (String) -> Bool, toTheEnd: Bool = true) -> Mismatch? {
        var sources = runs
        sources.append(ownRun.makeIterator())
        // Where each list is: the next row's position (newest first), and whether each page (by its
        // number from the oldest, less one) is kept.
        var positions = Array(repeating: 0, count: lists.count)
        let kept: [[Bool]] = lists.map { list in (1...list.pagination.pageCount).map { keeps(list.pagination.path(list.base, page: $0)) } }
        var filled: [String: [SpendingItem]] = [:]
        for (index, list) in lists.enumerated() {
            for page in 1...list.pagination.pageCount where kept[index][page - 1] { filled[list.pagination.path(list.base, page: page)] = [] }
        }
        // A build that renders none of the lists' pages needs none of their rows.
        if filled.isEmpty {
            rows.withLock { $0 = [:] }
            return nil
        }
        // How many rows of each list (newest first) reach its oldest kept page, and how many lists are still short of theirs.
        let reach = lists.indices.map { index in
            (1...lists[index].pagination.pageCount).first { kept[index][$0 - 1] }.map { lists[index].pagination.range(ofPage: $0).upperBound } ?? 0
        }
        var short = lists.indices.filter { positions[$0] < reach[$0] }.count
        var heap = RunHeap()
        for index in sources.indices { if let item = sources[index].next() { heap.push(item, run: index) } }
        var rowCount = 0
        while !(short == 0 && !toTheEnd), let (item, run) = heap.pop() {
            if let next = sources[run].next() {
                if TransactionsRules.newestFirst(next, item) { return Mismatch(description: "its rows are not newest first", run: run < runs.count ? run : nil) }
                heap.push(next, run: run)
            }
            rowCount += 1
            guard let own = byCategory[item.category.key] else {
                return Mismatch(description: "a row of a category the totals do not have", run: run < runs.count ? run : nil)
            }
            // The row goes on the list of every row and on its category's (a list after the first),
            // under the category's one name (renamed only when kept).
            var row: SpendingItem?
            for list in [0, own] {
                let pagination = lists[list].pagination
                guard positions[list] < pagination.count else { return Mismatch(description: "more rows than the totals count", run: run < runs.count ? run : nil) }
                let page = pagination.page(ofPosition: positions[list])
                if kept[list][page - 1] {
                    if row == nil {
                        var named = item
                        if let name = names[item.category.key], !name.utf8.elementsEqual(item.category.name.utf8) {
                            named.category = SpendingCategory(key: item.category.key, name: name)
                        }
                        row = named
                    }
                    filled[pagination.path(lists[list].base, page: page), default: []].append(row!)
                }
                positions[list] += 1
                if positions[list] == reach[list] { short -= 1 }
            }
        }
        if short == 0 && !toTheEnd {
            rows.withLock { $0 = filled }
            return nil
        }
        for (index, list) in lists.enumerated() where positions[index] != list.pagination.count {
            return Mismatch(description: "\(rowCount) rows where the totals count \(lists[0].pagination.count)"
                + (list.category.map { " (\(positions[index]) of \(list.pagination.count) in \($0.name))" } ?? ""))
        }
        rows.withLock { $0 = filled }
        return nil
    }

    /// The rows of the page at `path`; filling the lists and keeping the page is the build's part:
    /// a page asked for otherwise is a programming error, not a page without rows.
    func rows(of path: String) -> [SpendingItem] {
        rows.withLock { rows in
            guard let rows else { preconditionFailure("the transactions lists' rows were not taken from their runs") }
            guard let page = rows[path] else { preconditionFailure("\(path) is rendered by the build that keeps its rows") }
            return page
        }
    }
}

/// The next row of each run, the newest on top (``TransactionsRules/newestFirst(_:_:)``; a tie
/// goes to the earlier run): a binary heap, so that merging k runs costs log k a row.
struct RunHeap {
    private var entries: [(item: SpendingItem, run: Int)] = []

    static func before(_ a: (item: SpendingItem, run: Int), _ b: (item: SpendingItem, run: Int)) -> Bool {
        if TransactionsRules.newestFirst(a.item, b.item) { return true }
        if TransactionsRules.newestFirst(b.item, a.item) { return false }
        return a.run < b.run
    }

    mutating func push(_ item: SpendingItem, run: Int) {
        entries.append((item, run))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (SpendingItem, Int)? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < entries.count, Self.before(entries[left], entries[first]) { first = left }
            if right < entries.count, Self.before(entries[right], entries[first]) { first = right }
            guard first != parent else { break }
            entries.swapAt(parent, first)
            parent = first
        }
        return (top.item, top.run)
    }
}
