// SWIFT MT940 (customer statement message) and MT942 (interim transaction report), the statement
// format of SWIFT's Category 9 that most European banks also offer for download (ABN AMRO,
// Rabobank, ING, Deutsche Bank, Commerzbank, the Sparkassen…). A message is a list of tagged
// fields — `:20:` reference, `:25:` account, `:60F:` opening balance, `:61:` statement lines each
// followed by an `:86:` description, `:62F:` closing balance — with or without the SWIFT envelope
// `{1:…}{2:…}{4:` … `-}{5:…}`; a file holds one message after another.

/// Reads MT940, MT942 (and the MT950 shape, MT940 without `:86:`) files.
///
/// - Each message becomes one `ImportedStatement`, in file order: several per file, of one
///   account (`:60M:`/`:62M:` intermediate pages) or several.
/// - Messages are told apart by the SWIFT header and trailer lines, a line `-`, or the next `:20:`.
///   Blank lines, CRLF/LF/CR line ends, UTF-8, Latin-1 and Windows-1252 bytes are all read.
/// - `:25:` → the account: `BIC/number` or `sortcode/number` (→ `bank` and `number`), an IBAN
///   (also with the currency appended, as ING writes it) → `iban`; the currency from `:60F:`/`:60M:`
///   (MT942: `:34F:`).
/// - `:60F:`/`:60M:` → `opening`, `:62F:`/`:62M:` → `closing` (dates as written; `D` negative).
///   An MT940 without either is refused. `:64:`, `:65:`, `:28C:`, `:21:`, `:13D:` are read past.
/// - `:61:` → an entry: booked on its entry date (else its value date; `valueDate` set when the
///   two differ), amount signed by its mark (`D` and `RC` negative, `C` and `RD` positive), `kind`
///   the transaction type (`NTRF`), `reference` the owner's reference unless `NONREF`, `id` the
///   bank's reference after `//`. Its `:86:` → description and payee (see `MT940Information`);
///   without one, the supplementary details on the `:61:`'s second line are the description.
/// - MT942: the entries are `.booked`; there is no opening or closing; `:90D:`/`:90C:` (number and
///   sum of debits/credits) must agree with the entries.
public enum MT940Parser {
    /// How much of a file `recognises` looks at.
    static let recognitionWindow = 4096

    /// Whether the file is an MT940/MT942: it starts (after blank lines) with a SWIFT header
    /// (`{1:`, `{2:` or `{4:`), or its first field is `:20:` after at most a few short preamble
    /// lines of letters and digits (`ABNANL2A`, `940`, `:940:`); and a `:25:` field follows.
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        let window = Array(bytes.prefix(recognitionWindow))
        var scanner = MT940RecognitionLines(window)
        var preambleLines = 0
        var sawHeader = false
        var sawReference = false
        while let line = scanner.next() {
            if line.isEmpty { continue }
            if !sawReference {
                if line.starts(with: Array("{1:".utf8)) || line.starts(with: Array("{2:".utf8)) || line.starts(with: Array("{4:".utf8)) {
                    sawHeader = true
                    if firstIndex(of: Array("{4::20:".utf8), in: line) != nil { sawReference = true }
                } else if line.starts(with: Array(":20:".utf8)) {
                    sawReference = true
                } else if sawHeader {
                    return false
                } else {
                    preambleLines += 1
                    let isPlain = line.count <= 40 && line.allSatisfy {
                        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x20 || $0 == 0x3A
                    }
                    guard isPlain, preambleLines <= 5 else { return false }
                }
            } else if line.starts(with: Array(":25:".utf8)) {
                return true
            }
        }
        return false
    }

    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The statements (MT940) and interim reports (MT942) of the file, in file order.
    public static func parse(_ bytes: [UInt8]) throws(ImportProblem) -> [ImportedStatement] {
        let text = Array(ImportText.decode(bytes).utf8)
        var scanner = MT940Scanner(bytes: text)
        scanner.scan()
        guard !scanner.messages.isEmpty else {
            throw ImportProblem(line: 1, "no MT940/MT942 message found; expected fields such as :20:, :25:, :60F:, :61:, :62F:")
        }
        var statements: [ImportedStatement] = []
        statements.reserveCapacity(scanner.messages.count)
        for message in scanner.messages {
            var builder = MT940StatementBuilder(bytes: text, message: message)
            statements.append(try builder.build())
        }
        return statements
    }
}

/// The lines of the first bytes of a file (byte-order mark dropped, blanks around each trimmed).
struct MT940RecognitionLines {
    private let bytes: [UInt8]
    private var index: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    mutating func next() -> ArraySlice<UInt8>? {
        guard index < bytes.count else { return nil }
        var start = index
        while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
        var end = index
        if index < bytes.count { index += 1 }
        // Blanks, and the SOH/ETX framing of a SWIFT link's messages (as `MT940Scanner` reads them).
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x01 || byte == 0x03 }
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }
}
