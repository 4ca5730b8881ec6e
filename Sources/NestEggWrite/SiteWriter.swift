import NestEggSupport
import Foundation
import Synchronization

/// The write stage. Files go into a staging folder beside the output folder; only when
/// every page is there does ``commit()`` swap it in, so a failed build leaves the previous
/// output whole. A file whose bytes did not change keeps its old copy and modification time,
/// and files that the new build did not write (stale pages) are gone after the swap.
///
/// With `keepsSpare` (a site that is built again and again), the swapped-out site is not removed
/// but kept beside the output as its **spare** (``StateFolder/spare(of:)``), and the next build stages into
/// it instead of a new folder: a file the spare shares with the live site (the same inode, linked
/// by the last build) and that the new build keeps stays where it is, and only the files that
/// differ are unlinked and written or linked again. A rebuild then costs system calls for what
/// changed in the last two builds, not a link and an unlink for every file of the site. The
/// spare is never written into: a file in it is unlinked before anything takes its name, since
/// it may be the live site's file too.
///
/// ``write(_:to:)`` may be called from several threads at once (the render stage's workers each
/// write the pages they render). Files are created one at a time (creating them is the kernel's
/// work, which a second thread did not speed up), plainly, without `fsync`: the swap, not the
/// disk cache, is what keeps the previous output whole.
public final class SiteWriter: Sendable {
    public let output: URL
    let staging: URL
    /// What the workers share.
    private struct State {
        var written: [String] = []
        /// The same paths, to refuse a second write to one (it could reach the old output through a link).
        var writtenPaths: Set<String> = []
        var changed = 0
        /// Folders of the staging folder known to exist.
        var folders: Set<String> = [""]
        /// The stamps of the files this writer created, taken from their open descriptor as each
        /// was written (``stamps()`` asks the disk only for the others: kept, copied or adopted).
        var stamps: [String: FileStamp] = [:]
        /// The digests of the files ``hashing`` asks for, worked out from the bytes written.
        var hashes: [String: String] = [:]
        /// When the staging folder is the spare: its files that this build has not yet kept,
        /// written over or removed, by path, each with its file's identity.
        var spare: [String: FileIdentity] = [:]
    }
    private let state = Mutex(State())
    /// Held while a file is created: one at a time. A lock whose waiter sleeps (a plain
    /// pthread mutex): `Mutex` is a priority-inheritance futex on Linux, whose waiter spins in the
    /// kernel while the holder runs, so a second worker burnt a core for as long as the first
    /// took to create its file (perf: 7% of a scale-1 build's samples).
    private let creating = NSLock()
    /// This build's lock on its staging folder.
    private let stagingOwnership: Ownership
    /// Whether the output folder held files of an earlier build when this writer opened: without
    /// them there is nothing to compare a new file with or keep, and no file is looked for there.
    private let outputHasFiles: Bool
    private let hashing: Hashing?
    /// Where the site swapped out goes, to be the next build's staging folder; `nil`: it is removed.
    private let spare: URL?
    /// Whether the staging folder is the spare of an earlier build (whose folders are listed here).
    private let reusesSpare: Bool
    private let spareFolders: Set<String>

    /// Which files the writer hashes as it writes them, and how: the statements manifest lists
    /// each file of its folder with its SHA-256, which comes from the bytes in memory rather than
    /// from reading every file back (a build writes tens of thousands; each read back is four
    /// more system calls).
    public struct Hashing: Sendable {
        /// Files whose path begins with this (`""`: every file).
        public let prefix: String
        /// The digest of a file's bytes (hexadecimal text, as the manifest writes it).
        public let hash: @Sendable (UnsafeRawBufferPointer) -> String

        public init(prefix: String, hash: @escaping @Sendable (UnsafeRawBufferPointer) -> String) {
            self.prefix = prefix
            self.hash = hash
        }
    }

    /// The digest (``Hashing``) of the file at `path`, if this writer wrote its bytes with
    /// ``write(_:to:)``; `nil` for any other file (kept, placed, adopted, or not hashed), which
    /// the caller reads.
    public func hash(of path: String) -> String? {
        state.withLock { $0.hashes[path] }
    }

    /// The size and modification time of each file written so far, for the build cache (a
    /// file keeps both through the swap).
    public func stamps() -> [String: FileStamp] {
        let (written, known) = state.withLock { ($0.written, $0.stamps) }
        var stamps: [String: FileStamp] = [:]
        stamps.reserveCapacity(written.count)
        for path in written { stamps[path] = known[path] ?? FileStamp(path: staging.path + "/" + path) }
        return stamps
    }

    public struct WriteError: Error, Sendable {
        public let path: String
        public let reason: String
        /// Whether it is the fault of a file being placed (``place(_:at:)``: missing, not a regular
        /// file, unreadable), named by ``path``, not of the output.
        public let ofSource: Bool

