import NestEggModel
import NestEggSupport
/// The transaction list of the transactions app (seed 003): `transactions/index` (all) and
/// `transactions/<category>`, each with the category filter buttons at the top and the sum of
/// the pinned transactions at the bottom. Rows come from transactions/ and from Starling's
/// outgoing payments (see ``TransactionsRules``).
///
/// A list is paged from its oldest row (``OldestFirstPagination``): its entry page holds the newest
/// rows and the list-wide figures (counts, the filters' counts, the pinned sum); an older page holds
/// only what its own rows and older data give (its rows, its dates, its neighbours), so that a day's
/// new transactions change the entry pages and leave the older pages as they are.
public enum TransactionsReport {
    public static let section = Section(id: "transactions", title: "Transactions", path: "transactions/index")

    // MARK: View data

    struct ListView: Sendable, Encodable {
        /// `nil` on the "All" page.
        let categoryName: String?
        /// The list's entry page (its newest rows), which alone shows the list-wide figures.
        let isEntry: Bool
        let filters: [FilterView]
        /// This page's rows, grouped by month (newest first), each month with its subtotal.
        let months: [MonthGroup]
        let hasRows: Bool
        let showCategory: Bool
        let count: String
        let pinnedCount: String
        let unpinnedCount: String
        let hasUnpinned: Bool
        /// Per currency, joined with ` · `.
        let pinnedSum: String
        let insightsHref: String
        let payeesHref: String
        /// The payees' pages this page's rows link to, once each.
        let references: [LinkReference]
        /// Which part of the list this page shows (the list at `transactions/index` or a category's).
        let pager: OldestFirstPagination.View
    }

    struct FilterView: Sendable, Encodable {
        let name: String
        let href: String
        let count: String
        /// The count is shown (on entry pages; an older page names the categories without counts).
        let counted: Bool
        let current: Bool
        let first: Bool
    }

    /// The rows of one month on a page, and the month's figures: on the entry page over the whole
    /// list, on an older page over the page's own rows (a month can run over two pages).
    struct MonthGroup: Sendable, Encodable {
        /// `Nov 2026`, or on the entry page `Nov 2026 so far` while the month is in progress.
        let label: String
        let count: String
        /// The figures are this page's rows of the month (an older page), not the whole month's.
        let onThisPage: Bool
        /// The month's pinned transactions, per currency.
        let pinnedSum: String
        let rows: [RowView]
        /// Part of the month is on the page before or after this one.
        let continues: Bool
    }

    struct RowView: Sendable, Encodable {
        /// The row's id on the page (``TransactionSearch/anchor(row:)``), which the search page links to.
        let anchor: String
        let date: String
        /// Whom the item paid (``SpendingItem/payee``).
        let payee: String
        /// The label of the link to the payee's page (``PayeesReport``), when it has one:
        /// reference-style (`[Tesco][p3]`, the page's address once at the foot of the page), so a
        /// row reads as names in Markdown, not as names and addresses.
        let payeeRef: String
        let hasPayeeRef: Bool
        /// The transactions app's words for the entry (``SpendingItem/note``).
        let note: String
        let category: String
        let categoryHref: String
        let account: String
        let source: String
        let amount: String
        let pinned: Bool
        let pending: Bool
    }

    // MARK: Building

    /// What a list's pages share, worked out once per list (not once per page: a list can hold
    /// every transaction, and it has a page per 500 of them).
    struct ListSummary: Sendable {
        let count: Int
        let pinnedCount: Int
        let pinnedSum: String
        /// Each month's count and pinned sum, over the whole list.
        let months: [CalendarMonth: (count: Int, pinnedSum: String)]
        /// Each month's first row counted from the oldest: the rows of the months before it. With
        /// the month's count it places the month among the pages (older data only, but for the
        /// newest month's count, which newer rows can only carry past a page already full).
        let monthStarts: [CalendarMonth: Int]

        /// The list of `category` (a key; `nil`: every item), from the whole list's totals.
        init(_ totals: SpendingTotals, category: String?, preferred: Currency, context: ReportContext) {
            count = totals.count(category: category)
            pinnedCount = totals.count(category: category, pinned: true)
            pinnedSum = TransactionsRules.text(totals.pinnedSum(category: category), preferred: preferred, context: context)
            let byMonth = totals.months(category: category)
            months = byMonth.mapValues { ($0.count, TransactionsRules.text($0.pinned, preferred: preferred, context: context)) }
            var starts: [CalendarMonth: Int] = [:]
            var before = 0
            for month in byMonth.keys.sorted() {
                starts[month] = before
                before += byMonth[month]!.count
            }
            monthStarts = starts
        }
    }

