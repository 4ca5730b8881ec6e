import NestEggReport
import NestEggModel
import NestEggSupport

extension ChartSVG {
    /// A money-flow diagram (``Chart/Flow``): three columns of nodes, each drawn as a bar whose
    /// height follows its amount (never less than its two lines of label), the links between them
    /// as bands of the same scale. Every node is labelled on the chart with its name and amount
    /// (sources to the left, destinations to the right, accounts over their bar), so nothing needs
    /// hovering; the full names are in the table beside it.
    static func flow(_ flow: Chart.Flow, title: String) -> String {
        guard !flow.nodes.isEmpty, !flow.links.isEmpty else { return "" }
        let width = 640, nodeWidth = 12, top = 6, gap = 8, minimum = 44, columnHeight = 320
        let xs = [200, 324, 448]
        let labelLength = 16
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
            height[index] = max(minimum, size(node.value))
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
            let (labelX, anchor): (Int, String) = switch node.column {
            case 0: (x - 6, "end")
            case 1: (x + nodeWidth / 2, "middle")
            default: (x + nodeWidth + 6, "start")
            }
            svg += "<text class=\"chart-label flow-label\" x=\"\(labelX)\" y=\"\(middle - 3)\" text-anchor=\"\(anchor)\">\(Escape.html(clip(node.label, labelLength)))</text>"
            svg += "<text class=\"chart-value flow-label\" x=\"\(labelX)\" y=\"\(middle + 17)\" text-anchor=\"\(anchor)\">\(Escape.html(node.valueText))</text>"
        }
        return svg + "</svg>"
    }
}
