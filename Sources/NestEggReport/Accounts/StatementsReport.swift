import NestEggModel
import NestEggSupport
/// Monthly account statements for the bank accounts: `statements/index` and
/// `statements/<account>/<YYYY-MM>`, one per calendar month (site time zone) from the month the
/// account was opened to the data's as-of month, which is provisional (``ReportingPeriod``).
public enum StatementsReport {
    public static let section = Section(id: "statements", title: "Statements", path: "statements/index")
    /// The template of a single statement: the pages `nestegg build --pdf` prints.
    public static let statementTemplate = "statements-month"

    // MARK: View data (what the templates see)

    struct IndexView: Sendable, Encodable {
        let timeZone: String
        /// The account's own latest date, on its own index; `nil` on the site's, where each
        /// account's statements run to its own.
        let dataAsOf: String?
        let accounts: [IndexAccount]
        /// Which accounts this page shows: accounts are kept whole and share a page while their
        /// months fit in one.
        let pager: Pagination.View
    }

    struct IndexAccount: Sendable, Encodable {
        let name: String
        let type: String
        let currency: String
        let uidTail: String
        /// `sort code 60-83-71, account number 12345678`, an IBAN, or, without identifiers, the
        /// day the account was opened (`opened 3 Mar 2024`): something its holder knows.
        let identification: String
        let holderName: String?
        let hasBalance: Bool
        let clearedBalance: String?
        let noBalanceReason: String?
        let rows: [IndexRow]
    }

    struct IndexRow: Sendable, Encodable {
        let key: String
        let period: String
        let provisional: Bool
        let href: String
        let transactions: Int
        let opening: String
        let moneyIn: String
        let moneyOut: String
        let closing: String
        let net: String
    }

    struct StatementView: Sendable, Encodable {
        let head: AccountHead
        let period: String
        let periodKey: String
        /// The period's last day; `nil` for a provisional statement, which has none yet.
        let statementDate: String?
        /// `Provisional statement, to 21 Nov 2026`, or `nil` for a final statement.
        let provisionalText: String?
        /// What the head calls it: `Statement`, or `Provisional statement`.
        let kind: String
        /// The as-of date, for a provisional statement only (a final one does not change when newer data arrives).
        let dataAsOf: String?
        /// `Closing balance on 31 Oct 2026`, or `Balance on 21 Nov 2026` while the month is not over.
        let closingLabel: String
        let totalsLabel: String
        let timeZone: String
        /// Whether any line has a time of day: a bank's download gives dates alone, and its
        /// statement then has no Time column.
        let hasTimes: Bool
        let hasBalance: Bool
        let noBalanceReason: String?
        let opening: String
        let closing: String
        let moneyIn: String
        let moneyOut: String
        let net: String
        let firstDay: String
        let lastDay: String
        let lines: [LineRow]
        let hasLines: Bool
        /// What a month without transactions says instead of its table.
        let noLinesText: String
        let lineCount: Int
        let lineCountText: String
        let apart: [ApartRow]
        let hasApart: Bool
        let roundUpWeeks: [RoundUpWeekRow]
        /// Whether the account has round-ups at all (``AccountData/roundUps``): the section is left out otherwise.
        let showsRoundUps: Bool
        let hasRoundUps: Bool
        let roundUpCount: Int
        let roundUpCountText: String
        let roundUpTotal: String
        /// ``StatementDigest``: 64 hexadecimal digits, in the small print (the manifest lists it too).
        let digest: String
        /// The first line at the top of every printed page: the issuer's `pageHeader`, else its
        /// name, else that NestEgg printed the statement.
        let pageHeader: String
        /// The second: whose account, which, and the period, so that a page read alone says whose it is.
        let runningHead: String
        /// The statement's other files, beside the page (``StatementData/Format``); the PDF's is
        /// shown only in a build that prints them (the template's `statementPDFs`).
        let csvHref: String
        let camtHref: String
        let pdfHref: String
        let previous: LinkView?
        let next: LinkView?
    }

    /// Who issues the statement; Render writes the logo as a `data:` URI.
    struct IssuerView: Sendable, Encodable {
        let name: String
        let addressText: String?
        let footer: String?
        let address: [String]
        let logo: StatementIssuer.Logo?

