import NestEggModel
import NestEggSupport
/// A value in a ``JSONDocument``, with typed accessors that report what they expected.
///
/// Each accessor returns `nil` after reporting an error to the document's log, so that
/// a loader reads on and one run shows every problem in the data, each with its file,
/// line, column and JSON path.
public struct JSONValue {
    public let node: JSONNode
    let document: JSONDocument

    init(node: JSONNode, document: JSONDocument) {
        self.node = node
        self.document = document
    }

    public var isNull: Bool { if case .null = node.kind { return true } else { return false } }

    // MARK: Reporting

    public func error(_ message: String) { document.report(.error, at: node, message) }
    public func warning(_ message: String) { document.report(.warning, at: node, message) }
    /// A diagnostic placed at this value, not yet reported (``JSONDocument/diagnostic(_:at:_:)``).
    public func diagnostic(_ severity: Diagnostic.Severity, _ message: String) -> Diagnostic {
        document.diagnostic(severity, at: node, message)
    }

    private func expected(_ what: String) {
        document.report(.error, at: node, "expected \(what), found \(node.typeDescription)")
    }

    // MARK: Members

    /// The member `key` if present and not null.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = node.kind else { return nil }
        guard let member = members.last(where: { $0.key == key }) else { return nil }
        if case .null = member.value.kind { return nil }
        return JSONValue(node: member.value, document: document)
    }

    /// The member `key`; reports it as missing (naming what it should hold) when absent or null.
    public func required(_ key: String, _ what: String) -> JSONValue? {
        guard case .object(let members) = node.kind else { expected("an object"); return nil }
        if let value = self[key] { return value }
        if let member = members.last(where: { $0.key == key }) {
            document.report(.error, at: member.value, "expected \(what), found null")
            return nil
        }
        document.report(.error, at: node, member: key, "missing required field \"\(key)\" (expected \(what))")
        return nil
    }

    /// Member names, in file order; used to reject unknown settings.
    public var memberValues: [(key: String, value: JSONValue)]? {
        guard case .object(let members) = node.kind else { expected("an object"); return nil }
        return members.map { ($0.key, JSONValue(node: $0.value, document: document)) }
    }

    // MARK: Types

    public var object: JSONValue? {
        guard case .object = node.kind else { expected("an object"); return nil }
        return self
    }

    public var array: [JSONValue]? {
        guard case .array(let elements) = node.kind else { expected("an array"); return nil }
        return elements.map { JSONValue(node: $0, document: document) }
    }

    public var string: String? {
        guard case .string(let text) = node.kind else { expected("a string"); return nil }
        return text
    }

    /// A string with surrounding white space removed (APIs pad some fields).
    public var trimmedString: String? { string.map(Text.trimmed) }

    public var bool: Bool? {
        guard case .bool(let value) = node.kind else { expected("true or false"); return nil }
        return value
    }

    public var int: Int? {
        guard case .number(let text) = node.kind else { expected("an integer"); return nil }
        guard let value = Int(text) else { error("expected an integer, found \(text)"); return nil }
        return value
    }

    /// An integer written as a number or as a string of digits (ids, Unix times).
    public var intOrDigitString: Int? {
        switch node.kind {
        case .number(let text):
            if let value = Int(text) { return value }
        case .string(let text):
            if let value = Int(Text.trimmed(text)) { return value }
        default:
            break
        }
        if case .number(let text) = node.kind, text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }) {
            error("expected an integer of at most 19 digits, found \(text)")
        } else if case .string(let text) = node.kind, !text.isEmpty, Text.trimmed(text).utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            error("expected an integer of at most 19 digits, found \"\(text)\"")
        } else {
            expected("an integer or a string of digits")
        }
        return nil
    }

    /// A string, or a number's text (ids are written both ways).
    public var identifier: String? {
        switch node.kind {
        case .string(let text): return Text.trimmed(text)
        case .number(let text): return text
        default: expected("a string or number id"); return nil
        }
    }

    /// Unix seconds (a number or a string of digits), between the years 1970 and 9998 (``CivilDate/supportedYears``).
    public var unixSeconds: Instant? {
        guard let seconds = intOrDigitString else { return nil }
        guard (0...253_370_764_799).contains(seconds) else {
            error("expected Unix seconds between 1970 and 9998, found \(seconds)")
            return nil
        }
        return withinHorizon(Instant(secondsSinceEpoch: Int64(seconds)), "Unix seconds \(seconds)")
    }

    public var instant: Instant? {
        guard let text = string else { return nil }
        guard let instant = Instant(iso8601: text) else {
            error("expected an ISO 8601 date-time with a zone such as 2026-11-16T08:30:00Z (four-digit year, two-digit fields, "
                  + "an offset within ±14:00), in the years 2 to 9998, found \"\(text)\"")
            return nil
        }
        return withinHorizon(instant, "\"\(text)\"")
    }

    /// A decimal amount (`12.50`, `3`, or `"12.50"`) read exactly into minor units of `currency`.
    public func decimalMoney(_ currency: Currency) -> Money? {
        let text: String
        switch node.kind {
        case .number(let number): text = number
        case .string(let string): text = Text.trimmed(string)
        default: expected("an amount (a decimal number)"); return nil
        }
        do {
            return try Money.parse(decimal: text, currency: currency)
        } catch {
            self.error("amount \(text) \(error) (\(currency.code))")
            return nil
        }
    }

    /// A Starling-style `{"currency": "GBP", "minorUnits": 1234}` amount.
    public var currencyAndAmount: Money? {
        guard object != nil else { return nil }
        let code = required("currency", "an ISO 4217 code such as \"GBP\"")?.currency
        let units = required("minorUnits", "an integer number of minor units")?.int
        guard let code, let units else { return nil }
        guard Int64(units).magnitude <= Money.maximumMinorUnits else {
            self["minorUnits"]?.error("amount \(units) is too large to be an amount of money (at most \(Money.maximumMinorUnits) minor units)")
            return nil
        }
        return Money(minorUnits: Int64(units), currency: code)
    }

    public var currency: Currency? {
        guard let text = string else { return nil }
        guard let currency = Currency(code: text) else {
            error("expected an ISO 4217 currency code such as \"GBP\", found \"\(text)\"")
            return nil
        }
        return currency
    }

    /// One of a fixed set of strings.
    public func oneOf<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> T? where T.RawValue == String {
        guard let text = string else { return nil }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            error("expected one of \(allowed), found \"\(text)\"")
            return nil
        }
        return value
    }
}
