import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggLoad
@testable import NestEggSupport

/// The `.md` files' tables line up as text, and the padding changes nothing cmark-gfm renders.
@Suite struct MarkdownTablePaddingTests {
    @Test func columnsLineUpByDisplayWidth() {
        let table = """
            | Date | Counterparty | Amount |
            |:--|:--|--:|
            | 3 Nov 2026 | Tesco | £4.35 |
            | 12 Nov 2026 | 東京 🇵🇪 Café | £12.00 |
            """
        #expect(MarkdownTablePadding.pad(table) == """
            | Date        | Counterparty | Amount |
            |:------------|:-------------|-------:|
            | 3 Nov 2026  | Tesco        |  £4.35 |
            | 12 Nov 2026 | 東京 🇵🇪 Café | £12.00 |
            """)
    }

    /// A megabyte-long cell does not pad the other rows to its width: padding adds at most the
    /// limit's worth of spaces to a cell, so the padded page grows as the data does.
    @Test func oneHugeCellDoesNotPadEveryRow() {
        let huge = String(repeating: "x", count: 1_000_000)
        let rows = (0..<200).map { "| \($0) | \($0 == 7 ? huge : "Tesco") | £4.35 |" }.joined(separator: "\n")
        let table = "| N | Counterparty | Amount |\n|:--|:--|--:|\n" + rows
        let padded = MarkdownTablePadding.pad(table)
        #expect(padded.utf8.count < table.utf8.count + 200 * (MarkdownTablePadding.widestPaddedColumn + 20))
        let lines = padded.split(separator: "\n")
        #expect(lines[2 + 8].contains("| Tesco" + String(repeating: " ", count: 75) + " |"))
        #expect(lines[2 + 7].contains(huge + " |"))
        #expect(CMark.render(padded, rewriteLink: { $0 }, headingOffset: 0, unlinkingUnsafe: true).html
                == CMark.render(table, rewriteLink: { $0 }, headingOffset: 0, unlinkingUnsafe: true).html)
    }

    @Test func displayWidthCountsColumnsNotCharacters() {
        #expect(MarkdownTablePadding.displayWidth("abc") == 3)
        #expect(MarkdownTablePadding.displayWidth("東京") == 4)
        #expect(MarkdownTablePadding.displayWidth("🇵🇪") == 2)
        #expect(MarkdownTablePadding.displayWidth("👩‍👩‍👧") == 2)
        #expect(MarkdownTablePadding.displayWidth("e\u{301}") == 1)
        #expect(MarkdownTablePadding.displayWidth("✔\u{FE0F}") == 2)
        #expect(MarkdownTablePadding.displayWidth("한국") == 4)
    }

    @Test func escapedPipesCodeFencesAndOtherLinesStayAsTheyAre() {
        let escaped = "| a\\|b | c |\n|:--|:-:|\n| x | y |"
        #expect(MarkdownTablePadding.pad(escaped) == "| a\\|b |  c  |\n|:-----|:---:|\n| x    |  y  |")
        let fenced = "```\n| a | b |\n|--|--|\n```"
        #expect(MarkdownTablePadding.pad(fenced) == fenced)
        let notATable = "| just a line |\nand text"
        #expect(MarkdownTablePadding.pad(notATable) == notATable)
        let once = MarkdownTablePadding.pad(escaped)
        #expect(MarkdownTablePadding.pad(once) == once, "padding twice is padding once")
        #expect(MarkdownTablePadding.pad("| a | b |\n|--|--|\n| 1 |\n") == "| a   | b   |\n|-----|-----|\n| 1   |\n", "a short row keeps its cells")
    }

    /// Found by the fuzzer: a `\\|` right after U+0603 (a prepended mark, one `Character` with the
    /// backslash) was split as an unescaped `|`. Cells are split on bytes.
    @Test func anEscapeAfterAPrependedMarkStaysAnEscape() {
        let bytes: [UInt8] = [0x7c, 0x7c, 0x83, 0x7c, 0x21, 0x7c, 0x83, 0xff, 0xff, 0xff, 0x29, 0x83, 0xef, 0x29, 0xd8, 0x83, 0x7c, 0x7c]
        let cell = Escape.value(String(decoding: bytes, as: UTF8.self), at: .tableCell)
        let document = "| a | b |\n|---|--:|\n| \(cell) | 1 |\n"
        #expect(MarkdownTablePadding.cells("| x\u{603}\\| | y |") == ["x\u{603}\\|", "y"])
        #expect(CMark.html(from: MarkdownTablePadding.pad(document)) == CMark.html(from: document))
    }

    /// Every page of the fixtures: the padded Markdown renders to the same HTML as the unpadded.
    @Test func thePaddingChangesNothingCmarkRenders() throws {
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        let site = SiteReport.build(dataset)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        var tables = 0
        for page in site.pages {
            let markdown = try renderer.markdown(page, html: false)
            let padded = MarkdownTablePadding.pad(markdown)
            if padded != markdown { tables += 1 }
            #expect(CMark.html(from: padded, rewriteLink: { _ in nil }) == CMark.html(from: markdown, rewriteLink: { _ in nil }), "\(page.path)")
        }
        #expect(tables > 50, "pages whose tables were padded")
    }
}
