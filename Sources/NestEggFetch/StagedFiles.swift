import Foundation
import NestEggSupport

/// The files of one fetch, written into the data folder all at once or not at all.
///
/// Every file is staged first, beside its destination (a hidden `.<name>.nestegg-fetch`, which
/// no loader reads), written in full and synced; only when all are staged is each renamed over
/// its destination. A rename is atomic, so a fetch interrupted at any moment leaves each file
/// old or new, never half-written. A file whose bytes did not change is left alone (it keeps its
/// modification time); a replaced file keeps its permissions, and a new one is readable by its
/// owner alone (this is private finance data). The data folder is locked (`flock`) while files
/// are staged and renamed, so two fetches never write into it at once (one waits up to 10 s for
/// the other), and staged files that an interrupted fetch left behind are removed.
struct StagedFiles {
    static let stagedSuffix = ".nestegg-fetch"
    /// How long to wait for another fetch's lock on the data folder, in steps of 50 ms (10 s).
    static let lockPatience = 200

    /// Paths relative to the data folder, with the bytes each must hold.
    var files: [(path: String, bytes: [UInt8])] = []

    mutating func add(_ path: String, _ bytes: [UInt8]) { files.append((path, bytes)) }

    struct Outcome: Sendable, Equatable {
        var files: Int
        var changed: Int
    }

    func commit(into root: URL, label: String) throws(FetchError) -> Outcome {
        let rootPath = root.path
        try makeFolder(rootPath, label: label)
        let lock = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw FetchError(.cannotCreate, "cannot open the data folder \(label): \(systemReason(errno))") }
        defer { close(lock) }
        // Another fetch may be swapping its files in (or a child process a moment from `exec` may
        // still hold a copy of its descriptor): wait for it a while, then give up.
        var waited = 0
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < Self.lockPatience else {
                throw FetchError(.cannotCreate, "another nestegg fetch is writing into \(label)")
            }
            usleep(50_000)
            waited += 1
        }
        // A destination that is a folder, a FIFO or a device would fail its rename half-way
        // through the swap: it is refused before anything is staged.
        for file in files {
            var status = stat()
            if stat(rootPath + "/" + file.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw FetchError(.cannotCreate, "\(label)/\(file.path) is not a regular file, so it cannot be replaced")
            }
        }
        var folders = Set<String>()
        for file in files { folders.insert((file.path as NSString).deletingLastPathComponent) }
        for folder in folders.sorted() {
            let absolute = folder.isEmpty ? rootPath : rootPath + "/" + folder
            try makeFolder(absolute, label: folder.isEmpty ? label : "\(label)/\(folder)")
            Self.removeLeftovers(in: absolute)
        }

        // Stage: nothing in place changes until every file is written in full.
        var staged: [(temporary: String, destination: String)] = []
        func discard() { for entry in staged { unlink(entry.temporary) } }
        for file in files {
            let destination = rootPath + "/" + file.path
            if case .success(let held) = FileBytes.read(destination), held == file.bytes { continue }
            let name = (file.path as NSString).lastPathComponent
            let temporary = (destination as NSString).deletingLastPathComponent + "/." + name + Self.stagedSuffix
            do {
                try Self.write(file.bytes, to: temporary, keepingModeOf: destination)
            } catch {
                unlink(temporary)
                discard()
                throw FetchError(.cannotCreate, "cannot write \(label)/\(file.path): \(error.reason)")
            }
            staged.append((temporary, destination))
        }

        // Swap each into place.
        for (index, entry) in staged.enumerated() {
            guard rename(entry.temporary, entry.destination) == 0 else {
                let reason = systemReason(errno)
                for rest in staged[index...] { unlink(rest.temporary) }
                var error = FetchError(.cannotCreate, "cannot replace \(entry.destination): \(reason); \(index) of \(staged.count) "
                    + "changed files were replaced, the others left as they were (each file is whole: old or new)")
                error.dataUnchanged = index == 0
                throw error
            }
        }
        for folder in folders {
            let descriptor = open(folder.isEmpty ? rootPath : rootPath + "/" + folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 { fsync(descriptor); close(descriptor) }
        }
        return Outcome(files: files.count, changed: staged.count)
    }

    struct WriteFailure: Error { let reason: String }

    /// Writes `bytes` to a new file at `path` and syncs it; its mode is the destination's when
    /// there is one, else owner read and write.
    private static func write(_ bytes: [UInt8], to path: String, keepingModeOf destination: String) throws(WriteFailure) {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw WriteFailure(reason: systemReason(errno)) }
        defer { close(descriptor) }
        var status = stat()
        if stat(destination, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            fchmod(descriptor, status.st_mode & 0o7777)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteFailure(reason: systemReason(errno))
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw WriteFailure(reason: systemReason(errno)) }
    }

    /// Creates a folder and the folders above it that are missing, readable by the owner alone.
    private func makeFolder(_ path: String, label: String) throws(FetchError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw FetchError(.cannotCreate, "\(label) is not a folder") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeFolder(parent, label: (label as NSString).deletingLastPathComponent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw FetchError(.cannotCreate, "cannot create the folder \(label): \(systemReason(errno))")
        }
    }

    /// Staged files that an interrupted fetch left (the caller holds the data folder's lock).
    private static func removeLeftovers(in folder: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(stagedSuffix) {
            unlink(folder + "/" + name)
        }
    }
}
