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

    public init(output: URL) throws(WriteError) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        staging = parent.appendingPathComponent(".nestegg-staging-\(self.output.lastPathComponent)-\(getpid())")
        do {
            try? fileManager.removeItem(at: staging)
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: parent.path, reason: "cannot create a folder here (\(Self.reason(error)))")
        }
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: self.output.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            discard()
            throw WriteError(path: self.output.path, reason: "exists and is not a folder")
        }
    }

    /// Writes one file into the staging folder.
    public func write(_ text: String, to path: String) throws(WriteError) {
        let url = staging.appendingPathComponent(path)
        do {
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
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
        let previous = Set(Self.listFiles(under: output))
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
