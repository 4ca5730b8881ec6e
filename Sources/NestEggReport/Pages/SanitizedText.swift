import NestEggSupport

/// Rich text from data (the HTML that some APIs put in text: Qapital feed messages, Kiva
/// descriptions), sanitised: what survives is bold (`strong`, `b`), italics (`em`, `i`) and line
/// breaks (`br`); everything else is text. Other tags are dropped with their attributes
/// (`<img onerror=…>`, `<a href="javascript:…">`), `<script>`, `<style>` and kin with their
/// content, and `p`, `div`, `li` and `tr` leave a space. Entities are decoded once (`&amp;lt;`
/// shows as `&lt;`).
///
/// The text is normalised as HTML shows it: control characters removed, each run of white space
/// one space, none at the ends or beside a line break. Reports hold this value; only Render writes
/// it as Markdown (`RichText.markdown(_:)`).
public struct SanitizedText: Sendable, Encodable {
    public enum Content: Sendable {
        /// Text without tags or entities: one run, no emphasis (white space collapsed, controls gone).
        case plain(String)
        /// Styled characters and line breaks, normalised.
        case styled([Atom])
    }

    public let content: Content

    public init(html: String) {
        // Without tags or entities it is plain text: one piece, no emphasis.
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) {
            content = .plain(Self.collapsingWhiteSpace(html))
        } else {
            content = .styled(Self.styledText(fromHTML: html))
        }
    }

    /// Whether nothing is left to show.
    public var isEmpty: Bool {
        switch content {
        case .plain(let text): return text.isEmpty
        case .styled(let atoms): return atoms.isEmpty
        }
    }

    /// The text without its emphasis, line breaks as spaces.
    public var plainText: String {
        switch content {
        case .plain(let text): return text
        case .styled(let atoms):
            var scalars = String.UnicodeScalarView()
            for atom in atoms {
                switch atom {
                case .character(let scalar, _): scalars.append(scalar)
                case .lineBreak: scalars.append(" ")
                }
            }
            return String(scalars)
        }
    }

    /// Anything but Render's template encoder sees the plain text: only Render writes rich text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(plainText)
    }


    /// A style a run of text can have.
    public struct Style: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Style(rawValue: 1)
        public static let italic = Style(rawValue: 2)
    }

    /// One character of the text with its style, or a line break.
    public enum Atom: Equatable, Sendable {
        case character(Unicode.Scalar, Style)
        case lineBreak

        public var isWhiteSpace: Bool {
            if case .character(let scalar, _) = self { return scalar.properties.isWhitespace }
            return false
        }
    }

    /// The HTML as styled characters and line breaks, normalised.
    static func styledText(fromHTML html: String) -> [Atom] {
        var atoms: [Atom] = []
        var style = Style()
        var depth: [UInt8: Int] = [:]   // open <b>/<strong> and <i>/<em>, by style
        var skipping: String? = nil     // inside <script>, <style>…
        var text = ""

        func flushText() {
            guard !text.isEmpty else { return }
            for scalar in decodeEntities(text).unicodeScalars { atoms.append(.character(scalar, style)) }
            text = ""
        }
        func toggle(_ styleBit: Style, closing: Bool) {
            flushText()
            let count = depth[styleBit.rawValue, default: 0] + (closing ? -1 : 1)
            depth[styleBit.rawValue] = max(0, count)
            if count > 0 { style.insert(styleBit) } else { style.remove(styleBit) }
        }

        var scalars = Substring(html).unicodeScalars[...]
        while let scalar = scalars.first {
            if scalar == "<", let close = scalars.firstIndex(of: ">") {
                let inner = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
                scalars = scalars[scalars.index(after: close)...]
                let tag = Tag(inner)
                if let skip = skipping {
                    if tag.isClosing && tag.name == skip { skipping = nil }
                    continue
                }
                guard let name = tag.name else { text.append("<" + inner + ">"); continue }
                switch name {
                case "script", "style", "template", "iframe", "object", "noscript", "textarea", "title":
                    if !tag.isClosing && !tag.isSelfClosing { skipping = name }
                case "strong", "b":
                    if !tag.isSelfClosing { toggle(.bold, closing: tag.isClosing) }
                case "em", "i":
                    if !tag.isSelfClosing { toggle(.italic, closing: tag.isClosing) }
                case "br":
                    flushText()
                    atoms.append(.lineBreak)
                case "p", "div", "li", "tr":
                    text.append(" ")
                default:
                    break  // any other tag is dropped, with its attributes
                }
            } else {
                scalars = scalars.dropFirst()
                if skipping == nil { text.unicodeScalars.append(scalar) }
            }
        }
        flushText()
        return normalised(atoms)
    }

    /// HTML's view of white space, and ``Escape``'s of control characters: controls go, each run of
    /// white space is one space without style (so emphasis never begins or ends with one), and
    /// none is left at the ends or beside a line break, nor a line break at the ends.
    static func normalised(_ atoms: [Atom]) -> [Atom] {
        var out: [Atom] = []
        out.reserveCapacity(atoms.count)
        var pending: Style? = nil  // a run of white space so far, with the styles all of it has
        for atom in atoms {
            switch atom {
            case .character(let scalar, let style) where isCollapsible(scalar):
                pending = pending.map { $0.intersection(style) } ?? style
            case .character(let scalar, _) where Text.isControl(scalar):
                continue
            case .character:
                if let style = pending, let last = out.last, last != .lineBreak { out.append(.character(" ", style)) }
                pending = nil
                out.append(atom)
            case .lineBreak:
                pending = nil
                if !out.isEmpty { out.append(.lineBreak) }
            }
        }
        // Nothing but text at the ends: no line break, no white space (U+00A0 included, as ``Escape`` trims it).
        while let last = out.last, last == .lineBreak || last.isWhiteSpace { out.removeLast() }
        let start = out.firstIndex { !$0.isWhiteSpace && $0 != .lineBreak } ?? out.endIndex
        return Array(out[start...])
    }

    /// White space that HTML collapses: ASCII white space and the line breaks ``Escape`` turns into
    /// spaces (not U+00A0 and its kin, which HTML keeps).
    static func isCollapsible(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || Text.isBreakingSpace(scalar)
    }

    static func collapsingWhiteSpace(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isCollapsible(scalar) { pendingSpace = !result.isEmpty; continue }
            if Text.isControl(scalar) { continue }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }

    // MARK: Reading HTML

    struct Tag {
        var name: String?
        var isClosing = false
        var isSelfClosing = false

        init(_ inner: String) {
            var body = Substring(inner)
            if body.hasPrefix("/") { isClosing = true; body = body.dropFirst() }
            if body.hasSuffix("/") { isSelfClosing = true; body = body.dropLast() }
            let letters = body.prefix { $0.isLetter || $0.isNumber }
            if let first = letters.first, first.isLetter, first.isASCII {
                let rest = body.dropFirst(letters.count)
                if rest.isEmpty || rest.first!.isWhitespace { name = letters.lowercased() }
            }
        }
    }

    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "pound": "£", "euro": "€", "copy": "©", "reg": "®", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "eacute": "é", "egrave": "è", "aacute": "á",
        "oacute": "ó", "uacute": "ú", "iacute": "í", "ntilde": "ñ", "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä",
    ]

    /// Decodes `&amp;`, `&#39;`, `&#x27;` and the common named entities, once.
    public static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semi]
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    decoded = namedEntities[String(name)]
                }
                if let decoded {
                    result += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            result += "&"
            rest = after
        }
        return result + rest
    }
}
