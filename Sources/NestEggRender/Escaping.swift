import NestEggReport
import NestEggModel
import NestEggSupport
/// Where a value from data lands in a template. The template parser works it out for every
/// `{{name}}` from the text around the tag (``PlacementScanner``); code that writes Markdown or
/// HTML itself names it (a table row's cells are ``tableCell``).
public enum Placement: String, Sendable, Hashable, CaseIterable {
    /// Markdown text in the middle of a line: `Kiva calls it {{name}}.`
    case paragraph
    /// Markdown text that may begin a line: `{{summary}}, from…` (a block could start there).
    case lineStart
    /// The start of a list item's text: `- {{name}}` (a block could start there too).
    case listItem
    /// A table cell: `| {{name}} |`.
    case tableCell
    /// An ATX heading's text: `## {{name}}` (where a closing `#` sequence could end it).
    case heading
    /// A link's text: `[{{name}}](…)`.
    case linkText
    /// A link destination, in Markdown (`[x]({{root}}{{href}})`) or an HTML `href`/`src` attribute.
    case url
    /// Text inside raw HTML: an element's content (`<span>{{label}}</span>`).
    case htmlText
    /// A quoted HTML attribute value other than a URL (`id="{{id}}"`, `aria-label="{{label}}"`).
    case htmlAttribute
}

/// Escaping for each place a string from data can land. Every escaper first **normalises** the
/// value — docs/guarantees.md's "Safety" section documents it, ``normalised(_:)`` does it — and then
/// escapes the normal text, deciding on what it will emit (never on the bytes it was given):
///
/// 1. control characters (U+0000–U+001F, U+007F–U+009F) other than the white space below go;
/// 2. each run of white space that holds a tab, a line break (LF, CR, VT, FF, U+0085) or a line or
///    paragraph separator (U+2028, U+2029) becomes one space; runs of plain spaces stay;
/// 3. white space at both ends goes (any Unicode white space, so emphasis around it still closes).
///
/// Then only what could become structure in that place is escaped, so Markdown stays readable
/// (`Sara & Tom`, `<0.01`, `snake_case` and `-£3.20` pass as they are); the property test
/// (`DataIsTextPropertyTests`) renders every escaper's output through cmark-gfm to hold it to that.
public enum Escape {
    /// `text` escaped for `placement`. Some placements share their rules: a table cell and a link's
    /// text need nothing the middle of a line does not (`|`, `[` and `]` are escaped in all Markdown
    /// text), a list item's start what a line's start needs, and HTML text what a quoted attribute
    /// needs (`&`, `<`, `>`, `"` and `'`).
    public static func value(_ text: String, at placement: Placement) -> String {
        switch placement {
        case .paragraph, .tableCell, .linkText: return markdown(text, .inline)
        case .lineStart, .listItem: return markdown(text, .lineStart)
        case .heading: return markdown(text, .heading)
        case .url: return url(text)
        case .htmlText, .htmlAttribute: return html(text)
        }
    }

    /// Markdown text in one of the Markdown placements (``Placement/lineStart`` unless told).
    public static func markdown(_ text: String, in placement: Placement = .lineStart) -> String {
        value(text, at: placement)
    }

    // MARK: Normalisation

    /// The text a value shows once it is on a page (``Text/normalised(_:)``).
    public static func normalised(_ text: String) -> String { Text.normalised(text) }

    // MARK: Markdown

    /// What Markdown text must guard against besides inline markup.
    struct MarkdownRules: Sendable {
        /// A block could start where the value starts (a line or a list item's text).
        var lineStart = false
        /// A closing `#` sequence would end the heading at the value's end.
        var heading = false

        static let inline = MarkdownRules()
        static let lineStart = MarkdownRules(lineStart: true)
        static let heading = MarkdownRules(heading: true)
    }

    /// What the Markdown escaper does before one byte of normal text.
    enum MarkdownAction { case keep, backslash, breakEmail }

    /// Put before an `@` that could join an e-mail address: an empty HTML comment, invisible in
    /// cmark's HTML and on GitHub. The autolinkers find addresses in text nodes after backslash
    /// escapes are gone (`a\@b.example` still becomes a link); the comment is a node of its own.
    static let emailBreak = Array("<!-- -->".utf8)

