import NestEggModel
import NestEggSupport
/// A spending category: `key` groups (case, spacing and underscores do not matter: `EATING_OUT`,
/// `eating out` and `Eating Out` are one category), `name` is how it is shown.
public struct SpendingCategory: Sendable, Hashable {
    public let key: String
    public let name: String

    public init(key: String, name: String) {
        self.key = key
        self.name = name
    }
}

/// One outgoing payment as the transactions pages and the insights see it, from either source.
/// Its fields are shared between copies (see ``SharedRecord``): every list of the transactions
/// pages holds the same items.
@dynamicMemberLookup
public struct SpendingItem: Sendable, SharedRecord {
    public enum Source: String, Sendable, Hashable {
        case transactions = "Transactions app"
        /// A bank account's payment (Starling's or another bank's, ``AccountData``).
        case bankAccount = "Bank account"
    }

    public struct Fields: Sendable, Hashable {
        /// The item's id in its source: the transaction's id, or the feed item's UID (the feed's
        /// own string, not a copy: a million items would each hold one).
        public var sourceID: String
        public var source: Source
        /// Unique across sources: `transactions:<id>` or `starling:<feedItemUid>`.
        public var id: String { (source == .bankAccount ? "starling:" : "transactions:") + sourceID }
        public var name: String
        public var category: SpendingCategory
        /// Money spent, positive (a refund in the transactions app may be negative).
        public var amount: Money
        /// The local date on the site's clock.
        public var date: CivilDate
        /// The exact moment, when the data has one (a transaction may give only a date).
        public var instant: Instant?
        public var accountName: String
        public var provider: String?
        /// Only pinned items count towards sums and insights. Starling items are always pinned.
        public var pinned: Bool
        /// A Starling payment that is not settled yet.
        public var pending: Bool
    }

    private var box: SharedBox<Fields>

    /// Whom the item paid: a bank payment's counterparty, a transactions app entry's provider
    /// (``PayeePayment/payee(provider:)``); its payee page is found by this name.
    public var payee: String { fields.source == .bankAccount ? Text.singleLine(fields.name) : PayeePayment.payee(provider: fields.provider) }
    /// What the transactions app says the entry was for ("Weekly shop"); a bank payment has none beside its payee.
    public var note: String { fields.source == .bankAccount ? "" : Text.singleLine(fields.name) }

    public var fields: Fields {
        // Read in place (no copy of the fields for each one read).
        _read { yield box.value }
        set { box = SharedBox(newValue) }
    }

    public init(sourceID: String, source: Source, name: String, category: SpendingCategory, amount: Money, date: CivilDate,
                instant: Instant?, accountName: String, provider: String?, pinned: Bool, pending: Bool) {
        box = SharedBox(Fields(sourceID: sourceID, source: source, name: name, category: category, amount: amount, date: date, instant: instant,
                               accountName: accountName, provider: provider, pinned: pinned, pending: pending))
    }
}

/// The rules of the transactions app (seed 003): categories and their order, filtering,
/// the sum of the pinned transactions, and spending per category.
public enum TransactionsRules {
    /// The app's own categories, in the app's order; any other category follows, alphabetically.
    public static let appOrder = ["food", "health", "entertainment", "shopping", "travel"]

    /// `EATING_OUT`, `Eating  out` and `eating out` all give `eating out` (``NestEggSupport/Text/groupingKey(_:)``).
    public static func categoryKey(_ name: String) -> String { Text.groupingKey(name) }

    /// How a category from the transactions app is shown: its first letter capitalised (`food` → `Food`, `DIY` stays).
    public static func appCategory(_ name: String) -> SpendingCategory {
        let single = Text.singleLine(name)
        return SpendingCategory(key: categoryKey(single), name: single.prefix(1).uppercased() + single.dropFirst())
    }

    /// A Starling `spendingCategory` code in sentence case: `EATING_OUT` → `Eating out`.
    public static func starlingCategory(_ code: String?) -> SpendingCategory {
        let code = Text.trimmed(code ?? "")
        guard !code.isEmpty else { return SpendingCategory(key: "uncategorised", name: "Uncategorised") }
        let name = Text.humanized(code)
        return SpendingCategory(key: categoryKey(name), name: name)
    }

    /// The stable order: the app's categories first in its order, then the rest by key, then by name.
    public static func precedes(_ a: SpendingCategory, _ b: SpendingCategory) -> Bool {
        let ia = appOrder.firstIndex(of: a.key) ?? appOrder.count
        let ib = appOrder.firstIndex(of: b.key) ?? appOrder.count
        if ia != ib { return ia < ib }
        if a.key != b.key { return a.key < b.key }
        return a.name < b.name
    }