    /// One page of a list, built when the page is rendered (a list can hold every transaction):
    /// its own rows only; on the entry page the counts, the filters' counts and the pinned sum are
    /// the whole list's, on an older page there are none of them (`filters` come without counts).
    static func listView(current: SpendingCategory?, rows: [SpendingItem], page: Int,
                         pagination: OldestFirstPagination, filters: [FilterView], summary: ListSummary,
                         pathOf: (SpendingCategory?) -> String, context: ReportContext,
                         payee: (String) -> String? = { _ in nil }) -> ListView {
        var references: [LinkReference] = []
        var labels: [String: String] = [:]
        var number = 0
        // Each category's link once a page, not once a row.
        var categoryHrefs: [String: String] = [:]
        func categoryHref(_ category: SpendingCategory) -> String {
            if let known = categoryHrefs[category.key] { return known }
            let href = ReportContext.href(pathOf(category))
            categoryHrefs[category.key] = href
            return href
        }
        func row(_ item: SpendingItem) -> RowView {
            number += 1
            var label = ""
            let payeeName = item.payee
            if let path = payee(payeeName) {
                if let known = labels[path] { label = known } else {
                    label = "p\(references.count + 1)"
                    labels[path] = label
                    references.append(LinkReference(label: label, href: ReportContext.href(path)))
                }
            }
            return RowView(anchor: TransactionSearch.anchor(row: number), date: context.date(item.date), payee: payeeName, payeeRef: label,
                    hasPayeeRef: !label.isEmpty, note: item.note, category: item.category.name, categoryHref: categoryHref(item.category),
                    account: item.accountName, source: item.source.rawValue,
                    // Money out is negative, as on the statements and in the search: one sign for money out on every page.
                    amount: context.money(-item.amount),
                    pinned: item.pinned, pending: item.pending)
        }
        // Consecutive items of one month (the list is newest first) make a group.
        var groups: [(month: CalendarMonth, rows: [RowView])] = []
        for item in rows {
            let month = CalendarMonth(item.date)
            if groups.last?.month == month { groups[groups.count - 1].rows.append(row(item)) } else { groups.append((month, [row(item)])) }
        }
        let isEntry = page == pagination.pageCount
        let preferred = context.settings.currency(forSource: "transactions")
        // The page's rows counted from the oldest: [oldest, newest).
        let range = pagination.range(ofPage: page)
        let (oldest, newest) = (pagination.count - range.upperBound, pagination.count - range.lowerBound)
        var start = rows.startIndex
        let months = groups.map { group in
            let own = rows[start..<(start + group.rows.count)]
            start += group.rows.count
            let figures = summary.months[group.month] ?? (0, "")
            let first = summary.monthStarts[group.month] ?? oldest
            let continues = first < oldest || first + figures.count > newest
            if isEntry {
                return MonthGroup(label: TransactionsInsightsReport.monthHeading(group.month, context: context),
                                  count: context.counted(figures.count, "transaction"), onThisPage: false, pinnedSum: figures.pinnedSum,
                                  rows: group.rows, continues: continues)
            }
            return MonthGroup(label: TransactionsInsightsReport.monthLabel(group.month, context: context),
                              count: context.counted(own.count, "transaction"), onThisPage: true,
                              pinnedSum: TransactionsRules.text(TransactionsRules.pinnedSum(own), preferred: preferred, context: context),
                              rows: group.rows, continues: continues)
        }
        let dates = rows.isEmpty ? "" : context.locale.formatRange(rows.last!.date, rows.first!.date)
        return ListView(
            categoryName: current?.name, isEntry: isEntry, filters: filters, months: months, hasRows: summary.count > 0,
            showCategory: current == nil,
            // An older page carries none of the list-wide figures, not even unshown: its view data
            // is what the build compares to know whether the page changed.
            count: isEntry ? context.count(summary.count) : "", pinnedCount: isEntry ? context.count(summary.pinnedCount) : "",
            unpinnedCount: isEntry ? context.count(summary.count - summary.pinnedCount) : "",
            hasUnpinned: isEntry && summary.pinnedCount < summary.count, pinnedSum: isEntry ? summary.pinnedSum : "",
            insightsHref: ReportContext.href(TransactionsInsightsReport.section.path), payeesHref: ReportContext.href(PayeesReport.indexPath),
            references: references,
            pager: pagination.view(page: page, base: pathOf(current), noun: "transactions", dates: dates, locale: context.locale))
    }

