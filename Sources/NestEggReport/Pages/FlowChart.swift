import NestEggModel
import NestEggSupport

extension Chart {
    /// A money-flow diagram's description: nodes in three columns (0: sources, 1: accounts,
    /// 2: where the money went) and the links between them, each with its amount. Every node's
    /// inflow equals its outflow in the middle column, so the links into column 1 and the links
    /// out of it add up to the same total (the report makes it so; the table beside shows the figures).
    public struct Flow: Sendable {
        public struct Node: Sendable {
            public let column: Int
            public let label: String
            public let value: Int128
            public let valueText: String
            /// `series-N`.
            public let colorIndex: Int
        }

        public struct Link: Sendable {
            /// Indexes into ``nodes``.
            public let from: Int
            public let to: Int
            public let value: Int128
            public let valueText: String
        }

        public let nodes: [Node]
        public let links: [Link]
    }

    public static func flow(_ flow: Flow, title: String) -> Chart { Chart(.flow(flow), title: title) }
}
