import NestEggModel
import NestEggSupport
/// The search page's transactions: every settled line of every Starling statement, found by its
/// payee, reference, amount or date, each opening its statement at its row (`#line-N`).
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
