import ArgumentParser
import Foundation
import NestEggBuild
import NestEggFetch
import NestEggSupport
import NestEggSynthetic

@main
struct NestEgg: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nestegg",
        abstract: "Static reports for personal-finance data: JSON in, Markdown and HTML out.",
        discussion: """
            Reads accounts, transactions, savings goals, loans and transfers from a data folder in \
            the shapes their APIs return, and writes a static site: every report as Markdown and as HTML.

            Exit codes: 0 success, 64 usage, 65 bad data (or, for verify, a file that differs from \
            its manifest), 66 no data folder (or no manifest), 69 Chromium not found (--pdf) or an \
            API unavailable (fetch), 73 output not writable, 76 an API's answer of the wrong shape, \
            77 a token missing or refused (fetch), 78 bad template.
            """,
        version: NestEggVersion.current,
        subcommands: [BuildCommand.self, CheckCommand.self, VerifyCommand.self, KeygenCommand.self, FetchCommand.self, ServeCommand.self, CensusCommand.self, MergeCommand.self, FixturesCommand.self],
        defaultSubcommand: BuildCommand.self
    )

    /// Parses and runs the command as ArgumentParser does, after the raw command line is checked
    /// (``RawArguments``: a path that is not UTF-8 is refused, never rewritten) and with SIGTERM and
    /// SIGINT handled (``Termination``): nestegg stops cleanly on them whatever its process id, PID 1 included.
    static func main() async {
        RawArguments.refuseNonUTF8()
        Termination.install()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options every command that reads data shares.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data folder: starling/, qapital/, transactions/, kiva/, transfers/, nestegg.json.", valueName: "dir"))
    var data: String = "Fixtures"

    func validate() throws {
        if data.isEmpty { throw ValidationError("--data needs a folder (an empty path names none)") }
    }
}

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site from a data folder.",
        discussion: """
            Nothing in the output folder changes unless the whole build succeeds; files whose \
            content did not change keep their modification time, and pages no longer produced \
            are removed. The output folder belongs to nestegg: do not keep other files in it.
            """
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(name: .long, help: ArgumentHelp("Where the site is written (replaced as a whole).", valueName: "dir"))
    var output: String = "Output"

    @Option(name: .long, help: ArgumentHelp(
        "A folder of templates that replace the built-in ones by file name (layout.html.mustache, index.md.mustache, style.css, …).",
        valueName: "dir"))
    var templates: String?

    @Option(name: .customLong("single-file"), help: ArgumentHelp(
        "Also write every report into this one self-contained HTML file (CSS and charts inline, links as in-page anchors).",
        valueName: "file"))
    var singleFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also write a short GitHub-flavoured Markdown digest here (for $GITHUB_STEP_SUMMARY).", valueName: "file"))
    var summary: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also write the headline figures here as JSON (schema: docs/totals.schema.json, version 1).", valueName: "file"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also write, per account, a folder here with only its statements, round-ups and a manifest, for its customer (replaced as a whole).",
        valueName: "dir"))
    var bundles: String?

    @Option(name: .long, help: ArgumentHelp(
        "Where the build keeps its cache, which lets a rebuild render only what changed, with the accounts' summaries in FILE.units (default: .<output>.nestegg/cache, in the folder of state beside the output; never inside it).",
        valueName: "file"))
    var cache: String?

    @Option(name: .customLong("signing-key"), help: ArgumentHelp(
        "The issuer's private key (nestegg keygen; readable by its owner only): sign each statements manifest (manifest.json.sig).",
        valueName: "file"))
    var signingKey: String?

    @Option(name: .customLong("part-key"), help: ArgumentHelp(
        "With --shard or --shards: the run's part key (nestegg keygen --part-key), which authenticates the part for a merge that signs.",
        valueName: "file"))
    var partKey: String?

    @Flag(name: .long, help: "Also write each statement as a PDF beside its HTML, printed with headless Chromium.")
    var pdf = false

    @Option(name: .long, help: ArgumentHelp("The Chromium executable for --pdf (default: chromium on PATH).", valueName: "path"))
    var chromium: String?

    @OptionGroup var sharing: ShareOptions

    @Option(name: .long, help: ArgumentHelp(
        "With --shard or --shards: a folder of the census files nestegg census wrote, which stand for the feeds this share does not read.",
        valueName: "dir"))
    var census: String?

    @Flag(name: .shortAndLong, help: "Print only warnings and errors.")
    var quiet = false

    func validate() throws {
        if try sharing.share() == nil, census != nil { throw ValidationError("--census goes with --shard or --shards") }
        if chromium != nil && !pdf { throw ValidationError("--chromium is used only with --pdf") }
        for (option, value) in [("--output", output), ("--templates", templates), ("--single-file", singleFile),
                                ("--summary", summary), ("--json", json), ("--bundles", bundles), ("--census", census),
                                ("--signing-key", signingKey), ("--part-key", partKey), ("--cache", cache)] where value?.isEmpty == true {
            throw ValidationError("\(option) needs a path (an empty one names nothing)")
        }
    }

    func run() throws {
        let started = DispatchTime.now()
        let console = Console(quiet: quiet)
        var options = BuildOptions(
            data: URL(fileURLWithPath: dataOptions.data),
            output: URL(fileURLWithPath: output),
            templates: templates.map { URL(fileURLWithPath: $0) },
            pdf: pdf, chromium: chromium)
        options.dataLabel = dataOptions.data
        options.singleFile = singleFile.map { URL(fileURLWithPath: $0) }
        options.summary = summary.map { URL(fileURLWithPath: $0) }
        options.json = json.map { URL(fileURLWithPath: $0) }
        options.cache = cache.map { URL(fileURLWithPath: $0) }
        options.bundles = bundles.map { URL(fileURLWithPath: $0) }
        options.shard = try sharing.share()
        options.census = census.map { URL(fileURLWithPath: $0) }
        options.signingKey = try signingKey.map { file in try console.key { () throws(ManifestSignature.KeyError) in try ManifestSignature.signingKey(file: file) } }
        options.partKey = try partKey.map { file in try console.key { () throws(ManifestSignature.KeyError) in try PartKey.read(file: file) } }
        var build = Build(options: options)
        build.progress = { console.progress($0) }
        do {
            let result = try build.run()
            result.warnings.forEach(console.report)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            let count = DiagnosticLog.tally(result.warnings).warnings
            let warnings = count == 0 ? "" : ", " + Console.counted(count, "warning")
            console.progress(String(format: "Built %d pages (%d files, %d changed) into %@ in %.2f s%@",
                                    result.pages, result.write.files, result.write.changed, output, seconds, warnings))
        } catch {
            let extras = [bundles, singleFile, summary, json].compactMap { $0 }
            let kept = ([output] + extras).joined(separator: ", ")
            throw console.fail(error, "nestegg: " + (error.outputUnchanged
                ? "\(error); \(kept) \(extras.isEmpty ? "was" : "were") left as \(extras.isEmpty ? "it was" : "they were")"
                : "\(error); the previous output could not be fully put back: check \(kept)"))
        }
    }
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the data folder without writing anything.",
        discussion: """
            Prints every error and warning as FILE:LINE:COLUMN: error|warning: MESSAGE (at $.path). \
            Exits 0 when the data is clean, 65 when it has errors (and, with --strict, warnings), \
            66 when the data folder does not exist.
            """
    )

    @OptionGroup var dataOptions: DataOptions

    @Flag(help: "Treat warnings (unknown files, dangling ids, coordinates out of range, duplicate ids) as errors.")
    var strict = false

    func run() throws {
        let console = Console(quiet: false)
        var options = BuildOptions(data: URL(fileURLWithPath: dataOptions.data), output: URL(fileURLWithPath: "."))
        options.dataLabel = dataOptions.data
        do {
            let (_, warnings) = try Build(options: options).load()
            warnings.forEach(console.report)
            console.progress("\(dataOptions.data): no errors, " + Console.counted(DiagnosticLog.tally(warnings).warnings, "warning"))
            if strict && !warnings.isEmpty { throw ExitCode(ExitStatus.dataError.rawValue) }
        } catch let error as BuildError {
            let (errors, warnings) = DiagnosticLog.tally(error.diagnostics)
            throw console.fail(error, "\(dataOptions.data): " + Console.counted(errors, "error") + ", " + Console.counted(warnings, "warning"))
        }
    }
}

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a folder's statements against its manifest.json.",
        discussion: """
            FOLDER holds a manifest.json that nestegg build wrote (statements/ in a site, a bundle \
            folder, or the --bundles folder itself). With --public-key, the manifest's signature \
            (manifest.json.sig) is checked first. Every file it lists is hashed again (SHA-256) and \
            compared, every file it does not list is named, nothing but a regular file is read (a \
            symbolic link is an error, never followed), and the figures it gives for each statement \
            must be those the statement shows. Without --public-key this guards against accidents, \
            not forgery. Exits 0 when all match, 65 naming each problem (a missing or bad signature, \
            a file that differs, is missing or is not listed, a figure, a malformed manifest), 66 when \
            there is no manifest or the key cannot be read.
            """
    )

    @Argument(help: ArgumentHelp("The folder that holds manifest.json.", valueName: "folder"))
    var folder: String

    @Option(name: .customLong("public-key"), help: ArgumentHelp(
        "The issuer's public key (nestegg keygen wrote it beside the private key): check the manifest's signature.", valueName: "file"))
    var publicKey: String?

    func run() throws {
        let console = Console(quiet: false)
        let key = try publicKey.map { file in try console.key { () throws(ManifestSignature.KeyError) in try ManifestSignature.publicKey(file: file) } }
        let outcome = ManifestVerifier.verify(folder: URL(fileURLWithPath: folder), label: folder, publicKey: key)
        outcome.problems.forEach(console.report)
        let failed = DiagnosticLog.tally(outcome.problems).errors
        var files = Console.counted(outcome.files, "file") + " of " + Console.counted(outcome.statements, "statement")
        if outcome.otherFiles > 0 { files += " and " + Console.counted(outcome.otherFiles, "other file") }
        if outcome.exitCode == .success {
            if let publicKey {
                console.progress("\(folder): \(files) match the manifest, signed with the key in \(publicKey)")
            } else {
                console.progress("\(folder): \(files) match the manifest; integrity only, against accidents, not authenticity: "
                                 + (outcome.hasSignature ? "the manifest is signed; check it with --public-key FILE"
                                                         : "the manifest is not signed, and anyone could have written it"))
            }
        } else {
            console.progress("nestegg: \(folder): " + Console.counted(failed, "problem") + " in \(files)")
            throw ExitCode(outcome.exitCode.rawValue)
        }
    }
}

struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Write a new Ed25519 key pair to sign statements manifests.",
        discussion: """
            Writes the private key to FILE, readable by you alone (give it to build --signing-key; \
            keep it secret), and the public key to FILE.pub (publish it; give it to verify \
            --public-key), and prints the public key. With --part-key, writes instead a sharded \
            run's part key to FILE (readable by you alone), which every build --shard and the \
            merge that signs are given. Never replaces an existing file (exit 73), and never \
            writes into a folder nestegg replaces (a site, its spare, bundles) or a data folder (exit 64).
            """
    )

    @Option(help: ArgumentHelp("Where the private key is written (the public key goes to FILE.pub).", valueName: "file"))
    var out: String

    @Flag(name: .customLong("part-key"), help: "Write a sharded run's part key (HMAC-SHA256) instead of a signing key pair.")
    var partKey = false

    func validate() throws {
        if out.isEmpty { throw ValidationError("--out needs a path (an empty one names nothing)") }
    }

    func run() throws {
        let console = Console(quiet: false)
        try console.key { () throws(ManifestSignature.KeyError) in try ManifestSignature.checkKeyPlace(out) }
        if partKey {
            try console.key { () throws(ManifestSignature.KeyError) in try PartKey.writeNew(to: out) }
            console.progress("wrote a part key to \(out) (mode 600: keep it secret); give it to every build --shard and to nestegg merge as --part-key")
            return
        }
        let (publicFile, publicKey) = try console.key { () throws(ManifestSignature.KeyError) in try ManifestSignature.writeNewKeyPair(to: out) }
        console.progress("wrote the private key to \(out) (mode 600: keep it secret) and the public key to \(publicFile)")
        print(publicKey, terminator: "")
    }
}

struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Write synthetic data in every input shape, for benchmarks and tests.",
        discussion: """
            The same scale and seed always give the same files. Scale 1 is about 10,000 bank \
            transactions; scale 100 about 1,000,000 over 1,000 accounts, with 20,000 goals and \
            500,000 goal feed items, 100,000 loans, 250 countries and 100,000 transfers.
            """
    )

    @Option(help: "How much data: 1 is about 10,000 transactions; it grows linearly.")
    var scale: Int = 1

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The folder to write: a new or empty one, or one an earlier run made (its files are replaced).", valueName: "dir"))
    var out: String

    func validate() throws {
        guard scale >= 1 && scale <= 1_000 else { throw ValidationError("--scale must be between 1 and 1000") }
    }

    func run() throws {
        let started = DispatchTime.now()
        let summary: SyntheticData.Summary
        do {
            summary = try SyntheticData(scale: scale, seed: seed).write(to: URL(fileURLWithPath: out))
        } catch let refused as SyntheticData.FolderRefused {
            FileHandle.standardError.write(Data("nestegg: fixtures: \(refused)\n".utf8))
            throw ExitCode(ExitStatus.cannotCreate.rawValue)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        FileHandle.standardError.write(Data(String(format: "Wrote %d files (%.1f MB, %d bank transactions) into %@ in %.2f s\n",
                                                   summary.files, Double(summary.bytes) / 1e6, summary.starlingTransactions, out, seconds).utf8))
    }
}