        init(_ issuer: StatementIssuer) {
            name = issuer.name
            addressText = issuer.address.isEmpty ? nil : issuer.address.joined(separator: ", ")
            footer = issuer.footer
            address = issuer.address
            logo = issuer.logo
        }
    }

    struct IdentifierRow: Sendable, Encodable {
        let label: String
        let value: String
    }

    /// Who sends a statement and whose account it is: the head of a statement and of a bundle's
    /// index (the `statement-head` and `statement-account` partials).
    struct AccountHead: Sendable, Encodable {
        let issuer: IssuerView?
        let holderName: String?
        /// The holder's address, a line each, as a letter is addressed (`nil` without one).
        let holderAddress: [String]?
        /// The same on one line, for the Markdown: `Flat 2, 18 Albemarle Terrace, LONDON, SW9 8QT`.
        let holderAddressText: String?
        let accountName: String
        let accountType: String
        let currency: String
        /// Sort code and account number, IBAN and BIC — or, without an identifiers file, the day
        /// the account was opened (the account's name, type and currency stand above it): what
        /// its holder knows it by, never an API's identifier.
        let identifiers: [IdentifierRow]

        init(_ data: AccountData, context: ReportContext) {
            let printed = data.identifiers?.printed(currency: data.account.currency) ?? []
            issuer = context.settings.issuer.map(IssuerView.init)
            holderName = data.holderName
            holderAddress = data.holderAddress?.printedLines()
            holderAddressText = holderAddress?.joined(separator: ", ")
            accountName = data.account.name
            accountType = Text.humanized(data.account.type)
            currency = data.account.currency.code
            if printed.isEmpty {
                identifiers = data.account.createdAt.map { [IdentifierRow(label: "Opened", value: context.date($0))] } ?? []
            } else {
                identifiers = printed.map { IdentifierRow(label: $0.label, value: $0.value) }
            }
        }

        /// `Alex Morgan · Personal (Primary) · sort code 60-83-71, account number 12345678`.
        var runningText: String {
            let numbers = identifiers.filter { $0.label != "BIC" }.prefix(2).map { "\(lowercasedLabel($0.label)) \($0.value)" }.joined(separator: ", ")
            return ([holderName, "\(accountName) (\(accountType), \(currency))", numbers.isEmpty ? nil : numbers] as [String?])
                .compactMap { $0 }.joined(separator: " · ")
        }
    }

    struct LineRow: Sendable, Encodable {
        /// The row's id on the page (``TransactionSearch/anchor(line:)``), which the search page links to.
        let anchor: String
        let date: String
        let time: String
        let description: String
        let reference: String
        let moneyIn: String
        let moneyOut: String
        let balance: String
        /// `US$14.01 at 0.790150 GBP per USD`: what a payment in another currency was before
        /// conversion (the feed's `sourceAmount`) and the rate the two amounts imply.
        let foreign: String?
    }

    struct ApartRow: Sendable, Encodable {
        let date: String
        let time: String
        let description: String
        let status: String
        let amount: String
    }

    struct RoundUpWeekRow: Sendable, Encodable {
        let week: String
        let href: String
        let payments: Int
        let roundUp: String
    }

    // MARK: Building

    static func statementPath(slug: String, month: CalendarMonth) -> String { "statements/\(slug)/\(month)" }

    /// Why an account's statements show movements only, or nil when they carry balances.
    static func noBalanceReason(_ data: AccountData) -> String? {
        guard let balance = data.balance else {
            return "There is no balance file for this account (starling/balances/\(data.account.uid).json), so its statements show money in and out only, without balances."
        }
        if balance.cleared.currency != data.account.currency {
            return "The account's balance file is in \(balance.cleared.currency.code), not the account's \(data.account.currency.code), so its statements show money in and out only, without balances."
        }
        return nil
    }

    /// `1–31 Oct 2026`; for a provisional statement the days it covers, `1–21 Nov 2026`.
    static func periodText(_ statement: StatementPeriods.Statement, context: ReportContext) -> String {
        context.locale.formatRange(statement.covered.first, statement.covered.last)
    }

    /// Where an account's statements and round-up weeks are: in the site (`statements/<account>/…`,
    /// `roundups/<account>/…`) or in the account's own bundle (`statements/…`, `roundups/…`).
    struct Paths: Sendable {
        let statement: @Sendable (CalendarMonth) -> String
        let roundUpWeek: @Sendable (ISOWeek) -> String

