import Foundation
import NestEggLoad
import NestEggRender
import NestEggReport
import NestEggSupport
import NestEggWrite

/// `nestegg merge PART... --output DIR`: the shares of a sharded build (`build --shard K/N`) put
/// together into one site, byte for byte what `nestegg build` writes from the same data (the
/// "what changed" page aside, which depends on the build before). The parts must belong together —
/// the same data and templates, the same N, every share once, each finished — or nothing is
/// written (exit 65, naming the part); so is a part that lacks a file its record lists, holds a
/// link in its place or cannot be read, and a file two parts list. The site is staged and swapped in like a build's, its pages
/// hard-linked from the parts (``NestEggWrite/SiteWriter/place(_:at:)``).
public struct Merge {
    public let parts: [URL]
    public let output: URL
    public var progress: (String) -> Void = { _ in }
    /// The issuer's private key: the merged statements manifest is signed with it (``ManifestSignature``),
    /// only with ``partKey``: a merge signs only parts it authenticates.
    public var signingKey: ManifestSignature.SigningKey?
    /// The run's part key (``PartKey``): every part's record must be authenticated with it.
    public var partKey: PartKey?

    public init(parts: [URL], output: URL) {
        self.parts = parts
        self.output = output
    }

    public func run() throws(BuildError) -> BuildResult {
        // Signing means "I checked this": a part's record is no authority unless the run's key authenticates it.
        if signingKey != nil, partKey == nil {
            throw BuildError(step: .merge, exitCode: .usage, diagnostics: [Diagnostic(.error, file: output.path, message:
                "--signing-key needs --part-key: the merge signs only parts it can authenticate (anyone who can write a part could"
                + " otherwise put a statement under the issuer's signature); make a key with nestegg keygen --part-key --out FILE,"
                + " give it to every build --shard and to this merge")])
        }
        for (name, key) in [("--signing-key", signingKey?.file), ("--part-key", partKey?.file)] {
            guard let key else { continue }
            if let error = Secrets.insideProblem(key, option: name, folders: [("output", output)] + parts.map { ("part", $0) }) { throw error }
        }
        var records: [(URL, PartRecord)] = []
        var problems: [Diagnostic] = []
        for part in parts {
            let path = part.appendingPathComponent(PartRecord.fileName).path
            switch FileBytes.read(path) {
            case .success(let bytes):
                if let record = PartRecord(text: String(decoding: bytes, as: UTF8.self)) {
                    if let partKey, let why = record.unauthenticated(by: partKey) {
                        problems.append(Diagnostic(.error, file: path, message: "\(why): not merged with --part-key \(partKey.file?.path ?? "")"))
                    } else if let outside = record.entries.lazy.flatMap({ Self.paths(inEntry: $0.entry) }).first(where: {
                        !PartRecord.isInside($0) || record.hashes[Self.folder + $0] == nil }) {
                        problems.append(Diagnostic(.error, file: path, message: "a statement's manifest entry lists \(outside), which is not a file of the part"))
                    } else if let unhashed = record.files.first(where: { $0.hasPrefix(Self.folder) && record.hashes[$0] == nil }) {
                        problems.append(Diagnostic(.error, file: path, message: "its record gives no SHA-256 of \(unhashed), a file of the statements"))
                    } else {
                        records.append((part, record))
                    }
                } else {
                    problems.append(Diagnostic(.error, file: path, message: "not a part record this nestegg wrote"))
                }
            case .failure(let failure):
                problems.append(Diagnostic(.error, file: part.path,
                                           message: "not a finished part of a sharded build (\(PartRecord.fileName): \(failure.reason))"))
            }
        }
        problems += Shard.problems(of: records.map { ($0.0.path, $0.1.shard) }, differs: { place in
            let (record, first) = (records[place].1, records[0].1)
            return record.fingerprint != first.fingerprint ? "built from other data or templates than \(records[0].0.path)"
                : record.statementCount != first.statementCount || record.manifestHead != first.manifestHead || record.baseURL != first.baseURL
                ? "its statements manifest or the site's address does not agree with \(records[0].0.path)'s" : nil
        }, missing: { share in Diagnostic(.error, file: output.path, message: "share \(share) is missing") })
        guard problems.isEmpty, !records.isEmpty else {
            throw BuildError(step: .merge, exitCode: .dataError,
                             diagnostics: problems.isEmpty ? [Diagnostic(.error, file: output.path, message: "no parts to merge")] : problems)
        }
        records.sort { $0.1.shard.index < $1.1.shard.index }
        // Each file of the site from one part, and none the merge writes itself: a file listed
        // twice is the parts' to answer for, not the output's.
        let own = ["statements/" + StatementManifest.fileName, "sitemap.xml"]
        var lister: [String: URL?] = Dictionary(uniqueKeysWithValues: own.map { ($0, nil) })
        for (part, record) in records {
            for file in record.files where file != BuildCache.fileName && file != PartRecord.fileName {
                guard let other = lister.updateValue(part, forKey: file) else { continue }
                problems.append(Diagnostic(.error, file: part.path, message: "lists \(file), which " + (other.map {
                    $0 == part ? "it lists twice" : "\($0.path) lists too" } ?? "the merge writes")))
            }
        }
        // Nor a file where another's folder is (`404.html` and `404.html/x`).
        for file in lister.keys.sorted() where problems.count < 20 {
            let part = lister[file] ?? nil
            var folder = file[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard let other = lister[String(folder)] else { continue }
                // (`part` is nil for a file the merge writes itself: then the part that lists the folder is named.)
                let lister = part ?? other
                problems.append(Diagnostic(.error, file: lister?.path ?? output.path, message: part == nil
                    ? "lists \(folder) as a file, where the merge writes \(file)"
                    : "lists \(file), inside \(folder), which " + (other.map { "\($0.path) lists as a file" } ?? "the merge writes")))
                break
            }
        }
        if !problems.isEmpty { throw BuildError(step: .merge, exitCode: .dataError, diagnostics: Array(problems.prefix(20))) }

        SiteWriter.recover(output)
        let writer: SiteWriter
        do { writer = try SiteWriter(output: output, protecting: parts) } catch {
            throw BuildError(writing: error)
        }
        // Stopped by a signal before the swap, the merge removes its staging folder (Termination).
        let stagedWork = Termination.removeOnStop(Build.stagingFolder(of: writer))
        defer { stagedWork.end() }
        // Each statement's manifest entry, by its place: every place from one part, once.
        var entries: [Int: String] = [:]
        do {
            for (part, record) in records {
                // Each page is hard-linked from its part (copied where the disk cannot link), never read and written again.
                let files = record.files.filter { $0 != BuildCache.fileName && $0 != PartRecord.fileName }
                // Each folder on the way is a folder of the part, not a link out of it.
                var folders: Set<Substring> = []
                for file in files {
                    var folder = file[...]
                    while let slash = folder.lastIndex(of: "/") {
                        folder = folder[..<slash]
                        guard folders.insert(folder).inserted else { break }
                        var status = stat()
                        guard lstat(part.path + "/" + folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                            writer.discard()
                            throw Self.notWhole(part, path: part.path + "/" + folder, "the folder of files its record lists is not a folder there")
                        }
                    }
                }
                // A merge that signs copies the files: a link shares its bytes with the part, whose
                // writer could change them after they were checked.
                let copying = signingKey != nil
                if let failure = Concurrently.firstFailure(files.count, { index -> SiteWriter.WriteError? in
                    do throws(SiteWriter.WriteError) { try writer.place(part.path + "/" + files[index], at: files[index], copying: copying) } catch { return error }
                    return nil
                }) {
                    writer.discard()
                    // A file the record lists that is missing from the part, is not what nestegg
                    // wrote (a link) or cannot be read is the part's fault, not the output's.
                    if failure.ofSource {
                        throw Self.notWhole(part, path: failure.path, "a file its record lists is not there, not a regular file or not readable (\(failure.reason))")
                    }
                    throw BuildError(writing: failure)
                }
                for entry in record.entries where entries.updateValue(entry.entry, forKey: entry.place) != nil {
                    writer.discard()
                    throw BuildError(step: .merge, exitCode: .dataError, diagnostics: [
                        Diagnostic(.error, file: part.path, message: "statement \(entry.place + 1) of the manifest is in two parts' records")])
                }
            }
            // Every file of the statements, as placed, is the one its part's record hashed, and every
            // entry lists those hashes: what the manifest lists, and a signature covers, is these bytes.
            for (part, record) in records {
                let problems = Self.checkStatements(of: part, record, placed: writer)
                if !problems.isEmpty {
                    writer.discard()
                    throw BuildError(step: .merge, exitCode: .dataError, diagnostics: problems)
                }
            }
            let count = records[0].1.statementCount
            // (Each place is below the count, checked as the record was read: as many entries as places is every place.)
            guard entries.count == count else {
                writer.discard()
                throw BuildError(step: .merge, exitCode: .dataError,
                                 diagnostics: [Diagnostic(.error, file: output.path, message: "the parts do not hold every statement's manifest entry")])
            }
            if count > 0 {
                // The statements' paths, for the files the manifest lists besides them.
                let folder = "statements/"
                let texts = (0..<count).map { entries[$0]! }
                var listed: Set<String> = []
                for text in texts { listed.formUnion(Self.paths(inEntry: text)) }
                do throws(BuildError) {
                    let others = try Build.otherFiles(in: writer, folder: folder, listed: listed)
                    let manifest = StatementManifest.assemble(head: records[0].1.manifestHead, entries: texts, otherFiles: others)
                    try Build.writeManifest(manifest, folder: folder, signingKey: signingKey, into: writer, checked: true)
                } catch {
                    writer.discard()
                    throw error
                }
            }
            // The site map, of every part's pages (a share lists only its own): each `.html` file
            // but the page for missing addresses, which is no page of the site.
            if let baseURL = records[0].1.baseURL {
                let pages = records.flatMap { $0.1.files }.filter { $0.hasSuffix(".html") && $0 != SiteMeta.notFoundPath + ".html" }
                try writer.write(SiteMeta.sitemap(paths: pages.map { String($0.dropLast(".html".count)) }, baseURL: baseURL), to: "sitemap.xml")
            }
        } catch let error as SiteWriter.WriteError {
            writer.discard()
            throw BuildError(writing: error)
        } catch let error as BuildError {
            throw error
        } catch {
            writer.discard()
            throw BuildError(step: .write, exitCode: .software, diagnostics: [Diagnostic(.error, file: output.path, message: "\(error)")])
        }
        // The swap is not cut in two by a stop: one that comes meanwhile waits for it.
        let summary = try Termination.holding { () throws(BuildError) -> SiteWriter.Summary in
            let swap: SiteWriter.Swap
            do throws(SiteWriter.WriteError) { swap = try writer.commit() } catch {
                writer.discard()
                throw BuildError(writing: error)
            }
            stagedWork.end()
            return swap.finished()
        }
        progress("merge: \(records.count) parts, \(summary.files) files, \(summary.changed) changed, \(summary.removed) removed")
        return BuildResult(pages: records.reduce(0) { $0 + $1.1.files.filter { $0.hasSuffix(".html") }.count }, write: summary, warnings: [])
    }

