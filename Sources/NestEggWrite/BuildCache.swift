import NestEggSupport
import Foundation

/// Lets a rebuild whose input has not changed skip the work, as `make` would; and a rebuild
/// whose input changed a little skip the pages it did not change (each page's fingerprint).
///
/// A build records, in a file beside the output folder (``defaultFile(for:)``, or `--cache FILE`;
/// never inside the published folder, which holds the site alone), a
/// fingerprint of everything its output depends on — every data file's bytes, the template
/// overrides, and the `nestegg` executable itself — with the size and modification time (to the
/// nanosecond) of each file it wrote, and its warnings. The next build computes the fingerprint
/// first; when it matches, the output folder still carries its marker, and every file is still
/// a regular file of the same size and modification time, the output is taken to be what the
/// build would write, and it stops there. What this trusts: a change to an output file that
/// keeps both its size and its modification time (only a deliberate `touch -d` does) is not seen.
public struct BuildCache: Sendable {
    public static let fileName = ".nestegg-cache"
    public static let format = "nestegg-cache 4"

    public let fingerprint: String
    public var files: [String: FileStamp]
    public var warnings: [Diagnostic]
    /// Each page (by path, without extension) and the fingerprint of what it was rendered from.
    public var pages: [String: String]
    /// Each page that names its inputs (by path) and their key: a later build that works out the
    /// same key keeps the page's files without working out its view (``pages`` is carried over).
    public var keys: [String: String] = [:]
    /// Final statements' digests (by account id and month, `uid/2026-10`), each with the key of
    /// what it was worked out from: a later build whose key is the same takes the digest as it is.
    public var statementDigests: [String: (key: String, digest: String)] = [:]
    /// The SHA-256 of files the statements manifest lists (site path → hex digits): a later
    /// build that keeps such a file as it was (its page unchanged, its size and modification
    /// time as recorded) takes its hash from here instead of reading it again.
    public var hashes: [String: String] = [:]
    /// What the next build compares with for its "what changed" page (lines the report stage
    /// writes and reads; `change-…`).
    public var changes: [String] = []

    public init(fingerprint: String, files: [String: FileStamp], warnings: [Diagnostic], pages: [String: String] = [:]) {
        self.fingerprint = fingerprint
        self.files = files
        self.warnings = warnings
        self.pages = pages
    }

    /// The cache recorded in `file`, if any.
    public static func read(at file: URL) -> BuildCache? {
        guard case .success(let bytes) = FileBytes.read(file.path) else { return nil }
        return parse(bytes)
    }

    /// Where a build of `output` keeps its cache by default: beside it, hidden, named after it
    /// (`Output` → `.Output.nestegg-cache`), so that it is never uploaded with the site, goes with the
    /// folder that holds the output, and a second output in the same folder has its own.
    public static func defaultFile(for output: URL) -> URL {
        let folder = output.standardizedFileURL
        return folder.deletingLastPathComponent().appendingPathComponent("." + folder.lastPathComponent + ".nestegg-cache")
    }

    /// A cache's text, read line by line on its bytes (a large site's cache has hundreds of
    /// thousands of lines, read before every rebuild); `nil` for anything but this format.
    static func parse(_ bytes: [UInt8]) -> BuildCache? {
        bytes.withUnsafeBufferPointer { buffer -> BuildCache? in
            var lines: [Range<Int>] = []
            var start = 0
            while start <= buffer.count {
                var end = start
                while end < buffer.count && buffer[end] != 0x0A { end += 1 }
                lines.append(start..<end)
                start = end + 1
            }
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) }
            /// A line's fields, split at each tab.
            func fields(_ line: Range<Int>) -> [Range<Int>] {
                var fields: [Range<Int>] = []
                var start = line.lowerBound
                for index in line where buffer[index] == 0x09 {
                    fields.append(start..<index)
                    start = index + 1
                }
                fields.append(start..<line.upperBound)
                return fields
            }
            guard lines.count >= 2, text(lines[0]) == format else { return nil }
            var cache = BuildCache(fingerprint: text(lines[1]), files: [:], warnings: [])
            for line in lines.dropFirst(2) where !line.isEmpty {
                let parts = fields(line)
                let kind = text(parts[0])
                switch kind {
                case "file" where parts.count == 4:
                    guard let size = Int(text(parts[2])), let modified = Int64(text(parts[3])) else { return nil }
                    cache.files[text(parts[1])] = FileStamp(size: size, modified: modified)
                case _ where kind.hasPrefix("change-"):
                    cache.changes.append(text(line))
                case "page" where parts.count == 3:
                    cache.pages[text(parts[1])] = text(parts[2])
                case "sha" where parts.count == 3:
                    cache.hashes[text(parts[1])] = text(parts[2])
                case "key" where parts.count == 3:
                    cache.keys[text(parts[1])] = text(parts[2])
                case "digest" where parts.count == 4:
                    cache.statementDigests[text(parts[1])] = (text(parts[2]), text(parts[3]))
                case "warning" where parts.count == 7:
                    let field = parts.map(text)
                    var warning = Diagnostic(.warning, file: field[1], line: Int(field[2]), column: Int(field[3]),
                                             path: field[4].isEmpty ? nil : field[4], message: field[5])
                    warning.count = Int(field[6]) ?? 1
                    cache.warnings.append(warning)
                default: return nil
                }
            }
            return cache
        }
    }

    /// Whether `output` holds exactly what a build with this fingerprint wrote.
    public func isCurrent(in output: URL, fingerprint: String) -> Bool {
        guard fingerprint == self.fingerprint, !files.isEmpty,
              FileStamp(path: output.appendingPathComponent(SiteWriter.marker).path) != nil else { return false }
        for (path, stamp) in files where FileStamp(path: output.appendingPathComponent(path).path) != stamp {
            return false
        }
        return true
    }

    /// The cache as written: one line a record, written into one string (a large site's cache
    /// has hundreds of thousands of lines, written while the site is still in memory).
    public var text: String {
        var out = ""
        out.reserveCapacity(128 * (files.count + pages.count + keys.count + hashes.count + statementDigests.count) + 4096)
        func line(_ fields: String...) {
            for (index, field) in fields.enumerated() {
                if index > 0 { out += "\t" }
                out += field
            }
            out += "\n"
        }
        line(Self.format)
        line(fingerprint)
        for path in files.keys.sorted() { line("file", path, String(files[path]!.size), String(files[path]!.modified)) }
        for path in pages.keys.sorted() { line("page", path, pages[path]!) }
        for path in keys.keys.sorted() { line("key", path, keys[path]!) }
        for path in hashes.keys.sorted() { line("sha", path, hashes[path]!) }
        for id in statementDigests.keys.sorted() { line("digest", id, statementDigests[id]!.key, statementDigests[id]!.digest) }
        for change in changes { line(change) }
        for warning in warnings {
            line("warning", Diagnostic.printable(warning.file), warning.line.map(String.init) ?? "", warning.column.map(String.init) ?? "",
                 Diagnostic.printable(warning.path ?? ""), Diagnostic.printable(warning.message), String(warning.count))
        }
        return out
    }
}

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
