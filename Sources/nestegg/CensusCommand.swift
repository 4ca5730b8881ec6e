import ArgumentParser
import Foundation
import NestEggBuild

/// Which share of a sharded build: `--shard K/N`, or `--shards N` with K from the batch engine.
struct ShareOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Share K of N (0 ≤ K < N): the accounts, goals and pages a stable hash gives to K.", valueName: "K/N"))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp(
        "One share of N, K from the batch engine: JOB_COMPLETION_INDEX (Kubernetes), AWS_BATCH_JOB_ARRAY_INDEX, or SLURM_ARRAY_TASK_ID (the task id is the share: sbatch --array=0-(N-1), --array=K to re-run one). An array or Job that does not fit N is refused. --shard wins.",
        valueName: "N"))
    var shards: Int?

    /// The share, from --shard, else --shards and the engine's variables; `nil` without either.
    func share() throws -> Shard? {
        if let shard {
            guard let share = Shard(shard) else { throw ValidationError("--shard \(shard): give K/N with 0 ≤ K < N") }
            return share
        }
        guard let shards else { return nil }
        guard shards >= 1 else { throw ValidationError("--shards needs a number of shares of 1 or more") }
        switch Shard.fromEnvironment(count: shards, ProcessInfo.processInfo.environment) {
        case .success(let share): return share
        case .failure(let error): throw ValidationError(error.description)
        }
    }
}

struct CensusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "census",
        abstract: "Read one share's feeds for a sharded build, so that no share reads another's.",
        discussion: """
            The first step of a sharded build: worker K reads the feeds of share K's accounts and \
            goals and writes what every share needs of them (their latest times, their problems, \
            their digests, each account's figures for the site-wide pages) into one file. Then \
            `nestegg build --shard K/N --census DIR`, with every worker's file in DIR, reads its own \
            feeds only, and `nestegg merge` puts the shares together. The file is replaced whole, \
            and only if it is a census already.
            """
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(name: .long, help: ArgumentHelp("The census file to write (name it K.census, in the folder every share reads).", valueName: "file"))
    var output: String

    @OptionGroup var sharing: ShareOptions

    @Flag(name: .shortAndLong, help: "Print only warnings and errors.")
    var quiet = false

    func validate() throws {
        if try sharing.share() == nil { throw ValidationError("census needs the share: --shard K/N, or --shards N") }
        if output.isEmpty { throw ValidationError("--output needs a file (an empty path names none)") }
    }

    func run() throws {
        let console = Console(quiet: quiet)
        guard let shard = try sharing.share() else { return }
        var options = CensusOptions(data: URL(fileURLWithPath: dataOptions.data), output: URL(fileURLWithPath: output), shard: shard)
        options.dataLabel = dataOptions.data
        var census = Census(options: options)
        census.progress = { console.progress($0) }
        do {
            let (accounts, goals) = try census.run()
            console.progress("Census of share \(shard): \(accounts) accounts' and \(goals) goals' feeds into \(output)")
        } catch {
            throw console.fail(error, "nestegg: census failed: \(error); \(output) was left as it was")
        }
    }
}
