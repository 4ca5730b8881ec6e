import Foundation
import NestEggLoad
import NestEggSupport
import NestEggWrite

extension BuildCache {
    /// The fingerprint of a build's input.
    static func fingerprint(data: DataFolder, templates: URL?) -> String {
        var hash = FNV1a()
        hash.add(format)
        if let executable = Bundle.main.executableURL,
           let attributes = try? FileManager.default.attributesOfItem(atPath: executable.resolvingSymlinksInPath().path) {
            hash.add("\(executable.path) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        }
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
}
