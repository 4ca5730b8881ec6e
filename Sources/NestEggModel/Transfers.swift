import NestEggSupport
/// A user of the transfer app (seed 001): `transfers/users.json`.
public struct TransferUser: Sendable, Hashable {
    public var uid: String
    public var name: String
    /// The user's account currency, when the data names one.
    public var currency: Currency?

    public init(uid: String, name: String, currency: Currency? = nil) {
        self.uid = uid
        self.name = name
        self.currency = currency
    }
}

/// The transfer API's status code (`tstatus`): 001, 002 and 003 are documented; any other code
/// is kept as written, so a new code shows as "Unknown status" rather than failing the build.
public enum TransferStatus: Sendable, Hashable, Comparable {
    case success
    case insufficientFunds
    case recipientNotFound
    case unknown(String)

    public init(code: String) {
        switch code {
        case "001": self = .success
        case "002": self = .insufficientFunds
        case "003": self = .recipientNotFound
        default: self = .unknown(code)
        }
    }

    public var code: String {
        switch self {
        case .success: return "001"
        case .insufficientFunds: return "002"
        case .recipientNotFound: return "003"
        case .unknown(let code): return code
        }
    }

    /// The status in words, as the statement and the ledger show it.
    public var words: String {
        switch self {
        case .success: return "Success"
        case .insufficientFunds: return "Insufficient funds in the debit account"
        case .recipientNotFound: return "Recipient not found"
        case .unknown(let code): return "Unknown status (\(code))"
        }
    }

    public var isSuccess: Bool { self == .success }

    /// Ordered by code, so failures group in a fixed order.
    public static func < (lhs: TransferStatus, rhs: TransferStatus) -> Bool { lhs.code < rhs.code }
}

/// One transfer: the app's request (`fromUid`, `toUid`, `amount`) and the API's response
/// (`tid`, `tstatus`, `ttime`) in one record.
public struct Transfer: Sendable, Hashable {
    public var tid: String
    public var fromUid: String
    public var toUid: String
    public var amount: Money
    public var status: TransferStatus
    public var time: Instant

    public init(tid: String, fromUid: String, toUid: String, amount: Money, status: TransferStatus, time: Instant) {
        self.tid = tid
        self.fromUid = fromUid
        self.toUid = toUid
        self.amount = amount
        self.status = status
        self.time = time
    }
}

/// The response half of a record (`GET /transaction`'s body), as Tests/Samples/transfermoneyapp holds it.
public struct TransferResponse: Sendable, Hashable {
    public var tid: String
    public var status: TransferStatus
    public var time: Instant

    public init(tid: String, status: TransferStatus, time: Instant) {
        self.tid = tid
        self.status = status
        self.time = time
    }
}

/// Everything loaded from `transfers/`: the transfer app's users and transfers.
public struct TransfersData: Sendable {
    /// In the order of users.json.
    public var users: [TransferUser] = []
    /// In the order of transfers.json.
    public var transfers: [Transfer] = []

    public init(users: [TransferUser] = [], transfers: [Transfer] = []) {
        self.users = users
        self.transfers = transfers
    }

    public var isEmpty: Bool { users.isEmpty && transfers.isEmpty }

    /// The user with a uid, if users.json names one.
    public func user(_ uid: String) -> TransferUser? { users.first { $0.uid == uid } }

    /// The latest moment in this source, for the start page's "data as of".
    public var latestInstant: Instant? { transfers.map(\.time).max() }
}
