import Synchronization
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

    /// The problems of files meant to be one sharded build's shares, one each (census files, parts):
    /// a file that `differs` sets apart from the first (its reason), of another N, or of a share
    /// another file holds too; then the first share none holds, as `missing` says it (looked for no
    /// further than one past the files: a count re-signed by hand can be any number).
    static func problems(of files: [(path: String, shard: Shard)], differs: (Int) -> String?,
                         missing: (Shard) -> Diagnostic) -> [Diagnostic] {
        guard let first = files.first else { return [] }
        var problems: [Diagnostic] = []
        var seen: [Int: String] = [:]
        for (place, file) in files.enumerated() {
            if let reason = differs(place) {
                problems.append(Diagnostic(.error, file: file.path, message: reason))
            } else if file.shard.count != first.shard.count {
                problems.append(Diagnostic(.error, file: file.path, message: "share \(file.shard) of another number of shares than \(first.shard.count)"))
            } else if let other = seen[file.shard.index] {
                problems.append(Diagnostic(.error, file: file.path, message: "share \(file.shard) twice: also \(other)"))
            } else {
                seen[file.shard.index] = file.path
            }
        }
        if problems.isEmpty, let index = (0..<min(first.shard.count, files.count + 1)).first(where: { seen[$0] == nil }) {
            problems.append(missing(Shard(index: index, count: first.shard.count)!))
        }
        return problems
    }

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
/// written last, as the build's own commit: a part folder without it is not finished. It is a
/// ``NestEggSupport/RecordFile``, signed by its SHA-256, so that a record cut short or changed (a
/// copy of the part interrupted, a line lost) is refused, not merged into a site without some of
/// its pages or with a broken manifest.
///
/// Its second line authenticates the first with the run's part key (``PartKey``), when the share
/// was given one: the merge that signs accepts only parts it authenticates.
struct PartRecord: Sendable, Codable {
    static let fileName = ".nestegg-part"
    static let format = "nestegg-part 5"

    var fingerprint: String
    var shard: Shard
    /// The statements manifest's opening (``StatementManifest/head(dataAsOf:)``).
    var manifestHead: String
    var statementCount: Int
    var files: [String]
    /// One statement's manifest entry (its JSON text) and its place in the manifest.
    struct Entry: Sendable, Codable, Equatable {
        var place: Int
        var entry: String
    }
    var entries: [Entry]
    /// The site's address (`baseURL`), for the site map the merge writes; `nil` without one.
    var baseURL: String?
    /// The SHA-256 of every file it lists under `statements/` (the statements, their index pages),
    /// by path: the merge hashes each as it places it, and what it signs is these bytes.
    var hashes: [String: String] = [:]

    /// The second line: which part key authenticated the first, and its HMAC (both `nil` without a key).
    struct Authentication: Codable, Sendable {
        var key: String?
        var mac: String?
    }
    /// As read: the second line, and the first line's bytes it authenticates (not encoded).
    private(set) var authentication: Authentication?
    private var signedLine: [UInt8]?

    enum CodingKeys: String, CodingKey { case fingerprint, shard, manifestHead, statementCount, files, entries, baseURL, hashes }

    /// The file's text, authenticated with `key` if given.
    func text(key: PartKey?) -> String {
        let line = RecordFile.line(self)
        var writer = RecordFile.Writer(format: Self.format)
        writer.append(line: line)
        writer.append(Authentication(key: key?.identity, mac: key?.mac(Array(line.utf8))))
        return writer.text
    }

    /// Why `key` does not authenticate this record (read from a file); `nil` when it does.
    func unauthenticated(by key: PartKey) -> String? {
        guard let authentication, let mac = authentication.mac, let line = signedLine else {
            return "its record is not authenticated: the share was built without --part-key"
        }
        guard authentication.key == key.identity else { return "its record is authenticated with another part key than the one given" }
        guard key.isValid(mac, for: line) else { return "its record does not match its authentication: it was changed after the share wrote it" }
        return nil
    }

    init(fingerprint: String, shard: Shard, manifestHead: String, statementCount: Int, files: [String], entries: [Entry],
         baseURL: String? = nil, hashes: [String: String] = [:]) {
        self.fingerprint = fingerprint
        self.shard = shard
        self.manifestHead = manifestHead
        self.statementCount = statementCount
        self.files = files
        self.entries = entries
        self.baseURL = baseURL
        self.hashes = hashes
    }

