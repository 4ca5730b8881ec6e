import Foundation

/// The write stage. Files go into a staging folder beside the output folder; only when
/// every page is there does ``commit()`` swap it in, so a failed build leaves the previous
/// output whole. A file whose bytes did not change keeps its old copy and modification time,
/// and files that the new build did not write (stale pages) are gone after the swap.
public final class SiteWriter {
    public let output: URL
    let staging: URL
    private let fileManager = FileManager.default
    private var written: [String] = []
    /// The size of each file written, for the build cache.
    public private(set) var sizes: [String: Int] = [:]

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

    /// Writes one file into the staging folder.
    public func write(_ text: String, to path: String) throws(WriteError) {
        let url = staging.appendingPathComponent(path)
        do {
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = Data(text.utf8)
            try data.write(to: url)
            sizes[path] = data.count
        } catch {
            throw WriteError(path: path, reason: Self.reason(error))
        }
        written.append(path)
    }

    /// Where a file of the new output is staged, for a tool that writes it itself (`--pdf`).
    public func stagedURL(_ path: String) -> URL { staging.appendingPathComponent(path) }

    /// Counts a file that a tool wrote at ``stagedURL(_:)`` as written.
    public func adopt(_ path: String) { written.append(path) }

    /// Swaps the staging folder in as the output folder.
    public func commit() throws(WriteError) -> Summary {
        var changed = 0
        for path in written {
            let old = output.appendingPathComponent(path)
            let new = staging.appendingPathComponent(path)
            if let before = fileManager.contents(atPath: old.path), let after = fileManager.contents(atPath: new.path), before == after {
                // Keep the old file (and its modification time) in place of the identical new one.
                // A hard link keeps the old output intact until the swap.
                do {
                    try fileManager.removeItem(at: new)
                    if (try? fileManager.linkItem(at: old, to: new)) == nil {
                        try fileManager.copyItem(at: old, to: new)
                        let modified = try fileManager.attributesOfItem(atPath: old.path)[.modificationDate]
                        try fileManager.setAttributes([.modificationDate: modified ?? Date()], ofItemAtPath: new.path)
                    }
                } catch {
                    throw WriteError(path: path, reason: Self.reason(error))
                }
            } else {
                changed += 1
            }
        }
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
