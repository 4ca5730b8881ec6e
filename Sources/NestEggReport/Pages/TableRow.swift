/// A row of a Markdown table that a report builds from data (a list the template cannot join
/// itself): its cells as text. Render writes it as `| a | b |`, each cell escaped for a table cell
/// (``emphasis`` makes every cell bold: a totals row).
public struct TableRow: Sendable, Encodable {
    public let cells: [String]
    public let isEmphasised: Bool

    public init(cells: [String], emphasised: Bool = false) {
        self.cells = cells
        self.isEmphasised = emphasised
    }

    /// Anything but Render's template encoder sees the cells' text: only Render writes the row.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(cells.joined(separator: " "))
    }
}

/// The line under a Markdown table's header: each column aligned left, or right for figures.
public struct TableDivider: Sendable, Encodable {
    public let rightAligned: [Bool]

    public init(rightAligned: [Bool]) { self.rightAligned = rightAligned }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("")
    }
}

/// A table row as a list's item in a template (`{{#rows}}{{#line}}…{{/line}}{{/rows}}`).
struct TableLine: Sendable, Encodable {
    let line: TableRow
}

/// A link reference definition, for a page that links one target many times: `[p1]: ../payees/tesco.md`.
struct LinkReference: Sendable, Encodable {
    let label: String
    let href: String
}
