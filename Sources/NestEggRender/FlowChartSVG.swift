import NestEggReport
import NestEggModel
import NestEggSupport

extension ChartSVG {
    /// A money-flow diagram (``Chart/Flow``): three columns of nodes, each drawn as a bar whose
    /// height follows its amount (never less than its label's lines and its amount's), the links between them
    /// as bands of the same scale. Every node is labelled on the chart with its name and amount
    /// (sources and accounts to the left of their bar, destinations to the right, never over it),
    /// so nothing needs hovering: a name wraps onto lines of ``flowLineLength`` characters (up to
    /// ``flowLines``; a longer one is cut, its whole in the table beside the chart).
    static func flow(_ flow: Chart.Flow, title: String) -> String {
        guard !flow.nodes.isEmpty, !flow.links.isEmpty else { return "" }
        let width = 640, nodeWidth = 12, top = 6, gap = 8, columnHeight = 320, lineHeight = 24
        // The right column's names start at 422: a line of 16 characters at a phone's size (13.5
        // units each, ``ChartSVG/phoneCharacter``) ends inside the 640 units.
        let xs = [190, 318, 404]
        let lines = flow.nodes.map { wrapped($0.label) }
        // One scale for every column: the largest column's total fills `columnHeight`.
        var totals = [Int128](repeating: 0, count: 3)
        for node in flow.nodes where (0..<3).contains(node.column) { totals[node.column] = saturatingSum(totals[node.column], max(0, node.value)) }
        let largest = max(totals.max() ?? 1, 1)
        func size(_ value: Int128) -> Int { scaled(max(0, value), of: largest, to: columnHeight) }
        // Node positions, top to bottom in each column in the given order.
        var y = [Int](repeating: 0, count: flow.nodes.count)
        var height = [Int](repeating: 0, count: flow.nodes.count)
        var cursor = [top, top, top]
        for (index, node) in flow.nodes.enumerated() where (0..<3).contains(node.column) {
            // Room for the name's lines and the amount's.
            height[index] = max(lineHeight * (lines[index].count + 1) + 8, size(node.value))
            y[index] = cursor[node.column]
            cursor[node.column] += height[index] + gap
        }
        let total = (cursor.max() ?? top) - gap + top
        var svg = open(width: width, height: total, title: title, kind: "flow")
        // Links: each leaves its source below the one before it, and enters its target likewise.
        var outOffset = [Int](repeating: 0, count: flow.nodes.count)
        var inOffset = [Int](repeating: 0, count: flow.nodes.count)
        for link in flow.links where flow.nodes.indices.contains(link.from) && flow.nodes.indices.contains(link.to) {
            let thickness = max(1, size(link.value))
            let source = flow.nodes[link.from], target = flow.nodes[link.to]
            let x0 = xs[source.column] + nodeWidth, x1 = xs[target.column]
            let y0 = y[link.from] + outOffset[link.from], y1 = y[link.to] + inOffset[link.to]
            outOffset[link.from] += thickness
            inOffset[link.to] += thickness
            let middle = (x0 + x1) / 2
            let colour = target.column == 2 ? target.colorIndex : source.colorIndex
            svg += "<path class=\"series-\(colour) flow-link\" d=\"M\(x0) \(y0)C\(middle) \(y0) \(middle) \(y1) \(x1) \(y1)"
                + "L\(x1) \(y1 + thickness)C\(middle) \(y1 + thickness) \(middle) \(y0 + thickness) \(x0) \(y0 + thickness)Z\">"
                + "<title>\(Escape.html(source.label)) → \(Escape.html(target.label)): \(Escape.html(link.valueText))</title></path>"
        }
        for (index, node) in flow.nodes.enumerated() where (0..<3).contains(node.column) {
            let x = xs[node.column], middle = y[index] + height[index] / 2
            svg += "<rect class=\"series-\(node.colorIndex)\" x=\"\(x)\" y=\"\(y[index])\" width=\"\(nodeWidth)\" height=\"\(height[index])\">"
                + "<title>\(Escape.html(node.label)): \(Escape.html(node.valueText))</title></rect>"
            // Sources and accounts to the left of their bar (an account's right is its spending's), destinations to the right.
            let (labelX, anchor) = node.column < 2 ? (x - 6, "end") : (x + nodeWidth + 6, "start")
            // The name's lines and then the amount, centred on the bar.
            let first = middle - lineHeight * (lines[index].count + 1) / 2 + 18
            for (number, line) in lines[index].enumerated() {
                svg += "<text class=\"chart-label flow-label\" x=\"\(labelX)\" y=\"\(first + number * lineHeight)\" text-anchor=\"\(anchor)\">\(Escape.html(line))</text>"
            }
            svg += "<text class=\"chart-value flow-label\" x=\"\(labelX)\" y=\"\(first + lines[index].count * lineHeight)\" text-anchor=\"\(anchor)\">\(Escape.html(node.valueText))</text>"
        }
        return svg + "</svg>"
    }

    /// Characters to a line of a flow label, and lines to a label.
    static let flowLineLength = 16, flowLines = 4

    /// `label` in lines of at most ``flowLineLength`` characters, broken between words (a longer
    /// word across lines), at most ``flowLines`` of them, the last cut with "…" only when there is more.
    static func wrapped(_ label: String) -> [String] {
        var lines: [String] = [], line = ""
        // (Lines past the last one shown are not made: a label from data may be long.)
        for word in label.split(separator: " ", omittingEmptySubsequences: true) where lines.count <= flowLines {
            var word = Substring(word)
            if !line.isEmpty, line.count + 1 + word.count <= flowLineLength {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line); line = "" }
            while lines.count <= flowLines, word.count > flowLineLength {
                lines.append(String(word.prefix(flowLineLength)))
                word = word.dropFirst(flowLineLength)
            }
            line = String(word)
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        guard lines.count > flowLines else { return lines }
        return Array(lines.prefix(flowLines - 1)) + [clip(lines[flowLines - 1] + " " + lines[flowLines], flowLineLength)]
    }
}
