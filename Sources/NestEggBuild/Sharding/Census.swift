import Crypto
import Foundation
import NestEggLoad
import NestEggModel
import NestEggReport
import NestEggSupport
import NestEggWrite

/// `nestegg census DATA --shard K/N --output FILE`: the first step of a sharded build that reads
/// each feed once. Census worker K reads the feeds of share K's accounts and goals (``Page/entity``)
/// and writes what every share needs of them: each feed's latest time, its problems, its bytes'
/// digest, and an account's figures for the site-wide pages (``AccountFigures``, which do not
/// depend on the data's as-of date). A share built with `--census` then reads its own feeds only;
/// every other feed is what the census says, checked against the data by its digest.
public struct CensusOptions: Sendable {
    public var data: URL
    public var output: URL
    public var shard: Shard
    /// How diagnostics name the data folder (the path as typed); its absolute path if `nil`.
    public var dataLabel: String?

    public init(data: URL, output: URL, shard: Shard) {
        self.data = data
        self.output = output
        self.shard = shard
    }
}

public struct Census {
    public let options: CensusOptions
    public var progress: (String) -> Void = { _ in }

    public init(options: CensusOptions) { self.options = options }

    /// The file name every census file has: a share's `--census` folder holds one per census worker.
    public static let fileExtension = "census"

    /// Whether a data file is a feed a census reads (the rest every worker reads, or hashes).
    static func isFeed(_ path: String) -> Bool { path.hasPrefix("starling/feed/") || path.hasPrefix("qapital/feed/") }

    /// - Returns: how many feeds of accounts and of goals the census holds.
    /// A census holds Starling accounts' figures only: the accounts of bank downloads and
    /// open-banking answers (`imports/`, `berlingroup/`, `simplefin/`) would be missing from the
    /// lists a share fills from it. Shares built without a census read every file, those included.
    static func refuseImports(_ folder: DataFolder) throws(BuildError) {
        guard let source = ([ImportsLoader.folderName] + OpenBankingLoader.folders).first(where: folder.hasFolder) else { return }
        throw BuildError(step: .load, exitCode: .usage, diagnostics: [Diagnostic(.error, file: source + "/",
            message: "a census reads Starling accounts only, and this data folder has \(source)/: build the shares without a census "
                + "(nestegg build --shards N, each share reading every file), or on one machine")])
    }

    public func run() throws(BuildError) -> (accounts: Int, goals: Int) {
        try checkOutput()
        StagedFile.recover(beside: options.output)
        var buildOptions = BuildOptions(data: options.data, output: options.output)
        buildOptions.dataLabel = options.dataLabel
        let build = Build(options: buildOptions)
        let folder = try build.openDataFolder()
        if let error = Destinations.checkLinks([.init(data: folder)], replaced: [("--output", options.output, false)]) { throw error }
        let shard = options.shard
        try Self.refuseImports(folder)
        // The files but the feeds, hashed before and after: the figures come from them too (the
        // balances, the settings), so they must be what the digest says.
        let restBefore = DataDigests(folder, skipping: Self.isFeed).digest(excluding: [])

        // What the feeds are read against: the settings, the accounts and their balances, the goals,
        // users and rules; no feed.
        let log = DiagnosticLog()
        // What the listing could not read (a feed that is a FIFO or a link to nothing) is the
        // build's error, so it is the census's: a census that took it for no feed would pass it on.
        folder.listingProblems.filter { $0.severity == .error }.forEach(log.report)
        let settings = SettingsLoader.load(from: folder, log: log)
        let accounts = StarlingLoader.load(from: folder, settings: settings, log: log, feed: FeedReaders.none.starling)
            .filter { shard.owns(Page.entity(of: $0.account)) }
        let qapital = QapitalLoader.load(from: folder, settings: settings, log: log, feed: FeedReaders.none.qapital)
        if log.hasErrors {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: build.placed(log.errors, folder: folder))
        }
        let goalIds = Set(qapital.goals.map(\.id))
        let goals = folder.files(in: "qapital/feed").compactMap { path -> (Int, String)? in
            let name = String(path.dropFirst("qapital/feed/".count).dropLast(".json".count))
            guard let id = Int(name), String(id) == name, goalIds.contains(id), shard.owns(Page.entity(ofQapitalGoal: id)) else { return nil }
            return (id, path)
        }

