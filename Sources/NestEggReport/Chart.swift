import NestEggModel
import NestEggSupport

/// A chart, described: what it shows (its kind, values, labels and their texts, its title), never
/// how it looks. Render draws it (`ChartSVG`, inline SVG in the HTML pages); in Markdown a chart
/// is the table beside it.
public struct Chart: Sendable, Encodable {
    public enum Kind: Sendable {
        /// Horizontal bars, one row each: label, bar, value.
        case bars([Bar])
        /// Vertical columns over time (weeks, months), labelled underneath; the newest last.
        case columns([Bar])
        /// A progress bar with its percentage; past 100% the bar is full and says so.
        case progress(percent: Int)
        /// A ring (doughnut) of shares with a legend, and a text in its middle.
        case ring([Segment], centerText: String)
        /// A small line over time.
        case sparkline([Int128])
        /// Columns over time, each split into its series stacked bottom-up, with a legend.
        case stackedColumns([StackedColumn], series: [Series])
        /// The world, with a circle per point (area by value) and 30° cells shaded by count
        /// (`[row][column]`, north to south, west to east).
        case worldMap([MapPoint], cells: [[Int]])
    }

    public let kind: Kind
    /// What the chart shows, in words (its accessible name).
    public let title: String

    public init(_ kind: Kind, title: String) {
        self.kind = kind
        self.title = title
    }

    public static func bars(_ bars: [Bar], title: String) -> Chart { Chart(.bars(bars), title: title) }
    public static func columns(_ bars: [Bar], title: String) -> Chart { Chart(.columns(bars), title: title) }
    public static func progress(percent: Int, title: String) -> Chart { Chart(.progress(percent: percent), title: title) }
    public static func ring(_ segments: [Segment], title: String, centerText: String = "") -> Chart {
        Chart(.ring(segments, centerText: centerText), title: title)
    }
    public static func sparkline(_ values: [Int128], title: String) -> Chart { Chart(.sparkline(values), title: title) }
    public static func stackedColumns(_ columns: [StackedColumn], series: [Series], title: String) -> Chart {
        Chart(.stackedColumns(columns, series: series), title: title)
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

        public init(label: String, value: Int128, valueText: String) {
            self.label = label
            self.value = value
            self.valueText = valueText
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

        public init(label: String, values: [Int128], valueTexts: [String], totalText: String) {
            self.label = label
            self.values = values
            self.valueTexts = valueTexts
            self.totalText = totalText
        }
    }

    /// A series of ``stackedColumns(_:series:title:)``: its legend label and its colour (`series-N`),
    /// so that one category keeps its colour next to a ring or bars of the same data.
    public struct Series: Sendable {
        public let label: String
        public let colorIndex: Int

        public init(label: String, colorIndex: Int) {
            self.label = label
            self.colorIndex = colorIndex
        }
    }

    /// A place on the world map: a circle whose area follows `value`, titled `label: valueText`.
    public struct MapPoint: Sendable {
        public let label: String
        public let latitude: Double
        public let longitude: Double
        public let value: Int128
        public let valueText: String

        public init(label: String, latitude: Double, longitude: Double, value: Int128, valueText: String) {
            self.label = label
            self.latitude = latitude
            self.longitude = longitude
            self.value = value
            self.valueText = valueText
        }
    }
}
