/// A paragraph of a report's own words as lines for the Markdown page: a reader of the `.md`
/// file (a CI log, a terminal, GitHub's diff) sees lines of at most `width` characters, and the
/// HTML page one paragraph (the lines are soft breaks). Only for the reports' own sentences: a
/// line never starts with a character Markdown would read as a list, a quote or a heading.
enum Prose {
    static func lines(_ text: String, width: Int = 100) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let startsBlock = word.first.map { "-+*>#=|".contains($0) } ?? false
            if !line.isEmpty, line.count + 1 + word.count > width, !startsBlock {
                lines.append(line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
