import NestEggReport

/// Writes a report's ``TableRow`` and ``TableDivider`` as Markdown, each cell escaped as a table cell.
enum MarkdownTable {
    static func line(_ row: TableRow) -> String {
        let cells = row.cells.map { Escape.value($0, at: .tableCell) }
        return "| " + (row.isEmphasised ? cells.map { "**\($0)**" } : cells).joined(separator: " | ") + " |"
    }

    static func divider(_ divider: TableDivider) -> String {
        "|" + divider.rightAligned.map { $0 ? "--:|" : ":--|" }.joined()
    }
}
