import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

/// What a build writes about its statements besides their pages: the manifest that lists each one
/// with its digest and the SHA-256 of its files: of the bytes that will be swapped in, as the
/// writer hashed them while writing (``SiteWriter/Hashing``), or read back from the staging folder
/// for a file it did not write itself (a PDF a printer wrote, a file placed from a part).
extension Build {
    /// Writes `<folder>manifest.json` for `records`, whose files are `<record.path>.md`, `.html`,
    /// `.csv`, `.camt053.xml` and, with `pdf`, `.pdf` in `writer`; paths in the manifest are relative to `folder` (a folder
    /// of the writer, `""` or ending in `/`, that holds the files).
    /// - Returns: the SHA-256 of each file the manifest lists, by site path (for the build cache).
    @discardableResult
    func writeManifest(_ records: [StatementRecord], folder: String, pdf: Bool, dataAsOf: CivilDate?,
                       into writer: SiteWriter, known: KnownHashes? = nil) throws(BuildError) -> [String: String] {
        try writeManifestEntries(records, folder: folder, pdf: pdf, dataAsOf: dataAsOf, into: writer, known: known).hashes
    }

    /// ``writeManifest(_:folder:pdf:dataAsOf:into:known:)``, also giving its entries.
    func writeManifestEntries(_ records: [StatementRecord], folder: String, pdf: Bool, dataAsOf: CivilDate?,
                              into writer: SiteWriter, known: KnownHashes? = nil) throws(BuildError)
        -> (hashes: [String: String], entries: [StatementManifest.Entry]) {
        let entries = try manifestEntries(records, folder: folder, pdf: pdf, into: writer, known: known)
        let others = try Self.otherFiles(in: writer, folder: folder, listed: Set(entries.flatMap { $0.files.map(\.path) }))
        // (Without hashes from the cache, every entry was hashed from the staged bytes just now.)
        try Self.writeManifest(StatementManifest.render(entries, dataAsOf: dataAsOf, otherFiles: others), folder: folder,
                               signingKey: options.signingKey, into: writer, checked: known == nil)
        return (Self.hashes(of: entries, folder: folder), entries)
    }

    /// The SHA-256 of each file the entries list, by site path.
    static func hashes(of entries: [StatementManifest.Entry], folder: String) -> [String: String] {
        var hashes: [String: String] = [:]
        for entry in entries {
            for file in entry.files { hashes[folder + file.path] = file.sha256 }
        }
        return hashes
    }

    /// The site's statements manifest when the statements of the accounts held as summaries
    /// (``Units``) are not in `site`: their entries are the last build's (`held`, their JSON text,
    /// in the manifest's order), and fill the places the statements mapped here leave, as a
    /// merge fills them from the parts' records. - Returns: the hashes and the entries of the statements mapped here.
    func writeManifest(_ site: Site, held: [String], into writer: SiteWriter, known: KnownHashes?) throws(BuildError)
        -> (hashes: [String: String], entries: [StatementManifest.Entry]) {
        let folder = StatementsReport.section.id + "/"
        let entries = try manifestEntries(site.statements, folder: folder, pdf: false, into: writer, known: known)
        var texts = [String?](repeating: nil, count: site.statementCount)
        for (place, entry) in zip(site.statementPlaces, entries) where texts.indices.contains(place) { texts[place] = StatementManifest.text(of: entry) }
        var carried = held.makeIterator()
        for place in texts.indices where texts[place] == nil { texts[place] = carried.next() }
        guard carried.next() == nil, texts.allSatisfy({ $0 != nil }), site.statementPlaces.count == entries.count else {
            throw Self.unitsFallback("the last build's statements do not fill the manifest")
        }
        var listed = Set(entries.flatMap { $0.files.map(\.path) })
        for text in held { listed.formUnion(Merge.paths(inEntry: text)) }
        let others = try Self.otherFiles(in: writer, folder: folder, listed: listed)
        try Self.writeManifest(StatementManifest.assemble(head: StatementManifest.head(dataAsOf: site.dataAsOf), entries: texts.map { $0! },
                                                          otherFiles: others),
                               folder: folder, signingKey: options.signingKey, into: writer)
        return (Self.hashes(of: entries, folder: folder), entries)
    }

