import NestEggReport
import NestEggSupport
/// The search page's index as the script the page loads (`search-index.js`): a script, not a JSON
/// file, because a page opened from `file://` may load a script beside it but not fetch a file.
/// Each entry is `[kind, title, page, detail]`, the page site-relative without `.html`.
///
/// Every string is a JSON string literal that can stand anywhere in HTML too: `<`, `>` and `&` are
/// `\u003c`, `\u003e` and `\u0026`, so `</script>` or `<!--` in data cannot end or change a script
/// element the index is ever put in; U+2028 and U+2029 are escaped (older JavaScript ends a line
/// at them), and so is U+FEFF; bidi controls are stripped, as everywhere data lands.
public enum SearchIndexScript {
    public static let fileName = "search-index.js"
    public static let scriptName = "search.js"

    public static func script(_ entries: [SearchReport.Entry], months: [TransactionSearch.Month] = [], lists: [String] = []) -> String {
        var out = "// NestEgg's search index, made with the site: [kind, title, page, detail] for each entry (search.html).\n"
        out += "window.nesteggSearch = [\n"
        for entry in entries {
            out += "[" + [entry.kind.label, entry.title, entry.path, entry.detail].map(literal).joined(separator: ",") + "],\n"
        }
        out += "];\n"
        out += "// The chunks of transactions (search/<account>/<month>.js), newest month first: [month, account, …].\n"
        out += "window.nesteggSearchMonths = [\n"
        for month in months {
            out += "[" + ([month.month] + month.accounts).map(literal).joined(separator: ",") + "],\n"
        }
        out += "];\n"
        out += "// The chunks of the list of every transaction (search/transactions/<page>.js): its rows no statement shows.\n"
        out += "window.nesteggSearchLists = [" + lists.map(literal).joined(separator: ",") + "];\n"
        return out
    }

    /// A chunk of transactions (``TransactionSearch``), written at `path` + `.js`: it hands its
    /// rows to the search page, which loads it with a `<script>` element. Each row is
    /// `[day, date, payee, reference, shown amount, amount, account, page#row]`, one a line.
    public static func chunk(path: String, rows: [TransactionSearch.Row]) -> String {
        var out = "// NestEgg's search index: the transactions of one page, a statement or the list (search.html).\n"
        out += "window.nesteggSearchAdd(" + literal(path) + ", [\n"
        for row in rows {
            out += "[" + [row.day, row.date, row.payee, row.reference, row.shown, row.amount, row.account, row.target]
                .map(literal).joined(separator: ",") + "],\n"
        }
        out += "]);\n"
        return out
    }

    /// `text` as a JSON string literal safe inside HTML and `<script>`.
    public static func literal(_ text: String) -> String {
        let quoted = JSONText.quote(Text.withoutBidiControls(text))
        // (0xEF starts U+FEFF, which some JSON readers drop as a byte-order mark: it is escaped too.)
        guard quoted.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") || $0 == 0xEF }) else { return quoted }
        var out = ""
        out.reserveCapacity(quoted.utf8.count + 16)
        for scalar in quoted.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{FEFF}": out += "\\ufeff"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
