import Crypto
import NestEggImport
import NestEggModel
import NestEggSupport

/// The accounts of `imports/`: each file's statements gathered by account, their overlapping
/// downloads made one list of entries, every stated balance checked, and each account made an
/// account of the site (``AccountData``, the one account value every report reads).
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
        } else if let number = account.number.map(Self.compact), !number.isEmpty {
            // `20-32-06` and `203206`, a BIC with or without its `XXX` branch, are one bank.
            var bank = Self.compact(account.bank ?? "")
            if bank.count == 11, bank.hasSuffix("XXX") { bank.removeLast(3) }
            who = "number " + bank + " " + number
        } else {
            who = "name " + Text.normalised(account.name ?? "")
        }
        return who + " " + account.currency.uppercased()
    }

    /// Upper case, without spaces, hyphens and dots: how banks vary the writing of one number.
    static func compact(_ text: String) -> String { text.uppercased().filter { !" -.".contains($0) } }

    mutating func add(_ file: ImportedFile) {
        for statement in file.statements {
            let key = Self.key(statement.account)
            if parts[key] == nil { order.append(key) }
            parts[key, default: []].append(Part(file: file, statement: statement))
        }
    }

    /// Every account, in the order their files (sorted by path) first name them.
    func accounts(settings: Settings, log: DiagnosticLog) -> [AccountData] {
        var result: [AccountData] = []
        var names: Set<String> = []
        for key in order {
            guard var account = account(key: key, parts: parts[key] ?? [], clock: settings.clock, log: log) else { continue }
            // Two accounts of one name would read as one on every page: a later one gets its
            // number's (or IBAN's) end, else its currency, else a count.
            let name = account.account.name
            let end = (account.identifiers?.accountIdentifier ?? account.identifiers?.iban).map { "…" + String($0.suffix(4)) }
            var candidates = [name] + [end, account.account.currency.code].compactMap { $0.map { "\(name) (\($0))" } }
            candidates += (2...(result.count + 2)).map { "\(name) (\($0))" }
            account.account.name = candidates.first { !names.contains($0) }!
            names.insert(account.account.name)
            result.append(account)
        }
        return result
    }

    private func account(key: String, parts: [Part], clock: LocalClock, log: DiagnosticLog) -> AccountData? {
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

        // Every date within the years a site covers: from 1970 to a year past today (a typo's 2926
        // would make a statement for every month until then).
        let epoch = CivilDate(year: 1970, month: 1, day: 1)!
        func checkDate(_ date: ImportDate, _ file: ImportedFile, line: Int, what: String) {
            guard let day = CivilDate(year: date.year, month: date.month, day: date.day), day >= epoch, !DateHorizon.isPast(day) else {
                log.report(Diagnostic(.error, file: file.path, line: line, message: "\(what) \(date) is outside the dates NestEgg reads: "
                    + "from 1970-01-01 to \(DateHorizon.lastDay), a year past today"))
                problems = true
                return
            }
        }
        for part in parts {
            for entry in part.statement.entries { checkDate(entry.date, part.file, line: entry.line, what: "the entry's date") }
            for balance in [part.statement.opening, part.statement.closing].compactMap({ $0 }) {
                checkDate(balance.date, part.file, line: balance.line, what: "the balance's date")
            }
        }
        guard !problems else { return nil }

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
            // Files with their own ids and files without (a camt.053 and a CSV of one account)
            // meet only by what both have: the date and the amount, counted per file as ever.
            let withIDs = Set(parts.filter { $0.statement.entries.contains { !($0.id ?? "").isEmpty } }.map(\.file.path))
            let byContent = !withIDs.isEmpty && withIDs.count < paths.count
            var occurrences: [EntryKey: [(entry: ImportedEntry, file: ImportedFile, index: Int)]] = [:]
            var keyOrder: [EntryKey] = []
            for part in parts {
                let index = fileIndex[part.file.path]!
                for entry in part.statement.entries {
                    if entry.status == .pending {
                        if part.file.path == newest { pending.append((entry, part.file)) }
                        continue
                    }
                    let entryKey = EntryKey(entry, byContent: byContent)
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
        var copies: [String: Int] = [:]
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
            var uid = entry.id.flatMap { $0.isEmpty ? nil : Text.singleLine($0) } ?? Self.digest(key + "\n" + EntryKey(entry).description)
            if !ids.insert(uid).inserted {
                // The next free copy number of this id, without probing from 2 each time.
                var copy = copies[uid, default: 1]
                repeat { copy += 1 } while !ids.insert(uid + "-\(copy)").inserted
                copies[uid] = copy
                uid += "-\(copy)"
            }
            let date = CivilDate(year: entry.date.year, month: entry.date.month, day: entry.date.day)!
            let payee = entry.payee.map(Text.trimmed).flatMap { $0.isEmpty ? nil : $0 }
            return FeedItem(uid: uid, amount: amount.isNegative ? -amount : amount, direction: amount.isNegative ? .out : .in,
                            transactionTime: Instant(millisecondsSinceEpoch: Self.localNoon(date, clock: clock) * 1000 + earlier),
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
        var data = AccountData(account: StarlingAccount(uid: Self.digest(key), type: type, currency: currency, name: name),
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
        /// Without trailing zeros: `-12.5` and `-12.50` are one amount.
        let amount: DecimalAmount?
        let text: String

        /// `byContent`: by date and amount alone, ids and descriptions left out (files of one
        /// account that do not all have ids describe a payment each their own way).
        init(_ entry: ImportedEntry, byContent: Bool = false) {
            if !byContent, let id = entry.id, !id.isEmpty {
                (self.id, date, amount, text) = (id, nil, nil, "")
            } else {
                (self.id, date, amount, text) = (nil, entry.date, entry.amount.normalized, byContent ? "" : Text.normalised(entry.description))
            }
        }

        var description: String {
            if let id { return "id " + id }
            return "\(date!) \(amount!.significand)e-\(amount!.scale) " + text
        }
    }

    /// Noon of `date` on the site's clock, in seconds since 1970: the same date in every zone the
    /// site can be read in (noon UTC is the next day in Auckland).
    static func localNoon(_ date: CivilDate, clock: LocalClock) -> Int64 {
        let noonUTC = Int64(date.daysSinceEpoch) * 86_400 + 43_200
        return noonUTC - Int64(clock.offsetSeconds(at: Instant(secondsSinceEpoch: noonUTC)))
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
