import NestEggModel
import NestEggSupport
/// One payment to or from a counterparty, as the counterparty pages (``PayeesReport``) list it.
///
/// The rule: a bank account's settled items in its own currency count, as on its statements
/// and in its cash flow (``AccountCashFlow``), internal transfers (moves to savings goals and own
/// accounts) left out; an outgoing item names its counterparty, or its reference when the feed
/// names none (``AccountCashFlow/payee(of:)``), an incoming one its counterparty or "Unnamed
/// payer". Every transaction of the transactions app counts as money out under its name; an
/// unpinned one is listed but left out of the sums, as on the transactions lists.
public struct PayeePayment: Sendable, Hashable {
    /// The counterparty as the source names it (one line).
    public let name: String
    public let date: CivilDate
    /// Positive for a payment out or in as the source gives it (a refund in the transactions app may be negative).
    public let amount: Money
    public let incoming: Bool
    public let account: String
    public let source: SpendingItem.Source
    /// The feed item's reference; empty for the transactions app's.
    public let reference: String
    /// Counted in the sums (every Starling item; a pinned transaction).
    public let counted: Bool
    /// The item's id in its source (the feed item's UID, the transaction's id): the last tie-break of the order.
    public let sourceID: String

    public init(name: String, date: CivilDate, amount: Money, incoming: Bool, account: String, source: SpendingItem.Source,
                reference: String, counted: Bool, sourceID: String) {
        self.name = name
        self.date = date
        self.amount = amount
        self.incoming = incoming
        self.account = account
        self.source = source
        self.reference = reference
        self.counted = counted
        self.sourceID = sourceID
    }

    /// One bank account's payments (a pure function of that account's data).
    public static func of(_ data: AccountData, clock: LocalClock) -> [PayeePayment] {
        let currency = data.account.currency
        var payments: [PayeePayment] = []
        for item in data.feed where StatementPeriods.apart(item, accountCurrency: currency) == nil && !AccountCashFlow.isMove(item) {
            let incoming = item.direction == .in
            let name = incoming ? (Text.trimmed(item.counterPartyName).isEmpty ? "Unnamed payer" : Text.trimmed(item.counterPartyName))
                : AccountCashFlow.payee(of: item)
            payments.append(PayeePayment(name: Text.singleLine(name), date: clock.date(of: item.transactionTime), amount: item.amount,
                                         incoming: incoming, account: data.account.name, source: .bankAccount,
                                         reference: Text.singleLine(item.reference), counted: true, sourceID: item.uid))
        }
        return payments
    }

    /// Whom a transactions app entry paid: its provider (the shop, the service), never its own
    /// words ("Weekly shop" describes a payment to Waitrose); "Unnamed payee" when it names none,
    /// as a bank payment without a counterparty or reference is.
    public static func payee(provider: String?) -> String {
        let name = Text.singleLine(provider ?? "")
        return name.isEmpty ? unnamed : name
    }

    /// The name of a payment's payee when the data gives none.
    public static let unnamed = "Unnamed payee"

    /// The transactions app's transactions, as payments out, each under its payee (``payee(provider:)``).
    public static func of(_ transactions: [Transaction], clock: LocalClock) -> [PayeePayment] {
        transactions.map { transaction in
            PayeePayment(name: payee(provider: transaction.provider), date: transaction.date.date(on: clock), amount: transaction.amount,
                         incoming: false, account: transaction.accountName, source: .transactions, reference: Text.singleLine(transaction.name),
                         counted: transaction.pinned, sourceID: transaction.id)
        }
    }

    /// Newest first; on one day by source, account, direction, amount and id, so the order is the data's alone.
    static func newestFirst(_ a: PayeePayment, _ b: PayeePayment) -> Bool {
        if a.date != b.date { return a.date > b.date }
        if a.source != b.source { return a.source == .bankAccount }
        if a.account != b.account { return a.account < b.account }
        if a.incoming != b.incoming { return !a.incoming }
        if a.amount.currency != b.amount.currency { return a.amount.currency < b.amount.currency }
        if a.amount.minorUnits != b.amount.minorUnits { return a.amount.minorUnits > b.amount.minorUnits }
        return a.sourceID < b.sourceID
    }
}

/// Counterparty names as the site groups them: names that differ only in case, spacing, line
/// breaks, underscores or Unicode composition are one counterparty (the search, the recurring
/// payments and the counterparty pages all group by this key).
public enum Counterparty {
    public static func key(_ name: String) -> String { Text.groupingKey(name) }
}
