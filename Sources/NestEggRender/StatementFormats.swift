import NestEggReport
import NestEggModel
import NestEggSupport
/// The files a statement is written as besides its page (``StatementData/Format``): a CSV in the
/// shape of Starling's statement download, and an ISO 20022 camt.053.001.08 statement. Every
/// string from the data goes through ``XMLText`` or ``CSVCell`` here: nothing of it becomes markup
/// or a formula. `docs/statements.md` describes both formats.
public enum StatementFormats {
    public static func render(_ data: StatementData, as format: StatementData.Format) -> String {
        switch format {
        case .csv: return StatementCSV.render(data)
        case .camt053: return StatementCamt.render(data)
        }
    }
}

// MARK: CSV

/// One statement as CSV (RFC 4180: comma-separated, CRLF line ends, quoted where a cell holds a
/// comma, a quote or a line end; UTF-8 without a byte-order mark): a header row, then one row per
/// settled transaction, oldest first. The columns are Starling's statement download's — `Date`,
/// `Counter Party`, `Reference`, `Type`, `Amount (GBP)`, `Balance (GBP)`, `Spending Category`,
/// `Notes` — then `Time` and `Transaction ID`, which Starling's has not, and for a payment in
/// another currency the amount before conversion, its currency and the exchange rate the two
/// amounts imply (units of the account's currency for one of the other), empty otherwise.
public enum StatementCSV {
    public static func header(currency: Currency) -> [String] {
        ["Date", "Counter Party", "Reference", "Type", "Amount (\(currency.code))", "Balance (\(currency.code))",
         "Spending Category", "Notes", "Time", "Transaction ID", "Source Amount", "Source Currency",
         "Exchange Rate (\(currency.code) per unit)"]
    }

    public static func render(_ data: StatementData) -> String {
        var out = row(header(currency: data.currency).map(CSVCell.quoted))
        for entry in data.entries {
            out += row([
                "\(entry.local.date)",
                CSVCell.text(entry.counterparty),
                CSVCell.text(entry.reference),
                CSVCell.text(entry.source),
                entry.signedAmount.decimalString,
                entry.balance?.decimalString ?? "",
                CSVCell.text(entry.category ?? ""),
                "",
                entry.dateOnly ? "" : time(entry.local),
                CSVCell.text(entry.uid),
                entry.sourceAmount.map { (entry.direction == .out ? -$0 : $0).decimalString } ?? "",
                entry.sourceAmount?.currency.code ?? "",
                entry.exchangeRate() ?? "",
            ])
        }
        return out
    }

    static func row(_ cells: [String]) -> String { cells.joined(separator: ",") + "\r\n" }

    /// `14:05:09`
    static func time(_ local: LocalDateTime) -> String {
        let two = { (value: Int) in (value < 10 ? "0" : "") + String(value) }
        return "\(two(local.hour)):\(two(local.minute)):\(two(local.second))"
    }
}

/// A CSV cell of text from the data: guarded against formula injection, then quoted as RFC 4180 needs.
public enum CSVCell {
    /// The characters that make a spreadsheet read a cell as a formula (OWASP's CSV-injection rule):
    /// a text cell starting with one gets a leading `'`. Amounts are not text: a CSV writes them as
    /// plain decimals itself (a statement's from its ledger, a table's where
    /// ``SiteLocale/money(parsing:)`` reads one), and a negative one keeps its `-`.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text`, without bidirectional controls (which could show a cell's figures reordered, and
    /// hide a formula's start behind them), guarded and quoted where it must be.
    public static func text(_ text: String) -> String { quoted(guarded(Text.withoutBidiControls(text))) }