    /// The pages of `items`, which must be newest first (``TransactionsRules/newestFirst(_:_:)``), every row in memory.
    static func pages(for items: [SpendingItem], context: ReportContext) -> [Page] {
        let totals = SpendingTotals(items)
        guard let lists = lists(totals, rows: items) else { return [] }
        if let mismatch = lists.fill([], keeps: { _ in true }) { preconditionFailure("\(mismatch)") }
        return pages(for: lists, totals: totals, context: context)
    }

    /// The lists of `totals` (``SpendingLists``), with `rows` in memory (newest first); `nil` without spending.
    static func lists(_ totals: SpendingTotals, rows: [SpendingItem]) -> SpendingLists? {
        totals.isEmpty ? nil : SpendingLists(totals, slugs: TransactionsRules.slugs(for: totals.categories()), ownRun: rows)
    }

    /// The pages of the lists (``SpendingLists``) and their totals (``SpendingTotals``): the counts,
    /// filters and sums are the totals'; only the rows are the lists', taken when a page is rendered.
    /// `payee` gives where a row's counterparty's payments are (``PayeesReport/Directory/path(of:)``: its page, or its rows on an occasional page), if anywhere.
    /// `rowStyle` (``rowStyle(_:payees:)``) is what `payee` gives, as a digest: with it, each older
    /// page has its view apart from its rows (``ListRowsFrame``: the accounts' rows before the month
    /// after its newest row's, what its rows are drawn with, and its view without them).
    static func pages(for lists: SpendingLists, totals: SpendingTotals, context: ReportContext,
                      payee: @escaping @Sendable (String) -> String? = { _ in nil }, rowStyle: String? = nil) -> [Page] {
        let categories = totals.categories()
        let slugs = TransactionsRules.slugs(for: categories)
        // What a row is drawn with besides itself: where its payee's payments are, and its
        // category's name and list (every category's, the bar names only some).
        let style = rowStyle.map { rowStyle in
            StatementDigest.sha256(Array((rowStyle + "\n" + categories.map { [$0.key, $0.name, slugs[$0.key] ?? ""].joined(separator: "\u{1F}") }
                .joined(separator: "\u{1E}")).utf8))
        }
        let pathOf: @Sendable (SpendingCategory?) -> String = { category in
            "transactions/" + (category.flatMap { slugs[$0.key] } ?? "index")
        }
        let crumbs = [Link("Dashboard", "index")]

        let preferred = context.settings.currency(forSource: "transactions")
        let counts = totals.countsByCategory()

        var pages: [Page] = []
        // The bar's categories, by their place in the list, worked out once: each page adds its own
        // category if the bar does not name it, so a page costs the bar's length, not the categories'.
        let inBar = categoriesInFilterBar(categories, counts: counts)
        let barPlaces = categories.indices.filter { inBar.contains(categories[$0].key) }
        let placeOf = Dictionary(uniqueKeysWithValues: categories.indices.map { (categories[$0].key, $0) })
        for list in lists.lists {
            let current = list.category
            let summary = ListSummary(totals, category: current?.key, preferred: preferred, context: context)
            var places = barPlaces
            if let key = current?.key, !inBar.contains(key), let place = placeOf[key] {
                places.insert(place, at: places.firstIndex { $0 > place } ?? places.count)
            }
            var bar = [FilterView(name: "All", href: ReportContext.href(pathOf(nil)), count: context.count(totals.count()),
                                  counted: true, current: current == nil, first: true)]
                + places.map { place in
                    let category = categories[place]
                    return FilterView(name: category.name, href: ReportContext.href(pathOf(category)),
                                      count: context.count(counts[category.key] ?? 0), counted: true,
                                      current: category.key == current?.key, first: false)
                }
            if places.count < categories.count {
                bar.append(FilterView(name: "More categories", href: ReportContext.href(categoriesPath),
                                      count: context.count(categories.count - places.count), counted: true, current: false, first: false))
            }
            let filters = bar
            // An older page names the same categories, without the list-wide counts.
            let olderFilters = bar.map { FilterView(name: $0.name, href: $0.href, count: "", counted: false, current: $0.current, first: $0.first) }
            let title = current.map { "Transactions: \($0.name)" } ?? "All transactions"
            let pagination = list.pagination
            let monthEnds = summary.monthStarts.map { (month: $0.key, end: $0.value + (summary.months[$0.key]?.count ?? 0)) }.sorted { $0.month < $1.month }
            for number in pagination.newestFirst {
                let path = pagination.path(list.base, page: number)
                let isEntry = number == pagination.pageCount
                // The list of every category is where the search finds the rows no statement shows.
                let chunk = current == nil ? (path: TransactionSearch.chunkPath(listPage: path), rows: { @Sendable in
                    TransactionSearch.rows(lists.rows(of: path), page: path, context: context)
                }) : nil
                // The month of the page's newest row: the first month whose rows end after the page's.
                let newestMonth = monthEnds.first { $0.end >= number * pagination.pageSize }?.month
                // An older page is made of the rows before the month after its newest row's, drawn
                // in the style, and of its view without them.
                let rowsFrame = isEntry ? nil : style.flatMap { style in newestMonth.map { month in
                    ListRowsFrame(before: month.next, style: style, frame: { @Sendable in
                        listView(current: current, rows: [], page: number, pagination: pagination, filters: olderFilters,
                                 summary: summary, pathOf: pathOf, context: context)
                    })
                } }
                pages.append(Page(path: path, title: isEntry ? title : "\(title) (page \(number) from the oldest)",
                                  template: "transactions-list", section: section.id,
                                  breadcrumbs: current == nil && isEntry ? crumbs : crumbs + [Link(section.title, section.path)],
                                  rowsFrame: rowsFrame, searchChunk: chunk,
                                  view: listView(current: current, rows: lists.rows(of: path), page: number,
                                                 pagination: pagination, filters: isEntry ? filters : olderFilters, summary: summary,
                                                 pathOf: pathOf, context: context, payee: payee)))
            }
        }
        if inBar.count < categories.count {
            let rows = categories.map { category in
                CategoryView(name: category.name, href: ReportContext.href(pathOf(category)), count: context.count(counts[category.key] ?? 0))
            }
            pages.append(Page(path: categoriesPath, title: "Transactions: every category", template: "transactions-categories",
                              section: section.id, breadcrumbs: crumbs + [Link(section.title, section.path)],
                              view: CategoriesView(shown: context.count(filterBarLimit), categories: rows)))
        }
        return pages
    }

