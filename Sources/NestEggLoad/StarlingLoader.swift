import NestEggModel
import NestEggSupport
/// Reads `starling/`: accounts, and per account its feed, balance and savings goals,
/// each in the shape Starling's public API v2 returns.
public enum StarlingLoader {
    /// Reads an account's feed for ``load(from:settings:log:feed:)``, reporting to the account's log.
    public typealias FeedReader = @Sendable (StarlingAccount, DataFolder, DiagnosticLog) -> [FeedItem]

    /// Every account with its own files; `feed` reads each one's feed (by default from its file, ``feed(of:in:log:)``).
    public static func load(from folder: DataFolder, settings: Settings = Settings(), log: DiagnosticLog,
                            feed readFeed: FeedReader = { feed(of: $0, in: $1, log: $2) }) -> [AccountData] {
        guard folder.hasFolder("starling") else { return [] }
        guard folder.contains("starling/accounts.json"), let document = folder.document("starling/accounts.json", log: log) else {
            if !folder.contains("starling/accounts.json") {
                log.report(Diagnostic(.error, file: "starling/accounts.json",
                                      message: "missing: the starling/ folder needs accounts.json to name its accounts"))
            }
            return []
        }
        let accounts = self.accounts(in: document)
        let known = Set(accounts.map(\.uid))
        let holder = folder.contains(holderPath) ? folder.document(holderPath, log: log).flatMap(holderName(in:)) : nil
        let address = folder.contains(addressesPath) ? folder.document(addressesPath, log: log).flatMap(currentAddress(in:)) : nil
        // Accounts are read on every core (a bank's data can have thousands), in order.
        let result = Concurrently.map(accounts.count, log: log) { index, log in
            let account = accounts[index]
            var data = AccountData(account: account, feed: [], balance: nil, savingsGoals: [], holderName: holder)
            data.holderAddress = address
            let feedPath = feedPath(of: account)
            data.feed = readFeed(account, folder, log)
            let balancePath = "starling/balances/\(account.uid).json"
            if folder.contains(balancePath), let balance = folder.document(balancePath, log: log) {
                data.balance = self.balance(in: balance)
            }
            let goalsPath = "starling/savings-goals/\(account.uid).json"
            if folder.contains(goalsPath), let goals = folder.document(goalsPath, log: log) {
                data.savingsGoals = savingsGoals(in: goals)
            }
            let identifiersPath = "starling/identifiers/\(account.uid).json"
            if folder.contains(identifiersPath), let identifiers = folder.document(identifiersPath, log: log) {
                data.identifiers = self.identifiers(in: identifiers)
            }
            data.sources = [feedPath, balancePath, goalsPath, identifiersPath]
            return data
        }
        for (accountUid, goalUid) in settings.roundUpGoals.sorted(by: { $0.key < $1.key }) {
            guard let data = result.first(where: { $0.account.uid == accountUid }) else {
                log.report(Diagnostic(.warning, file: SettingsLoader.fileName, path: "$.roundUpGoals",
                                      message: "roundUpGoals names account \"\(accountUid)\", which is not in starling/accounts.json"))
                continue
            }
            if !data.savingsGoals.contains(where: { $0.uid == goalUid }) {
                log.report(Diagnostic(.warning, file: SettingsLoader.fileName, path: "$.roundUpGoals",
                                      message: "roundUpGoals sends \(data.account.name)'s round-ups to savings goal \"\(goalUid)\", which the account does not have"))
            }
        }
        for sub in ["feed", "balances", "savings-goals", "identifiers"] {
            for path in folder.files(in: "starling/\(sub)") {
                let uid = String(path.dropFirst("starling/\(sub)/".count).dropLast(".json".count))
                if !known.contains(uid) {
                    folder.claim(path)
                    log.report(Diagnostic(.warning, file: path,
                                          message: "no account \"\(uid)\" in starling/accounts.json; file ignored"))
                }
            }
        }
        return result
    }

    /// Where an account's feed is in the data folder.
    public static func feedPath(of account: StarlingAccount) -> String { "starling/feed/\(account.uid).json" }

    /// The account's feed (`starling/feed/<accountUid>.json`), checked; empty when the file is not there.
    public static func feed(of account: StarlingAccount, in folder: DataFolder, log: DiagnosticLog) -> [FeedItem] {
        readFeed(of: account, in: folder, log: log, digest: false).items
    }

    /// ``feed(of:in:log:)``, and with `digest` the SHA-256 of the file's bytes (``JSONDocument/contentDigest``).
    public static func readFeed(of account: StarlingAccount, in folder: DataFolder, log: DiagnosticLog,
                                digest: Bool) -> (items: [FeedItem], digest: String?) {
        let path = feedPath(of: account)
        guard folder.contains(path), let document = folder.document(path, log: log) else { return ([], nil) }
        let items = feedItems(in: document)
        for item in items where item.amount.currency != account.currency {
            log.report(Diagnostic(.warning, file: path, message: "feed item \(item.uid) is in \(item.amount.currency), the account in \(account.currency)"))
        }
        return (items, digest ? document.contentDigest : nil)
    }

