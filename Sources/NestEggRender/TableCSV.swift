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
/// the page's rows. Any other cell is text — a percentage stays `-12%`, a figure with words
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
            let padded = rows.map { $0 + Array(repeating: "", count: width - $0.count) }
            guard let header = padded.first else { return "" }
            let body = padded.dropFirst()
            // Each column's amounts, by row, and the currencies they are in.
            var out: [[String]] = [[]] + body.map { _ in [] }
            for column in 0..<width {
                let amounts = body.map { locale.money(parsing: Text.withoutBidiControls($0[column])) }
                let currencies = Set(amounts.compactMap { $0?.currency.code }).sorted()
                let name = Text.withoutBidiControls(header[column])
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

    /// The words of the link under a table.
    static let linkText = "This table as CSV"

    /// The link under a table, as a Markdown line.
    static func link(page fileName: Substring, number: Int) -> String {
        // A page's file name is a slug (letters, digits, `-`, `.`): a plain link destination.
        "[\(linkText)](\(Self.fileName(page: fileName, number: number)))"
    }

    /// The tables of `markdown`, in order.
    public static func tables(in markdown: String) -> [Table] {
        guard markdown.utf8.contains(UInt8(ascii: "|")), let document = CMark.Document(markdown) else { return [] }
        return tables(of: document).map(\.table)
    }

    /// The tables of a parsed page, in order, each with its node.
    static func tables(of document: CMark.Document) -> [(table: Table, node: OpaquePointer)] {
        var tables: [(table: Table, node: OpaquePointer)] = []
        var current: (table: Table, node: OpaquePointer)? = nil
        var cell: String? = nil
        // The tables' node types are the extension's, known by name only: each type's name is
        // read once, not once a node.
        var names: [UInt32: String] = [:]
        guard let iterator = cmark_iter_new(document.root) else { return [] }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let raw = cmark_node_get_type(node).rawValue
            let type: String
            if let known = names[raw] { type = known } else {
                type = typeName(node)
                names[raw] = type
            }
            if event == CMARK_EVENT_ENTER {
                switch type {
                case "table":
                    current = (Table(rows: [], endLine: Int(cmark_node_get_end_line(node)),
                                     topLevel: cmark_node_parent(node) == document.root), node)
                case "table_header", "table_row":
                    current?.table.rows.append([])
                case "table_cell":
                    cell = ""
                default:
                    guard cell != nil else { break }
                    switch cmark_node_get_type(node) {
                    case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                        cell! += cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                    case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                        cell! += " "
                    case CMARK_NODE_HTML_INLINE:
                        // A template's `<br>` in a cell is a line break; any other tag is not text.
                        let tag = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
                        if tag.lowercased().hasPrefix("<br") { cell! += " " }
                    default:
                        break  // links, emphasis, images: their children are the text; raw HTML is not text
                    }
                }
            } else if event == CMARK_EVENT_EXIT {
                switch type {
                case "table_cell":
                    if let text = cell, var table = current?.table, !table.rows.isEmpty {
                        // Spaces beside a template's markup left out (an avatar, a chart) go too.
                        table.rows[table.rows.count - 1].append(trimmingSpaces(text))
                        current?.table = table
                    }
                    cell = nil
                case "table":
                    if let table = current { tables.append(table) }
                    current = nil
                default:
                    break
                }
            }
        }
        return tables
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
        let htmlTables = tables(of: document).filter(\.table.topLevel)
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
