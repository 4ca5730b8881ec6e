import NestEggModel
import NestEggSupport
/// Reads `nestegg.json`'s `issuer`: `{"name", "address": [...], "footer", "logo": "issuer/logo.svg",
/// "pageHeader"}`,
/// every key but `name` optional. An unknown key is an error, as in the rest of the settings.
/// The logo must be an SVG file inside the data folder; it is read here (and so claimed) and only
/// ever shown as an image.
public enum IssuerLoader {
    static let knownKeys = ["name", "address", "footer", "logo", "pageHeader"]
    /// The largest logo read: a logo is a small drawing, not a document.
    static let maximumLogoBytes = 256 * 1024

    public static func issuer(_ value: JSONValue, folder: DataFolder?) -> StatementIssuer? {
        guard let members = value.memberValues else { return nil }
        var name: String?
        var address: [String] = []
        var footer: String?
        var logo: StatementIssuer.Logo?
        var pageHeader: String?
        for (key, member) in members {
            switch key {
            case "name":
                name = nonEmpty(member, "the issuer's name")
            case "address":
                address = member.array?.compactMap { nonEmpty($0, "an address line") } ?? []
            case "footer":
                footer = nonEmpty(member, "the footer")
            case "logo":
                logo = self.logo(member, folder: folder)
            case "pageHeader":
                pageHeader = nonEmpty(member, "the page header")
            default:
                let hint = Text.closest(to: key, among: knownKeys).map { "; did you mean \"\($0)\"?" } ?? ""
                member.error("unknown issuer setting \"\(key)\"\(hint) (known: \(knownKeys.joined(separator: ", ")))")
            }
        }
        guard value.required("name", "the issuer's name") != nil, let name else { return nil }
        return StatementIssuer(name: name, address: address, footer: footer, logo: logo, pageHeader: pageHeader)
    }

    /// A string written on one line that shows something on a page (not empty once normalised).
    static func nonEmpty(_ value: JSONValue, _ what: String) -> String? {
        guard let text = value.string.map(Text.singleLine) else { return nil }
        if Text.normalised(text).isEmpty { value.error("\(what) may not be empty"); return nil }
        return text
    }

    /// The logo: a relative path to an `.svg` file of the data folder, holding an SVG drawing.
    static func logo(_ value: JSONValue, folder: DataFolder?) -> StatementIssuer.Logo? {
        guard let path = value.string else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"),
              !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            value.error("the logo must be a path inside the data folder, such as \"issuer/logo.svg\", found \"\(path)\"")
            return nil
        }
        guard path.lowercased().hasSuffix(".svg") else {
            value.error("the logo must be an SVG file (a name ending in .svg), found \"\(path)\"")
            return nil
        }
        guard let folder else { return nil }
        guard folder.contains(path) else {
            value.error("no file \(path) in the data folder (the logo is read from there)")
            return nil
        }
        folder.claim(path)
        let bytes: [UInt8]
        switch FileBytes.read(folder.root.path + "/" + path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            value.error("cannot read the logo \(path): \(failure.reason)")
            return nil
        }
        guard bytes.count <= maximumLogoBytes else {
            value.error("the logo \(path) is \(bytes.count) bytes; at most \(maximumLogoBytes) are read")
            return nil
        }
        guard let text = String(validating: bytes, as: UTF8.self), text.contains("<svg"), text.contains("</svg>") || text.contains("/>") else {
            value.error("the logo \(path) is not an SVG drawing (UTF-8 text with an <svg> element)")
            return nil
        }
        return StatementIssuer.Logo(path: path, svg: bytes)
    }
}
