import NestEggSupport
/// A value an API writes as one string of a set that grows over time: the values NestEgg acts on
/// are named constants, and any other is kept as written (a new status must not stop a build).
/// Comparing with a constant is checked by the compiler, as with an enum.
public protocol APIValue: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension APIValue {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A Starling feed item's status.
public struct FeedStatus: APIValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let settled: Self = "SETTLED"
    public static let pending: Self = "PENDING"
    public static let declined: Self = "DECLINED"
    public static let upcoming: Self = "UPCOMING"
    public static let reversed: Self = "REVERSED"
    public static let refunded: Self = "REFUNDED"
}

/// Where a Starling feed item came from.
public struct FeedSource: APIValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let internalTransfer: Self = "INTERNAL_TRANSFER"
    public static let masterCard: Self = "MASTER_CARD"
    public static let directDebit: Self = "DIRECT_DEBIT"
    public static let fasterPaymentsIn: Self = "FASTER_PAYMENTS_IN"
    public static let fasterPaymentsOut: Self = "FASTER_PAYMENTS_OUT"
}

/// A Kiva loan's status.
public struct LoanStatus: APIValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fundraising: Self = "fundraising"
    public static let funded: Self = "funded"
    public static let raised: Self = "raised"
    public static let inRepayment: Self = "in_repayment"
    public static let paid: Self = "paid"
    public static let defaulted: Self = "defaulted"
    public static let refunded: Self = "refunded"
    public static let expired: Self = "expired"

    /// The order a loan passes through them; other statuses sort after these, by name.
    public static let lifecycle: [Self] = [.fundraising, .funded, .raised, .inRepayment, .paid, .defaulted, .refunded, .expired]
}

/// A Qapital savings rule's type.
public struct RuleType: APIValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let roundUp: Self = "roundup"
    public static let guiltyPleasure: Self = "guilty_pleasure"
}
