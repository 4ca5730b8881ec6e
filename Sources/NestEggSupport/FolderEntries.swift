import Foundation

/// The entries of a folder, read with `readdir`.
///
/// Each entry's name and type are read where they lie. A record that `readdir` returns holds only
/// as many bytes of `d_name` as the name needs, not the 256 that `struct dirent` declares, so
/// copying the whole struct (`entry.pointee`) reads past the record; for the last record of a
/// buffer that ends a page, that is a crash (a data folder of 20,000 feeds hit it now and then).
public enum FolderEntries {
    /// An entry: its name (`.` and `..` included, as `readdir` gives them) and its `d_type`
    /// (`DT_UNKNOWN` where the file system does not say).
    public struct Entry: Sendable {
        public let name: String
        public let type: UInt8
        /// Whether the name is UTF-8 text; if not, ``name`` shows its bytes (`\xFF`) and names no file.
        public let isText: Bool
        /// Its inode number (`d_ino`): the number `lstat` gives the entry on the local file systems
        /// nestegg writes to.
        public let inode: UInt64
    }

    /// The entries of the folder at `path`, in the order `readdir` gives them; `nil` when it cannot
    /// be opened or read to its end (`errno` says why): a listing cut short by an error is not a
    /// folder with fewer files.
    public static func read(_ path: String) -> [Entry]? {
        guard let directory = opendir(path) else { return nil }
        return read(directory)
    }

    /// The same, of the folder open at `descriptor` (which stays open, for calls relative to it).
    public static func read(descriptor: Int32) -> [Entry]? {
        let own = dup(descriptor)
        guard own >= 0 else { return nil }
        guard let directory = fdopendir(own) else {
            close(own)
            return nil
        }
        return read(directory)
    }

    /// Reads `directory` to its end, and closes it.
    private static func read(_ directory: OpaquePointer) -> [Entry]? {
        defer { closedir(directory) }
        var entries: [Entry] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else { break }
            let (name, isText) = name(of: entry)
            entries.append(Entry(name: name, type: type(of: entry), isText: isText, inode: inode(of: entry)))
        }
        return errno == 0 ? entries : nil
    }

    static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    static let typeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_type)!

    /// The record's name, up to its terminating zero, and whether it is UTF-8 text; a name that is
    /// not is shown with `\xNN` for each byte outside ASCII's printable range.
    static func name(of entry: UnsafeMutablePointer<dirent>) -> (String, Bool) {
        let start = UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: UInt8.self)
        let bytes = UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)))
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        return (bytes.map { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined(), false)
    }

    static let inodeOffset = MemoryLayout<dirent>.offset(of: \dirent.d_ino)!

    static func inode(of entry: UnsafeMutablePointer<dirent>) -> UInt64 {
        UInt64(UnsafeRawPointer(entry).loadUnaligned(fromByteOffset: inodeOffset, as: ino_t.self))
    }

    static func type(of entry: UnsafeMutablePointer<dirent>) -> UInt8 {
        UnsafeRawPointer(entry).load(fromByteOffset: typeOffset, as: UInt8.self)
    }
}
