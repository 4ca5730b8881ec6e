import NestEggSupport

/// A person's stand-in for an avatar: their initials in a coloured circle, so that no page asks
/// another host for a picture. The colour is one of the chart palette's six, chosen from the name
/// alone, so a person has the same colour on every page and in every build.
enum Initials {
    /// The first letter or digit of the first two words, upper-cased: `Sara Lind` → `SL`,
    /// `mikael` → `M`, `User 7` → `U7`; `?` when the name has none.
    static func of(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let letters = words.prefix(2).compactMap { $0.first.map { String($0).uppercased() } }
        return letters.isEmpty ? "?" : letters.joined()
    }

    /// 1…6, from the name's Unicode scalars (a fixed sum, never Swift's per-process `hashValue`).
    static func colour(of name: String) -> Int {
        var sum: UInt32 = 0
        for scalar in name.unicodeScalars { sum = sum &* 31 &+ scalar.value }
        return Int(sum % 6) + 1
    }
}
