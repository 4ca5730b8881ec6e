import NestEggReport
import NestEggSupport
import NestEggWrite
import Foundation

/// Lets a rebuild whose input has not changed skip the work, as `make` would; and a rebuild
/// whose input changed a little skip the pages it did not change (each page's fingerprint).
///
/// A build records, in a file beside the output folder (``defaultFile(for:)``, or `--cache FILE`;
/// never inside the published folder, which holds the site alone), a
/// fingerprint of everything its output depends on — every data file's bytes, the template
/// overrides, and the `nestegg` executable itself — with the size and modification time (to the
/// nanosecond) of each file it wrote, and its warnings. The next build computes the fingerprint
/// first; when it matches, the output folder still carries its marker, and every file is still
/// a regular file of the same size and modification time, the output is taken to be what the
/// build would write, and it stops there. What this trusts: a change to an output file that
/// keeps both its size and its modification time (only a deliberate `touch -d` does) is not seen.
///
/// The file is a ``NestEggSupport/RecordFile`` of three JSON lines: first what the "up to date"
/// check reads (the fingerprint, the files' stamps, the warnings), then in two lines what a
/// rebuild takes again (the units, inputs and changes; the pages' fingerprints, keys, hashes and
/// digests), which a build that is up to date never decodes, and a rebuild decodes on two cores.
/// One that does not read (cut short, changed, of another version) is no cache, and the build
/// that finds it builds everything.
public struct BuildCache: Sendable {
    /// The name of a cache inside an output folder, which nestegg never publishes (``SiteWriter``).
    public static let fileName = SiteWriter.cacheFileName
    public static let format = "nestegg-cache 11"

    public let fingerprint: String
    public var files: [String: FileStamp]
    public var warnings: [Diagnostic]
    /// Each page (by path, without extension) and the fingerprint of what it was rendered from.
    public var pages: [String: String]
    /// Each older page of the transactions lists (by path) and its key (``NestEggReport/ListRowsFrame``): a later build that works out the
    /// same key keeps the page's files without working out its view (``pages`` is carried over).
    public var keys: [String: String] = [:]
    /// A final statement's digest with the key of what it was worked out from.
    public struct StatementDigest: Sendable, Codable, Equatable {
        public var key: String
        public var digest: String
    }
    /// Final statements' digests (by account id and month, `uid/2026-10`): a later build whose key
    /// is the same takes the digest as it is.
    public var statementDigests: [String: StatementDigest] = [:]
    /// The SHA-256 of files the statements manifest lists (site path → hex digits): a later
    /// build that keeps such a file as it was (its page unchanged, its size and modification
    /// time as recorded) takes its hash from here instead of reading it again.
    public var hashes: [String: String] = [:]
    /// What the next build compares with for its "what changed" page.
    public var changes: ChangeSnapshot?
    /// Each data file's SHA-256 (``DataDigests``) and what could not be listed, as this build read
    /// them: a later build tells from them which files changed.
    public var inputs: [String: String] = [:]
    public var problems: [String] = []
    /// The fingerprint of everything but the data (``fingerprint(tool:)``): the cache's format,
    /// `nestegg` and the template overrides.
    public var tool = ""
    /// What a later build needs of each bank account to keep its pages without reading its
    /// feed (``Units``), by UID.
    public var units: [String: Unit] = [:]

    /// One bank account as a unit of the build: its input files' digests (`-` for a file that
    /// is not there), the SHA-256 of its summary kept beside the cache (``Units/file(of:in:)``),
    /// its pages and every output file of them, its statements' manifest entries (their JSON
    /// text, in the manifest's order), and the bank's spending categories of its spending, which
    /// the budgets are checked against (``NestEggReport/BudgetCategories/spendingCodes(_:)``).
    public struct Unit: Sendable, Codable, Equatable {
        public var sources: [String: String]
        public var summary: String
        public var pages: [String]
        public var files: [String]
        public var entries: [String]
        public var spendingCodes: [String]

        init(sources: [String: String], summary: String, pages: [String], files: [String], entries: [String], spendingCodes: [String]) {
            (self.sources, self.summary, self.pages, self.files, self.entries, self.spendingCodes) = (sources, summary, pages, files, entries, spendingCodes)
        }