    /// `text` with a leading `'` when it starts with a character a spreadsheet reads as a formula,
    /// unless it is a signed number (``isSignedNumber(_:)``): `-12%` holds no formula, and a
    /// spreadsheet reads it as the number it is. Amounts with a currency have their own rule,
    /// ``SiteLocale/money(parsing:)``, and a cell it reads never comes here (a table CSV writes it
    /// as a decimal): so `-€5` or a payee named `-£3.20` that is no amount the locale writes is
    /// text, `'-€5`.
    public static func guarded(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first), !isSignedNumber(text) else { return text }
        return "'" + text
    }

    /// A sign, then digits with single `.` or `,` between them, then perhaps `%`, and nothing else:
    /// `-12%`, `+3.5`, `-1,234`. No currency, letters, spaces or operators: `-1+2`, `-1e5`, `-`
    /// and `+%` are not.
    static func isSignedNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        guard let sign = bytes.popFirst(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") else { return false }
        if bytes.last == UInt8(ascii: "%") { bytes = bytes.dropLast() }
        var previousIsDigit = false
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                previousIsDigit = true
            } else if (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && previousIsDigit {
                previousIsDigit = false
            } else {
                return false
            }
        }
        return previousIsDigit
    }

    /// `text` in double quotes (each quote doubled) when it holds a comma, a quote, CR or LF.
    public static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }) else {
            return text
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { out += "\"\"" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }
}

// MARK: XML

/// Text from the data, made safe for XML 1.0: characters XML cannot hold at all (controls but tab,
/// LF and CR; U+FFFE, U+FFFF) dropped, `&`, `<`, `>`, `"` and `'` as references, and tab, LF and CR
/// as character references so that a parser reads them back as they were (it would normalise them
/// in an attribute, and CR anywhere).
public enum XMLText {
    /// Whether XML 1.0 allows the character at all (its `Char` production), and data may keep it
    /// (no bidirectional control: ``Text/isBidiControl(_:)``).
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if Text.isBidiControl(scalar) { return false }
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `text` without the characters XML 1.0 forbids.
    public static func cleaned(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(isAllowed) else { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.filter(isAllowed))
        return String(out)
    }

