import Crypto
import Foundation

/// Reading a file whole, safely: never blocking on a FIFO, never reading what is not a regular file.
public enum FileBytes {
    public struct ReadFailure: Error, Sendable { public let reason: String }

    /// The most bytes nestegg reads of one file whole (a data file, the settings, a manifest): 1 GiB.
    /// A larger file is refused before anything is allocated for it, since parsing it would take
    /// several times its size in memory; the largest file of the synthetic data at scale 100 is
    /// far below it.
    public static let largestFile = 1 << 30

    /// What a file of `size` bytes, over `limit`, is told.
    static func tooLarge(_ size: Int, limit: Int) -> ReadFailure {
        ReadFailure(reason: "the file is larger than \(describe(limit)), the most nestegg reads of one file (it holds \(size) bytes or more)")
    }

    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    /// A regular file's bytes, at most `limit` of them. Opened without blocking (a FIFO put in a
    /// file's place after the listing must not hang the build) and checked to be a regular file
    /// before it is read. The size the file system gives decides nothing but a refusal: memory
    /// grows with the bytes actually read (a sparse file of 100 GB is refused, not allocated).
    public static func read(_ path: String, limit: Int = largestFile) -> Result<[UInt8], ReadFailure> {
        let descriptor: Int32, status: stat
        switch openRegular(path) {
        case .success(let opened): (descriptor, status) = opened
        case .failure(let failure): return .failure(failure)
        }
        defer { close(descriptor) }
        guard Int(status.st_size) <= limit else { return .failure(tooLarge(Int(status.st_size), limit: limit)) }
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), 1 << 24))
        var count = 0
        while true {
            // Full at the size fstat gave (or 16 MiB of it): the next read usually finds the end;
            // room is made as bytes come, up to one byte past the limit to see it passed.
            if count == bytes.count {
                guard count <= limit else { return .failure(tooLarge(count, limit: limit)) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(4096, bytes.count), limit + 1 - count)))
            }
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
        guard count <= limit else { return .failure(tooLarge(count, limit: limit)) }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    /// The first `count` bytes of a regular file (fewer if it is shorter): enough to tell what it is.
    public static func head(_ path: String, count: Int) -> Result<[UInt8], ReadFailure> {
        let descriptor: Int32
        switch openRegular(path) {
        case .success(let opened): descriptor = opened.descriptor
        case .failure(let failure): return .failure(failure)
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var read = 0
        while read < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + read, count - read) }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(ReadFailure(reason: systemReason(errno)))
            }
            if got == 0 { break }
            read += got
        }
        return .success(Array(bytes[..<read]))
    }

    /// Reads a regular file of at most `limit` bytes from start to end in pieces of at most 1 MiB,
    /// giving each to `body`: for what is only hashed, in constant memory. `nil` when it was read
    /// whole. A larger file is not read at all (a sparse file of 100 GB would take minutes).
    public static func forEachPiece(_ path: String, limit: Int = largestFile, _ body: (UnsafeRawBufferPointer) -> Void) -> ReadFailure? {
        let descriptor: Int32, status: stat
        switch openRegular(path) {
        case .success(let opened): (descriptor, status) = opened
        case .failure(let failure): return failure
        }
        defer { close(descriptor) }
        guard Int(status.st_size) <= limit else { return tooLarge(Int(status.st_size), limit: limit) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let read = Glibc.read(descriptor, buffer.baseAddress!, buffer.count)
            if read < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return ReadFailure(reason: systemReason(errno))
            }
            if read == 0 { return nil }
            body(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
        }
    }

    /// The SHA-256 of a regular file of at most `limit` bytes, in hexadecimal, read a piece at a
    /// time (``forEachPiece(_:limit:_:)``): memory stays flat whatever its size.
    public static func sha256(_ path: String, limit: Int = largestFile) -> Result<String, ReadFailure> {
        var hasher = SHA256()
        if let failure = forEachPiece(path, limit: limit, { hasher.update(bufferPointer: $0) }) { return .failure(failure) }
        return .success(Text.hex(hasher.finalize()))
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