    /// Bytes that may need something in some Markdown placement (everything else never does).
    private static let markdownTrigger: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "\\`*_~[]<&|:.@#>-+=)".utf8 { table[Int(byte)] = true }
        return table
    }()

    static func markdown(_ text: String, _ rules: MarkdownRules) -> String {
        var text = text
        return text.withUTF8 { (bytes) -> String? in
            if let normal = Text.normalisedBytes(bytes) {
                return normal.withUnsafeBufferPointer { isolated(escapedMarkdown($0, rules, from: 0), from: $0) }
            }
            // The short way: most values have nothing to escape and are returned as they are.
            guard let first = firstMarkdownChange(bytes, rules) else {
                return Text.isolatedIfRightToLeft(String(decoding: bytes, as: UTF8.self), from: bytes)
            }
            return isolated(escapedMarkdown(bytes, rules, from: first), from: bytes)
        } ?? text
    }

    /// `escaped`, made from the normal text `normal`, inside a directional isolate when it holds
    /// right-to-left text (``Text/isolatedIfRightToLeft(_:from:)``): a name in Hebrew or Arabic
    /// keeps its own order without reordering the balance or the date written after it. Text
    /// placements only: a URL's bytes are percent-encoded and never shown as text.
    static func isolated(_ escaped: String, from normal: UnsafeBufferPointer<UInt8>) -> String {
        Text.isolatedIfRightToLeft(escaped, from: normal) ?? escaped
    }

    /// Text that is normal already, but for a space at either end (a piece of a longer text, as
    /// ``RichText`` writes between emphasis markers), as Markdown.
    static func markdownText(_ text: String, lineStart: Bool) -> String {
        let rules: MarkdownRules = lineStart ? .lineStart : .inline
        var text = text
        return text.withUTF8 { (bytes) -> String? in
            guard let first = firstMarkdownChange(bytes, rules) else { return nil }
            return escapedMarkdown(bytes, rules, from: first)
        } ?? text
    }

    /// Whether `text` comes out of the escaper for `placement` unchanged (the short way).
    static func isPlain(_ text: String, at placement: Placement) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            if Text.needsNormalising(bytes) { return false }
            if placement != .url, Text.hasRightToLeft(bytes) { return false }
            switch placement {
            case .paragraph, .tableCell, .linkText: return firstMarkdownChange(bytes, .inline) == nil
            case .lineStart, .listItem: return firstMarkdownChange(bytes, .lineStart) == nil
            case .heading: return firstMarkdownChange(bytes, .heading) == nil
            case .url: return firstURLChange(bytes) == nil
            case .htmlText, .htmlAttribute: let special = htmlSpecial; return !bytes.contains(where: { special[Int($0)] })
            }
        }
    }

    /// ``value(_:at:)`` the long way: normalised and escaped byte by byte, nothing skipped.
    static func escapedLongWay(_ text: String, at placement: Placement) -> String {
        var normal = Array(normalised(text).utf8)
        return normal.withUnsafeMutableBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(buffer)
            switch placement {
            case .paragraph, .tableCell, .linkText: return isolated(escapedMarkdown(bytes, .inline, from: 0), from: bytes)
            case .lineStart, .listItem: return isolated(escapedMarkdown(bytes, .lineStart, from: 0), from: bytes)
            case .heading: return isolated(escapedMarkdown(bytes, .heading, from: 0), from: bytes)
            case .url: return escapedURL(bytes)
            case .htmlText, .htmlAttribute: return isolated(escapedHTML(bytes), from: bytes)
            }
        }
    }

    private static func firstMarkdownChange(_ bytes: UnsafeBufferPointer<UInt8>, _ rules: MarkdownRules) -> Int? {
        let trigger = markdownTrigger
        for index in bytes.indices where trigger[Int(bytes[index])] && markdownAction(bytes, index, rules) != .keep { return index }
        return nil
    }

    /// Normal `bytes` as Markdown, copied as they are up to `start` (where the first change is).
    private static func escapedMarkdown(_ bytes: UnsafeBufferPointer<UInt8>, _ rules: MarkdownRules, from start: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<start]))
        let trigger = markdownTrigger
        for index in start..<bytes.count {
            if trigger[Int(bytes[index])] {
                switch markdownAction(bytes, index, rules) {
                case .keep: break
                case .backslash: out.append(UInt8(ascii: "\\"))
                case .breakEmail: out.append(contentsOf: emailBreak)
                }
            }
            out.append(bytes[index])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The rules, on the normal text `s` as it will be emitted (`p` and `n` are the bytes before
    /// and after; at the value's ends they are unknown template text, so the cautious choice holds).
    static func markdownAction(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ rules: MarkdownRules) -> MarkdownAction {
        let c = s[i]
        let p: UInt8? = i > 0 ? s[i - 1] : nil
        let n: UInt8? = i + 1 < s.count ? s[i + 1] : nil
        let space = UInt8(ascii: " ")
        if rules.lineStart && i == 0 && startsABlock(s) { return .backslash }
        if rules.lineStart && (c == UInt8(ascii: ".") || c == UInt8(ascii: ")")) && endsAListNumber(s, i) { return .backslash }
        switch c {
        case UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "|"):
            // Code spans (closed by any later backtick, the template's too), links, table cells.
            return .backslash
        case UInt8(ascii: "\\"):
            // Escapes the next punctuation character, or (at a line's end) makes a line break.
            return n.map(isASCIIPunctuation) ?? true ? .backslash : .keep
        case UInt8(ascii: "*"), UInt8(ascii: "~"):
            // Emphasis and strikethrough, also inside words; inert only with spaces on both sides.
            return p == space && n == space ? .keep : .backslash
        case UInt8(ascii: "_"):
            // Inside a word (`snake_case`) or between spaces `_` can neither open nor close emphasis.
            if p == space && n == space { return .keep }
            if let p, let n, isASCIIAlphanumeric(p), isASCIIAlphanumeric(n) { return .keep }
            return .backslash
        case UInt8(ascii: "<"):
            // Raw HTML (`<a`, `</a`, `<!--`, `<?`) or an autolink (`<x:y>`, `<a@b.example>`).
            guard let n else { return .backslash }
            if isASCIILetter(n) || n == UInt8(ascii: "/") || n == UInt8(ascii: "!") || n == UInt8(ascii: "?") { return .backslash }
            return s[(i + 1)...].contains(UInt8(ascii: ">")) ? .backslash : .keep
        case UInt8(ascii: "&"):
            // An entity or character reference (`&amp;`, `&#38;`): `&` then name and `;`.
            guard let n else { return .backslash }
            if n == UInt8(ascii: "#") { return .backslash }
            var end = i + 1
            while end < s.count && isASCIIAlphanumeric(s[end]) { end += 1 }
            return end > i + 1 && end < s.count && s[end] == UInt8(ascii: ";") ? .backslash : .keep
        case UInt8(ascii: ":"):
            // `scheme://` is what the autolinkers (cmark-gfm's and GitHub's) look for.
            return i + 2 < s.count && s[i + 1] == UInt8(ascii: "/") && s[i + 2] == UInt8(ascii: "/") ? .backslash : .keep
        case UInt8(ascii: "."):
            // `www.` is the autolinkers' other trigger (cmark-gfm's wants it to start a word; any is broken).
            return i >= 3 && s[i - 3] | 0x20 == UInt8(ascii: "w") && s[i - 2] | 0x20 == UInt8(ascii: "w") && s[i - 1] | 0x20 == UInt8(ascii: "w")
                ? .backslash : .keep
        case UInt8(ascii: "@"):
            // An e-mail address (also after `mailto:` or `xmpp:`) needs a local part right before the
            // `@` and a domain right after it.
            guard let p, let n, isEmailLocal(p), isASCIIAlphanumeric(n) || n == UInt8(ascii: "-") || n == UInt8(ascii: "_")
                    || n == UInt8(ascii: ".") else { return .keep }
            return .breakEmail
        case UInt8(ascii: "#"):
            // In a heading, a final run of `#` after a space (or alone) would be its closing sequence.
            guard rules.heading, i == 0 || p == space, s[i...].allSatisfy({ $0 == UInt8(ascii: "#") }) else { return .keep }
            return .backslash
        default:
            return .keep
        }
    }

    /// Whether normal text `s` would begin a block at the start of a line: an ATX heading, a block
    /// quote, a bullet list item, a thematic break, a setext underline or a table's delimiter row
    /// (which would make the line above a table's header). (Ordered list items are
    /// ``endsAListNumber(_:_:)``; code, HTML and fences start with what is escaped anyway, and
    /// leading white space is gone.)
    private static func startsABlock(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        let first = s[0]
        let second: UInt8? = s.count > 1 ? s[1] : nil
        switch first {
        case UInt8(ascii: "#"), UInt8(ascii: ">"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "+"):
            if second == nil || second == UInt8(ascii: " ") { return true }
            // A rule or setext underline (`---`), or a table's delimiter row (`-:`).
            return first == UInt8(ascii: "-")
                && s.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: " ") }
        case UInt8(ascii: "="):
            return s.allSatisfy { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: " ") }
        case UInt8(ascii: ":"):
            // `:-`, `:--:`: a table's delimiter row, which makes the line before it a table header.
            return s.contains(UInt8(ascii: "-")) && s.allSatisfy { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: " ") }
        default:
            return false
        }
    }

    /// Whether `s[i]` (a `.` or `)`) ends the number of an ordered list item: up to nine digits
    /// from the start, then a space or the value's end.
    private static func endsAListNumber(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        i >= 1 && i <= 9 && s[..<i].allSatisfy(isASCIIDigit) && (i + 1 == s.count || s[i + 1] == UInt8(ascii: " "))
    }

    static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isASCIILetter(_ byte: UInt8) -> Bool { byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z") }
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool { isASCIIDigit(byte) || isASCIILetter(byte) }
    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }
    /// The characters an autolinked e-mail address's local part is made of.
    static func isEmailLocal(_ byte: UInt8) -> Bool {
        isASCIIAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    // MARK: HTML

    /// Bytes ``html(_:)`` escapes.
    private static let htmlSpecial: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "&<>\"'|".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Text as the inside of a CSS string (`content: "…"` in a `<style>` element): every character
    /// but ASCII letters, digits and spaces as its code point (`\3C ` for `<`), so that nothing in
    /// it can end the string, the rule or the element; text normalised first (one line, no
    /// controls), and a U+0000 left out (CSS has no escape for it).
    public static func cssString(_ text: String) -> String {
        var out = ""
        for scalar in Text.normalised(text).unicodeScalars where scalar.value != 0 {
            let value = scalar.value
            let plain = (value >= 0x30 && value <= 0x39) || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A) || value == 0x20
            if plain { out.unicodeScalars.append(scalar) } else { out += "\\" + String(value, radix: 16, uppercase: true) + " " }
        }
        return out
    }

    /// Text for HTML element content and quoted attribute values — also inside raw HTML that a
    /// Markdown template writes, where normalisation keeps a value on its line (a blank line would
    /// end cmark's HTML block and let the rest be read as Markdown) and `|` is `&#124;` (it would
    /// split a table row's cell).
    public static func html(_ text: String) -> String {
        var text = text
        return text.withUTF8 { (bytes) -> String? in
            if let normal = Text.normalisedBytes(bytes) { return normal.withUnsafeBufferPointer { isolated(escapedHTML($0), from: $0) } }
            let special = htmlSpecial
            if bytes.contains(where: { special[Int($0)] }) { return isolated(escapedHTML(bytes), from: bytes) }
            return Text.isolatedIfRightToLeft(String(decoding: bytes, as: UTF8.self), from: bytes)
        } ?? text
    }

    private static func escapedHTML(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            // Raw HTML can stand in a Markdown table row, whose cells a `|` would split.
            case UInt8(ascii: "|"): out.append(contentsOf: "&#124;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: URLs

    /// A link destination, right both in Markdown (`[x](…)`) and in a quoted HTML attribute:
    /// bytes other than letters, digits and `-._~!$*+,;=:@/?#%` are percent-encoded, `&` is
    /// written `&amp;` (which both decode), and the URL cannot leave the site's own pages and
    /// http(s): the `:` of any other scheme (`javascript:`), and any other in the first segment, is
    /// encoded, making the value a relative path, and so is the second `/` of a leading `//` (a
    /// link to another host).
    public static func url(_ text: String) -> String {
        var text = text
        return text.withUTF8 { (bytes) -> String? in
            if let normal = Text.normalisedBytes(bytes) { return normal.withUnsafeBufferPointer(escapedURL) }
            return firstURLChange(bytes) == nil ? nil : escapedURL(bytes)
        } ?? text
    }

    private static let urlKept: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$*+,;=:@/?#%".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Where the URL's first segment ends (at its first `/`, `?` or `#`) if a colon in it makes a
    /// scheme other than http(s): its colons are encoded, and it is a relative path.
    private static func foreignSchemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var end = 0
        var colon: Int? = nil
        while end < bytes.count && bytes[end] != UInt8(ascii: "/") && bytes[end] != UInt8(ascii: "?") && bytes[end] != UInt8(ascii: "#") {
            if colon == nil && bytes[end] == UInt8(ascii: ":") { colon = end }
            end += 1
        }
        guard let colon else { return nil }
        let isWeb = (colon == 4 || (colon == 5 && bytes[4] | 0x20 == UInt8(ascii: "s"))) && bytes[0] | 0x20 == UInt8(ascii: "h")
            && bytes[1] | 0x20 == UInt8(ascii: "t") && bytes[2] | 0x20 == UInt8(ascii: "t") && bytes[3] | 0x20 == UInt8(ascii: "p")
        return isWeb ? nil : end
    }

    private static func firstURLChange(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if foreignSchemeEnd(bytes) != nil { return bytes.firstIndex(of: UInt8(ascii: ":")) }
        if bytes.count >= 2 && bytes[0] == UInt8(ascii: "/") && bytes[1] == UInt8(ascii: "/") { return 1 }
        let kept = urlKept
        return bytes.firstIndex { !kept[Int($0)] }
    }

    private static func escapedURL(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let segmentEnd = foreignSchemeEnd(bytes) ?? 0
        let kept = urlKept
        let hostStart = bytes.count >= 2 && bytes[0] == UInt8(ascii: "/") && bytes[1] == UInt8(ascii: "/")
        let hex = Array("0123456789ABCDEF".utf8), ampersand = Array("&amp;".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                out.append(contentsOf: ampersand)
            } else if kept[Int(byte)] && !(byte == UInt8(ascii: ":") && index < segmentEnd) && !(hostStart && index == 1) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

