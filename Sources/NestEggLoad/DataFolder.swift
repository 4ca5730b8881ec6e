import NestEggModel
import NestEggSupport
import Foundation
import Synchronization

/// The data folder: every file in it, which loaders have read, and which nobody claimed.
///
/// Files are listed once, sorted, so loading is deterministic. A file that no loader
/// claims is reported as a warning (it is neither read nor silently skipped). Loaders may read
/// from several threads at once.
///
/// Nothing in the folder is ever taken for absent when it is only unreadable: a folder that
/// cannot be listed, a file that cannot be read, and an entry that is not a regular file (a
/// FIFO, a socket, a device, a link that leads nowhere or in a loop, a folder named like a JSON
/// file) are reported with the system's reason — as errors where a loader would have read them
/// (`*.json`, or any folder the walk cannot enter), as warnings for other entries. A link counts
/// as what it points to, folders included (a loop is reported, not followed). A link to a folder
/// that holds the data folder (`/`, `..`) is an error at the link, and a link to a folder that
/// holds or lies in one of the folders the run replaces (`avoiding`) is listed but not entered:
/// either would have the walk read far more than the data, the whole file system for `/`.
public final class DataFolder: Sendable {
    public let root: URL
    /// Paths relative to `root`, with `/` separators, sorted: the regular files.
    public let files: [String]
    /// What the walk found wrong, in path order: reported by the load stage.
    public let listingProblems: [Diagnostic]
    /// The entries that are symbolic links it followed (to a file or a folder), in path order:
    /// what they lead to is input too, wherever it is.
    public let links: [String]
    /// The same paths, to look one up (a loader asks for thousands).
    private let known: Set<String>
    private let claimed = Mutex<Set<String>>([])

    public enum OpenError: Error, Equatable {
        case missing(String)
        case notAFolder(String)
        case unreadable(String, reason: String)
    }

