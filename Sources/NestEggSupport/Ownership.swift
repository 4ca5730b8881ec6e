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
    /// which a build killed half-way through a swap left empty).
    public static func removeAbandoned(in folder: URL, where matches: (String) -> Bool,
                                       restores: (String) -> URL? = { _ in nil }) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where matches(name) {
            let leftover = folder.appendingPathComponent(name)
            guard isAbandoned(leftover.path) else { continue }
            var status = stat()
            if let original = restores(name), lstat(original.path, &status) != 0, errno == ENOENT,
               rename(leftover.path, original.path) == 0 {
                continue
            }
            try? FileManager.default.removeItem(at: leftover)
        }
    }

    /// Which of `prefixes` `name` is a leftover of: the prefix and a process number, nothing else
    /// (`.nestegg-staging-site-123`); `nil` for any other name — a file of the user's that merely
    /// shares the prefix, or another output's leftover whose prefix begins with this one (`site-2`'s
    /// with `site`'s).
    public static func leftover(_ name: String, of prefixes: [String]) -> String? {
        prefixes.first { prefix in
            guard name.hasPrefix(prefix) else { return false }
            let number = name.utf8.dropFirst(prefix.utf8.count)
            return !number.isEmpty && number.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
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
