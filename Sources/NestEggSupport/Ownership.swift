import Foundation
import Synchronization

/// Who owns a staging folder, a retired site or a temporary file: the build that holds an
/// advisory lock (`flock`) on it. The lock lives as long as the descriptor, so it ends with the
/// process however that ends (a crash, `kill -9`), and a process id that the system has since
/// given to another program does not keep a leftover alive.
///
/// A later build that can take the lock knows the owner is gone and cleans up after it.
public final class Ownership: Sendable {
    private let descriptor: Mutex<Int32>

    /// Takes the lock on `path` (a file or a folder). - Returns: `nil` if it cannot be opened
    /// or another process holds it.
    public init?(of path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = Mutex(descriptor)
    }

    /// Whether the lock is on what is at `path` now (not on an entry removed, or replaced, since
    /// it was opened).
    func holds(_ path: String) -> Bool {
        descriptor.withLock { descriptor in
            var held = stat(), there = stat()
            return descriptor >= 0 && fstat(descriptor, &held) == 0 && lstat(path, &there) == 0
                && held.st_dev == there.st_dev && held.st_ino == there.st_ino
        }
    }

    /// A name part that no other build picks at the same time: this machine's name (builds in
    /// containers sharing a volume each have their own process 1) and 64 random bits,
    /// `<host>.<16 hex digits>`, the host name kept to letters and digits (`_` for the rest).
    public static func uniqueToken() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count - 1) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let kept = String(host.unicodeScalars.prefix(40).map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return (kept.isEmpty ? "host" : kept) + "." + String(repeating: "0", count: 16 - random.count) + random
    }

    /// Whether `rest` is a ``uniqueToken()`` (or the process number older nestegg used).
    static func isToken(_ rest: Substring.UTF8View) -> Bool {
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9"), lower = UInt8(ascii: "a")...UInt8(ascii: "f")
        if !rest.isEmpty && rest.allSatisfy(digit.contains) { return true }
        let parts = rest.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].count == 16, parts[1].allSatisfy({ digit.contains($0) || lower.contains($0) }) else { return false }
        return parts[0].allSatisfy { byte in
            digit.contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    /// A system error: its number, and its text as `description`.
    public struct SystemError: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { systemReason(code) }
    }

    /// Makes a new entry in `folder` under `name(token)` (a fresh ``uniqueToken()`` each try) with
    /// `make` (which returns `errno` on failure, `nil` on success) and locks it, as one step for
    /// every other build: another build's recovery (``removeAbandoned(in:where:restores:)``) may
    /// take the new entry for a leftover in the moment before it is locked, and removes it while
    /// it holds the lock; then the lock here fails, or holds a removed entry, and a new name is
    /// tried. - Returns: the entry's path and its lock, or why it could not be made.
    public static func create(in folder: URL, named name: (String) -> String,
                              by make: (String) -> Int32?) -> Result<(path: URL, ownership: Ownership), SystemError> {
        var code = EAGAIN
        for _ in 0..<16 {
            let path = folder.appendingPathComponent(name(uniqueToken()))
            if let failure = make(path.path) {
                if failure == EEXIST { continue }
                return .failure(SystemError(code: failure))
            }
            if let ownership = Ownership(of: path.path) {
                if ownership.holds(path.path) { return .success((path, ownership)) }
                ownership.release()
            } else {
                // The entry made cannot be opened to lock (a link, one that loops): it goes, so that
                // a failed attempt leaves nothing behind, then and at every later try. (One another
                // build holds locked is that build's to remove.)
                code = errno
                if code != EWOULDBLOCK && code != EAGAIN { removeTree(path.path) }
            }
        }
        return .failure(SystemError(code: code == 0 ? EAGAIN : code))
    }

    /// Removes the file or folder at `path` whole, a folder that is not writable too (an output
    /// folder whose permissions were taken away is still nestegg's to replace): if the removal
    /// fails, every folder in it that its owner may not write is made writable, and it is tried once more.
    /// - Returns: whether nothing is left.
    @discardableResult
    public static func removeTree(_ path: String) -> Bool {
        if removeFolder(path) || (try? FileManager.default.removeItem(atPath: path)) != nil { return true }
        var status = stat()
        guard lstat(path, &status) == 0 else { return errno == ENOENT }
        func unlock(_ folder: String) {
            var status = stat()
            guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
            if status.st_mode & S_IRWXU != S_IRWXU { chmod(folder, status.st_mode & 0o7777 | S_IRWXU) }
            for entry in FolderEntries.read(folder) ?? [] where entry.name != "." && entry.name != ".." {
                unlock(folder + "/" + entry.name)
            }
        }
        unlock(path)
        return (try? FileManager.default.removeItem(atPath: path)) != nil
    }

    /// Removes the folder at `path` and all it holds, the subfolders at its top on every core, each
    /// entry by the type `readdir` gives (no `stat` a file, where Foundation's removal takes one: a
    /// rebuild removes the previous site's every file). Every folder is opened without following a
    /// link and its entries removed relative to it: a link, at `path` or inside, is never followed
    /// (a link named like a build's leftover, pointing at a folder of yours, leaves that folder as
    /// it is). - Returns: whether it is gone; `false` leaves the rest to ``removeTree(_:)``'s slower
    /// way (a link at `path`, a file the folder's permissions keep, a name that is not UTF-8 text).
    static func removeFolder(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0, removeContents(of: descriptor, onEveryCore: true) else { return false }
        return rmdir(path) == 0
    }

    /// Removes what the open folder `descriptor` holds, and closes it. - Returns: whether it is empty.
    private static func removeContents(of descriptor: Int32, onEveryCore: Bool) -> Bool {
        defer { close(descriptor) }
        guard let entries = FolderEntries.read(descriptor: descriptor) else { return false }
        var folders: [String] = []
        for entry in entries where entry.name != "." && entry.name != ".." {
            guard entry.isText else { return false }
            switch entry.type {
            case UInt8(DT_DIR): folders.append(entry.name)
            case UInt8(DT_UNKNOWN): return false
            default: guard unlinkat(descriptor, entry.name, 0) == 0 else { return false }
            }
        }
        let subfolders = folders
        let removed = onEveryCore && subfolders.count > 1 ? Concurrently.map(subfolders.count) { removeSubfolder(subfolders[$0], in: descriptor) }
            : subfolders.map { removeSubfolder($0, in: descriptor) }
        return !removed.contains(false)
    }

    /// Removes the subfolder `name` of the open folder `parent`, opened without following a link.
    private static func removeSubfolder(_ name: String, in parent: Int32) -> Bool {
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0, removeContents(of: descriptor, onEveryCore: false) else { return false }
        return unlinkat(parent, name, AT_REMOVEDIR) == 0
    }

    /// Gives the lock up (also done when the process ends).
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }

    /// Cleans up the entries of `folder` whose names `matches` and that no running build owns:
    /// each is removed, unless `restores` names where it goes back to (a path that is missing,
    /// which a build killed half-way through a swap left empty). `cleaning` is called on each
    /// first (a list of files beside the output, say, whose own leftovers go with it). The
    /// leftover's lock is held until it is gone, so that a build that made it a moment ago and
    /// has not locked it yet sees it is gone and makes another (``create(in:named:by:)``).
    public static func removeAbandoned(in folder: URL, where matches: (String) -> Bool,
                                       restores: (String) -> URL? = { _ in nil }, cleaning: (URL) -> Void = { _ in }) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where matches(name) {
            let leftover = folder.appendingPathComponent(name)
            guard let probe = Ownership(of: leftover.path) else { continue }
            defer { probe.release() }
            cleaning(leftover)
            var status = stat()
            if let original = restores(name), lstat(original.path, &status) != 0, errno == ENOENT,
               rename(leftover.path, original.path) == 0 {
                continue
            }
            removeTree(leftover.path)
        }
    }

    /// Which of `prefixes` `name` is a leftover of: the prefix and a ``uniqueToken()`` (or the
    /// process number older nestegg used), nothing else (`.nestegg-staging-site-box.0123456789abcdef`);
    /// `nil` for any other name — a file of the user's that merely shares the prefix, or another
    /// output's leftover whose prefix begins with this one (`site-2`'s with `site`'s: a token has
    /// no `-`).
    public static func leftover(_ name: String, of prefixes: [String]) -> String? {
        prefixes.first { prefix in
            name.hasPrefix(prefix) && isToken(name.utf8.dropFirst(prefix.utf8.count))
        }
    }

    /// Whether `path` is left over by a build that no longer runs: nobody holds its lock.
    /// (Asked by the build that would own it, the answer is `false`: a second lock by the same
    /// process on a new descriptor conflicts with its own.)
    public static func isAbandoned(_ path: String) -> Bool {
        guard let probe = Ownership(of: path) else { return false }
        probe.release()
        return true
    }
}

/// The text of a system error number.
public func systemReason(_ code: Int32) -> String { String(cString: strerror(code)) }
