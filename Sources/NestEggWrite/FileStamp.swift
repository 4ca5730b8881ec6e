import Foundation
import NestEggSupport

/// What the "up to date" check compares of an output file: its size and modification time.
public struct FileStamp: Sendable, Hashable {
    public let size: Int
    /// Nanoseconds since 1970.
    public let modified: Int64

    public init(size: Int, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    /// The stamp of the regular file at `path` (not followed through a link); `nil` for anything else.
    public init?(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(status)
    }

    /// The stamp in `status` (of a regular file).
    init(_ status: stat) {
        size = Int(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}

/// A stamp in a record as `[size, modified]`: a cache holds one for every file of the site, read
/// before every rebuild, so it is two numbers rather than an object with two keys.
extension FileStamp: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        size = try container.decode(Int.self)
        modified = try container.decode(Int64.self)
        guard container.isAtEnd else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "a stamp is two numbers") }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(size)
        try container.encode(modified)
    }
}

/// A stamp as a line of a record's column (``Lines``): `size modified`.
extension FileStamp: LineCodable {
    public var line: String { "\(size) \(modified)" }
    public init?(line: Substring) {
        guard let space = line.firstIndex(of: " "), let size = Int(line[..<space]), size >= 0,
              let modified = Int64(line[line.index(after: space)...]) else { return nil }
        self.init(size: size, modified: modified)
    }
}
