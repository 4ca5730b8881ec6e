import Crypto
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite

/// Share K of N of a build (`--shard K/N`): the pages whose entity or path falls to K by a
/// stable hash (``owns(_:)-swift.method``), so that N workers that never talk agree on who renders
/// what. A worker keeps the Starling feeds of its own accounts only; of the others it keeps the
/// figures the site-wide pages need (``AccountFigures``), so its memory falls with N. With a census
/// (``Census``) it reads no other feed; without one it reads every feed, as the as-of date and the
/// data notes, in every page, come from all of them.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N` as written on the command line.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The batch engines' variables for a worker's index, in this order: a Kubernetes Indexed Job,
    /// an AWS Batch array job, a Slurm job array. Each is the share itself: a Slurm task's id is
    /// its share whatever else the array holds, so `sbatch --array=2` re-runs share 2.
    public static let engineVariables = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "SLURM_ARRAY_TASK_ID"]

    /// The Job's `completions`, which the Kubernetes manifests in `deploy/kubernetes/` set for the
    /// pods (Kubernetes does not give it them).
    public static let completionsVariable = "NESTEGG_JOB_COMPLETIONS"

    /// Share K of `count`, K from the first engine variable that is set, checked against what the
    /// engine says of the whole run, so that no worker builds a share other than the one meant:
    ///
    /// - Kubernetes: the Job's completions (``completionsVariable``, when set) are N.
    /// - Slurm: the array reaches no task id of N or more (`SLURM_ARRAY_TASK_MAX`), holds no more
    ///   tasks than N (`SLURM_ARRAY_TASK_COUNT`) and has no step (`SLURM_ARRAY_TASK_STEP` 1 or
    ///   unset: `--array=0-6:2` is refused, as its ids skip shares by a rule that reads like N
    ///   tasks). A smaller array is a re-run of some shares (`--array=2`, `--array=1,5`), and is
    ///   built; the shares it leaves out are the merge's to find missing.
    ///
    /// What the engine says of the whole run is checked first, so that every worker of a run that
    /// does not fit N says the same. - Returns: the share, or why there is none, saying what to do.
    public static func fromEnvironment(count: Int, _ environment: [String: String]) -> Result<Shard, ShardError> {
        guard let name = engineVariables.first(where: { environment[$0] != nil }), let value = environment[name] else {
            return .failure(ShardError("--shards \(count): none of \(engineVariables.joined(separator: ", ")) is set; give the share with --shard K/N"))
        }
        guard let index = number(value) else {
            return .failure(ShardError("\(name)=\(value) is not a share number"))
        }
        switch name {
        case "JOB_COMPLETION_INDEX":
            if let text = environment[completionsVariable] {
                guard let completions = number(text), completions == count else {
                    return .failure(ShardError("the Job has \(completionsVariable)=\(text) completions but --shards \(count); set N in one place (deploy/kubernetes/)"))
                }
            }
        case "SLURM_ARRAY_TASK_ID":
            var array: [String: Int] = [:]
            for key in ["SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP"] {
                guard let text = environment[key] else { continue }
                guard let value = number(text) else { return .failure(ShardError("\(key)=\(text) is not a number")) }
                array[key] = value
            }
            let submit = "the task ids are the shares: submit --array=0-\(count - 1) for all of them, --array=K (or K,L,…) to re-run some"
            if let step = array["SLURM_ARRAY_TASK_STEP"], step != 1 {
                return .failure(ShardError("the job array steps by \(step) (SLURM_ARRAY_TASK_STEP); \(submit)"))
            }
            if let maximum = array["SLURM_ARRAY_TASK_MAX"], maximum >= count {
                return .failure(ShardError("the job array reaches task \(maximum) (SLURM_ARRAY_TASK_MAX) but --shards \(count); \(submit)"))
            }
            if let tasks = array["SLURM_ARRAY_TASK_COUNT"], tasks > count {
                return .failure(ShardError("the job array has \(tasks) tasks (SLURM_ARRAY_TASK_COUNT) but --shards \(count); \(submit)"))
            }
        default:
            break
        }
        guard let shard = Shard(index: index, count: count) else {
            return .failure(ShardError("\(name)=\(value) is not one of the shares 0…\(count - 1) of --shards \(count)"
                                       + (name == "SLURM_ARRAY_TASK_ID" ? "; submit the array as --array=0-\(count - 1)" : "")))
        }
        return .success(shard)
    }

    /// A whole number, spaces around it allowed; `nil` for anything else.
    private static func number(_ text: String) -> Int? { Int(text.trimmingCharacters(in: .whitespaces)) }

    /// Whether `key` (a page's path without extension, or the entity it shows) is this share's.
    public func owns(_ key: String) -> Bool { Self.share(of: key, count: count) == index }

    /// Whether a page is this share's: all of one entity's pages (an account's statements and
    /// round-up weeks) fall to the share that keeps the entity's data; any other page by its path.
    public func owns(_ page: Page) -> Bool { owns(page.entity ?? page.path) }

    static func share(of path: String, count: Int) -> Int {
        guard count > 1 else { return 0 }
        var value: UInt64 = 0
        for byte in SHA256.hash(data: Array(path.utf8)).prefix(8) { value = value << 8 | UInt64(byte) }
        return Int(value % UInt64(count))
    }
}

