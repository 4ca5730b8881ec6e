// The `:86:` field, "information to the account owner": up to six lines of 65 characters in the
// standard, free text in it. Banks structure it in one of two ways, and each is read for a
// description and, where it names one, the other party:
// - the German form of the ZKA/DK (Deutsche Kreditwirtschaft) "DFÜ-Abkommen", used by German and
//   Austrian banks: a three-digit business transaction code, then subfields `?NN`: `?00` posting
//   text, `?20`–`?29` and `?60`–`?63` purpose (27 characters each), `?32`/`?33` the other party's
//   name, `?30`/`?31` its bank and account, `?34` a text key extension;
// - the slash form of Dutch and other banks (ABN AMRO, Rabobank, ING, and SWIFT's own
//   `/ORDP/`, `/BENM/`): codes between slashes, `/TRTP/SEPA OVERBOEKING/IBAN/…/NAME/…/REMI/…`,
//   and ING's `/CNTP/account/BIC/name/city/`.
// Anything else is free text: the whole of it is the description.

/// What an `:86:` says about the entry before it.
struct MT940Information {
    var description: String
    var payee: String?

    /// How wide a line of `:86:` is in the standard: a line this long was wrapped where it was full.
    static let lineWidth = 65
    /// How wide a German `?NN` subfield is.
    static let subfieldWidth = 27

    /// Reads the field's lines: the German form, the slash form, or free text.
    static func read(_ field: MT940Field, bytes: [UInt8]) -> MT940Information {
        let pieces = field.pieces.map { bytes[$0.range] }
        let start = firstNonBlank(pieces.first ?? [])
        if isGermanStructured(start) {
            return german(joinedAsWritten(pieces))
        }
        if MT940SlashCodes.startsWithCode(start) {
            return slash(joinedAsWritten(pieces))
        }
        return MT940Information(description: String(decoding: joined(pieces, width: lineWidth), as: UTF8.self).mt940Trimmed())
    }

