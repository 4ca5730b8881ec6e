import NestEggReport
import NestEggModel
import NestEggSupport
/// The project's one chart module: draws a report's ``Chart`` description as small inline SVG
/// for the HTML pages.
///
/// Every chart is sized by its `viewBox` only (the stylesheet makes it fit its column), has
/// `role="img"` with a `<title>` for screen readers and text labels on the chart itself, and
/// takes its colours from the stylesheet's `series-N` classes, so both themes stay readable.
/// In Markdown a chart is its table: templates show the table when `html` is false.
/// Every label is HTML-escaped here; the result is markup that only Render writes, and
/// templates place it with `{{{…}}}`.
enum ChartSVG {
    /// The chart as inline SVG; an empty string for a chart with nothing to draw.
    static func draw(_ chart: Chart) -> String {
        switch chart.kind {
        case .bars(let bars): return self.bars(bars, title: chart.title)
        case .columns(let bars, let axis): return columns(bars, title: chart.title, axis: axis)
        case .progress(let percent): return progress(percent: percent, title: chart.title)
        case .budget(let bars): return budget(bars, title: chart.title)
        case .ring(let segments, let centerText): return ring(segments, title: chart.title, centerText: centerText)
        case .sparkline(let values): return sparkline(values, title: chart.title)
        case .stackedColumns(let columns, let series, let axis): return stackedColumns(columns, series: series, title: chart.title, axis: axis)
        case .worldMap(let points, let cells): return worldMap(points, title: chart.title, cells: cells)
        case .flow(let flow): return self.flow(flow, title: chart.title)
        }
    }

    /// Horizontal bars, one row each: the label above its bar, the value beside the bar's end
    /// (room for text that a phone shows large: the stylesheet sets chart text to 12 px or more
    /// at every width).
    static func bars(_ bars: [Chart.Bar], title: String) -> String {
        guard !bars.isEmpty else { return "" }
        let rowHeight = 50, width = 640, valueWidth = 170
        let barSpace = width - valueWidth - 10
        let maximum = max(bars.map(\.value).max() ?? 0, 1)
        let height = bars.count * rowHeight + 4
        var svg = open(width: width, height: height, title: title, kind: "bars")
        for (index, bar) in bars.enumerated() {
            let y = index * rowHeight + 2
            let length = bar.value <= 0 ? 0 : max(2, scaled(bar.value, of: maximum, to: barSpace))
            svg += "<text class=\"chart-label\" x=\"0\" y=\"\(y + 18)\">\(Escape.html(clip(bar.label, 40)))</text>"
            svg += "<rect class=\"series-1\" x=\"0\" y=\"\(y + 26)\" width=\"\(length)\" height=\"18\" rx=\"3\"><title>\(Escape.html(bar.label)): \(Escape.html(bar.valueText))</title></rect>"
            svg += "<text class=\"chart-value\" x=\"\(length + 8)\" y=\"\(y + 41)\">\(Escape.html(bar.valueText))</text>"
        }
        return svg + "</svg>"
    }

