import NestEggLoad
import NestEggModel
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

/// What a build is to do, resolved once from its options (``Build/plan()``): the steps read the
/// plan, not the options' flags.
struct BuildPlan {
    /// The data folder, listed.
    let folder: DataFolder
    /// Chromium, for `--pdf`.
    let printer: PDFPrinter?
    /// Whether the output folder is the plain site (no PDFs, no bundles, not a share), whatever
    /// files the build also writes beside it: it keeps a build cache, reuses unchanged pages and
    /// compares with the last build. (A share's folder is a part, rebuilt whole when its worker is retried.)
    let keepsCache: Bool
    /// Whether the build writes nothing beside the site but its cache, and so may stop at "up to date".
    let mayStopUpToDate: Bool
}

extension Build {
    /// The plan: every path checked before anything is read or written, what a killed build left
    /// behind repaired before anything looks at the output, and the options resolved once.
    func plan() throws(BuildError) -> BuildPlan {
        let destinations = Destinations(options)
        if let error = destinations.check(data: options.data, output: options.output, templates: options.templates,
                                          bundles: options.bundles) { throw error }
        try checkOutputFolder()
        try checkBundlesFolder()
        try checkTemplatesFolder()
        SiteWriter.recover(options.output)
        options.bundles.map(SiteWriter.recover)
        destinations.urls.forEach(StagedFile.recover(beside:))
        let printer = try locatePrinter()
        let folder = try openDataFolder(avoiding: [options.output] + [options.bundles].compactMap { $0 })
        // Input reached through a link may not lie in what the build replaces.
        let replaced = [("--output", options.output, true)] + (options.bundles.map { [("--bundles", $0, true)] } ?? [])
            + destinations.entries.map { ($0.option, $0.url, false) }
        let links = [Destinations.InputLinks(data: folder)] + [options.templates].compactMap { $0 }.map { Destinations.InputLinks(flat: $0, what: "templates") }
        if let error = Destinations.checkLinks(links, replaced: replaced) { throw error }
        if options.shard != nil, options.signingKey != nil {
            throw BuildError(step: .load, exitCode: .usage, diagnostics: [Diagnostic(.error, file: options.output.path,
                message: "--signing-key does not go with --shard: a share holds part of the statements manifest, and signs nothing;"
                    + " give the key to nestegg merge, which signs the whole manifest (with --part-key, to know the parts are the run's)")])
        }
        if options.shard == nil, options.census != nil {
            throw BuildError(step: .load, exitCode: .usage, diagnostics: [Diagnostic(.error, file: options.output.path,
                message: "--census goes with --shard: it stands for the feeds a share does not read")])
        }
        if options.shard == nil, options.partKey != nil {
            throw BuildError(step: .load, exitCode: .usage, diagnostics: [Diagnostic(.error, file: options.output.path,
                message: "--part-key goes with --shard (and with nestegg merge): it authenticates a share's part for the merge")])
        }
        if let error = checkSecretsOutside() { throw error }
        if options.shard != nil, !destinations.entries.isEmpty || options.pdf || options.bundles != nil {
            throw BuildError(step: .load, exitCode: .usage, diagnostics: [Diagnostic(.error, file: options.output.path,
                message: "--shard builds pages only: --pdf, --bundles, --single-file, --summary and --json go with a build on one machine")])
        }
        let keepsCache = printer == nil && options.bundles == nil && options.shard == nil
        // The folder of state beside the output, and the cache and the summaries, are nestegg's own, or nothing is touched.
        if let reason = BesideOutput.stateProblem(of: options.output) {
            throw BuildError(step: .write, exitCode: .cannotCreate, diagnostics: [Diagnostic(.error, file: StateFolder.of(options.output).path,
                message: "refusing to keep nestegg's state here (the folder beside the output for its cache and last site): \(reason)")])
        }
        if keepsCache {
            // (An explicit --cache that is not a regular file was refused above, by Destinations.)
            let problems = BesideOutput.problems(cache: options.cacheFile, summaries: options.summariesFolder,
                                                 option: options.cache == nil ? "the build cache beside the output" : "--cache")
            if !problems.isEmpty { throw BuildError(step: .write, exitCode: .cannotCreate, diagnostics: problems) }
        }
        // Every check passed: what an earlier nestegg kept beside the output moves into the folder
        // of state (not with a --cache of its own, which may name the earlier cache itself).
        if options.cache == nil { BesideOutput.adoptEarlierState(of: options.output) }
        return BuildPlan(folder: folder, printer: printer, keepsCache: keepsCache,
                         mayStopUpToDate: keepsCache && destinations.entries.allSatisfy { $0.option == Destinations.cacheOption })
    }
}

extension Build {
    /// The private key may lie in no folder the build reads or replaces (the output, the bundles,
    /// the data, the templates, the census, and the folder of state and summaries beside the output):
    /// a swap would move it into the spare and a later build delete it, or it would be published.
    /// Refused (exit 64), naming the folder.
    func checkSecretsOutside() -> BuildError? {
        let keys = [("--signing-key", options.signingKey?.file), ("--part-key", options.partKey?.file)].compactMap { option, file in file.map { (option, $0) } }
        guard !keys.isEmpty else { return nil }
        let folders: [(String, URL)] = [("output", options.output), ("data", options.data)]
            + [("bundles", options.bundles), ("templates", options.templates), ("census", options.census)].compactMap { name, url in url.map { (name, $0) } }
            + [("state", StateFolder.of(options.output)), ("summaries", options.summariesFolder),
               // (Where an earlier nestegg kept its spare site: a build moves it into the folder of state.)
               ("earlier spare site", options.output.deletingLastPathComponent().appendingPathComponent(".\(options.output.standardizedFileURL.lastPathComponent).nestegg-spare"))]
        for (option, file) in keys {
            if let error = Secrets.insideProblem(file, option: option, folders: folders) { return error }
        }
        return nil
    }
}

/// Where a secret (the issuer's private key, a run's part key) may not be: inside a folder nestegg
/// replaces or reads as input.
enum Secrets {
    /// The error for a key `file` (named by `option`) inside one of `folders` (each named by what it is); `nil` if none holds it.
    static func insideProblem(_ file: URL, option: String, folders: [(name: String, url: URL)]) -> BuildError? {
        let path = Destinations.resolved(file)
        for (name, folder) in folders where Destinations.path(path, isWithin: Destinations.resolvedFolder(folder)) {
            return BuildError(step: .write, exitCode: .usage, diagnostics: [Diagnostic(.error, file: file.path, message:
                "\(option): refusing a key inside the \(name) folder \(folder.path), which nestegg replaces or reads: the key would be lost or published; keep it outside")])
        }
        return nil
    }
}
