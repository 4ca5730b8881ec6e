import NestEggModel
import NestEggSupport
/// The check of `budgets` in `nestegg.json` against the data: a budget is matched to spending by its
/// category's name, so one naming a category that no spending has, and that no category mapping
/// names either, is "£0.00 spent" every month, which reads as a budget kept. Each such budget is a
/// warning at its place in the file (``NestEggModel/Settings/budgetPlaces``), saying which
/// categories there are: the nearest by spelling ("did you mean …?"), else the list. A bank category
/// that a mapping counts under another name (Starling's `GROCERIES` under `Food`) is named as such.
///
/// The categories are the report's own, named as the spending and the cash flow name them
/// (``TransactionsRules/StarlingCategories``, ``TransactionsRules/appCategory(_:)``) and grouped
/// by ``TransactionsRules/categoryKey(_:)``, as the budgets group them: there is one mapping.
/// The check needs every feed's spending categories: those of the feeds the dataset holds, and
/// `spendingCodes` for the accounts whose feeds it does not hold (``spendingCodes(_:)``); the build
/// runs it with its load, so its warnings are the load's, on the console and the data notes page.
public enum BudgetCategories {
    /// At most this many categories are listed in a warning; the rest are counted.
    static let listed = 12

    /// The bank's spending categories of a feed's spending as budgets count it: money out that
    /// is not a move between the household's own accounts.
    public static func spendingCodes(_ feed: [FeedItem]) -> Set<String> {
        var codes = Set<String>()
        for item in feed where item.direction == .out && !AccountCashFlow.isMove(item) { codes.insert(item.spendingCategory ?? "") }
        return codes
    }

    public static func notes(_ dataset: Dataset, spendingCodes more: Set<String> = []) -> [Diagnostic] {
        let settings = dataset.settings
        guard !settings.budgets.isEmpty else { return [] }
        var starling = TransactionsRules.StarlingCategories(settings: settings)
        // Every category the spending has or a mapping names, by key, with the name it is shown by.
        var names: [String: String] = [:]
        func add(_ category: SpendingCategory) {
            guard !category.key.isEmpty else { return }
            if let known = names[category.key], !Text.precedes(category.name, known) { return }
            names[category.key] = category.name
        }
        var codes = more
        for account in dataset.accounts { codes.formUnion(spendingCodes(account.feed)) }
        for code in codes.sorted() { add(starling.category(code)) }
        for transaction in dataset.transactions.transactions { add(TransactionsRules.appCategory(transaction.category)) }
        for mapping in starling.mapped.values { add(TransactionsRules.appCategory(mapping.target)) }

        var notes: [Diagnostic] = []
        for name in settings.budgets.keys.sorted(by: Text.precedes) {
            let key = TransactionsRules.categoryKey(name)
            guard names[key] == nil, var note = settings.budgetPlaces[name] else { continue }
            if let mapping = starling.mapped[key], TransactionsRules.categoryKey(mapping.target) != key {
                let target = Text.singleLine(mapping.target)
                let by = mapping.own ? "\"categories\" in nestegg.json" : "default (\"categories\" in nestegg.json can change it)"
                note.message = "budget \"\(name)\" counts no spending: the bank's \(mapping.bank) is counted under "
                    + "\"\(target)\" by \(by); budget \"\(target)\" instead"
            } else {
                let known = names.values.sorted(by: Text.precedes)
                var message = "budget \"\(name)\" names a category that no transaction has and no category mapping names, so it counts no spending"
                if let nearest = Text.closest(to: name, among: known) {
                    message += "; did you mean \"\(nearest)\"?"
                }
                if known.isEmpty {
                    message += " (the data has no categories)"
                } else {
                    let shown = known.prefix(listed).joined(separator: ", ")
                    message += " (categories: \(shown)\(known.count > listed ? " and \(known.count - listed) more" : ""))"
                }
                note.message = message
            }
            notes.append(note)
        }
        // In the order they stand in the file.
        return notes.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
    }
}