    /// Vertical columns over time (weeks, months), labelled underneath; the newest last. With an
    /// axis, its gridlines run behind the columns and their labels stand in a gutter at the left,
    /// clear of every column. Up to 24 columns carry their values above them: in full, shortened
    /// (``Chart/Bar/shortText``), or shortened and small on a wide screen only, the first that
    /// fits every column (below). Labels that would run into each other are thinned (``labelSteps(_:slot:)``).
    static func columns(_ bars: [Chart.Bar], title: String, axis: [Chart.Tick] = []) -> String {
        guard !bars.isEmpty else { return "" }
        let width = 640, height = 240, top = 30, bottom = 36
        let gutter = self.gutter(axis)
        let plot = height - top - bottom
        let slot = Double(width - gutter) / Double(bars.count)
        let maximum = max(bars.map(\.value).max() ?? 0, axis.last?.value ?? 0, 1)
        // Each column's value above it: in full where the longest fits its column at a phone's
        // size; else shortened (`£6.2k`) where that fits with room between; else shortened and
        // set at 12 px (`chart-value-small`) on a wide screen only, where that fits there.
        func fit(_ texts: [String], _ character: Double, gap: Double = 0) -> Bool {
            bars.count <= 24 && Double(texts.map(\.count).max() ?? 0) * character + gap <= slot
        }
        let short = bars.map { $0.shortText ?? $0.valueText }
        let values: (texts: [String], classes: String)? =
            fit(bars.map(\.valueText), phoneCharacter) ? (bars.map(\.valueText), "chart-value")
            : fit(short, phoneCharacter, gap: 6) ? (short, "chart-value")
            : fit(short, smallBoldCharacter, gap: 4) ? (short, "chart-value chart-value-small chart-label-wide") : nil
        let steps = labelSteps(bars.map { clip($0.label, 8) }, slot: slot)
        var svg = open(width: width, height: height, title: title, kind: "columns")
        svg += gridlines(axis, maximum: maximum, top: top, plot: plot, from: gutter, width: width)
        svg += "<line class=\"chart-axis\" x1=\"\(gutter)\" y1=\"\(top + plot)\" x2=\"\(width)\" y2=\"\(top + plot)\"/>"
        for (index, bar) in bars.enumerated() {
            let barHeight = bar.value <= 0 ? 0 : max(2, scaled(bar.value, of: maximum, to: plot))
            let x = gutter + Int(slot * Double(index) + slot * 0.15)
            let barWidth = max(2, Int(slot * 0.7))
            let center = gutter + Int(slot * Double(index) + slot / 2)
            svg += "<rect class=\"series-1\" x=\"\(x)\" y=\"\(top + plot - barHeight)\" width=\"\(barWidth)\" height=\"\(barHeight)\" rx=\"2\"><title>\(Escape.html(bar.label)): \(Escape.html(bar.valueText))</title></rect>"
            svg += label(clip(bar.label, 8), index: index, count: bars.count, steps: steps, x: center, y: height - 10)
            if let values, bar.value > 0 {
                svg += "<text class=\"\(values.classes)\" x=\"\(center)\" y=\"\(top + plot - barHeight - 6)\" text-anchor=\"middle\">\(Escape.html(values.texts[index]))</text>"
            }
        }
        return svg + tickLabels(axis, maximum: maximum, top: top, plot: plot, gutter: gutter) + "</svg>"
    }

    /// How wide one character of chart text is, in a 640-unit chart's units: on a wide screen
    /// (14 px text at full size) and on a phone (the stylesheet sets 22 units, drawn at about 12 px).
    static let wideCharacter = 8.5, phoneCharacter = 13.5
    /// A bold character of 12 px text on a wide screen (`chart-value-small`).
    static let smallBoldCharacter = 7.8

    /// The room at the left for an axis's labels: its longest label at a phone's size, so that
    /// no label stands over a column at any width (none without an axis).
    static func gutter(_ axis: [Chart.Tick]) -> Int {
        let longest = axis.filter { $0.value > 0 }.map(\.text.count).max() ?? 0
        // 14 beyond the characters: 6 between the label and the columns, 8 for capitals and
        // currency signs wider than the average character (`US$20`).
        return longest == 0 ? 0 : Int((Double(longest) * phoneCharacter).rounded(.up)) + 14
    }

    /// Every how many columns a label is written, on a wide screen and on a phone, so that no
    /// two labels meet: 1 when every label fits its slot, else the fewest that leave room.
    static func labelSteps(_ labels: [String], slot: Double) -> (wide: Int, phone: Int) {
        let longest = Double(labels.map(\.count).max() ?? 0)
        func step(_ character: Double) -> Int { max(1, Int(((longest * character + 6) / max(slot, 1)).rounded(.up))) }
        let wide = step(wideCharacter), phone = step(phoneCharacter)
        // The phone's step a multiple of the wide screen's, so a phone hides labels and never shows one the wide screen does not.
        return (wide, max(wide, (phone + wide - 1) / wide * wide))
    }

