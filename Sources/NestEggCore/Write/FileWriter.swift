import Foundation

/// One file written atomically: its bytes go to a temporary file beside it first (``stage(_:at:)``),
/// and a rename puts them in place (``commit()``). A file whose content is already what would be
/// written is left alone, so it keeps its modification time.
public struct StagedFile {
    public let destination: URL
    let temporary: URL?

    public static func stage(_ text: String, at destination: URL) throws(SiteWriter.WriteError) -> StagedFile {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: destination.path) == data {
            return StagedFile(destination: destination, temporary: nil)
        }
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).nestegg-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw SiteWriter.WriteError(path: destination.path, reason: SiteWriter.reason(error))
        }
        return StagedFile(destination: destination, temporary: temporary)
    }

    /// Moves the staged bytes into place. - Returns: whether the file changed.
    @discardableResult
    public func commit() throws(SiteWriter.WriteError) -> Bool {
        guard let temporary else { return false }
        if rename(temporary.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw SiteWriter.WriteError(path: destination.path, reason: reason)
        }
        return true
    }

    public func discard() {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }
}
