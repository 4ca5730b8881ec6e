import NestEggModel
import NestEggSupport
/// The check of `budgets` in `nestegg.json` against the data: a budget is matched to spending by its
/// category's name, so one naming a category that no transaction has, and that no category mapping
/// names either, is "£0.00 spent" every month, which reads as a budget kept. Each such budget is a
/// warning at its place in the file, saying which categories there are: the nearest by spelling
/// ("did you mean …?"), else the list. A bank category that a mapping counts under another name
/// (Starling's `GROCERIES` under `Food`) is named as such.
///
/// Categories are compared by ``NestEggSupport/Text/categoryKey(_:)``, as the reports compare them.
/// The check needs every feed, so it runs only when the load's readers give every feed
/// (``FeedReaders/readsEveryFeed``: `nestegg check`, a build on one machine).
enum BudgetCategories {
    /// At most this many categories are listed in a warning; the rest are counted.
    static let listed = 12

    static func notes(_ dataset: Dataset, places: [String: Diagnostic]) -> [Diagnostic] {
        let settings = dataset.settings
        guard !settings.budgets.isEmpty else { return [] }
        // A bank category's key to the category it counts under: the defaults, then the household's own.
        var mapped: [String: (bank: String, target: String, own: Bool)] = [:]
        for (mapping, own) in [(Settings.defaultCategories, false), (settings.categories, true)] {
            for (bank, target) in mapping.sorted(by: { $0.key < $1.key }) {
                mapped[starlingKey(bank)] = (bank, Text.singleLine(target), own)
            }
        }
        // Every category the data has or a mapping names, by key, with the name it is shown by.
        var names: [String: String] = [:]
        func add(_ name: String) {
            let key = Text.categoryKey(name)
            guard !key.isEmpty else { return }
            if let known = names[key], !Text.precedes(name, known) { return }
            names[key] = name
        }
        var codes = Set<String>()
        for account in dataset.starling {
            // Spending only, as budgets count it: money out that is not a move between the household's own accounts.
            for item in account.feed where item.direction == .out && item.source != .internalTransfer { codes.insert(item.spendingCategory ?? "") }
        }
        for code in codes.sorted() {
            let trimmed = Text.trimmed(code)
            if trimmed.isEmpty { continue }
            if let target = mapped[starlingKey(trimmed)] { add(capitalised(target.target)) } else { add(Text.humanized(trimmed)) }
        }
        for transaction in dataset.transactions.transactions { add(capitalised(Text.singleLine(transaction.category))) }
        for (_, target) in mapped { add(capitalised(target.target)) }

        var notes: [Diagnostic] = []
        for name in settings.budgets.keys.sorted(by: Text.precedes) {
            let key = Text.categoryKey(name)
            guard names[key] == nil, var note = places[name] else { continue }
            if let mapping = mapped[key], Text.categoryKey(mapping.target) != key {
                let by = mapping.own ? "\"categories\" in nestegg.json" : "default (\"categories\" in nestegg.json can change it)"
                note.message = "budget \"\(name)\" counts no spending: the bank's \(mapping.bank) is counted under "
                    + "\"\(mapping.target)\" by \(by); budget \"\(mapping.target)\" instead"
            } else {
                let known = names.values.sorted(by: Text.precedes)
                var message = "budget \"\(name)\" names a category that no transaction has and no category mapping names, so it counts no spending"
                if let nearest = SettingsLoader.closestKey(to: name, among: known) {
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

    /// The key of a Starling category code, as the spending pages work it out (`EATING_OUT` → `eating out`).
    static func starlingKey(_ code: String) -> String { Text.categoryKey(Text.humanized(Text.trimmed(code))) }

    /// `food` → `Food`, as the transactions pages show the app's categories (`DIY` stays).
    static func capitalised(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }
}
