import NestEggSupport
import Foundation

/// One file written beside the site (`--json`, `--summary`, `--single-file`), committed with it:
/// its bytes go to a temporary file beside the destination first (``stage(_:at:)``), a rename
/// puts them in place (``commit()``), and until ``finish()`` the previous file is kept under a
/// second name so that ``rollBack()`` can put it back. A file whose content is already what would
/// be written is left alone, so it keeps its modification time.
///
/// The temporary names are `.<name>.nestegg-staged-<pid>` and `.<name>.nestegg-previous-<pid>`;
/// each is locked while its build runs, and ``recover(beside:)`` removes (or, for a previous file
/// whose destination is gone, restores) those that no running build owns.
public final class StagedFile {
    public let destination: URL
    let temporary: URL?
    private var previous: URL?
    private var committed = false
    private var ownership: [Ownership]

    init(destination: URL, temporary: URL?, ownership: Ownership?) {
        self.destination = destination
        self.temporary = temporary
        self.ownership = ownership.map { [$0] } ?? []
    }

    static func temporaryName(_ destination: URL, _ role: String) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).nestegg-\(role)-\(getpid())")
    }

    public static func stage(_ text: String, at destination: URL) throws(SiteWriter.WriteError) -> StagedFile {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: destination.path) == data {
            return StagedFile(destination: destination, temporary: nil, ownership: nil)
        }
        let temporary = temporaryName(destination, "staged")
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: temporary)
            guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
                throw SiteWriter.WriteError(path: destination.path, reason: "cannot create a file in \(destination.deletingLastPathComponent().path)")
            }
        } catch let error as SiteWriter.WriteError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw SiteWriter.WriteError(path: destination.path, reason: SiteWriter.reason(error))
        }
        return StagedFile(destination: destination, temporary: temporary, ownership: Ownership(of: temporary.path))
    }

    /// Moves the staged bytes into place, keeping the previous file aside. - Returns: whether the file changed.
    @discardableResult
    public func commit() throws(SiteWriter.WriteError) -> Bool {
        guard let temporary else { return false }
        var status = stat()
        if lstat(destination.path, &status) == 0 {
            let kept = Self.temporaryName(destination, "previous")
            unlink(kept.path)
            guard link(destination.path, kept.path) == 0 else {
                throw SiteWriter.WriteError(path: destination.path, reason: "cannot keep the previous file aside: \(systemReason(errno))")
            }
            previous = kept
            if let lock = Ownership(of: kept.path) { ownership.append(lock) }
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = systemReason(errno)
            if let previous { unlink(previous.path) }
            previous = nil
            throw SiteWriter.WriteError(path: destination.path, reason: reason)
        }
        committed = true
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
            return rename(previous.path, destination.path) == 0
        }
        return unlink(destination.path) == 0
    }

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
        ownership.forEach { $0.release() }
    }

    /// Cleans up the temporary files that a killed build left beside `destination`: only theirs, by
    /// name (``Ownership/leftover(_:of:)``), a file of yours that merely shares the prefix left alone.
    public static func recover(beside destination: URL) {
        let staged = ".\(destination.lastPathComponent).nestegg-staged-", previous = ".\(destination.lastPathComponent).nestegg-previous-"
        Ownership.removeAbandoned(in: destination.deletingLastPathComponent(), where: { Ownership.leftover($0, of: [staged, previous]) != nil },
                                  restores: { $0.hasPrefix(previous) ? destination : nil })
    }
}
