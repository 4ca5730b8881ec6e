import NestEggModel
import NestEggSupport
/// Turns the HTML that some APIs put in text (Qapital feed messages, Kiva descriptions) into
/// Markdown that shows the same emphasis and nothing else.
///
/// What survives is bold (`strong`, `b`), italics (`em`, `i`) and line breaks (`br`); everything
/// else is text. Other tags are dropped with their attributes (`<img onerror=…>`,
/// `<a href="javascript:…">`), `<script>`, `<style>` and kin with their content, and `p`, `div`,
/// `li` and `tr` leave a space. Entities are decoded once (`&amp;lt;` shows as `&lt;`).
///
/// The text is then normalised as HTML shows it — control characters removed, each run of white
/// space one space, none at the ends or beside a line break — and escaped as
/// ``Escape/value(_:at:)`` escapes Markdown text (the first piece as at a line's start, since a
/// description stands on a line of its own). Emphasis is written `**…**` and `*…*` where
/// CommonMark's flanking rules are sure to read it as such, and `<strong>…</strong>`,
/// `<em>…</em>` where they might not (`<b>"x"</b>y`); a line break is `<br>`.
public enum RichText {
    public static func markdown(fromHTML html: String) -> String {
        // Without tags or entities it is plain text: one piece, no emphasis.
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) {
            return Escape.value(collapsingWhiteSpace(html), at: .lineStart)
        }
        return render(styledText(fromHTML: html))
    }

    /// A style a run of text can have.
    struct Style: OptionSet, Hashable {
        let rawValue: UInt8
        static let bold = Style(rawValue: 1)
        static let italic = Style(rawValue: 2)
    }

    /// One character of the text with its style, or a line break.
    enum Atom: Equatable {
        case character(Unicode.Scalar, Style)
        case lineBreak

        var isWhiteSpace: Bool {
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

    // MARK: Writing Markdown

    /// A piece of the output: escaped text, an emphasis marker (its style, opening or closing,
    /// and its run's number), or a line break.
    private enum Piece {
        case text(String)
        case marker(Style, opening: Bool, run: Int)
        case lineBreak
    }

    /// Styled characters as Markdown: text escaped in runs of one style, emphasis opened and closed
    /// where the style changes (closing and reopening what is inside when an outer style ends first).
    static func render(_ atoms: [Atom]) -> String {
        var pieces: [Piece] = []
        var open: [(style: Style, run: Int)] = []
        var runs = 0
        var text = ""

        func flushText() {
            guard !text.isEmpty else { return }
            pieces.append(.text(Escape.markdownText(text, lineStart: pieces.isEmpty)))
            text = ""
        }
        func setStyle(_ style: Style) {
            // Close from the innermost out down to the first style that ends, then open what is new.
            if let keep = open.firstIndex(where: { !style.contains($0.style) }) {
                flushText()
                for entry in open[keep...].reversed() { pieces.append(.marker(entry.style, opening: false, run: entry.run)) }
                open.removeSubrange(keep...)
            }
            for bit in [Style.bold, .italic] where style.contains(bit) && !open.contains(where: { $0.style == bit }) {
                flushText()
                runs += 1
                open.append((bit, runs))
                pieces.append(.marker(bit, opening: true, run: runs))
            }
        }

        for (index, atom) in atoms.enumerated() {
            switch atom {
            case .character(let scalar, var style):
                // A space takes only the styles of both its neighbours, so a run never ends in one.
                if scalar == " " { style = style.intersection(neighbourStyles(atoms, index)) }
                setStyle(style)
                text.unicodeScalars.append(scalar)
            case .lineBreak:
                // A line break keeps only the styles the text on both sides of it has.
                setStyle(neighbourStyles(atoms, index))
                flushText()
                pieces.append(.lineBreak)
            }
        }
        setStyle([])
        flushText()
        return write(pieces)
    }

    /// The styles both characters around `atoms[index]` have, line breaks passed over (none at an end).
    private static func neighbourStyles(_ atoms: [Atom], _ index: Int) -> Style {
        let before = atoms[..<index].last { $0 != .lineBreak }, after = atoms[(index + 1)...].first { $0 != .lineBreak }
        guard case .character(_, let left)? = before, case .character(_, let right)? = after else { return [] }
        return left.intersection(right)
    }

    /// The pieces as text: each run's markers as `**`/`*` when CommonMark will read them as emphasis
    /// for certain, else as HTML tags.
    private static func write(_ pieces: [Piece]) -> String {
        // A run is written with Markdown markers when its opener is left-flanking and its closer
        // right-flanking whatever the cautious reading of the characters around them, and neither
        // touches another marker (which would make one delimiter run of both).
        var markdownRuns = Set<Int>()
        var openerFlanks: [Int: Bool] = [:]
        for (index, piece) in pieces.enumerated() {
            guard case .marker(_, let isOpening, let run) = piece else { continue }
            let before = index > 0 ? pieces[index - 1] : nil
            let after = index + 1 < pieces.count ? pieces[index + 1] : nil
            if case .marker? = before { openerFlanks[run] = false; continue }
            if case .marker? = after { openerFlanks[run] = false; continue }
            // Inside: the run's own first or last character; outside: what is beyond the marker (at
            // the value's edge the template's space, cell bar or line end).
            let inside = isOpening ? after.flatMap(firstCharacter) : before.flatMap(lastCharacter)
            // Flanking: the inside is not white space, and is a letter or digit, or the outside is
            // white space or punctuation (ASCII's, the kind cmark-gfm surely counts).
            var outsideAllows = true  // at the value's edge: the template's space, cell bar or line end
            if let beyond = isOpening ? before : after {
                let outside = isOpening ? lastCharacter(beyond) : firstCharacter(beyond)
                outsideAllows = outside.map { $0 == " " || ($0.isASCII && ($0.isPunctuation || $0.isSymbol)) } ?? false
            }
            let flanks = inside.map { !$0.isWhitespace && (isWordCharacter($0) || outsideAllows) } ?? false
            if isOpening {
                openerFlanks[run] = flanks
            } else if flanks && openerFlanks[run] == true {
                markdownRuns.insert(run)
            }
        }
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .lineBreak: out += "<br>"
            case .marker(let style, let isOpening, let run):
                if markdownRuns.contains(run) {
                    out += style == .bold ? "**" : "*"
                } else {
                    out += (isOpening ? "<" : "</") + (style == .bold ? "strong>" : "em>")
                }
            }
        }
        return out
    }

    private static func firstCharacter(_ piece: Piece) -> Character? {
        switch piece {
        case .text(let text): return text.first
        case .lineBreak: return "<"
        case .marker: return nil
        }
    }

    private static func lastCharacter(_ piece: Piece) -> Character? {
        switch piece {
        case .text(let text): return text.last
        case .lineBreak: return ">"
        case .marker: return nil
        }
    }

    /// Neither white space nor punctuation, for certain: a letter or a digit.
    private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }

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
