import NestEggReport
import NestEggModel
import NestEggSupport
import CCmarkGFM

/// A page's tables as CSV files beside the page (`<page>.table-<n>.csv`, from 1 in page order),
/// each linked under its table in both the Markdown and the HTML.
///
/// The tables are read from the page's HTML-flavoured Markdown as cmark-gfm parses it, so a CSV
/// has the HTML page's rows and cells: a header row, then each body row. A cell is its text as
/// shown — links and emphasis unwrapped to their text, code as its text, an image as its
/// description, line breaks (`<br>` too) as spaces, other raw HTML (and so an inline chart) left
/// out, spaces at the ends trimmed.
///
/// An amount of money (a cell that is exactly what the site's locale writes for one, ``SiteLocale/money(parsing:)``)
/// is written as a plain decimal a spreadsheet reads exactly: `-£1,234.56` → `-1234.56`, in the
/// currency's own minor digits. Its currency is stated once per column: in the header when the
/// column's amounts are all in one currency (`Amount (GBP)`, the ISO code; `In GBP` names it already), else in a column added
/// right after it (`Amount currency`, the ISO code on each row that has an amount). The rows are
/// the page's rows. Any other cell is text — a percentage stays `-12%` (``CSVCell/isSignedNumber(_:)``), a figure with words
/// `£5.00 (50%)` stays as shown — and goes through ``CSVCell/text(_:)`` (bidirectional controls
/// stripped, formula guard, quoting). RFC 4180: CRLF line ends, UTF-8 without a byte-order mark.
public enum TableCSV {
    /// One table of a page's Markdown: its cells by row (the header first), and the last line it
    /// takes (1-based), under which its link goes.
    public struct Table: Equatable, Sendable {
        public var rows: [[String]]
        public var endLine: Int
        /// Whether it stands at the top level of the page (not inside a list or a quote), where a
        /// link line can follow it.
        public var topLevel: Bool

        /// The table as CSV, amounts read as `locale` writes them.
        public func csv(locale: SiteLocale) -> String {
            let width = rows.map(\.count).max() ?? 0
            // Bidirectional controls go first (they could show a cell's figures reordered).
            let padded = rows.map { $0.map(Text.withoutBidiControls) + Array(repeating: "", count: width - $0.count) }
            guard let header = padded.first else { return "" }
            let body = padded.dropFirst()
            // Each column's amounts, by row, and the currencies they are in.
            var out: [[String]] = [[]] + body.map { _ in [] }
            for column in 0..<width {
                let amounts = body.map { locale.money(parsing: $0[column]) }
                let currencies = Set(amounts.compactMap { $0?.currency.code }).sorted()
                let name = header[column]
                switch currencies.count {
                case 0:
                    out[0].append(CSVCell.text(name))
                case 1:
                    // (A header that names the currency already, `In GBP`, is left as it is.)
                    let named = name.split(separator: " ").contains { $0 == currencies[0] }
                    out[0].append(CSVCell.text(name.isEmpty ? currencies[0] : named ? name : "\(name) (\(currencies[0]))"))
                default:
                    out[0].append(CSVCell.text(name))
                    out[0].append(CSVCell.text(name.isEmpty ? "Currency" : "\(name) currency"))
                }
                for (index, (row, amount)) in zip(body, amounts).enumerated() {
                    out[index + 1].append(amount.map(\.decimalString) ?? CSVCell.text(row[column]))
                    if currencies.count > 1 { out[index + 1].append(amount?.currency.code ?? "") }
                }
            }
            return out.map { $0.joined(separator: ",") + "\r\n" }.joined()
        }
    }

    /// The name of a page's `number`th table's CSV, beside the page (`fileName`: the page's file
    /// name without extension).
    public static func fileName(page fileName: Substring, number: Int) -> String {
        "\(fileName).table-\(number).csv"
    }

