import NestEggModel
import NestEggSupport
/// Reads `transactions/transactions.json`: the transactions app's model, an array of
/// `{id, name, category, amount, currency?, date, accountName, provider?, pinned?}`.
public enum TransactionsLoader {
    static let path = "transactions/transactions.json"

    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> TransactionsData {
        guard folder.hasFolder("transactions") else { return TransactionsData() }
        guard folder.contains(path) else {
            log.report(Diagnostic(.error, file: path,
                                  message: "missing: the transactions/ folder needs transactions.json (an array of transactions)"))
            return TransactionsData()
        }
        guard let document = folder.document(path, log: log) else { return TransactionsData() }
        return TransactionsData(transactions: transactions(in: document, currency: settings.currency(forSource: "transactions")))
    }

    /// `[{...}, ...]`; a repeated id is a warning and the later transaction is left out.
    public static func transactions(in document: JSONDocument, currency: Currency) -> [Transaction] {
        guard let list = document.value.array else { return [] }
        var seen: Set<String> = []
        // At most one a value, reserved at once: a list grown by doubling holds up to twice the room it needs.
        var result: [Transaction] = []
        result.reserveCapacity(list.count)
        for value in list {
            guard let transaction = self.transaction(value, currency: currency) else { continue }
            guard seen.insert(transaction.id).inserted else {
                value.warning("duplicate transaction id \"\(transaction.id)\"; this one is left out")
                continue
            }
            result.append(transaction)
        }
        return result
    }

    /// One transaction; `currency` is the site's default for the source, used when the item names none.
    public static func transaction(_ value: JSONValue, currency defaultCurrency: Currency) -> Transaction? {
        guard value.object != nil else { return nil }
        let id = value.required("id", "the transaction's id")?.identifier
        let name = nonEmpty(value.required("name", "the transaction's name"), "a name")
        let category = nonEmpty(value.required("category", "a category such as \"food\""), "a category such as \"food\"")
        // A currency that fails to read is reported; the amount is not read against a guess.
        let currencyValue = value["currency"]
        let currency = currencyValue == nil ? defaultCurrency : currencyValue?.currency
        let amountValue = value.required("amount", "an amount (a decimal number)")
        let amount = currency.flatMap { amountValue?.decimalMoney($0) }
        let when = value.required("date", "an ISO 8601 date-time or date").flatMap(date)
        let accountName = nonEmpty(value.required("accountName", "the account's name"), "an account name")
        let provider = value["provider"]?.trimmedString.flatMap { $0.isEmpty ? nil : Text.singleLine($0) }
        let pinned: Bool? = value["pinned"].map { $0.bool } ?? true
        guard let id, let name, let category, let amount, let when, let accountName, let pinned else { return nil }
        return Transaction(id: id, name: Text.singleLine(name), category: Text.singleLine(category), amount: amount,
                           date: when, accountName: Text.singleLine(accountName), provider: provider, pinned: pinned)
    }

    /// `2026-11-16T08:30:00Z` (an instant) or `2026-11-16` (that date on the site's clock).
    static func date(_ value: JSONValue) -> Transaction.When? {
        guard let text = value.trimmedString else { return nil }
        if let instant = Instant(iso8601: text) { return value.withinHorizon(instant, "\"\(text)\"").map { .instant($0) } }
        if let day = CivilDate(iso8601: text) { return value.withinHorizon(day, "\"\(text)\"").map { .day($0) } }
        value.error("expected an ISO 8601 date-time with a zone such as 2026-11-16T08:30:00Z or a date such as 2026-11-16, in the years 2 to 9998, found \"\(text)\"")
        return nil
    }

    /// A trimmed string that shows something on a page (not empty once normalised: `"\u001f"` is
    /// as empty as `""`).
    static func nonEmpty(_ value: JSONValue?, _ what: String) -> String? {
        guard let value, let text = value.trimmedString else { return nil }
        if Text.normalised(text).isEmpty { value.error("expected \(what), found \(text.isEmpty ? "an empty string" : "a string with nothing to show")"); return nil }
        return text
    }
}