    /// Newest first: by local date, then by time (items with only a date after the timed ones of
    /// that day), then by id, so the order is total.
    public static func newestFirst(_ a: SpendingItem, _ b: SpendingItem) -> Bool {
        if a.date != b.date { return a.date > b.date }
        switch (a.instant, b.instant) {
        case let (x?, y?) where x != y: return x > y
        case (.some, nil): return true
        case (nil, .some): return false
        default:
            // The ids' order: within a source, that of the source's ids (the ids share their prefix).
            if a.source != b.source { return Text.precedes(a.id, b.id) }
            if !a.sourceID.utf8.elementsEqual(b.sourceID.utf8) { return Text.precedes(a.sourceID, b.sourceID) }
            // One id twice (two accounts' feeds may hold the same item): what a row shows, so that
            // the order is total and rows that tie show the same however the runs were cut (two
            // spellings of one text, which `<` ties, are told apart: Text.precedes). Not the
            // category's name: rows are sorted before or after their category's one name is given
            // them, and one key shows one name.
            for (x, y) in [(a.accountName, b.accountName), (a.name, b.name), (a.category.key, b.category.key),
                           (a.amount.currency.code, b.amount.currency.code), (a.provider ?? "", b.provider ?? "")]
            where !x.utf8.elementsEqual(y.utf8) { return Text.precedes(x, y) }
            return (a.amount.minorUnits, a.pinned ? 1 : 0, a.pending ? 1 : 0) < (b.amount.minorUnits, b.pinned ? 1 : 0, b.pending ? 1 : 0)
        }
    }

    static let starlingStatuses: Set<FeedStatus> = [.settled, .pending]

    /// Whether a Starling feed item is spending: money out, settled or pending, and not a move
    /// between the user's own accounts (that money is spent later, from the other account).
    public static func isSpending(_ item: FeedItem) -> Bool {
        item.direction == .out && starlingStatuses.contains(item.status) && item.source != .internalTransfer
    }

    /// Every item from both sources, newest first, each category under one name. `figures` gives
    /// every bank account's items (``AccountFigures/spending``), by account UID: none of one
    /// whose figures hold no rows (they come as runs, ``SiteReport/SpendingRows``); without them,
    /// each account's are worked out from its feed. Without `bankAccounts`, the transactions app's items only.
    public static func items(from dataset: Dataset, clock: LocalClock, figures: [String: AccountFigures]? = nil,
                             bankAccounts: Bool = true) -> [SpendingItem] {
        // Category names are worked out once per spelling, not once per transaction.
        var appCategories: [String: SpendingCategory] = [:]
        func appCategory(_ name: String) -> SpendingCategory {
            if let known = appCategories[name] { return known }
            let category = Self.appCategory(name)
            appCategories[name] = category
            return category
        }
        var items: [SpendingItem] = dataset.transactions.transactions.map { transaction in
            var instant: Instant?
            if case .instant(let value) = transaction.date { instant = value }
            return SpendingItem(sourceID: transaction.id, source: .transactions, name: transaction.name,
                                category: appCategory(transaction.category), amount: transaction.amount,
                                date: transaction.date.date(on: clock), instant: instant, accountName: transaction.accountName,
                                provider: transaction.provider, pinned: transaction.pinned, pending: false)
        }
        var categories = StarlingCategories(settings: dataset.settings)
        for data in dataset.accounts where bankAccounts {
            items += figures.map { $0[data.account.uid]?.spending ?? [] } ?? starlingItems(of: data, clock: clock, categories: &categories)
        }
        // Sorted by index: moving a million large items about costs more than the comparisons.
        let unified = unifyingCategoryNames(items)
        return unified.indices.sorted { newestFirst(unified[$0], unified[$1]) }.map { unified[$0] }
    }

    /// A bank account's spending, in feed order.
    static func starlingItems(of data: AccountData, clock: LocalClock, categories: inout StarlingCategories) -> [SpendingItem] {
        data.feed.filter(isSpending).map { item in
            let name = item.counterPartyName.isEmpty ? Text.singleLine(item.reference) : item.counterPartyName
            return SpendingItem(sourceID: item.uid, source: .bankAccount, name: name,
                                category: categories.category(item.spendingCategory), amount: item.amount,
                                date: clock.date(of: item.transactionTime), instant: item.dateOnly ? nil : item.transactionTime,
                                accountName: data.account.name, provider: nil, pinned: true,
                                pending: item.status == .pending)
        }
    }

    /// Starling's spending categories as the site names them: a bank category that nestegg.json
    /// (or ``NestEggModel/Settings/defaultCategories``) maps counts under the category it names.
    /// Each spelling is worked out once.
    struct StarlingCategories {
        /// A bank category that a mapping counts under another: its code as the mapping spells it,
        /// the category it counts under, and whether the mapping is the household's own (not a default).
        struct Mapping { let bank: String, target: String, own: Bool }
        /// By the bank category's key (``TransactionsRules/starlingCategory(_:)``).
        private(set) var mapped: [String: Mapping] = [:]
        private var known: [String: SpendingCategory] = [:]

