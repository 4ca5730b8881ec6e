import NestEggModel
import NestEggSupport
import Foundation

/// URL- and file-safe names for pages: ASCII letters, digits and hyphens only.
public enum Slug {
    /// Names some file systems reserve (Windows device names), which a page may not take.
    static let reserved: Set<String> = Set(["con", "prn", "aux", "nul"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// `"Trip to Paris!"` → `trip-to-paris`; `"Café Crème"` → `cafe-creme`; `"../../etc"` → `etc`.
    /// Never empty (falls back to `fallback`), at most 60 characters, never a reserved name.
    public static func make(_ text: String, fallback: String = "item") -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            let isAlphanumeric = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if isAlphanumeric {
                if pendingHyphen && !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else if scalar >= "A" && scalar <= "Z" {
                if pendingHyphen && !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            } else {
                pendingHyphen = true
            }
            if slug.count >= 60 { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.isEmpty { return fallback }
        if reserved.contains(slug) { return slug + "-" + fallback }
        return slug
    }
}

/// Hands out slugs that are unique within one folder: the second "Bike" becomes `bike-2`.
/// Callers feed names in a stable order, so the same data always gets the same slugs.
public struct SlugAllocator: Sendable {
    private var taken: Set<String> = []
    /// For each base, the counter to try next: the ones below it are taken already (the set only
    /// grows), so a thousandth "Bike" does not try the 998 before it again.
    private var nextCounter: [String: Int] = [:]

    public init(reserved: [String] = []) { taken = Set(reserved) }

    public mutating func allocate(_ text: String, fallback: String = "item") -> String {
        let base = Slug.make(text, fallback: fallback)
        var candidate = base
        var counter = nextCounter[base] ?? 2
        if taken.contains(candidate) {
            repeat {
                candidate = "\(base)-\(counter)"
                counter += 1
            } while taken.contains(candidate)
            nextCounter[base] = counter
        }
        taken.insert(candidate)
        return candidate
    }
}
