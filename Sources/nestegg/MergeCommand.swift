import ArgumentParser
import Foundation
import NestEggBuild
import NestEggSupport

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Put the parts of a sharded build together into one site.",
        discussion: """
            Each PART is the output folder of one `nestegg build --shard K/N`. They must come from \
            the same data and templates, with the same N, every share once and finished; otherwise \
            nothing is written and the exit status is 65, naming the part. The site is staged and \
            swapped in like a build's: the same bytes `nestegg build` writes from the same data. \
            Its pages are hard links to the parts' files (copies where the disk cannot link): the \
            parts may be deleted afterwards; a tool that edits a part's file in place would change \
            the site too (nestegg never does: it writes new files). Each statement's files are \
            hashed as placed and must be those its part's record lists. With --signing-key the \
            merge signs the manifest, and then needs --part-key: every part's record must be \
            authenticated with the run's part key, or nothing is signed (exit 64 without the key, \
            65 naming a part it does not authenticate).
            """
    )

    @Argument(help: ArgumentHelp("The parts: each share's output folder.", valueName: "part"))
    var parts: [String]

    @Option(name: .long, help: ArgumentHelp("Where the site is written (replaced as a whole).", valueName: "dir"))
    var output: String

    @Option(name: .customLong("signing-key"), help: ArgumentHelp(
        "The issuer's private key (nestegg keygen; readable by its owner only): sign the statements manifest.", valueName: "file"))
    var signingKey: String?

    @Option(name: .customLong("part-key"), help: ArgumentHelp(
        "The run's part key (nestegg keygen --part-key), given to every share: merge only parts it authenticates. Needed with --signing-key.",
        valueName: "file"))
    var partKey: String?

    @Flag(name: .shortAndLong, help: "Print only warnings and errors.")
    var quiet = false

    func validate() throws {
        if parts.isEmpty { throw ValidationError("merge needs the parts to put together") }
        if output.isEmpty { throw ValidationError("--output needs a folder (an empty path names none)") }
    }

    func run() throws {
        let console = Console(quiet: quiet)
        var merge = Merge(parts: parts.map { URL(fileURLWithPath: $0) }, output: URL(fileURLWithPath: output))
        merge.progress = { console.progress($0) }
        merge.signingKey = try signingKey.map { file in try console.key { () throws(ManifestSignature.KeyError) in try ManifestSignature.signingKey(file: file) } }
        merge.partKey = try partKey.map { file in try console.key { () throws(ManifestSignature.KeyError) in try PartKey.read(file: file) } }
        do {
            let result = try merge.run()
            console.progress("Merged \(parts.count) parts (\(result.write.files) files, \(result.write.changed) changed) into \(output)")
        } catch {
            throw console.fail(error, "nestegg: merge failed: \(error); \(output) was left as it was")
        }
    }
}
