import NestEggModel
import NestEggSupport
/// Splits a list that grows with the data over several pages, so that no page — its view data,
/// its Markdown and its HTML — holds more than a page's worth of rows.
///
/// Page 1 keeps the list's own path (`payees/index`); page n > 1 is `<path>.page<n>`
/// (`payees/index.page2`, `payees/tesco.page3`, written as `tesco.page3.md` and
/// `tesco.page3.html`). The transactions lists, which grow at their newest end, are paged from
/// their oldest row (``OldestFirstPagination``), with the same path scheme.
///
/// The dot is what makes the scheme safe: a slug is made of `a-z`, `0-9` and `-` only (``Slug``,
/// ``SlugAllocator``) and no fixed page name has a dot, so a later page can never take the path of
/// a slug or a fixed page — whereas `food-2` is what the allocator gives a second "Food", and a
/// category "Index 2" slugs to `index-2`. (An underscore would be as safe, but Markdown escaping
/// would write it `\_` in every link of the .md pages.)
public struct Pagination: Sendable, Equatable {
    /// Items per page of a list of one row an item (the transactions lists, the transfers, the
    /// goals) unless a report says otherwise: about a busy month's payments (the sample's November
    /// has 98), which on a phone, a row as two short lines and a small third, is some 7,000 px of
    /// page — ten screens, under the 12,000 px the browser test allows every page kind.
    public static let defaultPageSize = 100

    /// Rows per page of a list of items that each show several rows (an account and its weeks or
    /// months, ``init(rows:pageSize:)``): a summary table per item, so that the sample's accounts
    /// share one page and a page stays quick to load and to render.
    public static let defaultRowsPerPage = 500

    /// The items of each page, in order; always at least one page (empty when there are no items),
    /// so a list page exists however short its list.
    public let ranges: [Range<Int>]

    /// `count` items, `pageSize` to a page (the last page takes what is left).
    public init(count: Int, pageSize: Int = defaultPageSize) {
        precondition(pageSize > 0, "a page holds at least one row")
        let count = max(0, count)
        ranges = count == 0 ? [0..<0] : stride(from: 0, to: count, by: pageSize).map { $0..<min($0 + pageSize, count) }
    }

    /// Items that each show several rows (an account and its weeks), kept whole: consecutive
    /// items share a page while their rows fit in `pageSize`; an item larger than a page gets a
    /// page of its own.
    public init(rows: [Int], pageSize: Int = defaultRowsPerPage) {
        precondition(pageSize > 0, "a page holds at least one row")
        var result: [Range<Int>] = []
        var start = 0
        var filled = 0
        for (index, size) in rows.enumerated() {
            if index > start && filled + size > pageSize {
                result.append(start..<index)
                start = index
                filled = 0
            }
            filled += max(0, size)
        }
        result.append(start..<rows.count)
        ranges = result
    }

    public var pageCount: Int { ranges.count }
    public var isPaged: Bool { ranges.count > 1 }
    /// The items in all: the end of the last page.
    public var count: Int { ranges.last?.upperBound ?? 0 }

    /// The path of page `page` (1-based) of the list at `base`.
    public static func path(_ base: String, page: Int) -> String {
        page <= 1 ? base : "\(base).page\(page)"
    }

    /// Page 1 keeps its title; a later page adds where it is: `All transactions (page 2 of 7)`.
    public func title(_ title: String, page: Int) -> String {
        page <= 1 ? title : "\(title) (page \(page) of \(pageCount))"
    }

    /// The pages, each with its number, path and title, for building one `Page` per entry.
    public func pages(base: String, title: String) -> [(number: Int, path: String, title: String, range: Range<Int>)] {
        ranges.enumerated().map { index, range in
            (index + 1, Self.path(base, page: index + 1), self.title(title, page: index + 1), range)
        }
    }

    // MARK: View data

    /// What a template needs to show the pagination bar of one page. Every flag is a Bool that
    /// is always present (a missing field would be looked up in the enclosing context).
    struct View: Sendable, Encodable {
        let isPaged: Bool
        let current: Int
        let total: Int
        /// `Page 2 of 7`.
        let label: String
        /// `501–1,000 of 3,120 transactions` (`10 of 10 accounts` for one), or "" when not paged.
        let rangeText: String
        let hasPrevious: Bool
        let previousHref: String
        let hasNext: Bool
        let nextHref: String
        /// The first and last page, the current one and its neighbours, in order.
        let links: [NumberLink]
    }

    struct NumberLink: Sendable, Encodable {
        let number: String
        let href: String
        let current: Bool
        /// Pages are left out before this one (the bar shows `…`).
        let gapBefore: Bool
    }

    /// The bar of page `page` (1-based) of the list at `base`; `noun` names the items (`transactions`).
    func view(page: Int, base: String, noun: String, locale: SiteLocale) -> View {
        let page = min(max(1, page), pageCount)
        let href = { (number: Int) in ReportContext.href(Self.path(base, page: number)) }
        let shown = Set([1, page - 1, page, page + 1, pageCount]).filter { $0 >= 1 && $0 <= pageCount }.sorted()
        var links: [NumberLink] = []
        for (index, number) in shown.enumerated() {
            links.append(NumberLink(number: "\(number)", href: href(number), current: number == page,
                                  gapBefore: index > 0 && number > shown[index - 1] + 1))
        }
        let range = ranges[page - 1]
        let number = { (value: Int) in locale.format(value) }
        return View(
            isPaged: isPaged, current: page, total: pageCount, label: "Page \(page) of \(pageCount)",
            rangeText: !isPaged ? "" : range.count == 1
                ? "\(number(range.upperBound)) of \(number(count)) \(noun)"
                : "\(number(range.lowerBound + 1))–\(number(range.upperBound)) of \(number(count)) \(noun)",
            hasPrevious: page > 1, previousHref: page > 1 ? href(page - 1) : "",
            hasNext: page < pageCount, nextHref: page < pageCount ? href(page + 1) : "",
            links: isPaged ? links : [])
    }
}
