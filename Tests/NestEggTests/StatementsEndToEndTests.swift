import Foundation
import Testing
@testable import NestEggCore

/// Finds the tools the PDF test needs on PATH.
enum PDFTools {
    static func which(_ name: String) -> URL? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for folder in folders {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    static let chromium = PDFPrinter.executableNames.lazy.compactMap(which).first
    static let pdfinfo = which("pdfinfo")
    static let pdftotext = which("pdftotext")
    static var available: Bool { chromium != nil && pdfinfo != nil && pdftotext != nil }

    static func run(_ tool: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite(.serialized) struct StatementsEndToEndTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    @Test func theFixturesBuildStatementsAndTheTransferLedger() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--data", fixtures.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let files = snapshot(output)
        func text(_ path: String) throws -> String { String(decoding: try #require(files[path], "missing \(path)"), as: UTF8.self) }
        // Every month from the account's opening (3 Nov 2025) to the data's as-of month: a year of
        // final statements, most of them without a transaction, and the provisional November.
        let personal = files.keys.filter { $0.hasPrefix("statements/personal/") && $0.hasSuffix(".html") }.sorted()
        #expect(personal.first == "statements/personal/2025-11.html" && personal.last == "statements/personal/2026-11.html")
        #expect(personal.count == 13)
        #expect(try text("statements/personal/2026-02.md").contains("No transactions in this period: the balance of £4,123.77 is carried forward."))
        #expect(files.keys.filter { $0.hasSuffix(".pdf") }.isEmpty, "PDFs only with --pdf")
        let october = try text("statements/personal/2026-10.md")
        #expect(october.contains("- **Statement date:** 31 Oct 2026"))
        #expect(october.contains("| **Closing balance on 31 Oct 2026** | **£6,875.10** |"))
        #expect(october.contains("| [2026-W43](../../roundups/personal/2026-W43.md) | 3 | £1.58 |"))
        let november = try text("statements/personal/2026-11.md")
        #expect(november.contains("| **Balance on 21 Nov 2026** | **£5,536.02** |"), "the cleared balance")
        #expect(november.contains("- **Status:** Provisional statement, to 21 Nov 2026"))
        #expect(november.contains("| Dishoom | Pending | -£18.75 |"))
        #expect(november.contains("| Spotify | Upcoming | -£11.99 |"))
        let statementHTML = try text("statements/personal/2026-10.html")
        #expect(statementHTML.contains(#"<div class="statement-end" hidden></div>"#), "the print stylesheet's marker")
        #expect(try text("statements/index.md").contains("[1–31 Oct 2026](../statements/personal/2026-10.md)"))

        let transfers = try text("transfers/index.md")
        #expect(transfers.contains("| 9 Jul 2018 | 09:37 | [Chan Tai Man](../transfers/imgrl0x94hj8h2om6201.md) | [Wong Siu Ming](../transfers/vjre4mxohv9ljxy6neyp.md) | HK$10.00 | Success | wf1clo4lhf |"))
        #expect(transfers.contains("### Recipient not found (003)"))
        #expect(try text("transfers/imgrl0x94hj8h2om6201.md").contains("# Transfers of Chan Tai Man"))
        let index = try text("index.md")
        #expect(index.contains("## Statements"))
        #expect(index.contains("- Personal: balance on 21 Nov 2026 (provisional statement): **[£5,536.02](statements/personal/2026-11.md)**"))
        #expect(index.contains("## Transfers"))
        #expect(index.contains("- Transfers: **[46](transfers/index.md)**"))
        #expect(try text("style.css").contains("@page statement"))
    }

    @Test func withoutChromiumPDFStopsWith69BeforeWritingAnything() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let given = try NestEggBinary.run(["build", "--pdf", "--chromium", work.appendingPathComponent("no-chromium").path,
                                           "--data", fixtures.path, "--output", output.path])
        #expect(given.status == 69)
        #expect(given.stderr.contains("no-chromium: error: no Chromium executable here (given with --chromium)"), "\(given.stderr)")
        #expect(!given.stderr.contains("load: "), "stops before reading the data")
        let onPath = try NestEggBinary.run(["build", "--pdf", "--data", fixtures.path, "--output", output.path],
                                           environment: ["PATH": work.path])
        #expect(onPath.status == 69)
        #expect(onPath.stderr.contains("chromium: error: Chromium is needed to print PDFs (--pdf)"), "\(onPath.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasPrefix(".nestegg") }
        #expect(leftovers.isEmpty)
        // --chromium means nothing without --pdf.
        #expect(try NestEggBinary.run(["build", "--chromium", "/usr/bin/chromium", "--output", output.path]).status == 64)
    }

    @Test(.enabled(if: PDFTools.available, "needs chromium, pdfinfo and pdftotext (poppler-utils) on PATH; `make test` installs them"),
          .timeLimit(.minutes(5)))
    func pdfPrintsEachStatementBesideItsHTML() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--pdf", "--data", fixtures.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("pdf: 17 statements printed with "), "\(result.stderr)")
        let pdfs = SiteWriter.listFiles(under: output).filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(pdfs.count == 17)
        #expect(pdfs.contains("statements/euro-travel/2026-09.pdf") && pdfs.contains("statements/personal/2025-11.pdf"))

        let pdf = output.appendingPathComponent("statements/personal/2026-10.pdf").path
        let info = try PDFTools.run(PDFTools.pdfinfo!, [pdf])
        let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            .flatMap { Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) }
        let count = try #require(pages, "\(info)")
        // 55 transactions do not fit on one A4 page; a handful of pages, not dozens.
        #expect((2...8).contains(count), "\(info)")
        #expect(info.contains("A4"), "\(info)")

        let first = try PDFTools.run(PDFTools.pdftotext!, ["-f", "1", "-l", "1", "-layout", pdf, "-"])
        #expect(first.contains("Statement for Personal, 1–31 Oct 2026"))
        #expect(first.contains("Statement date: 31 Oct 2026"))
        #expect(first.contains("Account statement"), "the running header")
        #expect(first.contains("Page 1 of \(count)"), "page numbers")
        let second = try PDFTools.run(PDFTools.pdftotext!, ["-f", "2", "-l", "2", "-layout", pdf, "-"])
        #expect(second.contains("Page 2 of \(count)"))
        #expect(second.contains("Money out") && second.contains("Balance"), "the table's header row repeats")
        let all = try PDFTools.run(PDFTools.pdftotext!, [pdf, "-"])
        #expect(all.contains("£6,875.10"))
        #expect(all.contains("Closing balance on 31 Oct 2026"))
        #expect(!all.contains("This page as Markdown"), "no navigation in print")
    }
}
