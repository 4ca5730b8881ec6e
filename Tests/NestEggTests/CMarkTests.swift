import Testing
@testable import NestEggCore

@Suite struct CMarkTests {
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
                              rewriteLink: CMark.markdownLinkToHTML)
        #expect(html.contains(#"href="roundups/index.html""#))
        #expect(html.contains(#"href="../x/2026-W47.html#total""#))
        #expect(html.contains(#"href="https://example.com/readme.md""#))
        #expect(html.contains("<code>[d](e.md)</code>"))
    }
}
