import NestEggSupport

/// A URL from data that is safe to link to: `http` or `https` only (checked here), normalised.
/// A template sees its text; Render encodes it for where it lands (``Escape/url(_:)`` for an
/// `href` or `src`), as any value.
public struct SafeURL: Sendable, Hashable, CustomStringConvertible, Encodable {
    public let description: String

    public init?(_ text: String) {
        guard Text.isWebAddress(text) else { return nil }
        description = Text.normalised(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