    /// A column's label, counted back from the newest column (always labelled): left out where
    /// the wide screen's step skips it, and marked `chart-label-wide` (hidden on a phone) where
    /// only the phone's does. Centred on its column, or ending at the chart's right edge when
    /// centring would run past it at a phone's size (the newest of many narrow columns).
    static func label(_ text: String, index: Int, count: Int, steps: (wide: Int, phone: Int), x: Int, y: Int, width: Int = 640) -> String {
        let back = count - 1 - index
        guard back % steps.wide == 0 else { return "" }
        let classes = back % steps.phone == 0 ? "chart-label" : "chart-label chart-label-wide"
        let half = Int((Double(text.count) * phoneCharacter / 2).rounded(.up))
        let (at, anchor) = x + half > width - 2 ? (width - 2, "end") : (x, "middle")
        return "<text class=\"\(classes)\" x=\"\(at)\" y=\"\(y)\" text-anchor=\"\(anchor)\">\(Escape.html(text))</text>"
    }

    /// An axis's gridlines across the plot, from `from` to `width` (drawn behind the columns; none for zero).
    static func gridlines(_ axis: [Chart.Tick], maximum: Int128, top: Int, plot: Int, from: Int = 0, width: Int) -> String {
        var svg = ""
        for tick in axis where tick.value > 0 && tick.value <= maximum {
            let y = top + plot - scaled(tick.value, of: maximum, to: plot)
            svg += "<line class=\"chart-grid\" x1=\"\(from)\" y1=\"\(y)\" x2=\"\(width)\" y2=\"\(y)\"/>"
        }
        return svg
    }

    /// The gridlines' labels, in the gutter at the left (``gutter(_:)``), right-aligned against
    /// the plot at each line's height: beside the columns, never over them.
    static func tickLabels(_ axis: [Chart.Tick], maximum: Int128, top: Int, plot: Int, gutter: Int) -> String {
        var svg = ""
        for tick in axis where tick.value > 0 && tick.value <= maximum {
            let y = top + plot - scaled(tick.value, of: maximum, to: plot)
            svg += "<text class=\"chart-tick\" x=\"\(gutter - 6)\" y=\"\(y + 4)\" text-anchor=\"end\">\(Escape.html(tick.text))</text>"
        }
        return svg
    }

    /// The class of a series' colour: `series-N` (wrapping at eight), or the neutral one of "Other".
    static func colourClass(_ index: Int, prefix: String = "series") -> String {
        index == Chart.otherColour ? "\(prefix)-other" : "\(prefix)-\(((index % 8) + 8) % 8 + 1)"
    }

    /// A legend in HTML beside a chart (its text is page text: readable at any width, never cut):
    /// a colour swatch and a text per entry.
    static func legend(_ entries: [(colour: Int, text: String)]) -> String {
        "<ul class=\"chart-legend\">" + entries.map { entry in
            "<li><span class=\"swatch \(colourClass(entry.colour, prefix: "swatch"))\" aria-hidden=\"true\"></span>\(Escape.html(entry.text))</li>"
        }.joined() + "</ul>"
    }

    /// A bar per budget, the label above it: the track is the whole budget, the fill what was
    /// spent (full, in the colour for bad news, when over), a line at the pace (the budget so far)
    /// while the month runs, and the value in words beside the track.
    static func budget(_ bars: [Chart.BudgetBar], title: String) -> String {
        guard !bars.isEmpty else { return "" }
        let rowHeight = 58, track = 250, width = 640
        var svg = open(width: width, height: bars.count * rowHeight + 4, title: title, kind: "budget")
        for (index, bar) in bars.enumerated() {
            let y = index * rowHeight + 2
            let whole = max(bar.budget, 1)
            let fill = bar.spent <= 0 ? 0 : max(2, scaled(min(bar.spent, whole), of: whole, to: track))
            svg += "<text class=\"chart-label\" x=\"0\" y=\"\(y + 20)\">\(Escape.html(clip(bar.label, 40)))</text>"
            svg += "<rect class=\"chart-track\" x=\"0\" y=\"\(y + 32)\" width=\"\(track)\" height=\"18\" rx=\"3\"/>"
            if fill > 0 {
                svg += "<rect class=\"\(bar.isOver ? "chart-over" : "series-1")\" x=\"0\" y=\"\(y + 32)\" width=\"\(fill)\" height=\"18\" rx=\"3\">"
                    + "<title>\(Escape.html(bar.label)): \(Escape.html(bar.valueText))</title></rect>"
            }
            if bar.pace < bar.budget {
                let x = scaled(max(bar.pace, 0), of: whole, to: track)
                svg += "<line class=\"chart-pace\" x1=\"\(x)\" y1=\"\(y + 28)\" x2=\"\(x)\" y2=\"\(y + 54)\"/>"
            }
            svg += "<text class=\"chart-value\" x=\"\(track + 8)\" y=\"\(y + 47)\">\(Escape.html(bar.valueText))</text>"
        }
        return svg + "</svg>"
    }