    /// The statements' folder of the site, whose files a part's record hashes.
    static let folder = StatementsReport.section.id + "/"

    /// Why `part`'s statements' files, as placed in `writer`, are not those its record hashes, or
    /// its entries list other hashes than its record's: each file named in the part (at most 20).
    static func checkStatements(of part: URL, _ record: PartRecord, placed writer: SiteWriter) -> [Diagnostic] {
        let paths = record.files.filter { $0.hasPrefix(folder) }
        // (A file that cannot be read back has no hash, and is named below.)
        let hashes = (try? Build.stagedHashes(paths, in: writer)) ?? [:]
        var problems: [Diagnostic] = []
        for path in paths where hashes[path] != record.hashes[path] && problems.count < 20 {
            problems.append(Diagnostic(.error, file: part.path + "/" + path, message: "its SHA-256 is \(hashes[path] ?? "?"), not the "
                + "\(record.hashes[path] ?? "?") its part's record lists: the part \(part.path) is damaged or was changed after its share wrote it; build its share again"))
        }
        for entry in record.entries {
            for file in files(inEntry: entry.entry) where record.hashes[folder + file.path] != file.sha256 {
                problems.append(Diagnostic(.error, file: part.path + "/" + folder + file.path,
                                           message: "its statement's manifest entry lists another SHA-256 than its part's record: the record does not hold together"))
            }
        }
        return problems
    }

    /// The paths of the files one statement's manifest entry (its JSON text) lists.
    static func paths(inEntry text: String) -> [String] { files(inEntry: text).map(\.path) }

    /// The files one statement's manifest entry lists, with the SHA-256 it gives each.
    static func files(inEntry text: String) -> [StatementManifest.File] {
        let log = DiagnosticLog()
        guard let entry = JSONDocument.parse(Array(text.utf8), file: PartRecord.fileName, log: log)?.value else { return [] }
        return (entry["files"]?.array ?? []).compactMap { file in
            file["path"]?.string.map { StatementManifest.File(path: $0, sha256: file["sha256"]?.string ?? "") }
        }
    }

    /// A part that lacks what its record lists, or holds something else in its place: exit 65, naming it.
    static func notWhole(_ part: URL, path: String, _ problem: String) -> BuildError {
        BuildError(step: .merge, exitCode: .dataError, diagnostics: [Diagnostic(.error, file: path,
            message: "\(problem): the part \(part.path) is not whole; build its share again")])
    }
}
