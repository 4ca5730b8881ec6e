import Foundation

/// The write stage. Files go into a staging folder beside the output folder; only when
/// every page is there does ``commit()`` swap it in, so a failed build leaves the previous
/// output whole. A file whose bytes did not change keeps its old copy and modification time,
/// and files that the new build did not write (stale pages) are gone after the swap.
///
/// ``write(_:to:)`` may be called from several threads at once (the render stage's workers each
/// write the pages they render). Files are created one at a time (creating them is the kernel's
/// work, which a second thread did not speed up), plainly, without `fsync`: the swap, not the
/// disk cache, is what keeps the previous output whole.
public final class SiteWriter: @unchecked Sendable {
    public let output: URL
    let staging: URL
    private let fileManager = FileManager.default
    /// Guards `written`, `changed`, `sizesByPath` and `folders`.
    private let lock = NSLock()
    /// Held while a file is created: one at a time.
    private let creating = NSLock()
    private var written: [String] = []
    /// The same paths, to refuse a second write to one (it could reach the old output through a link).
    private var writtenPaths: Set<String> = []
    private var changed = 0
    private var sizesByPath: [String: Int] = [:]
    /// Folders of the staging folder known to exist.
    private var folders: Set<String> = [""]

    /// The size of each file written, for the build cache.
    public var sizes: [String: Int] { lock.withLock { sizesByPath } }

    public struct WriteError: Error, Sendable {
        public let path: String
        public let reason: String
    }

    public struct Summary: Sendable {
        /// Files in the new output.
        public let files: Int
        /// Files that are new or whose content changed.
        public let changed: Int
        /// Files of the old output that are no longer produced.
        public let removed: Int
    }

    /// The file that marks a folder as a site nestegg wrote, and so may replace.
    public static let marker = ".nestegg-output"

