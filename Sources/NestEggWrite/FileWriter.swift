import NestEggSupport
import Foundation

/// One file written beside the site (`--json`, `--summary`, `--single-file`, the cache, an
/// account's summary), committed with it: its bytes go to a temporary file beside the destination
/// first (``stage(_:at:makingFolder:)``), a rename puts them in place (``commit()``), and until ``finish()`` the
/// previous file is kept under a second name so that ``rollBack()`` can put it back. A file whose content is already what would
/// be written is left alone, so it keeps its modification time.
///
/// The temporary names are `.<name>.nestegg-staged-<token>` and `.<name>.nestegg-previous-<token>`
/// (``Ownership/uniqueToken()``); each is made and locked as one step while its build runs, and
/// ``recover(beside:)`` removes (or, for a previous file whose destination is gone, restores)
/// those that no running build owns. A signal that stops nestegg before the commit removes the
/// staged bytes (``NestEggSupport/Termination``). The bytes are written by nestegg itself, never by
/// Foundation's atomic write, whose own temporary (`.dat.nosync…`) a killed build would leave.
public final class StagedFile {
    public let destination: URL
    let temporary: URL?
    private var previous: URL?
    private var committed = false
    private var ownership: [Ownership]
    /// The temporary's registration for removal on a stop, until it is committed or discarded.
    private var stop: Termination.Registration?

    init(destination: URL, temporary: URL?, ownership: Ownership?, stop: Termination.Registration?) {
        self.destination = destination
        self.temporary = temporary
        self.ownership = ownership.map { [$0] } ?? []
        self.stop = stop
    }

    /// A new empty file in `folder` under `name(token)`, locked (``NestEggSupport/Ownership/create(in:named:by:)``)
    /// and registered for removal on a stop as it is made (``NestEggSupport/Termination/removeOnStop(making:by:)``).
    static func makeOwned(in folder: URL, named name: (String) -> String)
        -> Result<(path: URL, ownership: Ownership, stop: Termination.Registration), Ownership.SystemError> {
        var stop: Termination.Registration?
        let made = Ownership.create(in: folder, named: name, by: { path in
            // (A name tried before was removed again: its registration goes with it.)
            stop?.end()
            stop = nil
            switch Termination.removeOnStop(making: path, by: { path in
                let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
                guard descriptor >= 0 else { return errno }
                close(descriptor)
                return nil
            }) {
            case .success(let registration):
                stop = registration
                return nil
            case .failure(let error):
                return error.code
            }
        })
        switch made {
        case .success(let (path, ownership)):
            return .success((path, ownership, stop!))
        case .failure(let error):
            stop?.end()
            return .failure(error)
        }
    }

    static func prefix(_ destination: URL, _ role: String) -> String {
        ".\(destination.lastPathComponent).nestegg-\(role)-"
    }

    /// `makingFolder: false`: the destination's folder is there already, and is not made again if it
    /// is gone (a stop removing it while the file is staged, ``NestEggSupport/Termination``).
    public static func stage(_ text: String, at destination: URL, makingFolder: Bool = true) throws(SiteWriter.WriteError) -> StagedFile {
        var text = text
        if text.withUTF8({ SiteWriter.file(atPath: destination.path, holds: $0) }) {
            return StagedFile(destination: destination, temporary: nil, ownership: nil, stop: nil)
        }
        return try staging(at: destination, makingFolder: makingFolder) { path in text.withUTF8 { SiteWriter.writeFile(atPath: path, $0, appending: true) } }
    }

    /// ``stage(_:at:makingFolder:)`` for bytes in pieces (a record file's, ``NestEggSupport/RecordFile/pieces(lines:format:)``),
    /// written one after another, never joined in memory.
    public static func stage(pieces: [Data], at destination: URL) throws(SiteWriter.WriteError) -> StagedFile {
        if SiteWriter.file(atPath: destination.path, holds: pieces) {
            return StagedFile(destination: destination, temporary: nil, ownership: nil, stop: nil)
        }
        return try staging(at: destination, makingFolder: true) { path in
            for piece in pieces {
                let failure = piece.withUnsafeBytes { SiteWriter.writeFile(atPath: path, $0.bindMemory(to: UInt8.self), appending: true) }
                if let failure { return failure }
            }
            return nil
        }
    }

