import NestEggSupport
import Foundation

/// The one folder a build keeps beside its output, `.<output>.nestegg/`: the build cache
/// (``cache(of:)``), each bank account's summary (``units(of:)``) and the site the last build
/// swapped out (``spare(of:)``), which the next build stages into. Beside the output and hidden,
/// never inside it, so it is never published and goes with the folder that holds the output;
/// named after the output, so two outputs in one folder keep their own. Deleting it costs the
/// next build its shortcuts, nothing else. Its entries are proven nestegg's before a build
/// touches them (`BesideOutput`).
public enum StateFolder {
    /// `.<output>.nestegg` beside `output`.
    public static func of(_ output: URL) -> URL {
        let output = output.standardizedFileURL
        return output.deletingLastPathComponent().appendingPathComponent("." + output.lastPathComponent + ".nestegg")
    }

    /// The build cache's file.
    public static func cache(of output: URL) -> URL { of(output).appendingPathComponent(cacheName) }
    /// The folder of the accounts' summaries.
    public static func units(of output: URL) -> URL { of(output).appendingPathComponent(unitsName) }
    /// The site the last build swapped out.
    public static func spare(of output: URL) -> URL { of(output).appendingPathComponent(spareName) }

    public static let cacheName = "cache", unitsName = "units", spareName = "spare"
}
