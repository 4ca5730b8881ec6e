import NestEggImport
import NestEggModel
import NestEggSupport

/// Two JSON shapes of the open-banking APIs, as they return them, each in its own source folder;
/// their accounts join `imports/`'s (``ImportedAccounts``), so one account downloaded both ways is one.
///
/// - `berlingroup/`: the Berlin Group NextGenPSD2 account information answers, which most EU
///   banks' APIs and aggregators return: `accounts.json` (`GET /v1/accounts`), and per account
///   (by its `resourceId`) `balances/<resourceId>.json` (`GET /v1/accounts/{id}/balances`) and
///   `transactions/<resourceId>.json`, or several pages as `transactions/<resourceId>/*.json`
///   (`GET /v1/accounts/{id}/transactions?bookingStatus=both`: `booked` and `pending`).
/// - `simplefin/`: SimpleFIN Bridge's `GET /accounts` answers (North American banks), any number
///   of files (`*.json`), each account with its `balance`, `balance-date` and `transactions`.
public enum OpenBankingLoader {
    public static let folders = ["berlingroup", "simplefin"]

    // MARK: Berlin Group

    static func berlinGroup(from folder: DataFolder, clock: LocalClock, log: DiagnosticLog) -> [ImportedFile] {
        guard folder.hasFolder("berlingroup") else { return [] }
        let accountsPath = "berlingroup/accounts.json"
        guard folder.contains(accountsPath), let document = folder.document(accountsPath, log: log) else {
            if !folder.contains(accountsPath) {
                log.report(Diagnostic(.error, file: accountsPath, message: "missing: the berlingroup/ folder needs accounts.json (GET /v1/accounts) to name its accounts"))
            }
            return []
        }
        guard let list = document.value.required("accounts", "the list of accounts (GET /v1/accounts)")?.array else { return [] }
        var known: Set<String> = []
        var result: [ImportedFile] = []
        for value in list {
            guard value.object != nil, let id = value.required("resourceId", "the account's resourceId")?.identifier,
                  let currency = value.required("currency", "the account's ISO 4217 currency")?.currency else { continue }
            guard known.insert(id).inserted else { value.error("duplicate resourceId \"\(Text.singleLine(id))\""); continue }
            let account = ImportedAccount(iban: value["iban"]?.string.map { $0.uppercased().filter { $0 != " " } },
                                          number: value["bban"]?.trimmedString ?? value["maskedPan"]?.trimmedString ?? (value["iban"] == nil ? id : nil),
                                          bank: value["bic"]?.trimmedString, currency: currency.code,
                                          name: value["displayName"]?.trimmedString ?? value["name"]?.trimmedString ?? value["product"]?.trimmedString,
                                          holder: value["ownerName"]?.trimmedString,
                                          kind: value["cashAccountType"]?.string == "SVGS" ? .savings : (value["maskedPan"] != nil ? .creditCard : .current))
            let line = value.diagnostic(.warning, "").line ?? 1
            var statement = ImportedStatement(account: account, entries: [], line: line)
            var paths: [String] = []
            // The balances the answers state, in the order read: the balances file's, then each page's.
            var stated: [(type: String, balance: StatedBalance, path: String)] = []
            let balancesPath = "berlingroup/balances/\(id).json"
            if folder.contains(balancesPath), let balances = folder.document(balancesPath, log: log) {
                paths.append(balancesPath)
                if let list = balances.value.required("balances", "the account's balances (GET /v1/accounts/{account-id}/balances)") {
                    stated += read(balances: list, currency: currency, clock: clock).map { ($0.type, $0.balance, balancesPath) }
                }
            }
            let single = "berlingroup/transactions/\(id).json"
            let pages = folder.contains(single) ? [single] : folder.files(in: "berlingroup/transactions/\(id)")
            // An entry the bank names (`transactionId`, `entryReference`) on two pages that overlap is one entry.
            var named: Set<String> = []
            for page in pages {
                guard let answer = folder.document(page, log: log) else { continue }
                paths.append(page)
                guard let transactions = answer.value.required("transactions", "the transactions ({\"booked\": [...], \"pending\": [...]})") else { continue }
                for (status, key) in [(ImportedEntry.Status.booked, "booked"), (.pending, "pending")] {
                    for entry in transactions[key]?.array ?? [] {
                        guard let read = berlinGroupEntry(entry, status: status, currency: currency) else { continue }
                        if let entryId = read.id, !named.insert("\(status) \(entryId)").inserted { continue }
                        statement.entries.append(read)
                    }
                }
                // `withBalance=true` adds the balances beside the transactions.
                if let list = answer.value["balances"] {
                    stated += read(balances: list, currency: currency, clock: clock).map { ($0.type, $0.balance, page) }
                }
            }
            // `closingBooked` (else `interimBooked`) is the balance at the end of its day. These are
            // the bank's balances at the time of asking, not a statement's around its entries: an
            // `openingBooked` is read only where no closing one is stated (the entries from its day
            // on are added to it), since the answer's entries need not end where the closing balance is.
            var path = paths.first ?? accountsPath
            if let closing = stated.first(where: { $0.type == "closingBooked" }) ?? stated.first(where: { $0.type == "interimBooked" }) {
                statement.closing = closing.balance
                path = closing.path
            } else if let opening = stated.first(where: { $0.type == "openingBooked" }) {
                statement.opening = opening.balance
                path = opening.path
            }
            // Every page of an account is one download: its entries are counted together. The file
            // named is the one the stated balance is in, so that a balance found wrong is shown where it is.
            var file = ImportedFile(path: path, statements: [statement])
            file.alsoRead = paths.filter { $0 != path }
            result.append(file)
        }
        for sub in ["balances", "transactions"] {
            for path in folder.files.filter({ $0.hasPrefix("berlingroup/\(sub)/") }) {
                let name = path.dropFirst("berlingroup/\(sub)/".count)
                let id = name.contains("/") ? String(name.prefix { $0 != "/" }) : String(name.dropLast(".json".count))
                if !known.contains(id) {
                    folder.claim(path)
                    log.report(Diagnostic(.warning, file: path, message: "no account \"\(id)\" in berlingroup/accounts.json; file ignored"))
                }
            }
        }
        return result
    }

