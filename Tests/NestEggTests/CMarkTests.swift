import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct CMarkTests {
    /// cmark-gfm's special characters are global: pages parsed on every core at once each get
    /// their strikethrough, pipes and autolinks, whichever page finishes meanwhile.
    @Test func pagesParsedAtOnceEachKeepTheirExtensions() {
        let markdown = "| a | b |\n| --- | --- |\n| ~~old~~ new | x \\| y |\n\nSee www.example.com and ~~this~~.\n"
        let expected = CMark.html(from: markdown)
        #expect(expected.contains("<del>old</del>") && expected.contains("<del>this</del>") && expected.contains("x | y"))
        let results = Concurrently.map(4_000) { _ in CMark.html(from: markdown) }
        #expect(results.filter { $0 != expected }.count == 0)
    }

    @Test func rendersGitHubTablesWithRightAlignedNumbers() {
        let html = CMark.html(from: "| Week | Round-up |\n|:--|--:|\n| 2026-W47 | £1.58 |\n")
        #expect(html.contains("<table>"))
        #expect(html.contains(#"<td style="text-align: right">£1.58</td>"#))
        #expect(!html.contains("align=\""))
    }

    @Test func rendersStrikethroughAndAutolinks() {
        #expect(CMark.html(from: "~~old~~").contains("<del>old</del>"))
        #expect(CMark.html(from: "see https://example.com").contains(#"<a href="https://example.com">"#))
    }

    @Test func tagFilterDisarmsScriptsEvenInTemplates() {
        let html = CMark.html(from: "<script>alert(1)</script>\n")
        #expect(!html.contains("<script>"))
    }

    @Test func rewritesMarkdownLinksToHTMLInTheNodeTree() {
        let html = CMark.html(from: "[a](roundups/index.md) [b](../x/2026-W47.md#total) [c](https://example.com/readme.md) `[d](e.md)`",
                              rewriteLink: Page.htmlLink(ofMarkdownLink:))
        #expect(html.contains(#"href="roundups/index.html""#))
        #expect(html.contains(#"href="../x/2026-W47.html#total""#))
        #expect(html.contains(#"href="https://example.com/readme.md""#))
        #expect(html.contains("<code>[d](e.md)</code>"))
    }
}

@Suite struct SVGIslandTests {
    @Test func chartsKeepTheirTitlesThroughTheTagFilter() {
        let chart = Chart.bars([.init(label: "Food", value: 5, valueText: "£5.00")], title: "Spending")
        let html = SVGIslands.html(from: "# Page\n\n\(ChartSVG.draw(chart))\n\n<title>raw</title>\n", rewriteLink: { _ in nil })
        #expect(html.contains("<title>Spending</title>"))
        #expect(html.contains("<title>Food: £5.00</title>"))
        #expect(html.contains("&lt;title>raw&lt;/title>"), "other raw HTML still goes through the tag filter")
        #expect(!html.contains("nestegg-svg"))
    }

    @Test func textFromDataIsNeverLifted() {
        let hostile = Escape.markdown("<svg onload=alert(1)><title>x</title></svg>")
        let html = SVGIslands.html(from: "Name: \(hostile)\n", rewriteLink: { _ in nil })
        #expect(!html.contains("<svg"))
        #expect(html.contains("&lt;svg onload=alert(1)&gt;"))
    }
}
