/// Finishing touches on cmark-gfm's HTML that Markdown cannot express, applied to the
/// renderer's own well-known output (never to data, which is escaped long before):
/// header cells get `scope="col"`, and each table is wrapped in a focusable scroll container
/// so a wide table scrolls by itself on a phone instead of widening the page.
enum HTMLPolish {
    static func polish(_ html: String) -> String {
        guard html.contains("<table") else { return html }
        return html
            .replacingOccurrences(of: "<th>", with: "<th scope=\"col\">")
            .replacingOccurrences(of: "<th style=", with: "<th scope=\"col\" style=")
            .replacingOccurrences(of: "<table>", with: "<div class=\"table-scroll\" tabindex=\"0\">\n<table>")
            .replacingOccurrences(of: "</table>", with: "</table>\n</div>")
    }
}