        static func site(slug: String) -> Paths {
            Paths(statement: { statementPath(slug: slug, month: $0) }, roundUpWeek: { "roundups/\(slug)/\($0)" })
        }

        static let bundle = Paths(statement: { "statements/\($0)" }, roundUpWeek: { "roundups/\($0)" })
    }

    /// Every account that has statements, with them and their digests, in the order of
    /// `accounts.json`, each account's up to its own latest data (``ReportContext/account(_:figures:)``);
    /// and the data's as-of date, the site's (`nil`: the data has no date, or no account has a
    /// statement). The pages, the start page, the headline and the manifest all read them:
    /// ``SiteReport`` works them out once a build.
    typealias Computed = (asOf: CivilDate, accounts: [AccountStatements])

    /// `figures`: accounts' figures (``AccountFigures``, by UID), which give their latest times;
    /// an account without them is read from its feed. The accounts in `elsewhere` have their own
    /// pages made by another build step: their statements are their figures', without lines, and
    /// without digests (`[]`), as no page of this build shows them.
    static func accounts(_ dataset: Dataset, context: ReportContext, memo: (any DigestMemo)? = nil,
                         figures: [String: AccountFigures] = [:], elsewhere: Set<String> = []) -> Computed? {
        guard let asOf = ReportContext(dataset: dataset, figures: figures).progress.asOf else { return nil }
        let all = dataset.accounts, slugs = RoundUpsReport.accountSlugs(all)
        // A bank's thousand accounts are worked out on every core.
        let accounts = Concurrently.map(all.count) { index -> AccountStatements? in
            let uid = all[index].account.uid
            // The account's own latest data, not the site's: its pages depend on its own files only.
            let own = context.account(all[index], figures: figures[uid])
            guard let ownAsOf = own.progress.asOf else { return nil }
            if elsewhere.contains(uid) {
                guard let figures = figures[uid] else { preconditionFailure("an account elsewhere comes with its figures") }
                // Its statements are decoded where a page or a sum reads them.
                let count = figures.statementCount(asOf: ownAsOf)
                guard count > 0 else { return nil }
                return AccountStatements(data: all[index], slug: slugs[index], context: own, held: .figures(figures, asOf: ownAsOf, count: count),
                                         noBalanceReason: noBalanceReason(all[index]), digests: [])
            }
            let statements = StatementPeriods.statements(for: all[index], clock: context.clock, asOf: ownAsOf)
            guard !statements.isEmpty else { return nil }
            return AccountStatements(data: all[index], slug: slugs[index], context: own, held: .fromFeed(statements), noBalanceReason: noBalanceReason(all[index]),
                                     digests: statements.map { statement in
                                         (statement.isProvisional ? nil : memo?.finalStatementDigest(account: all[index], month: statement.month))
                                             ?? StatementDigest.digest(statement, data: all[index], timeZone: context.clock.identifier)
                                     })
        }.compactMap { $0 }
        return accounts.isEmpty ? nil : (asOf, accounts)
    }

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        pages(accounts(dataset, context: context), context: context)
    }

    static func pages(_ computed: Computed?, context: ReportContext) -> [Page] {
        guard let (_, summaries) = computed else { return [] }
        let crumbs = [Link("Dashboard", "index")]
        let indexCrumbs = crumbs + [Link(section.title, section.path)]
        var pages = summaries.flatMap { summary -> [Page] in
            // An account in `elsewhere`: its own pages are made by another step (the index lists it).
            guard !summary.isElsewhere else { return [] }
            return [accountIndexPage(summary, breadcrumbs: indexCrumbs)]
                + statementPages(summary, paths: .site(slug: summary.slug), section: section.id, breadcrumbs: indexCrumbs, search: true)
        }
        let pagination = Pagination(rows: summaries.map { $0.statementCount + 1 })
        let indexPages = pagination.pages(base: section.path, title: "Statements").map { page in
            Page(path: page.path, title: page.title, template: "statements-index", section: section.id,
                 breadcrumbs: page.number == 1 ? crumbs : indexCrumbs,
                 view: IndexView(timeZone: context.clock.identifier, dataAsOf: nil,
                                 accounts: summaries[page.range].map { indexAccount($0, context: context) },
                                 pager: pagination.view(page: page.number, base: section.path, noun: "accounts", locale: context.locale)))
        }
        pages.insert(contentsOf: indexPages, at: 0)
        return pages
    }

    /// `statements/<account>/index`: the account's statements alone, so that an address shortened
    /// from a statement's (`statements/personal/`) is a page, not the host's page for missing ones.
    static func accountIndexPage(_ summary: AccountStatements, breadcrumbs: [Link]) -> Page {
        let context = summary.context
        let path = "statements/\(summary.slug)/index"
        let pagination = Pagination(rows: [summary.statementCount + 1])
        return Page(path: path, title: "Statements: \(summary.data.account.name)", template: "statements-index", section: section.id,
                    breadcrumbs: breadcrumbs, entity: Page.entity(of: summary.data.account),
                    view: IndexView(timeZone: context.clock.identifier, dataAsOf: context.progress.asOf.map(context.date),
                                    accounts: [indexAccount(summary, context: context)],
                                    pager: pagination.view(page: 1, base: path, noun: "accounts", locale: context.locale)))
    }

    /// One account's statement pages, linked to each other and to its round-up weeks by `paths`,
    /// as of the account's own latest data (``AccountStatements/context``). With `search`, each
    /// statement with a line has its chunk of the search page's transactions (``TransactionSearch``).
    static func statementPages(_ summary: AccountStatements, paths: Paths, section: String?, breadcrumbs: [Link], search: Bool = false) -> [Page] {
        let statements = summary.statements, accountContext = summary.context
        // A final statement is made without the as-of date: it reads the same whatever later day the data reaches.
        let settled = ReportContext(settings: accountContext.settings)
        let link = { (statement: StatementPeriods.Statement) in
            LinkView(title: periodText(statement, context: accountContext), href: ReportContext.href(paths.statement(statement.month)))
        }
        return statements.enumerated().map { index, statement in
            let context = statement.isProvisional ? accountContext : settled
            let previous = index > 0 ? link(statements[index - 1]) : nil
            let next = index + 1 < statements.count ? link(statements[index + 1]) : nil
            let path = paths.statement(statement.month)
            let chunk = search && statement.lineCount > 0 ? (path: TransactionSearch.chunkPath(slug: summary.slug, month: statement.month),
                                                             rows: { @Sendable [account = summary.data.account] in
                                                                 TransactionSearch.rows(statement, account: account, page: path, context: context)
                                                             }) : nil
            return Page(path: path, title: title(statement, account: summary.data.account, context: context),
                        template: statementTemplate, section: section, breadcrumbs: breadcrumbs,
                        entity: Page.entity(of: summary.data.account),
                        statementData: { [data = summary.data, digest = summary.digests[index]] in
                            StatementData(statement, data: data, sequence: index + 1, digest: digest, context: context)
                        },
                        searchChunk: chunk, tablesAsCSV: false,
                        view: statementView(statement, data: summary.data, paths: paths, noBalanceReason: summary.noBalanceReason,
                                            context: context, digest: summary.digests[index], previous: previous, next: next))
        }
    }

    /// What a manifest says about each of an account's statements, at the paths `paths` gives.
    static func records(_ summary: AccountStatements, context: ReportContext, paths: Paths) -> [StatementRecord] {
        zip(summary.statements, summary.digests).map { statement, digest in
            StatementRecord(account: summary.data.account, month: statement.month, period: statement.period,
                            status: statement.status, through: statement.through, opening: statement.opening,
                            closing: statement.closing,
                            digest: digest, path: paths.statement(statement.month))
        }
    }

    /// Every statement of the site, for `statements/manifest.json`.
    public static func records(for dataset: Dataset, context: ReportContext) -> [StatementRecord] {
        recordsMappedHere(accounts(dataset, context: context), context: context).records
    }

    /// The statements of the accounts mapped here, from their feeds (every account's, when no account is
    /// in `elsewhere`), each with its place in the site's manifest (``records(for:context:)`` in
    /// full), and how many statements the site has: no record is made of an account whose pages are made elsewhere.
    static func recordsMappedHere(_ computed: Computed?, context: ReportContext) -> (records: [StatementRecord], places: [Int], count: Int) {
        guard let (_, summaries) = computed else { return ([], [], 0) }
        var starts: [Int] = []
        var count = 0
        for summary in summaries {
            starts.append(count)
            count += summary.statementCount
        }
        let mapped = summaries.indices.filter { !summaries[$0].isElsewhere }
        let perAccount = Concurrently.map(mapped.count) { records(summaries[mapped[$0]], context: context, paths: .site(slug: summaries[mapped[$0]].slug)) }
        let places = zip(mapped, perAccount).flatMap { index, own in starts[index]..<(starts[index] + own.count) }
        return (perAccount.flatMap { $0 }, places, count)
    }

    /// One account's statements, as the index needs them.
    struct AccountStatements: Sendable {
        /// Where the statements are: worked out from the account's feed, or, for an account held
        /// as a summary, in its summary (``AccountFigures``), decoded on each read (trimmed: no lines).
        enum Held: Sendable {
            case fromFeed([StatementPeriods.Statement])
            case figures(AccountFigures, asOf: CivilDate, count: Int)
        }
        let data: AccountData
        let slug: String
        /// The context of the account's own pages, as of its own latest data (``ReportContext/account(_:figures:)``).
        let context: ReportContext
        let held: Held
        let noBalanceReason: String?
        /// ``StatementDigest`` of each statement, in the same order; none for an account whose pages are made elsewhere.
        let digests: [String]

        /// Read once where they are used: for an account whose pages are made elsewhere each read decodes them anew.
        var statements: [StatementPeriods.Statement] {
            switch held {
            case .fromFeed(let statements): return statements
            case .figures(let figures, let asOf, _): return figures.statements(asOf: asOf)
            }
        }

        var statementCount: Int {
            switch held {
            case .fromFeed(let statements): return statements.count
            case .figures(_, _, let count): return count
            }
        }

        /// The account's own pages are made elsewhere: its statements are figures only, without lines or
        /// digests, and its pages are made elsewhere.
        var isElsewhere: Bool {
            if case .figures = held { return true }
            return false
        }
    }

    /// One account on the index: its months newest first.
    static func indexAccount(_ summary: AccountStatements, context: ReportContext, paths: Paths? = nil) -> IndexAccount {
        let account = summary.data.account, reason = summary.noBalanceReason
        let paths = paths ?? .site(slug: summary.slug)
        let rows = summary.statements.reversed().map { statement in
            IndexRow(key: "\(statement.month)", period: periodText(statement, context: context),
                     provisional: statement.isProvisional,
                     href: ReportContext.href(paths.statement(statement.month)),
                     transactions: statement.lineCount,
                     opening: statement.opening.map(context.money) ?? "–", moneyIn: context.money(statement.moneyIn),
                     moneyOut: context.money(statement.moneyOut),
                     closing: statement.isProvisional ? "–" : statement.closing.map(context.money) ?? "–",
                     net: context.money(statement.net))
        }
        let printed = summary.data.identifiers?.printed(currency: account.currency) ?? []
        let identification = printed.isEmpty
            ? account.createdAt.map { "opened \(context.date($0))" } ?? "without bank identifiers in the data"
            : printed.prefix(2).map { "\(lowercasedLabel($0.label)) \($0.value)" }.joined(separator: ", ")
        return IndexAccount(
            name: account.name, type: Text.humanized(account.type), currency: account.currency.code,
            uidTail: uidTail(account.uid), identification: identification, holderName: summary.data.holderName,
            hasBalance: reason == nil,
            clearedBalance: reason == nil ? summary.data.balance.map { context.money($0.cleared) } : nil,
            noBalanceReason: reason, rows: rows)
    }

    /// A label inside a sentence: `Sort code` → `sort code`; an abbreviation (`IBAN`, `BIC`) as it is.
    static func lowercasedLabel(_ label: String) -> String {
        guard let first = label.first, let second = label.dropFirst().first, second.isLowercase else { return label }
        return first.lowercased() + label.dropFirst()
    }

    /// The last four characters of an account UID, as statements print it: `…ae81`.
    static func uidTail(_ uid: String) -> String { "…" + uid.suffix(4) }

    /// `Statement for Personal, 1–31 Oct 2026`; `Provisional statement for Personal, 1–21 Nov 2026`.
    static func title(_ statement: StatementPeriods.Statement, account: StarlingAccount, context: ReportContext) -> String {
        "\(statement.isProvisional ? "Provisional statement" : "Statement") for \(account.name), \(periodText(statement, context: context))"
    }

    static func statementView(_ statement: StatementPeriods.Statement, data: AccountData, paths: Paths,
                              noBalanceReason: String?, context: ReportContext, digest: String,
                              previous: LinkView?, next: LinkView?) -> StatementView {
        let through = context.date(statement.through)
        let provisional = statement.isProvisional
        let fileName = "\(statement.month)"
        let noLinesText: String
        if let opening = statement.opening {
            noLinesText = provisional
                ? "No transactions in this period so far: the balance on \(through) is \(context.money(opening)), as it was brought forward."
                : "No transactions in this period: the balance of \(context.money(opening)) is carried forward."
        } else {
            noLinesText = "No settled transactions in this period."
        }
        let lines = statement.lines.enumerated().map { index, line in
            LineRow(anchor: TransactionSearch.anchor(line: index + 1), date: context.date(line.item.transactionTime), time: line.item.dateOnly ? "" : context.time(line.item.transactionTime),
                    description: line.item.counterPartyName.isEmpty ? Text.humanized(line.item.source.rawValue) : line.item.counterPartyName,
                    reference: Text.singleLine(line.item.reference),
                    moneyIn: line.item.direction == .in ? context.money(line.item.amount) : "",
                    moneyOut: line.item.direction == .out ? context.money(line.item.amount) : "",
                    balance: line.balance.map(context.money) ?? "",
                    foreign: line.item.sourceAmount.flatMap { source -> String? in
                        guard source.currency != line.item.amount.currency else { return nil }
                        let rate = StatementData.impliedRate(amount: line.item.amount, source: source)
                        return context.money(source) + (rate.map { " at \($0) \(line.item.amount.currency.code) per \(source.currency.code)" } ?? "")
                    })
        }
        let apart = statement.apart.map { entry in
            ApartRow(date: context.date(entry.item.transactionTime), time: entry.item.dateOnly ? "" : context.time(entry.item.transactionTime),
                     description: entry.item.counterPartyName.isEmpty ? Text.humanized(entry.item.source.rawValue) : entry.item.counterPartyName,
                     status: entry.apart.reason, amount: context.money(entry.item.signedAmount))
        }
        // Round-ups grouped by ISO week, linking to the week's round-up page.
        var weeks: [(week: ISOWeek, count: Int, total: Money)] = []
        for counted in statement.roundUps {
            let week = ISOWeek(containing: context.clock.date(of: counted.item.transactionTime))
            if let last = weeks.last, last.week == week {
                weeks[weeks.count - 1] = (week, last.count + 1, last.total + counted.roundUp)
            } else {
                weeks.append((week, 1, counted.roundUp))
            }
        }
        // A week is named by its days within the period (`28 Sep – 4 Oct 2026` in a year's view,
        // `1–4 Oct 2026` here), as a reader counts them; its ISO number stays in the link.
        let weekRows = weeks.map {
            RoundUpWeekRow(week: context.locale.formatRange(max($0.week.monday, statement.period.first),
                                                            min($0.week.sunday, statement.through)),
                           href: ReportContext.href(paths.roundUpWeek($0.week)),
                           payments: $0.count, roundUp: context.money($0.total))
        }
        let head = AccountHead(data, context: context)
        let issuer = context.settings.issuer
        return StatementView(
            head: head, period: periodText(statement, context: context),
            periodKey: "\(statement.month)", statementDate: provisional ? nil : through,
            provisionalText: provisional ? "Provisional statement, to \(through), the account's latest data" : nil,
            kind: provisional ? "Provisional statement" : "Statement", dataAsOf: provisional ? through : nil,
            closingLabel: provisional ? "Balance on \(through)" : "Closing balance on \(through)",
            totalsLabel: provisional ? "Totals and balance" : "Totals and closing balance",
            timeZone: context.clock.identifier,
            hasTimes: statement.lines.contains { !$0.item.dateOnly } || statement.apart.contains { !$0.item.dateOnly },
            hasBalance: statement.hasBalance, noBalanceReason: noBalanceReason,
            opening: statement.opening.map(context.money) ?? "", closing: statement.closing.map(context.money) ?? "",
            moneyIn: context.money(statement.moneyIn), moneyOut: context.money(statement.moneyOut),
            net: context.money(statement.net), firstDay: context.date(statement.period.first), lastDay: through,
            lines: lines, hasLines: !lines.isEmpty, noLinesText: noLinesText, lineCount: lines.count,
            lineCountText: context.counted(lines.count, "settled transaction"), apart: apart, hasApart: !apart.isEmpty,
            roundUpWeeks: weekRows, showsRoundUps: data.roundUps, hasRoundUps: !statement.roundUps.isEmpty, roundUpCount: statement.roundUps.count,
            roundUpCountText: context.counted(statement.roundUps.count, "payment"),
            roundUpTotal: context.money(statement.roundUpTotal),
            digest: digest,
            pageHeader: issuer.map { $0.pageHeader ?? $0.name } ?? "Printed by NestEgg from the data as given",
            runningHead: "\(head.runningText) · \(provisional ? "Provisional statement" : "Statement"), \(periodText(statement, context: context))",
            csvHref: fileName + "." + StatementData.Format.csv.fileExtension,
            camtHref: fileName + "." + StatementData.Format.camt053.fileExtension, pdfHref: fileName + ".pdf",
            previous: previous, next: next)
    }

    /// The start page's statements: each account's latest statement and its closing balance.
    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        dashboard(accounts(dataset, context: context), context: context)
    }

    static func dashboard(_ computed: Computed?, context: ReportContext) -> DashboardSection? {
        var rows: [DashboardSection.Table.Row] = []
        var figures: [DashboardSection.Figure] = []
        for summary in computed?.accounts ?? [] {
            let data = summary.data, slug = summary.slug
            guard let latest = summary.statements.last else { continue }
            let period = periodText(latest, context: context) + (latest.isProvisional ? " (provisional)" : "")
            let href = ReportContext.href(statementPath(slug: slug, month: latest.month))
            if let closing = latest.closing {
                // The figure keeps its id while the month is provisional: it is the latest statement's balance.
                let label = latest.isProvisional ? "balance on \(context.date(latest.through)) (provisional statement)"
                    : "closing balance, \(period)"
                figures.append(.init(label: "\(data.account.name): \(label)", value: context.money(closing), href: href,
                                     amount: closing, id: "\(slug).latest-closing-balance"))
            } else {
                figures.append(.init(label: "\(data.account.name): net movement, \(period)", value: context.money(latest.net), href: href,
                                     amount: latest.net, id: "\(slug).latest-net-movement"))
            }
            rows.append(.init([data.account.name, period, context.money(latest.moneyIn), context.money(latest.moneyOut),
                               latest.closing.map(context.money) ?? "–"]))
        }
        guard !rows.isEmpty else { return nil }
        return DashboardSection(
            title: "Statements", href: ReportContext.href(section.path), linkText: "Every monthly statement",
            figures: figures,
            table: .init(columns: ["Account", "Latest statement", "Money in", "Money out", "Balance"],
                         numeric: [false, false, true, true, true], rows: rows))
    }
}


/// One statement as a manifest lists it: whose, which period, final or provisional, its
/// balances and its digest, and the page it is at (without extension).
public struct StatementRecord: Sendable {
    public let account: StarlingAccount
    public let month: CalendarMonth
    public let period: ReportingPeriod
    public let status: ReportingPeriod.Status
    /// The last day its figures cover: the period's last day, or the as-of date while provisional.
    public let through: CivilDate
    public let opening: Money?
    /// The balance on `through` (for a provisional statement not a closing balance; the manifest
    /// says which). `nil` without a balance file.
    public let closing: Money?
    public let digest: String
    public let path: String

    public init(account: StarlingAccount, month: CalendarMonth, period: ReportingPeriod, status: ReportingPeriod.Status,
                through: CivilDate, opening: Money?, closing: Money?, digest: String, path: String) {
        self.account = account
        self.month = month
        self.period = period
        self.status = status
        self.through = through
        self.opening = opening
        self.closing = closing
        self.digest = digest
        self.path = path
    }
}
