import NestEggImport
import NestEggModel
import NestEggSupport

/// One of `nestegg.json`'s `imports` rules: which files under `imports/` it is for, how to read
/// them (a CSV's columns, a QIF's date order) and what to say of their account (its name, its
/// currency and number where the file has none, whether to show round-ups):
///
/// ```json
/// "imports": [
///   {"files": "barclays/*.csv", "account": {"name": "Joint account", "currency": "GBP"},
///    "csv": {"date": "Date", "dateFormat": "DD/MM/YYYY", "amount": "Amount", "description": ["Memo"], "balance": "Balance"}},
///   {"files": "**/*.qif", "qif": {"dateOrder": "dayFirst"}},
///   {"files": "ing/*.xml", "account": {"name": "ING savings"}}
/// ]
/// ```
/// The first rule whose pattern matches a file's path (under `imports/`) is the file's.
public struct ImportRule: Sendable {
    /// What a rule says of its files' account.
    public struct Account: Sendable, Hashable {
        public var name: String?
        public var currency: String?
        public var iban: String?
        public var number: String?
        public var bank: String?
        public var roundUps = false

        /// The statement as the rule names its account: the rule's name over the file's, and the
        /// rule's IBAN, number and bank where the file gives none.
        func applied(to statement: ImportedStatement) -> ImportedStatement {
            var statement = statement
            if let name { statement.account.name = name }
            if statement.account.iban == nil { statement.account.iban = iban }
            if statement.account.number == nil { statement.account.number = number }
            if statement.account.bank == nil { statement.account.bank = bank }
            return statement
        }
    }

    /// A path pattern under `imports/`: `*` any characters but `/`, `?` one, `**` any folders.
    public var files: String
    /// How to read the files; `nil` to recognise each by its content.
    public var format: ImportFormat?
    public var account: Account

    static let keys = ["files", "account", "csv", "qif"]
    static let accountKeys = ["name", "currency", "iban", "number", "bank", "roundUps"]

    /// The rules of `nestegg.json`'s `imports` list, each checked (an unknown key is an error).
    public static func rules(in value: JSONValue) -> [ImportRule] {
        guard let list = value.array else { return [] }
        return list.compactMap(rule)
    }

    static func rule(_ value: JSONValue) -> ImportRule? {
        guard let members = value.memberValues else { return nil }
        var files: String?
        var format: ImportFormat?
        var account = Account()
        var valid = true
        for (key, member) in members {
            switch key {
            case "files":
                guard let pattern = member.string else { valid = false; continue }
                if pattern.isEmpty || pattern.hasPrefix("/") || pattern.split(separator: "/").contains("..") {
                    member.error("expected a path pattern under imports/, such as \"barclays/*.csv\", found \"\(Text.singleLine(pattern))\"")
                    valid = false
                } else {
                    files = pattern
                }
            case "account":
                guard let read = self.account(member) else { valid = false; continue }
                account = read
            case "csv":
                guard format == nil else { member.error("a rule reads its files one way: csv or qif, not both"); valid = false; continue }
                guard let mapping = CSVMappingSettings.mapping(member) else { valid = false; continue }
                format = .csv(mapping)
            case "qif":
                guard format == nil else { member.error("a rule reads its files one way: csv or qif, not both"); valid = false; continue }
                guard let order = qifDateOrder(member) else { valid = false; continue }
                format = .qif(order)
            default:
                member.error("unknown key \"\(Text.singleLine(key))\" of an imports rule" + (Text.closest(to: key, among: keys).map { "; did you mean \"\($0)\"?" } ?? "")
                             + " (known: \(keys.joined(separator: ", ")))")
                valid = false
            }
        }
        guard valid else { return nil }
        guard let files else {
            _ = value.required("files", "the pattern of the files the rule is for, such as \"barclays/*.csv\"")
            return nil
        }
        if case .csv(var mapping) = format {
            mapping.account = ImportedAccount(iban: account.iban, number: account.number, bank: account.bank, currency: account.currency ?? "",
                                              name: account.name)
            guard account.currency != nil else {
                value.error("a CSV rule needs its account's currency: \"account\": {\"currency\": \"GBP\"}")
                return nil
            }
            format = .csv(mapping)
        }
        return ImportRule(files: files, format: format, account: account)
    }

    static func account(_ value: JSONValue) -> Account? {
        guard let members = value.memberValues else { return nil }
        var account = Account()
        for (key, member) in members {
            switch key {
            case "name": account.name = member.trimmedString
            case "currency": account.currency = member.currency?.code
            case "iban": account.iban = member.string.map { $0.uppercased().filter { $0 != " " } }
            case "number": account.number = member.trimmedString
            case "bank": account.bank = member.trimmedString
            case "roundUps": account.roundUps = member.bool ?? false
            default:
                member.error("unknown key \"\(Text.singleLine(key))\" of an imports rule's account (known: \(accountKeys.joined(separator: ", ")))")
                return nil
            }
        }
        return account
    }

    static func qifDateOrder(_ value: JSONValue) -> QIFOptions.DateOrder? {
        guard let members = value.memberValues else { return nil }
        var order = QIFOptions.DateOrder.automatic
        for (key, member) in members {
            guard key == "dateOrder" else {
                member.error("unknown key \"\(Text.singleLine(key))\" of a QIF rule (known: dateOrder)")
                return nil
            }
            switch member.string {
            case "automatic": order = .automatic
            case "monthFirst": order = .monthFirst
            case "dayFirst": order = .dayFirst
            default:
                member.error("expected \"monthFirst\" (Quicken's 12/31/2026), \"dayFirst\" (31/12/2026) or \"automatic\"")
                return nil
            }
        }
        return order
    }

    /// Whether the rule is for the file at `path` (relative to `imports/`).
    func matches(_ path: String) -> Bool {
        Self.glob(files.split(separator: "/", omittingEmptySubsequences: false)[...], path.split(separator: "/", omittingEmptySubsequences: false)[...])
    }

    private static func glob(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            // Any number of folders, none included.
            var rest = path
            while true {
                if glob(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let name = path.first, segment(Array(head.unicodeScalars)[...], Array(name.unicodeScalars)[...]) else { return false }
        return glob(pattern.dropFirst(), path.dropFirst())
    }

    /// One name against one segment of the pattern (`*`, `?`), by the usual greedy walk with one backtrack point.
    private static func segment(_ pattern: ArraySlice<Unicode.Scalar>, _ name: ArraySlice<Unicode.Scalar>) -> Bool {
        var p = pattern.startIndex, n = name.startIndex
        var star: Int?, resume = name.startIndex
        while n < name.endIndex {
            if p < pattern.endIndex, pattern[p] == "?" || pattern[p] == name[n] {
                p += 1; n += 1
            } else if p < pattern.endIndex, pattern[p] == "*" {
                star = p; resume = n; p += 1
            } else if let star {
                p = star + 1; resume += 1; n = resume
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
        return p == pattern.endIndex
    }
}