        public init(path: String, reason: String, ofSource: Bool = false) {
            self.path = path
            self.reason = reason
            self.ofSource = ofSource
        }
    }

    public struct Summary: Sendable {
        /// Files in the new output.
        public let files: Int
        /// Files that are new or whose content changed.
        public let changed: Int
        /// Files of the old output that are no longer produced.
        public let removed: Int

        public init(files: Int, changed: Int, removed: Int) {
            self.files = files
            self.changed = changed
            self.removed = removed
        }
    }

    /// The file that marks a folder as a site nestegg wrote, and so may replace.
    public static let marker = ".nestegg-output"
    /// A build cache's name inside an output folder: bookkeeping, never a page of the site
    /// (a build keeps its cache beside the folder; one found inside is not counted as a page).
    public static let cacheFileName = ".nestegg-cache"

    /// Opens a staging folder beside `output`. Refuses (rather than replace) an output folder that
    /// holds one of the `protecting` folders (the data), the current, home or root folder, or an
    /// existing folder that nestegg did not write — the swap replaces the output folder whole.
    /// With `keepsSpare`, the site swapped out is kept in the folder of state beside the output for
    /// the next build to stage into (``StateFolder/spare(of:)``), and a spare found there is this
    /// build's staging folder.
    public init(output: URL, protecting: [URL] = [], hashing: Hashing? = nil, keepsSpare: Bool = false) throws(WriteError) {
        let output = output.standardizedFileURL
        self.output = output
        self.hashing = hashing
        let parent = output.deletingLastPathComponent()
        try Self.checkOutputIsOurs(output, protecting: protecting)
        Self.recover(output)
        outputHasFiles = (FolderEntries.read(output.path) ?? []).contains { $0.name != "." && $0.name != ".." && $0.name != Self.marker }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: parent.path, reason: "cannot create a folder here (\(Self.reason(error)))")
        }
        let spare = keepsSpare ? StateFolder.spare(of: output) : nil
        self.spare = spare
        if let spare, let problem = Self.foreignSpare(spare) { throw WriteError(path: spare.path, reason: problem) }
        // Made (or, the spare, taken) and locked as one step for other builds, the lock held until
        // the staging folder is swapped in or discarded: while it is, no other build takes the
        // folder for a leftover.
        if let spare, outputHasFiles, let (staging, ownership, survey) = Self.take(spare, in: parent, output: output) {
            self.staging = staging
            stagingOwnership = ownership
            reusesSpare = true
            spareFolders = Set(survey.folders)
            state.withLock { $0.spare = survey.files }
        } else {
            // A spare beside an output without files would only be written over file by file.
            if let spare, !outputHasFiles, let (taken, ownership, _) = Self.take(spare, in: parent, output: output) {
                Ownership.removeTree(taken.path)
                ownership.release()
            }
            switch Ownership.create(in: parent, named: { Self.stagingPrefix(of: output) + $0 }, by: { mkdir($0, 0o777) == 0 ? nil : errno }) {
            case .failure(let error):
                throw WriteError(path: parent.path, reason: "cannot create a staging folder here: \(error)")
            case .success(let (staging, ownership)):
                self.staging = staging
                stagingOwnership = ownership
            }
            reusesSpare = false
            spareFolders = []
        }
        clear(Self.marker)
        var text = "This folder is a site written by nestegg build; the next build replaces it whole.\n"
        if let failure = text.withUTF8({ Self.writeFile(atPath: staging.path + "/" + Self.marker, $0) }) {
            discard()
            throw WriteError(path: parent.path, reason: "cannot write in a staging folder here: \(failure)")
        }
    }

    static func stagingPrefix(of output: URL) -> String { ".nestegg-staging-\(output.lastPathComponent)-" }

    /// Whether `folder` is a folder (not a link to one) holding the marker every site nestegg writes holds.
    public static func isSite(_ folder: URL) -> Bool {
        var status = stat()
        return lstat(folder.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            && lstat(folder.path + "/" + marker, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Why the folder at the spare's place is not nestegg's to take (it is a folder without the
    /// marker every site nestegg writes holds); `nil` when it is, or nothing, or no folder (a link
    /// or a file there is removed, never followed: ``take(_:in:output:)``).
    static func foreignSpare(_ spare: URL) -> String? {
        var status = stat()
        guard lstat(spare.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, !isSite(spare) else { return nil }
        return "refusing to take this folder for the last site, which nestegg keeps here: it has no \(marker), so nestegg did not write it; move it"
    }

    /// Which file a name is: its device and inode numbers.
    struct FileIdentity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64

        init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        init(_ status: stat) {
            self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
    }

    /// Takes the spare at `spare` as a staging folder: renamed to a staging name and locked as one
    /// step (``Ownership/create(in:named:by:)``), so that a build killed from here on leaves a
    /// leftover the next one removes, and two builds never take one spare. Its files are listed
    /// with their identities and its folders by path; anything else in it (a link, a FIFO) is
    /// removed. - Returns: `nil` when there is no spare, or it is not a folder nestegg can read
    /// whole (it is then removed).
    private static func take(_ spare: URL, in parent: URL, output: URL)
        -> (staging: URL, ownership: Ownership, survey: (files: [String: FileIdentity], folders: [String]))? {
        var status = stat()
        guard lstat(spare.path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFDIR,
              case .success(let (staging, ownership)) = Ownership.create(in: parent, named: { stagingPrefix(of: output) + $0 },
                                                                          by: { rename(spare.path, $0) == 0 ? nil : errno }) else {
            // Not a folder (a link: never followed), or taken by another build meanwhile.
            if status.st_mode & S_IFMT != S_IFDIR { Ownership.removeTree(spare.path) }
            return nil
        }
        guard lstat(staging.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, let survey = survey(staging.path, device: UInt64(status.st_dev)) else {
            Ownership.removeTree(staging.path)
            ownership.release()
            return nil
        }
        return (staging, ownership, survey)
    }

    /// The regular files under `root` with their identities, and its folders, by path relative to
    /// it; any other entry is removed. - Returns: `nil` if a folder cannot be read, or written (a
    /// site whose permissions were taken away: its files could not be unlinked one by one), or a
    /// name is not text.
    private static func survey(_ root: String, device: UInt64) -> (files: [String: FileIdentity], folders: [String])? {
        var files: [String: FileIdentity] = [:]
        var folders: [String] = []
        let whole = walk(root, entering: { access($0, R_OK | W_OK | X_OK) == 0 }) { entry in
            switch entry.type {
            case UInt8(DT_DIR): folders.append(entry.relative)
            case UInt8(DT_REG): files[entry.relative] = FileIdentity(device: device, inode: entry.inode)
            default: return unlink(entry.path) == 0
            }
            return true
        }
        return whole ? (files, folders) : nil
    }

    /// An entry of a tree ``walk(_:entering:_:)`` visits.
    struct TreeEntry {
        /// Its path, and its path relative to the tree's root.
        let path: String
        let relative: String
        /// `DT_DIR`, `DT_REG`, or another type (`0` for one `lstat` had to tell).
        let type: UInt8
        let inode: UInt64
    }

    /// Visits every entry under `root` with `readdir` (whose entries say their type: asking for each
    /// file's status cost more than the rest of a small rebuild; `lstat` only where the file system
    /// does not say), a folder before what it holds, never through a link. `entering` is asked of
    /// each folder before it is read; `visit` returns whether to go on. - Returns: whether every
    /// folder was entered and read, every name was text, and `visit` never stopped.
    static func walk(_ root: String, entering: (String) -> Bool = { _ in true }, _ visit: (TreeEntry) -> Bool) -> Bool {
        func walk(_ folder: String, relative: String) -> Bool {
            guard entering(folder), let entries = FolderEntries.read(folder) else { return false }
            var whole = true
            for entry in entries where entry.name != "." && entry.name != ".." {
                whole = whole && entry.isText
                let path = folder + "/" + entry.name, child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                var (type, inode) = (entry.type, entry.inode)
                if type == UInt8(DT_UNKNOWN) {
                    var status = stat()
                    guard lstat(path, &status) == 0 else {
                        whole = false
                        continue
                    }
                    type = status.st_mode & S_IFMT == S_IFDIR ? UInt8(DT_DIR) : status.st_mode & S_IFMT == S_IFREG ? UInt8(DT_REG) : 0
                    inode = UInt64(status.st_ino)
                }
                guard visit(TreeEntry(path: path, relative: child, type: type, inode: inode)) else { return false }
                if type == UInt8(DT_DIR) { whole = walk(path, relative: child) && whole }
            }
            return whole
        }
        return walk(root, relative: "")
    }

    /// Makes room at `path` in a staging folder that is the spare: the spare's file there (the
    /// site before the last, or the live site's own file, linked) is unlinked, never written
    /// into; a folder of the spare there that this build has not made its own is removed, with
    /// what it held. Nothing to do in a new staging folder, nor for a name this build itself
    /// wrote or made a folder of (two of its own at one name are the conflict the write reports).
    private func clear(_ path: String) {
        guard reusesSpare else { return }
        let full = staging.path + "/" + path
        let (file, folder) = state.withLock { state in
            let folder = spareFolders.contains(path) && !state.folders.contains(path)
            // What the folder held goes with it, and is no longer the spare's to keep.
            if folder { state.spare = state.spare.filter { !$0.key.hasPrefix(path + "/") } }
            return (state.spare.removeValue(forKey: path) != nil, folder)
        }
        if file { unlink(full) } else if folder { Ownership.removeTree(full) }
    }

    /// Whether the spare's file at `path` is the live site's file `live` (linked there by the last
    /// build), which this build keeps: it then stays as it is, with no system call.
    private func spareHolds(_ path: String, _ live: FileIdentity) -> Bool {
        guard reusesSpare else { return false }
        return state.withLock { state in
            guard state.spare[path] == live else { return false }
            state.spare[path] = nil
            return true
        }
    }

    /// Removes what the spare held that this build did not write: its files not written, then its
    /// folders left empty (the deepest first; a folder that still holds files stays).
    private func sweepSpare() {
        guard reusesSpare else { return }
        let (left, folders) = state.withLock { state in
            defer { state.spare = [:] }
            return (Array(state.spare.keys), state.folders)
        }
        for path in left { unlink(staging.path + "/" + path) }
        for folder in spareFolders.sorted(by: { $0.utf8.count > $1.utf8.count }) where !folders.contains(folder) {
            rmdir(staging.path + "/" + folder)
        }
    }
    static func retiredPrefix(of output: URL) -> String { ".nestegg-old-\(output.lastPathComponent)-" }

    /// Refuses an output folder that the swap must not replace.
    public static func checkOutputIsOurs(_ output: URL, protecting: [URL]) throws(WriteError) {
        let path = output.resolvingSymlinksInPath().path
        let refuse = { (why: String) in WriteError(path: output.path, reason: "refusing to replace this folder: \(why)") }
        let special = ["/", FileManager.default.homeDirectoryForCurrentUser.resolvingSymlinksInPath().path,
                       URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path]
        if special.contains(path) { throw refuse("it is the root, home or current folder") }
        for folder in protecting {
            let protected = folder.standardizedFileURL.resolvingSymlinksInPath().path
            if protected == path || protected.hasPrefix(path + "/") { throw refuse("it holds the input folder \(folder.path)") }
            if path.hasPrefix(protected + "/") { throw refuse("it is inside the input folder \(folder.path)") }
        }
        var status = stat()
        guard lstat(output.path, &status) == 0 else {
            if errno == ENOENT { return }
            throw WriteError(path: output.path, reason: systemReason(errno))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw WriteError(path: output.path, reason: status.st_mode & S_IFMT == S_IFLNK
                ? "is a symbolic link; give the folder it points to as --output" : "exists and is not a folder")
        }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: output.path)
        } catch {
            throw WriteError(path: output.path, reason: "cannot read the folder (\(reason(error)))")
        }
        if !contents.isEmpty && !contents.contains(Self.marker) {
            throw refuse("it is not empty and nestegg did not write it (it has no \(Self.marker)); remove it or choose another --output")
        }
    }

    /// Cleans up after a build of `output` that was killed: a missing output folder is restored
    /// from its retired copy (a swap interrupted between its two renames), and staging and
    /// retired folders that no running build owns are removed. Run before anything else looks
    /// at the output (the "up to date" check among them).
    /// Only this output's leftovers, by name (``Ownership/leftover(_:of:)``), are touched.
    public static func recover(_ output: URL) {
        let output = output.standardizedFileURL
        BesideList.recover(output)
        let staging = stagingPrefix(of: output), retired = retiredPrefix(of: output)
        Ownership.removeAbandoned(in: output.deletingLastPathComponent(), where: { Ownership.leftover($0, of: [staging, retired]) != nil },
                                  restores: { $0.hasPrefix(retired) ? output : nil })
    }

    /// Writes one file into the staging folder. When the output already has the same bytes at
    /// `path`, the old file is hard-linked instead, keeping its modification time (and the old
    /// output intact until the swap).
    public func write(_ text: String, to path: String) throws(WriteError) {
        try claim(path)
        var text = text
        try ensureFolder(of: path)
        let old = output.path + "/" + path, new = staging.path + "/" + path
        let live = outputHasFiles ? text.withUTF8 { bytes in Self.identity(ofFileAt: old, holding: bytes) } : nil
        let unchanged = live != nil
        var stamp: FileStamp?
        let failure: String? = creating.withLock {
            if let live, spareHolds(path, live) { return nil }
            clear(path)
            if unchanged && keep(path) { return nil }
            let failure = text.withUTF8 { bytes in Self.writeFile(atPath: new, bytes, stamp: &stamp) }
            // Where the disk cannot link, the copy still keeps the old modification time.
            if failure == nil && unchanged { Self.copyModificationTime(from: old, to: new) }
            return failure
        }
        if let failure { throw WriteError(path: path, reason: failure) }
        let hash = hashing.flatMap { hashing in
            path.hasPrefix(hashing.prefix) ? text.withUTF8 { hashing.hash(UnsafeRawBufferPointer($0)) } : nil
        }
        // (A rewritten unchanged file takes the old one's time after its stamp was taken.)
        count(path, changed: !unchanged, stamp: unchanged ? nil : stamp, hash: hash)
    }

    /// Takes `path` for this build: a path inside the site, not written yet.
    private func claim(_ path: String) throws(WriteError) {
        // In bytes, as the file system reads it: by Characters, `/` followed by a combining mark
        // is no `/`, and `../\u{301}x` passed as one harmless-looking component.
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        guard !path.isEmpty, path.utf8.first != slash,
              !path.utf8.split(separator: slash, omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0.elementsEqual([dot, dot]) }) else {
            throw WriteError(path: path, reason: "not a path inside the site")
        }
        guard state.withLock({ $0.writtenPaths.insert(path).inserted }) else {
            throw WriteError(path: path, reason: "written twice in one build (two pages with one path)")
        }
    }

    /// Counts a file as written, and as changed when it is new or its bytes are not the old ones.
    private func count(_ path: String, changed: Bool, stamp: FileStamp? = nil, hash: String? = nil) {
        state.withLock { state in
            state.written.append(path)
            if let stamp { state.stamps[path] = stamp }
            if let hash { state.hashes[path] = hash }
            // The build cache is bookkeeping: it is not counted as a changed page.
            if changed && path != Self.cacheFileName { state.changed += 1 }
        }
    }

    /// Places the file at `source` (another folder nestegg wrote, such as a part of a sharded
    /// build) at `path`, as ``write(_:to:)`` would place its bytes, without reading it into memory
    /// unless the old output has a file of its size: when the old output holds the same bytes, its
    /// file is kept; otherwise `source` is hard-linked (nestegg never writes into a file it wrote,
    /// only new files, so the two names cannot drift apart), or copied where the disk cannot link.
    /// `copying`: never linked to `source` (nor kept from the old output): the bytes are the staging
    /// folder's own, which no writer of `source` can change after they are checked.
    public func place(_ source: String, at path: String, copying: Bool = false) throws(WriteError) {
        var status = stat()
        guard lstat(source, &status) == 0 else { throw WriteError(path: source, reason: systemReason(errno), ofSource: true) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw WriteError(path: source, reason: "not a regular file", ofSource: true) }
        try claim(path)
        try ensureFolder(of: path)
        let old = output.path + "/" + path, new = staging.path + "/" + path
        var oldStatus = stat()
        let sameSize = lstat(old, &oldStatus) == 0 && oldStatus.st_mode & S_IFMT == S_IFREG && oldStatus.st_size == status.st_size
        // The same file (a merge again from the same parts) needs no reading.
        let unchanged = !copying && sameSize && ((oldStatus.st_dev == status.st_dev && oldStatus.st_ino == status.st_ino) || Self.sameBytes(source, old))
        let failure: WriteError? = creating.withLock {
            if unchanged && spareHolds(path, FileIdentity(oldStatus)) { return nil }
            clear(path)
            if unchanged && keep(path) { return nil }
            if !unchanged && !copying && link(source, new) == 0 {
                // What was linked is the file looked at (not a link put in its place meanwhile);
                // if not, or on a disk whose inode numbers do not hold, it is copied instead.
                var linked = stat()
                if lstat(new, &linked) == 0, linked.st_mode & S_IFMT == S_IFREG, linked.st_dev == status.st_dev, linked.st_ino == status.st_ino { return nil }
                unlink(new)
            }
            let from = unchanged ? old : source
            guard let failure = Self.copyRegularFile(from, to: new) else {
                if unchanged { Self.copyModificationTime(from: old, to: new) }
                return nil
            }
            // The source that cannot be read (gone since it was looked at, say) is the source's fault.
            return failure.reading && !unchanged ? WriteError(path: source, reason: failure.reason, ofSource: true)
                                                 : WriteError(path: path, reason: failure.reason)
        }
        if let failure { throw failure }
        count(path, changed: !unchanged)
    }

    /// Copies the regular file at `source` (never through a link: `O_NOFOLLOW`) to a new file at
    /// `destination`. - Returns: why it failed, and whether in reading `source`; or `nil`.
    static func copyRegularFile(_ source: String, to destination: String) -> (reason: String, reading: Bool)? {
        let descriptor = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return ("cannot read \(source): \(systemReason(errno))", true) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return ("\(source) is not a regular file", true) }
        guard let data = try? handle.readToEnd() ?? Data() else { return ("cannot read \(source)", true) }
        return data.withUnsafeBytes { writeFile(atPath: destination, $0.bindMemory(to: UInt8.self)) }.map { ($0, false) }
    }

    /// Whether the file at `old` holds the bytes of the file at `source` (``file(atPath:holds:)``).
    static func sameBytes(_ source: String, _ old: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: source) else { return false }
        return data.withUnsafeBytes { file(atPath: old, holds: $0.bindMemory(to: UInt8.self)) }
    }

    static func copyModificationTime(from source: String, to destination: String) {
        var status = stat()
        guard stat(source, &status) == 0 else { return }
        var times = [status.st_atim, status.st_mtim]
        _ = utimensat(AT_FDCWD, destination, &times, 0)
    }

    /// Keeps the old output's files at `paths` as they are (hard-linked into the staging folder,
    /// or copied), when each is still the regular file the last build wrote: the size and
    /// modification time `expected` gives. - Returns: whether it kept them all; if not, it kept
    /// none, and they are to be written.
    public func reuse(_ paths: [String], expected: [String: FileStamp]) -> Bool {
        var stamps: [FileStamp] = []
        var identities: [FileIdentity] = []
        stamps.reserveCapacity(paths.count)
        identities.reserveCapacity(paths.count)
        for path in paths {
            var status = stat()
            guard let stamp = expected[path], lstat(output.path + "/" + path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  FileStamp(status) == stamp else { return false }
            stamps.append(stamp)
            identities.append(FileIdentity(status))
        }
        let claimed = state.withLock { state -> Bool in
            guard paths.allSatisfy({ !state.writtenPaths.contains($0) }) else { return false }
            for path in paths { state.writtenPaths.insert(path) }
            return true
        }
        guard claimed else { return false }
        // A file linked is the one just looked at: its stamp is the one checked (a copy's is asked for later).
        var linked: [Bool] = []
        linked.reserveCapacity(paths.count)
        for (index, path) in paths.enumerated() {
            let kept: Bool = (try? ensureFolder(of: path)) != nil && creating.withLock {
                if spareHolds(path, identities[index]) {
                    linked.append(true)
                    return true
                }
                clear(path)
                if keep(path) {
                    linked.append(true)
                    return true
                }
                guard (try? FileManager.default.copyItem(atPath: output.path + "/" + path, toPath: staging.path + "/" + path)) != nil else { return false }
                Self.copyModificationTime(from: output.path + "/" + path, to: staging.path + "/" + path)
                linked.append(false)
                return true
            }
            if !kept {
                // Undo: the page is written instead.
                for done in paths[..<index] { unlink(staging.path + "/" + done) }
                state.withLock { state in for path in paths { state.writtenPaths.remove(path) } }
                return false
            }
        }
        state.withLock { state in
            state.written.append(contentsOf: paths)
            for (index, path) in paths.enumerated() where linked[index] { state.stamps[path] = stamps[index] }
        }
        return true
    }

    /// Where a file of the new output is staged, for a tool that writes it itself (`--pdf`).
    public func stagedURL(_ path: String) -> URL { staging.appendingPathComponent(path) }

    /// Where a tool writes a new file of the output itself (``stagedURL(_:)``), made room for
    /// first: a spare's file there may be the live site's, and a tool would write into it.
    public func stagedURL(forNew path: String) -> URL {
        clear(path)
        return stagedURL(path)
    }

    /// The files staged under `folder` (`""` or ending in `/`), relative to it, as the disk lists
    /// them: asked once every page is written (a manifest lists them), so the spare's files that
    /// this build did not write are removed first.
    /// (Not while pages are still being written: the sweep would take the spare's files from under them.)
    public func stagedFiles(under folder: String) -> [String] {
        sweepSpare()
        return Self.listFiles(under: stagedURL(folder))
    }

    /// Counts a file that a tool wrote at ``stagedURL(_:)`` as written (keeping the old copy
    /// when the bytes are the same).
    public func adopt(_ path: String) {
        let unchanged = (FileManager.default.contents(atPath: staging.path + "/" + path)).map { data in
            data.withUnsafeBytes { Self.file(atPath: output.path + "/" + path, holds: UnsafeBufferPointer(start: $0.bindMemory(to: UInt8.self).baseAddress, count: data.count)) }
        } ?? false
        if unchanged {
            try? FileManager.default.removeItem(atPath: staging.path + "/" + path)
            if !keep(path) { try? FileManager.default.copyItem(atPath: output.path + "/" + path, toPath: staging.path + "/" + path) }
        }
        state.withLock { state in
            state.written.append(path)
            if !unchanged { state.changed += 1 }
        }
    }

    /// Hard-links the old output's file at `path` into the staging folder. - Returns: whether it could.
    private func keep(_ path: String) -> Bool {
        link(output.path + "/" + path, staging.path + "/" + path) == 0
    }

    /// Creates the staging folder's subfolders for `path`, once each.
    private func ensureFolder(of path: String) throws(WriteError) {
        // Up to the last `/`, found in bytes: splitting into Characters and joining again was a
        // seventh of the time a rebuild spends keeping its files.
        let folder = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
        if state.withLock({ $0.folders.contains(folder) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: staging.path + "/" + folder, withIntermediateDirectories: true)
        } catch {
            // In a spare, a file of an earlier page may stand where this folder goes: unlinked (only
            // a file of the spare's, one a time, while no other file is created), then made again.
            let made: Bool = reusesSpare && creating.withLock {
                let parts = folder.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
                for end in parts.indices {
                    let prefix = parts[...end].joined(separator: "/")
                    var status = stat()
                    guard lstat(staging.path + "/" + prefix, &status) == 0 else { break }
                    if status.st_mode & S_IFMT == S_IFDIR { continue }
                    guard state.withLock({ $0.spare.removeValue(forKey: prefix) }) != nil else { return false }
                    unlink(staging.path + "/" + prefix)
                    break
                }
                return (try? FileManager.default.createDirectory(atPath: staging.path + "/" + folder, withIntermediateDirectories: true)) != nil
            }
            guard made else { throw WriteError(path: path, reason: Self.reason(error)) }
        }
        state.withLock { _ = $0.folders.insert(folder) }
    }

    /// Whether the file at `path` exists and holds exactly `bytes`. One descriptor answers all of
    /// it (open, its status, its bytes read in pieces and compared as they come, close): a rebuild
    /// asks this of every page it renders again.
    static func file(atPath path: String, holds bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        identity(ofFileAt: path, holding: bytes) != nil
    }

    /// Whether the file at `path` exists and holds exactly the bytes of `pieces`, one after another
    /// (a record file staged in pieces), compared as ``file(atPath:holds:)`` compares.
    static func file(atPath path: String, holds pieces: [Data]) -> Bool {
        identity(ofFileAt: path, count: pieces.reduce(0) { $0 + $1.count }) { next in pieces.allSatisfy { $0.withUnsafeBytes(next) } } != nil
    }

    /// Which file is at `path` (``FileIdentity``), when it exists and holds exactly `bytes`
    /// (``file(atPath:holds:)``); `nil` otherwise.
    static func identity(ofFileAt path: String, holding bytes: UnsafeBufferPointer<UInt8>) -> FileIdentity? {
        identity(ofFileAt: path, count: bytes.count) { next in next(UnsafeRawBufferPointer(bytes)) }
    }

    /// Which regular file is at `path`, when it holds `count` bytes that `compare` finds are the
    /// expected ones: `compare` is given `next`, which reads as many of the file's next bytes as the
    /// piece it is given and tells whether they are the same.
    private static func identity(ofFileAt path: String, count: Int,
                                 compare: ((UnsafeRawBufferPointer) -> Bool) -> Bool) -> FileIdentity? {
        // Not blocking: a FIFO in the file's place is not a regular file, and is not read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) == count else { return nil }
        guard count > 0 else { return FileIdentity(status) }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 20), alignment: 16)
        defer { scratch.deallocate() }
        let same = compare { piece in
            var offset = 0
            while offset < piece.count {
                let read = Glibc.read(descriptor, scratch.baseAddress!, min(scratch.count, piece.count - offset))
                if read < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard read > 0, memcmp(scratch.baseAddress!, piece.baseAddress! + offset, read) == 0 else { return false }
                offset += read
            }
            return true
        }
        return same ? FileIdentity(status) : nil
    }

    /// Writes `bytes` to a new file at `path` (never into an existing one: in the staging folder
    /// that would be a linked file of the old output), or with `appending`, at the end of the file
    /// at `path`, which this build made (never through a link). - Returns: why it failed (the
    /// system's reason), or `nil`.
    /// With `stamp`, the new file's size and modification time, from its descriptor once written.
    static func writeFile(atPath path: String, _ bytes: UnsafeBufferPointer<UInt8>, appending: Bool = false) -> String? {
        var unused: FileStamp?
        return writeFile(atPath: path, bytes, appending: appending, stamp: &unused, wantsStamp: false)
    }

    static func writeFile(atPath path: String, _ bytes: UnsafeBufferPointer<UInt8>, stamp: inout FileStamp?) -> String? {
        writeFile(atPath: path, bytes, appending: false, stamp: &stamp, wantsStamp: true)
    }

    private static func writeFile(atPath path: String, _ bytes: UnsafeBufferPointer<UInt8>, appending: Bool,
                                  stamp: inout FileStamp?, wantsStamp: Bool) -> String? {
        let descriptor = appending ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
                                   : open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            return errno == EEXIST && !appending ? "another file of this build has the same name (a disk that ignores case?)"
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
        if wantsStamp {
            var status = stat()
            if fstat(descriptor, &status) == 0 { stamp = FileStamp(status) }
        }
        guard close(descriptor) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Swaps the staging folder in as the output folder, in one atomic step where the file
    /// system allows it (`renameat2` with `RENAME_EXCHANGE`), else in two renames whose
    /// interruption ``recover(_:)`` repairs. The previous output is kept aside until
    /// ``Swap/finish()`` (or put back by ``Swap/rollBack()``), so that files committed with the
    /// site can still undo the whole.
    public func commit() throws(WriteError) -> Swap {
        sweepSpare()
        let (written, changed) = state.withLock { ($0.written, $0.changed) }
        func summary() -> Summary {
            let previous = Set(Self.listFiles(under: output)).subtracting([Self.marker, Self.cacheFileName])
            return Summary(files: written.count, changed: changed, removed: previous.subtracting(written).count)
        }
        var status = stat()
        if lstat(output.path, &status) != 0 {
            if rename(staging.path, output.path) == 0 {
                stagingOwnership.release()
                return Swap(output: output, previous: nil, exchanged: false, summary: Summary(files: written.count, changed: changed, removed: 0))
            }
            // Another run of this output put its site there since the check: swapped with it, as
            // with any site there (as if this run had come a moment later).
            let code = errno
            guard code == ENOTEMPTY || code == EEXIST, lstat(output.path, &status) == 0 else {
                throw WriteError(path: output.path, reason: systemReason(code))
            }
        }
        let summary = summary()
        // The old site is locked by this build while it is moved aside.
        let oldOwnership = Ownership(of: output.path)
        switch AtomicExchange.exchange(staging.path, output.path) {
        case .exchanged:
            stagingOwnership.release()
            return Swap(output: output, previous: staging, exchanged: true, summary: summary, ownership: oldOwnership, spare: spare)
        case .failed(let code):
            throw WriteError(path: output.path, reason: systemReason(code))
        case .unsupported:
            let retired = output.deletingLastPathComponent().appendingPathComponent(Self.retiredPrefix(of: output) + Ownership.uniqueToken())
            guard rename(output.path, retired.path) == 0 else { throw WriteError(path: output.path, reason: systemReason(errno)) }
            guard rename(staging.path, output.path) == 0 else {
                let code = errno
                _ = rename(retired.path, output.path)
                throw WriteError(path: output.path, reason: systemReason(code))
            }
            stagingOwnership.release()
            return Swap(output: output, previous: retired, exchanged: false, summary: summary, ownership: oldOwnership, spare: spare)
        }
    }

    /// A site swapped in, with the previous one kept aside until ``finish()``.
    public final class Swap: Sendable {
        public let output: URL
        /// Where the previous output is now (`nil`: there was none).
        let previous: URL?
        let exchanged: Bool
        public let summary: Summary
        private let ownership: Ownership?
        /// Where the previous output goes when the swap is finished; `nil`: it is removed.
        private let spare: URL?

        init(output: URL, previous: URL?, exchanged: Bool, summary: Summary, ownership: Ownership? = nil, spare: URL? = nil) {
            self.output = output
            self.previous = previous
            self.exchanged = exchanged
            self.summary = summary
            self.ownership = ownership
            self.spare = spare
        }

        /// ``finish()``, then the summary.
        public func finished() -> Summary {
            finish()
            return summary
        }

        /// Removes the previous output, or keeps it as the spare (renamed while still locked, into
        /// the folder of state, made if need be): the new one stays.
        public func finish() {
            let kept = previous.flatMap { previous in spare.map { spare in
                mkdir(spare.deletingLastPathComponent().path, 0o777)
                return rename(previous.path, spare.path) == 0
            } } ?? false
            if let previous, !kept { Ownership.removeTree(previous.path) }
            ownership?.release()
        }

        /// Puts the previous output back (removing the new one). - Returns: whether it could.
        @discardableResult
        public func rollBack() -> Bool {
            defer { ownership?.release() }
            guard let previous else { return Ownership.removeTree(output.path) }
            if exchanged, case .exchanged = AtomicExchange.exchange(previous.path, output.path) {
                Ownership.removeTree(previous.path)
                return true
            }
            // The new site goes aside under a staging name, locked, so that a build killed here
            // leaves a leftover the next one removes.
            let discarded = output.deletingLastPathComponent().appendingPathComponent(SiteWriter.stagingPrefix(of: output) + Ownership.uniqueToken())
            let lock = Ownership(of: output.path)
            defer { lock?.release() }
            guard rename(output.path, discarded.path) == 0 else { return false }
            guard rename(previous.path, output.path) == 0 else { _ = rename(discarded.path, output.path); return false }
            Ownership.removeTree(discarded.path)
            return true
        }
    }

    /// Removes the staging folder: the output folder stays as it was.
    public func discard() {
        Ownership.removeTree(staging.path)
        stagingOwnership.release()
    }

    /// The regular files under `root`, as paths relative to it (symbolic links are not followed).
    /// Read with `readdir`, whose entries say their type: the old site has tens of thousands of
    /// files, and asking for each one's resource values cost more than the rest of a small rebuild.
    package static func listFiles(under root: URL) -> [String] {
        var result: [String] = []
        // (What cannot be read is passed over: a listing of what is there.)
        _ = walk(root.standardizedFileURL.path) { entry in
            if entry.type == UInt8(DT_REG) { result.append(entry.relative) }
            return true
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
