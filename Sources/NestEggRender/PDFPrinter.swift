import NestEggReport
import NestEggModel
import NestEggSupport
import Foundation

/// Prints HTML pages to PDF with headless Chromium (`nestegg build --pdf`), using the site's
/// print stylesheet: A4, running header, page numbers (see the `statements` block of style.css).
public struct PDFPrinter: Sendable {
    /// The Chromium executable.
    public let chromium: URL
    /// How long one page may take before Chromium is stopped.
    public var timeout: TimeInterval = 120

    public init(chromium: URL) { self.chromium = chromium }

    /// Names tried on `PATH`, in order, when no path is given (Debian's package is `chromium`).
    public static let executableNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    public struct NotFound: Error, Sendable, CustomStringConvertible {
        public let file: String
        public let message: String
        public var description: String { "\(file): \(message)" }
    }

    /// The printer for `explicit` (a path to an executable), or for the first of
    /// ``executableNames`` found on `searchPath` (a `PATH`-style list of folders).
    public static func locate(explicit: String?, searchPath: String?) throws(NotFound) -> PDFPrinter {
        let files = FileManager.default
        if let explicit {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: explicit, isDirectory: &isDirectory), !isDirectory.boolValue,
                  files.isExecutableFile(atPath: explicit) else {
                throw NotFound(file: explicit, message: "no Chromium executable here (given with --chromium); cannot print PDFs")
            }
            return PDFPrinter(chromium: URL(fileURLWithPath: explicit))
        }
        let folders = (searchPath ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        for name in executableNames {
            for folder in folders {
                let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if files.isExecutableFile(atPath: candidate.path) { return PDFPrinter(chromium: candidate) }
            }
        }
        throw NotFound(file: "chromium", message: """
            Chromium is needed to print PDFs (--pdf) but none of \(executableNames.joined(separator: ", ")) is on PATH; \
            install it (apt-get install chromium, or `make pdf`) or give its path with --chromium PATH
            """)
    }

    public struct PrintError: Error, Sendable {
        public let page: String
        public let reason: String
    }

    /// Prints `html` (a local file) to `pdf`. Chromium gets a profile folder of its own (so that
    /// it does not collide with another Chromium on the machine), locked while it runs, and runs in
    /// a process group of its own that is killed with nestegg: on a timeout, on SIGINT, SIGTERM or
    /// SIGHUP, and (through `setpriv --pdeathsig`, where util-linux has it) when nestegg dies.
    public func print(_ html: URL, to pdf: URL, page: String) throws(PrintError) {
        let files = FileManager.default
        Self.removeAbandonedProfiles()
        let profile = files.temporaryDirectory.appendingPathComponent("\(Self.profilePrefix)\(getpid())-\(UUID().uuidString)")
        defer { try? files.removeItem(at: profile) }
        let log = profile.appendingPathComponent("chromium.log")
        try? files.removeItem(at: pdf)
        // Tagged (a structure tree of the page's headings, lists and tables, in reading order, with
        // the page's language and its title shown as the window title), with an outline of its
        // headings: what a screen reader needs (docs/statements.md, Tests/formats/test_pdf.py).
        let arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
            "--export-tagged-pdf", "--generate-pdf-document-outline",
            "--no-first-run", "--no-default-browser-check", "--user-data-dir=\(profile.path)",
            "--print-to-pdf=\(pdf.path)", html.absoluteString,
        ]
        let ownership: Ownership?
        do {
            try files.createDirectory(at: profile, withIntermediateDirectories: true)
            ownership = Ownership(of: profile.path)
        } catch {
            throw PrintError(page: page, reason: "cannot create a Chromium profile folder: \(error.localizedDescription)")
        }
        defer { ownership?.release() }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(chromium.path, arguments, diesWithParent: true, standardError: log.path)
        } catch {
            throw PrintError(page: page, reason: "cannot run \(chromium.path): \(error.reason)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32?
        while status == nil {
            status = child.exitStatus()
            if status == nil {
                if Date() > deadline {
                    child.killGroup()
                    throw PrintError(page: page, reason: "Chromium did not finish within \(Int(timeout)) seconds")
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        // Whatever Chromium started in its group goes with it.
        child.killGroup()
        let size = (try? files.attributesOfItem(atPath: pdf.path)[.size] as? Int) ?? 0
        guard status == 0, size > 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let lastLines = output.split(separator: "\n").suffix(3).joined(separator: " / ")
            throw PrintError(page: page, reason: "Chromium exited with status \(status ?? -1) and wrote no PDF"
                             + (lastLines.isEmpty ? "" : ": \(lastLines)"))
        }
    }

    static let profilePrefix = "nestegg-chromium-"

    /// Profile folders that a killed nestegg left in the temporary folder (nobody holds their lock).
    static func removeAbandonedProfiles() {
        Ownership.removeAbandoned(in: FileManager.default.temporaryDirectory, where: { $0.hasPrefix(profilePrefix) })
    }
}
