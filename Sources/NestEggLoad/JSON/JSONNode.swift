import NestEggModel
import NestEggSupport
/// A parsed JSON value that remembers where it stood in its file.
///
/// Numbers keep their source text, so that money written as `12.50` can be read
/// exactly; nothing ever passes through a binary floating-point value.
public struct JSONNode: Sendable {
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    public let kind: Kind
    /// Byte offset of the value's first byte in its file.
    public let offset: Int

    /// What the value is, in the words an error message uses ("a string", "null").
    public var typeDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

public struct JSONMember: Sendable {
    public let key: String
    public let value: JSONNode
}
