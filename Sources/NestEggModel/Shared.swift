import NestEggSupport
/// A value kept in one immutable box, so that a copy of its holder is a reference, not the
/// value's bytes. The reports keep records in several lists at once (a feed item is in its
/// statement, its round-up week and the spending list); at scale 100 those copies were most of
/// a build's memory. A change to a field makes a new box (copy on write).
public final class SharedBox<Value: Sendable>: Sendable {
    public let value: Value

    public init(_ value: Value) { self.value = value }
}

/// A record whose fields live in a shared box: `record.name` reads, `record.name = …` writes a
/// changed copy, as with a plain struct.
public protocol SharedRecord: Hashable {
    associatedtype Fields: Sendable, Hashable
    /// All the fields at once (setting them makes a new box).
    var fields: Fields { get set }
}

extension SharedRecord {
    @inlinable
    public subscript<Field>(dynamicMember field: WritableKeyPath<Fields, Field>) -> Field {
        get { fields[keyPath: field] }
        set { fields[keyPath: field] = newValue }
    }

    /// A field worked out from the others (read only).
    @inlinable
    public subscript<Field>(dynamicMember field: KeyPath<Fields, Field>) -> Field { fields[keyPath: field] }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.fields == rhs.fields }

    public func hash(into hasher: inout Hasher) { fields.hash(into: &hasher) }
}
