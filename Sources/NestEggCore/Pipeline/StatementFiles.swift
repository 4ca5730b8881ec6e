import Foundation

/// What a build writes about its statements besides their pages: the manifest that lists each one
/// with its digest and the SHA-256 of its files (read back from the staging folder, so the hashes
/// are of the bytes that will be swapped in).
extension Build {
    /// Writes `<folder>manifest.json` for `records`, whose files are `<prefix><record.path>.md`,
    /// `.html` and, with `pdf`, `.pdf` in `writer`; paths in the manifest are relative to `folder`
    /// (a folder of the writer, `""` or ending in `/`, that holds the files).
    func writeManifest(_ records: [StatementRecord], prefix: String = "", folder: String, pdf: Bool, dataAsOf: CivilDate?,
                       into writer: SiteWriter) throws(BuildError) {
        let extensions = pdf ? ["md", "html", "pdf"] : ["md", "html"]
        var entries: [StatementManifest.Entry] = []
        for record in records {
            var files: [StatementManifest.File] = []
            for ext in extensions {
                let path = prefix + record.path + "." + ext
                guard path.hasPrefix(folder), case .success(let bytes) = DataFolder.read(writer.stagedURL(path).path) else {
                    throw BuildError(step: .write, exitCode: .software,
                                     diagnostics: [Diagnostic(.error, file: path, message: "cannot read the statement back to hash it")])
                }
                files.append(.init(path: String(path.dropFirst(folder.count)), sha256: StatementDigest.sha256(bytes)))
            }
            entries.append(.init(record: record, files: files))
        }
        try Self.writeError { () throws(SiteWriter.WriteError) in
            try writer.write(StatementManifest.render(entries, dataAsOf: dataAsOf), to: folder + StatementManifest.fileName)
        }
    }
}
