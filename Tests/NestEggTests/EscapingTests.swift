import Testing
@testable import NestEggCore

@Suite struct EscapingTests {
    @Test func markdownEscapingKeepsDataLiteral() {
        #expect(Escape.markdown("Fish & Chips") == #"Fish \& Chips"#)
        #expect(Escape.markdown("a|b") == #"a\|b"#)
        #expect(Escape.markdown("<script>alert(1)</script>") == #"\<script\>alert(1)\</script\>"#)
        #expect(Escape.markdown("[click](javascript:alert(1))") == #"\[click\](javascript:alert(1))"#)
        let emphasis = Escape.markdown("*bold* _it_ ~x~")
        #expect(emphasis == #"\*bold\* \_it\_ \~x\~"#)
        let code = Escape.markdown("`code`")
        #expect(code == "\\`code\\`")
        #expect(Escape.markdown("# Heading") == ##"\# Heading"##)
        #expect(Escape.markdown("- item") == #"\- item"#)
        #expect(Escape.markdown("1. first") == #"1\. first"#)
        #expect(Escape.markdown("---") == #"\---"#)
        #expect(Escape.markdown("line\nbreak") == "line break")
        #expect(Escape.markdown("&amp;") == #"\&amp;"#)
        // Values that only look like markers stay readable.
        #expect(Escape.markdown("-£3.20") == "-£3.20")
        #expect(Escape.markdown("2026-W47") == "2026-W47")
        #expect(Escape.markdown("1.5") == "1.5")
        #expect(Escape.markdown("Trip to Paris") == "Trip to Paris")
    }

    @Test func escapedDataRendersAsTextThroughCmark() {
        for hostile in ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
                        "| a | b |", "**bold**", "&lt;b&gt;", "<!-- x -->", "![i](http://evil/x.png)"] {
            let html = CMark.html(from: "| Name |\n|---|\n| \(Escape.markdown(hostile)) |\n")
            #expect(!html.contains("<script"), "\(hostile) → \(html)")
            #expect(!html.contains("<img"), "\(hostile) → \(html)")
            // A bare http(s) URL in data may become a plain link (GitHub's autolinks); nothing else may.
            #expect(!html.contains("href") || html.contains(#"<a href="http://evil/x.png">"#), "\(hostile) → \(html)")
            #expect(!html.contains("javascript:alert(1)\""), "\(hostile) → \(html)")
            #expect(!html.contains("<strong>"), "\(hostile) → \(html)")
            #expect(!html.contains("<!--"), "\(hostile) → \(html)")
            #expect(html.contains("<td>"), "\(hostile) → \(html)")
        }
    }

    @Test func noValueFromDataBecomesALinkOrABlock() {
        for hostile in ["see https://evil.example/x", "www.evil.example", "WWW.EVIL.EXAMPLE", "   # heading",
                        "    indented code", "x\n\n[click](javascript:alert(1))", "mail a@b.example"] {
            let html = CMark.html(from: "Value: \(Escape.markdown(hostile))\n\n\(Escape.markdown(hostile))\n")
            #expect(!html.contains("<a "), "\(hostile) → \(html)")
            #expect(!html.contains("<h1") && !html.contains("<pre") && !html.contains("<code"), "\(hostile) → \(html)")
        }
        // Spaces inside a value are kept; only leading ones go.
        #expect(Escape.markdown("  a  b") == "a  b")
        #expect(Escape.markdown(" continued", lineStart: false) == " continued")
    }

    @Test func rawHTMLValuesCannotEndTheirHTMLBlock() {
        let label = Escape.html("x\n\n[click me](javascript:alert(1)) ![p](https://evil.example/t.png)")
        let html = CMark.html(from: "<div class=\"figure\"><span>\(label)</span></div>\n")
        #expect(!html.contains("<a "), "\(html)")
        #expect(!html.contains("<img"), "\(html)")
    }

    @Test func onlySafeDestinationsSurviveTheNodeWalk() {
        let html = CMark.html(from: "[a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example) [d](../x.md) [e](#top)\n")
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("data:"))
        #expect(html.contains(#"href="https://ok.example""#) && html.contains(#"href="../x.md""#))
        #expect(html.contains(##"href="#top""##))
    }

    @Test func diagnosticsCannotForgeLogLines() {
        let diagnostic = Diagnostic(.error, file: "a.json", line: 1, column: 2, message: "found \"2026\n::add-mask::x\u{1B}[31m\"")
        #expect(!diagnostic.description.contains("\n"))
        #expect(!diagnostic.description.contains("\u{1B}"))
        #expect(diagnostic.description.contains("\\n::add-mask::x\\u{1B}[31m"))
    }

    @Test func htmlEscapingCoversAttributes() {
        #expect(Escape.html(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func onlyHTTPURLsAreSafe() {
        #expect(SafeURL("https://example.com/a b.png")?.description == "https://example.com/a%20b.png")
        #expect(SafeURL(" http://example.com/x?y=1&z=(2) ")?.description == "http://example.com/x?y=1&amp;z=%282%29")
        #expect(SafeURL("javascript:alert(1)") == nil)
        #expect(SafeURL("JaVaScRiPt:alert(1)") == nil)
        #expect(SafeURL("data:image/png;base64,AAAA") == nil)
        #expect(SafeURL("//evil.example/x") == nil)
        #expect(SafeURL("https://x/\"><script>")?.description == "https://x/%22%3E%3Cscript%3E")
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

    /// The escapers' short way (a value with nothing to escape is returned as it is) must never
    /// skip what the long way would change: every string of up to three pieces from a set of
    /// awkward ones, at a line's start and in its middle.
    @Test func theShortWayAgreesWithTheLongWay() {
        let pieces = ["a", " ", "  ", "1", "1.", "1)", "#", "-", "+", "=", "*", "_", ":", "//", "https", "www", "WwW", ".",
                      "\\", "`", "[", "]", "<", ">", "|", "&", "~", "!", "{", "}", "\n", "\t", "\r", "\u{2028}", "€", "–",
                      "£", "é", "\"", "'", "\u{7F}", "\u{1}"]
        var checked = 0
        for a in pieces {
            for b in pieces {
                for c in ["", "x", ".", "//", "\u{2029}"] {
                    let text = a + b + c
                    for lineStart in [true, false] {
                        #expect(Escape.markdown(text, lineStart: lineStart) == Escape.escapedMarkdown(text, lineStart: lineStart),
                                "\(text.debugDescription), line start: \(lineStart)")
                    }
                    #expect(Escape.html(text) == Escape.escapedHTML(text), "\(text.debugDescription)")
                    checked += 1
                }
            }
        }
        #expect(checked == pieces.count * pieces.count * 5)
    }
}
