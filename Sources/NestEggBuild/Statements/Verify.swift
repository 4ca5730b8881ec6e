import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

/// `nestegg verify FOLDER [--public-key FILE]`: checks a folder of statements against its
/// `manifest.json` (``StatementManifest``). With the issuer's public key it first checks the
/// manifest's signature (``ManifestSignature``): a missing or bad one ends the check. Then:
///
/// - every file the manifest lists is hashed again (SHA-256) and compared;
/// - every file in the folder that the manifest does not list is named (but the manifest and its
///   signature);
/// - nothing but a regular file is read: a symbolic link (listed or not), a FIFO or a device is an
///   error, never followed; a listed path with `..`, an empty part or a leading `/` is refused;
/// - the figures the manifest gives for each statement — its digest, its opening and closing
///   balance and the balance on its last day — must be figures the statement's Markdown and HTML
///   show (compared by sign and digits, whatever the locale's separators and currency sign).
///
/// Without a key this shows a folder is whole and as its manifest describes it: it guards
/// against accidents, not a forger, who can write a manifest to match what they forged.
public enum ManifestVerifier {
    public struct Outcome: Sendable {
        /// Statements listed, and their files checked.
        public let statements: Int
        public let files: Int
        /// The manifest's other files checked (index pages, round-ups, the manifests below).
        public let otherFiles: Int
        /// Whether a public key was given and the manifest's signature is good for it.
        public let signed: Bool
        /// Whether the folder holds a signature beside the manifest (checked only with a key).
        public let hasSignature: Bool
        /// Every file that differs, is missing, is not listed or is not a regular file, every figure
        /// the statement does not show, and every fault in the manifest or its signature.
        public let problems: [Diagnostic]
        /// 0 when everything matches; 65 when something does not or the manifest or its signature
        /// is wrong; 66 without a manifest.
        public let exitCode: ExitStatus
    }

