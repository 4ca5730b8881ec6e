import Foundation

/// The data folder: every file in it, which loaders have read, and which nobody claimed.
///
/// Files are listed once, sorted, so loading is deterministic. A file that no loader
/// claims is reported as a warning (it is neither read nor silently skipped). Loaders may read
/// from several threads at once.
public final class DataFolder: @unchecked Sendable {
    public let root: URL
    /// Paths relative to `root`, with `/` separators, sorted.
    public let files: [String]
    /// The same paths, to look one up (a loader asks for thousands).
    private let known: Set<String>
    private var claimed: Set<String> = []
    private let lock = NSLock()

    public enum OpenError: Error { case missing(String), notAFolder(String) }

    public init(root: URL) throws(OpenError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
            throw .missing(root.path)
        }
        guard isDirectory.boolValue else { throw .notAFolder(root.path) }
        self.root = root.standardizedFileURL
        self.files = Self.listFiles(under: self.root)
        self.known = Set(files)
    }

    private static func listFiles(under root: URL) -> [String] {
        var result: [String] = []
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles]
        ) else { return [] }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in enumerator {
            // A file linked into the data folder counts as the file it points to.
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            let isFile = values?.isSymbolicLink == true
                ? (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                : values?.isRegularFile == true
            guard isFile else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(prefix) else { continue }
            result.append(String(path.dropFirst(prefix.count)))
        }
        return result.sorted()
    }

    public func contains(_ path: String) -> Bool { known.contains(path) }

    /// Whether any file lies under `folder/`.
    public func hasFolder(_ folder: String) -> Bool { files.contains { $0.hasPrefix(folder + "/") } }

    /// Files directly inside `folder` whose names end in `suffix`, sorted.
    public func files(in folder: String, suffix: String = ".json") -> [String] {
        let prefix = folder + "/"
        return files.filter { path in
            path.hasPrefix(prefix) && path.hasSuffix(suffix) && !path.dropFirst(prefix.count).contains("/")
        }
    }

    /// Reads and parses a file, claiming it. Syntax errors go to `log`.
    public func document(_ path: String, log: DiagnosticLog) -> JSONDocument? {
        claim(path)
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            log.report(Diagnostic(.error, file: path, message: "cannot read the file"))
            return nil
        }
        return JSONDocument.parse([UInt8](data), file: path, log: log)
    }

    /// Marks a file as read without parsing it here.
    public func claim(_ path: String) { lock.withLock { _ = claimed.insert(path) } }

    /// Files that no loader read: reported as warnings by the load stage.
    public var unclaimedFiles: [String] { lock.withLock { files.filter { !claimed.contains($0) } } }
}
