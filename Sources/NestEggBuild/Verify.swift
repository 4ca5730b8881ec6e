import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

/// `nestegg verify FOLDER`: recomputes the SHA-256 of every file a folder's `manifest.json` lists
/// (``StatementManifest``) and names each one that differs or is missing. A customer can check their
/// own bundle alone, an auditor the statements of a whole site.
public enum ManifestVerifier {
    public struct Outcome: Sendable {
        /// Statements listed, and files checked.
        public let statements: Int
        public let files: Int
        /// Every file that differs or is missing, and every fault in the manifest itself.
        public let problems: [Diagnostic]
        /// 0 when every file matches; 65 when one does not or the manifest is wrong; 66 without a manifest.
        public let exitCode: ExitStatus
    }

    /// Checks `folder` (named `label` in messages, as the user typed it).
    public static func verify(folder: URL, label: String? = nil) -> Outcome {
        let label = label ?? folder.path
        let name = { (path: String) in label.hasSuffix("/") ? label + path : label + "/" + path }
        let manifestName = name(StatementManifest.fileName)
        let bytes: [UInt8]
        switch FileBytes.read(folder.appendingPathComponent(StatementManifest.fileName).path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            return Outcome(statements: 0, files: 0,
                           problems: [Diagnostic(.error, file: manifestName, message: "cannot read the manifest: \(failure.reason)")],
                           exitCode: .noInput)
        }
        let log = DiagnosticLog()
        guard let document = JSONDocument.parse(bytes, file: manifestName, log: log) else {
            return Outcome(statements: 0, files: 0, problems: log.diagnostics, exitCode: .dataError)
        }
        let root = document.value
        if let version = root.required("schemaVersion", "the manifest's schema version")?.int, version != StatementManifest.schemaVersion {
            root["schemaVersion"]?.error("schema version \(version) is not one this nestegg reads (it reads \(StatementManifest.schemaVersion))")
        }
        var problems: [Diagnostic] = []
        var fileCount = 0
        let statements = root.required("statements", "a list of statements")?.array ?? []
        for statement in statements {
            guard statement.object != nil else { continue }
            for file in statement.required("files", "the statement's files")?.array ?? [] {
                guard file.object != nil, let path = file.required("path", "a path relative to the manifest")?.string,
                      let expected = file.required("sha256", "64 hexadecimal digits")?.string else { continue }
                guard isInside(path) else {
                    file["path"]?.error("not a path inside the manifest's folder: \"\(path)\"")
                    continue
                }
                guard expected.utf8.count == 64, expected.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                    file["sha256"]?.error("expected 64 lower-case hexadecimal digits, found \"\(expected)\"")
                    continue
                }
                fileCount += 1
                switch FileBytes.read(folder.appendingPathComponent(path).path) {
                case .success(let content):
                    let actual = StatementDigest.sha256(content)
                    if actual != expected {
                        problems.append(Diagnostic(.error, file: name(path),
                                                   message: "differs from the manifest: its SHA-256 is \(actual), the manifest says \(expected)"))
                    }
                case .failure(let failure):
                    let missing = !FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
                    problems.append(Diagnostic(.error, file: name(path),
                                               message: missing ? "missing: the manifest lists it" : "cannot read it: \(failure.reason)"))
                }
            }
        }
        let all = log.diagnostics + problems
        return Outcome(statements: statements.count, files: fileCount, problems: all,
                       exitCode: all.contains { $0.severity == .error } ? .dataError : .success)
    }

    /// A relative path that stays inside the folder: no `..`, not absolute, no empty part.
    static func isInside(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}
