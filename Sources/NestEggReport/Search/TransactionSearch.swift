import NestEggModel
import NestEggSupport
/// The search page's transactions: every settled line of every Starling statement, and every row
/// of the transactions list that no statement shows (the transactions app's entries, Starling's
/// pending payments), found by its payee, reference (a list row: its category and provider),
/// amount or date, each opening the page that shows it at its row (`#line-N`, `#row-N`).
///
/// The index of the pages (``SearchReport``) is one file; the transactions are many, so they come
/// in chunks, one per statement (an account's month: `search/<account>/<YYYY-MM>.js`), written
/// beside the statement by whichever build writes the statement (not that of an account held as a
/// summary), so the site has every chunk once. The page learns which
/// chunks exist from the index (``months(_:)``, newest month first) and loads them as it searches.
/// A chunk is made of the statement alone, so the same statement gives the same chunk.
public enum TransactionSearch {
    /// One transaction as the search page shows and matches it. Every string is the data's, as
    /// the statement shows it; `amount` is the signed amount in decimal (`-12.50`, money out
    /// negative), which the page compares with a typed amount digit by digit, never as a float.
    public struct Row: Sendable, Hashable {
        /// `2026-11-03`, the day on the site's clock: what a person types to find a date.
        public let day: String
        /// The day as the statement shows it (`3 Nov 2026`).
        public let date: String
        public let payee: String
        public let reference: String
        /// As shown: `−£12.50`, `£1,200.00`.
        public let shown: String
        /// Exact, signed, the currency's minor digits: `-12.50`.
        public let amount: String
        public let account: String
        /// The statement and the row: `statements/personal/2026-11#line-3`.
        public let target: String
    }

    /// One month of chunks: the month (`2026-11`) and the accounts (their slugs) with a chunk in it.
    public struct Month: Sendable, Hashable {
        public let month: String
        public let accounts: [String]
    }

    /// The chunk of a page of the list of every transaction (`transactions/index.page2` →
    /// `search/transactions/index.page2`), site-relative, without `.js`: beside the statements' chunks
    /// of an account slugged `transactions`, never one of them (theirs are named by month).
    public static func chunkPath(listPage path: String) -> String { "search/" + path }

    /// The id of a list page's `number`th row (from 1), its anchor.
    public static func anchor(row number: Int) -> String { "row-\(number)" }

    /// The rows of a page of the list of every transaction that no statement shows: the
    /// transactions app's entries and Starling's pending payments (a settled one is found on its
    /// statement). `items` are the page's rows in its order; each links to its row on `page`.
    /// Money out is negative, shown and exact, as on a statement (one sign for money out in every
    /// result, whichever page it links to). Oldest first, as a
    /// statement's lines are, so that the search page, which reads a chunk from its end, shows them newest first.
    static func rows(_ items: [SpendingItem], page: String, context: ReportContext) -> [Row] {
        items.enumerated().reversed().compactMap { index, item in
            guard item.source == .transactions || item.pending else { return nil }
            let detail = [item.note, item.category.name].filter { !$0.isEmpty }.joined(separator: " · ")
            return Row(day: "\(item.date)", date: context.date(item.date), payee: item.payee,
                       reference: Text.singleLine(detail + (item.pending ? " (pending)" : "")),
                       shown: context.money(-item.amount), amount: (-item.amount).decimalString,
                       account: item.accountName, target: page + "#" + anchor(row: index + 1))
        }
    }

    /// A statement's chunk, site-relative, without `.js`.
    public static func chunkPath(slug: String, month: CalendarMonth) -> String { "search/\(slug)/\(month)" }

    /// The id of a statement's `number`th line (from 1), its row's anchor.
    public static func anchor(line number: Int) -> String { "line-\(number)" }

    /// The rows of `statement`'s settled lines, in its order, for the page at `page`.
    static func rows(_ statement: StatementPeriods.Statement, account: StarlingAccount, page: String, context: ReportContext) -> [Row] {
        statement.lines.enumerated().map { index, line in
            let item = line.item
            let payee = item.counterPartyName.isEmpty ? Text.humanized(item.source.rawValue) : item.counterPartyName
            return Row(day: "\(context.clock.date(of: item.transactionTime))", date: context.date(item.transactionTime),
                       payee: Text.singleLine(payee), reference: Text.singleLine(item.reference),
                       shown: context.money(item.signedAmount), amount: item.signedAmount.decimalString,
                       account: account.name, target: page + "#" + anchor(line: index + 1))
        }
    }

    /// Which chunks exist, newest month first, each month's accounts in the order of
    /// `accounts.json`: every statement with a settled line, of every account, including those held
    /// as summaries (their statements' line counts are in their figures), so that whichever build
    /// writes the search page writes the same list.
    static func months(_ computed: StatementsReport.Computed?) -> [Month] {
        guard let (_, accounts) = computed else { return [] }
        var byMonth: [CalendarMonth: [String]] = [:]
        for account in accounts {
            for statement in account.statements where statement.lineCount > 0 {
                byMonth[statement.month, default: []].append(account.slug)
            }
        }
        return byMonth.keys.sorted(by: >).map { Month(month: "\($0)", accounts: byMonth[$0]!) }
    }
}
