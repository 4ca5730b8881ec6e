import Crypto
import NestEggImport
import NestEggModel
import NestEggSupport

/// The accounts of `imports/`: each file's statements gathered by account, their overlapping
/// downloads made one list of entries, every stated balance checked, and each account made an
/// account of the site (``StarlingAccountData``, the one account value every report reads).
///
/// - **One account across files**: statements are one account's when they name the same IBAN, or
///   the same account number at the same bank, or (QIF, CSV) the same name, in the same currency.
/// - **De-duplication**: an entry is known by the file's own transaction id (OFX `FITID`, camt
///   `AcctSvcrRef`/`NtryRef`, MT940's bank reference) or, where the file has none, by its date,
///   amount and description. Each key is counted per file, and the account gets each key as often
///   as the file that has it most often: the same payment twice in one file is two payments, the
///   same payment in two overlapping files is one.
/// - **Pending entries** are the bank's view at the time of a download, so only the account's
///   newest file's are kept (an older download's pending payment has since been booked or dropped).
struct ImportedAccounts {
    private struct Part {
        let file: ImportedFile
        let statement: ImportedStatement
    }

    private var parts: [String: [Part]] = [:]
    private var order: [String] = []

    /// Which account a statement is of: its IBAN, else its number and bank, else its name; and its currency.
    static func key(_ account: ImportedAccount) -> String {
        let who: String
        if let iban = account.iban, !iban.isEmpty {
            who = "iban " + iban.uppercased().filter { $0 != " " }
        } else if let number = account.number, !number.isEmpty {
            who = "number " + (account.bank ?? "") + " " + number
        } else {
            who = "name " + Text.normalised(account.name ?? "")
        }
        return who + " " + account.currency.uppercased()
    }

    mutating func add(_ file: ImportedFile) {
        for statement in file.statements {
            let key = Self.key(statement.account)
            if parts[key] == nil { order.append(key) }
            parts[key, default: []].append(Part(file: file, statement: statement))
        }
    }

    /// Every account, in the order their files (sorted by path) first name them.
    func accounts(settings: Settings, log: DiagnosticLog) -> [StarlingAccountData] {
        var result: [StarlingAccountData] = []
        var names: [String: Int] = [:]
        for key in order {
            guard var account = account(key: key, parts: parts[key] ?? [], log: log) else { continue }
            // Two accounts of one name would read as one on every page: the second gets its currency or number.
            names[account.account.name, default: 0] += 1
            if names[account.account.name]! > 1 {
                account.account.name += " (" + (account.identifiers?.accountIdentifier.map { "…" + String($0.suffix(4)) } ?? account.account.currency.code) + ")"
            }
            result.append(account)
        }
        return result
    }

