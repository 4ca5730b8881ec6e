import NestEggReport
import NestEggModel
import NestEggSupport
/// What a template sees: the view data of a page as text, flags, lists and objects.
///
/// Reports describe their views as `Encodable` structs; ``init(encoding:)`` turns one into a
/// value through the struct's compiled `encode(to:)` — no reflection. Numbers become their text
/// (`{{count}}` shows `12`), `nil` fields are absent (falsy in a section), and a type that
/// encodes as a single string (``SafeURL``) is that text.
///
/// The report stage's typed values become markup here and nowhere else: a ``Chart`` is drawn as
/// SVG, ``SanitizedText`` written as Markdown, a ``TableRow`` as a Markdown table row with its
/// cells escaped. Only such ``markup(_:)`` may be placed raw (`{{{name}}}`); text from a report
/// placed raw is an error (``Template/RawTextError``), so no report can slip markup past the escapers.
public enum TemplateValue: Sendable, Equatable {
    /// Text from a report: escaped for where it lands.
    case text(String)
    /// Markup that Render wrote: placed as it is by `{{{name}}}` (and escaped, like text, by `{{name}}`).
    case markup(String)
    case flag(Bool)
    case list([TemplateValue])
    case object(Fields)

    /// An object's fields, in the order they were set. A view has a handful, with short names,
    /// so a scan comparing names beats hashing them, both to build (a field per `encode`) and to
    /// look up (a lookup per `{{name}}`).
    public struct Fields: Sendable, Equatable, ExpressibleByDictionaryLiteral {
        private(set) var names: [String] = []
        private(set) var values: [TemplateValue] = []

        public init(dictionaryLiteral elements: (String, TemplateValue)...) {
            for (name, value) in elements { self[name] = value }
        }

        public var count: Int { names.count }

        public subscript(name: String) -> TemplateValue? {
            get {
                for index in names.indices where names[index] == name { return values[index] }
                return nil
            }
            set {
                if let index = names.firstIndex(of: name) {
                    if let newValue { values[index] = newValue } else { names.remove(at: index); values.remove(at: index) }
                } else if let newValue {
                    append(name, newValue)
                }
            }
        }

        /// Adds a field known not to be there yet (an encoder's keys are distinct).
        mutating func append(_ name: String, _ value: TemplateValue) {
            names.append(name)
            values.append(value)
        }

        /// The same fields with the same values, in any order.
        public static func == (lhs: Fields, rhs: Fields) -> Bool {
            lhs.count == rhs.count && zip(lhs.names, lhs.values).allSatisfy { rhs[$0] == $1 }
        }
    }

    /// False, an empty list, or (for an inverted section) nothing at all.
    var isFalsy: Bool {
        switch self {
        case .flag(let flag): return !flag
        case .list(let items): return items.isEmpty
        case .text, .markup, .object: return false
        }
    }

    /// The view data `value` as a template value.
    public init(encoding value: some Encodable) {
        if let text = value as? String {
            self = .text(text)
            return
        }
        let encoder = TemplateEncoder()
        // Our encoder never throws; a view's own `encode(to:)` could, and then shows nothing.
        self = (try? value.encode(to: encoder)).flatMap { encoder.value } ?? .object([:])
    }
}