        init(settings: Settings) {
            // The defaults first, then the household's own, which stand over them key by key.
            for (mapping, own) in [(Settings.defaultCategories, false), (settings.categories, true)] {
                for (bank, target) in mapping.sorted(by: { $0.key < $1.key }) {
                    mapped[TransactionsRules.starlingCategory(bank).key] = Mapping(bank: bank, target: target, own: own)
                }
            }
        }

        mutating func category(_ code: String?) -> SpendingCategory {
            if let category = known[code ?? ""] { return category }
            var category = TransactionsRules.starlingCategory(code)
            if let mapping = mapped[category.key] { category = TransactionsRules.appCategory(mapping.target) }
            known[code ?? ""] = category
            return category
        }
    }

    /// One name per category key, whichever spelling comes first (``NestEggSupport/Text/precedes(_:_:)``: `Shopping` from
    /// the app and `SHOPPING` from Starling are both shown as `Shopping`).
    static func unifyingCategoryNames(_ items: [SpendingItem]) -> [SpendingItem] {
        var names: [String: String] = [:]
        for item in items {
            if let known = names[item.category.key], !Text.precedes(item.category.name, known) { continue }
            names[item.category.key] = item.category.name
        }
        return items.map { item in
            // Only an item whose spelling loses is changed (a change is a new copy of its fields).
            guard let name = names[item.category.key], !name.utf8.elementsEqual(item.category.name.utf8) else { return item }
            var item = item
            item.category = SpendingCategory(key: item.category.key, name: name)
            return item
        }
    }

    // MARK: The rules

    /// The items of one category (`nil`: all of them), in the order given.
    public static func filter(_ items: [SpendingItem], category: String?) -> [SpendingItem] {
        guard let category else { return items }
        let key = categoryKey(category)
        return items.filter { $0.category.key == key }
    }

    /// The sum of the pinned items, per currency (unpinned items do not count).
    public static func pinnedSum(_ items: some Sequence<SpendingItem>) -> MoneyTotals {
        // A loop, not a filter: a filter copied every pinned item (a list page's months, each build).
        var totals = MoneyTotals()
        for item in items where item.pinned { totals.add(item.amount) }
        return totals
    }

    /// The categories that occur, each once, in the stable order, each under its first spelling
    /// in string order (the reports work from ``SpendingTotals``; these rules on a list of items are theirs).
    public static func categories(in items: [SpendingItem]) -> [SpendingCategory] { SpendingTotals(items).categories() }

    /// Currencies of the pinned items: `preferred` (the site's currency for transactions) first, then by code.
    public static func currencies(in items: [SpendingItem], preferred: Currency) -> [Currency] {
        SpendingTotals(items).currencies(preferred: preferred)
    }

    /// `preferred` first, then by code.
    public static func ordered<S: Sequence>(_ currencies: S, preferred: Currency) -> [Currency] where S.Element == Currency {
        currencies.sorted { ($0 == preferred ? 0 : 1, $0.code) < ($1 == preferred ? 0 : 1, $1.code) }
    }

    /// Totals written out, `preferred` first: `£12.00 · €3.50`; `–` when there are none.
    public static func text(_ totals: MoneyTotals, preferred: Currency, context: ReportContext) -> String {
        let currencies = ordered(totals.amounts.map(\.currency), preferred: preferred)
        return currencies.isEmpty ? "–" : currencies.map { context.money(totals[$0]) }.joined(separator: " · ")
    }

    /// One category's pinned spending in one currency.
    public struct CategoryTotal: Sendable, Hashable {
        public let category: SpendingCategory
        public let amount: Money
        public let count: Int
    }

    /// Pinned spending per category in `currency`, in the stable category order; categories with
    /// no pinned item in that currency are left out.
    public static func spendingByCategory(_ items: [SpendingItem], currency: Currency) -> [CategoryTotal] {
        SpendingTotals(items).byCategory(currency: currency)
    }

    /// The largest first (ties in the stable category order).
    public static func largestFirst(_ totals: [CategoryTotal]) -> [CategoryTotal] {
        totals.enumerated().sorted { a, b in
            a.element.amount.minorUnits != b.element.amount.minorUnits
                ? a.element.amount.minorUnits > b.element.amount.minorUnits : a.offset < b.offset
        }.map(\.element)
    }

    /// The items in one calendar month.
    public static func items(_ items: [SpendingItem], in month: CalendarMonth) -> [SpendingItem] {
        items.filter { CalendarMonth($0.date) == month }
    }

    /// The `count` months that end with the month of the latest item, oldest first.
    public static func lastMonths(of items: [SpendingItem], count: Int = 6) -> [CalendarMonth] {
        SpendingTotals(items).lastMonths(count: count)
    }

    /// Each category's page name under `transactions/`: unique, safe, never `index`.
    public static func slugs(for categories: [SpendingCategory]) -> [String: String] {
        var allocator = SlugAllocator(reserved: ["index"])
        var result: [String: String] = [:]
        for category in categories { result[category.key] = allocator.allocate(category.name, fallback: "category") }
        return result
    }
}