        let context = ReportContext(settings: settings)
        let starling = Concurrently.map(accounts.count) { index -> CensusRecord.Account in
            var data = accounts[index]
            let feedLog = DiagnosticLog()
            let path = StarlingLoader.feedPath(of: data.account)
            // The digest is of the bytes parsed: a file that changes while it is read cannot pass for the one the figures come from.
            let (items, digest) = StarlingLoader.readFeed(of: data.account, in: folder, log: feedLog, digest: true)
            data.feed = items
            if digest == nil, folder.contains(path), !feedLog.hasErrors {
                feedLog.report(Diagnostic(.error, file: path, message: "cannot be read for the census"))
            }
            return .init(account: data.account, known: KnownFeed(latest: data.feed.lazy.map(\.transactionTime).max(), notes: feedLog.diagnostics),
                         digest: digest, figures: AccountFigures(data, context: context))
        }
        let qapitalFeeds = Concurrently.map(goals.count) { index -> CensusRecord.Goal in
            let (id, path) = goals[index]
            let feedLog = DiagnosticLog()
            let read = QapitalLoader.readFeed(path, goalId: id, in: folder, currency: qapital.currency, log: feedLog, digest: true)
            let items = read?.items ?? []
            if read == nil, !feedLog.hasErrors { feedLog.report(Diagnostic(.error, file: path, message: "cannot be read for the census")) }
            let references = QapitalLoader.referenceNotes(items, goalId: id, users: qapital.users, rules: qapital.rules)
            return .init(id: id, known: KnownFeed(latest: items.first?.timestamp, notes: feedLog.diagnostics, references: references),
                         digest: read?.digest ?? "")
        }
        let errors = (starling.flatMap(\.known.notes) + qapitalFeeds.flatMap(\.known.notes)).filter { $0.severity == .error }
        if !errors.isEmpty {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: build.placed(errors, folder: folder))
        }
        let rest = DataDigests(folder, skipping: Self.isFeed).digest(excluding: [])
        guard rest == restBefore else {
            throw BuildError(step: .load, exitCode: .dataError, diagnostics: build.placed([Diagnostic(.error, file: "",
                message: "a file that is not a feed changed while the census read the data; run it again")], folder: folder))
        }
        let record = CensusRecord(version: NestEggVersion.current, rest: rest, shard: shard, accounts: starling, goals: qapitalFeeds)
        progress("census: share \(shard): the feeds of \(starling.count) of the accounts and \(qapitalFeeds.count) goals")
        // Staged and put in place with a stop (Termination) held off: the file is whole or as it was.
        try Termination.holding { () throws(BuildError) in
            let staged = try Build.writeError { () throws(SiteWriter.WriteError) in try StagedFile.stage(record.text(), at: options.output) }
            do throws(SiteWriter.WriteError) {
                try staged.commit()
            } catch {
                staged.discard()
                throw BuildError(writing: error)
            }
            staged.finish()
        }
        progress("write: \(options.output.path)")
        return (starling.count, qapitalFeeds.count)
    }

    /// The census file may be written where it is asked for: not in the data folder, not in place of
    /// a folder, a link or any file that is not a census (say, an input mistyped as the output).
    func checkOutput() throws(BuildError) {
        let url = options.output
        var reasons: [String] = []
        var exitCode = ExitStatus.usage
        if url.path.isEmpty || url.hasDirectoryPath { reasons.append("it names a folder, not a file") }
        if Destinations.path(Destinations.resolved(url), isWithin: Destinations.resolvedFolder(options.data)) {
            reasons.append("it is inside the data folder \(options.data.path), and would overwrite input")
        }
        if let kind = Destinations.nonFileKind(url.path) {
            reasons.append("it is \(kind); nestegg writes only regular files")
            exitCode = .cannotCreate
        } else if FileManager.default.fileExists(atPath: url.path), !CensusRecord.isCensus(url) {
            reasons.append("it is a file that is not a census; nestegg replaces only its own")
            exitCode = .cannotCreate
        }
        guard !reasons.isEmpty else { return }
        throw BuildError(step: .write, exitCode: exitCode, diagnostics: reasons.map {
            Diagnostic(.error, file: url.path, message: "--output: refusing to write the census here: \($0)")
        })
    }
}