    /// The record a part's file holds; `nil` for anything else, and for a record that does not
    /// hold together: a path out of the part or spelt two ways, a place outside the manifest.
    init?(text: String) {
        guard let lines = RecordFile.lines(of: Array(text.utf8), format: Self.format, count: 2),
              var record = RecordFile.value(Self.self, line: lines[0]),
              let authentication = RecordFile.value(Authentication.self, line: lines[1]),
              record.statementCount >= 0,
              record.entries.allSatisfy({ (0..<record.statementCount).contains($0.place) }),
              record.files.allSatisfy(Self.isInside), record.hashes.keys.allSatisfy(Self.isInside) else { return nil }
        record.authentication = authentication
        record.signedLine = Array(lines[0])
        self = record
    }

    /// A path inside the part, spelt one way: not absolute, no `.`, `..` or empty component.
    static func isInside(_ path: String) -> Bool {
        !path.hasPrefix("/") && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}

extension Shard: Codable {
    enum CodingKeys: String, CodingKey { case index, count }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let index = try container.decode(Int.self, forKey: .index), count = try container.decode(Int.self, forKey: .count)
        guard let shard = Shard(index: index, count: count) else {
            throw DecodingError.dataCorruptedError(forKey: .index, in: container, debugDescription: "not a share of \(count)")
        }
        self = shard
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(count, forKey: .count)
    }
}

/// What a share's load did with the feeds (``OtherShares``). A share maps its own
/// accounts (``Page/entity``) from their feeds; of every other account it keeps a summary instead
/// (``AccountFigures``), and the load keeps of that account's feed what the summary needs first:
/// its latest time, for the data's as-of date, and the SHA-256 of the bytes it read (`nil` when a
/// census stands for the feed), which the second read that works out the summary must find again.
struct ShareFeeds: Sendable {
    struct Summarised: Sendable {
        var latest: Instant?
        var digest: String?
    }
    /// The accounts held as summaries, by UID.
    var summarised: [String: Summarised] = [:]
    /// With a census: the SHA-256 of the bytes each feed mapped here was parsed from, by path
    /// (`nil` without a file), which must be the census's (``CensusSet/checkAgain(_:parsed:own:)``).
    var parsed: [String: String?] = [:]

    /// The load's feed readers for `shard`, recording into `record`: every Qapital goal's feed is
    /// read (a goal's feed is a few kilobytes: the goals list projects each goal from its feed);
    /// of the Starling accounts, a share's own feeds are kept, and every other one is read and let
    /// go (or, with a census that knows it, not read at all: its notes are the census's).
    static func readers(_ shard: Shard, census: CensusSet?, into record: Recorder) -> FeedReaders {
        FeedReaders(starling: { account, folder, log in
            let path = StarlingLoader.feedPath(of: account)
            if shard.owns(Page.entity(of: account)) {
                guard census != nil else { return StarlingLoader.feed(of: account, in: folder, log: log) }
                let (items, digest) = StarlingLoader.readFeed(of: account, in: folder, log: log, digest: true)
                record.state.withLock { $0.parsed[path] = .some(digest) }
                return items
            }
            if let known = census?.feeds[path]?.known {
                if folder.contains(path) { folder.claim(path) }
                log.absorb(known.notes)
                record.state.withLock { $0.summarised[account.uid] = .init(latest: known.latest, digest: nil) }
            } else {
                let (items, digest) = StarlingLoader.readFeed(of: account, in: folder, log: log, digest: true)
                record.state.withLock { $0.summarised[account.uid] = .init(latest: items.lazy.map(\.transactionTime).max(), digest: digest) }
            }
            return []
        }, qapital: { goalId, path, folder, currency, log in
            guard census != nil else { return QapitalLoader.readFeed(path, goalId: goalId, in: folder, currency: currency, log: log) }
            guard let (items, digest) = QapitalLoader.readFeed(path, goalId: goalId, in: folder, currency: currency, log: log, digest: true)
            else { return nil }
            record.state.withLock { $0.parsed[path] = .some(digest) }
            return items
        })
    }

    /// Where the readers record, from every core.
    final class Recorder: Sendable {
        let state = Mutex(ShareFeeds())
        var feeds: ShareFeeds { state.withLock { $0 } }
    }
}