    /// The tables' CSVs among `paths` (``fileName(page:number:)``), by their page's path (`a/b.table-2.csv`
    /// → `a/b`), each page's in table order: files of their page, kept with it by a rebuild.
    public static func filesByPage(among paths: some Sequence<String>) -> [String: [String]] {
        var tables: [String: [(number: Int, path: String)]] = [:]
        let marker = Array(".table-".utf8)
        for path in paths where path.utf8.count > marker.count + 4 && path.hasSuffix(".csv") {
            let bytes = Array(path.utf8)
            // The last `.table-` in the path: its page's path is what stands before it, its number after.
            guard let start = stride(from: bytes.count - 4 - marker.count, through: 0, by: -1)
                .first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }),
                  let number = Int(String(decoding: bytes[(start + marker.count)..<(bytes.count - 4)], as: UTF8.self)) else { continue }
            tables[String(decoding: bytes[..<start], as: UTF8.self), default: []].append((number, path))
        }
        return tables.mapValues { $0.sorted { $0.number < $1.number }.map(\.path) }
    }

    /// The words of the link under a table.
    static let linkText = "This table as CSV"

    /// The link under a table, as a Markdown line.
    static func link(page fileName: Substring, number: Int) -> String {
        // A page's file name is a slug (letters, digits, `-`, `.`): a plain link destination.
        "[\(linkText)](\(Self.fileName(page: fileName, number: number)))"
    }

    /// The tables of `markdown`, in order (inside lists and quotes too).
    public static func tables(in markdown: String) -> [Table] {
        guard markdown.utf8.contains(UInt8(ascii: "|")), let document = CMark.Document(markdown) else { return [] }
        return tables(of: document, topLevelOnly: false).map(\.table)
    }

    /// What a node is to a table: the tables' node types are the extension's, known by name only.
    private enum Kind { case table, row, cell, other }

    /// The tables of a parsed page, in order, each with its node. `topLevelOnly`: only the
    /// document's own children are looked at (a page's tables are there), not every node.
    static func tables(of document: CMark.Document, topLevelOnly: Bool) -> [(table: Table, node: OpaquePointer)] {
        var kinds: [UInt32: Kind] = [:]  // each node type's name is read once, not once a node
        func kind(_ node: OpaquePointer) -> Kind {
            let raw = cmark_node_get_type(node).rawValue
            if let known = kinds[raw] { return known }
            let kind: Kind = switch typeName(node) {
            case "table": .table
            case "table_header", "table_row": .row
            case "table_cell": .cell
            default: .other
            }
            kinds[raw] = kind
            return kind
        }
        var tables: [(table: Table, node: OpaquePointer)] = []
        if topLevelOnly {
            var child = cmark_node_first_child(document.root)
            while let node = child {
                if kind(node) == .table, let table = Self.table(node, document: document, kind: kind) { tables.append((table, node)) }
                child = cmark_node_next(node)
            }
            return tables
        }
        guard let iterator = cmark_iter_new(document.root) else { return [] }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), kind(node) == .table,
                  let table = table(node, document: document, kind: kind) else { continue }
            tables.append((table, node))
        }
        return tables
    }

    /// The rows and cells of the table `node`.
    private static func table(_ node: OpaquePointer, document: CMark.Document, kind: (OpaquePointer) -> Kind) -> Table? {
        var table = Table(rows: [], endLine: Int(cmark_node_get_end_line(node)), topLevel: cmark_node_parent(node) == document.root)
        var cell: String? = nil
        guard let iterator = cmark_iter_new(node) else { return nil }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_ENTER {
                switch cmark_node_get_type(node) {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                    if cell != nil, let literal = cmark_node_get_literal(node) { cell! += String(cString: literal) }
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    if cell != nil { cell! += " " }
                case CMARK_NODE_HTML_INLINE:
                    // A template's `<br>` in a cell is a line break; any other tag is not text.
                    guard cell != nil, let literal = cmark_node_get_literal(node) else { break }
                    if String(cString: literal).lowercased().hasPrefix("<br") { cell! += " " }
                default:
                    // Links, emphasis, images: their children are the text; raw HTML is not text.
                    switch kind(node) {
                    case .row: table.rows.append([])
                    case .cell: cell = ""
                    case .table, .other: break
                    }
                }
            } else if event == CMARK_EVENT_EXIT, let text = cell, kind(node) == .cell {
                // Spaces beside a template's markup left out (an avatar, a chart) go too.
                if !table.rows.isEmpty { table.rows[table.rows.count - 1].append(trimmingSpaces(text)) }
                cell = nil
            }
        }
        return table
    }

    /// `markdown` with, under each of its top-level tables, a blank line and the link to its CSV
    /// (`links`: the line, 1-based, each table ends on → the number of its CSV).
    static func linking(_ markdown: String, links: [Int: Int], page fileName: Substring) -> String {
        guard !links.isEmpty else { return markdown }
        // Each link goes in before the line break that ends its line (or at the end): found in the
        // text's bytes, as a line break is one byte and never inside a character.
        let bytes = Array(markdown.utf8)
        var out = ""
        out.reserveCapacity(bytes.count + links.count * 80)
        var line = 1
        var copied = 0
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if let number = links[line] {
                out += String(decoding: bytes[copied..<offset], as: UTF8.self) + "\n\n" + link(page: fileName, number: number) + "\n"
                copied = offset
            }
            line += 1
        }
        out += String(decoding: bytes[copied...], as: UTF8.self)
        if let number = links[line] { out += "\n\n" + link(page: fileName, number: number) + "\n" }
        return PageRenderer.tidy(out)
    }

    /// A page's tables as CSVs, each linked under its table in both flavours, from what the render
    /// step has made of the page already: `document`, the tree of the flavour that feeds cmark (SVG
    /// islands lifted), gets each link as a paragraph after its table; `plain`, the `.md` file's
    /// text with its tables padded (``MarkdownTablePadding/padded(_:)``), gets link lines.
    ///
    /// The CSVs are the HTML flavour's tables, cell for cell as the HTML page shows them (a
    /// template may mark a cell up differently in each flavour: `<small>W45</small>` in HTML,
    /// `(W45)` in Markdown). A table of the Markdown links to the HTML's next table of its shape
    /// (rows and columns); the two flavours have the same tables, and a table only the HTML shows
    /// is still skipped rightly.
    static func link(plain: (text: String, tables: [MarkdownTablePadding.Table]), document: CMark.Document,
                     page fileName: Substring, locale: SiteLocale) -> (plain: String, csvs: [String]) {
        let htmlTables = tables(of: document, topLevelOnly: true)
        guard !htmlTables.isEmpty else { return (plain.text, []) }
        for (index, table) in htmlTables.enumerated() {
            document.insertLinkParagraph(after: table.node, text: linkText,
                                         destination: Self.fileName(page: fileName, number: index + 1))
        }
        let shape = { (table: Table) in [table.rows.count, table.rows.first?.count ?? 0] }
        var links: [Int: Int] = [:]
        var next = 0
        for table in plain.tables {
            if let match = htmlTables[next...].firstIndex(where: { shape($0.table) == [table.rows, table.columns] }) {
                links[table.endLine] = match + 1
                next = match + 1
            }
        }
        return (linking(plain.text, links: links, page: fileName), htmlTables.map { $0.table.csv(locale: locale) })
    }

    static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.first == " " || scalars.last == " " else { return text }
        let start = scalars.firstIndex { $0 != " " } ?? scalars.endIndex
        let end = scalars.lastIndex { $0 != " " }.map(scalars.index(after:)) ?? start
        return String(scalars[start..<max(start, end)])
    }

    private static func typeName(_ node: OpaquePointer) -> String {
        cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }
}
