import ArgumentParser
import Foundation
import NestEggBuild
import NestEggFetch
import NestEggSupport
import NestEggSynthetic

/// Writes progress and diagnostics to standard error, in the form CI systems read:
/// colour only on a terminal (and never with NO_COLOR), and GitHub Actions annotations
/// (`::error file=…,line=…,col=…::…`) when GITHUB_ACTIONS is true.
struct Console {
    let quiet: Bool
    let colour: Bool
    let githubAnnotations: Bool

    init(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.quiet = quiet
        colour = isatty(STDERR_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
        githubAnnotations = environment["GITHUB_ACTIONS"] == "true"
    }

    func progress(_ line: String) {
        guard !quiet else { return }
        emit(line)
    }

    func report(_ diagnostic: Diagnostic) {
        var line = diagnostic.description
        if colour {
            let label = "\(diagnostic.severity.rawValue):"
            let code = diagnostic.severity == .error ? "31" : "33"
            line = line.replacingOccurrences(of: " \(label) ", with: " \u{1B}[1;\(code)m\(label)\u{1B}[0m ", options: [], range: nil)
        }
        emit(line)
        if githubAnnotations { emit(diagnostic.githubAnnotation) }
    }

    /// A command that failed: every diagnostic, then one closing line. - Returns: the exit code to throw.
    func fail(_ error: BuildError, _ closing: String) -> ExitCode {
        error.diagnostics.forEach(report)
        emit(closing)
        return ExitCode(error.exitCode.rawValue)
    }

    /// A fetch that failed: its diagnostics, then what happened and whether the data folder is as
    /// it was. - Returns: the exit code to throw.
    func fail(_ error: FetchError) -> ExitCode {
        error.diagnostics.forEach(report)
        emit("nestegg: fetch failed: \(error.message)" + (error.dataUnchanged ? "; nothing was written" : ""))
        return ExitCode(error.exitCode)
    }

    /// The key `load` reads; if it cannot, the reason and its exit code (77 for a private key open
    /// to others, 66 for a file that cannot be read, 65 for one that holds no key, 73 for keygen).
    func key<Key>(_ load: () throws(ManifestSignature.KeyError) -> Key) throws(ExitCode) -> Key {
        do { return try load() } catch {
            emit("nestegg: " + error.message)
            throw ExitCode(error.exitCode.rawValue)
        }
    }

    /// `1 error`, `3 warnings`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    private func emit(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
