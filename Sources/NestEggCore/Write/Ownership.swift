import Foundation
import Synchronization

/// Who owns a staging folder, a retired site or a temporary file: the build that holds an
/// advisory lock (`flock`) on it. The lock lives as long as the descriptor, so it ends with the
/// process however that ends (a crash, `kill -9`), and a process id that the system has since
/// given to another program does not keep a leftover alive.
///
/// A later build that can take the lock knows the owner is gone and cleans up after it.
final class Ownership: Sendable {
    private let descriptor: Mutex<Int32>

    /// Takes the lock on `path` (a file or a folder). - Returns: `nil` if it cannot be opened
    /// or another process holds it.
    init?(of path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = Mutex(descriptor)
    }

    /// Gives the lock up (also done when the process ends).
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }

    /// Whether `path` is left over by a build that no longer runs: nobody holds its lock.
    /// (Asked by the build that would own it, the answer is `false`: a second lock by the same
    /// process on a new descriptor conflicts with its own.)
    static func isAbandoned(_ path: String) -> Bool {
        guard let probe = Ownership(of: path) else { return false }
        probe.release()
        return true
    }
}

/// `renameat2(…, RENAME_EXCHANGE)`: swaps two paths in one atomic step, so that there is no
/// moment at which the output folder is missing. Looked up at run time (Swift's Glibc module
/// does not declare it); `nil` where the C library lacks it.
enum AtomicExchange {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameat2: RenameAt2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
    private static let exchangeFlag: UInt32 = 2  // RENAME_EXCHANGE

    enum Outcome { case exchanged, unsupported, failed(Int32) }

    /// Exchanges `a` and `b` (both must exist). `unsupported` when the kernel, the file system or
    /// the C library refuses the operation itself, so the caller may fall back to two renames.
    static func exchange(_ a: String, _ b: String) -> Outcome {
        guard let renameat2 else { return .unsupported }
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, exchangeFlag) == 0 { return .exchanged }
        let code = errno
        return code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP ? .unsupported : .failed(code)
    }
}

/// The text of a system error number.
func systemReason(_ code: Int32) -> String { String(cString: strerror(code)) }