    private func account(key: String, parts: [Part], log: DiagnosticLog) -> StarlingAccountData? {
        guard let first = parts.first else { return nil }
        let identity = first.statement.account
        guard let currency = Currency(code: identity.currency.uppercased()) else {
            log.report(Diagnostic(.error, file: first.file.path, line: first.statement.line,
                                  message: "the account's currency \"\(Text.singleLine(identity.currency))\" is no ISO 4217 code such as GBP or EUR"))
            return nil
        }
        var problems = false
        func money(_ amount: DecimalAmount, _ file: ImportedFile, line: Int, what: String) -> Money? {
            guard let minor = amount.minorUnits(minorDigits: currency.minorDigits), Int128(minor).magnitude <= Money.maximumMinorUnits.magnitude else {
                log.report(Diagnostic(.error, file: file.path, line: line, message: "\(what) \(amount) is no amount of \(currency.code): "
                    + "expected at most \(currency.minorDigits) decimal places and at most \(Money.maximumMinorUnits / Int128(currency.minorUnitsPerUnit)) units"))
                problems = true
                return nil
            }
            return Money(minorUnits: minor, currency: currency)
        }

        // The newest file: the one whose statements reach the latest date (a later path on a tie).
        let earliest = ImportDate(year: 1900, month: 1, day: 1)!
        func reach(_ part: Part) -> ImportDate { ([part.statement.closing?.date] + part.statement.entries.map(\.date)).compactMap { $0 }.max() ?? earliest }
        let newest = parts.max { (reach($0), $0.file.path) < (reach($1), $1.file.path) }!.file.path

        // Booked entries, each key as often as the file that has it most often (one file's are all kept).
        var pending: [(ImportedEntry, ImportedFile)] = []
        var booked: [(entry: ImportedEntry, file: ImportedFile, money: Money)] = []
        func keep(_ entry: ImportedEntry, _ file: ImportedFile) {
            if let amount = money(entry.amount, file, line: entry.line, what: "the amount") { booked.append((entry, file, amount)) }
        }
        let paths = Array(Set(parts.map(\.file.path))).sorted()
        if paths.count == 1 {
            for part in parts {
                for entry in part.statement.entries {
                    if entry.status == .pending { pending.append((entry, part.file)) } else { keep(entry, part.file) }
                }
            }
        } else {
            let fileIndex = Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, $0) })
            var occurrences: [EntryKey: [(entry: ImportedEntry, file: ImportedFile, index: Int)]] = [:]
            var keyOrder: [EntryKey] = []
            for part in parts {
                let index = fileIndex[part.file.path]!
                for entry in part.statement.entries {
                    if entry.status == .pending {
                        if part.file.path == newest { pending.append((entry, part.file)) }
                        continue
                    }
                    let entryKey = EntryKey(entry)
                    if occurrences[entryKey] == nil { keyOrder.append(entryKey) }
                    occurrences[entryKey, default: []].append((entry, part.file, index))
                }
            }
            for entryKey in keyOrder {
                let found = occurrences[entryKey]!
                var counts: [Int: Int] = [:]
                for occurrence in found { counts[occurrence.index, default: 0] += 1 }
                // The file that has it most often; of those, the first by path.
                let most = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
                for occurrence in found where occurrence.index == most { keep(occurrence.entry, occurrence.file) }
            }
        }
        booked.sort { ($0.entry.date, $0.file.path, $0.entry.line) < ($1.entry.date, $1.file.path, $1.entry.line) }

        let balances = BalanceAssertions(currency: currency, booked: booked.map { ($0.entry.date, $0.money) })
        for part in parts {
            let statement = part.statement
            guard let closing = statement.closing, let stated = money(closing.amount, part.file, line: closing.line, what: "the closing balance") else { continue }
            if let opening = statement.opening, let start = money(opening.amount, part.file, line: opening.line, what: "the opening balance") {
                var total = start
                for entry in statement.entries where entry.status == .booked {
                    if let amount = money(entry.amount, part.file, line: entry.line, what: "the amount") { total += amount }
                }
                if total != stated {
                    log.report(Diagnostic(.error, file: part.file.path, line: closing.line, message: "the statement's closing balance on \(closing.date) is "
                        + "\(stated.decimalString) \(currency.code), but its opening balance \(start.decimalString) and its booked entries make "
                        + "\(total.decimalString): the file contradicts itself"))
                    problems = true
                }
            }
            balances.state(stated, endOf: closing.date, in: part.file.path, line: closing.line)
        }
        for contradiction in balances.contradictions() {
            log.report(Diagnostic(.error, file: contradiction.path, line: contradiction.line, message: contradiction.message))
            problems = true
        }
        guard !problems else { return nil }

        var current: Money
        if let anchored = balances.current {
            current = anchored
        } else {
            // No closing balance anywhere: the earliest opening one, else nothing (counted from zero).
            let opening = parts.compactMap { part in part.statement.opening.map { ($0, part.file) } }.min { $0.0.date < $1.0.date }
            current = opening.flatMap { money($0.0.amount, $0.1, line: $0.0.line, what: "the opening balance") } ?? .zero(currency)
            for item in booked where opening.map({ item.entry.date >= $0.0.date }) ?? true { current += item.money }
            if opening == nil {
                log.report(Diagnostic(.warning, file: first.file.path, message: "states no balance of \(Self.describe(identity)): its balances are "
                    + "counted from zero before its first entry"))
            }
        }
        var effective = current
        var feed: [FeedItem] = []
        var ids: Set<String> = []
        // Entries of one day keep their order: a millisecond after noon UTC for each before it
        // (the booked ones come in date order; a pending one follows the day's booked ones).
        var day: ImportDate?
        var earlier: Int64 = 0
        var perDay: [ImportDate: Int64] = [:]
        func item(_ entry: ImportedEntry, _ amount: Money, _ status: FeedStatus) -> FeedItem {
            if status == .pending {
                if perDay.isEmpty { for (entry, _, _) in booked { perDay[entry.date, default: 0] += 1 } }
                earlier = perDay[entry.date, default: 0]
                perDay[entry.date] = earlier + 1
            } else if entry.date == day {
                earlier += 1
            } else {
                day = entry.date
                earlier = 0
            }
            var uid = entry.id.map { Text.singleLine($0) } ?? Self.digest(key + "\n" + EntryKey(entry).description)
            if !ids.insert(uid).inserted {
                var copy = 2
                while !ids.insert(uid + "-\(copy)").inserted { copy += 1 }
                uid += "-\(copy)"
            }
            let date = CivilDate(year: entry.date.year, month: entry.date.month, day: entry.date.day)!
            let payee = entry.payee.map(Text.trimmed).flatMap { $0.isEmpty ? nil : $0 }
            return FeedItem(uid: uid, amount: amount.isNegative ? -amount : amount, direction: amount.isNegative ? .out : .in,
                            transactionTime: Instant(millisecondsSinceEpoch: (Int64(date.daysSinceEpoch) * 86_400 + 43_200) * 1000 + earlier),
                            status: status, source: FeedSource(rawValue: entry.kind.map(Text.singleLine) ?? "IMPORTED"),
                            counterPartyName: payee ?? entry.description, reference: payee == nil ? (entry.reference ?? "") : entry.description,
                            spendingCategory: nil, dateOnly: true)
        }
        for (entry, _, amount) in booked { feed.append(item(entry, amount, .settled)) }
        for (entry, file) in pending {
            guard let amount = money(entry.amount, file, line: entry.line, what: "the amount") else { return nil }
            effective += amount
            feed.append(item(entry, amount, .pending))
        }
        let name = Self.name(identity)
        let type: String
        switch identity.kind {
        case .current: type = "CURRENT"
        case .savings: type = "SAVINGS"
        case .creditCard: type = "CREDIT_CARD"
        case .other: type = "ACCOUNT"
        }
        var data = StarlingAccountData(account: StarlingAccount(uid: Self.digest(key), type: type, currency: currency, name: name),
                                       feed: feed, balance: StarlingBalance(cleared: current, effective: effective), savingsGoals: [],
                                       identifiers: StarlingIdentifiers(accountIdentifier: identity.number, bankIdentifier: identity.bank,
                                                                        iban: identity.iban, bic: nil),
                                       holderName: parts.lazy.compactMap(\.statement.account.holder).first)
        data.origin = .imported
        data.roundUps = parts.contains { $0.file.roundUps }
        data.sources = Array(Set(parts.flatMap { [$0.file.path] + $0.file.alsoRead })).sorted()
        return data
    }

    /// The key an entry is known by across files: the file's own id, else its date, amount and description.
    struct EntryKey: Hashable, CustomStringConvertible {
        let id: String?
        let date: ImportDate?
        let amount: DecimalAmount?
        let text: String

        init(_ entry: ImportedEntry) {
            if let id = entry.id, !id.isEmpty {
                (self.id, date, amount, text) = (id, nil, nil, "")
            } else {
                (self.id, date, amount, text) = (nil, entry.date, entry.amount, Text.normalised(entry.description))
            }
        }

        var description: String {
            if let id { return "id " + id }
            return "\(date!) \(amount!.significand)e-\(amount!.scale) " + text
        }
    }

    static func digest(_ text: String) -> String {
        Text.hex(SHA256.hash(data: Array(text.utf8))).prefix(20).description
    }

    /// The name an account is shown by: the file's (or the rules') name, else by its number's end.
    static func name(_ account: ImportedAccount) -> String {
        if let name = account.name.map(Text.trimmed), !name.isEmpty { return name }
        if let number = (account.iban ?? account.number).map({ $0.filter { $0.isLetter || $0.isNumber } }), number.count >= 4 {
            return "Account ending \(number.suffix(4))"
        }
        return "Imported \(account.currency) account"
    }

    static func describe(_ account: ImportedAccount) -> String {
        if let iban = account.iban { return "account \(iban)" }
        if let number = account.number { return "account \(number)" }
        return "account \"\(name(account))\""
    }
}
