import NestEggModel
import NestEggSupport
import Foundation

/// The report stage: every report's pages, from the dataset alone (pure functions).
public enum SiteReport {
    /// What several reports derive from the dataset, worked out once, by whichever report asks
    /// first (the reports run at once; each value behind a lock of its own, taken one way only).
    final class Derived: Sendable {
        private let dataset: Dataset
        /// Where the transactions lists' rows come from.
        let rows: SiteReport.SpendingRows
        private let context: ReportContext
        private let memo: (any DigestMemo)?
        /// The accounts whose own pages another build step makes (by UID): their figures are given.
        let elsewhere: Set<String>
        /// Figures the caller has (``AccountFigures``, by UID): held elsewhere, or worked out by the build's map.
        private let given: [String: AccountFigures]

        init(_ dataset: Dataset, context: ReportContext, memo: (any DigestMemo)? = nil, figures: [String: AccountFigures] = [:],
             elsewhere: Set<String> = [], rows: SiteReport.SpendingRows = .inMemory) {
            self.dataset = dataset
            self.rows = rows
            self.context = context
            self.memo = memo
            self.given = figures
            self.elsewhere = elsewhere
        }

        /// Every bank account's figures (``AccountFigures``), by UID: what the site-wide pages
        /// read of the accounts, given by the caller or worked out here (once, on every core). No
        /// site-wide figure is read from a feed.
        var figures: [String: AccountFigures] {
            figuresOnce.value {
                given.merging(AccountFigures.of(dataset, context: context, except: Set(given.keys)), uniquingKeysWith: { given, _ in given })
            }
        }
        private let figuresOnce = Once<[String: AccountFigures]>()

        /// Every account's statements and their digests (``StatementsReport/accounts(_:context:memo:figures:elsewhere:)``):
        /// the statements pages, their start-page section, the headline and the manifest read them.
        var statements: StatementsReport.Computed? {
            statementsOnce.value { StatementsReport.accounts(dataset, context: context, memo: memo, figures: figures, elsewhere: elsewhere) }
        }
        private let statementsOnce = Once<StatementsReport.Computed?>()

        /// Outgoing payments of both sources (``TransactionsRules/items(from:clock:)``): with the
        /// rows in memory, the totals and the lists' rows. (With runs, the transactions app's only: ``appSpending``.)
        var spending: [SpendingItem] {
            precondition(rows.isInMemory, "with runs, the Starling accounts' rows are the build's to bring")
            return spendingOnce.value { TransactionsRules.items(from: dataset, clock: context.clock, figures: figures) }
        }
        private let spendingOnce = Once<[SpendingItem]>()

        /// The transactions app's outgoing payments, newest first, worked out once.
        var appSpending: [SpendingItem] {
            appSpendingOnce.value { TransactionsRules.items(from: dataset, clock: context.clock, bankAccounts: false) }
        }
        private let appSpendingOnce = Once<[SpendingItem]>()

        /// Every counterparty and its payments (``PayeesReport/payees(_:context:figures:)``), worked out once:
        /// their pages, and the links to them from the transactions lists, the recurring payments and the search.
        var payees: [PayeesReport.Payee] {
            payeesOnce.value { PayeesReport.payees(dataset, context: context, figures: figures) }
        }
        private let payeesOnce = Once<[PayeesReport.Payee]>()

        /// Every account's cash flow (``CashFlowReport/accounts(_:figures:)``) and its
        /// months (``CashFlowReport/months(_:rates:base:asOf:)``), worked out once: the cash-flow
        /// pages, the budgets, their start-page sections and the search read them.
        var cashFlow: (accounts: [AccountCashFlow], months: [CashFlowReport.Month]) {
            cashFlowOnce.value {
                let accounts = CashFlowReport.accounts(dataset, figures: figures)
                return (accounts, CashFlowReport.months(accounts, rates: dataset.rates, base: context.settings.baseCurrency, asOf: context.progress.asOf))
            }
        }
        private let cashFlowOnce = Once<(accounts: [AccountCashFlow], months: [CashFlowReport.Month])>()

        /// What was spent each month per category, converted (``MonthlySpent``), worked out once
        /// from ``totals``: the budgets, their start-page section and the year pages read it.
        var monthlySpent: MonthlySpent {
            monthlySpentOnce.value { MonthlySpent(totals, rates: dataset.rates, base: context.settings.baseCurrency, progress: context.progress) }
        }
        private let monthlySpentOnce = Once<MonthlySpent>()

        /// The counterparties' pages by name (``PayeesReport/Directory``), made once from ``payees``:
        /// the transactions lists, the recurring payments and the search link to them.
        var payeeDirectory: PayeesReport.Directory {
            directoryOnce.value { PayeesReport.Directory(payees) }
        }
        private let directoryOnce = Once<PayeesReport.Directory>()