    public init(root: URL, avoiding: [URL] = []) throws(OpenError) {
        let path = root.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { throw .missing(path) }
            throw .unreadable(path, reason: systemReason(errno))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(path) }
        guard let directory = opendir(path) else { throw .unreadable(path, reason: systemReason(errno)) }
        closedir(directory)
        self.root = root.standardizedFileURL
        let (files, problems, links) = Self.walk(self.root.path, avoiding: avoiding.map { Self.realPath($0.standardizedFileURL.path) ?? $0.standardizedFileURL.path })
        self.files = files
        self.listingProblems = problems
        self.links = links
        self.known = Set(files)
    }

    /// Lists the regular files under `root` (hidden entries skipped), without recursion, every
    /// entry that could not be listed or is not a regular file, and the links it followed.
    private static func walk(_ root: String, avoiding: [String]) -> ([String], [Diagnostic], links: [String]) {
        let realRoot = realPath(root) ?? root
        var files: [String] = []
        var problems: [Diagnostic] = []
        var links: [String] = []
        var visited: Set<FolderIdentity> = []
        var rootStatus = stat()
        if stat(root, &rootStatus) == 0 { visited.insert(FolderIdentity(rootStatus)) }
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? root : root + "/" + relative
            guard let entries = FolderEntries.read(absolute) else {
                problems.append(Diagnostic(.error, file: relative, message: "cannot read this folder: \(systemReason(errno))"))
                continue
            }
            for name in entries.lazy.map(\.name) where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = root + "/" + path
                let expectsFile = name.hasSuffix(".json")
                var status = stat()
                guard lstat(full, &status) == 0 else {
                    problems.append(Diagnostic(.error, file: path, message: "cannot read: \(systemReason(errno))"))
                    continue
                }
                var kind = status.st_mode & S_IFMT
                var linked = false
                if kind == S_IFLNK {
                    linked = true
                    guard stat(full, &status) == 0 else {
                        let reason = errno == ELOOP ? "a symbolic link that leads back to itself"
                            : errno == ENOENT ? "a symbolic link to nothing (its target does not exist)"
                            : "a symbolic link that cannot be followed: \(systemReason(errno))"
                        problems.append(Diagnostic(expectsFile ? .error : .warning, file: path, message: "not read: it is \(reason)"))
                        continue
                    }
                    kind = status.st_mode & S_IFMT
                }
                if linked && (kind == S_IFREG || kind == S_IFDIR) { links.append(path) }
                if linked && kind == S_IFDIR, let target = realPath(full) {
                    if within(realRoot, target) {
                        problems.append(Diagnostic(.error, file: path, message:
                            "not read: a symbolic link to \(target), a folder that holds the data folder itself"))
                        continue
                    }
                    // Listed among the links, which the run then refuses, but never walked.
                    if avoiding.contains(where: { within($0, target) || within(target, $0) }) { continue }
                }
                switch kind {
                case S_IFREG:
                    files.append(path)
                case S_IFDIR:
                    if expectsFile {
                        problems.append(Diagnostic(.error, file: path, message: "is a folder, but a JSON file belongs here"))
                    } else if !visited.insert(FolderIdentity(status)).inserted {
                        problems.append(Diagnostic(.error, file: path, message: "not read: a \(linked ? "link to a " : "")folder already read (a loop of links)"))
                    } else {
                        pending.append(path)
                    }
                default:
                    let what = kind == S_IFIFO ? "a FIFO" : kind == S_IFSOCK ? "a socket" : kind == S_IFCHR || kind == S_IFBLK ? "a device" : "not a regular file"
                    problems.append(Diagnostic(expectsFile ? .error : .warning, file: path,
                                               message: "not read: it is \(linked ? "a link to " : "")\(what), not a regular file"))
                }
            }
        }
        files.sort()
        problems += spellingTwins(files)
        problems.sort { $0.file < $1.file }
        links.sort()
        return (files, problems, links)
    }

    /// Files whose paths are one name spelled two ways (`café` with `é` composed, and with `e` and a
    /// combining accent): the file system keeps both, but a path names one file by what it says,
    /// so which of them a loader reads would be a matter of chance. Each is an error naming the other.
    static func spellingTwins(_ files: [String]) -> [Diagnostic] {
        var first: [String: String] = [:]  // (Swift compares strings by canonical equivalence)
        var problems: [Diagnostic] = []
        for path in files {
            if let other = first[path] {
                let message = "this file's name and \(Diagnostic.printable(other))'s are the same name in two Unicode spellings "
                    + "(composed and decomposed accents), so which of them is read would be chance: rename one"
                problems.append(Diagnostic(.error, file: path, message: message))
            } else {
                first[path] = path
            }
        }
        return problems
    }

    /// `path` with every symbolic link resolved, or `nil` if it cannot be.
    static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Whether `path` is `folder` or lies inside it (both resolved).
    static func within(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// A folder, once: its device and inode.
    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    public func contains(_ path: String) -> Bool { known.contains(path) }

    /// Whether any file lies under `folder/`.
    public func hasFolder(_ folder: String) -> Bool { files.contains { $0.hasPrefix(folder + "/") } }

    /// Files directly inside `folder` whose names end in `suffix`, sorted.
    public func files(in folder: String, suffix: String = ".json") -> [String] {
        let prefix = folder + "/"
        return files.filter { path in
            path.hasPrefix(prefix) && path.hasSuffix(suffix) && !path.dropFirst(prefix.count).contains("/")
        }
    }

    /// Reads and parses a file, claiming it. Syntax errors and read failures go to `log`.
    public func document(_ path: String, log: DiagnosticLog) -> JSONDocument? {
        claim(path)
        switch FileBytes.read(root.path + "/" + path) {
        case .success(let bytes):
            return JSONDocument.parse(bytes, file: path, log: log)
        case .failure(let failure):
            log.report(Diagnostic(.error, file: path, message: "cannot read the file: \(failure.reason)"))
            return nil
        }
    }

    /// Marks a file as read without parsing it here.
    public func claim(_ path: String) { claimed.withLock { _ = $0.insert(path) } }

    /// Files that no loader read: reported as warnings by the load stage.
    public var unclaimedFiles: [String] { claimed.withLock { claimed in files.filter { !claimed.contains($0) } } }
}