    /// `text` cleaned and escaped for an element's content or an attribute value (in double or
    /// single quotes).
    public static func escaped(_ text: String) -> String {
        // Printable ASCII without a character to escape (most values: codes, dates, amounts) is
        // already XML.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "<")
                && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where isAllowed(scalar) {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` cleaned, then cut to at most `maximum` characters as XML Schema counts them (Unicode
    /// scalars), never inside a grapheme; `nil` when nothing is left (ISO 20022 texts are at least one long).
    public static func limited(_ text: String, to maximum: Int) -> String? {
        let clean = cleaned(text)
        guard !clean.isEmpty else { return nil }
        guard clean.unicodeScalars.count > maximum else { return clean }
        var out = "", count = 0
        for character in clean {
            let scalars = character.unicodeScalars.count
            if count + scalars > maximum { break }
            out.append(character)
            count += scalars
        }
        return out.isEmpty ? nil : out
    }

    /// `text` cleaned and in pieces of at most `maximum` characters (graphemes kept whole), for a
    /// repeatable ISO 20022 element: nothing is cut off.
    public static func pieces(_ text: String, of maximum: Int) -> [String] {
        var pieces: [String] = [], current = "", count = 0
        for character in cleaned(text) {
            let scalars = character.unicodeScalars.count
            if count + scalars > maximum, !current.isEmpty {
                pieces.append(current)
                current = ""
                count = 0
            }
            current.append(character)
            count += scalars
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}

/// One statement as an ISO 20022 `camt.053.001.08` (BankToCustomerStatementV08) document: a group
/// header, one statement with its sequence number, period, account, balances, transaction summary
/// and one entry per settled transaction. A provisional month is a camt.053 whose closing balance is
/// interim booked (`ITBD`), not closing booked (`CLBD`), without a legal sequence number.
public enum StatementCamt {
    public static let namespace = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"

    public static func render(_ data: StatementData) -> String {
        var xml = XMLWriter()
        xml.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        let created = dateTime(data.through, "23:59:59", offset: data.throughOffsetSeconds)
        let digest = String(data.digest.prefix(32))
        xml.open("Document", attributes: [("xmlns", namespace)])
        xml.open("BkToCstmrStmt")
        xml.open("GrpHdr")
        xml.leaf("MsgId", "NESTEGG-" + String(digest.prefix(27)))
        xml.leaf("CreDtTm", created)
        xml.close("GrpHdr")
        xml.open("Stmt")
        xml.leaf("Id", "\(data.month)-\(data.isProvisional ? "P" : "F")-" + String(digest.prefix(24)))
        xml.leaf("ElctrncSeqNb", String(data.sequence))
        if !data.isProvisional { xml.leaf("LglSeqNb", String(data.sequence)) }
        xml.leaf("CreDtTm", created)
        xml.open("FrToDt")
        xml.leaf("FrDtTm", dateTime(data.first, "00:00:00", offset: data.firstOffsetSeconds))
        xml.leaf("ToDtTm", created)
        xml.close("FrToDt")
        account(data, into: &xml)
        balances(data, into: &xml)
        summary(data, into: &xml)
        for entry in data.entries { self.entry(entry, into: &xml) }
        var note = data.isProvisional
            ? "Provisional statement: the month is not over; its last balance (ITBD) is the balance on \(data.through), the data's as-of date."
            : "Final statement."
        note += " Times in \(data.timeZone). Statement digest (nestegg-statement-v1): \(data.digest)."
        if let text = XMLText.limited(note, to: 500) { xml.leaf("AddtlStmtInf", text) }
        xml.close("Stmt")
        xml.close("BkToCstmrStmt")
        xml.close("Document")
        return xml.text
    }

    static func account(_ data: StatementData, into xml: inout XMLWriter) {
        let account = data.account
        xml.open("Acct")
        xml.open("Id")
        if let iban = account.iban, isIBAN(iban) {
            xml.leaf("IBAN", iban)
        } else {
            xml.open("Othr")
            let sortCodeAndNumber = [account.sortCode, account.accountNumber].compactMap { $0 }.joined()
            if account.sortCode != nil, account.accountNumber != nil, let id = XMLText.limited(sortCodeAndNumber, to: 34) {
                xml.leaf("Id", id)
                xml.open("SchmeNm"); xml.leaf("Prtry", "SortCodeAccountNumber"); xml.close("SchmeNm")
            } else {
                xml.leaf("Id", XMLText.limited(account.uid.filter { $0 != "-" }, to: 34) ?? "unknown")
                xml.open("SchmeNm"); xml.leaf("Prtry", "StarlingAccountUid"); xml.close("SchmeNm")
            }
            xml.close("Othr")
        }
        xml.close("Id")
        xml.leaf("Ccy", account.currency.code)
        if let name = XMLText.limited(account.name, to: 70) { xml.leaf("Nm", name) }
        let holder = account.holderName.flatMap { XMLText.limited($0, to: 140) }
        if holder != nil || account.holderAddress != nil {
            xml.open("Ownr")
            if let holder { xml.leaf("Nm", holder) }
            if let address = account.holderAddress { postalAddress(address, into: &xml) }
            xml.close("Ownr")
        }
        let bic = account.bic.flatMap { isBIC($0) ? $0 : nil }
        let issuer = data.issuerName.flatMap { XMLText.limited($0, to: 140) }
        if bic != nil || issuer != nil {
            xml.open("Svcr")
            xml.open("FinInstnId")
            if let bic { xml.leaf("BICFI", bic) }
            if let issuer { xml.leaf("Nm", issuer) }
            xml.close("FinInstnId")
            xml.close("Svcr")
        }
        xml.close("Acct")
    }

    /// The holder's address as `PostalAddress24`, in the schema's order: postcode, town, country,
    /// then the lines above the town (each at most 70 characters, up to 7).
    static func postalAddress(_ address: PostalAddress, into xml: inout XMLWriter) {
        xml.open("PstlAdr")
        if let code = XMLText.limited(address.postCode, to: 16) { xml.leaf("PstCd", code) }
        if let town = XMLText.limited(address.postTown, to: 35) { xml.leaf("TwnNm", town) }
        xml.leaf("Ctry", address.countryCode)
        for line in address.lines.prefix(7) {
            if let line = XMLText.limited(line, to: 70) { xml.leaf("AdrLine", line) }
        }
        xml.close("PstlAdr")
    }

    /// Opening booked and closing booked (interim booked while provisional); without a balance
    /// file the one balance camt.053 requires is the period's net movement, a proprietary type.
    static func balances(_ data: StatementData, into xml: inout XMLWriter) {
        let first = "\(data.first)", through = "\(data.through)"
        if let opening = data.opening, let closing = data.closing {
            balance("OPBD", proprietary: false, opening, on: first, into: &xml)
            balance(data.isProvisional ? "ITBD" : "CLBD", proprietary: false, closing, on: through, into: &xml)
        } else {
            balance("NETMOVEMENT", proprietary: true, data.net, on: through, into: &xml)
        }
    }

    static func balance(_ type: String, proprietary: Bool, _ amount: Money, on date: String, into xml: inout XMLWriter) {
        xml.open("Bal")
        xml.open("Tp"); xml.open("CdOrPrtry"); xml.leaf(proprietary ? "Prtry" : "Cd", type); xml.close("CdOrPrtry"); xml.close("Tp")
        xml.amount("Amt", amount)
        xml.leaf("CdtDbtInd", amount.isNegative ? "DBIT" : "CRDT")
        xml.open("Dt"); xml.leaf("Dt", date); xml.close("Dt")
        xml.close("Bal")
    }

    static func summary(_ data: StatementData, into xml: inout XMLWriter) {
        let credits = data.entries.filter { $0.direction == .in }.count
        let debits = data.entries.count - credits
        xml.open("TxsSummry")
        xml.open("TtlNtries")
        xml.leaf("NbOfNtries", String(data.entries.count))
        xml.leaf("Sum", (data.moneyIn + data.moneyOut).decimalString)
        xml.open("TtlNetNtry")
        xml.leaf("Amt", magnitude(data.net).decimalString)
        xml.leaf("CdtDbtInd", data.net.isNegative ? "DBIT" : "CRDT")
        xml.close("TtlNetNtry")
        xml.close("TtlNtries")
        xml.open("TtlCdtNtries"); xml.leaf("NbOfNtries", String(credits)); xml.leaf("Sum", data.moneyIn.decimalString); xml.close("TtlCdtNtries")
        xml.open("TtlDbtNtries"); xml.leaf("NbOfNtries", String(debits)); xml.leaf("Sum", data.moneyOut.decimalString); xml.close("TtlDbtNtries")
        xml.close("TxsSummry")
    }

    static func entry(_ entry: StatementData.Entry, into xml: inout XMLWriter) {
        let indicator = entry.direction == .in ? "CRDT" : "DBIT"
        let reference = XMLText.limited(entry.uid.filter { $0 != "-" }, to: 35)
        xml.open("Ntry")
        xml.amount("Amt", entry.amount)
        xml.leaf("CdtDbtInd", indicator)
        xml.open("Sts"); xml.leaf("Cd", "BOOK"); xml.close("Sts")
        xml.open("BookgDt")
        if entry.dateOnly {
            xml.leaf("Dt", "\(entry.local.date)")
        } else {
            xml.leaf("DtTm", dateTime(entry.local.date, StatementCSV.time(entry.local), offset: entry.offsetSeconds))
        }
        xml.close("BookgDt")
        xml.open("ValDt"); xml.leaf("Dt", "\(entry.local.date)"); xml.close("ValDt")
        if let reference { xml.leaf("AcctSvcrRef", reference) }
        xml.open("BkTxCd")
        if let (family, subFamily) = familyCode(source: entry.source, direction: entry.direction) {
            xml.open("Domn")
            xml.leaf("Cd", "PMNT")
            xml.open("Fmly"); xml.leaf("Cd", family); xml.leaf("SubFmlyCd", subFamily); xml.close("Fmly")
            xml.close("Domn")
        }
        if let source = XMLText.limited(entry.source, to: 35) {
            xml.open("Prtry"); xml.leaf("Cd", source); xml.leaf("Issr", "Starling"); xml.close("Prtry")
        }
        xml.close("BkTxCd")
        xml.open("NtryDtls")
        xml.open("TxDtls")
        if let reference { xml.open("Refs"); xml.leaf("AcctSvcrRef", reference); xml.close("Refs") }
        xml.amount("Amt", entry.amount)
        xml.leaf("CdtDbtInd", indicator)
        if let source = entry.sourceAmount {
            // The amount as paid or received before conversion, and the rate the two amounts
            // imply (the feed states no rate of its own): account currency per unit of the source's.
            xml.open("AmtDtls"); xml.open("InstdAmt")
            xml.amount("Amt", source)
            if let rate = entry.exchangeRate() {
                xml.open("CcyXchg")
                xml.leaf("SrcCcy", source.currency.code)
                xml.leaf("TrgtCcy", entry.amount.currency.code)
                xml.leaf("UnitCcy", source.currency.code)
                xml.leaf("XchgRate", rate)
                xml.close("CcyXchg")
            }
            xml.close("InstdAmt"); xml.close("AmtDtls")
        }
        if let name = XMLText.limited(entry.counterparty, to: 140) {
            // Money out goes to a creditor; money in comes from a debtor.
            let role = entry.direction == .in ? "Dbtr" : "Cdtr"
            xml.open("RltdPties"); xml.open(role); xml.open("Pty"); xml.leaf("Nm", name); xml.close("Pty"); xml.close(role); xml.close("RltdPties")
        }
        let remittance = XMLText.pieces(entry.reference, of: 140)
        if !remittance.isEmpty {
            xml.open("RmtInf")
            for piece in remittance { xml.leaf("Ustrd", piece) }
            xml.close("RmtInf")
        }
        if let category = entry.category.flatMap({ XMLText.limited("Spending category: " + $0, to: 500) }) {
            xml.leaf("AddtlTxInf", category)
        }
        xml.close("TxDtls")
        xml.close("NtryDtls")
        xml.close("Ntry")
    }

    /// The ISO bank transaction code family and sub-family (domain `PMNT`, payments) of a Starling
    /// feed item's source where one fits it fairly; `nil` otherwise (the entry keeps the source as a
    /// proprietary code). The feed's spending category says what was bought, not how it was paid,
    /// so it does not choose a code.
    public static func familyCode(source: String, direction: FeedItem.Direction) -> (family: String, subFamily: String)? {
        switch (source, direction) {
        case ("MASTER_CARD", .out), ("VISA", .out): return ("CCRD", "POSD")
        case ("DIRECT_DEBIT", .out): return ("RDDT", "PMDD")
        case ("FASTER_PAYMENTS_OUT", .out): return ("ICDT", "DMCT")
        case ("FASTER_PAYMENTS_IN", .in): return ("RCDT", "DMCT")
        case ("STANDING_ORDER", .out): return ("ICDT", "STDO")
        case ("INTERNAL_TRANSFER", .out): return ("ICDT", "BOOK")
        case ("INTERNAL_TRANSFER", .in): return ("RCDT", "BOOK")
        default: return nil
        }
    }

    static func magnitude(_ amount: Money) -> Money { amount.isNegative ? -amount : amount }

    /// `2026-10-31T23:59:59+00:00`
    static func dateTime(_ date: CivilDate, _ time: String, offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+", minutes = abs(offset) / 60
        let two = { (value: Int) in (value < 10 ? "0" : "") + String(value) }
        return "\(date)T\(time)\(sign)\(two(minutes / 60)):\(two(minutes % 60))"
    }

    /// `[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}`, the schema's IBAN pattern.
    static func isIBAN(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (5...34).contains(bytes.count) else { return false }
        return bytes[0..<2].allSatisfy { (0x41...0x5A).contains($0) } && bytes[2..<4].allSatisfy { (0x30...0x39).contains($0) }
            && bytes[4...].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// `[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?`, the schema's BIC pattern.
    static func isBIC(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let alphanumeric = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) }
        guard bytes.count == 8 || bytes.count == 11 else { return false }
        return bytes[0..<4].allSatisfy(alphanumeric) && bytes[4..<6].allSatisfy { (0x41...0x5A).contains($0) } && bytes[6...].allSatisfy(alphanumeric)
    }
}

/// Indented XML, element by element: every text and attribute value goes through ``XMLText``.
struct XMLWriter {
    private(set) var text = ""
    private var depth = 0

    mutating func raw(_ markup: String) { text += markup }

    mutating func open(_ name: String, attributes: [(String, String)] = []) {
        text += String(repeating: "  ", count: depth) + "<" + name
        for (key, value) in attributes { text += " \(key)=\"\(XMLText.escaped(value))\"" }
        text += ">\n"
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        text += String(repeating: "  ", count: depth) + "</" + name + ">\n"
    }

    mutating func leaf(_ name: String, _ value: String, attributes: [(String, String)] = []) {
        text += String(repeating: "  ", count: depth) + "<" + name
        for (key, value) in attributes { text += " \(key)=\"\(XMLText.escaped(value))\"" }
        text += ">" + XMLText.escaped(value) + "</" + name + ">\n"
    }

    /// An amount without its sign, with its currency: `<Amt Ccy="GBP">12.50</Amt>`.
    mutating func amount(_ name: String, _ money: Money) {
        leaf(name, StatementCamt.magnitude(money).decimalString, attributes: [("Ccy", money.currency.code)])
    }
}