        /// The spending list's totals (``SpendingTotals``): the insights, the start page and the
        /// lists' counts and sums read them, not the rows.
        var totals: SpendingTotals {
            totalsOnce.value {
                switch rows {
                case .inMemory:
                    return SpendingTotals(spending)
                case .runs(let starling):
                    // Every bank account's totals come with the runs, those of the accounts mapped here too.
                    var totals = SpendingTotals(appSpending)
                    totals.add(starling)
                    return totals
                }
            }
        }
        private let totalsOnce = Once<SpendingTotals>()

        /// The transactions lists (``SpendingLists``): with the rows in memory, filled here; with
        /// runs, the transactions app's rows only, the build bringing the bank accounts' runs.
        var lists: SpendingLists? {
            listsOnce.value {
                switch rows {
                case .inMemory:
                    let lists = TransactionsReport.lists(totals, rows: spending)
                    if let mismatch = lists?.fill([], keeps: { _ in true }) { preconditionFailure("the spending list disagrees with its own totals: \(mismatch)") }
                    return lists
                case .runs:
                    return TransactionsReport.lists(totals, rows: appSpending)
                }
            }
        }
        private let listsOnce = Once<SpendingLists?>()
    }

    /// A value worked out by the first caller, under a lock, and kept for the others.
    final class Once<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var made: Value?

