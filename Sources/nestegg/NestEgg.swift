import ArgumentParser
import Foundation
import NestEggCore

@main
struct NestEgg: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nestegg",
        abstract: "Static reports for personal-finance data: JSON in, Markdown and HTML out.",
        discussion: """
            Reads accounts, transactions and savings goals from a data folder in the shapes their \
            APIs return, and writes a static site: every report as Markdown and as HTML.

            Exit codes: 0 success, 64 usage, 65 bad data, 66 no data folder, 69 Chromium not \
            found (--pdf), 73 output not writable, 78 bad template.
            """,
        subcommands: [BuildCommand.self],
        defaultSubcommand: BuildCommand.self
    )
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

    @Option(name: .long, help: ArgumentHelp("The data folder: starling/, nestegg.json, …", valueName: "dir"))
    var data: String = "Fixtures"

    @Option(name: .long, help: ArgumentHelp("Where the site is written (replaced as a whole).", valueName: "dir"))
    var output: String = "Output"

    @Option(name: .long, help: ArgumentHelp(
        "A folder of templates that replace the built-in ones by file name (layout.html.mustache, index.md.mustache, style.css, …).",
        valueName: "dir"))
    var templates: String?

    @Flag(name: .long, help: "Also write each statement as a PDF beside its HTML, printed with headless Chromium.")
    var pdf = false

    @Option(name: .long, help: ArgumentHelp("The Chromium executable for --pdf (default: chromium on PATH).", valueName: "path"))
    var chromium: String?

    @Flag(name: .shortAndLong, help: "Print only warnings and errors.")
    var quiet = false

    func validate() throws {
        if chromium != nil && !pdf { throw ValidationError("--chromium is used only with --pdf") }
    }

    func run() throws {
        let started = DispatchTime.now()
        let console = Console(quiet: quiet)
        var build = Build(options: BuildOptions(
            data: URL(fileURLWithPath: data),
            output: URL(fileURLWithPath: output),
            templates: templates.map { URL(fileURLWithPath: $0) },
            pdf: pdf, chromium: chromium))
        build.progress = { console.progress($0) }
        do {
            let result = try build.run()
            result.warnings.forEach(console.report)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            console.progress(String(format: "Built %d pages (%d files, %d changed) into %@ in %.2f s%@",
                                    result.pages, result.write.files, result.write.changed, output, seconds,
                                    result.warnings.isEmpty ? "" : ", \(result.warnings.count) warning\(result.warnings.count == 1 ? "" : "s")"))
        } catch {
            error.diagnostics.forEach(console.report)
            console.failure("\(error); \(output) was left as it was")
            throw ExitCode(error.exitCode)
        }
    }
}

/// Writes progress and diagnostics to standard error.
struct Console {
    let quiet: Bool

    func progress(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    func report(_ diagnostic: Diagnostic) {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }

    func failure(_ line: String) {
        FileHandle.standardError.write(Data(("nestegg: " + line + "\n").utf8))
    }
}