public struct ShardError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// What a share leaves beside its pages for `nestegg merge` (`.nestegg-part`): which build it is
/// part of (the data and templates' fingerprint, N, K), the files it wrote, and its statements'
/// manifest entries (hashed from its own files), each with its place in the whole manifest. It is
/// written last, as the build's own commit: a part folder without it is not finished. Its last line
/// signs the rest (SHA-256), so that a record cut short or changed (a copy of the part interrupted,
/// a line lost) is refused, not merged into a site without some of its pages or with a broken manifest.
struct PartRecord: Sendable {
    static let fileName = ".nestegg-part"
    static let format = "nestegg-part 3"

    var fingerprint: String
    var shard: Shard
    /// The statements manifest's opening (``StatementManifest/head(dataAsOf:)``).
    var manifestHead: String
    var statementCount: Int
    var files: [String]
    /// (place in the manifest, the entry's JSON).
    var entries: [(Int, String)]
    /// The site's address (`baseURL`), for the site map the merge writes; `nil` without one.
    var baseURL: String?

    var text: String {
        // Written into one string at its size: it is made at the end of a share, when the most is
        // in memory (a list of its lines, their join and a copy to hash would take four times its size).
        var text = ""
        text.reserveCapacity(files.reduce(0) { $0 + $1.utf8.count + 6 } + entries.reduce(0) { $0 + FieldLine.escapedCount($1.1) + 32 }
                             + FieldLine.escapedCount(manifestHead) + fingerprint.utf8.count + 256)
        for line in [Self.format, fingerprint, "\(shard.index) \(shard.count)", FieldLine.escaped(manifestHead), String(statementCount)] {
            text += line + "\n"
        }
        if let baseURL { text += "base\t" + FieldLine.escaped(baseURL) + "\n" }
        for file in files {
            text += "file\t"
            text += file
            text += "\n"
        }
        for (place, entry) in entries {
            text += "entry\t\(place)\t"
            text += FieldLine.escaped(entry)
            text += "\n"
        }
        text += Self.signature(of: text[...]) + "\n"
        return text
    }

    /// The last line: `end`, a tab and the SHA-256 of everything before it.
    static func signature(of body: String) -> String { signature(of: body[...]) }

    static func signature(of body: Substring) -> String {
        var hasher = SHA256()
        var body = body
        body.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        return "end\t" + Text.hex(hasher.finalize())
    }

    init(fingerprint: String, shard: Shard, manifestHead: String, statementCount: Int, files: [String], entries: [(Int, String)],
         baseURL: String? = nil) {
        self.fingerprint = fingerprint
        self.shard = shard
        self.manifestHead = manifestHead
        self.statementCount = statementCount
        self.files = files
        self.entries = entries
        self.baseURL = baseURL
    }

    init?(text: String) {
        // Signed: the text ends in its body's signature line.
        guard text.hasSuffix("\n"), let end = text.dropLast().lastIndex(of: "\n"),
              text[text.index(after: end)...].dropLast() == Self.signature(of: text[...end]) else { return nil }
        let lines = text[...end].dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 5, lines[0] == Self.format else { return nil }
        let numbers = lines[2].split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2, let shard = Shard(index: numbers[0], count: numbers[1]),
              let statements = Int(lines[4]), statements >= 0 else { return nil }
        self.init(fingerprint: lines[1], shard: shard, manifestHead: FieldLine.unescaped(lines[3][...]), statementCount: statements, files: [], entries: [])
        for line in lines.dropFirst(5) where !line.isEmpty {
            let fields = FieldLine.fields(line[...], maxSplits: 2).map(String.init)
            switch fields.first {
            case "base" where fields.count == 2 && baseURL == nil && files.isEmpty:
                baseURL = FieldLine.unescaped(fields[1][...])
            case "file" where fields.count == 2:
                let path = fields[1]
                // A part names only files inside itself.
                // (Nor one by two spellings: no `.` in a path.)
                guard !path.hasPrefix("/"), !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else { return nil }
                files.append(path)
            case "entry" where fields.count == 3:
                guard let place = Int(fields[1]), place >= 0, place < statements else { return nil }
                entries.append((place, FieldLine.unescaped(fields[2][...])))
            default:
                return nil
            }
        }
    }
}
