/// A link in a page's view: its words and its address from the site's root (a template puts
/// `{{root}}` before it), as the previous and next month, week, year or statement, or another page.
struct LinkView: Sendable, Encodable, Hashable {
    let title: String
    let href: String
}
