import NestEggModel
import NestEggSupport

/// A chart, described: what it shows (its kind, values, labels and their texts, its title), never
/// how it looks. Render draws it (`ChartSVG`, inline SVG in the HTML pages); in Markdown a chart
/// is the table beside it.
public struct Chart: Sendable, Encodable {
    public enum Kind: Sendable {
        /// Horizontal bars, one row each: label, bar, value.
        case bars([Bar])
        /// Vertical columns over time (weeks, months), labelled underneath; the newest last; with
        /// the value axis's ticks (gridlines with their texts), when the report gives them.
        case columns([Bar], axis: [Tick])
        /// A progress bar with its percentage; past 100% the bar is full and says so.
        case progress(percent: Int)
        /// One bar per budget: what was spent against the whole budget, the pace (the budget so
        /// far) marked on it, and the bar coloured when over; its value in words beside it.
        case budget([BudgetBar])
        /// A ring (doughnut) of shares with a legend (each segment's label, value and share), and a
        /// text in its middle.
        case ring([Segment], centerText: String)
        /// A small line over time.
        case sparkline([Int128])
        /// Columns over time, each split into its series stacked bottom-up, with a legend and the
        /// value axis's ticks.
        case stackedColumns([StackedColumn], series: [Series], axis: [Tick])
        /// The world, with a circle per point (area by value) and 30° cells shaded by count
        /// (`[row][column]`, north to south, west to east).
        case worldMap([MapPoint], cells: [[Int]])
        /// Money flowing through three columns of nodes (``Flow``): where it came from, where it
        /// went through, where it ended; each node labelled with its name and amount.
        case flow(Flow)
    }

    public let kind: Kind
    /// What the chart shows, in words (its accessible name).
    public let title: String

    public init(_ kind: Kind, title: String) {
        self.kind = kind
        self.title = title
    }

    public static func bars(_ bars: [Bar], title: String) -> Chart { Chart(.bars(bars), title: title) }
    public static func columns(_ bars: [Bar], title: String, axis: [Tick] = []) -> Chart { Chart(.columns(bars, axis: axis), title: title) }
    public static func progress(percent: Int, title: String) -> Chart { Chart(.progress(percent: percent), title: title) }
    public static func budget(_ bars: [BudgetBar], title: String) -> Chart { Chart(.budget(bars), title: title) }

    /// A budget's bar (``Kind/budget(_:)``), amounts in one currency's minor units.
    public struct BudgetBar: Sendable {
        public let label: String
        public let spent: Int128
        /// The whole budget: the bar's length.
        public let budget: Int128
        /// The budget so far, marked on the bar (the whole budget once the month is over).
        public let pace: Int128
        public let isOver: Bool
        public let valueText: String
    }
    public static func ring(_ segments: [Segment], title: String, centerText: String = "") -> Chart {
        Chart(.ring(segments, centerText: centerText), title: title)
    }
    public static func sparkline(_ values: [Int128], title: String) -> Chart { Chart(.sparkline(values), title: title) }
    public static func stackedColumns(_ columns: [StackedColumn], series: [Series], title: String, axis: [Tick] = []) -> Chart {
        Chart(.stackedColumns(columns, series: series, axis: axis), title: title)
    }

    /// The colour of "Other" (what is left when there are more categories than colours): neutral,
    /// never one of a category's.
    public static let otherColour = -1

    /// A tick of a value axis: a gridline at `value`, labelled `text`.
    public struct Tick: Sendable, Equatable {
        public let value: Int128
        public let text: String
    }

    /// Ticks for money from zero up to at least `maximum`: at most four round steps (1, 2 or 5
    /// times a power of ten of whole units), each labelled as the locale writes money.
    public static func moneyAxis(upTo maximum: Money, format: (Money) -> String) -> [Tick] {
        guard maximum.minorUnits > 0 else { return [] }
        let unit = Int128(maximum.currency.minorUnitsPerUnit)
        var step = unit
        search: while true {
            for factor: Int128 in [1, 2, 5] {
                let (candidate, overflow) = step.multipliedReportingOverflow(by: factor)
                if overflow { break search }
                let (span, beyond) = candidate.multipliedReportingOverflow(by: 4)
                if beyond || maximum.minorUnits <= span { step = candidate; break search }
            }
            let (next, overflow) = step.multipliedReportingOverflow(by: 10)
            if overflow { break }
            step = next
        }
        var ticks: [Tick] = []
        var value: Int128 = 0
        while ticks.count < 5 {
            ticks.append(Tick(value: value, text: format(Money(minorUnits: value, currency: maximum.currency))))
            if value >= maximum.minorUnits { break }
            let (next, overflow) = value.addingReportingOverflow(step)
            if overflow { break }
            value = next
        }
        return ticks
    }
    public static func worldMap(_ points: [MapPoint], title: String, cells: [[Int]] = []) -> Chart {
        Chart(.worldMap(points, cells: cells), title: title)
    }

    /// Anything but Render's template encoder sees the chart's title: a chart is drawn only by Render.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(title)
    }

    public struct Bar: Sendable {
        public let label: String
        public let value: Int128
        public let valueText: String
        /// The value in fewer characters (`£6.2k`, ``ReportContext/compactMoney(_:)``): what a
        /// column carries when ``valueText`` does not fit above it.
        public let shortText: String?

        public init(label: String, value: Int128, valueText: String, shortText: String? = nil) {
            self.label = label
            self.value = value
            self.valueText = valueText
            self.shortText = shortText
        }
    }

    public struct Segment: Sendable {
        public let label: String
        public let value: Int128
        public let valueText: String
        /// The colour (`series-N`), when it must match another chart; by default the segment's position.
        public let colorIndex: Int?

        public init(label: String, value: Int128, valueText: String, colorIndex: Int? = nil) {
            self.label = label
            self.value = value
            self.valueText = valueText
            self.colorIndex = colorIndex
        }
    }

    /// One column of ``stackedColumns(_:series:title:)``: a label underneath, one value per series, and its total's text on top.
    public struct StackedColumn: Sendable {
        public let label: String
        public let values: [Int128]
        public let valueTexts: [String]
        public let totalText: String
    }

    /// A series of ``stackedColumns(_:series:title:)``: its legend label and its colour (`series-N`),
    /// so that one category keeps its colour next to a ring or bars of the same data.
    public struct Series: Sendable {
        public let label: String
        public let colorIndex: Int
    }

    /// A place on the world map: a circle whose area follows `value`, titled `label: valueText`.
    public struct MapPoint: Sendable {
        public let label: String
        public let latitude: Double
        public let longitude: Double
        public let value: Int128
        public let valueText: String

        /// Whether the point is on the globe (the map leaves the others out).
        public var isOnGlobe: Bool { latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180 }

        /// The map's order: the largest first (drawn first, so that smaller ones stay visible on
        /// top of them, and listed first beside the map), then by label and position.
        public static func drawnBefore(_ a: MapPoint, _ b: MapPoint) -> Bool {
            if a.value != b.value { return a.value > b.value }
            return (a.label, a.latitude, a.longitude) < (b.label, b.latitude, b.longitude)
        }
    }
}
