import Foundation
import Testing
import NestEggSupport

/// The byte-level short ways of ``Text`` agree with the Unicode-level long ways they stand for.
@Suite struct TextTests {
    /// Names built from the characters that matter to a grouping key: letters of both cases,
    /// `_`, every kind of ASCII white space, digits and punctuation.
    static let names: [String] = {
        let parts = ["Tesco", "EATING_OUT", "eating  out", " Eating\tOut\n", "_a_", "__", "a_ _b", "\u{0B}x\u{0C}", "O'Neil & Co.",
                     "ZZ9", "", " ", "\r\n", "McDonald's", "A-Z", "[x]"]
        var names = parts
        for a in parts { for b in parts { names.append(a + b); names.append(a + " " + b) } }
        return names
    }()

    @Test func anASCIIGroupingKeyIsTheUnicodeOne() {
        for name in Self.names {
            let long = Text.singleLine(name.replacingOccurrences(of: "_", with: " ")).lowercased().precomposedStringWithCanonicalMapping
            #expect(Text.groupingKey(name) == long, "\(name.debugDescription)")
        }
        // Not ASCII: the long way, so a composed and a decomposed é group together.
        #expect(Text.groupingKey("Caf\u{E9}") == Text.groupingKey("Cafe\u{301}"))
    }

    @Test func textWithoutBidiControlsIsReturnedAsItIs() {
        for text in ["£5,636.20", "Ünïcödé — “quotes”", "\u{2028}", "\u{2069}", "a\u{202E}b", "\u{061C}1", "\u{200E}"] {
            let long = String(String.UnicodeScalarView(text.unicodeScalars.filter { !Text.isBidiControl($0) }))
            #expect(Text.withoutBidiControls(text) == long, "\(text.debugDescription)")
        }
    }
}
