import Crypto
import Foundation
import NestEggLoad
import NestEggSupport
import NestEggWrite

extension BuildCache {
    /// The fingerprint of a build's input: SHA-256 over the cache's format, the `nestegg`
    /// executable (its path, size and modification time), every data file's path and bytes, and the
    /// template overrides' names and bytes, each part length-prefixed so that no two inputs run together.
    /// (Without the executable for a sharded build's parts: workers on other machines run their
    /// own copy of the same `nestegg`, and check its version instead.)
    static func fingerprint(data: DataFolder, templates: URL?, includingExecutable: Bool = true) -> String {
        var hash = InputHash()
        hash.add(format)
        hash.add(includingExecutable ? executableStamp : "nestegg " + NestEggVersion.current)
        for path in data.files {
            hash.add(path)
            switch FileBytes.read(data.root.path + "/" + path) {
            case .success(let bytes): hash.add(bytes)
            case .failure(let failure): hash.add("unreadable: " + failure.reason)
            }
        }
        for problem in data.listingProblems { hash.add(problem.description) }
        if let templates {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []).sorted() {
                hash.add(name)
                switch FileBytes.read(templates.path + "/" + name) {
                case .success(let bytes): hash.add(bytes)
                case .failure(let failure): hash.add("unreadable: " + failure.reason)
                }
            }
        }
        return hash.hex
    }

    /// The running `nestegg` (path, size, modification time): a new build of it may render
    /// differently, so it is part of every fingerprint, the pages' included.
    static let executableStamp: String = {
        guard let executable = Bundle.main.executableURL,
              let attributes = try? FileManager.default.attributesOfItem(atPath: executable.resolvingSymlinksInPath().path) else { return "" }
        return "\(executable.path) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
    }()
}

/// SHA-256 (swift-crypto) over length-prefixed parts.
struct InputHash {
    private var hasher = SHA256()

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: bytes)
    }

    var hex: String { hasher.finalize().map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}
