import Foundation

/// Lets a rebuild whose input has not changed skip the work, as `make` would.
///
/// A build records, in `<output>/.nestegg-cache` (not part of the site; git-ignored), a
/// fingerprint of everything its output depends on — every data file's bytes, the template
/// overrides, and the `nestegg` executable itself — with the size of each file it wrote and its
/// warnings. The next build computes the fingerprint first; when it matches and every file is
/// still there at its size, the output is already what the build would write, and it stops there.
public struct BuildCache: Sendable {
    public static let fileName = ".nestegg-cache"
    static let format = "nestegg-cache 1"

    public let fingerprint: String
    public var files: [String: Int]
    public var warnings: [Diagnostic]

    /// The fingerprint of a build's input.
    public static func fingerprint(data: DataFolder, templates: URL?) -> String {
        var hash = FNV1a()
        hash.add(format)
        if let executable = Bundle.main.executableURL,
           let attributes = try? FileManager.default.attributesOfItem(atPath: executable.resolvingSymlinksInPath().path) {
            hash.add("\(executable.path) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        }
        for path in data.files {
            hash.add(path)
            hash.add(FileManager.default.contents(atPath: data.root.appendingPathComponent(path).path) ?? Data())
        }
        if let templates {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []).sorted() {
                hash.add(name)
                hash.add(FileManager.default.contents(atPath: templates.appendingPathComponent(name).path) ?? Data())
            }
        }
        return hash.hex
    }

    /// The cache recorded in an output folder, if any.
    public static func read(from output: URL) -> BuildCache? {
        guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(fileName).path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(format), lines.count >= 2 else { return nil }
        var cache = BuildCache(fingerprint: String(lines[1]), files: [:], warnings: [])
        for line in lines.dropFirst(2) where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "file" where fields.count == 3: cache.files[fields[1]] = Int(fields[2])
            case "warning" where fields.count == 6:
                cache.warnings.append(Diagnostic(.warning, file: fields[1], line: Int(fields[2]), column: Int(fields[3]),
                                                 path: fields[4].isEmpty ? nil : fields[4], message: fields[5]))
            default: return nil
            }
        }
        return cache
    }

    /// Whether `output` holds exactly what a build with this fingerprint wrote.
    public func isCurrent(in output: URL, fingerprint: String) -> Bool {
        guard fingerprint == self.fingerprint, !files.isEmpty else { return false }
        for (path, size) in files {
            let attributes = try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
            guard (attributes?[.size] as? NSNumber)?.intValue == size else { return false }
        }
        return true
    }

    var text: String {
        var lines = [Self.format, fingerprint]
        lines += files.keys.sorted().map { "file\t\($0)\t\(files[$0]!)" }
        lines += warnings.map { warning in
            ["warning", warning.file, warning.line.map(String.init) ?? "", warning.column.map(String.init) ?? "",
             warning.path ?? "", warning.message].map(Diagnostic.printable).joined(separator: "\t")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// 64-bit FNV-1a: a fast, stable hash (the same on every run and machine, unlike `Hasher`).
struct FNV1a {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01B3
        }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        state ^= 0xFF
        state &*= 0x0000_0100_0000_01B3
    }

    mutating func add(_ text: String) { add(text.utf8) }
    mutating func add(_ data: Data) { data.withUnsafeBytes { add($0) } }

    var hex: String { String(state, radix: 16).leftPadded(to: 16) }
}
