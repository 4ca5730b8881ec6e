import NestEggModel
import NestEggSupport

/// `data-notes`: the build's warnings about the data (a file that is not part of the input
/// contract, an id that points nowhere, a duplicate, …), for the person who keeps the data folder.
/// The one page that names files: every other page speaks the customer's language. It exists only
/// when there is something to say, and every page's footer links to it then.
public enum DataNotesReport {
    public static let path = "data-notes"
    /// The page lists this many notes in full; the console and `nestegg check` have them all.
    static let shown = 500

    struct View: Sendable, Encodable {
        let count: String
        let rows: [Row]
        let more: String?
    }

    struct Row: Sendable, Encodable {
        let file: String
        let place: String
        let note: String
    }

    static func page(_ notes: [Diagnostic], context: ReportContext) -> Page? {
        guard !notes.isEmpty else { return nil }
        let total = notes.reduce(0) { $0 + $1.count }
        let rows = notes.prefix(shown).map { note in
            Row(file: note.file, place: note.line.map { line in note.column.map { "\(line):\($0)" } ?? "\(line)" } ?? "",
                note: note.count > 1 ? "\(note.message) (\(context.counted(note.count, "time")))" : note.message)
        }
        let more = notes.count > shown ? "The first \(context.count(shown)) of \(context.count(notes.count)) notes; `nestegg check` lists them all." : nil
        return Page(path: path, title: "Data notes", template: "data-notes", section: nil,
                    breadcrumbs: [Link("Dashboard", "index")],
                    view: View(count: context.counted(total, "note"), rows: rows, more: more))
    }
}
