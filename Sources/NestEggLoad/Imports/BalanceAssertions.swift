import NestEggImport
import NestEggModel
import NestEggSupport

/// The balances an account's files state, checked against its entries as hledger's and
/// Beancount's balance assertions are: the latest stated balance is the anchor, and every other
/// one must equal it less the booked entries between the two dates. A stated balance is the
/// balance at the end of its day (OFX `LEDGERBAL`, camt `CLBD`, MT940 `:62F:`).
final class BalanceAssertions {
    private struct Stated {
        let date: ImportDate
        let amount: Money
        let path: String
        let line: Int
    }

    private let currency: Currency
    /// The booked entries' dates, ascending, and the running total up to and including each.
    private let dates: [ImportDate]
    private let totals: [Money]
    private var stated: [Stated] = []

    /// `booked`: every booked entry of the account (each once), in ascending date order.
    init(currency: Currency, booked: [(ImportDate, Money)]) {
        self.currency = currency
        dates = booked.map(\.0)
        var running = Money.zero(currency)
        totals = booked.map { running += $0.1; return running }
    }

    func state(_ amount: Money, endOf date: ImportDate, in path: String, line: Int) {
        stated.append(Stated(date: date, amount: amount, path: path, line: line))
    }

    /// The total of the booked entries dated on or before `date`.
    private func total(through date: ImportDate) -> Money {
        // The first index dated after `date`.
        var low = 0, high = dates.count
        while low < high {
            let middle = (low + high) / 2
            if dates[middle] <= date { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? .zero(currency) : totals[low - 1]
    }

    /// The latest stated balance (the last stated on its date).
    private var anchor: Stated? { stated.enumerated().max { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }?.element }

    /// The account's balance after its last booked entry, from the anchor; `nil` when no balance is stated.
    var current: Money? {
        guard let anchor, let last = dates.last else { return anchor?.amount }
        return anchor.amount + total(through: max(last, anchor.date)) - total(through: anchor.date)
    }

    /// Every stated balance the anchor and the entries between contradict.
    func contradictions() -> [(path: String, line: Int, message: String)] {
        guard let anchor else { return [] }
        var result: [(String, Int, String)] = []
        for balance in stated {
            // Two downloads of one day may be taken hours apart (OFX's and SimpleFIN's balances
            // are of the moment of download): only balances of different days are compared.
            if balance.date == anchor.date && balance.path != anchor.path { continue }
            let computed = anchor.amount + total(through: balance.date) - total(through: anchor.date)
            guard computed != balance.amount else { continue }
            let source = anchor.path == balance.path ? "the file's own balance on \(anchor.date) (line \(anchor.line))"
                : "\(anchor.path)'s balance on \(anchor.date) (line \(anchor.line))"
            result.append((balance.path, balance.line, "the balance at the end of \(balance.date) is stated as \(balance.amount.decimalString) "
                + "\(currency.code), but \(source), \(anchor.amount.decimalString), and the booked entries between make it "
                + "\(computed.decimalString): entries are missing from one of the files, or it contradicts the other"))
        }
        return result
    }
}