    /// A progress bar with its percentage; past 100% the bar is full and says so.
    static func progress(percent: Int, title: String) -> String {
        let width = 320, height = 28
        let clamped = min(max(percent, 0), 100)
        let fill = width * clamped / 100
        var svg = open(width: width + 70, height: height, title: title, kind: "progress")
        svg += "<rect class=\"chart-track\" x=\"0\" y=\"6\" width=\"\(width)\" height=\"16\" rx=\"8\"/>"
        if fill > 0 {
            svg += "<rect class=\"\(percent >= 100 ? "chart-done" : "series-1")\" x=\"0\" y=\"6\" width=\"\(max(fill, 8))\" height=\"16\" rx=\"8\"/>"
        }
        svg += "<text class=\"chart-value\" x=\"\(width + 8)\" y=\"20\">\(percent)%</text>"
        return svg + "</svg>"
    }

    /// A ring (doughnut) of shares with its total in the middle, and beside it a legend in HTML:
    /// each segment's label, value and share. Negative values count as zero.
    static func ring(_ segments: [Chart.Segment], title: String, centerText: String = "") -> String {
        let total = segments.reduce(Int128(0)) { saturatingSum($0, max($1.value, 0)) }
        guard total > 0 else { return "" }
        let size = 200
        var svg = open(width: size, height: size, title: title, kind: "ring")
        let radius = 70.0, circumference = 2 * Double.pi * radius, cx = 100.0, cy = 100.0
        var offset = 0.0
        svg += "<circle class=\"chart-track\" cx=\"\(Int(cx))\" cy=\"\(Int(cy))\" r=\"\(Int(radius))\" fill=\"none\" stroke-width=\"34\"/>"
        for (index, segment) in segments.enumerated() where segment.value > 0 {
            // Shares are drawn, not summed as money: the ring's geometry is the only place a Double appears.
            let length = circumference * Double(segment.value) / Double(total)
            svg += "<circle class=\"\(colourClass(segment.colorIndex ?? index, prefix: "ring"))\" cx=\"\(Int(cx))\" cy=\"\(Int(cy))\" r=\"\(Int(radius))\" fill=\"none\" stroke-width=\"34\""
                + " stroke-dasharray=\"\(format(length)) \(format(circumference - length))\" stroke-dashoffset=\"\(format(-offset))\""
                + " transform=\"rotate(-90 \(Int(cx)) \(Int(cy)))\"><title>\(Escape.html(segment.label)): \(Escape.html(segment.valueText))</title></circle>"
            offset += length
        }
        if !centerText.isEmpty {
            svg += "<text class=\"chart-value chart-center\" x=\"\(Int(cx))\" y=\"\(Int(cy) + 5)\" text-anchor=\"middle\">\(Escape.html(centerText))</text>"
        }
        svg += "</svg>"
        let entries = segments.enumerated().map { index, segment in
            // Rounded down as the tables round it, and `<1%` where that would read as nothing.
            let share = segment.value > 0 ? ReportContext.percent(segment.value, of: total) ?? 0 : 0
            let shareText = share == 0 && segment.value > 0 ? "<1%" : "\(share)%"
            return (colour: segment.colorIndex ?? index, text: "\(segment.label) · \(segment.valueText) (\(shareText))")
        }
        return "<figure class=\"chart-figure chart-figure-ring\">" + svg + legend(entries) + "</figure>"
    }