    private static func firstNonBlank(_ piece: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var index = piece.startIndex
        while index < piece.endIndex, piece[index] == 0x20 || piece[index] == 0x09 { index += 1 }
        return piece[index...]
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `NNN?` (business transaction code, then a subfield) or `?NN` at the start.
    private static func isGermanStructured(_ text: ArraySlice<UInt8>) -> Bool {
        let head = Array(text.prefix(4))
        if head.count == 4, isDigit(head[0]), isDigit(head[1]), isDigit(head[2]), head[3] == UInt8(ascii: "?") { return true }
        return head.count >= 3 && head[0] == UInt8(ascii: "?") && isDigit(head[1]) && isDigit(head[2])
    }

    /// Lines of a structured form, put together as they are: its codes, not the line ends, divide
    /// it, and banks wrap such lines wherever they are full, in the middle of a word.
    private static func joinedAsWritten(_ pieces: [ArraySlice<UInt8>]) -> [UInt8] {
        var result: [UInt8] = []
        for piece in pieces { result.append(contentsOf: piece) }
        return result
    }

    /// Pieces of text put together: after a piece as wide as `width` (or wider) the next follows
    /// directly, as the writer wrapped it where the line was full; after a shorter one, with one
    /// space, as the writer ended it after a word.
    static func joined<C: Collection<UInt8>>(_ pieces: [C], width: Int) -> [UInt8] {
        var result: [UInt8] = []
        var previousWasFull = true
        for piece in pieces {
            if previousWasFull {
                result.append(contentsOf: piece)
            } else {
                while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
                let rest = piece.drop(while: { $0 == 0x20 || $0 == 0x09 })
                if !result.isEmpty, !rest.isEmpty { result.append(0x20) }
                result.append(contentsOf: rest)
            }
            previousWasFull = piece.reduce(0) { $1 & 0xC0 != 0x80 ? $0 + 1 : $0 } >= width
        }
        return result
    }

    /// The German form: `?20`–`?29` then `?60`–`?63` are the description (else `?00`, the posting
    /// text, else the whole field); `?32` and `?33` the payee.
    private static func german(_ text: [UInt8]) -> MT940Information {
        var purpose: [ArraySlice<UInt8>] = []
        var purposeMore: [ArraySlice<UInt8>] = []
        var name: [ArraySlice<UInt8>] = []
        var postingText: ArraySlice<UInt8> = []
        var index = 0
        var code = -1
        var valueStart = 0
        func finish(_ end: Int) {
            let value = text[valueStart..<end]
            switch code {
            case 0: postingText = value
            case 20...29: purpose.append(value)
            case 60...63: purposeMore.append(value)
            case 32, 33: name.append(value)
            default: break
            }
        }
        while index < text.count {
            if text[index] == UInt8(ascii: "?"), index + 2 < text.count, isDigit(text[index + 1]), isDigit(text[index + 2]) {
                if code >= 0 { finish(index) }
                code = Int(text[index + 1] - 0x30) * 10 + Int(text[index + 2] - 0x30)
                index += 3
                valueStart = index
            } else {
                index += 1
            }
        }
        if code >= 0 { finish(text.count) }
        var description = String(decoding: joined(purpose + purposeMore, width: subfieldWidth), as: UTF8.self).mt940Trimmed()
        if description.isEmpty { description = String(decoding: postingText, as: UTF8.self).mt940Trimmed() }
        if description.isEmpty { description = String(decoding: text, as: UTF8.self).mt940Trimmed() }
        let payee = String(decoding: joined(name, width: subfieldWidth), as: UTF8.self).mt940Trimmed()
        return MT940Information(description: description, payee: payee.isEmpty ? nil : payee)
    }

    /// The slash form: `/NAME/` is the payee (else the name in ING's `/CNTP/account/BIC/name/city/`),
    /// `/REMI/` the description (without ING's `USTD//` or `STRD/CUR/` before the text), else the
    /// whole field.
    private static func slash(_ text: [UInt8]) -> MT940Information {
        let values = MT940SlashCodes.values(text)
        func value(_ code: String) -> String? {
            guard let found = values.first(where: { $0.code == code }) else { return nil }
            var result = String(decoding: found.value, as: UTF8.self).mt940Trimmed()
            while result.hasSuffix("/") { result.removeLast() }
            result = result.mt940Trimmed()
            return result.isEmpty ? nil : result
        }
        var payee = value("NAME")
        if payee == nil, let counterparty = value("CNTP") {
            let parts = counterparty.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count >= 3 {
                let name = parts[2].mt940Trimmed()
                payee = name.isEmpty ? nil : name
            }
        }
        var description = value("REMI")
        for prefix in ["USTD//", "USTD/", "STRD/CUR/", "STRD//"] where description?.hasPrefix(prefix) ?? false {
            description = String(description?.dropFirst(prefix.count) ?? "").mt940Trimmed()
            break
        }
        if description?.isEmpty ?? true { description = String(decoding: text, as: UTF8.self).mt940Trimmed() }
        return MT940Information(description: description ?? "", payee: payee)
    }
}

/// The codes of the slash form of `:86:` (SWIFT's, the Dutch banks' and ING's), and reading
/// `/CODE/value/CODE/value` into pairs.
enum MT940SlashCodes {
    static let known: Set<String> = [
        "TRTP", "IBAN", "BIC", "NAME", "REMI", "EREF", "MARF", "CSID", "ORDP", "BENM", "ID", "ADDR", "CNTP", "PURP",
        "ULTC", "ULTD", "ULTB", "SVCL", "RTRN", "ISDT", "CDTRREFTP", "CDTRREF", "CD", "TP", "ISSR", "PREF", "BUSP",
        "TRCD", "IREF", "OCMT", "CHGS", "EXCH", "ACCW", "RTYP", "COAM",
    ]
    static let longest = 9

    /// Whether `text` starts with `/CODE/` of a known code.
    static func startsWithCode(_ text: ArraySlice<UInt8>) -> Bool {
        codeLength(in: Array(text.prefix(longest + 2)), at: 0) != nil
    }

    /// The length of `CODE` when `/CODE/` with a known code starts at `index`.
    static func codeLength(in text: [UInt8], at index: Int) -> Int? {
        guard index < text.count, text[index] == UInt8(ascii: "/") else { return nil }
        var end = index + 1
        while end < text.count, end - index - 1 <= longest, text[end] >= 0x41, text[end] <= 0x5A { end += 1 }
        guard end < text.count, text[end] == UInt8(ascii: "/"), end > index + 1,
              known.contains(String(decoding: text[(index + 1)..<end], as: UTF8.self)) else { return nil }
        return end - index - 1
    }

    /// Each known code with the text up to the next one (slashes inside kept).
    static func values(_ text: [UInt8]) -> [(code: String, value: ArraySlice<UInt8>)] {
        var result: [(code: String, value: ArraySlice<UInt8>)] = []
        var code: String?
        var valueStart = 0
        var index = 0
        while index < text.count {
            if let length = codeLength(in: text, at: index) {
                if let code { result.append((code, text[valueStart..<index])) }
                code = String(decoding: text[(index + 1)..<(index + 1 + length)], as: UTF8.self)
                index += length + 2
                valueStart = index
                // `/BENM/NAME/…` (an empty value written with one slash): the slash closing a
                // code opens the next one.
                if codeLength(in: text, at: index - 1) != nil {
                    index -= 1
                    valueStart = index
                }
            } else {
                index += 1
            }
        }
        if let code { result.append((code, text[valueStart..<text.count])) }
        return result
    }
}
