// What a bank's export file says, format by format, before it meets the rest of NestEgg: the
// parsers of `imports/` (OFX, camt.052/.053, MT940/942, QIF, CSV) each turn a file's bytes into
// `ImportedStatement`s, and the loader (NestEggLoad's `ImportsLoader`) checks them, merges one
// account's statements across files and makes them accounts of the site. This target depends on
// nothing of ours, so that each parser can be built and fuzzed alone.

/// An exact decimal as a file writes it: `-12.50` is significand −1250 at scale 2. No floating
/// point; the loader converts it to the currency's minor units and refuses what does not fit.
public struct DecimalAmount: Sendable, Hashable, CustomStringConvertible {
    public var significand: Int64
    /// Digits after the decimal point (0 to 18).
    public var scale: Int

    public init(significand: Int64, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    /// The largest magnitude of a significand accepted (10¹⁷): an amount and its sum over a file
    /// stay far inside Int64 once converted.
    public static let maximumSignificand: Int64 = 100_000_000_000_000_000

    /// Parses `123`, `-123.45`, `+0.5`, `1,234.56` (with `grouping: ","`), `1.234,56` (with
    /// `decimal: ",", grouping: "."`), `.5`. `nil` for anything else: no exponent, no currency
    /// sign, no spaces inside, at most one sign and one decimal separator, digits on one side of it
    /// at least, at most 18 digits after it.
    public init?<S: StringProtocol>(parsing text: S, decimal: Character = ".", grouping: Character? = nil) {
        // Byte by byte: every character the rules accept is ASCII.
        guard let point = decimal.asciiValue else { return nil }
        let separator = grouping?.asciiValue
        var negative = false
        var significand: Int64 = 0
        var scale = 0
        var seenPoint = false
        var digits = 0
        var first = true
        for byte in text.utf8 {
            defer { first = false }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times, o1) = significand.multipliedReportingOverflow(by: 10)
                let (next, o2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !o1, !o2, next <= Self.maximumSignificand else { return nil }
                significand = next
                digits += 1
                if seenPoint {
                    scale += 1
                    guard scale <= 18 else { return nil }
                }
            case UInt8(ascii: "-") where first, UInt8(ascii: "+") where first:
                negative = byte == UInt8(ascii: "-")
            case point where !seenPoint:
                seenPoint = true
            case separator where separator != nil && !seenPoint && digits > 0:
                break // a thousands separator between digits
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        self.significand = negative ? -significand : significand
        self.scale = scale
    }

    public var negated: DecimalAmount { DecimalAmount(significand: -significand, scale: scale) }

    /// The same number at `scale` digits after the point (not fewer than it has); `nil` when it does not fit.
    public func rescaled(to scale: Int) -> DecimalAmount? {
        var value = significand
        for _ in self.scale..<max(self.scale, scale) {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = next
        }
        return DecimalAmount(significand: value, scale: max(self.scale, scale))
    }

    /// The exact sum at the larger of the two scales; `nil` when it does not fit (never a trap).
    public func adding(_ other: DecimalAmount) -> DecimalAmount? {
        let scale = max(self.scale, other.scale)
        guard let a = rescaled(to: scale), let b = other.rescaled(to: scale) else { return nil }
        let (sum, overflow) = a.significand.addingReportingOverflow(b.significand)
        return overflow ? nil : DecimalAmount(significand: sum, scale: scale)
    }

    /// Whether the two are the same number (`12.5` and `12.50` are).
    public func isSameNumber(as other: DecimalAmount) -> Bool { normalized == other.normalized }

    /// The number without trailing zeros after the point: `-12.50` is `-12.5`.
    public var normalized: DecimalAmount {
        var amount = self
        while amount.scale > 0, amount.significand % 10 == 0 {
            amount = DecimalAmount(significand: amount.significand / 10, scale: amount.scale - 1)
        }
        return amount
    }

    /// The amount in minor units of a currency with `minorDigits` digits: `nil` when it has more
    /// (non-zero) digits than the currency (`12.345` EUR) or does not fit.
    public func minorUnits(minorDigits: Int) -> Int64? {
        var value = significand
        var scale = self.scale
        while scale > minorDigits {
            guard value % 10 == 0 else { return nil }
            value /= 10
            scale -= 1
        }
        while scale < minorDigits {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = next
            scale += 1
        }
        return value
    }

    public var description: String {
        let magnitude = String(significand.magnitude)
        let sign = significand < 0 ? "-" : ""
        guard scale > 0 else { return sign + magnitude }
        let padded = String(repeating: "0", count: max(0, scale + 1 - magnitude.count)) + magnitude
        return sign + padded.dropLast(scale) + "." + padded.suffix(scale)
    }
}

/// A date on the calendar as a file writes it (no time, no zone): the day the bank booked an entry.
public struct ImportDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A real date of the years 1900 to 2999; `nil` for anything else (`2026-02-30`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1900...2999).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= days else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD` or `YYYYMMDD` (the first ten or eight characters; what follows, a time, is not read).
    public init?<S: StringProtocol>(iso text: S) {
        let digits = Array(text.utf8.prefix(10))
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= digits.count else { return nil }
            var value = 0
            for byte in digits[from..<(from + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        if digits.count >= 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"),
           let y = number(0, 4), let m = number(5, 2), let d = number(8, 2) {
            self.init(year: y, month: m, day: d)
        } else if let y = number(0, 4), let m = number(4, 2), let d = number(6, 2) {
            self.init(year: y, month: m, day: d)
        } else {
            return nil
        }
    }

    public static func < (lhs: ImportDate, rhs: ImportDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// Which account a statement is of, as far as its file says.
public struct ImportedAccount: Sendable, Hashable {
    /// The IBAN, upper case without spaces, when the file gives one.
    public var iban: String?
    /// The account number as written (OFX `ACCTID`, MT940 `:25:` without the bank part, camt `Othr/Id`).
    public var number: String?
    /// The bank: BIC, sort code, routing number or OFX `BANKID`, as written.
    public var bank: String?
    /// ISO 4217, upper case.
    public var currency: String
    /// A name the file gives the account (camt `Acct/Nm`, QIF `!Account` `N`), if any.
    public var name: String?
    /// The holder's name, if the file gives one (camt `Acct/Ownr/Nm`).
    public var holder: String?
    public var kind: Kind

    public enum Kind: String, Sendable, Hashable { case current, savings, creditCard, other }

    public init(iban: String? = nil, number: String? = nil, bank: String? = nil, currency: String, name: String? = nil,
                holder: String? = nil, kind: Kind = .current) {
        self.iban = iban
        self.number = number
        self.bank = bank
        self.currency = currency
        self.name = name
        self.holder = holder
        self.kind = kind
    }
}

/// A balance a file states, to be checked against its entries (as hledger's and Beancount's
/// balance assertions are).
public struct StatedBalance: Sendable, Hashable {
    /// The day the balance is of: at the end of that day for a closing balance, at its start (the
    /// end of the day before) for an opening one, as the file means it.
    public var date: ImportDate
    /// Signed: negative when the account is overdrawn (or, for a card, when money is owed).
    public var amount: DecimalAmount
    /// Where in the file it is stated (1-based line).
    public var line: Int

    public init(date: ImportDate, amount: DecimalAmount, line: Int) {
        self.date = date
        self.amount = amount
        self.line = line
    }
}

/// One entry of a statement.
public struct ImportedEntry: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable { case booked, pending }

    /// The file's own id of the entry, when it has one: OFX `FITID`, camt `AcctSvcrRef` (else
    /// `NtryRef`), MT940's bank reference (`//…` in `:61:`). What overlapping downloads are
    /// de-duplicated by.
    public var id: String?
    /// The day it was booked (posted).
    public var date: ImportDate
    /// The day it took value, when the file says and it differs.
    public var valueDate: ImportDate?
    /// Signed, in the account's currency: negative when money left the account.
    public var amount: DecimalAmount
    /// What the bank says it was (OFX `NAME`+`MEMO`, camt `AddtlNtryInf`/`Ustrd`, MT940 `:86:`, QIF `M`).
    public var description: String
    /// Whom the money went to or came from, when the file names the other party.
    public var payee: String?
    /// A reference (cheque number, end-to-end id, customer reference), when given.
    public var reference: String?
    /// The file's own kind of entry: OFX `TRNTYPE`, camt's bank transaction code, MT940's
    /// transaction type (`NTRF`), QIF's `N` — kept as written.
    public var kind: String?
    public var status: Status
    /// Where in the file the entry starts (1-based line).
    public var line: Int

    public init(id: String? = nil, date: ImportDate, valueDate: ImportDate? = nil, amount: DecimalAmount, description: String,
                payee: String? = nil, reference: String? = nil, kind: String? = nil, status: Status = .booked, line: Int) {
        self.id = id
        self.date = date
        self.valueDate = valueDate
        self.amount = amount
        self.description = description
        self.payee = payee
        self.reference = reference
        self.kind = kind
        self.status = status
        self.line = line
    }
}

/// One statement (or report) of one account in a file. A file may hold several, of one account or many.
public struct ImportedStatement: Sendable, Hashable {
    public var account: ImportedAccount
    /// The balance before the first entry, when the file states one (camt `OPBD`, MT940 `:60F:`/`:60M:`).
    public var opening: StatedBalance?
    /// The balance after the last booked entry (OFX `LEDGERBAL`, camt `CLBD`, MT940 `:62F:`/`:62M:`).
    public var closing: StatedBalance?
    /// In file order.
    public var entries: [ImportedEntry]
    /// Where in the file the statement starts (1-based line).
    public var line: Int

    public init(account: ImportedAccount, opening: StatedBalance? = nil, closing: StatedBalance? = nil, entries: [ImportedEntry], line: Int) {
        self.account = account
        self.opening = opening
        self.closing = closing
        self.entries = entries
        self.line = line
    }
}

/// What is wrong with a file, and where: the loader adds the file's path.
public struct ImportProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    public var line: Int
    /// 1-based, when known.
    public var column: Int?
    /// The element, tag or field (`STMTTRN/TRNAMT`, `Ntry/Amt`, `:61:`, column `Amount`), when there is one.
    public var element: String?
    /// What was found and what was expected, in a sentence.
    public var message: String

    public init(line: Int, column: Int? = nil, element: String? = nil, _ message: String) {
        self.line = line
        self.column = column
        self.element = element
        self.message = message
    }

    public var description: String {
        "\(line)" + (column.map { ":\($0)" } ?? "") + ": " + (element.map { "\($0): " } ?? "") + message
    }
}