    /// A small line over time, with its last value; for headline figures.
    static func sparkline(_ values: [Int128], title: String) -> String {
        guard values.count > 1 else { return "" }
        let width = 160, height = 40
        let low = Double(values.min()!), high = Double(values.max()!)
        let span = max(high - low, 1)
        let step = Double(width - 4) / Double(values.count - 1)
        let points = values.enumerated().map { index, value in
            "\(format(2 + step * Double(index))),\(format(Double(height - 4) - Double(height - 8) * (Double(value) - low) / span))"
        }.joined(separator: " ")
        var svg = open(width: width, height: height, title: title, kind: "sparkline")
        svg += "<polyline class=\"chart-line\" fill=\"none\" stroke-width=\"2\" points=\"\(points)\"/>"
        return svg + "</svg>"
    }

    /// Columns over time (months), each split into its series stacked bottom-up in series order,
    /// with the axis's gridlines and each column's total on top, and a legend in HTML below; the
    /// newest last. Negative values count as zero.
    static func stackedColumns(_ columns: [Chart.StackedColumn], series: [Chart.Series], title: String, axis: [Chart.Tick] = []) -> String {
        let totals = columns.map { $0.values.reduce(Int128(0)) { saturatingSum($0, max($1, 0)) } }
        guard !columns.isEmpty, !series.isEmpty, let largest = totals.max(), largest > 0 else { return "" }
        let width = 640, height = 260, top = 30, bottom = 30
        let gutter = self.gutter(axis)
        let plot = height - top - bottom
        let maximum = max(largest, axis.last?.value ?? 0)
        let slot = Double(width - gutter) / Double(columns.count)
        // A total is 12 px text (style.css, `.chart-stacked .chart-value`) at the 640 units' own
        // size on a wide screen: some 7.5 units a character, 8 with a margin each side. Too wide
        // for its slot (a year of months), the totals are left to the table beside the chart.
        let totalsFit = Double(columns.map(\.totalText.count).max() ?? 0) * 8 + 4 <= slot
        let steps = labelSteps(columns.map { clip($0.label, 9) }, slot: slot)
        var svg = open(width: width, height: height, title: title, kind: "stacked")
        svg += gridlines(axis, maximum: maximum, top: top, plot: plot, from: gutter, width: width)
        svg += "<line class=\"chart-axis\" x1=\"\(gutter)\" y1=\"\(top + plot)\" x2=\"\(width)\" y2=\"\(top + plot)\"/>"
        for (index, column) in columns.enumerated() {
            let x = gutter + Int(slot * Double(index) + slot * 0.15)
            let barWidth = max(2, Int(slot * 0.7))
            let center = gutter + Int(slot * Double(index) + slot / 2)
            var below: Int128 = 0
            for (position, value) in column.values.enumerated() where value > 0 && position < series.count {
                // Each edge from the running sum, so the stack has no gaps from rounding.
                let y0 = scaled(below, of: maximum, to: plot)
                below += value
                let y1 = scaled(below, of: maximum, to: plot)
                let text = position < column.valueTexts.count ? column.valueTexts[position] : ""
                svg += "<rect class=\"\(colourClass(series[position].colorIndex))\" x=\"\(x)\" y=\"\(top + plot - y1)\" width=\"\(barWidth)\" height=\"\(max(y1 - y0, 1))\"><title>\(Escape.html(column.label)), \(Escape.html(series[position].label)): \(Escape.html(text))</title></rect>"
            }
            let stackHeight = scaled(below, of: maximum, to: plot)
            svg += label(clip(column.label, 9), index: index, count: columns.count, steps: steps, x: center, y: height - 8)
            if below > 0, totalsFit {
                svg += "<text class=\"chart-value\" x=\"\(center)\" y=\"\(top + plot - stackHeight - 6)\" text-anchor=\"middle\">\(Escape.html(column.totalText))</text>"
            }
        }
        svg += tickLabels(axis, maximum: maximum, top: top, plot: plot, gutter: gutter) + "</svg>"
        return "<figure class=\"chart-figure\">" + svg + legend(series.map { (colour: $0.colorIndex, text: $0.label) }) + "</figure>"
    }

