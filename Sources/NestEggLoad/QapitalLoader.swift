import NestEggModel
import NestEggSupport
/// Reads `qapital/`: savings goals, their feeds, rules and users, each in the shape of
/// Qapital's test-task API. Amounts carry no currency: they are in the currency set for the
/// `qapital` source (USD unless `nestegg.json` says otherwise), read exactly.
public enum QapitalLoader {
    /// Reads a goal's feed (`goalId`, its path) for ``load(from:settings:log:feed:)``, newest first,
    /// reporting to the goal's log; `nil` for no feed.
    public typealias FeedReader = @Sendable (_ goalId: Int, _ path: String, DataFolder, Currency, DiagnosticLog) -> [QapitalFeedItem]?

    /// The goals, rules and users; `feed` reads each goal's feed (by default from its file, ``readFeed(_:goalId:in:currency:log:)``).
    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog,
                            feed readGoalFeed: FeedReader = { readFeed($1, goalId: $0, in: $2, currency: $3, log: $4) }) -> QapitalData {
        let currency = settings.currency(forSource: "qapital")
        var data = QapitalData(currency: currency)
        guard folder.hasFolder("qapital") else { return data }

        let goalsPath = "qapital/savingsgoals.json"
        if folder.contains(goalsPath), let document = folder.document(goalsPath, log: log) {
            data.goals = goals(in: document, currency: currency)
        } else if !folder.contains(goalsPath) {
            log.report(Diagnostic(.error, file: goalsPath, message: "missing: the qapital/ folder needs savingsgoals.json to name its goals"))
        }

        let rulesPath = "qapital/savingsrules.json"
        if folder.contains(rulesPath), let document = folder.document(rulesPath, log: log) {
            for rule in rules(in: document, currency: currency) { data.rules[rule.id] = rule }
        }

        for path in folder.files(in: "qapital/users") {
            guard let document = folder.document(path, log: log) else { continue }
            guard let user = user(document.value) else { continue }
            let name = fileStem(path, in: "qapital/users")
            if name != String(user.id) {
                document.value["userId"]?.warning("the file is named \(name).json but holds user \(user.id)")
            }
            if data.users[user.id] != nil {
                document.value["userId"]?.warning("user \(user.id) is also in another file; this one is ignored")
                continue
            }
            data.users[user.id] = user
        }

        let goalIds = Set(data.goals.map(\.id))
        let (users, rules) = (data.users, data.rules)
        // Feeds are read on every core (one file per goal), in order; each is checked against the
        // users and rules as it is read.
        let feedPaths = folder.files(in: "qapital/feed")
        let feeds = Concurrently.map(feedPaths.count, log: log) { index, log -> (Int, [QapitalFeedItem], references: [Diagnostic])? in
            let path = feedPaths[index]
            let name = fileStem(path, in: "qapital/feed")
            // Only the canonical spelling (`7.json`, not `07.json` or `+7.json`) names goal 7, so two
            // files can never claim one goal.
            guard let goalId = Int(name), String(goalId) == name, goalIds.contains(goalId) else {
                folder.claim(path)
                log.report(Diagnostic(.warning, file: path, message: "no goal with id \"\(name)\" in qapital/savingsgoals.json; file ignored"))
                return nil
            }
            guard let items = readGoalFeed(goalId, path, folder, currency, log) else { return nil }
            return (goalId, items, referenceNotes(items, goalId: goalId, users: users, rules: rules))
        }
        var notes: [Int: [Diagnostic]] = [:]
        for case let (goalId, items, goalNotes)? in feeds {
            notes[goalId] = goalNotes
            data.feeds[goalId] = items
        }

        checkReferences(data, feedNotes: notes, log: log)
        return data
    }

    /// A goal's feed (`qapital/feed/<goalId>.json`), checked, newest first; `nil` when it cannot be read.
    public static func readFeed(_ path: String, goalId: Int, in folder: DataFolder, currency: Currency, log: DiagnosticLog) -> [QapitalFeedItem]? {
        readFeed(path, goalId: goalId, in: folder, currency: currency, log: log, digest: false)?.items
    }

    /// ``readFeed(_:goalId:in:currency:log:)``, and with `digest` the SHA-256 of the bytes it parsed (``JSONDocument/contentDigest``).
    public static func readFeed(_ path: String, goalId: Int, in folder: DataFolder, currency: Currency, log: DiagnosticLog,
                                digest: Bool) -> (items: [QapitalFeedItem], digest: String?)? {
        guard let document = folder.document(path, log: log) else { return nil }
        return (QapitalData.newestFirst(feed(in: document, goalId: goalId, currency: currency)), digest ? document.contentDigest : nil)
    }

    private static func fileStem(_ path: String, in folder: String) -> String {
        String(path.dropFirst(folder.count + 1).dropLast(".json".count))
    }

    /// Warns about ids that name nobody; the report shows them as "User 7" and "Rule 9".
    /// Runs after every file is read, so it names each file and item.
    static func checkReferences(_ data: QapitalData, feedNotes: [Int: [Diagnostic]], log: DiagnosticLog) {
        var missingUsers: [Int: Set<String>] = [:]
        for goal in data.goals {
            for id in [goal.ownerId] + goal.connectedUserIds where data.users[id] == nil {
                missingUsers[id, default: []].insert("goal \(goal.id)")
            }
        }
        let goalsPath = "qapital/savingsgoals.json"
        for (id, goals) in missingUsers.sorted(by: { $0.key < $1.key }) {
            log.report(Diagnostic(.warning, file: goalsPath, message:
                "no qapital/users/\(id).json for user \(id) (named by \(goals.sorted().joined(separator: ", "))); shown as \"User \(id)\""))
        }
        for goalId in feedNotes.keys.sorted() { feedNotes[goalId]!.forEach(log.report) }
    }

    /// A feed's items that name a user or a savings rule the folder does not have, counted.
    public static func referenceNotes(_ items: [QapitalFeedItem], goalId: Int, users: [Int: QapitalUser], rules: [Int: QapitalRule]) -> [Diagnostic] {
        let path = "qapital/feed/\(goalId).json"
        var unknownUsers: [Int: Int] = [:]
        var unknownRules: [Int: Int] = [:]
        for item in items {
            if users[item.userId] == nil { unknownUsers[item.userId, default: 0] += 1 }
            if let rule = item.ruleId, rules[rule] == nil { unknownRules[rule, default: 0] += 1 }
        }
        let userNotes = unknownUsers.sorted(by: { $0.key < $1.key }).map { id, count in
            Diagnostic(.warning, file: path, message:
                "\(count) feed item\(count == 1 ? "" : "s") name user \(id), who has no qapital/users/\(id).json; shown as \"User \(id)\"")
        }
        let ruleNotes = unknownRules.sorted(by: { $0.key < $1.key }).map { id, count in
            Diagnostic(.warning, file: path, message:
                "\(count) feed item\(count == 1 ? "" : "s") name savings rule \(id), which is not in qapital/savingsrules.json; shown as \"Rule \(id)\"")
        }
        return userNotes + ruleNotes
    }

    // MARK: Goals

    /// `{"savingsGoals": [...]}`
    public static func goals(in document: JSONDocument, currency: Currency) -> [QapitalGoal] {
        guard let list = document.value.required("savingsGoals", "a list of savings goals")?.array else { return [] }
        var seen: Set<Int> = []
        return list.compactMap { value in
            guard let goal = goal(value, currency: currency) else { return nil }
            guard seen.insert(goal.id).inserted else {
                value["id"]?.warning("duplicate goal id \(goal.id); only the first goal with this id is used")
                return nil
            }
            return goal
        }
    }

    public static func goal(_ value: JSONValue, currency: Currency) -> QapitalGoal? {
        guard value.object != nil else { return nil }
        let id = value.required("id", "the goal's id (an integer)")?.intOrDigitString
        let name = value.required("name", "the goal's name")?.trimmedString
        let owner = value.required("userId", "the owner's user id")?.intOrDigitString
        let saved = value.required("currentBalance", "the amount saved (a decimal number)")?.decimalMoney(currency)
        let status = value.required("status", "\"active\" or \"deleted\"")?.oneOf(QapitalGoal.Status.self)
        var target = value["targetAmount"]?.decimalMoney(currency)
        if let amount = target, amount.minorUnits <= 0 {
            value["targetAmount"]?.warning("a target of \(amount.decimalString) cannot be reached or missed; the goal is shown without a target")
            target = nil
        }
        let imageURL = value["goalImageURL"]?.trimmedString
        if let imageURL, !imageURL.isEmpty, !Text.isWebAddress(imageURL) {
            value["goalImageURL"]?.warning("goalImageURL is not an http or https URL; the goal is shown without its image")
        }
        let created = value["created"].flatMap(civilDate)
        var connected: [Int] = []
        if let list = value["connectedUsers"]?.array {
            for element in list {
                guard let userId = element.intOrDigitString else { continue }
                if userId == owner || connected.contains(userId) { continue }
                connected.append(userId)
            }
        }
        guard let id, let name, let owner, let saved, let status else { return nil }
        return QapitalGoal(id: id, name: name, imageURL: imageURL.flatMap { $0.isEmpty ? nil : $0 }, ownerId: owner,
                           target: target, saved: saved, created: created, status: status, connectedUserIds: connected)
    }

    /// `created`: `[2014, 12, 5]` as the API writes it, or `"2014-12-05"`.
    static func civilDate(_ value: JSONValue) -> CivilDate? {
        if case .string = value.node.kind {
            guard let text = value.string, let date = CivilDate(iso8601: Text.trimmed(text)) else {
                value.error("expected a date as [year, month, day] or \"YYYY-MM-DD\", in the years 2 to 9998")
                return nil
            }
            return value.withinHorizon(date, "\"\(date)\"")
        }
        guard let parts = value.array else { return nil }
        let numbers = parts.compactMap(\.int)
        guard numbers.count == parts.count else { return nil }
        guard numbers.count == 3, CivilDate.supportedYears.contains(numbers[0]),
              let date = CivilDate(year: numbers[0], month: numbers[1], day: numbers[2]) else {
            value.error("expected a date as [year, month, day] in the years 2 to 9998, found [\(numbers.map(String.init).joined(separator: ", "))]")
            return nil
        }
        return value.withinHorizon(date, "[\(numbers.map(String.init).joined(separator: ", "))]")
    }

    // MARK: Feeds

    /// `{"feed": [...]}`, or the later API's `{"oldest": "…", "activities": [...]}` (items without ids).
    public static func feed(in document: JSONDocument, goalId: Int, currency: Currency) -> [QapitalFeedItem] {
        let root = document.value
        let isActivities = root["feed"] == nil && root["activities"] != nil
        let key = isActivities ? "activities" : "feed"
        guard let list = root.required(key, "a list of feed items")?.array else { return [] }
        var seen: Set<String> = []
        var items: [QapitalFeedItem] = []
        for (index, value) in list.enumerated() {
            let fallbackId = isActivities ? "\(goalId)-\(index + 1)" : nil
            guard let item = feedItem(value, currency: currency, fallbackId: fallbackId) else { continue }
            guard seen.insert(item.id).inserted else {
                value["id"]?.warning("duplicate feed item id \"\(item.id)\"; only the first is counted")
                continue
            }
            items.append(item)
        }
        return items
    }

    /// One feed item. `fallbackId` stands in for the id the `/activities` shape does not have.
    public static func feedItem(_ value: JSONValue, currency: Currency, fallbackId: String? = nil) -> QapitalFeedItem? {
        guard value.object != nil else { return nil }
        let id = fallbackId == nil ? value.required("id", "the feed item's id")?.identifier : (value["id"]?.identifier ?? fallbackId)
        let type = value["type"]?.trimmedString ?? "saving"
        let timestamp = value.required("timestamp", "an ISO 8601 date-time such as 2015-03-10T14:55:16.025Z")?.instant
        let message = value["message"]?.string ?? ""
        let amount = value.required("amount", "the amount saved (a decimal number)")?.decimalMoney(currency)
        let userId = value.required("userId", "the id of the user who saved it")?.intOrDigitString
        // Left out (not null) on manual transfers.
        let ruleId = value["savingsRuleId"]?.intOrDigitString
        guard let id, let timestamp, let amount, let userId else { return nil }
        if type != "saving" {
            value["type"]?.warning("feed item type \"\(type)\" is not \"saving\"; it is counted as a saving")
        }
        return QapitalFeedItem(id: id, type: type, timestamp: timestamp, messageHTML: message, amount: amount,
                               userId: userId, ruleId: ruleId)
    }

    // MARK: Rules and users

    /// `{"savingsRules": [...]}`; duplicates of an id are warned about and left out.
    public static func rules(in document: JSONDocument, currency: Currency) -> [QapitalRule] {
        guard let list = document.value.required("savingsRules", "a list of savings rules")?.array else { return [] }
        var seen: Set<Int> = []
        var result: [QapitalRule] = []
        for value in list {
            guard let rule = rule(value, currency: currency) else { continue }
            guard seen.insert(rule.id).inserted else {
                value["id"]?.warning("duplicate savings rule id \(rule.id); only the first is used")
                continue
            }
            result.append(rule)
        }
        return result
    }

    public static let knownRuleTypes: Set<RuleType> = [.roundUp, .guiltyPleasure]

    public static func rule(_ value: JSONValue, currency: Currency) -> QapitalRule? {
        guard value.object != nil else { return nil }
        let id = value.required("id", "the rule's id (an integer)")?.intOrDigitString
        let type = value.required("type", "\"roundup\" or \"guilty_pleasure\"")?.trimmedString
        let amount = value.required("amount", "the rule's amount (a decimal number)")?.decimalMoney(currency)
        guard let id, let type, let amount else { return nil }
        if !knownRuleTypes.contains(RuleType(rawValue: type)) {
            value["type"]?.warning("unknown savings rule type \"\(type)\" (known: roundup, guilty_pleasure); shown as written")
        }
        return QapitalRule(id: id, type: RuleType(rawValue: type), amount: amount)
    }

    /// `{"userId": 1, "displayName": "Mikael", "avatarUrl": "http://…"}`
    public static func user(_ value: JSONValue) -> QapitalUser? {
        guard value.object != nil else { return nil }
        let id = value.required("userId", "the user's id (an integer)")?.intOrDigitString
        let name = value.required("displayName", "the user's display name")?.trimmedString
        let avatar = value["avatarUrl"]?.trimmedString
        if let avatar, !avatar.isEmpty, !Text.isWebAddress(avatar) {
            value["avatarUrl"]?.warning("avatarUrl is not an http or https URL; the user is shown without an avatar")
        }
        guard let id, let name else { return nil }
        return QapitalUser(id: id, displayName: name, avatarURL: avatar.flatMap { $0.isEmpty ? nil : $0 })
    }
}