    /// A new temporary beside `destination`, filled by `write` (given its path, it gives what went wrong, if anything).
    private static func staging(at destination: URL, makingFolder: Bool, write: (String) -> String?) throws(SiteWriter.WriteError) -> StagedFile {
        let folder = destination.deletingLastPathComponent()
        do {
            if makingFolder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        } catch {
            throw SiteWriter.WriteError(path: destination.path, reason: "cannot create its folder: \(SiteWriter.reason(error))")
        }
        let staged: StagedFile
        switch makeOwned(in: folder, named: { prefix(destination, "staged") + $0 }) {
        case .failure(let error):
            throw SiteWriter.WriteError(path: destination.path, reason: "cannot create a file in \(folder.path): \(error)")
        case .success(let (temporary, ownership, stop)):
            staged = StagedFile(destination: destination, temporary: temporary, ownership: ownership, stop: stop)
        }
        if let failure = write(staged.temporary!.path) {
            staged.discard()
            throw SiteWriter.WriteError(path: destination.path, reason: "cannot write a file in \(folder.path): \(failure)")
        }
        return staged
    }

    /// Where the staged bytes are to be read before the commit: the temporary file, or the
    /// destination when it already held them.
    public var stagedPath: String { (temporary ?? destination).path }

    /// Moves the staged bytes into place, keeping the previous file aside. - Returns: whether the file changed.
    @discardableResult
    public func commit() throws(SiteWriter.WriteError) -> Bool {
        guard let temporary else { return false }
        var status = stat()
        if lstat(destination.path, &status) == 0 {
            let made = Ownership.create(in: destination.deletingLastPathComponent(), named: { Self.prefix(destination, "previous") + $0 },
                                        by: { link(destination.path, $0) == 0 ? nil : errno })
            switch made {
            case .failure(let error):
                throw SiteWriter.WriteError(path: destination.path, reason: "cannot keep the previous file aside: \(error)")
            case .success(let (kept, lock)):
                previous = kept
                ownership.append(lock)
            }
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = systemReason(errno)
            if let previous { unlink(previous.path) }
            previous = nil
            throw SiteWriter.WriteError(path: destination.path, reason: reason)
        }
        committed = true
        stop?.end()
        return true
    }

    /// After a failure elsewhere: puts the previous file back (or removes a file that did not
    /// exist before) and removes the staged bytes. - Returns: whether it could.
    @discardableResult
    public func rollBack() -> Bool {
        defer { discard() }
        guard committed else { return true }
        committed = false
        if let previous {
            guard rename(previous.path, destination.path) == 0 else {
                // The previous file is the only copy left: it goes under a name no recovery takes
                // (``recover(beside:)`` removes a previous file whose destination is there). Where
                // that rename fails too, it stays under its own name, which the next build's
                // recovery takes for a leftover; either way the build's error names it (``keptAside``).
                let kept = destination.deletingLastPathComponent()
                    .appendingPathComponent(Self.prefix(destination, "kept") + previous.lastPathComponent.dropFirst(Self.prefix(destination, "previous").count))
                keptAside = rename(previous.path, kept.path) == 0 ? kept : previous
                self.previous = nil
                return false
            }
            return true
        }
        return unlink(destination.path) == 0
    }

    /// Where the previous file is, when ``rollBack()`` could not put it back: the build's error
    /// names it. Under `.<name>.nestegg-kept-<token>` nestegg never removes it.
    public private(set) var keptAside: URL?

    /// The commit stands: the previous file is removed.
    public func finish() {
        if let previous { unlink(previous.path) }
        previous = nil
        ownership.forEach { $0.release() }
    }

    /// Removes the staged bytes (the destination stays as it is).
    public func discard() {
        if let temporary, !committed { unlink(temporary.path) }
        if let previous, !committed { unlink(previous.path) }
        stop?.end()
        ownership.forEach { $0.release() }
    }