    /// Opens a staging folder beside `output`. Refuses (rather than replace) an output folder that
    /// holds one of the `protecting` folders (the data), the current, home or root folder, or an
    /// existing folder that nestegg did not write — the swap replaces the output folder whole.
    public init(output: URL, protecting: [URL] = []) throws(WriteError) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        staging = parent.appendingPathComponent(".nestegg-staging-\(self.output.lastPathComponent)-\(getpid())")
        try checkOutputIsOurs(protecting: protecting)
        Self.removeLeftovers(of: self.output)
        do {
            try? fileManager.removeItem(at: staging)
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            try Data("This folder is a site written by nestegg build; the next build replaces it whole.\n".utf8)
                .write(to: staging.appendingPathComponent(Self.marker))
        } catch {
            throw WriteError(path: parent.path, reason: "cannot create a folder here (\(Self.reason(error)))")
        }
    }

    private func checkOutputIsOurs(protecting: [URL]) throws(WriteError) {
        let path = output.resolvingSymlinksInPath().path
        let refuse = { (why: String) in WriteError(path: self.output.path, reason: "refusing to replace this folder: \(why)") }
        let special = ["/", FileManager.default.homeDirectoryForCurrentUser.resolvingSymlinksInPath().path,
                       URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path]
        if special.contains(path) { throw refuse("it is the root, home or current folder") }
        for folder in protecting {
            let protected = folder.standardizedFileURL.resolvingSymlinksInPath().path
            if protected == path || protected.hasPrefix(path + "/") { throw refuse("it holds the data folder \(folder.path)") }
        }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: output.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw WriteError(path: output.path, reason: "exists and is not a folder") }
        let contents = (try? fileManager.contentsOfDirectory(atPath: output.path)) ?? []
        if !contents.isEmpty && !contents.contains(Self.marker) {
            throw refuse("it is not empty and nestegg did not write it (it has no \(Self.marker)); remove it or choose another --output")
        }
    }

    /// Staging and retired folders left by a build that was killed: a missing output folder is
    /// restored from its retired copy, and the rest removed. Folders of a build still running
    /// (its process alive) are left alone.
    static func removeLeftovers(of output: URL) {
        let parent = output.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names.sorted() {
            for prefix in [".nestegg-staging-\(output.lastPathComponent)-", ".nestegg-old-\(output.lastPathComponent)-"] where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0 else { continue }
                let leftover = parent.appendingPathComponent(name)
                if prefix.hasPrefix(".nestegg-old"), !FileManager.default.fileExists(atPath: output.path) {
                    try? FileManager.default.moveItem(at: leftover, to: output)
                } else {
                    try? FileManager.default.removeItem(at: leftover)
                }
            }
        }
    }

    /// Writes one file into the staging folder. When the output already has the same bytes at
    /// `path`, the old file is hard-linked instead, keeping its modification time (and the old
    /// output intact until the swap).
    public func write(_ text: String, to path: String) throws(WriteError) {
        guard lock.withLock({ writtenPaths.insert(path).inserted }) else {
            throw WriteError(path: path, reason: "written twice in one build (two pages with one path)")
        }
        var text = text
        let size = text.utf8.count
        try ensureFolder(of: path)
        let old = output.path + "/" + path, new = staging.path + "/" + path
        let unchanged = text.withUTF8 { bytes in Self.file(atPath: old, holds: bytes) }
        let failure: String? = creating.withLock {
            if unchanged && keep(path) { return nil }
            let failure = text.withUTF8 { bytes in Self.writeFile(atPath: new, bytes) }
            // Where the disk cannot link, the copy still keeps the old modification time.
            if failure == nil && unchanged { Self.copyModificationTime(from: old, to: new) }
            return failure
        }
        if let failure { throw WriteError(path: path, reason: failure) }
        lock.withLock {
            written.append(path)
            sizesByPath[path] = size
            if !unchanged { changed += 1 }
        }
    }

    static func copyModificationTime(from source: String, to destination: String) {
        var status = stat()
        guard stat(source, &status) == 0 else { return }
        var times = [status.st_atim, status.st_mtim]
        _ = utimensat(AT_FDCWD, destination, &times, 0)
    }

    /// Where a file of the new output is staged, for a tool that writes it itself (`--pdf`).
    public func stagedURL(_ path: String) -> URL { staging.appendingPathComponent(path) }

    /// Counts a file that a tool wrote at ``stagedURL(_:)`` as written (keeping the old copy
    /// when the bytes are the same).
    public func adopt(_ path: String) {
        let unchanged = (fileManager.contents(atPath: staging.path + "/" + path)).map { data in
            data.withUnsafeBytes { Self.file(atPath: output.path + "/" + path, holds: UnsafeBufferPointer(start: $0.bindMemory(to: UInt8.self).baseAddress, count: data.count)) }
        } ?? false
        if unchanged {
            try? fileManager.removeItem(atPath: staging.path + "/" + path)
            if !keep(path) { try? fileManager.copyItem(atPath: output.path + "/" + path, toPath: staging.path + "/" + path) }
        }
        lock.withLock {
            written.append(path)
            if !unchanged { changed += 1 }
        }
    }

    /// Hard-links the old output's file at `path` into the staging folder. - Returns: whether it could.
    private func keep(_ path: String) -> Bool {
        link(output.path + "/" + path, staging.path + "/" + path) == 0
    }

    /// Creates the staging folder's subfolders for `path`, once each.
    private func ensureFolder(of path: String) throws(WriteError) {
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        if lock.withLock({ folders.contains(folder) }) { return }
        do {
            try fileManager.createDirectory(atPath: staging.path + "/" + folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: path, reason: Self.reason(error))
        }
        lock.withLock { _ = folders.insert(folder) }
    }

    /// Whether the file at `path` exists and holds exactly `bytes`.
    static func file(atPath path: String, holds bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == bytes.count else { return false }
        guard let data = FileManager.default.contents(atPath: path), data.count == bytes.count else { return false }
        return data.withUnsafeBytes { old in
            bytes.count == 0 || memcmp(old.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// Writes `bytes` to a new file at `path` (never into an existing one: in the staging folder
    /// that would be a linked file of the old output). - Returns: why it failed, or `nil`.
    static func writeFile(atPath path: String, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            return errno == EEXIST ? "another file of this build has the same name (a disk that ignores case?)"
                : String(cString: strerror(errno))
        }
        var offset = 0
        while offset < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                if count == 0 { errno = EIO }
                let reason = String(cString: strerror(errno))
                close(descriptor)
                return reason
            }
            offset += count
        }
        guard close(descriptor) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Swaps the staging folder in as the output folder.
    public func commit() throws(WriteError) -> Summary {
        let (written, changed) = lock.withLock { (self.written, self.changed) }
        let previous = Set(Self.listFiles(under: output)).subtracting([Self.marker, BuildCache.fileName])
        let removed = previous.subtracting(written).count
        let retired = output.deletingLastPathComponent()
            .appendingPathComponent(".nestegg-old-\(output.lastPathComponent)-\(getpid())")
        do {
            if fileManager.fileExists(atPath: output.path) {
                try fileManager.moveItem(at: output, to: retired)
            }
            try fileManager.moveItem(at: staging, to: output)
        } catch {
            if fileManager.fileExists(atPath: retired.path) && !fileManager.fileExists(atPath: output.path) {
                try? fileManager.moveItem(at: retired, to: output)
            }
            throw WriteError(path: output.path, reason: Self.reason(error))
        }
        try? fileManager.removeItem(at: retired)
        return Summary(files: written.count, changed: changed, removed: removed)
    }

    /// Removes the staging folder: the output folder stays as it was.
    public func discard() {
        try? fileManager.removeItem(at: staging)
    }

    static func listFiles(under root: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let prefix = root.standardizedFileURL.path + "/"
        var result: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            if path.hasPrefix(prefix) { result.append(String(path.dropFirst(prefix.count))) }
        }
        return result
    }

    static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }
}

/// `write(2)`, by a name that the writer's own `write` does not hide.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
