import ArgumentParser
import Foundation
import NestEggFetch
import NestEggModel

struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Bring a source's data in from its API, into the data folder.",
        discussion: """
            Every answer is checked with the loaders that build uses before anything is written; \
            the files are then written together, each renamed into place, so a failed or \
            interrupted fetch leaves every file old or new, never half-written. Base URLs are \
            settings in nestegg.json ("starling": {"baseURL": …}, "restcountries": {"baseURL": …}, \
            "frankfurter": {"baseURL": …}).

            Exit codes: 0 fetched, 64 usage, 65 nestegg.json or a held feed is wrong, 69 the API \
            could not be reached or answered with an error, 73 the data folder cannot be written, \
            76 an answer is not JSON of the expected shape, 77 no token, a token file others may \
            read, or a token the API refused.
            """,
        subcommands: [FetchStarlingCommand.self, FetchCountriesCommand.self, FetchRatesCommand.self]
    )
}

struct FetchStarlingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "starling",
        abstract: "Fetch accounts, balances, savings goals, identifiers, the holder's name and address and the feeds from Starling's API v2.",
        discussion: """
            The personal access token is read from STARLING_TOKEN, or from the file --token-file \
            names (readable by you alone: chmod 600); it is never an argument and never printed. \
            It needs the scopes account:read, account-list:read, balance:read, savings-goal:read, \
            account-identifier:read, account-holder-name:read, address:read and transaction:read. Each feed is \
            merged into the one held, by feedItemUid.
            """
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(help: ArgumentHelp(
        "Fetch each feed from this date (YYYY-MM-DD, UTC) or date-time; default: the newest item held less 3 days, or the day the account opened.",
        valueName: "date"))
    var since: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "A file that holds the personal access token (instead of STARLING_TOKEN); it must be readable by you alone.", valueName: "file"))
    var tokenFile: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    func validate() throws {
        if let since, Fetcher.since(since) == nil {
            throw ValidationError("--since needs a date (2026-01-31) or a date-time with a zone (2026-01-31T09:00:00Z), found \"\(since)\"")
        }
        if tokenFile?.isEmpty == true { throw ValidationError("--token-file needs a path (an empty one names nothing)") }
    }

    func run() async throws {
        let console = Console(quiet: quiet)
        do {
            let token = try AccessToken.load(file: tokenFile, environment: ProcessInfo.processInfo.environment, variable: "STARLING_TOKEN")
            var fetcher = Fetcher(data: URL(fileURLWithPath: dataOptions.data), label: dataOptions.data)
            fetcher.progress = { console.progress($0) }
            try await fetcher.starling(token: token, since: since.flatMap(Fetcher.since))
        } catch {
            throw console.fail(error)
        }
    }
}

struct FetchCountriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "countries",
        abstract: "Fetch every country from RESTCountries v3.1 into restcountries/countries.json."
    )

    @OptionGroup var dataOptions: DataOptions

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    func run() async throws {
        let console = Console(quiet: quiet)
        do {
            var fetcher = Fetcher(data: URL(fileURLWithPath: dataOptions.data), label: dataOptions.data)
            fetcher.progress = { console.progress($0) }
            try await fetcher.countries()
        } catch {
            throw console.fail(error)
        }
    }
}

struct FetchRatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Fetch the ECB's reference rates against the base currency from Frankfurter into rates/<BASE>.json.",
        discussion: """
            Asks GET /v1/FROM..TO?base=BASE (BASE is "baseCurrency" in nestegg.json, GBP by \
            default) and saves the answer as it came, after reading it as build does. FROM defaults \
            to the first day of the month of the earliest Starling date in the data folder, TO to \
            the latest one (no later than today; today without Starling data): rates dated after \
            the data convert nothing.
            """
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(help: ArgumentHelp("The first day (YYYY-MM-DD).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("The last day (YYYY-MM-DD); default: the data's latest Starling date, or today (UTC).", valueName: "date"))
    var to: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(iso8601: value) == nil {
                throw ValidationError("\(name) needs a date such as 2026-01-31, found \"\(value)\"")
            }
        }
    }

    func run() async throws {
        let console = Console(quiet: quiet)
        do {
            var fetcher = Fetcher(data: URL(fileURLWithPath: dataOptions.data), label: dataOptions.data)
            fetcher.progress = { console.progress($0) }
            try await fetcher.rates(from: from.flatMap(CivilDate.init(iso8601:)), to: to.flatMap(CivilDate.init(iso8601:)))
        } catch {
            throw console.fail(error)
        }
    }
}
