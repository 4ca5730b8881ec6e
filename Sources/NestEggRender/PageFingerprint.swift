import Crypto
import NestEggReport
import NestEggSupport

/// What a page's two files depend on, as one SHA-256: the templates (``TemplateLibrary/digest``),
/// the page's view data, the fields every page's template and the layout see (title, navigation,
/// breadcrumbs, the site's settings and dates), and a `salt` the caller adds (the `nestegg`
/// executable, whose code renders them). Two builds that give a page the same fingerprint write
/// the same bytes for it, so a build can keep the previous build's files of a page whose
/// fingerprint has not changed, without rendering it again.
public enum PageFingerprint {
    public static func of(_ page: Page, view: TemplateValue, renderer: PageRenderer, salt: String) -> String {
        // The values are written into one buffer and hashed at once: SHA-256 over many small
        // updates cost more than the hashing itself (a tenth of a clean build's CPU).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * 1024)
        append(&bytes, salt)
        append(&bytes, renderer.templates.digest)
        append(&bytes, page.path)
        append(&bytes, page.template)
        append(&bytes, view)
        append(&bytes, renderer.commonValue(for: page, html: false))
        // Everything the layout shows but the page's own HTML.
        append(&bytes, renderer.layoutValue(for: page, content: ""))
        return hex(SHA256.hash(data: bytes))
    }

    /// The key of an older page of the transactions lists (``ListRowsFrame``), worked out without
    /// its rows: SHA-256 over `filesKey` (the data folder's files of no account and `nestegg`, as
    /// the build keys them), the templates, the page's path and template, the month its rows end
    /// before, their style, its view without them, and what the page's template and the layout
    /// see besides the view. Two builds that give a page the same key, with the same rows before
    /// that month, give it the same view, so its files may be kept as they are.
    public static func ofRowsFrame(_ page: Page, _ frame: ListRowsFrame, renderer: PageRenderer, filesKey: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 * 1024)
        append(&bytes, "inputs")
        append(&bytes, filesKey)
        append(&bytes, renderer.templates.digest)
        append(&bytes, page.path)
        append(&bytes, page.template)
        append(&bytes, "rows before " + frame.before.description)
        append(&bytes, frame.style)
        append(&bytes, TemplateValue(encoding: frame.frame()))
        append(&bytes, renderer.commonValue(for: page, html: false))
        append(&bytes, renderer.layoutValue(for: page, content: ""))
        return hex(SHA256.hash(data: bytes))
    }

    /// A value, unambiguously: each kind tagged, each text and list length-prefixed, an object's
    /// fields in their order (the order its view encodes them in, the same every build).
    static func append(_ bytes: inout [UInt8], _ value: TemplateValue) {
        switch value {
        case .text(let text): bytes.append(1); append(&bytes, text)
        case .markup(let markup): bytes.append(2); append(&bytes, markup)
        case .flag(let flag): bytes.append(flag ? 3 : 4)
        case .list(let items):
            bytes.append(5)
            count(&bytes, items.count)
            for item in items { append(&bytes, item) }
        case .object(let fields):
            bytes.append(6)
            count(&bytes, fields.count)
            for (name, value) in zip(fields.names, fields.values) {
                append(&bytes, name)
                append(&bytes, value)
            }
        }
    }

    static func append(_ bytes: inout [UInt8], _ text: String) {
        count(&bytes, text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    /// A length or count, seven bits a byte, the low bits first, the high bit set on every byte
    /// but the last (LEB128): a prefix no other count starts with, and one byte for the short
    /// texts and lists that most are (eight bytes each were a fifth of what a page's fingerprint hashed).
    static func count(_ bytes: inout [UInt8], _ count: Int) {
        var rest = UInt64(count)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    static func hex(_ digest: SHA256.Digest) -> String { Text.hex(digest) }
}
