import ArgumentParser
import Dispatch
import Foundation
import NestEggServe

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the site while you edit: build, serve on this machine, rebuild on every change.",
        discussion: """
            Builds into a temporary folder (never --output), serves it over HTTP, and watches the \
            data and templates folders: a change rebuilds (only the pages it changes) and open pages \
            reload. A failed build keeps the last good site served, with the errors in a banner on \
            every page until they are fixed. Ctrl-C stops it and removes the temporary folder.
            """
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(name: .long, help: ArgumentHelp("Templates that replace the built-in ones by file name (watched too).", valueName: "dir"))
    var templates: String?

    @Option(name: .long, help: "The port to listen on.")
    var port: UInt16 = 8000

    @Option(name: .long, help: ArgumentHelp("The address to listen on; the default answers this machine only.", valueName: "address"))
    var host: String = "127.0.0.1"

    func run() async throws {
        let options = PreviewServer.Options(data: URL(fileURLWithPath: dataOptions.data), templates: templates.map { URL(fileURLWithPath: $0) },
                                            host: host, port: port)
        let server = try PreviewServer(options: options) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        // Ctrl-C or a TERM: the temporary folder goes, and nestegg ends with 0.
        var sources: [any DispatchSourceSignal] = []
        defer { sources.forEach { $0.cancel() } }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                server.cleanUp()
                FileHandle.standardError.write(Data("serve: stopped\n".utf8))
                Foundation.exit(0)
            }
            source.resume()
            sources.append(source)
        }
        do {
            try await server.run()
        } catch {
            server.cleanUp()
            FileHandle.standardError.write(Data("nestegg: serve: \(error)\n".utf8))
            throw ExitCode(69)
        }
    }

}