        func value(_ make: () -> Value) -> Value {
            lock.withLock {
                if let made { return made }
                let value = make()
                made = value
                return value
            }
        }
    }

    /// Where the transactions lists' rows come from: the dataset (and ``AccountFigures`` worked
    /// out from feeds), or sorted runs the build brings after the report, with the totals of every
    /// bank account's rows.
    public enum SpendingRows: Sendable {
        case inMemory
        case runs(SpendingTotals)

        var isInMemory: Bool { if case .inMemory = self { true } else { false } }
    }

    /// One report: its section, and how it makes its pages and its part of the start page.
    struct Report: Sendable {
        let section: Section
        let pages: @Sendable (Dataset, ReportContext, Derived) -> [Page]
        let dashboard: @Sendable (Dataset, ReportContext, Derived) -> DashboardSection?

        init(section: Section, pages: @escaping @Sendable (Dataset, ReportContext) -> [Page],
             dashboard: @escaping @Sendable (Dataset, ReportContext) -> DashboardSection?) {
            self.section = section
            self.pages = { dataset, context, _ in pages(dataset, context) }
            self.dashboard = { dataset, context, _ in dashboard(dataset, context) }
        }

        /// A report of a source that is not a bank account. Its pages are made of the data
        /// folder's other files alone, and that is so by what they are given, not by what they
        /// promise: the report sees the dataset without its accounts and a context without the
        /// data's as-of date. (Its start-page section sees everything.)
        static func ofOtherSource(section: Section, pages: @escaping @Sendable (Dataset, ReportContext) -> [Page],
                                  dashboard: @escaping @Sendable (Dataset, ReportContext) -> DashboardSection?) -> Report {
            return Report(section: section, pages: { dataset, context in
                var others = dataset
                others.accounts = []
                return pages(others, ReportContext(settings: context.settings))
            }, dashboard: dashboard)
        }

        init(section: Section, pages: @escaping @Sendable (Dataset, ReportContext, Derived) -> [Page],
             dashboard: @escaping @Sendable (Dataset, ReportContext, Derived) -> DashboardSection?) {
            self.section = section
            self.pages = pages
            self.dashboard = dashboard
        }
    }

    /// The reports, in the order of the navigation and the start page: the order a household asks
    /// in. Where it stands (the accounts' balances, net worth), then this month (spent, budgets,
    /// cash flow, recurring payments due), then goals, statements and the transactions, then loans
    /// and transfers.
    static let reports: [Report] = [
        Report(section: RoundUpsReport.section, pages: { RoundUpsReport.pages(for: $0.accounts, context: $1, figures: $2.figures, elsewhere: $2.elsewhere) },
               dashboard: { RoundUpsReport.dashboard(for: $0.accounts, context: $1, figures: $2.figures) }),
        Report(section: NetWorthReport.section, pages: { NetWorthReport.pages(for: $0, context: $1, figures: $2.figures) },
               dashboard: { NetWorthReport.dashboard(for: $0, context: $1, figures: $2.figures) }),
        Report(section: TransactionsInsightsReport.section,
               pages: { TransactionsInsightsReport.pages(
                   for: $2.totals, context: $1, payees: $2.payees,
                   spent: $2.monthlySpent,
                   cashFlow: $2.cashFlow.months) },
               dashboard: { TransactionsInsightsReport.dashboard(for: $2.totals, context: $1) }),
        Report(section: BudgetsReport.section, pages: { BudgetsReport.pages($2.monthlySpent, context: $1) },
               dashboard: { BudgetsReport.dashboard($2.monthlySpent, context: $1) }),
        Report(section: CashFlowReport.section, pages: { CashFlowReport.pages(
            for: $0, context: $1, months: $2.cashFlow.months,
            reconciliations: CashFlowReport.reconciliations($2.cashFlow.accounts, totals: $2.totals, app: SpendingTotals($2.appSpending),
                                                            months: $2.cashFlow.months.map(\.month))) },
               dashboard: { CashFlowReport.dashboard(for: $0, context: $1, months: $2.cashFlow.months) }),
        Report(section: RecurringReport.section, pages: { RecurringReport.pages(for: $0, context: $1, figures: $2.figures, payee: { [directory = $2.payeeDirectory] in directory.path(of: $0) }) },
               dashboard: { RecurringReport.dashboard(for: $0, context: $1, figures: $2.figures) }),
        Report(section: GoalsReport.section, pages: GoalsReport.pages, dashboard: GoalsReport.dashboard),
        Report(section: StatementsReport.section, pages: { StatementsReport.pages($2.statements, context: $1) },
               dashboard: { StatementsReport.dashboard($2.statements, context: $1) }),
        // Its start-page section is the insights'.
        Report(section: TransactionsReport.section, pages: { dataset, context, derived in
            let payees = derived.payeeDirectory
            return derived.lists.map { lists in
                TransactionsReport.pages(for: lists, totals: derived.totals, context: context, payee: { payees.path(of: $0) },
                                         rowStyle: TransactionsReport.rowStyle(dataset, payees: payees))
            } ?? [] },
               dashboard: { _, _, _ in nil }),
        .ofOtherSource(section: LoansReport.section, pages: LoansReport.pages, dashboard: LoansReport.dashboard),
        // The loans section names the top countries.
        .ofOtherSource(section: CountriesReport.section, pages: CountriesReport.pages, dashboard: { _, _ in nil }),
        .ofOtherSource(section: LenderReport.section, pages: LenderReport.pages, dashboard: LenderReport.dashboard),
        .ofOtherSource(section: TransfersReport.section, pages: TransfersReport.pages, dashboard: TransfersReport.dashboard),
    ]

    /// Every report's pages (the reports are worked out at once, on every core), the start page
    /// first; a report without pages has no section.
    /// `notes` are the load's warnings: with any, the site has a data notes page. `previous` is
    /// what the last build into the same folder left to compare with (``ChangeSnapshot``),
    /// `nil` when there is none: the `changes` page says what changed since.
    /// `memo` may give final statements' digests an earlier build worked out (``DigestMemo``).
    /// `figures` gives, by UID, the figures (``AccountFigures``) the caller has of some accounts:
    /// those held elsewhere, and those its map worked out; every other account's are worked out
    /// here. The site-wide pages read every account's figures (``Derived/figures``), never its
    /// feed, and the data's as-of date is the latest of the dataset and the figures.
    /// `elsewhere`: the accounts whose own pages another build step makes (``Page/entity``); the
    /// dataset holds them without their transactions.
    /// `rows` says where the transactions lists' rows come from: with `.runs`, the build fills
    /// ``Site/spendingLists`` before it renders them.
    /// `snapshot`: with accounts elsewhere, the whole data's snapshot for the "what changed" page
    /// (``ChangeSnapshot/init(_:itemsOf:from:)``); without it that page is a first build's.
    public static func build(_ dataset: Dataset, notes: [Diagnostic] = [], previous: ChangeSnapshot? = nil,
                             memo: (any DigestMemo)? = nil, figures: [String: AccountFigures] = [:],
                             elsewhere: Set<String> = [], rows: SpendingRows = .inMemory,
                             snapshot: ChangeSnapshot? = nil) -> Site {
        precondition(elsewhere.isSubset(of: figures.keys), "an account whose pages are made elsewhere comes with its figures")
        let context = ReportContext(dataset: dataset, figures: figures)
        let reportNotes = ratesNotes(dataset.rates, context: context)
        let notes = notes + reportNotes
        let derived = Derived(dataset, context: context, memo: memo, figures: figures, elsewhere: elsewhere, rows: rows)
        // The statements (every account's months and digests) take longest: they start first, so
        // that the other reports fill the other cores meanwhile. Results keep the navigation's order.
        let startsFirst = { (index: Int) in reports[index].section == StatementsReport.section }
        let order = reports.indices.filter(startsFirst) + reports.indices.filter { !startsFirst($0) }
        var sections: [Section] = []
        var dashboard: [Site.DashboardEntry] = []
        // The site's pages are one array, made once at its size: a hundred thousand pages cost
        // some 27 MB, and growing it, or appending to it while the reports' own arrays or a first
        // copy were still held, doubled that at the build's peak. The reports' arrays end with this scope.
        var pages: [Page] = []
        // The counterparties' pages are made beside the reports (they need the payees, which some reports share).
        let payeePages = Beside { PayeesReport.pages(derived.payees, context: context, section: TransactionsReport.section.id) }
        do {
            var results = [([Page], DashboardSection?)](repeating: ([], nil), count: reports.count)
            let ran = Concurrently.map(order.count) { position in
                let report = reports[order[position]]
                let pages = report.pages(dataset, context, derived)
                return (pages, pages.isEmpty ? nil : report.dashboard(dataset, context, derived))
            }
            for (position, index) in order.enumerated() { results[index] = ran[position] }
            for (report, (reportPages, summary)) in zip(reports, results) where !reportPages.isEmpty {
                sections.append(report.section)
                if let summary { dashboard.append(.init(section: report.section, summary: summary)) }
            }
            // The start page, every report's pages, the "what changed" page and the data notes page.
            pages.reserveCapacity(1 + results.reduce(0) { $0 + $1.0.count } + 2)
            pages.append(DashboardReport.page(for: dataset, sections: dashboard.map(\.summary), spending: derived.totals,
                                              statements: derived.statements, context: context, dataAsOf: context.progress.asOf))
            for (reportPages, _) in results { pages += reportPages }
        }
        var changes: ChangeSnapshot?
        var changeDigest: [String] = []
        if elsewhere.isEmpty || snapshot != nil {
            let snapshot = snapshot ?? ChangeSnapshot(dataset)
            changes = snapshot
            pages.append(ChangesReport.page(current: snapshot, previous: previous, context: context))
            changeDigest = ChangesReport.digest(current: snapshot, previous: previous, context: context)
        } else {
            // With accounts elsewhere the site is not all made here, and nothing here is the
            // whole to compare with: the "what changed" page is a first build's, and needs no snapshot.
            pages.append(ChangesReport.page(current: ChangeSnapshot(), previous: nil, context: context))
        }
        let notesPage = DataNotesReport.page(notes, context: context)
        if let notesPage { pages.append(notesPage) }
        pages.append(SearchReport.page(sections: sections))
        // The counterparties' pages are in the transactions' section; the search lists each
        // counterparty once, as a counterparty (so their pages go in after the search's entries).
        pages += payeePages.value.index
        let payees = derived.payeeDirectory
        let counterparties = SearchReport.counterparties(accounts: derived.cashFlow.accounts,
                                                         transactions: dataset.transactions.transactions) { payees.path(of: $0) ?? TransactionsReport.section.path }
        let search = SearchReport.entries(pages: pages, sections: sections, accounts: SearchReport.accounts(derived.statements),
                                          counterparties: counterparties)
        pages += payeePages.value.payees
        var site = Site(title: dataset.settings.title, sections: sections, pages: pages, dashboard: dashboard,
                        dataAsOf: context.progress.asOf, settings: dataset.settings)
        pages = []
        site.search = search
        site.searchMonths = TransactionSearch.months(derived.statements)
        site.searchLists = site.pages.compactMap { $0.section == TransactionsReport.section.id && $0.statementData == nil ? $0.searchChunk?.path : nil }
        (site.statements, site.statementPlaces, site.statementCount) = StatementsReport.recordsMappedHere(derived.statements, context: context)
        site.spendingLists = derived.lists
        site.changes = changes
        site.changeDigest = changeDigest
        if notesPage != nil { site.dataNotes = notes.reduce(0) { $0 + $1.count } }
        site.reportNotes = reportNotes
        return site
    }

    /// A warning for the rates dated after the data's last day (the context's as-of date): no
    /// conversion uses them, and a household that fetched rates for a later day should know its
    /// figures do not. Dates as the site's pages write them.
    public static func ratesNotes(_ rates: ExchangeRates?, context: ReportContext) -> [Diagnostic] {
        guard let rates, let asOf = context.progress.asOf, let later = rates.after(asOf) else { return [] }
        let currencies = later.currencies.map(\.code).joined(separator: ", ")
        return [Diagnostic(.warning, file: rates.files.count == 1 ? rates.files[0] : "rates",
                           message: "\(later.count) rate\(later.count == 1 ? "" : "s") (\(currencies)) dated after the data's last day, "
                               + "\(context.date(asOf)), up to \(context.date(later.last)): not used, since each amount converts at the rate of its own day or the last before it")]
    }
}
