import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

/// The files a build writes beside the site (`--single-file`, `--summary`, `--json`), checked
/// before anything is read or written, as `--output` is: none may land in the data or templates
/// folder (it would overwrite input), in the output folder (the swap would throw it away) or its
/// folder of state (nestegg's own, ``NestEggWrite/StateFolder``), on
/// another's path, or in place of something that is not a regular file (a folder, a device, a
/// FIFO, a socket, or a symbolic link, whose target would be replaced).
struct Destinations {
    struct Entry {
        let option: String
        let url: URL
    }

    let entries: [Entry]

    init(_ options: BuildOptions) {
        entries = [("--single-file", options.singleFile), ("--summary", options.summary), ("--json", options.json),
                   (Self.cacheOption, options.cache)]
            .compactMap { option, url in url.map { Entry(option: option, url: $0) } }
    }

    /// The option that names the build cache: a file beside the site, but no output of the build.
    static let cacheOption = "--cache"

    var urls: [URL] { entries.map(\.url) }

    /// Every problem at once: `nil` when there is none, else the error (exit 64 for paths that
    /// contradict the other options, 73 for a path that exists and cannot be replaced by a file).
    func check(data: URL, output: URL, templates: URL?, bundles: URL? = nil) -> BuildError? {
        var diagnostics: [Diagnostic] = []
        var exitCode = ExitStatus.usage
        let dataPath = Self.resolvedFolder(data), outputPath = Self.resolvedFolder(output), templatesPath = templates.map(Self.resolvedFolder)
        var seen: [String: String] = [:]
        for entry in entries {
            let path = Self.resolved(entry.url)
            var reasons: [String] = []
            if entry.url.path.isEmpty || entry.url.hasDirectoryPath { reasons.append("it names a folder, not a file") }
            if let other = seen[path] { reasons.append("\(other) writes the same file") }
            seen[path] = seen[path] ?? entry.option
            if Self.path(path, isWithin: dataPath) { reasons.append("it is inside the data folder \(data.path), and would overwrite input") }
            if let templatesPath, Self.path(path, isWithin: templatesPath) {
                reasons.append("it is inside the templates folder \(templates!.path)")
            }
            if Self.path(path, isWithin: outputPath) { reasons.append("it is inside the output folder \(output.path), which the build replaces whole") }
            // (The cache may be named at its own place there.)
            if Self.path(path, isWithin: Self.resolvedFolder(StateFolder.of(output))),
               !(entry.option == Self.cacheOption && entry.url.standardizedFileURL == StateFolder.cache(of: output)) {
                reasons.append("it is inside \(StateFolder.of(output).path), the folder nestegg keeps its state in beside the output")
            }
            if let bundles, Self.path(path, isWithin: Self.resolvedFolder(bundles)) {
                reasons.append("it is inside the bundles folder \(bundles.path), which the build replaces whole")
            }
            if let kind = Self.nonFileKind(entry.url.path) {
                reasons.append("it is \(kind); nestegg writes only regular files")
                exitCode = ExitStatus.cannotCreate
            }
            for reason in reasons {
                diagnostics.append(Diagnostic(.error, file: entry.url.path, message: "\(entry.option): refusing to write here: \(reason)"))
            }
        }
        guard !diagnostics.isEmpty else { return nil }
        return BuildError(step: .write, exitCode: exitCode, diagnostics: diagnostics)
    }

    /// Refuses input reached through a symbolic link (`links`: how each is named, and its path)
    /// that leads into what a run replaces (`replaced`: its folders and files, by option): the
    /// swap would delete it, or the write overwrite it; or to a folder that holds it, which the
    /// walk of the data would read (exit 73, as for an output that holds the data folder or lies
    /// inside it). `nil` when there is none.
    static func checkLinks(_ links: [InputLinks], replaced: [(option: String, url: URL, isFolder: Bool)]) -> BuildError? {
        let targets = replaced.map { ($0.option, $0.url, $0.isFolder ? resolvedFolder($0.url) : resolved($0.url)) }
        var diagnostics: [Diagnostic] = []
        for link in links.flatMap({ group in group.names.map { (shown: "\($0) in the \(group.what) folder", path: group.folder + "/" + $0) } }) {
            guard let real = realpath(link.path, nil) else { continue }
            let target = String(cString: real)
            free(real)
            for (option, url, path) in targets {
                if Self.path(target, isWithin: path) {
                    diagnostics.append(Diagnostic(.error, file: url.path, message:
                        "\(option): refusing to replace this: it holds \(target), which \(link.shown), a symbolic link, leads to: that input would be lost"))
                } else if Self.path(path, isWithin: target) {
                    diagnostics.append(Diagnostic(.error, file: url.path, message:
                        "\(option): refusing to replace this: it lies inside \(target), which \(link.shown), a symbolic link, leads to: it would be read as input"))
                }
            }
        }
        return diagnostics.isEmpty ? nil : BuildError(step: .write, exitCode: .cannotCreate, diagnostics: diagnostics)
    }

    /// The symbolic links among an input folder's entries: their paths in `folder`, the folder
    /// named as `what` (`data`, `templates`, `census`).
    struct InputLinks {
        let folder: String
        let what: String
        let names: [String]

        /// The data folder's links, as its walk followed them.
        init(data: DataFolder) { (folder, what, names) = (data.root.path, "data", data.links) }

        /// The links among the names in a folder read flat (not hidden; ending in `suffix`).
        init(flat folder: URL, what: String, suffix: String = "") {
            (self.folder, self.what) = (folder.path, what)
            names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().filter { name in
                var status = stat()
                return !name.hasPrefix(".") && name.hasSuffix(suffix) && lstat(folder.path + "/" + name, &status) == 0
                    && status.st_mode & S_IFMT == S_IFLNK
            }
        }
    }

    /// What stands at `path` if it is not a regular file (`nil`: a regular file, or nothing).
    static func nonFileKind(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return nil }
        return FolderTree.kind(of: status.st_mode)
    }

    /// Whether `path` is `folder` or lies inside it (both absolute and resolved).
    static func path(_ path: String, isWithin folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// A folder's absolute path with every symbolic link resolved, itself included.
    static func resolvedFolder(_ url: URL) -> String {
        let absolute = url.standardizedFileURL.path
        guard let real = realpath(absolute, nil) else { return resolved(url) }
        defer { free(real) }
        return String(cString: real)
    }

    /// The absolute path of `url` with every symbolic link in its folders resolved (its last
    /// component is not followed: a link there is refused, not written through). Folders that do
    /// not exist yet are kept as written.
    static func resolved(_ url: URL) -> String {
        let absolute = url.standardizedFileURL.path
        var head = absolute
        var tail: [String] = []
        // The last component stays as it is; its folder is resolved as far as it exists.
        if let slash = head.lastIndex(of: "/"), head != "/" {
            tail.append(String(head[head.index(after: slash)...]))
            head = slash == head.startIndex ? "/" : String(head[..<slash])
        }
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                let base = String(cString: real)
                let rest = tail.reversed().joined(separator: "/")
                if rest.isEmpty { return base }
                return base == "/" ? "/" + rest : base + "/" + rest
            }
            guard let slash = head.lastIndex(of: "/"), head != "/" else { return absolute }
            tail.append(String(head[head.index(after: slash)...]))
            head = slash == head.startIndex ? "/" : String(head[..<slash])
        }
    }
}