    /// Each balance of a `balances` list with its type and day (`referenceDate`, else the day of
    /// `lastChangeDateTime`); one with neither is passed over.
    private static func read(balances: JSONValue, currency: Currency, clock: LocalClock) -> [(type: String, balance: StatedBalance)] {
        guard let list = balances.array else { return [] }
        var found: [(type: String, balance: StatedBalance)] = []
        for balance in list {
            guard balance.object != nil, let type = balance.required("balanceType", "the balance's type, such as \"closingBooked\"")?.string,
                  let amount = amount(balance.required("balanceAmount", "the balance's amount"), currency: currency) else { continue }
            let date: ImportDate?
            if let text = balance["referenceDate"]?.string {
                date = ImportDate(iso: text)
                if date == nil { balance["referenceDate"]?.error("expected a date such as \"2026-11-16\", found \"\(Text.singleLine(text))\"") }
            } else if let instant = balance["lastChangeDateTime"]?.instant {
                date = importDate(clock.date(of: instant))
            } else {
                continue
            }
            guard let date else { continue }
            found.append((type, StatedBalance(date: date, amount: amount, line: balance.diagnostic(.warning, "").line ?? 1)))
        }
        return found
    }

    /// `{"currency": "EUR", "amount": "-256.67"}` in the account's currency.
    private static func amount(_ value: JSONValue?, currency: Currency) -> DecimalAmount? {
        guard let value, value.object != nil,
              let code = value.required("currency", "the amount's ISO 4217 currency")?.currency,
              let text = value.required("amount", "the amount as a decimal string such as \"-256.67\"")?.identifier else { return nil }
        guard code == currency else {
            value.error("the amount is in \(code.code), the account in \(currency.code)")
            return nil
        }
        guard let amount = DecimalAmount(parsing: text) else {
            value["amount"]?.error("expected a decimal amount such as \"-256.67\", found \"\(Text.singleLine(text))\"")
            return nil
        }
        guard fits(amount, currency, at: value["amount"]) else { return nil }
        return amount
    }

