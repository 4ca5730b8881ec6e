import NestEggModel
import NestEggSupport
/// The counterparty pages: `payees/<slug>` (every payment to and from one counterparty, newest
/// first, grouped by month with each month's totals, ``rowsPerPage`` rows a page)
/// for a counterparty with at least ``minimumPaymentsForOwnPage`` payments; `payees/occasional`
/// (and `payees/occasional.page<n>`), where the others' payments share pages, A to Z, each such
/// counterparty's first row carrying its anchor (``anchor(slug:)``); and `payees/index` (the top
/// payees of the data's year and of all time, then every counterparty from A to Z). Amounts of
/// different currencies are never added: each total is per currency.
///
/// Payments are ``PayeePayment``s; names group by ``Counterparty/key(_:)``, as the search and the
/// recurring payments group them. A counterparty's name on its page is the first of its spellings
/// (``NestEggSupport/Text/precedes(_:_:)``). Slugs are handed out in that name order
/// (``SlugAllocator``) to every counterparty, with or without a page of its own, so the same data
/// always gives the same addresses, and a counterparty's slug (its page, or its anchor on the
/// occasional pages) stays the same when a third payment gives it a page of its own.
///
/// The pages are the same whichever build writes them: an account whose pages are made elsewhere brings its
/// payments with it (``AccountFigures/payments``), as it brings its cash flow.
public enum PayeesReport {
    public static let indexPath = "payees/index"
    public static let title = "Payees"
    /// The shared pages of the counterparties without a page of their own.
    public static let occasionalPath = "payees/occasional"
    public static let occasionalTitle = "Occasional payees"
    /// A counterparty with fewer payments than this has no page of its own: its payments are on
    /// the occasional pages. Most counterparties are one-off, and a page of one or two rows says
    /// no more than rows of a shared page; from three, a page's totals by month tell something.
    public static let minimumPaymentsForOwnPage = 3
    /// The id of a counterparty's first row on the occasional pages (the HTML flavour), the
    /// fragment of every link to it: `payee-<slug>`, as stable as the slug.
    public static func anchor(slug: String) -> String { "payee-" + slug }
    /// How many payees each top table shows, per currency.
    static let topCount = 10
    /// Payees per page of the index: each a card of five lines on a phone, and page 1 also holds
    /// the top tables, within the browser test's limit on a page's height at 390 px.
    static let indexPageSize = 40

    /// Rows per page of a payee's payments, a month's heading counting as a row: fewer than the
    /// transactions lists', a payment being a card of four or five lines on a phone (its date,
    /// reference, account and amount), within the browser test's limit on a page's height.
    static let rowsPerPage = 80

    /// A payee's payments as pages of ``rowsPerPage`` rows. A monthly bill's payments are a month
    /// each, so counting only payments, a page would also hold as many headings: twice the height.
    static func pagination(of payments: [PayeePayment]) -> Pagination {
        var previous: CalendarMonth?
        let rows = payments.map { payment -> Int in
            let month = CalendarMonth(payment.date)
            defer { previous = month }
            return month == previous ? 1 : 2
        }
        return Pagination(rows: rows, pageSize: rowsPerPage)
    }

    /// One counterparty and its payments, newest first.
    public struct Payee: Sendable {
        public let key: String
        public let name: String
        public let slug: String
        public let payments: [PayeePayment]
        /// Where its payments are, as a site path: its own page (`payees/<slug>`), or its first row
        /// on an occasional page (`payees/occasional.page<n>#payee-<slug>`); ``ReportContext/href(_:)`` links it.
        public let target: String
        /// It has a page of its own (``minimumPaymentsForOwnPage``).
        public var hasOwnPage: Bool { Self.hasOwnPage(payments.count) }
        static func hasOwnPage(_ payments: Int) -> Bool { payments >= minimumPaymentsForOwnPage }
        /// Its own page's path, whether or not it has one.
        var ownPath: String { "payees/" + slug }

        /// The counted payments' sums out and in, per currency; with `year`, of that year only.
        public func totals(year: Int? = nil) -> (paidOut: MoneyTotals, received: MoneyTotals) {
            var out = MoneyTotals(), received = MoneyTotals()
            for payment in payments where payment.counted && (year == nil || payment.date.year == year) {
                if payment.incoming { received.add(payment.amount) } else { out.add(payment.amount) }
            }
            return (out, received)
        }

