// The OFX element names the reader acts on, and the numbering of every name a file uses, so that
// the tokenizer compares numbers, not strings.

/// The elements of OFX (1.x SGML and 2.x XML alike) that matter for bank and credit-card
/// statements. Every other element (sign-on details, QFX's `INTU.*`, `AVAILBAL`, `BALLIST`, …) is
/// read past without being interpreted.
enum OFXElement: String, CaseIterable {
    // Aggregates: elements that hold elements, and must be closed in SGML as in XML.
    case ofx = "OFX"
    case signOnMessages = "SIGNONMSGSRSV1"
    case signOnResponse = "SONRS"
    case status = "STATUS"
    case bankMessages = "BANKMSGSRSV1"
    case cardMessages = "CREDITCARDMSGSRSV1"
    case statementResponse = "STMTTRNRS"
    case cardStatementResponse = "CCSTMTTRNRS"
    case statement = "STMTRS"
    case cardStatement = "CCSTMTRS"
    case bankAccount = "BANKACCTFROM"
    case cardAccount = "CCACCTFROM"
    case transactionList = "BANKTRANLIST"
    case transaction = "STMTTRN"
    case payee = "PAYEE"
    case ledgerBalance = "LEDGERBAL"
    case investmentStatement = "INVSTMTRS"
    // Elements: a value each.
    case code = "CODE"
    case message = "MESSAGE"
    case defaultCurrency = "CURDEF"
    case bankID = "BANKID"
    case branchID = "BRANCHID"
    case accountID = "ACCTID"
    case accountType = "ACCTTYPE"
    case listStart = "DTSTART"
    case listEnd = "DTEND"
    case transactionType = "TRNTYPE"
    case datePosted = "DTPOSTED"
    case dateUser = "DTUSER"
    case dateAvailable = "DTAVAIL"
    case amount = "TRNAMT"
    case financialInstitutionID = "FITID"
    case checkNumber = "CHECKNUM"
    case referenceNumber = "REFNUM"
    case name = "NAME"
    case memo = "MEMO"
    case balanceAmount = "BALAMT"
    case balanceDate = "DTASOF"
    /// A transaction's own currency (`CURRENCY` holding `CURRATE` and `CURSYM`). Not an
    /// aggregate here: it is read only to name a statement's currency when `CURDEF` is empty.
    case currency = "CURRENCY"
    case currencyRate = "CURRATE"
    case currencySymbol = "CURSYM"

    /// Whether the element holds elements (an OFX "aggregate"): such an element left unclosed
    /// means a damaged or truncated file, never an SGML leaf without its end tag.
    var isAggregate: Bool {
        switch self {
        case .ofx, .signOnMessages, .signOnResponse, .status, .bankMessages, .cardMessages, .statementResponse,
             .cardStatementResponse, .statement, .cardStatement, .bankAccount, .cardAccount, .transactionList,
             .transaction, .payee, .ledgerBalance, .investmentStatement:
            return true
        default:
            return false
        }
    }

    private static let byNumber: [OFXElement] = allCases

    /// The element a tag number stands for, when it is one of ours (the known names are numbered
    /// first, in declaration order, by `OFXTagNames`).
    init?(number: UInt32) {
        guard Int(number) < Self.byNumber.count else { return nil }
        self = Self.byNumber[Int(number)]
    }


}

/// Numbers the tag names of one file: the same name (case-insensitive) always gets the same
/// number, and the names of `OFXElement` get 0, 1, 2, … in declaration order. Names of up to 32
/// bytes are keyed without allocating, so numbering stays cheap for millions of tags.
struct OFXTagNames {
    /// Up to 32 bytes of an upper-cased name, packed into four words.
    private struct PackedName: Hashable {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count: Int = 0

        static func == (lhs: PackedName, rhs: PackedName) -> Bool {
            lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
                && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    private var shortNames: [PackedName: UInt32] = [:]
    private var longNames: [String: UInt32] = [:]
    /// The name of each number, upper case, for messages.
    private(set) var names: [String] = []

    init() {
        for element in OFXElement.allCases {
            let bytes = Array(element.rawValue.utf8)
            _ = bytes.withUnsafeBufferPointer { number(of: $0[...]) }
        }
    }

    /// The number of the name `bytes` (any case; ASCII letters are upper-cased).
    mutating func number(of bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32 {
        if bytes.count <= 32 {
            var key = PackedName()
            key.count = bytes.count
            var word: UInt64 = 0
            var filled = 0
            var wordIndex = 0
            for byte in bytes {
                word = word << 8 | UInt64(Self.upper(byte))
                filled += 1
                if filled == 8 {
                    Self.store(word, at: wordIndex, in: &key)
                    wordIndex += 1
                    word = 0
                    filled = 0
                }
            }
            if filled > 0 { Self.store(word, at: wordIndex, in: &key) }
            if let known = shortNames[key] { return known }
            let assigned = UInt32(names.count)
            shortNames[key] = assigned
            names.append(Self.text(bytes))
            return assigned
        }
        let name = Self.text(bytes)
        if let known = longNames[name] { return known }
        let assigned = UInt32(names.count)
        longNames[name] = assigned
        names.append(name)
        return assigned
    }

    func name(of number: UInt32) -> String {
        Int(number) < names.count ? names[Int(number)] : "?"
    }

    private static func store(_ word: UInt64, at index: Int, in key: inout PackedName) {
        switch index {
        case 0: key.words.0 = word
        case 1: key.words.1 = word
        case 2: key.words.2 = word
        default: key.words.3 = word
        }
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        (byte >= 0x61 && byte <= 0x7A) ? byte - 0x20 : byte
    }

    private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes.map(upper), as: UTF8.self)
    }
}
