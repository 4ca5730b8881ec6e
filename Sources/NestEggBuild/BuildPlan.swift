import NestEggLoad
import NestEggModel
import NestEggRender
import NestEggSupport
import NestEggWrite
import Foundation

/// What a build is to do, resolved once from its options (``Build/plan()``): the steps read the
/// plan, not the options' flags.
struct BuildPlan {
    /// Where the build writes besides the output folder (`--single-file`, `--summary`, `--json`, `--cache`).
    let destinations: Destinations
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
        // Every path is checked before anything is read or written, and what a killed build
        // left behind is repaired before anything looks at the output.
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
        if options.shard != nil, !destinations.entries.isEmpty || options.pdf || options.bundles != nil {
            throw BuildError(step: .load, exitCode: .usage, diagnostics: [Diagnostic(.error, file: options.output.path,
                message: "--shard builds pages only: --pdf, --bundles, --single-file, --summary and --json go with a build on one machine")])
        }
        // The output folder of a build without PDFs, bundles or a share is the plain site, whatever
        // files it also writes beside it (--summary, --json, --single-file): it keeps a build cache,
        // reuses unchanged pages and compares with the last build. Only a build with nothing beside
        // it may stop at "up to date". (A share's folder is a part, rebuilt whole when its worker is retried.)
        let keepsCache = printer == nil && options.bundles == nil && options.shard == nil
        return BuildPlan(destinations: destinations, folder: folder, printer: printer, keepsCache: keepsCache,
                         mayStopUpToDate: keepsCache && destinations.entries.allSatisfy { $0.option == Destinations.cacheOption })
    }
}
