import NestEggSupport
import NestEggWrite
import Foundation

/// What a build keeps beside the output — its folder of state (``NestEggWrite/StateFolder``) with
/// the cache, the accounts' summaries' folder and the spare site — is nestegg's own, proven before
/// it is touched: a path there that exists and is not nestegg's (a file without a cache's header,
/// a folder holding files nestegg does not write, a symbolic link, which would be written through)
/// is refused with what it is (exit 73), before anything is read or staged, so a refused build
/// leaves nothing behind. (The spare's own check
/// is ``NestEggWrite/SiteWriter``'s; the census's is ``Census/checkOutput()``; a part is an output
/// folder, checked as every output is.)
enum BesideOutput {
    /// The first line every cache of any version begins with (``BuildCache/format``).
    static let cacheHeader = "nestegg-cache "

    /// Every problem with the cache file `cache` and its summaries' folder, as diagnostics naming
    /// them (`option`: how the cache was named, `--cache` or the default place beside the output).
    static func problems(cache: URL, summaries: URL, option: String) -> [Diagnostic] {
        var reasons: [(String, String)] = []
        if let reason = cacheProblem(cache) { reasons.append((cache.path, "\(option): refusing to write the build cache here: \(reason)")) }
        if let reason = summariesProblem(summaries) {
            reasons.append((summaries.path, "refusing to keep the accounts' summaries here (beside the build cache): \(reason)"))
        }
        return reasons.map { Diagnostic(.error, file: $0.0, message: $0.1) }
    }

    /// Why nestegg may not keep its state in `output`'s folder of state (``NestEggWrite/StateFolder``);
    /// `nil` when nothing is there or it holds only what nestegg keeps there: the cache, the
    /// summaries' folder, the spare site, the cache's staged, previous and kept-aside copies, a
    /// file browser's `.DS_Store`. (What each holds is proven where it is used.)
    static func stateProblem(of output: URL) -> String? {
        let folder = StateFolder.of(output)
        var status = stat()
        guard lstat(folder.path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "it is a symbolic link, which nestegg never follows to write; remove the link"
        default: return "it is \(FolderTree.kind(of: status.st_mode)), not the folder nestegg keeps its state in"
        }
        guard let entries = FolderEntries.read(folder.path) else { return "the folder cannot be read" }
        let ours = [".", "..", ".DS_Store", StateFolder.cacheName, StateFolder.unitsName, StateFolder.spareName]
        let copies = "." + StateFolder.cacheName + ".nestegg-"
        if let entry = entries.first(where: { !ours.contains($0.name) && !$0.name.hasPrefix(copies) }) {
            return "it holds \(Text.singleLine(entry.name)), which nestegg did not write; nestegg keeps only its own files here: move it"
        }
        return nil
    }

    /// Moves what an earlier nestegg kept beside `output` under names of their own — the cache
    /// `.<output>.nestegg-cache`, the summaries `.<output>.nestegg-cache.units/`, the spare site
    /// `.<output>.nestegg-spare/` — into the folder of state, each only when it is proven
    /// nestegg's as it is where it is now (a cache's header, summaries' names, a site's marker);
    /// one whose place in the folder is taken already is stale, and removed. Anything not proven
    /// is left alone.
    static func adoptEarlierState(of output: URL) {
        let output = output.standardizedFileURL
        let parent = output.deletingLastPathComponent(), name = output.lastPathComponent
        let oldCache = parent.appendingPathComponent(".\(name).nestegg-cache")
        let earlier: [(old: URL, new: URL, ours: (URL) -> Bool)] = [
            (oldCache, StateFolder.cache(of: output), { cacheProblem($0) == nil }),
            (URL(fileURLWithPath: oldCache.path + ".units"), StateFolder.units(of: output), { summariesProblem($0) == nil }),
            (parent.appendingPathComponent(".\(name).nestegg-spare"), StateFolder.spare(of: output), { SiteWriter.isSite($0) }),
        ]
        for (old, new, ours) in earlier {
            var status = stat()
            guard lstat(old.path, &status) == 0, ours(old), stateProblem(of: output) == nil else { continue }
            mkdir(StateFolder.of(output).path, 0o777)
            if lstat(new.path, &status) == 0 || rename(old.path, new.path) != 0 { _ = Ownership.removeTree(old.path) }
        }
    }

    /// Why nestegg may not replace the file at `path` with a build cache; `nil` if nothing is there or it is a cache.
    static func cacheProblem(_ url: URL) -> String? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        if let kind = Destinations.nonFileKind(url.path) {
            return kind == "a symbolic link" ? "it is a symbolic link, which nestegg never writes through; remove the link or name another file"
                : "it is \(kind), not a build cache"
        }
        guard case .success(let head) = FileBytes.head(url.path, count: cacheHeader.utf8.count) else {
            return "it cannot be read to check that it is a build cache nestegg wrote"
        }
        guard head.starts(with: Array(cacheHeader.utf8)) else {
            return "it is a file that is not a build cache (it does not begin \"\(cacheHeader)…\"); nestegg replaces only its own: move it or name another file"
        }
        return nil
    }

    /// Why nestegg may not keep the accounts' summaries in `folder`; `nil` if nothing is there or
    /// it holds only what nestegg writes there (summaries, of this version's names or an earlier
    /// one's, and their staged and previous copies; a file browser's `.DS_Store` is let be).
    static func summariesProblem(_ folder: URL) -> String? {
        var status = stat()
        guard lstat(folder.path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "it is a symbolic link, which nestegg never follows to write; remove the link"
        default: return "it is \(Destinations.nonFileKind(folder.path) ?? "not a folder"), not the folder of summaries nestegg keeps"
        }
        guard let entries = FolderEntries.read(folder.path) else { return "the folder cannot be read" }
        for entry in entries where entry.name != "." && entry.name != ".." && entry.name != ".DS_Store" {
            guard isSummaryName(entry.name) else {
                return "it holds \(Text.singleLine(entry.name)), which nestegg did not write; nestegg keeps only its own files here: move it"
            }
            var status = stat()
            guard lstat(folder.path + "/" + entry.name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                return "\(entry.name) in it is not a regular file; nestegg writes only regular files here"
            }
        }
        return nil
    }

    /// A summary's name (`*.census`: ``Units/fileName(of:)`` names them by a SHA-256, earlier
    /// versions by the account's UID; ``Units/removeOthers(in:keeping:)`` removes any), or a staged
    /// or previous copy of one (``NestEggWrite/StagedFile``).
    static func isSummaryName(_ name: String) -> Bool {
        var name = Substring(name)
        if name.hasPrefix("."), let end = name.range(of: ".nestegg-") {
            name = name[name.index(after: name.startIndex)..<end.lowerBound]
        }
        let suffix = "." + Census.fileExtension
        return name.hasSuffix(suffix) && name.count > suffix.count
    }
}