    /// The manifest's `text` at `<folder>manifest.json`, and with `signingKey` its signature
    /// beside it (``ManifestSignature``), over the very bytes written.
    /// Signing means "I checked this": every file the manifest lists is hashed from the staged
    /// bytes about to be published, and any that differs from what the manifest says (as a
    /// part's record or the build cache claimed it) stops the signing (``BuildError/signingRefused``, exit 65).
    /// (`checked`: the caller has just compared every listed file with the staged bytes itself.)
    static func writeManifest(_ text: String, folder: String, signingKey: ManifestSignature.SigningKey?,
                              into writer: SiteWriter, checked: Bool = false) throws(BuildError) {
        if signingKey != nil, !checked {
            let differing = differences(manifest: text, folder: folder, in: writer)
            if !differing.isEmpty {
                var error = BuildError(step: .write, exitCode: .dataError, diagnostics: differing.prefix(20).map { difference in
                    Diagnostic(.error, file: folder + difference.path, message: "refusing to sign the statements manifest: "
                        + (difference.actual.map { "this file's SHA-256 is \($0), not the \(difference.listed) its entry claims" } ?? "this file it lists cannot be read"))
                })
                error.signingRefused = true
                throw error
            }
        }
        try writeError { () throws(SiteWriter.WriteError) in try writer.write(text, to: folder + StatementManifest.fileName) }
        guard let signingKey else { return }
        let signature: String
        do { signature = try signingKey.signatureText(for: Array(text.utf8)) } catch {
            throw BuildError(step: .write, exitCode: .software,
                             diagnostics: [Diagnostic(.error, file: folder + StatementManifest.fileName, message: "cannot sign the manifest: \(error)")])
        }
        try writeError { () throws(SiteWriter.WriteError) in try writer.write(signature, to: folder + ManifestSignature.fileName) }
    }

    /// The files a manifest's `text` lists (its statements' and its other files, relative to
    /// `folder`) whose staged bytes are not what it says: each with the SHA-256 listed and the one
    /// hashed (`nil`: not readable), on every core, a file read a piece at a time.
    /// (A manifest that does not read, or lists a path out of its folder, differs as a whole.)
    static func differences(manifest text: String, folder: String, in writer: SiteWriter) -> [(path: String, listed: String, actual: String?)] {
        guard let listed = listedFiles(manifest: text), listed.allSatisfy({ PartRecord.isInside($0.path) }) else {
            return [(StatementManifest.fileName, "manifest's", nil)]
        }
        let hashed = stagedHashes(listed.map { folder + $0.path }, in: writer, asWritten: false)
        return zip(listed, hashed).filter { $0.0.sha256 != $0.1 }.map { ($0.0.path, $0.0.sha256, $0.1) }
    }

    /// The SHA-256 of each of `paths` as staged in `writer`, on every core: read back a piece at a
    /// time, or (`asWritten`) as the writer hashed it writing it; `nil` for a file that cannot be read.
    static func stagedHashes(_ paths: [String], in writer: SiteWriter, asWritten: Bool) -> [String?] {
        Concurrently.map(paths.count) { index -> String? in
            if asWritten, let known = writer.hash(of: paths[index]) { return known }
            return try? FileBytes.sha256(writer.stagedURL(paths[index]).path).get()
        }
    }

    /// ``stagedHashes(_:in:asWritten:)`` by path, as written; a file that cannot be read is the build's fault (exit 70).
    static func stagedHashes(_ paths: [String], in writer: SiteWriter) throws(BuildError) -> [String: String] {
        let hashed = stagedHashes(paths, in: writer, asWritten: true)
        var hashes: [String: String] = [:]
        for (path, hash) in zip(paths, hashed) {
            guard let hash else {
                throw BuildError(step: .write, exitCode: .software, diagnostics: [Diagnostic(.error, file: path, message: "cannot read the file back to hash it")])
            }
            hashes[path] = hash
        }
        return hashes
    }

