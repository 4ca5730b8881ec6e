import Crypto
import NestEggModel
import NestEggSupport

/// `changes`: what changed since the last build into the same output folder — transactions new
/// and gone per account, balances, goals' savings and targets reached, loans new, gone or with a
/// new status. Builds are deterministic, so the comparison is exact. The last build leaves a
/// ``ChangeSnapshot`` in its cache; the first build (or one whose cache is gone) says there is
/// nothing to compare with. This page is the one output that depends on the previous build: the
/// start page links to it with fixed text, so every other file stays what a clean build writes.
public enum ChangesReport {
    public static let path = "changes"

    struct View: Sendable, Encodable {
        let isFirst: Bool
        let nothingChanged: Bool
        let accounts: [AccountRow]
        let goals: [GoalRow]
        let loans: [LoanRow]
        var hasAccounts: Bool { !accounts.isEmpty }
        var hasGoals: Bool { !goals.isEmpty }
        var hasLoans: Bool { !loans.isEmpty }

        enum CodingKeys: String, CodingKey { case isFirst, nothingChanged, accounts, goals, loans, hasAccounts, hasGoals, hasLoans }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isFirst, forKey: .isFirst)
            try container.encode(nothingChanged, forKey: .nothingChanged)
            try container.encode(accounts, forKey: .accounts)
            try container.encode(goals, forKey: .goals)
            try container.encode(loans, forKey: .loans)
            try container.encode(hasAccounts, forKey: .hasAccounts)
            try container.encode(hasGoals, forKey: .hasGoals)
            try container.encode(hasLoans, forKey: .hasLoans)
        }
    }

    struct AccountRow: Sendable, Encodable {
        let name: String
        let added: String
        let removed: String
        let before: String
        let now: String
        let change: String
    }

    struct GoalRow: Sendable, Encodable {
        let name: String
        let before: String
        let now: String
        let note: String
    }

    struct LoanRow: Sendable, Encodable {
        let name: String
        let change: String
    }

    static func page(current: ChangeSnapshot, previous: ChangeSnapshot?, context: ReportContext) -> Page {
        Page(path: path, title: "What changed since the last build", template: "changes", section: nil,
             breadcrumbs: [Link("Dashboard", "index")], view: view(current: current, previous: previous, context: context))
    }

    static func view(current: ChangeSnapshot, previous: ChangeSnapshot?, context: ReportContext) -> View {
        guard let previous else { return View(isFirst: true, nothingChanged: false, accounts: [], goals: [], loans: []) }
        let money = { (amount: Money?) in amount.map(context.money) ?? "–" }
        var accounts: [AccountRow] = []
        for uid in Set(current.accounts.keys).union(previous.accounts.keys).sorted() {
            let now = current.accounts[uid], before = previous.accounts[uid]
            let added = (now?.items ?? []).subtracting(before?.items ?? []).count
            let removed = (before?.items ?? []).subtracting(now?.items ?? []).count
            guard added > 0 || removed > 0 || now?.balance != before?.balance || now == nil || before == nil else { continue }
            var change = ""
            if let a = now?.balance, let b = before?.balance, a.currency == b.currency { change = HeadlineReport.signed(a - b, context: context) }
            let name = (now ?? before)!.name + (now == nil ? " (gone)" : before == nil ? " (new)" : "")
            accounts.append(AccountRow(name: name, added: context.count(added), removed: context.count(removed),
                                       before: money(before?.balance), now: money(now?.balance), change: change))
        }
        var goals: [GoalRow] = []
        for key in Set(current.goals.keys).union(previous.goals.keys).sorted() {
            let now = current.goals[key], before = previous.goals[key]
            guard now != before else { continue }
            let note: String
            switch (before, now) {
            case (nil, _?): note = "new goal"
            case (_?, nil): note = "gone"
            case (let b?, let n?) where n.reached && !b.reached: note = "reached its target"
            case (let b?, let n?) where !n.reached && b.reached: note = "no longer at its target"
            case (let b?, let n?) where n.target != b.target: note = "new target: \(money(n.target))"
            default: note = ""
            }
            goals.append(GoalRow(name: (now ?? before)!.name, before: money(before?.saved), now: money(now?.saved), note: note))
        }
        var loans: [LoanRow] = []
        for id in Set(current.loans.keys).union(previous.loans.keys).sorted() {
            let now = current.loans[id], before = previous.loans[id]
            guard now != before else { continue }
            let change: String
            switch (before, now) {
            case (nil, let n?): change = "new, \(n.status), \(context.money(n.funded)) funded"
            case (_?, nil): change = "no longer listed"
            case (let b?, let n?) where b.status != n.status: change = "\(b.status) → \(n.status)"
            case (let b?, let n?): change = "funded \(context.money(b.funded)) → \(context.money(n.funded))"
            default: change = ""
            }
            loans.append(LoanRow(name: (now ?? before)!.name, change: change))
        }
        return View(isFirst: false, nothingChanged: accounts.isEmpty && goals.isEmpty && loans.isEmpty,
                    accounts: accounts, goals: goals, loans: loans)
    }
}

