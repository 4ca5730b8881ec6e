import Foundation

/// Reading a file whole, safely: never blocking on a FIFO, never reading what is not a regular file.
public enum FileBytes {
    public struct ReadFailure: Error, Sendable { public let reason: String }

    /// A regular file's bytes. Opened without blocking (a FIFO put in a file's place after the
    /// listing must not hang the build) and checked to be a regular file before it is read.
    public static func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        let descriptor: Int32, status: stat
        switch openRegular(path) {
        case .success(let opened): (descriptor, status) = opened
        case .failure(let failure): return .failure(failure)
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var count = 0
        while true {
            // Full at the size fstat gave: the next read usually finds the end; room is made only
            // for a file that grew since.
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, min(bytes.count / 2, 1 << 20)))) }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(ReadFailure(reason: systemReason(errno)))
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    /// A regular file opened to read, without blocking (a FIFO in a file's place must not hang
    /// whoever reads it), with its status; the caller closes the descriptor. Anything but a
    /// regular file is refused, its descriptor closed.
    public static func openRegular(_ path: String) -> Result<(descriptor: Int32, status: stat), ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(ReadFailure(reason: systemReason(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = systemReason(errno)
            close(descriptor)
            return .failure(ReadFailure(reason: reason))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .failure(ReadFailure(reason: "not a regular file"))
        }
        return .success((descriptor, status))
    }
}