    /// Checks `folder` (named `label` in messages, as the user typed it), with the issuer's
    /// `publicKey` when given.
    public static func verify(folder: URL, label: String? = nil, publicKey: ManifestSignature.PublicKey? = nil) -> Outcome {
        let label = label ?? folder.path
        let name = { (path: String) in label.hasSuffix("/") ? label + path : label + "/" + path }
        let root = folder.path
        let failed = { (file: String, message: String, code: ExitStatus) in
            Outcome(statements: 0, files: 0, otherFiles: 0, signed: false, hasSignature: false,
                    problems: [Diagnostic(.error, file: name(file), message: message)], exitCode: code)
        }
        let manifestName = name(StatementManifest.fileName)
        let bytes: [UInt8]
        switch readRegular(root + "/" + StatementManifest.fileName, limit: largestManifest) {
        case .success(let read): bytes = read
        case .failure(let failure):
            return failed(StatementManifest.fileName, "cannot read the manifest: \(failure.reason)", failure.missing ? .noInput : .dataError)
        }
        let signaturePath = root + "/" + ManifestSignature.fileName
        var status = stat()
        let hasSignature = lstat(signaturePath, &status) == 0
        if let publicKey {
            switch readRegular(signaturePath, limit: ManifestSignature.maximumKeyBytes) {
            case .success(let signature):
                guard publicKey.isValid(signatureText: String(decoding: signature, as: UTF8.self), for: bytes) else {
                    return failed(ManifestSignature.fileName, "the signature does not match the manifest: the manifest was changed after it "
                                  + "was signed, or signed with another key than the public key given", .dataError)
                }
            case .failure(let failure):
                return failed(ManifestSignature.fileName, failure.missing
                              ? "missing: the manifest is not signed, and --public-key asks for its signature"
                              : "cannot read the signature: \(failure.reason)", .dataError)
            }
        }
        let log = DiagnosticLog()
        guard let document = JSONDocument.parse(bytes, file: manifestName, log: log) else {
            return Outcome(statements: 0, files: 0, otherFiles: 0, signed: false, hasSignature: hasSignature,
                           problems: log.diagnostics, exitCode: .dataError)
        }
        let manifest = document.value
        if let version = manifest.required("schemaVersion", "the manifest's schema version")?.int, version != StatementManifest.schemaVersion {
            manifest["schemaVersion"]?.error("schema version \(version) is not one this nestegg reads (it reads \(StatementManifest.schemaVersion))")
        }
        let tree = FolderTree(root)
        var problems: [Diagnostic] = []
        var listed: Set<String> = [StatementManifest.fileName, ManifestSignature.fileName]
        /// A listed file's bytes once its digest matched (nil when it did not, or could not be read).
        func check(_ file: JSONValue, statementPage: Bool) -> (path: String, bytes: [UInt8]?)? {
            guard file.object != nil, let path = file.required("path", "a path relative to the manifest")?.string,
                  let expected = file.required("sha256", "64 hexadecimal digits")?.string else { return nil }
            guard PartRecord.isInside(path) else {
                file["path"]?.error("not a path inside the manifest's folder: \"\(path)\"")
                return nil
            }
            guard expected.utf8.count == 64, expected.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                file["sha256"]?.error("expected 64 lower-case hexadecimal digits, found \"\(expected)\"")
                return nil
            }
            listed.insert(path)
            if let problem = tree.problem(with: path) {
                problems.append(Diagnostic(.error, file: name(path), message: problem))
                return (path, nil)
            }
            // A page whose figures are checked is read whole, up to the largest nestegg writes;
            // any other file is hashed a piece at a time: memory stays flat, whatever the folder holds.
            let shown = statementPage && (path.hasSuffix(".md") || path.hasSuffix(".html"))
            let content: [UInt8]?, actual: String
            let read: Result<([UInt8]?, String), ReadFailure> = shown
                ? readRegular(root + "/" + path, limit: largestPage).map { ($0, StatementDigest.sha256($0)) }
                : hashRegular(root + "/" + path).map { (nil, $0) }
            switch read {
            case .success(let result): (content, actual) = result
            case .failure(let failure):
                problems.append(Diagnostic(.error, file: name(path), message: "cannot read it: \(failure.reason)"))
                return (path, nil)
            }
            guard actual == expected else {
                problems.append(Diagnostic(.error, file: name(path),
                                           message: "differs from the manifest: its SHA-256 is \(actual), the manifest says \(expected)"))
                return (path, nil)
            }
            return (path, content)
        }
        var fileCount = 0
        let statements = manifest.required("statements", "a list of statements")?.array ?? []
        for statement in statements {
            guard statement.object != nil else { continue }
            var shown: [(path: String, bytes: [UInt8])] = []
            for file in statement.required("files", "the statement's files")?.array ?? [] {
                guard let (path, content) = check(file, statementPage: true) else { continue }
                fileCount += 1
                if let content, path.hasSuffix(".md") || path.hasSuffix(".html") { shown.append((path, content)) }
            }
            for (path, content) in shown {
                for problem in StatementFigures.problems(of: statement, in: content) {
                    problems.append(Diagnostic(.error, file: name(path), message: problem))
                }
            }
        }
        var otherCount = 0
        for file in manifest["otherFiles"]?.array ?? [] where check(file, statementPage: false) != nil { otherCount += 1 }
        for path in tree.regular.sorted() where !listed.contains(path) {
            problems.append(Diagnostic(.error, file: name(path), message: "not listed in the manifest: nestegg did not write it here with the statements"))
        }
        for (path, kind) in tree.irregular.sorted(by: { $0.key < $1.key }) where !listed.contains(path) {
            problems.append(Diagnostic(.error, file: name(path), message: "\(kind) the manifest does not list (never followed or read)"))
        }
        let all = log.diagnostics + problems
        return Outcome(statements: statements.count, files: fileCount, otherFiles: otherCount, signed: publicKey != nil,
                       hasSignature: hasSignature, problems: all, exitCode: all.contains { $0.severity == .error } ? .dataError : .success)
    }

    struct ReadFailure: Error {
        let reason: String
        let missing: Bool
    }

    /// The largest statement page (Markdown or HTML) verify reads whole to check its figures: far
    /// above any nestegg writes (a month of 30,000 payments is about 15 MB of HTML); a larger one
    /// is refused, saying so, not read into memory.
    static let largestPage = 64 << 20
    /// The largest manifest verify reads (its JSON is parsed whole): a bank's 36,000 statements'
    /// manifest is about 40 MB.
    static let largestManifest = 256 << 20

    /// The bytes of the regular file at `path`, never through a symbolic link at its end (the
    /// folders on the way are checked by ``FolderTree``), at most `limit` of them.
    static func readRegular(_ path: String, limit: Int = FileBytes.largestFile) -> Result<[UInt8], ReadFailure> {
        if let failure = regularFailure(path) { return .failure(failure) }
        return FileBytes.read(path, limit: limit).mapError { failure in
            var status = stat()
            let tooLarge = limit == largestPage && lstat(path, &status) == 0 && Int(status.st_size) > limit
            return ReadFailure(reason: tooLarge ? "it holds \(status.st_size) bytes, more than any statement page nestegg writes"
                               + " (at most \(limit >> 20) MiB): not read, so not nestegg's" : failure.reason, missing: false)
        }
    }

    /// The SHA-256 of the regular file at `path`, read a piece at a time (``readRegular(_:limit:)``'s rules).
    static func hashRegular(_ path: String) -> Result<String, ReadFailure> {
        if let failure = regularFailure(path) { return .failure(failure) }
        return FileBytes.sha256(path).mapError { ReadFailure(reason: $0.reason, missing: false) }
    }

    /// Why `path` is not a regular file to read (missing, a link, a FIFO); `nil` if it is one.
    private static func regularFailure(_ path: String) -> ReadFailure? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return ReadFailure(reason: systemReason(errno), missing: errno == ENOENT) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return ReadFailure(reason: "\(FolderTree.kind(of: status.st_mode)), which verify never follows or reads", missing: false)
        }
        return nil
    }
}

/// What a folder holds, walked without following a symbolic link: its regular files, and what is
/// neither a regular file nor a folder (links, FIFOs, devices, sockets), by path relative to it.
struct FolderTree {
    var regular: Set<String> = []
    var irregular: [String: String] = [:]
    /// Folders that could not be read, with why.
    var unreadable: [String: String] = [:]

