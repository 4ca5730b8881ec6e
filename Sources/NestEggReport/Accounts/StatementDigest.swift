import NestEggModel
import NestEggSupport
import Crypto
import Foundation

/// A statement's digest: SHA-256 over a canonical serialisation of what the statement says — its
/// account, period, figures and lines — never over a page's HTML or Markdown, so the same
/// statement has the same digest however it is laid out. `docs/statements.md` documents the form,
/// so anyone holding the data can recompute it.
///
/// The canonical form (`nestegg-statement-v1`) is a JSON object serialised by the JSON
/// Canonicalization Scheme (RFC 8785): keys sorted, no white space, strings escaped only where JSON
/// must. Money is `{"amount": "-12.50", "currency": "GBP"}` (a decimal string), dates `YYYY-MM-DD`,
/// times UTC `YYYY-MM-DDThh:mm:ss.sssZ`; a missing value is `null`. It holds no number at all.
public enum StatementDigest {
    public static let format = "nestegg-statement-v1"

    /// The canonical text of `statement`, of the account in `data`.
    public static func canonical(_ statement: StatementPeriods.Statement, data: AccountData, timeZone: String) -> String {
        let account = data.account
        let identifiers = data.identifiers
        // Each object's members are written in JCS order (by UTF-16 code units); for these ASCII
        // keys that is plain alphabetical order, as listed here.
        let value: CanonicalJSON = .object([
            ("account", .object([
                ("accountNumber", .optional(identifiers?.accountIdentifier)),
                ("bankIdentifier", .optional(identifiers?.bankIdentifier)),
                ("bic", .optional(identifiers?.bic)),
                ("currency", .string(account.currency.code)),
                ("holder", .optional(data.holderName)),
                ("iban", .optional(identifiers?.iban)),
                ("name", .string(account.name)),
                ("type", .string(account.type)),
                ("uid", .string(account.uid)),
            ])),
            ("closing", .money(statement.closing)),
            ("format", .string(format)),
            ("lines", .array(statement.lines.map { line in
                .object([
                    ("amount", .money(line.item.amount)),
                    ("balance", .money(line.balance)),
                    ("counterParty", .string(line.item.counterPartyName)),
                    ("direction", .string(line.item.direction.rawValue)),
                    ("id", .string(line.item.uid)),
                    ("reference", .string(line.item.reference)),
                    ("source", .string(line.item.source.rawValue)),
                    ("time", .string(line.item.transactionTime.utcText)),
                ])
            })),
            ("moneyIn", .money(statement.moneyIn)),
            ("moneyOut", .money(statement.moneyOut)),
            ("opening", .money(statement.opening)),
            ("period", .object([
                ("first", .string("\(statement.period.first)")),
                ("last", .string("\(statement.period.last)")),
                ("status", .string(statement.status.word)),
                ("through", .string("\(statement.through)")),
                ("timeZone", .string(timeZone)),
            ])),
        ])
        return value.text
    }

    /// SHA-256 of the canonical text's UTF-8 bytes, as 64 lower-case hexadecimal digits.
    public static func digest(_ statement: StatementPeriods.Statement, data: AccountData, timeZone: String) -> String {
        sha256(Array(canonical(statement, data: data, timeZone: timeZone).utf8))
    }

    /// SHA-256 (swift-crypto) of `bytes`, as 64 lower-case hexadecimal digits.
    public static func sha256<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        Text.hex(SHA256.hash(data: bytes))
    }
}

/// A JSON value written as RFC 8785 (JCS) writes it, for the values a digest needs (no numbers).
indirect enum CanonicalJSON {
    case null
    case string(String)
    case array([CanonicalJSON])
    /// Members in the order JCS writes them (``isInCanonicalOrder(_:)``).
    case object([(String, CanonicalJSON)])

    static func optional(_ text: String?) -> CanonicalJSON { text.map(CanonicalJSON.string) ?? .null }

    static func money(_ amount: Money?) -> CanonicalJSON {
        amount.map { .object([("amount", .string($0.decimalString)), ("currency", .string($0.currency.code))]) } ?? .null
    }

    /// Whether `keys` are unique and in JCS order: by their UTF-16 code units.
    static func isInCanonicalOrder(_ keys: [String]) -> Bool {
        zip(keys, keys.dropFirst()).allSatisfy { $0.utf16.lexicographicallyPrecedes($1.utf16) }
    }

    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null:
            out += "null"
        case .string(let text):
            JSONText.append(text, canonical: true, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            assert(Self.isInCanonicalOrder(members.map(\.0)), "members out of JCS order")
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSONText.append(key, canonical: true, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}

extension Instant {
    /// `2026-10-18T23:30:00.000Z`: the instant in UTC, to the millisecond.
    public var utcText: String {
        let (days, millisecondsOfDay) = millisecondsSinceEpoch.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, milliseconds) = millisecondsOfDay < 0 ? (days - 1, millisecondsOfDay + 86_400_000) : (days, millisecondsOfDay)
        let two = { (value: Int64) in (value < 10 ? "0" : "") + String(value) }
        let millis = milliseconds % 1000
        return "\(CivilDate(daysSinceEpoch: Int(day)))T\(two(milliseconds / 3_600_000)):\(two(milliseconds / 60_000 % 60)):"
            + "\(two(milliseconds / 1000 % 60)).\(millis < 100 ? "0" : "")\(millis < 10 ? "0" : "")\(millis)Z"
    }
}

/// Final statements' digests that an earlier build worked out, offered to the report stage so that
/// a rebuild need not write out and hash every statement again. A memo answers only for a final
/// statement whose inputs (its account's files and everything else a digest reads) are as they
/// were; with or without it, the report is the same (a test holds the manifest to that).
public protocol DigestMemo: Sendable {
    /// The digest of `account`'s final statement for `month`, if known.
    func finalStatementDigest(account: AccountData, month: CalendarMonth) -> String?
}