    /// The files a manifest's text lists, its statements' then its other files, with their SHA-256
    /// (a file named without both is listed with an empty hash, which no file has); `nil` when the
    /// text is not JSON.
    static func listedFiles(manifest text: String) -> [StatementManifest.File]? {
        let log = DiagnosticLog()
        guard let manifest = JSONDocument.parse(Array(text.utf8), file: StatementManifest.fileName, log: log)?.value else { return nil }
        let files = (manifest["statements"]?.array ?? []).flatMap { $0["files"]?.array ?? [] } + (manifest["otherFiles"]?.array ?? [])
        return files.map { StatementManifest.File(path: $0["path"]?.string ?? "", sha256: $0["sha256"]?.string ?? "") }
    }

    /// Every file staged under `folder` but those in `listed` (the statements' files, relative to
    /// `folder`) and the manifest and its signature, with its SHA-256, in path order: what the
    /// manifest lists as `otherFiles`, so that the folder holds nothing it does not list.
    static func otherFiles(in writer: SiteWriter, folder: String, listed: Set<String>) throws(BuildError) -> [StatementManifest.File] {
        let own: Set<String> = [StatementManifest.fileName, ManifestSignature.fileName]
        var files: [StatementManifest.File] = []
        for path in writer.stagedFiles(under: folder).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where !listed.contains(path) && !own.contains(path) {
            if let hash = writer.hash(of: folder + path) {
                files.append(.init(path: path, sha256: hash))
                continue
            }
            guard case .success(let bytes) = FileBytes.read(writer.stagedURL(folder + path).path) else {
                throw BuildError(step: .write, exitCode: .software,
                                 diagnostics: [Diagnostic(.error, file: folder + path, message: "cannot read the file back to hash it for the manifest")])
            }
            files.append(.init(path: path, sha256: StatementDigest.sha256(bytes)))
        }
        return files
    }

    /// The hashes a rebuild need not work out again: those the last build recorded for files of
    /// pages this build kept as they were (``PageReuse``), whose stamps were checked then.
    struct KnownHashes {
        let previous: [String: String]
        let kept: Set<String>

        /// The hash of the file at `path` (a kept page's `.md` or `.html`), if known.
        func hash(of path: String) -> String? {
            guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")), kept.contains(String(path[..<dot])) else { return nil }
            return previous[path]
        }
    }

    /// Each record with the SHA-256 of its files, read back from the staging folder (or, for a
    /// file kept from the last build, as `known` recorded it).
    func manifestEntries(_ records: [StatementRecord], folder: String, pdf: Bool, into writer: SiteWriter,
                         known: KnownHashes? = nil) throws(BuildError) -> [StatementManifest.Entry] {
        let extensions = ["md", "html"] + StatementData.Format.allCases.map(\.fileExtension) + (pdf ? ["pdf"] : [])
        // Hashed on every core; a file that cannot be read back is the build's fault, not the data's.
        let hashed = Concurrently.map(records.count) { index -> Result<StatementManifest.Entry, BuildError> in
            var files: [StatementManifest.File] = []
            for ext in extensions {
                let path = records[index].path + "." + ext
                if path.hasPrefix(folder), let hash = known?.hash(of: path) ?? writer.hash(of: path) {
                    files.append(.init(path: String(path.dropFirst(folder.count)), sha256: hash))
                    continue
                }
                guard path.hasPrefix(folder), case .success(let bytes) = FileBytes.read(writer.stagedURL(path).path) else {
                    return .failure(BuildError(step: .write, exitCode: .software,
                                               diagnostics: [Diagnostic(.error, file: path, message: "cannot read the statement back to hash it")]))
                }
                files.append(.init(path: String(path.dropFirst(folder.count)), sha256: StatementDigest.sha256(bytes)))
            }
            return .success(.init(record: records[index], files: files))
        }
        var entries: [StatementManifest.Entry] = []
        for result in hashed {
            switch result {
            case .success(let entry): entries.append(entry)
            case .failure(let error): throw error
            }
        }
        return entries
    }
}

