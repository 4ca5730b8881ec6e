import NestEggModel
import NestEggSupport
/// The lender's page, `lender/index`: the Kiva account (name, lender id, balance), the loans
/// made with it, and the cart: each loan's donation, the total and whether the balance covers it.
public enum LenderReport {
    public static let section = Section(id: "lender", title: "Lender", path: "lender/index")

    // MARK: View data

    struct View: Sendable, Encodable {
        let name: String?
        let lenderID: String?
        let balance: String?
        let hasMyLoans: Bool
        let myLoanSummary: String
        let myLoans: [KivaSupport.LoanRow]
        let myStatuses: [KivaSupport.StatusRow]
        let myTotal: KivaSupport.StatusRow
        let hasCart: Bool
        let cart: [CartRow]
        let cartSummary: String
        let cartTotal: String
        let coverage: String
        let covered: Bool
    }

    struct CartRow: Sendable, Encodable {
        let loanID: Int
        /// The loan's page on Kiva (a link, never fetched): the cart names a loan by its id only.
        let loanHref: String
        let borrower: String
        let flag: String
        let country: String
        let countryHref: String?
        let status: String
        let stillNeeded: String
        let donation: String
        let note: String
    }

    /// A loan's page on Kiva, by its id (a number: nothing from the data but digits goes in).
    static func kivaHref(_ id: Int) -> String { "https://www.kiva.org/lend/\(id)" }

    /// Whether the balance covers the cart, in words, and as a flag.
    static func coverage(balance: Money?, total: Money, context: ReportContext) -> (text: String, covered: Bool) {
        guard let balance else {
            return ("There is no kiva/my/balance.json, so the cart cannot be compared with the balance.", false)
        }
        if balance.minorUnits >= total.minorUnits {
            return ("The balance of \(context.money(balance)) covers the cart, leaving \(context.money(balance - total)).", true)
        }
        return ("The balance of \(context.money(balance)) does not cover the cart: \(context.money(total - balance)) short.", false)
    }

    // MARK: Building

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        let kiva = dataset.kiva
        guard kiva.hasLender else { return [] }
        // The view is worked out when the page is rendered, and only where the page is made.
        return [Page(path: section.path, title: "Your Kiva account", template: "lender-index", section: section.id,
                     breadcrumbs: [Link("Dashboard", "index")], view: view(of: kiva, context: context))]
    }

    static func view(of kiva: KivaData, context: ReportContext) -> View {
        let countries = kiva.countriesByCode
        let slugs = KivaSupport.countrySlugs(kiva.loans.map(\.location.countryCode))
        let myLoans = KivaSupport.newestFirst(kiva.myLoans)
        // My loans link to a country page only when the listing has loans there (pages exist only for those).
        let rows = myLoans.map { KivaSupport.loanRow($0, countries: countries, slugs: slugs, context: context) }
        let totals = KivaSupport.statusTotals(myLoans, currency: kiva.currency, context: context)

        // The cart's loans, as the listing has them (it is newer) or else as the lender's loans do.
        let inCart = Set(kiva.cart.map(\.loanID))
        var loansByID: [Int: KivaLoan] = [:]
        for loan in [kiva.myLoans, kiva.loans].joined() where inCart.contains(loan.id) { loansByID[loan.id] = loan }
        let cart = kiva.cart.map { item -> CartRow in
            guard let loan = loansByID[item.loanID] else {
                return CartRow(loanID: item.loanID, loanHref: kivaHref(item.loanID), borrower: "–", flag: "", country: "–", countryHref: nil, status: "–",
                               stillNeeded: "–", donation: context.money(item.amount), note: "not in the loan listing")
            }
            let place = KivaSupport.place(loan.location.countryCode, kivaName: loan.location.country, countries: countries)
            let needed = loan.loanAmount - loan.fundedAmount
            var notes: [String] = []
            if loan.status != .fundraising { notes.append("no longer fundraising") }
            if loan.status == .fundraising && item.amount.minorUnits > needed.minorUnits {
                notes.append("more than the loan still needs")
            }
            return CartRow(loanID: loan.id, loanHref: kivaHref(loan.id), borrower: loan.name, flag: place.flag, country: place.name,
                           countryHref: slugs[place.code].map { ReportContext.href(KivaSupport.countryPath($0)) },
                           status: KivaSupport.statusLabel(loan.status),
                           stillNeeded: context.money(needed.isNegative ? .zero(needed.currency) : needed),
                           donation: context.money(item.amount), note: notes.joined(separator: "; "))
        }
        let total = kiva.cart.reduce(Money.zero(kiva.currency)) { $0 + $1.amount }
        let coverage = self.coverage(balance: kiva.balance, total: total, context: context)
        return View(
            name: kiva.account.map(\.name).flatMap { $0.isEmpty ? nil : $0 }, lenderID: kiva.account?.lenderID,
            balance: kiva.balance.map(context.money),
            hasMyLoans: kiva.hasMyLoans, myLoanSummary: context.counted(rows.count, "loan"), myLoans: rows, myStatuses: totals.rows, myTotal: totals.total,
            hasCart: kiva.hasCart, cart: cart, cartSummary: context.counted(cart.count, "loan"), cartTotal: context.money(total),
            coverage: coverage.text, covered: coverage.covered)
    }

    /// The start page's lender: balance, loans made, and the cart against the balance.
    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        let kiva = dataset.kiva
        guard kiva.hasLender else { return nil }
        var figures: [DashboardSection.Figure] = []
        if let balance = kiva.balance { figures.append(.init(label: "Balance", value: context.money(balance))) }
        if kiva.hasMyLoans { figures.append(.init(label: "My loans", value: context.count(kiva.myLoans.count))) }
        if kiva.hasCart {
            let total = kiva.cart.reduce(Money.zero(kiva.currency)) { $0 + $1.amount }
            var value = "\(context.money(total)) for \(kiva.cart.count) loan\(kiva.cart.count == 1 ? "" : "s")"
            if let balance = kiva.balance {
                value += balance.minorUnits >= total.minorUnits ? ", covered by the balance" : ", \(context.money(total - balance)) more than the balance"
            }
            figures.append(.init(label: "Cart", value: value))
        }
        let name = kiva.account.map { $0.name.isEmpty ? $0.lenderID : $0.name }
        return DashboardSection(title: name.map { "Kiva lender: \($0)" } ?? "Kiva lender", href: ReportContext.href(section.path),
                                linkText: "The account, my loans and the cart", figures: figures)
    }
}