        /// Per month: how many payments, and the counted ones' sums out and in.
        public func months() -> [CalendarMonth: (count: Int, paidOut: MoneyTotals, received: MoneyTotals)] {
            var months: [CalendarMonth: (count: Int, paidOut: MoneyTotals, received: MoneyTotals)] = [:]
            // Changed in place: a month taken out, changed and put back copied its sums' storage each time.
            let empty = (count: 0, paidOut: MoneyTotals(), received: MoneyTotals())
            // (By place: each payment's fields read where it lies, not a copy of it.)
            for index in payments.indices {
                let month = CalendarMonth(payments[index].date)
                months[month, default: empty].count += 1
                if payments[index].counted {
                    if payments[index].incoming {
                        months[month, default: empty].received.add(payments[index].amount)
                    } else {
                        months[month, default: empty].paidOut.add(payments[index].amount)
                    }
                }
            }
            return months
        }
    }

    /// Where each counterparty's payments are (``Payee/target``), by ``Counterparty/key(_:)``:
    /// what the transactions lists, the recurring payments and the search link with.
    public struct Directory: Sendable {
        let paths: [String: String]
        public init(_ payees: [Payee]) {
            paths = Dictionary(payees.map { ($0.key, $0.target) }, uniquingKeysWith: { a, _ in a })
        }
        /// The site path of the counterparty `name`'s payments (its page, or an occasional page
        /// and its anchor: `payees/occasional.page2#payee-cafe`), or `nil` when it has none. Link
        /// it with ``ReportContext/href(_:)``.
        public func path(of name: String) -> String? { paths[Counterparty.key(name)] }