/// An `Encoder` that builds a ``TemplateValue``. Keyed containers become objects, unkeyed ones
/// lists, single values text or flags; `encodeNil` leaves a key out (an optional that is `nil`).
final class TemplateEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private enum Storage {
        case empty
        case single(TemplateValue?)
        case object(ObjectBox)
        case list(ListBox)
    }
    private var storage = Storage.empty

    /// What was encoded; `nil` for an encoded `nil`.
    var value: TemplateValue? {
        switch storage {
        case .empty: return .object([:])
        case .single(let value): return value
        case .object(let box): return box.value
        case .list(let box): return box.value
        }
    }

    /// Encodes one nested value (a field or an element) with an encoder of its own.
    static func encode(_ value: some Encodable) -> TemplateValue? {
        // One cast for every type that is a value of its own (``TemplateLeaf``): a view's lists
        // of rows came here once per row, and a cast a type used to cost more than the row.
        if let leaf = value as? any TemplateLeaf { return leaf.templateValue }
        let encoder = TemplateEncoder()
        do { try value.encode(to: encoder) } catch { return nil }
        return encoder.value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let box) = storage { return KeyedEncodingContainer(KeyedContainer(box: box)) }
        let box = ObjectBox()
        storage = .object(box)
        return KeyedEncodingContainer(KeyedContainer(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list(let box) = storage { return UnkeyedContainer(box: box) }
        let box = ListBox()
        storage = .list(box)
        return UnkeyedContainer(box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    fileprivate func set(_ value: TemplateValue?) { storage = .single(value) }

    // MARK: Containers

    /// An object being filled; nested containers and super-encoders are kept as encoders and
    /// read when the object is.
    final class ObjectBox {
        var fields = TemplateValue.Fields()
        var nested: [(key: String, encoder: TemplateEncoder)] = []

        var value: TemplateValue {
            guard !nested.isEmpty else { return .object(fields) }
            var all = fields
            for (key, encoder) in nested { all[key] = encoder.value }
            return .object(all)
        }
    }

    final class ListBox {
        enum Item { case value(TemplateValue), nested(TemplateEncoder) }
        var items: [Item] = []

        var value: TemplateValue {
            .list(items.compactMap { item in
                switch item {
                case .value(let value): return value
                case .nested(let encoder): return encoder.value
                }
            })
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: ObjectBox
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) {}
        mutating func encode(_ value: String, forKey key: Key) { box.fields.append(key.stringValue, .text(value)) }
        mutating func encode(_ value: Bool, forKey key: Key) { box.fields.append(key.stringValue, .flag(value)) }
        mutating func encode(_ value: Int, forKey key: Key) { box.fields.append(key.stringValue, .text(String(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) { box.fields.append(key.stringValue, .text(String(value))) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            if let encoded = TemplateEncoder.encode(value) { box.fields.append(key.stringValue, encoded) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            nestedEncoder(key.stringValue).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            nestedEncoder(key.stringValue).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { nestedEncoder("super") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { nestedEncoder(key.stringValue) }

        private func nestedEncoder(_ key: String) -> TemplateEncoder {
            let encoder = TemplateEncoder()
            box.nested.append((key, encoder))
            return encoder
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let box: ListBox
        var codingPath: [any CodingKey] { [] }
        var count: Int { box.items.count }

        mutating func encodeNil() {}
        mutating func encode(_ value: String) { box.items.append(.value(.text(value))) }
        mutating func encode(_ value: Bool) { box.items.append(.value(.flag(value))) }
        mutating func encode(_ value: Int) { box.items.append(.value(.text(String(value)))) }
        mutating func encode<T: Encodable>(_ value: T) {
            if let encoded = TemplateEncoder.encode(value) { box.items.append(.value(encoded)) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            nestedEncoder().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nestedEncoder().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { nestedEncoder() }

        private func nestedEncoder() -> TemplateEncoder {
            let encoder = TemplateEncoder()
            box.items.append(.nested(encoder))
            return encoder
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: TemplateEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() { encoder.set(nil) }
        mutating func encode(_ value: String) { encoder.set(.text(value)) }
        mutating func encode(_ value: Bool) { encoder.set(.flag(value)) }
        mutating func encode(_ value: Int) { encoder.set(.text(String(value))) }
        mutating func encode(_ value: Int64) { encoder.set(.text(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) {
            // Any other number or plain value (`Double`, `UInt8`…) arrives here as itself: its text.
            if !(value is Markup), let leaf = value as? any LosslessStringConvertible {
                encoder.set(.text(leaf.description))
            } else {
                encoder.set(TemplateEncoder.encode(value))
            }
        }
    }
}

/// Markup that Render itself wrote (a page's HTML body, the stylesheet), for the layouts' `{{{…}}}`.
struct Markup: Sendable, Encodable {
    let text: String

    init(_ text: String) { self.text = text }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A type that is one template value of its own, not an object of fields: text, a flag, a
/// number's text, or markup Render writes (a chart's SVG, sanitised rich text, a table's row).
protocol TemplateLeaf {
    var templateValue: TemplateValue { get }
}

extension String: TemplateLeaf { var templateValue: TemplateValue { .text(self) } }
extension Bool: TemplateLeaf { var templateValue: TemplateValue { .flag(self) } }
extension Int: TemplateLeaf { var templateValue: TemplateValue { .text(String(self)) } }
extension Chart: TemplateLeaf { var templateValue: TemplateValue { .markup(ChartSVG.draw(self)) } }
extension SanitizedText: TemplateLeaf { var templateValue: TemplateValue { .markup(RichText.markdown(self)) } }
extension TableRow: TemplateLeaf { var templateValue: TemplateValue { .markup(MarkdownTable.line(self)) } }
extension TableDivider: TemplateLeaf { var templateValue: TemplateValue { .markup(MarkdownTable.divider(self)) } }
extension StatementIssuer.Logo: TemplateLeaf { var templateValue: TemplateValue { .markup(dataURI) } }
extension Markup: TemplateLeaf { var templateValue: TemplateValue { .markup(text) } }
