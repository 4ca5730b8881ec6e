import Foundation

/// The command line as the system gave it, byte for byte. Swift's `CommandLine.arguments` (and so
/// ArgumentParser) has already replaced bytes that are not UTF-8 with U+FFFD, so `site-\xff` would
/// reach nestegg as `site-\u{FFFD}`: another path, which the build would create, or replace if it
/// exists. nestegg names paths as text, so an argument it cannot hold exactly is refused instead.
enum RawArguments {
    /// The first argument that is not valid UTF-8, with its position (1 is the first after the
    /// program's name) and its bytes shown with `\xNN` for each byte outside printable ASCII.
    static func firstNotUTF8() -> (position: Int, shown: String)? {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if String(validating: bytes, as: UTF8.self) == nil { return (index, shown(bytes)) }
        }
        return nil
    }

    static func shown(_ bytes: [UInt8]) -> String {
        bytes.map { (0x20..<0x7f).contains($0) && $0 != UInt8(ascii: "\\") ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined()
    }

    /// Refuses (exit 64) a command line with an argument that is not UTF-8, before anything runs.
    static func refuseNonUTF8() {
        guard let (position, shown) = firstNotUTF8() else { return }
        FileHandle.standardError.write(Data(("nestegg: argument \(position) (\(shown)) is not valid UTF-8: nestegg cannot name "
            + "such a path exactly and will not write or read another in its place; rename it, or give another path\n").utf8))
        exit(64)
    }
}