    /// Whether `amount` is an amount of `currency` (at most its minor digits, at most
    /// ``Money/maximumMinorUnits``); an error at `value` when not. Checked here, at the value,
    /// because the accounts' checks later know an entry's line but not which page it is on.
    static func fits(_ amount: DecimalAmount, _ currency: Currency, at value: JSONValue?) -> Bool {
        if let minor = amount.minorUnits(minorDigits: currency.minorDigits), Int128(minor).magnitude <= Money.maximumMinorUnits.magnitude { return true }
        value?.error("\(amount) is no amount of \(currency.code): expected at most \(currency.minorDigits) decimal places "
            + "and at most \(Money.maximumMinorUnits / Int128(currency.minorUnitsPerUnit)) units")
        return false
    }

    private static func berlinGroupEntry(_ value: JSONValue, status: ImportedEntry.Status, currency: Currency) -> ImportedEntry? {
        guard value.object != nil, let amount = amount(value.required("transactionAmount", "the transaction's amount"), currency: currency) else { return nil }
        let dateKey = value["bookingDate"] != nil || status == .booked ? "bookingDate" : (value["valueDate"] != nil ? "valueDate" : "transactionDate")
        guard let text = value.required(dateKey, "the day it was booked, such as \"2026-11-16\"")?.string else { return nil }
        guard let date = ImportDate(iso: text) else {
            value[dateKey]?.error("expected a date such as \"2026-11-16\", found \"\(Text.singleLine(text))\"")
            return nil
        }
        // The first that says something: banks send `""` and `[]` for none.
        func said(_ found: String?) -> String? { found.map(Text.trimmed).flatMap { $0.isEmpty ? nil : $0 } }
        let remittance = said(value["remittanceInformationUnstructured"]?.string)
            ?? said(value["remittanceInformationUnstructuredArray"]?.array?.compactMap(\.string).map(Text.trimmed).joined(separator: " "))
            ?? said(structuredRemittance(value["remittanceInformationStructured"]))
            ?? said(value["additionalInformation"]?.string)
        let payee = (amount.significand < 0 ? value["creditorName"] : value["debtorName"])?.trimmedString
        // An empty id (banks send `""` for none) is no id: the next one, or the entry's content, stands for it.
        let nonEmpty = { (text: String?) in text.flatMap { $0.isEmpty ? nil : $0 } }
        return ImportedEntry(id: nonEmpty(value["transactionId"]?.identifier) ?? nonEmpty(value["entryReference"]?.identifier),
                             date: date, valueDate: value["valueDate"]?.string.flatMap { ImportDate(iso: $0) }, amount: amount,
                             description: Text.trimmed(remittance ?? payee ?? ""), payee: payee,
                             reference: value["endToEndId"]?.trimmedString,
                             kind: value["bankTransactionCode"]?.trimmedString ?? value["proprietaryBankTransactionCode"]?.trimmedString,
                             status: status, line: value.diagnostic(.warning, "").line ?? 1)
    }

    /// `remittanceInformationStructured`: the v1.3 schema's `{"reference": "RF18…", "referenceType": …}`,
    /// or the string some banks and aggregators send instead.
    private static func structuredRemittance(_ value: JSONValue?) -> String? {
        guard let value else { return nil }
        if case .string(let text) = value.node.kind { return text }
        return value.object?.required("reference", "the structured remittance's reference")?.string
    }

    // MARK: SimpleFIN

