import NestEggModel
import NestEggSupport

/// Splits a list that grows at its newest end (the transactions lists) into pages counted from its
/// **oldest** row, so that a page, once full, keeps its rows however many newer rows arrive.
///
/// Page 1 holds the oldest `pageSize` rows, page k the rows [(k-1)·pageSize, k·pageSize) counted
/// from the oldest, and the newest page the rest: at least the newest `pageSize` rows (all, when
/// there are fewer), and the whole newest month when that is more, up to ``newestMonthLimit``
/// pages' worth — so the page a visitor opens shows the newest rows, never a stub of what is left
/// over. The newest page is the
/// list's entry page and keeps the list's own path (`transactions/index`); every other page is
/// `<path>.page<k>` (`transactions/index.page37`: rows 3,601–3,700 from the oldest), the same dot
/// scheme as ``Pagination/path(_:page:)``, which no slug can take. A page's number and path depend
/// on its position from the oldest only, never on the list's length: a day's new rows change the
/// entry page, and once it holds two pages' worth (and its newest month lets it), its oldest hundred
/// become a page of their own; the older pages stay as they are.
///
/// Rows come newest first (``TransactionsRules/newestFirst(_:_:)``), and a page shows its rows
/// newest first; positions here are the rows' places in that order (0: the newest).
public struct OldestFirstPagination: Sendable, Equatable {
    /// The rows in all.
    public let count: Int
    public let pageSize: Int

    /// The pages, numbered 1 (the oldest) to `pageCount` (the newest, the entry page); one when the
    /// list is empty, so a list page exists however short its list.
    public let pageCount: Int

    /// The most rows of its newest month the entry page takes beyond `pageSize`, in pages: a month
    /// of a large household's accounts can hold thousands of rows.
    public static let newestMonthLimit = 5

    /// `newestMonth`: how many of the rows are of the newest month, which the entry page shows whole
    /// (up to ``newestMonthLimit`` pages).
    public init(count: Int, pageSize: Int = Pagination.defaultPageSize, newestMonth: Int = 0) {
        precondition(pageSize > 0, "a page holds at least one row")
        self.count = max(0, count)
        self.pageSize = pageSize
        // The older pages are full; the entry page starts where one ends, and holds at least a
        // page's worth and the newest month.
        let together = min(max(0, newestMonth), self.count, Self.newestMonthLimit * pageSize)
        pageCount = max(1, min(self.count / pageSize, (self.count - together) / pageSize + 1))
    }
    public var isPaged: Bool { pageCount > 1 }

    /// The page numbers newest first: the entry page, then the older pages in reading order.
    public var newestFirst: [Int] { Array((1...pageCount).reversed()) }

    /// The rows of page `number` as positions newest first.
    public func range(ofPage number: Int) -> Range<Int> {
        let oldest = min((number - 1) * pageSize, count), newest = number >= pageCount ? count : min(number * pageSize, count)
        return (count - newest)..<(count - oldest)
    }

    /// The page of the row at `position` (newest first, `0..<count`).
    public func page(ofPosition position: Int) -> Int {
        min((count - 1 - position) / pageSize + 1, pageCount)
    }

    /// The entry page's path is `base`; an older page's, `<base>.page<number>`.
    public func path(_ base: String, page number: Int) -> String {
        number == pageCount ? base : "\(base).page\(number)"
    }

    // MARK: View data

    /// What a template needs to show the bar of one page. The entry page names the list's length;
    /// an older page only what its own place gives (its rows' numbers from the oldest, its dates)
    /// and its neighbours, so that it stays the same while the list grows. Every flag is a Bool
    /// that is always present (a missing field would be looked up in the enclosing context).
    struct View: Sendable, Encodable {
        let isPaged: Bool
        let isEntry: Bool
        /// Entry page: `The newest 137 of 3,637 transactions`; an older page:
        /// `Page 37 from the oldest, transactions 3,601–3,700, 3 Nov – 10 Nov 2026`.
        let label: String
        let hasNewer: Bool
        let newerHref: String
        /// The entry page, on an older page whose newer neighbour is not the entry page.
        let hasNewest: Bool
        let newestHref: String
        let hasOlder: Bool
        let olderHref: String
        /// The oldest page, when it is not this page nor its older neighbour.
        let hasOldest: Bool
        let oldestHref: String
    }

    /// The bar of page `number` of the list at `base`; `noun` names the rows (`transactions`),
    /// `dates` is the page's own date range (`3 Nov – 10 Nov 2026`, "" when it has no rows).
    func view(page number: Int, base: String, noun: String, dates: String, locale: SiteLocale) -> View {
        let number = min(max(1, number), pageCount)
        let href = { (page: Int) in ReportContext.href(self.path(base, page: page)) }
        let range = range(ofPage: number)
        let first = count - range.upperBound + 1, last = count - range.lowerBound
        let isEntry = number == pageCount
        let label: String
        if isEntry {
            label = "The newest \(locale.format(range.count)) of \(locale.format(count)) \(noun)"
        } else {
            label = "Page \(locale.format(number)) from the oldest, \(noun) \(locale.format(first))–\(locale.format(last))"
                + (dates.isEmpty ? "" : ", \(dates)")
        }
        let hasNewer = number < pageCount, hasOlder = number > 1
        let hasNewest = number + 1 < pageCount, hasOldest = number > 2
        return View(isPaged: isPaged, isEntry: isEntry, label: label,
                    hasNewer: hasNewer, newerHref: hasNewer ? href(number + 1) : "",
                    hasNewest: hasNewest, newestHref: hasNewest ? href(pageCount) : "",
                    hasOlder: hasOlder, olderHref: hasOlder ? href(number - 1) : "",
                    hasOldest: hasOldest, oldestHref: hasOldest ? href(1) : "")
    }
}
