import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct EscapingTests {
    @Test func markdownEscapingKeepsDataLiteral() {
        let md = { (text: String) in Escape.markdown(text, in: .paragraph) }
        #expect(md("a|b") == #"a\|b"#)
        #expect(md("<script>alert(1)</script>") == #"\<script>alert(1)\</script>"#)
        #expect(md("[click](javascript:alert(1))") == #"\[click\](javascript:alert(1))"#)
        #expect(md("*bold* _it_ ~x~") == #"\*bold\* \_it\_ \~x\~"#)
        #expect(md("`code`") == "\\`code\\`")
        #expect(md("&amp; &#39;") == #"\&amp; \&#39;"#)
        #expect(md("line\nbreak") == "line break")
        #expect(md("C:\\Users\\x") == #"C:\Users\x"#, "a backslash before a letter escapes nothing")
        #expect(md("ends in \\") == #"ends in \\"#, "…but at the end it could meet the template's next character")
        // Only what could become structure is escaped: these stay as they are.
        for plain in ["Fish & Chips", "Sara & Tom", "AT&T", "<0.01", "a < b", "x > y", "snake_case_name", "2 * 3", "a ~ b", "-£3.20",
                      "2026-W47", "1.5", "Trip to Paris", "14:27", "Hello!", "50% off", "#1 fan", "+44 20", "(a) b"] {
            #expect(md(plain) == plain, "\(plain)")
        }
    }

    @Test func lineStartsAndHeadingsGuardTheirBlocks() {
        let start = { (text: String) in Escape.markdown(text, in: .lineStart) }
        #expect(start("# Heading") == ##"\# Heading"##)
        #expect(start("##\tx") == "\\## x", "decided on the tab turned space, not on the tab")
        #expect(start("- item") == #"\- item"#)
        #expect(start("-\nitem") == #"\- item"#)
        #expect(start("+\u{2028}x") == #"\+ x"#)
        #expect(start("> quote") == #"\> quote"#)
        #expect(start("1. first") == #"1\. first"#)
        #expect(start("12)\rx") == #"12\) x"#)
        #expect(start("---") == #"\---"#)
        #expect(start("===") == #"\==="#)
        #expect(start("-£3.20") == "-£3.20")
        #expect(start("1.5") == "1.5")
        #expect(start("#1 fan") == ##"\#1 fan"##)
        #expect(Escape.markdown("#1 fan", in: .paragraph) == "#1 fan", "in the middle of a line nothing starts")
        let heading = { (text: String) in Escape.markdown(text, in: .heading) }
        #expect(heading("Trip #") == ##"Trip \#"##)
        #expect(heading("Trip ##") == "Trip \\##")
        #expect(heading("#") == ##"\#"##)
        #expect(heading("Trip #2") == "Trip #2")
        #expect(heading("C#") == "C#")
    }

    @Test func escapedDataRendersAsTextThroughCmark() {
        for hostile in ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
                        "| a | b |", "**bold**", "&lt;b&gt;", "<!-- x -->", "![i](http://evil/x.png)"] {
            let html = CMark.html(from: "| Name |\n|---|\n| \(Escape.markdown(hostile, in: .tableCell)) |\n")
            #expect(!html.contains("<script"), "\(hostile) → \(html)")
            #expect(!html.contains("<img"), "\(hostile) → \(html)")
            #expect(!html.contains("href"), "\(hostile) → \(html)")
            #expect(!html.contains("<strong>"), "\(hostile) → \(html)")
            #expect(!html.contains("<!-- x"), "\(hostile) → \(html)")
            #expect(html.contains("<td>"), "\(hostile) → \(html)")
        }
    }

    @Test func noValueFromDataBecomesALinkOrABlock() {
        for hostile in ["see https://evil.example/x", "www.evil.example", "WWW.EVIL.EXAMPLE", "   # heading",
                        "    indented code", "x\n\n[click](javascript:alert(1))", "mail a@b.example", "xmpp:a@b.example",
                        "mailto:a@b.example", "http:\u{1}//evil.example/x", "ftp://evil.example"] {
            let markdown = "Value: \(Escape.markdown(hostile, in: .paragraph))\n\n\(Escape.markdown(hostile, in: .lineStart))\n"
            for html in [CMark.html(from: markdown), CMark.htmlWithoutNodePass(from: markdown)] {
                #expect(!html.contains("<a "), "\(hostile) → \(html)")
                #expect(!html.contains("<h1") && !html.contains("<pre") && !html.contains("<code"), "\(hostile) → \(html)")
            }
        }
        // Spaces inside a value are kept; those at its ends go.
        #expect(Escape.markdown("  a  b ") == "a  b")
        #expect(Escape.markdown("a@b.example") == "a<!-- -->@b.example", "the e-mail break")
        #expect(Escape.markdown("@home, me@ work") == "@home, me@ work", "no address, no break")
    }

    @Test func rawHTMLValuesCannotEndTheirHTMLBlock() {
        let label = Escape.html("x\n\n[click me](javascript:alert(1)) ![p](https://evil.example/t.png)")
        #expect(!label.contains("\n"))
        let html = CMark.html(from: "<div class=\"figure\"><span>\(label)</span></div>\n")
        #expect(!html.contains("<a "), "\(html)")
        #expect(!html.contains("<img"), "\(html)")
    }

    @Test func onlySafeDestinationsSurviveTheNodeWalk() {
        let html = CMark.html(from: "[a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example) [d](../x.md) [e](#top) "
                              + "[f](//evil.example) [g](/\\evil.example) ![h](mailto:x@y.z) <xmpp:a@b.example>\n")
        #expect(!html.contains("javascript:") && !html.contains("data:") && !html.contains("evil") && !html.contains("mailto"))
        #expect(!html.contains("xmpp:a@b.example\""), "no empty or unsafe link is left: \(html)")
        #expect(html.contains(#"href="https://ok.example""#) && html.contains(#"href="../x.md""#))
        #expect(html.contains(##"href="#top""##))
        #expect(html.contains("<p>a b <a href") && html.contains("f g h xmpp:a@b.example</p>"), "each unsafe link is its text: \(html)")
        #expect(html.components(separatedBy: "<a ").count == 4)
    }

    @Test func diagnosticsCannotForgeLogLines() {
        let diagnostic = Diagnostic(.error, file: "a.json", line: 1, column: 2, message: "found \"2026\n::add-mask::x\u{1B}[31m\"")
        #expect(!diagnostic.description.contains("\n"))
        #expect(!diagnostic.description.contains("\u{1B}"))
        #expect(diagnostic.description.contains("\\n::add-mask::x\\u{1B}[31m"))
    }

    /// A GitHub Actions annotation shows control characters in file, message and path as the plain
    /// diagnostic does: no ESC, BEL or C1 character and no line break reaches the log.
    @Test func annotationsCannotForgeWorkflowCommands() {
        let hostile = "a\u{1B}[31mred\u{7}\u{9B}2J\r\n::add-mask::x%0A"
        let diagnostic = Diagnostic(.warning, file: "data/\(hostile).json", line: 3, column: 4, path: "$.\(hostile)", message: "found \(hostile)")
        let annotation = diagnostic.githubAnnotation
        #expect(!annotation.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(annotation.debugDescription)")
        #expect(annotation.hasPrefix("::warning file=data/a\\u{1B}[31mred\\u{7}\\u{9B}2J\\r\\n%3A%3Aadd-mask%3A%3Ax%250A.json,line=3,col=4::"))
        #expect(annotation.hasSuffix("found a\\u{1B}[31mred\\u{7}\\u{9B}2J\\r\\n::add-mask::x%250A (at $.a\\u{1B}[31mred\\u{7}\\u{9B}2J\\r\\n::add-mask::x%250A)"))
        #expect(Diagnostic(.error, file: "a.json", message: "plain").githubAnnotation == "::error file=a.json::plain")
    }

    @Test func htmlEscapingCoversAttributes() {
        #expect(Escape.html(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(Escape.html(" a\u{1B}[31m\r\nb ") == "a[31m b")
    }

    @Test func urlsStayOnTheSiteOrOnTheWeb() {
        #expect(Escape.url("../transactions/index.page2.md") == "../transactions/index.page2.md")
        #expect(Escape.url("https://example.com/a?b=1&c=2") == "https://example.com/a?b=1&amp;c=2")
        #expect(Escape.url("javascript:alert(1)") == "javascript%3Aalert%281%29", "a relative path, not a script")
        #expect(Escape.url("JavaScript\u{1}:x") == "JavaScript%3Ax")
        #expect(Escape.url("//evil.example/x") == "/%2Fevil.example/x")
        #expect(Escape.url("a b\"<>\\`'") == "a%20b%22%3C%3E%5C%60%27")
        #expect(Escape.url("é") == "%C3%A9")
    }

    @Test func onlyHTTPURLsAreSafe() {
        // A SafeURL is checked and normalised; Render encodes it where it lands, as any URL.
        #expect(SafeURL("https://example.com/a b.png").map { Escape.url($0.description) } == "https://example.com/a%20b.png")
        #expect(SafeURL(" http://example.com/x?y=1&z=(2) ").map { Escape.url($0.description) } == "http://example.com/x?y=1&amp;z=%282%29")
        #expect(SafeURL("javascript:alert(1)") == nil)
        #expect(SafeURL("JaVaScRiPt:alert(1)") == nil)
        #expect(SafeURL("data:image/png;base64,AAAA") == nil)
        #expect(SafeURL("//evil.example/x") == nil)
        #expect(SafeURL("https://x/\"><script>").map { Escape.url($0.description) } == "https://x/%22%3E%3Cscript%3E")
    }

    @Test func slugsAreSafeStableAndUnique() {
        #expect(Slug.make("Trip to Paris!") == "trip-to-paris")
        #expect(Slug.make("Café Crème") == "cafe-creme")
        #expect(Slug.make("../../etc/passwd") == "etc-passwd")
        #expect(Slug.make("CON") == "con-item")
        #expect(Slug.make("???") == "item")
        #expect(Slug.make("日本") == "item")
        #expect(Slug.make(String(repeating: "a", count: 100)).count == 60)
        var allocator = SlugAllocator(reserved: ["index"])
        #expect(allocator.allocate("Bike") == "bike")
        #expect(allocator.allocate("Bike") == "bike-2")
        #expect(allocator.allocate("bike!") == "bike-3")
        #expect(allocator.allocate("Index") == "index-2")
    }

    /// The allocator remembers where each name's counter stands; the slugs are the ones a fresh
    /// count from 2 would give, also when a numbered slug was taken by another name in between.
    @Test func slugCountersSkipWhatIsTaken() {
        var allocator = SlugAllocator(reserved: ["bike-3"])
        let slugs = ["Bike", "Bike", "Bike 2", "Bike", "Bike", "Bike 2"].map { allocator.allocate($0) }
        #expect(slugs == ["bike", "bike-2", "bike-2-2", "bike-4", "bike-5", "bike-2-3"])
        var many = SlugAllocator()
        let thousand = (0..<1_000).map { _ in many.allocate("Holiday") }
        #expect(thousand.first == "holiday" && thousand.last == "holiday-1000" && Set(thousand).count == 1_000)
    }

    /// The escapers' short way (a value with nothing to change is returned as it is) must never
    /// skip what the long way would change: every string of up to three pieces from a set of
    /// awkward ones, in every placement.
    @Test func theShortWayAgreesWithTheLongWay() {
        let pieces = ["a", " ", "  ", "1", "1.", "1)", "#", "-", "+", "=", "*", "_", ":", "//", "https", "www", "WwW", ".",
                      "\\", "`", "[", "]", "<", ">", "|", "&", "~", "!", "{", "}", "\n", "\t", "\r", "\u{2028}", "€", "–",
                      "£", "é", "\"", "'", "\u{7F}", "\u{1}", "@", "amp;", "\u{85}", "\u{A0}", "\u{3000}", ")", "(", "%"]
        var checked = 0
        var disagreements: [String] = []
        for a in pieces {
            for b in pieces {
                for c in ["", "x", ".", "//", "\u{2029}", "#", "@b.c"] {
                    let text = a + b + c
                    for placement in Placement.allCases {
                        let long = Escape.escapedLongWay(text, at: placement)
                        if Escape.value(text, at: placement) != long || Escape.isPlain(text, at: placement) != (long == text) {
                            disagreements.append("\(text.debugDescription) at \(placement)")
                        }
                        checked += 1
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(checked == pieces.count * pieces.count * 7 * Placement.allCases.count)
    }
}