extension ChangesReport {
    /// A few sentences for `--summary`: what changed since the last build, counted, with balance
    /// changes per currency (never added across currencies).
    static func digest(current: ChangeSnapshot, previous: ChangeSnapshot?, context: ReportContext) -> [String] {
        guard let previous else { return ["First build into this folder: nothing to compare with yet."] }
        var added = 0, removed = 0, accountsWithItems = 0, accountsWithBalance = 0
        var balanceChange = MoneyTotals()
        var newAccounts = 0, goneAccounts = 0
        for uid in Set(current.accounts.keys).union(previous.accounts.keys) {
            let now = current.accounts[uid], before = previous.accounts[uid]
            if now == nil { goneAccounts += 1 }
            if before == nil { newAccounts += 1 }
            let new = (now?.items ?? []).subtracting(before?.items ?? []).count
            let gone = (before?.items ?? []).subtracting(now?.items ?? []).count
            added += new
            removed += gone
            if new + gone > 0 { accountsWithItems += 1 }
            if let a = now?.balance, let b = before?.balance, a.currency == b.currency, a != b {
                balanceChange.add(a - b)
                accountsWithBalance += 1
            }
        }
        var lines: [String] = []
        if added + removed > 0 {
            lines.append("Transactions: \(context.count(added)) new, \(context.count(removed)) gone, in \(context.counted(accountsWithItems, "account")).")
        }
        if newAccounts + goneAccounts > 0 {
            lines.append("Accounts: \(context.count(newAccounts)) new, \(context.count(goneAccounts)) gone.")
        }
        if accountsWithBalance > 0 {
            let changes = balanceChange.amounts.map { HeadlineReport.signed($0, context: context) }.joined(separator: " · ")
            lines.append("Balances: \(changes), over \(context.counted(accountsWithBalance, "account")) whose balance changed.")
        }
        var reached: [String] = [], unreached: [String] = [], newGoals = 0, goneGoals = 0, savedChange = MoneyTotals(), goalsSaving = 0
        for key in Set(current.goals.keys).union(previous.goals.keys).sorted() {
            let now = current.goals[key], before = previous.goals[key]
            switch (before, now) {
            case (nil, _?): newGoals += 1
            case (_?, nil): goneGoals += 1
            case (let b?, let n?):
                if n.reached && !b.reached { reached.append(n.name) }
                if !n.reached && b.reached { unreached.append(n.name) }
                if n.saved != b.saved, n.saved.currency == b.saved.currency {
                    savedChange.add(n.saved - b.saved)
                    goalsSaving += 1
                }
            default: break
            }
        }
        if goalsSaving > 0 {
            let changes = savedChange.amounts.map { HeadlineReport.signed($0, context: context) }.joined(separator: " · ")
            lines.append("Savings goals: \(changes) saved, over \(context.counted(goalsSaving, "goal")).")
        }
        if !reached.isEmpty { lines.append("Reached their target: \(Self.named(reached)).") }
        if !unreached.isEmpty { lines.append("No longer at their target: \(Self.named(unreached)).") }
        if newGoals + goneGoals > 0 { lines.append("Goals: \(context.count(newGoals)) new, \(context.count(goneGoals)) gone.") }
        var newLoans = 0, goneLoans = 0, statusChanged = 0, funded = MoneyTotals()
        for id in Set(current.loans.keys).union(previous.loans.keys) {
            let now = current.loans[id], before = previous.loans[id]
            switch (before, now) {
            case (nil, let n?):
                newLoans += 1
                funded.add(n.funded)
            case (_?, nil): goneLoans += 1
            case (let b?, let n?) where b.status != n.status: statusChanged += 1
            default: break
            }
        }
        if newLoans + goneLoans + statusChanged > 0 {
            var text = "Kiva loans: \(context.count(newLoans)) new"
            if !funded.isEmpty, newLoans > 0 { text += " (\(context.money(funded)) funded)" }
            text += ", \(context.count(goneLoans)) no longer listed, \(context.count(statusChanged)) with a new status."
            lines.append(text)
        }
        return lines.isEmpty ? ["Nothing changed since the last build: the same transactions, balances, goals and loans."] : lines
    }

    /// `Holiday, Car and 3 more`: at most five names.
    static func named(_ names: [String]) -> String {
        let shown = names.prefix(5).map { Text.singleLine($0) }.joined(separator: ", ")
        return names.count > 5 ? "\(shown) and \(names.count - 5) more" : shown
    }
}