    /// `{"accounts": [...]}`
    public static func accounts(in document: JSONDocument) -> [StarlingAccount] {
        guard let list = document.value.required("accounts", "a list of accounts")?.array else { return [] }
        var seen: Set<String> = []
        return list.compactMap { value in
            let account = self.account(value)
            if let account, !seen.insert(account.uid).inserted {
                value.error("duplicate accountUid \"\(account.uid)\"")
                return nil
            }
            return account
        }
    }

    public static func account(_ value: JSONValue) -> StarlingAccount? {
        guard value.object != nil else { return nil }
        let uid = value.required("accountUid", "the account's UID")?.identifier
        let type = value["accountType"]?.string ?? "PRIMARY"
        let currency = value.required("currency", "an ISO 4217 code such as \"GBP\"")?.currency
        let name = value["name"]?.trimmedString
        let createdAt = value["createdAt"].flatMap { $0.statementDate($0.instant) }
        guard let uid, let currency else { return nil }
        return StarlingAccount(uid: uid, type: type, currency: currency, name: name ?? uid, createdAt: createdAt)
    }

    /// `{"feedItems": [...]}`
    public static func feedItems(in document: JSONDocument) -> [FeedItem] {
        guard let list = document.value.required("feedItems", "a list of feed items")?.array else { return [] }
        var seen: Set<String> = []
        return list.compactMap { value in
            guard let item = feedItem(value) else { return nil }
            // Saved pages of a feed can overlap; an item counted twice would count in every total twice.
            guard seen.insert(item.uid).inserted else {
                value["feedItemUid"]?.warning("feed item \(item.uid) appears again; counted once")
                return nil
            }
            return item
        }
    }

    public static func feedItem(_ value: JSONValue) -> FeedItem? {
        guard value.object != nil else { return nil }
        let uid = value.required("feedItemUid", "the feed item's UID")?.identifier
        let amount = value.required("amount", "an amount {currency, minorUnits}")?.currencyAndAmount
        let direction = value.required("direction", "\"IN\" or \"OUT\"")?.oneOf(FeedItem.Direction.self)
        let time = value.required("transactionTime", "an ISO 8601 date-time").flatMap { $0.statementDate($0.instant) }
        let status = value.required("status", "a status such as \"SETTLED\"")?.string
        let source = value["source"]?.string ?? ""
        let counterParty = value["counterPartyName"]?.trimmedString ?? ""
        let reference = value["reference"]?.trimmedString ?? ""
        let category = value["spendingCategory"]?.string
        var sourceAmount = value["sourceAmount"]?.currencyAndAmount
        if let source = sourceAmount, source.isNegative {
            value["sourceAmount"]?["minorUnits"]?.error("expected a positive amount (the sign comes from direction), found \(source.minorUnits)")
            sourceAmount = nil
        }
        guard let uid, let amount, let direction, let time, let status else { return nil }
        if amount.isNegative {
            value["amount"]?["minorUnits"]?.error("expected a positive amount (the sign comes from direction), found \(amount.minorUnits)")
            return nil
        }
        return FeedItem(uid: uid, amount: amount, direction: direction, transactionTime: time, status: FeedStatus(rawValue: status),
                        source: FeedSource(rawValue: source), counterPartyName: counterParty, reference: reference, spendingCategory: category,
                        sourceAmount: sourceAmount)
    }

    /// `{"clearedBalance": {...}, "effectiveBalance": {...}, ...}`
    public static func balance(in document: JSONDocument) -> StarlingBalance? {
        let value = document.value
        guard value.object != nil else { return nil }
        let cleared = value.required("clearedBalance", "an amount {currency, minorUnits}")?.currencyAndAmount
        let effective = value["effectiveBalance"]?.currencyAndAmount
        guard let cleared else { return nil }
        return StarlingBalance(cleared: cleared, effective: effective)
    }

    /// `{"savingsGoalList": [...]}`
    public static func savingsGoals(in document: JSONDocument) -> [StarlingSavingsGoal] {
        guard let list = document.value.required("savingsGoalList", "a list of savings goals")?.array else { return [] }
        return list.compactMap(savingsGoal)
    }

    public static func savingsGoal(_ value: JSONValue) -> StarlingSavingsGoal? {
        guard value.object != nil else { return nil }
        let uid = value.required("savingsGoalUid", "the goal's UID")?.identifier
        let name = value.required("name", "the goal's name")?.trimmedString
        let target = value["target"]?.currencyAndAmount
        let saved = value.required("totalSaved", "an amount {currency, minorUnits}")?.currencyAndAmount
        // The API says savedPercentage; some hand-written fixtures say percentageSaved.
        let percentage = (value["savedPercentage"] ?? value["percentageSaved"])?.int
        let state = value["state"]?.string
        guard let uid, let name, let saved else { return nil }
        return StarlingSavingsGoal(uid: uid, name: name, target: target, totalSaved: saved, savedPercentage: percentage, state: state)
    }
}
