import NestEggReport
import NestEggModel
import NestEggSupport
/// Writes a report's ``SanitizedText`` as Markdown that shows the same emphasis and nothing else.
///
/// The text is escaped as ``Escape/value(_:at:)`` escapes Markdown text (the first piece as at a
/// line's start, since a description stands on a line of its own). Emphasis is written `**…**`
/// and `*…*` where CommonMark's flanking rules are sure to read it as such, and
/// `<strong>…</strong>`, `<em>…</em>` where they might not (`<b>"x"</b>y`); a line break is `<br>`.
public enum RichText {
    typealias Style = SanitizedText.Style

    public static func markdown(_ text: SanitizedText) -> String {
        switch text.content {
        case .plain(let plain): return Escape.value(plain, at: .lineStart)
        case .styled(let atoms):
            // Right-to-left text keeps its own order without moving what follows it: inside `<bdi>`
            // (an isolate written as HTML, since the isolate characters beside `**` would change
            // which emphasis markers CommonMark reads as such).
            let isRightToLeft = atoms.contains { if case .character(let scalar, _) = $0 { Text.isRightToLeft(scalar) } else { false } }
            return isRightToLeft ? "<bdi>" + render(atoms) + "</bdi>" : render(atoms)
        }
    }

    /// The Markdown of HTML from data: ``SanitizedText`` then ``markdown(_:)``.
    public static func markdown(fromHTML html: String) -> String { markdown(SanitizedText(html: html)) }


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
    static func render(_ atoms: [SanitizedText.Atom]) -> String {
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
    private static func neighbourStyles(_ atoms: [SanitizedText.Atom], _ index: Int) -> SanitizedText.Style {
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
}
