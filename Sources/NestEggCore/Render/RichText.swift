/// Turns the HTML that some APIs put in text (Qapital feed messages, Kiva descriptions) into
/// Markdown that shows the same emphasis and nothing else.
///
/// Only `strong`/`b` (→ `**…**`), `em`/`i` (→ `*…*`) and `br` (→ a line break) survive. Every
/// other tag is dropped with its attributes (`<img onerror=…>`, `<a href="javascript:…">`), and
/// `<script>`/`<style>` lose their content too. Entities are decoded once (`&amp;lt;` shows as
/// `&lt;`), then all text is Markdown-escaped, so nothing in the input can become markup.
public enum RichText {
    public static func markdown(fromHTML html: String) -> String {
        // Without tags or entities it is plain text.
        if !html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) {
            return Text.trimmed(Escape.markdown(html))
        }
        var output = ""
        var text = ""
        var skipping: String? = nil  // inside <script> or <style>
        var openBold = 0, openItalic = 0

        func flushText() {
            guard !text.isEmpty else { return }
            output += Escape.markdown(decodeEntities(text), lineStart: output.isEmpty)
            text = ""
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
                    flushText()
                    if tag.isClosing {
                        if openBold > 0 { openBold -= 1; output = closeMarker("**", in: output) }
                    } else {
                        openBold += 1
                        output += "**"
                    }
                case "em", "i":
                    flushText()
                    if tag.isClosing {
                        if openItalic > 0 { openItalic -= 1; output = closeMarker("*", in: output) }
                    } else {
                        openItalic += 1
                        output += "*"
                    }
                case "br":
                    flushText()
                    output += "<br>"
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
        for _ in 0..<openItalic { output = closeMarker("*", in: output) }
        for _ in 0..<openBold { output = closeMarker("**", in: output) }
        return Text.trimmed(output)
    }

    /// Closes an emphasis run. An empty run (`**` then `**`) is removed rather than left as `****`;
    /// white space just inside the markers moves outside them, as CommonMark requires.
    static func closeMarker(_ marker: String, in output: String) -> String {
        if output.hasSuffix(marker) { return String(output.dropLast(marker.count)) }
        var body = output
        var trailing = ""
        while body.hasSuffix(" ") { body.removeLast(); trailing += " " }
        return body + marker + trailing
    }

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
