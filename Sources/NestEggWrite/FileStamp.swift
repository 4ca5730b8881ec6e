import Foundation

/// What the "up to date" check compares of an output file: its size and modification time.
public struct FileStamp: Sendable, Hashable, Codable {
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
        size = Int(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}
