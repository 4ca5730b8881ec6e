import Crypto
import NestEggReport

/// What a page's two files depend on, as one SHA-256: the templates (``TemplateLibrary/digest``),
/// the page's view data, the fields every page's template and the layout see (title, navigation,
/// breadcrumbs, the site's settings and dates), and a `salt` the caller adds (the `nestegg`
/// executable, whose code renders them). Two builds that give a page the same fingerprint write
/// the same bytes for it, so a build can keep the previous build's files of a page whose
/// fingerprint has not changed, without rendering it again.
public enum PageFingerprint {
    public static func of(_ page: Page, view: TemplateValue, renderer: PageRenderer, salt: String) -> String {
        var hasher = SHA256()
        update(&hasher, salt)
        update(&hasher, renderer.templates.digest)
        update(&hasher, page.path)
        update(&hasher, page.template)
        update(&hasher, view)
        update(&hasher, renderer.commonValue(for: page, html: false))
        // Everything the layout shows but the page's own HTML.
        update(&hasher, renderer.layoutValue(for: page, content: ""))
        return hex(hasher.finalize())
    }

    /// A value, unambiguously: each kind tagged, each text and list length-prefixed, an object's
    /// fields in their order (the order its view encodes them in, the same every build).
    static func update(_ hasher: inout SHA256, _ value: TemplateValue) {
        switch value {
        case .text(let text): tag(&hasher, 1); update(&hasher, text)
        case .markup(let markup): tag(&hasher, 2); update(&hasher, markup)
        case .flag(let flag): tag(&hasher, flag ? 3 : 4)
        case .list(let items):
            tag(&hasher, 5)
            count(&hasher, items.count)
            for item in items { update(&hasher, item) }
        case .object(let fields):
            tag(&hasher, 6)
            count(&hasher, fields.count)
            for (name, value) in zip(fields.names, fields.values) {
                update(&hasher, name)
                update(&hasher, value)
            }
        }
    }

    static func update(_ hasher: inout SHA256, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            count(&hasher, bytes.count)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
        }
    }

    private static func tag(_ hasher: inout SHA256, _ tag: UInt8) {
        withUnsafeBytes(of: tag) { hasher.update(bufferPointer: $0) }
    }

    private static func count(_ hasher: inout SHA256, _ count: Int) {
        withUnsafeBytes(of: UInt64(count).littleEndian) { hasher.update(bufferPointer: $0) }
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
