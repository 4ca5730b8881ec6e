import Foundation

/// Writes one file atomically (a temporary file beside it, then a rename), and not at all when
/// its content is already what would be written, so the file keeps its modification time.
public enum FileWriter {
    /// - Returns: whether the file changed.
    @discardableResult
    public static func write(_ text: String, to url: URL) throws(SiteWriter.WriteError) -> Bool {
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: url.path) == data { return false }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).nestegg-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw SiteWriter.WriteError(path: url.path, reason: SiteWriter.reason(error))
        }
        return true
    }
}
