import Foundation
import NestEggSupport

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