    /// Cleans up the temporary files that a killed build left beside `destination`: only theirs, by
    /// name (``Ownership/leftover(_:of:)``), a file of yours that merely shares the prefix left alone.
    public static func recover(beside destination: URL) {
        let staged = prefix(destination, "staged"), previous = prefix(destination, "previous")
        Ownership.removeAbandoned(in: destination.deletingLastPathComponent(), where: { Ownership.leftover($0, of: [staged, previous]) != nil },
                                  restores: { $0.hasPrefix(previous) ? destination : nil })
    }
}

/// The files a build stages beside its output (``StagedFile``: `--json`, `--summary`,
/// `--single-file`, the cache, the summaries), listed in `.nestegg-beside-<output>-<token>` beside the output folder, made
/// and locked as the build's staging folder is, and removed when the build ends. A build killed
/// before then leaves the list, and the next build of that output — with or without those options
/// — cleans up each listed file's temporaries through it (``recover(_:)``, from
/// ``SiteWriter/recover(_:)``), then removes the list. A signal that stops nestegg before then
/// removes it (``NestEggSupport/Termination``), with the files staged for it.
public final class BesideList {
    let path: URL
    private let ownership: Ownership
    private let stop: Termination.Registration

    static func prefix(of output: URL) -> String { ".nestegg-beside-\(output.lastPathComponent)-" }

    /// Makes the list beside `output`.
    public init(for output: URL) throws(SiteWriter.WriteError) {
        let output = output.standardizedFileURL
        switch StagedFile.makeOwned(in: output.deletingLastPathComponent(), named: { Self.prefix(of: output) + $0 }) {
        case .failure(let error):
            throw SiteWriter.WriteError(path: output.deletingLastPathComponent().path, reason: "cannot create a file here: \(error)")
        case .success(let (path, ownership, stop)):
            (self.path, self.ownership, self.stop) = (path, ownership, stop)
        }
    }

    /// Lists `destination`, then stages `text` for it (``StagedFile/stage(_:at:makingFolder:)``). The list is
    /// only ever appended to: a build killed while it adds a line loses no line written before.
    public func stage(_ text: String, at destination: URL) throws(SiteWriter.WriteError) -> StagedFile {
        try list([destination])
        return try StagedFile.stage(text, at: destination)
    }

    /// ``stage(_:at:)`` for bytes in pieces (``StagedFile/stage(pieces:at:)``).
    public func stage(pieces: [Data], at destination: URL) throws(SiteWriter.WriteError) -> StagedFile {
        try list([destination])
        return try StagedFile.stage(pieces: pieces, at: destination)
    }

    /// Lists `destinations`, for files to be staged for them (``StagedFile/stage(_:at:makingFolder:)``, on
    /// several cores, say) once it returns.
    public func list(_ destinations: [URL]) throws(SiteWriter.WriteError) {
        var lines = destinations.map { Self.escape($0.standardizedFileURL.path) + "\n" }.joined()
        if let failure = lines.withUTF8({ SiteWriter.writeFile(atPath: path.path, $0, appending: true) }) {
            throw SiteWriter.WriteError(path: path.path, reason: failure)
        }
    }

    /// The files it lists are committed (in a section a stop waits for, ``NestEggSupport/Termination/holding(_:)``):
    /// a stop no longer removes the list, as it no longer has anything of the build's to remove.
    public func committed() {
        stop.end()
    }

    /// The build is over (its files committed, rolled back or discarded): the list goes.
    public func end() {
        unlink(path.path)
        stop.end()
        ownership.release()
    }

    /// Cleans up after the builds of `output` that were killed: the temporaries beside each file
    /// their lists name (``StagedFile/recover(beside:)``), then the lists.
    static func recover(_ output: URL) {
        let prefix = prefix(of: output)
        Ownership.removeAbandoned(in: output.deletingLastPathComponent(), where: { Ownership.leftover($0, of: [prefix]) != nil }, cleaning: { list in
            guard case .success(let bytes) = FileBytes.read(list.path) else { return }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("/") {
                StagedFile.recover(beside: URL(fileURLWithPath: unescape(line)))
            }
        })
    }

    /// A path on one line: `%` and a line break written as `%25` and `%0A`.
    static func escape(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func unescape(_ line: Substring) -> String {
        line.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%25", with: "%")
    }
}