        /// The SHA-256 of every counterparty's path, in key order: what a page that links rows to
        /// their payees' pages shows of them (``ListRowsFrame/style``).
        public var digest: String {
            var text = ""
            for key in paths.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                text += key + "\u{1F}" + paths[key]! + "\u{1E}"
            }
            return StatementDigest.sha256(Array(text.utf8))
        }
    }

    /// Rows per occasional page: a payment is a card of four to six lines on a phone (its payee,
    /// date, reference, account and amount), within the browser test's limit on a page's height.
    static let occasionalRowsPerPage = 60

    /// The occasional pages: the counterparties without a page of their own, in name order, kept
    /// whole (a payee's two rows on one page, so its anchor's page has them both).
    static func occasionalPagination(paymentCounts: [Int]) -> Pagination {
        Pagination(rows: paymentCounts, pageSize: occasionalRowsPerPage)
    }

    /// Every account's payments, as its figures carry them (``AccountFigures``, by UID), and the transactions app's.
    static func payments(_ dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]) -> [PayeePayment] {
        var payments: [PayeePayment] = []
        for data in dataset.accounts { payments += figures[data.account.uid]?.payments ?? [] }
        return payments + PayeePayment.of(dataset.transactions.transactions, clock: context.clock)
    }

    /// The counterparties, by name (their slugs handed out in that order); without `figures`, from every account's feed.
    public static func payees(_ dataset: Dataset, context: ReportContext, figures: [String: AccountFigures]? = nil) -> [Payee] {
        payees(of: payments(dataset, context: context, figures: figures ?? AccountFigures.of(dataset, context: context)))
    }

    /// `payments` grouped by counterparty, by name; each counterparty's payments newest first.
    public static func payees(of payments: [PayeePayment]) -> [Payee] {
        var groups: [String: (name: String, payments: [PayeePayment])] = [:]
        for payment in payments {
            let key = Counterparty.key(payment.name)
            guard !key.isEmpty else { continue }
            // (The name alone is read: a copy of the group would make the append copy its payments.)
            if let name = groups[key]?.name {
                if Text.precedes(payment.name, name) { groups[key]!.name = payment.name }
                groups[key]!.payments.append(payment)
            } else {
                groups[key] = (payment.name, [payment])
            }
        }
        let ordered = groups.sorted { a, b in a.value.name != b.value.name ? Text.precedes(a.value.name, b.value.name) : a.key < b.key }
        var allocator = SlugAllocator(reserved: ["index", "occasional"])
        let slugs = ordered.map { allocator.allocate($0.value.name, fallback: "payee") }
        // Each occasional payee's page, from the same pagination as ``pages(_:context:section:)``'s.
        let occasional = ordered.indices.filter { !Payee.hasOwnPage(ordered[$0].value.payments.count) }
        var occasionalPage: [Int: String] = [:]
        for page in occasionalPagination(paymentCounts: occasional.map { ordered[$0].value.payments.count }).pages(base: occasionalPath, title: "") {
            for index in occasional[page.range] { occasionalPage[index] = page.path }
        }
        return ordered.enumerated().map { index, entry in
            let slug = slugs[index]
            // Sorted by place, then taken in that order: the payments are moved once, and compared
            // where they lie, not copied.
            let payments = entry.value.payments
            let order = payments.withUnsafeBufferPointer { buffer in
                payments.indices.sorted { PayeePayment.newestFirst(buffer[$0], buffer[$1]) }
            }
            return Payee(key: entry.key, name: entry.value.name, slug: slug, payments: order.map { payments[$0] },
                         target: occasionalPage[index].map { $0 + "#" + anchor(slug: slug) } ?? "payees/" + slug)
        }
    }

    // MARK: View data

    struct PayeeView: Sendable, Encodable {
        let name: String
        let countText: String
        let paidOut: String
        let hasPaidOut: Bool
        let received: String
        let hasReceived: Bool
        let hasUncounted: Bool
        /// `on 3 Oct 2026`, or `from 1 Sep 2026 to 3 Oct 2026`.
        let span: String
        let months: [MonthGroup]
        let pager: Pagination.View
        let indexHref: String
    }

    struct MonthGroup: Sendable, Encodable {
        let label: String
        let count: String
        let paidOut: String
        let hasPaidOut: Bool
        let received: String
        let hasReceived: Bool
        let rows: [RowView]
        /// Part of the month is on the page before or after this one.
        let continues: Bool
    }

    struct RowView: Sendable, Encodable {
        let date: String
        let reference: String
        let account: String
        let paidOut: String
        let received: String
        let counted: Bool
    }

    /// A page of the occasional payees' payments.
    struct OccasionalView: Sendable, Encodable {
        /// `1,000 payees, 1,004 payments`: all the occasional pages'.
        let countText: String
        /// ``minimumPaymentsForOwnPage``, for the sentence that says what "occasional" means.
        let minimum: Int
        let hasUncounted: Bool
        let rows: [OccasionalRow]
        let pager: Pagination.View
        let indexHref: String
    }

    /// A payment on an occasional page: its payee named on every row (as its CSV has it), the
    /// payee's first row carrying the anchor, a later row marked as the same payee's.
    struct OccasionalRow: Sendable, Encodable {
        let payee: String
        let anchor: String
        let first: Bool
        let date: String
        let reference: String
        let account: String
        let paidOut: String
        let received: String
        let counted: Bool
    }

    struct IndexView: Sendable, Encodable {
        let countText: String
        /// Some payees are on the occasional pages: the index says what that means and links them.
        let hasOccasional: Bool
        let minimum: Int
        let occasionalHref: String
        let year: String
        let topYear: [TopTable]
        let hasTopYear: Bool
        let topAll: [TopTable]
        let hasTopAll: Bool
        /// Every payment is of the data's year: the year's top payees are those of all time.
        let allInYear: Bool
        let rows: [IndexRow]
        let isFirstPage: Bool
        let pager: Pagination.View
    }

    /// One currency's top payees.
    struct TopTable: Sendable, Encodable {
        let currency: String
        let rows: [TopRow]
    }

    struct TopRow: Sendable, Encodable {
        let rank: Int
        let name: String
        let href: String
        let amount: String
        let count: String
    }

    struct IndexRow: Sendable, Encodable {
        let name: String
        let href: String
        let count: String
        let paidOut: String
        let received: String
        let last: String
    }

    // MARK: Pages

    /// The top payees by money paid out (of `year`, or of all time), per currency: the largest
    /// `limit` of each currency, by amount, then by name; the base currency first, then the others by code.
    static func top(_ payees: [Payee], year: Int?, limit: Int = topCount, base: Currency = .gbp) -> [(payee: Payee, amount: Money, count: Int)] {
        var byCurrency: [Currency: [(payee: Payee, amount: Money, count: Int)]] = [:]
        for payee in payees {
            // One pass over the payments, none copied (this runs over every payment twice a build).
            var sums = MoneyTotals()
            var counts: [Currency: Int] = [:]
            // (By place: each payment's fields read where it lies, not a copy of it.)
            let payments = payee.payments
            for index in payments.indices where payments[index].counted && !payments[index].incoming
                && (year == nil || payments[index].date.year == year) {
                sums.add(payments[index].amount)
                counts[payments[index].amount.currency, default: 0] += 1
            }
            for amount in sums.amounts where amount.minorUnits > 0 {
                byCurrency[amount.currency, default: []].append((payee, amount, counts[amount.currency] ?? 0))
            }
        }
        return byCurrency.keys.sorted { $0 == base || ($1 != base && $0 < $1) }.flatMap { currency in
            byCurrency[currency]!.sorted { a, b in
                a.amount.minorUnits != b.amount.minorUnits ? a.amount.minorUnits > b.amount.minorUnits : Text.precedes(a.payee.name, b.payee.name)
            }.prefix(limit)
        }
    }

    static func topRows(_ top: [(payee: Payee, amount: Money, count: Int)], context: ReportContext) -> [TopRow] {
        var rank = 0
        var currency: Currency?
        return top.map { entry in
            if entry.amount.currency != currency { (rank, currency) = (0, entry.amount.currency) }
            rank += 1
            return TopRow(rank: rank, name: entry.payee.name, href: ReportContext.href(entry.payee.target),
                          amount: context.money(entry.amount), count: context.count(entry.count))
        }
    }

    /// The rows of ``topRows(_:context:)``, a table per currency.
    static func topTables(_ top: [(payee: Payee, amount: Money, count: Int)], context: ReportContext) -> [TopTable] {
        let rows = topRows(top, context: context)
        var tables: [TopTable] = []
        for (entry, row) in zip(top, rows) {
            if row.rank == 1 { tables.append(TopTable(currency: entry.amount.currency.code, rows: [])) }
            tables[tables.count - 1] = TopTable(currency: tables[tables.count - 1].currency, rows: tables[tables.count - 1].rows + [row])
        }
        return tables
    }

    /// The index's pages, every counterparty's own page and the occasional pages; none without payments.
    public static func pages(_ payees: [Payee], context: ReportContext, section: String?) -> (index: [Page], payees: [Page]) {
        guard !payees.isEmpty else { return ([], []) }
        let crumbs = [Link("Dashboard", "index")]
        let year = context.progress.asOf?.year
        let base = context.settings.baseCurrency
        let topYear = year.map { topTables(top(payees, year: $0, base: base), context: context) } ?? []
        let topAll = topTables(top(payees, year: nil, base: base), context: context)
        let allInYear = year != nil && payees.allSatisfy { $0.payments.allSatisfy { $0.date.year == year } }
        let occasional = payees.filter { !$0.hasOwnPage }
        let pagination = Pagination(count: payees.count, pageSize: indexPageSize)
        let index = pagination.pages(base: indexPath, title: title).map { page in
            let rows = payees[page.range].map { payee in
                let totals = payee.totals()
                return IndexRow(name: payee.name, href: ReportContext.href(payee.target), count: context.count(payee.payments.count),
                                paidOut: context.money(totals.paidOut), received: context.money(totals.received),
                                last: payee.payments.first.map { context.date($0.date) } ?? "")
            }
            return Page(path: page.path, title: page.title, template: "payees-index", section: section,
                        breadcrumbs: page.number == 1 ? crumbs : crumbs + [Link(title, indexPath)],
                        view: IndexView(countText: context.counted(payees.count, "counterparty", "counterparties"),
                                        hasOccasional: !occasional.isEmpty, minimum: minimumPaymentsForOwnPage,
                                        occasionalHref: ReportContext.href(occasionalPath),
                                        year: year.map(String.init) ?? "", topYear: page.number == 1 ? topYear : [],
                                        hasTopYear: page.number == 1 && !topYear.isEmpty, topAll: page.number == 1 ? topAll : [],
                                        hasTopAll: page.number == 1 && !topAll.isEmpty && !allInYear, allInYear: allInYear,
                                        rows: rows, isFirstPage: page.number == 1,
                                        pager: pagination.view(page: page.number, base: indexPath, noun: "counterparties", locale: context.locale)))
        }
        var pages: [Page] = []
        for payee in payees where payee.hasOwnPage {
            let months = payee.months()
            let totals = payee.totals()
            let payments = Self.pagination(of: payee.payments)
            let summary = (count: context.counted(payee.payments.count, "payment"), out: context.money(totals.paidOut),
                           hasOut: !totals.paidOut.isEmpty,
                           received: context.money(totals.received), hasReceived: !totals.received.isEmpty,
                           uncounted: payee.payments.contains { !$0.counted },
                           first: payee.payments.last.map { context.date($0.date) } ?? "",
                           last: payee.payments.first.map { context.date($0.date) } ?? "")
            for page in payments.pages(base: payee.ownPath, title: payee.name) {
                let rows = payee.payments[page.range]
                pages.append(Page(path: page.path, title: page.title, template: "payees-payee", section: section,
                                  breadcrumbs: crumbs + [Link(title, indexPath)],
                                  view: view(rows, months: months, summary: summary, name: payee.name,
                                             pager: payments.view(page: page.number, base: payee.ownPath, noun: "payments", locale: context.locale),
                                             context: context)))
            }
        }
        pages += occasionalPages(occasional, context: context, section: section, crumbs: crumbs + [Link(title, indexPath)])
        return (index, pages)
    }

    /// The occasional payees' pages: `occasional`'s payments, the payees in name order, each
    /// one's newest first, paged as ``payees(of:)`` gave their targets.
    static func occasionalPages(_ occasional: [Payee], context: ReportContext, section: String?, crumbs: [Link]) -> [Page] {
        guard !occasional.isEmpty else { return [] }
        let pagination = occasionalPagination(paymentCounts: occasional.map(\.payments.count))
        let payments = occasional.reduce(0) { $0 + $1.payments.count }
        let countText = context.counted(occasional.count, "payee") + ", " + context.counted(payments, "payment")
        return pagination.pages(base: occasionalPath, title: occasionalTitle).map { page in
            Page(path: page.path, title: page.title, template: "payees-occasional", section: section, breadcrumbs: crumbs,
                 view: occasionalView(occasional[page.range], countText: countText,
                                      pager: pagination.view(page: page.number, base: occasionalPath, noun: "payees", locale: context.locale),
                                      context: context))
        }
    }

    static func occasionalView(_ payees: ArraySlice<Payee>, countText: String, pager: Pagination.View, context: ReportContext) -> OccasionalView {
        var rows: [OccasionalRow] = []
        for payee in payees {
            for (index, payment) in payee.payments.enumerated() {
                let money = context.money(payment.amount)
                rows.append(OccasionalRow(payee: payee.name, anchor: index == 0 ? anchor(slug: payee.slug) : "", first: index == 0,
                                          date: context.date(payment.date), reference: payment.reference, account: payment.account,
                                          paidOut: payment.incoming ? "" : money, received: payment.incoming ? money : "",
                                          counted: payment.counted))
            }
        }
        return OccasionalView(countText: countText, minimum: minimumPaymentsForOwnPage, hasUncounted: rows.contains { !$0.counted },
                              rows: rows, pager: pager, indexHref: ReportContext.href(indexPath))
    }

    static func view(_ payments: ArraySlice<PayeePayment>, months: [CalendarMonth: (count: Int, paidOut: MoneyTotals, received: MoneyTotals)],
                     summary: (count: String, out: String, hasOut: Bool, received: String, hasReceived: Bool, uncounted: Bool, first: String, last: String),
                     name: String, pager: Pagination.View, context: ReportContext) -> PayeeView {
        var groups: [(month: CalendarMonth, rows: [RowView])] = []
        for payment in payments {
            let month = CalendarMonth(payment.date)
            let money = context.money(payment.amount)
            let row = RowView(date: context.date(payment.date), reference: payment.reference, account: payment.account,
                              paidOut: payment.incoming ? "" : money, received: payment.incoming ? money : "", counted: payment.counted)
            if groups.last?.month == month { groups[groups.count - 1].rows.append(row) } else { groups.append((month, [row])) }
        }
        let monthGroups = groups.map { group in
            let figures = months[group.month] ?? (0, MoneyTotals(), MoneyTotals())
            return MonthGroup(label: TransactionsInsightsReport.monthHeading(group.month, context: context),
                              count: context.counted(figures.count, "payment"), paidOut: context.money(figures.paidOut),
                              hasPaidOut: !figures.paidOut.isEmpty, received: context.money(figures.received),
                              hasReceived: !figures.received.isEmpty, rows: group.rows, continues: group.rows.count < figures.count)
        }
        return PayeeView(name: name, countText: summary.count, paidOut: summary.out, hasPaidOut: summary.hasOut, received: summary.received,
                         hasReceived: summary.hasReceived, hasUncounted: summary.uncounted,
                         span: summary.first == summary.last ? "on \(summary.first)" : "from \(summary.first) to \(summary.last)",
                         months: monthGroups, pager: pager, indexHref: ReportContext.href(indexPath))
    }
}