    /// An equirectangular world map (2 units a degree): the land's outline, a 30° graticule with its labels, the
    /// equator and prime meridian drawn stronger, `cells` (counts per 30° band, `[row][column]`,
    /// north to south and west to east, as the page's grid table) shaded by count, and a circle
    /// per point, its area proportional to its value. No tiles, no script: points off the globe
    /// are left out. Coordinates are geometry, not money, so Doubles are fine here.
    static func worldMap(_ points: [Chart.MapPoint], title: String, cells: [[Int]] = []) -> String {
        let left = 44, top = 8, scale = 2, band = 30
        let plotWidth = 360 * scale, plotHeight = 180 * scale
        let width = left + plotWidth + 12, height = top + plotHeight + 26
        func x(_ longitude: Double) -> String { format(Double(left) + (longitude + 180) * Double(scale)) }
        func y(_ latitude: Double) -> String { format(Double(top) + (90 - latitude) * Double(scale)) }
        var svg = open(width: width, height: height, title: title, kind: "map")
        svg += "<rect class=\"map-sea\" x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\"/>"
        // The land (Natural Earth, public domain; LandOutline.swift), drawn in the map's own units.
        svg += "<path class=\"map-land\" transform=\"translate(\(left) \(top))\" d=\"\(LandOutline.path)\"/>"
        let most = cells.flatMap { $0 }.max() ?? 0
        if most > 0 {
            for (row, counts) in cells.enumerated() {
                for (column, count) in counts.enumerated() where count > 0 {
                    let opacity = format(0.12 + 0.38 * Double(count) / Double(most))
                    svg += "<rect class=\"map-cell\" x=\"\(left + column * band * scale)\" y=\"\(top + row * band * scale)\" width=\"\(band * scale)\" height=\"\(band * scale)\" fill-opacity=\"\(opacity)\"/>"
                }
            }
        }
        for latitude in stride(from: 90 - band, to: -90, by: -band) {
            svg += "<line class=\"\(latitude == 0 ? "map-equator" : "map-grid")\" x1=\"\(left)\" y1=\"\(y(Double(latitude)))\" x2=\"\(left + plotWidth)\" y2=\"\(y(Double(latitude)))\"/>"
            let label = latitude == 0 ? "0°" : "\(abs(latitude))°\(latitude > 0 ? "N" : "S")"
            svg += "<text class=\"chart-label map-label\" x=\"\(left - 6)\" y=\"\(format(Double(top) + Double(90 - latitude) * Double(scale) + 4))\" text-anchor=\"end\">\(label)</text>"
        }
        for longitude in stride(from: -180 + band, to: 180, by: band) {
            svg += "<line class=\"\(longitude == 0 ? "map-equator" : "map-grid")\" x1=\"\(x(Double(longitude)))\" y1=\"\(top)\" x2=\"\(x(Double(longitude)))\" y2=\"\(top + plotHeight)\"/>"
            let label = longitude == 0 ? "0°" : "\(abs(longitude))°\(longitude > 0 ? "E" : "W")"
            svg += "<text class=\"chart-label map-label\" x=\"\(x(Double(longitude)))\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\">\(label)</text>"
        }
        svg += "<rect class=\"map-frame\" x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\"/>"
        let placed = points.filter(\.isOnGlobe)
        let largest = max(placed.map(\.value).max() ?? 0, 1)
        let ordered = placed.sorted(by: Chart.MapPoint.drawnBefore)
        for point in ordered {
            let radius = 2.5 + 11.5 * (Double(max(point.value, 0)) / Double(largest)).squareRoot()
            svg += "<circle class=\"series-2 map-point\" cx=\"\(x(point.longitude))\" cy=\"\(y(point.latitude))\" r=\"\(format(radius))\"><title>\(Escape.html(point.label)): \(Escape.html(point.valueText))</title></circle>"
        }
        return svg + "</svg>"
    }

    static func open(width: Int, height: Int, title: String, kind: String) -> String {
        "<svg class=\"chart chart-\(kind)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(Escape.html(title))\" xmlns=\"http://www.w3.org/2000/svg\"><title>\(Escape.html(title))</title>"
    }

    /// `value` of `maximum` as a share of `length` pixels. Geometry, not money: a Double cannot
    /// overflow where `length × value` in Int128 could.
    static func scaled(_ value: Int128, of maximum: Int128, to length: Int) -> Int {
        guard maximum > 0 else { return 0 }
        return Int(Double(length) * Double(value) / Double(maximum))
    }

    static func saturatingSum(_ a: Int128, _ b: Int128) -> Int128 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int128.max : sum
    }

    static func clip(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }
}
