import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

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
        func text(_ path: String) throws -> String { unpadded(String(decoding: try #require(files[path], "missing \(path)"), as: UTF8.self)) }
        // Every month from the account's opening (3 Nov 2025) to the data's as-of month: a year of
        // final statements, most of them without a transaction, and the provisional November.
        let personal = files.keys.filter { $0.hasPrefix("statements/personal/2") && $0.hasSuffix(".html") }.sorted()
        #expect(try text("statements/personal/index.md").contains("[1–21 Nov 2026](../../statements/personal/2026-11.md) (provisional)"))
        #expect(personal.first == "statements/personal/2025-11.html" && personal.last == "statements/personal/2026-11.html")
        #expect(personal.count == 13)
        #expect(try text("statements/personal/2026-02.md").contains("No transactions in this period: the balance of £4,123.77 is carried forward."))
        #expect(files.keys.filter { $0.hasSuffix(".pdf") }.isEmpty, "PDFs only with --pdf")
        // Personal's balances worked out from its files: the cleared balance, and that less November's movements.
        let (now, november) = try FixtureFigures.balances(of: "Personal")
        let context = ReportContext(settings: Settings()), money = { (amount: Money) in context.money(amount) }
        let october = try text("statements/personal/2026-10.md")
        #expect(october.contains("- **Statement date:** 31 Oct 2026"))
        #expect(october.contains("| **Closing balance on 31 Oct 2026** | **\(money(november))** |"))
        #expect(october.contains("- **Account holder:** Alex Morgan\n- **Address:** Flat 2, 18 Albemarle Terrace, LONDON, SW9 8QT\n"),
                "the holder's current address from starling/addresses.json")
        #expect(try text("statements/personal/2026-10.html").contains(
            "<div class=\"statement-addressee\">\n<p>Alex Morgan<br>Flat 2<br>18 Albemarle Terrace<br>LONDON<br>SW9 8QT</p>\n</div>"))
        #expect(october.contains("| [19–25 Oct 2026](../../roundups/personal/2026-W43.md) | 3 | £1.58 |"))
        let novemberPage = try text("statements/personal/2026-11.md")
        #expect(novemberPage.contains("| **Balance on 21 Nov 2026** | **\(money(now))** |"), "the cleared balance")
        #expect(novemberPage.contains("- **Status:** Provisional statement, to 21 Nov 2026"))
        #expect(novemberPage.contains("| Dishoom | Pending | -£18.75 |"))
        #expect(novemberPage.contains("| Spotify | Upcoming | -£11.99 |"))
        let statementHTML = try text("statements/personal/2026-10.html")
        #expect(statementHTML.contains(#"<div class="statement-end" hidden></div>"#), "the print stylesheet's marker")
        #expect(try text("statements/index.md").contains("[1–31 Oct 2026](../statements/personal/2026-10.md)"))

        // The household's transfers: the last one, on the sample's last day, has a status the API
        // does not document (scripts/fixtures/transfers.py).
        let users = try FixtureFigures.dataset().transfers.users, transferCount = try FixtureFigures.dataset().transfers.transfers.count
        let alex = try #require(users.first { $0.name == "Alex Morgan" }), priya = try #require(users.first { $0.name == "Priya Shah" })
        let transfers = try text("transfers/index.md")
        #expect(transfers.contains("| 20 Nov 2026 | 09:30 | [Priya Shah][p2] | [Alex Morgan][p1] | £42.50 | **Failed:** Unknown status (009) |"))
        #expect(transfers.contains("\n[p1]: ../transfers/\(alex.uid).md\n"), "a person's page, once, for the tables' reference-style links")
        #expect(transfers.contains("### Recipient not found (003)"))
        #expect(try text("transfers/\(priya.uid).md").contains("# Transfers of Priya Shah"))
        let index = try text("index.md")
        #expect(index.contains("## Statements"))
        #expect(index.contains("- Personal: balance on 21 Nov 2026 (provisional statement): **[\(money(now))](statements/personal/2026-11.md)**"))
        #expect(index.contains("- [Transfers](transfers/index.md)"))
        #expect(index.contains("- Transfers, 1 Jan – 20 Nov 2026: **[\(transferCount)](transfers/index.md)**"))
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
        let output = work.appendingPathComponent("site"), bundles = work.appendingPathComponent("bundles")
        let result = try NestEggBinary.run(["build", "--pdf", "--data", fixtures.path, "--output", output.path, "--bundles", bundles.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("pdf: 17 statements printed with "), "\(result.stderr)")
        let pdfs = SiteWriter.listFiles(under: output).filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(pdfs.count == 17)
        #expect(pdfs.contains("statements/euro-travel/2026-09.pdf") && pdfs.contains("statements/personal/2025-11.pdf"))
        // The manifests list the PDFs too, and they check out; so do the bundles' own PDFs.
        #expect(try String(contentsOf: output.appendingPathComponent("statements/manifest.json"), encoding: .utf8)
            .contains(#"{"path": "personal/2026-10.pdf", "sha256": ""#))
        #expect(try NestEggBinary.run(["verify", output.appendingPathComponent("statements").path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: bundles.appendingPathComponent("personal/statements/2026-10.pdf").path))
        let verifyBundles = try NestEggBinary.run(["verify", bundles.path])
        #expect(verifyBundles.status == 0 && verifyBundles.stderr.contains("85 files of 17 statements"), "\(verifyBundles.stderr)")

        func pages(_ pdf: String) throws -> Int {
            let info = try PDFTools.run(PDFTools.pdfinfo!, [pdf])
            #expect(info.contains("A4"), "\(info)")
            let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }
                .flatMap { Int($0.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) }
            return try #require(pages, "\(info)")
        }
        func text(_ pdf: String, page: Int? = nil) throws -> String {
            try PDFTools.run(PDFTools.pdftotext!, (page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []) + ["-layout", pdf, "-"])
        }
        // The fixture month: 57 transactions, their references whole (two lines where long), on
        // four A4 portrait pages.
        let pdf = output.appendingPathComponent("statements/personal/2026-10.pdf").path
        let count = try pages(pdf)
        #expect(count == 4)
        let first = try text(pdf, page: 1)
        #expect(first.contains("Statement for Personal, 1–31 Oct 2026"))
        for head in ["Harbour Bank plc", "Account holder: Alex Morgan", "Sort code: 60-83-71", "Account number: 41234567",
                     "Period: 1–31 Oct 2026 (Europe/London)", "Statement date: 31 Oct 2026"] {
            #expect(first.contains(head), "the head: \(head)")
        }
        #expect(first.hasPrefix("Statement\n"), "the page's margin: \(first.prefix(80))")
        #expect(first.contains("Alex Morgan") && first.contains("18 Albemarle Terrace") && first.contains("SW9 8QT"), "the address block")
        // Every page names the issuer, whose statement it is and its period (the running head).
        for page in 1...count {
            let text = try text(pdf, page: page)
            #expect(text.contains("Harbour Bank plc\nAlex Morgan · Personal (Primary, GBP) · sort code 60-83-71, account number 41234567 · Statement, 1–31 Oct 2026"),
                    "page \(page): \(text.prefix(300))")
        }
        #expect(first.contains("Page 1 of \(count)"), "page numbers")
        let second = try text(pdf, page: 2)
        #expect(second.contains("Page 2 of \(count)"))
        #expect(second.contains("Money out") && second.contains("Balance"), "the table's header row repeats")
        // The last page holds the end of the transactions with their totals, and more than a lone table.
        let last = try text(pdf, page: count)
        let (moneyIn, moneyOut) = try FixtureFigures.movements(of: "Personal", from: "2026-09-30T23:00:00Z", to: "2026-11-01T00:00:00Z")
        let closing = try FixtureFigures.balances(of: "Personal").opening
        let context = ReportContext(settings: Settings())
        #expect(last.contains("Totals and closing") && last.contains(context.money(moneyIn)) && last.contains(context.money(moneyOut))
                && last.contains(context.money(closing)))
        #expect(last.contains("Round-ups") && last.contains("Statement digest"))
        let all = try text(pdf)
        #expect(all.contains("Closing balance on 31 Oct 2026"))
        // References are whole in print too (wrapped, never cut).
        #expect(all.contains("SAINSBURYS S/MKT") && all.contains("LONDON GBR") && !all.contains("…"))
        let markdown = unpadded(try String(contentsOf: output.appendingPathComponent("statements/personal/2026-10.md"), encoding: .utf8))
        #expect(markdown.contains("| SAINSBURYS S/MKT LONDON GBR |"))
        let html = try String(contentsOf: output.appendingPathComponent("statements/personal/2026-10.html"), encoding: .utf8)
        #expect(html.contains(#"<span class="ref" title="SAINSBURYS S/MKT LONDON GBR">SAINSBURYS S/MKT LONDON GBR</span>"#))
        // The digest in the PDF is the one in the Markdown; no site navigation, title or stray footer.
        let digest = try #require(markdown.split(whereSeparator: { !$0.isHexDigit }).first { $0.count == 64 })
        #expect(all.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "").contains(digest))
        for stray in ["This page as Markdown", "Generated by NestEgg", "NestEgg sample", "Round-ups Savings goals", " . "] {
            #expect(!all.contains(stray), "\(stray)")
        }

        // The provisional month says so on every page, and gives a balance, not a closing balance.
        let november = output.appendingPathComponent("statements/personal/2026-11.pdf").path
        for page in 1...(try pages(november)) {
            #expect(try text(november, page: page).hasPrefix("Provisional statement\n"), "page \(page)")
            #expect(try text(november, page: page).contains("· Provisional statement, 1–21 Nov 2026"), "page \(page)")
        }
        let provisional = try text(november)
        #expect(provisional.contains("Provisional statement for Personal, 1–21 Nov 2026"))
        #expect(provisional.contains("Balance on 21 Nov 2026") && !provisional.contains("Closing balance"))
        // A month without a transaction is one page.
        #expect(try pages(output.appendingPathComponent("statements/personal/2026-02.pdf").path) == 1)
    }
}