        // The pages' and files' paths, some hundreds an account, as ``Lines``.
        enum CodingKeys: String, CodingKey { case sources, summary, pages, files, entries, spendingCodes }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sources = try container.decode([String: String].self, forKey: .sources)
            summary = try container.decode(String.self, forKey: .summary)
            pages = try container.decode(Lines<String>.self, forKey: .pages).elements
            files = try container.decode(Lines<String>.self, forKey: .files).elements
            entries = try container.decode([String].self, forKey: .entries)
            spendingCodes = try container.decode([String].self, forKey: .spendingCodes)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sources, forKey: .sources)
            try container.encode(summary, forKey: .summary)
            try container.encode(Lines(pages), forKey: .pages)
            try container.encode(Lines(files), forKey: .files)
            try container.encode(entries, forKey: .entries)
            try container.encode(spendingCodes, forKey: .spendingCodes)
        }
    }

    public init(fingerprint: String, files: [String: FileStamp], warnings: [Diagnostic], pages: [String: String] = [:]) {
        self.fingerprint = fingerprint
        self.files = files
        self.warnings = warnings
        self.pages = pages
    }

    /// The cache recorded in `file`, if any. `whole: false` reads the first line only (what
    /// ``isCurrent(in:fingerprint:)`` needs): the pages, keys, hashes, digests and changes stay empty.
    public static func read(at file: URL, whole: Bool = true) -> BuildCache? {
        guard case .success(let bytes) = FileBytes.read(file.path) else { return nil }
        return parse(bytes, whole: whole)
    }

    /// Where a build of `output` keeps its cache by default: in its folder of state beside it
    /// (``NestEggWrite/StateFolder``: `Output` → `.Output.nestegg/cache`).
    public static func defaultFile(for output: URL) -> URL { StateFolder.cache(of: output) }

    /// The cache a file's bytes hold; `nil` for anything but this format, whole. `whole: false`
    /// decodes the first line only.
    static func parse(_ bytes: [UInt8], whole: Bool = true) -> BuildCache? {
        guard let lines = RecordFile.lines(of: bytes, format: format, count: 3),
              let head = RecordFile.value(Head.self, line: lines[0]), let files = head.files.dictionary else { return nil }
        let cache = BuildCache(fingerprint: head.fingerprint, files: files, warnings: head.warnings)
        return whole ? cache.completed(lines) : cache
    }

    /// The whole cache of `bytes` whose first line gave `head` (``parse(_:whole:)`` with `whole:
    /// false`), the first line not decoded again.
    static func parse(_ bytes: [UInt8], after head: BuildCache) -> BuildCache? {
        RecordFile.lines(of: bytes, format: format, count: 3).flatMap { head.completed($0) }
    }

    /// This cache with what a rebuild takes again: the second and third of `lines`, decoded side
    /// by side on two cores; `nil` when either does not read.
    private func completed(_ lines: [ArraySlice<UInt8>]) -> BuildCache? {
        let decoded = Concurrently.map(2) { index -> Rest? in
            index == 0 ? RecordFile.value(UnitsLine.self, line: lines[1]).map(Rest.units) : RecordFile.value(PagesLine.self, line: lines[2]).map(Rest.pages)
        }
        guard case .units(let unitsLine)? = decoded[0], case .pages(let pagesLine)? = decoded[1],
              let inputs = unitsLine.inputs.dictionary, let units = unitsLine.units.dictionary,
              let pages = pagesLine.pages.dictionary, let keys = pagesLine.keys.dictionary,
              let statementDigests = pagesLine.statementDigests.dictionary, let hashes = pagesLine.hashes.dictionary else { return nil }
        var cache = self
        (cache.units, cache.inputs, cache.changes, cache.problems, cache.tool) = (units, inputs, unitsLine.changes, unitsLine.problems, unitsLine.tool)
        (cache.pages, cache.keys, cache.statementDigests, cache.hashes) = (pages, keys, statementDigests, hashes)
        return cache
    }

    /// The second or the third line, decoded.
    private enum Rest: Sendable {
        case units(UnitsLine)
        case pages(PagesLine)
    }

    /// The first line: what the "up to date" check reads. (Each dictionary as ``SortedColumns``.)
    private struct Head: Codable, Sendable {
        var fingerprint: String
        var files: SortedColumns<FileStamp>
        var warnings: [Diagnostic]
    }

    /// The second line, of what a rebuild takes again: the units, the data's digests, the changes.
    private struct UnitsLine: Codable, Sendable {
        var units: SortedColumns<Unit>
        var inputs: SortedColumns<String>
        var problems: [String]
        var tool: String
        var changes: ChangeSnapshot?
    }

    /// The third line: the pages' fingerprints and keys, the statements' files' hashes and digests.
    private struct PagesLine: Codable, Sendable {
        var pages: SortedColumns<String>
        var keys: SortedColumns<String>
        var statementDigests: SortedColumns<StatementDigest>
        var hashes: SortedColumns<String>
    }

    /// Whether `output` holds exactly what a build with this fingerprint wrote.
    public func isCurrent(in output: URL, fingerprint: String) -> Bool {
        guard fingerprint == self.fingerprint, !files.isEmpty,
              FileStamp(path: output.appendingPathComponent(SiteWriter.marker).path) != nil else { return false }
        for (path, stamp) in files where FileStamp(path: output.appendingPathComponent(path).path) != stamp {
            return false
        }
        return true
    }

    /// The cache as written, in pieces (``RecordFile/pieces(lines:format:)``): its three lines made
    /// side by side, on every core.
    public var pieces: [Data] {
        // The largest line first, so that two cores finish together.
        let lines = Concurrently.map(3) { [self] index -> Data in
            switch index {
            case 0:
                RecordFile.lineBytes(UnitsLine(units: SortedColumns(units), inputs: SortedColumns(inputs), problems: problems, tool: tool, changes: changes))
            case 1:
                RecordFile.lineBytes(PagesLine(pages: SortedColumns(pages), keys: SortedColumns(keys), statementDigests: SortedColumns(statementDigests),
                                               hashes: SortedColumns(hashes)))
            default:
                RecordFile.lineBytes(Head(fingerprint: fingerprint, files: SortedColumns(files), warnings: warnings))
            }
        }
        return RecordFile.pieces(lines: [lines[2], lines[0], lines[1]], format: Self.format)
    }

    /// The cache as written, as text.
    public var text: String { String(decoding: pieces.joined(), as: UTF8.self) }
}