    static func simpleFIN(from folder: DataFolder, clock: LocalClock, log: DiagnosticLog) -> [ImportedFile] {
        var result: [ImportedFile] = []
        for path in folder.files.filter({ $0.hasPrefix("simplefin/") }).sorted() {
            guard path.hasSuffix(".json") else {
                folder.claim(path)
                log.report(Diagnostic(.warning, file: path, message: "not a SimpleFIN answer (a .json file of GET /accounts); not read"))
                continue
            }
            guard let document = folder.document(path, log: log) else { continue }
            for message in document.value["errors"]?.array ?? [] {
                message.warning("the SimpleFIN Bridge said: \(Text.singleLine(message.string ?? ""))")
            }
            guard let accounts = document.value.required("accounts", "the list of accounts (GET /accounts)")?.array else { continue }
            var statements: [ImportedStatement] = []
            for value in accounts {
                guard value.object != nil, let id = value.required("id", "the account's id")?.identifier,
                      let code = value.required("currency", "the account's currency")?.string else { continue }
                guard let currency = Currency(code: code) else {
                    value["currency"]?.error("expected an ISO 4217 code such as \"USD\", found \"\(Text.singleLine(code))\" (custom currencies are not read)")
                    continue
                }
                let org = value["org"]
                var statement = ImportedStatement(
                    account: ImportedAccount(number: id, bank: org?["domain"]?.trimmedString ?? org?["name"]?.trimmedString, currency: currency.code,
                                             name: value["name"]?.trimmedString),
                    entries: [], line: value.diagnostic(.warning, "").line ?? 1)
                if let balance = value.required("balance", "the account's balance as a decimal string")?.identifier,
                   let date = value.required("balance-date", "when the balance was taken (Unix seconds)")?.unixSeconds {
                    if let amount = DecimalAmount(parsing: balance), let day = importDate(clock.date(of: date)) {
                        if fits(amount, currency, at: value["balance"]) {
                            statement.closing = StatedBalance(date: day, amount: amount,
                                                              line: value["balance"]?.diagnostic(.warning, "").line ?? 1)
                        }
                    } else {
                        value["balance"]?.error("expected a decimal amount such as \"100.23\" taken between 1900 and 2999, found \"\(Text.singleLine(balance))\"")
                    }
                }
                for transaction in value["transactions"]?.array ?? [] {
                    if let entry = simpleFINEntry(transaction, currency: currency, clock: clock) { statement.entries.append(entry) }
                }
                statements.append(statement)
            }
            result.append(ImportedFile(path: path, statements: statements))
        }
        return result
    }

    private static func simpleFINEntry(_ value: JSONValue, currency: Currency, clock: LocalClock) -> ImportedEntry? {
        guard value.object != nil, let id = value.required("id", "the transaction's id")?.identifier,
              let text = value.required("amount", "the amount as a decimal string such as \"-33.43\"")?.identifier else { return nil }
        guard let amount = DecimalAmount(parsing: text) else {
            value["amount"]?.error("expected a decimal amount such as \"-33.43\", found \"\(Text.singleLine(text))\"")
            return nil
        }
        guard fits(amount, currency, at: value["amount"]) else { return nil }
        let pending = value["pending"]?.bool ?? false
        // `posted` 0 (or none) is not posted yet, as a pending transaction may be: it is dated when it
        // was made (`transacted_at`). Never the 1st of January 1970.
        let posted = value["posted"]
        let postedSeconds = posted?.intOrDigitString
        if posted != nil && postedSeconds == nil { return nil }  // (reported)
        let when: Instant?
        if let posted, postedSeconds != 0 {
            when = posted.unixSeconds
        } else if let made = value["transacted_at"] {
            when = made.unixSeconds
        } else {
            value.error("the transaction has neither a posted time (\"posted\" is \(posted == nil ? "missing" : "0")) nor transacted_at (Unix seconds)")
            return nil
        }
        guard let when else { return nil }  // (reported)
        guard let day = importDate(clock.date(of: when)) else {
            value.error("the transaction's time is outside the years 1900 to 2999")
            return nil
        }
        let payee = value["payee"]?.trimmedString
        let description = [value["description"], value["memo"]].lazy.compactMap { $0?.trimmedString }.first { !$0.isEmpty }
        return ImportedEntry(id: id, date: day, amount: amount, description: description ?? "",
                             payee: payee.flatMap { $0.isEmpty ? nil : $0 }, status: pending ? .pending : .booked,
                             line: value.diagnostic(.warning, "").line ?? 1)
    }

    static func importDate(_ day: CivilDate) -> ImportDate? { ImportDate(year: day.year, month: day.month, day: day.day) }
}