    init(_ root: String) {
        walk(root, relative: "")
    }

    private mutating func walk(_ folder: String, relative: String) {
        guard let entries = FolderEntries.read(folder) else {
            unreadable[relative] = systemReason(errno)
            return
        }
        for entry in entries where entry.name != "." && entry.name != ".." {
            let path = folder + "/" + entry.name, child = relative.isEmpty ? entry.name : relative + "/" + entry.name
            guard entry.isText else {
                // No manifest can list it (its paths are text): it is named, never passed over.
                irregular[child] = "a name that is not UTF-8 text"
                continue
            }
            var status = stat()
            guard lstat(path, &status) == 0 else {
                irregular[child] = "an entry that cannot be read: \(systemReason(errno))"
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: walk(path, relative: child)
            case S_IFREG: regular.insert(child)
            default: irregular[child] = Self.kind(of: status.st_mode)
            }
        }
    }

    /// Why the listed `path` is not a regular file of the folder to read, if it is not.
    func problem(with path: String) -> String? {
        if regular.contains(path) { return nil }
        if let kind = irregular[path] { return "\(kind): verify never follows a link or reads anything but a regular file" }
        // A folder on the way that is a link, or could not be read.
        var prefix = ""
        for part in path.split(separator: "/").dropLast() {
            prefix += prefix.isEmpty ? String(part) : "/" + part
            if let kind = irregular[prefix] { return "under \(prefix), \(kind), which verify never follows" }
            if let reason = unreadable[prefix] { return "cannot read the folder \(prefix): \(reason)" }
        }
        return "missing: the manifest lists it"
    }

    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }
}

/// The manifest's figures for a statement against the statement's own page: its digest must be
/// printed there, and its opening balance, closing balance and balance on its last day must be
/// among the amounts the page shows. Amounts are compared by sign and digits (`-£1,234.50`,
/// `−1 234,50 €` and `{"amount": "-1234.50"}` agree), so any locale and template pass; the lines
/// and totals are not recomputed (the digest covers them, and the page's SHA-256 the page).
enum StatementFigures {
    static func problems(of statement: JSONValue, in page: [UInt8]) -> [String] {
        let text = String(decoding: page, as: UTF8.self)
        var problems: [String] = []
        if let digest = statement["digest"]?.string, !digest.isEmpty, !text.contains(digest) {
            problems.append("the manifest's digest \(digest) is not the one the statement shows")
        }
        let amounts = Self.amounts(in: text)
        for (key, what) in [("opening", "opening balance"), ("closing", "closing balance"), ("balance", "balance on its last day")] {
            guard let money = statement[key], let amount = money["amount"]?.string, let figure = Figure(amount) else { continue }
            if !amounts.contains(figure) {
                let currency = money["currency"]?.string.map { " " + $0 } ?? ""
                problems.append("the manifest's \(what), \(amount)\(currency), is not a figure the statement shows")
            }
        }
        return problems
    }

    /// An amount by its sign and digits, leading zeros dropped (`0.00` is `0`).
    struct Figure: Hashable {
        let negative: Bool
        let digits: String

        init(negative: Bool, digits: Substring) {
            let significant = digits.drop { $0 == "0" }
            self.digits = significant.isEmpty ? "0" : String(significant)
            self.negative = negative && !significant.isEmpty
        }

        /// A manifest amount: `-1234.50`.
        init?(_ amount: String) {
            let negative = amount.hasPrefix("-")
            let digits = amount.dropFirst(negative ? 1 : 0).filter { $0 != "." }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            self.init(negative: negative, digits: Substring(digits))
        }
    }

    /// Group and decimal separators a locale may put between digits.
    static let separators: Set<Character> = [",", ".", "'", " ", "\u{00A0}", "\u{202F}", "\u{2009}", "\u{066B}", "\u{066C}"]
    /// Minus signs.
    static let minus: Set<Character> = ["-", "\u{2212}"]

    /// Every number `text` shows, with its sign: a minus sign counts when it comes before the
    /// number with nothing but a currency sign or emphasis between (no space, no cell border).
    static func amounts(in text: String) -> Set<Figure> {
        let characters = Array(text)
        var found: Set<Figure> = []
        var index = 0
        while index < characters.count {
            guard characters[index].isASCII && characters[index].isNumber else { index += 1; continue }
            let start = index
            var digits = ""
            while index < characters.count {
                let character = characters[index]
                if character.isASCII && character.isNumber {
                    digits.append(character)
                } else if !(separators.contains(character) && index + 1 < characters.count
                            && characters[index + 1].isASCII && characters[index + 1].isNumber) {
                    break
                }
                index += 1
            }
            var back = start - 1, negative = false
            while back >= 0, start - back <= 8 {
                let character = characters[back]
                if minus.contains(character) { negative = true; break }
                if character.isWhitespace || character == "|" || character == ">" || (character.isASCII && character.isNumber) { break }
                back -= 1
            }
            found.insert(Figure(negative: negative, digits: Substring(digits)))
        }
        return found
    }
}
