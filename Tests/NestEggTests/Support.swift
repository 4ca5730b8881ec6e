import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

/// The repository's root folder (for Fixtures/, Output/, Templates/ and Tests/Samples/): this
/// file is Tests/NestEggTests/Support.swift, two folders down from it.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The project's own API-shaped samples (Tests/Samples/README.md says which API each mirrors).
let samplesRoot = repositoryRoot.appendingPathComponent("Tests/Samples")

/// Parses JSON text as a document named `file`, with a fresh log.
func document(_ json: String, file: String = "test.json") -> (JSONDocument?, DiagnosticLog) {
    let log = DiagnosticLog()
    return (JSONDocument.parse(Array(json.utf8), file: file, log: log), log)
}

/// Parses a sample file from Tests/Samples (`path` relative to it).
func sample(_ path: String) throws -> (JSONDocument, DiagnosticLog) {
    let url = samplesRoot.appendingPathComponent(path)
    let data = try Data(contentsOf: url)
    let log = DiagnosticLog()
    guard let parsed = JSONDocument.parse([UInt8](data), file: path, log: log) else {
        throw SampleError(message: log.diagnostics.map(\.description).joined(separator: "\n"))
    }
    return (parsed, log)
}

/// The text of a file under Tests/Samples, as it is (for tests that lay samples out as a data folder).
func sampleText(_ path: String) throws -> String {
    try String(contentsOf: samplesRoot.appendingPathComponent(path), encoding: .utf8)
}

struct SampleError: Error, CustomStringConvertible { let message: String; var description: String { message } }

func gbp(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .gbp) }
func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

func feedItem(_ minor: Int64, _ time: String, direction: FeedItem.Direction = .out, status: FeedStatus = .settled,
              source: FeedSource = .masterCard, currency: Currency = .gbp, uid: String? = nil) -> FeedItem {
    FeedItem(uid: uid ?? "item-\(time)-\(minor)", amount: Money(minorUnits: minor, currency: currency), direction: direction,
             transactionTime: Instant(iso8601: time)!, status: status, source: source,
             counterPartyName: "Shop", reference: "REF", spendingCategory: "GROCERIES")
}

/// A temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

/// Every file under a folder, by relative path, with its bytes; the build cache (bookkeeping
/// that records modification times, not part of the site) is left out.
/// Every file of a site but the build cache and the "what changed" page (the one output that
/// depends on the build before, by design: a site built over another and one built fresh differ
/// there only).
func snapshot(_ root: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    for path in SiteWriter.listFiles(under: root) where path != BuildCache.fileName && !path.hasPrefix(ChangesReport.path + ".") {
        result[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
    }
    return result
}

/// `markdown` with its tables' padding taken out (`| a | b |`, `|:--|--:|`), for tests that look
/// for a row's content; the padding itself is MarkdownTablePaddingTests' concern.
func unpadded(_ markdown: String) -> String {
    markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
        guard line.hasPrefix("|"), let cells = MarkdownTablePadding.cells(String(line)) else { return String(line) }
        if let alignments = MarkdownTablePadding.delimiter(String(line)) {
            return "|" + alignments.map { alignment -> String in
                switch alignment {
                case .none: return "--"
                case .left: return ":--"
                case .right: return "--:"
                case .center: return ":-:"
                }
            }.joined(separator: "|") + "|"
        }
        return "|" + cells.map { $0.isEmpty ? " " : " \($0) " }.joined(separator: "|") + "|"
    }.joined(separator: "\n")
}

/// Every file of `a` and `b` (dotfiles included) but the "what changed" page and its tables,
/// compared byte for byte: the paths that differ, or are in one only. (The build cache lives
/// beside the output, never in it: a cache inside would differ, and fail the comparison.)
func siteDifferences(_ a: URL, _ b: URL) -> [String] {
    func files(_ root: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder)
            if !isFolder.boolValue && !path.hasPrefix(ChangesReport.path + ".") {
                found[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
            }
        }
        return found
    }
    let (left, right) = (files(a), files(b))
    #expect(left.count > 100)
    #expect(left.keys.contains { $0.hasPrefix(".") }, "the marker, a dotfile, is compared too")
    return Set(left.keys).union(right.keys).sorted().filter { left[$0] != right[$0] }
}