/// `--bundles DIR`: the bundles are written into a folder of their own, with the same rules as the
/// output folder (marked as nestegg's, never one nestegg did not write, staged and swapped in
/// whole), and committed with the site.
extension Build {
    /// The bundles folder may be neither the output folder nor inside it, nor hold it (one swap
    /// would throw the other away), and must be one nestegg may replace, as `--output` must.
    func checkBundlesFolder() throws(BuildError) {
        guard let bundles = options.bundles else { return }
        let path = Destinations.resolvedFolder(bundles), output = Destinations.resolvedFolder(options.output)
        let reason: String? = path == output ? "it is the output folder"
            : Destinations.path(path, isWithin: output) ? "it is inside the output folder \(options.output.path), which the build replaces whole"
            : Destinations.path(output, isWithin: path) ? "it holds the output folder \(options.output.path)"
            : nil
        if let reason {
            throw BuildError(step: .write, exitCode: .usage,
                             diagnostics: [Diagnostic(.error, file: bundles.path, message: "--bundles: refusing to write here: \(reason)")])
        }
        try Self.writeError { () throws(SiteWriter.WriteError) in
            try SiteWriter.checkOutputIsOurs(bundles, protecting: inputFolders)
        }
    }

    func openBundlesWriter() throws(BuildError) -> SiteWriter {
        try Self.writeError { () throws(SiteWriter.WriteError) in
            // The bundles' manifest at the top of the folder lists every file in it.
            try SiteWriter(output: options.bundles!, protecting: inputFolders, hashing: Self.manifestHashing(under: ""))
        }
    }

    /// Each bundle's pages (rendered on every core), its stylesheet, its PDFs with `printer`, and
    /// its manifest; then the manifest of them all at the top of the folder.
    func writeBundles(_ bundles: [StatementBundles.Bundle], templates: TemplateLibrary, printer: PDFPrinter?,
                      into writer: SiteWriter) throws(BuildError) {
        let renderers = bundles.map { bundle in
            var site = bundle.site
            site.statementPDFs = printer != nil
            return PageRenderer(templates: templates, site: site)
        }
        let pages = bundles.indices.flatMap { bundle in bundles[bundle].site.pages.indices.map { (bundle, $0) } }
        if let error = Concurrently.firstFailure(pages.count, { index in
            let (bundle, page) = pages[index]
            return Self.renderAndWrite(bundles[bundle].site.pages[page], renderers[bundle], writer, prefix: bundles[bundle].slug + "/")
        }) { throw error }
        var all: [StatementRecord] = []
        for bundle in bundles {
            let folder = bundle.slug + "/"
            try Self.writeError { () throws(SiteWriter.WriteError) in try writer.write(templates.stylesheet, to: folder + "style.css") }
            if let printer { try printPDFs(bundle.site, with: printer, into: writer, prefix: folder) }
            let records = bundle.records.map { $0.moved(under: folder) }
            try writeManifest(records, folder: folder, pdf: printer != nil, dataAsOf: bundle.site.dataAsOf, into: writer)
            all += records
        }
        try writeManifest(all, folder: "", pdf: printer != nil, dataAsOf: bundles.first?.site.dataAsOf, into: writer)
        let statements = all.count
        progress("bundles: \(bundles.count) folder\(bundles.count == 1 ? "" : "s"), \(statements) statement\(statements == 1 ? "" : "s")"
                 + (printer == nil ? "" : " printed"))
    }
}

extension StatementRecord {
    /// The same statement, its page under `prefix` (a folder, ending in `/`).
    func moved(under prefix: String) -> StatementRecord {
        StatementRecord(account: account, month: month, period: period, status: status, through: through, opening: opening,
                        closing: closing, digest: digest, path: prefix + path)
    }
}