    /// What an older page of the lists draws its rows with besides the rows and their categories,
    /// as one SHA-256: where each payee's payments are (``PayeesReport/Directory/digest``), the
    /// `payee` its rows are drawn with, and each account's name.
    static func rowStyle(_ dataset: Dataset, payees: PayeesReport.Directory) -> String {
        let names = dataset.accounts.map { $0.account.uid + "\u{1F}" + $0.account.name }.joined(separator: "\u{1E}")
        return StatementDigest.sha256(Array(("payees " + payees.digest + "\naccounts " + names).utf8))
    }

    /// The most categories the filter bar at the top of each list names. With more, it names the
    /// largest (by transactions, then in list order) and the page's own, and links to one page of
    /// every category (`transactions/categories`): a bar naming every category on every category's
    /// pages would make the site grow as the square of the categories (20,000 one-item categories:
    /// 400 million links).
    static let filterBarLimit = 12

    /// The page that lists every category when the filter bar cannot.
    static let categoriesPath = "transactions/categories"

    /// The keys of the categories the filter bar names on every page: all of them, or the
    /// ``filterBarLimit`` with the most transactions.
    static func categoriesInFilterBar(_ categories: [SpendingCategory], counts: [String: Int]) -> Set<String> {
        guard categories.count > filterBarLimit else { return Set(categories.map(\.key)) }
        let largest = categories.indices.sorted { a, b in
            let (countA, countB) = (counts[categories[a].key] ?? 0, counts[categories[b].key] ?? 0)
            return countA != countB ? countA > countB : a < b
        }.prefix(filterBarLimit)
        return Set(largest.map { categories[$0].key })
    }

    struct CategoriesView: Sendable, Encodable {
        /// How many the filter bar names.
        let shown: String
        let categories: [CategoryView]
    }

    struct CategoryView: Sendable, Encodable {
        let name: String
        let href: String
        let count: String
    }
}