/// What a build leaves for the next one to compare with: each account's balance and the
/// transactions it holds (as 64-bit digests of their ids: a million transactions take 16 MB of
/// cache, not their text), each goal's savings, each loan's status and funding. Kept in the build
/// cache (`Codable`), read back exactly; an amount no data file could hold does not read.
public struct ChangeSnapshot: Sendable, Equatable, Codable {
    struct Account: Sendable, Equatable, Codable {
        var name: String
        @StoredOptionalMoney var balance: Money?
        var items: Set<UInt64>

        enum CodingKeys: String, CodingKey { case name, balance, items }

        init(name: String, balance: Money?, items: Set<UInt64>) {
            self.name = name
            self.balance = balance
            self.items = items
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            _balance = try container.decode(StoredOptionalMoney.self, forKey: .balance)
            // Each item's digest in hexadecimal, in order (a set has none of its own).
            let items = try container.decode([String].self, forKey: .items).map { UInt64($0, radix: 16) }
            guard !items.contains(nil) else {
                throw DecodingError.dataCorruptedError(forKey: .items, in: container, debugDescription: "not a digest")
            }
            self.items = Set(items.compactMap { $0 })
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(_balance, forKey: .balance)
            try container.encode(items.sorted().map { String($0, radix: 16) }, forKey: .items)
        }
    }

    struct Goal: Sendable, Equatable, Codable {
        var name: String
        @StoredMoney var saved: Money
        @StoredOptionalMoney var target: Money?
        var reached: Bool
    }

    struct Loan: Sendable, Equatable, Codable {
        var name: String
        var status: String
        @StoredMoney var funded: Money
    }

    var accounts: [String: Account] = [:]
    var goals: [String: Goal] = [:]
    var loans: [Int: Loan] = [:]

    init() {}

    public init(_ dataset: Dataset) {
        for data in dataset.accounts {
            accounts[data.account.uid] = Account(name: data.account.name, balance: data.balance?.cleared,
                                                 items: Set(data.feed.map { Self.digest($0.uid) }))
        }
        for entry in GoalsReport.entries(dataset) {
            let progress = GoalsRules.progress(saved: entry.saved, target: entry.target, reportedPercent: entry.reportedPercent)
            goals[entry.key] = Goal(name: entry.name, saved: entry.saved, target: entry.target, reached: progress.isReached)
        }
        for loan in dataset.kiva.loans {
            loans[loan.id] = Loan(name: loan.name, status: loan.status.rawValue, funded: loan.fundedAmount)
        }
    }

    /// The snapshot of `dataset` whose accounts in `uids` (held without their feeds) take their
    /// items from `earlier`, a snapshot of the same accounts' feeds as they still are; `nil` when
    /// `earlier` does not hold one of them.
    public init?(_ dataset: Dataset, itemsOf uids: some Collection<String>, from earlier: ChangeSnapshot) {
        self.init(dataset)
        for uid in uids {
            guard accounts[uid] != nil, let items = earlier.accounts[uid]?.items else { return nil }
            accounts[uid]?.items = items
        }
    }

    static func digest(_ id: String) -> UInt64 {
        var value: UInt64 = 0
        for byte in SHA256.hash(data: Array(id.utf8)).prefix(8) { value = value << 8 | UInt64(byte) }
        return value
    }
}

/// An amount as the build cache keeps it: its minor units as a decimal string (an `Int128`), and
/// its currency's code. One no data file could hold does not read, so that the comparison's sums
/// cannot overflow.
@propertyWrapper
struct StoredMoney: Sendable, Equatable, Codable {
    var wrappedValue: Money

    init(wrappedValue: Money) { self.wrappedValue = wrappedValue }

    enum CodingKeys: String, CodingKey { case units, currency }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let units = Int128(try container.decode(String.self, forKey: .units)), units.magnitude <= Money.maximumMinorUnits.magnitude,
              let currency = Currency(code: try container.decode(String.self, forKey: .currency)) else {
            throw DecodingError.dataCorruptedError(forKey: .units, in: container, debugDescription: "not an amount of data")
        }
        wrappedValue = Money(minorUnits: units, currency: currency)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(wrappedValue.minorUnits), forKey: .units)
        try container.encode(wrappedValue.currency.code, forKey: .currency)
    }
}

/// An amount or none (`null`), as ``StoredMoney``.
@propertyWrapper
struct StoredOptionalMoney: Sendable, Equatable, Codable {
    var wrappedValue: Money?

    init(wrappedValue: Money?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(StoredMoney.self).wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(StoredMoney(wrappedValue: wrappedValue)) } else { try container.encodeNil() }
    }
}
