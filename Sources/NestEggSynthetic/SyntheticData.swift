import NestEggModel
import NestEggSupport
import Foundation

/// `nestegg fixtures`: writes valid, realistic data in every shape of the input contract, the
/// same for the same scale and seed. Scale 1 is about 10,000 Starling transactions; everything
/// grows linearly with the scale (scale 100: 1,000 accounts and 1,000,000 transactions, 20,000
/// goals with 500,000 feed items, 100,000 loans, 100,000 transfers; always 250 countries).
public struct SyntheticData {
    public let scale: Int
    public let seed: UInt64

    public init(scale: Int, seed: UInt64) {
        self.scale = scale
        self.seed = seed
    }

    public struct Summary: Sendable {
        public var files = 0
        public var bytes = 0
        public var starlingTransactions = 0
        public var records = 0
    }

    /// The data ends here, so weeks and months are the same whenever it is generated.
    static let end = Instant(iso8601: "2026-11-20T18:00:00Z")!
    static let year: Int64 = 365 * 86_400

    /// The file that marks a folder as one `nestegg fixtures` made, which it may write into again.
    /// (Hidden, so the data folder's walk does not list it.)
    public static let marker = ".nestegg-fixtures"

    /// A folder that `fixtures` will not write into: it holds files and nestegg did not make it.
    public struct FolderRefused: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Creates `folder` (or takes an empty one, or one it made before) and marks it as made by
    /// `fixtures`. Refuses anything else: synthetic files written into a real data folder would
    /// replace its accounts, transactions and settings.
    public static func claim(_ folder: URL) throws(FolderRefused) {
        let path = folder.path
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw FolderRefused(path: path, reason: "exists and is not a folder") }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw FolderRefused(path: path, reason: "cannot read the folder (\(error.localizedDescription))")
            }
            if !names.isEmpty && !names.contains(marker) {
                throw FolderRefused(path: path, reason: "refusing to write here: it is not empty and nestegg fixtures did not make it "
                                    + "(it has no \(marker)); remove it or choose another --out")
            }
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("This folder holds synthetic data written by nestegg fixtures; the next run may write into it again.\n".utf8)
                .write(to: folder.appendingPathComponent(marker))
        } catch {
            throw FolderRefused(path: path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
    }

    /// Writes every file into `folder`, which must be one ``claim(_:)`` accepts.
    public func write(to folder: URL) throws -> Summary {
        try Self.claim(folder)
        var writer = Writer(root: folder)
        var random = SplitMix64(seed: seed)
        try writeStarling(&writer, &random)
        try writeQapital(&writer, &random)
        try writeTransactions(&writer, &random)
        try writeCountriesAndKiva(&writer, &random)
        try writeTransfers(&writer, &random)
        try writer.file("nestegg.json", "{\n  \"title\": \"Synthetic data, scale \(scale)\"\n}\n")
        return writer.summary
    }

    // MARK: Starling

    static let merchants: [(String, String, ClosedRange<Int>)] = [
        ("Tesco", "GROCERIES", 300...8_000), ("Sainsbury's", "GROCERIES", 300...7_000), ("Pret A Manger", "EATING_OUT", 200...1_500),
        ("Costa Coffee", "EATING_OUT", 180...700), ("Transport for London", "TRANSPORT", 150...1_800), ("Boots", "SHOPPING", 250...3_000),
        ("Amazon", "SHOPPING", 400...12_000), ("Odeon", "ENTERTAINMENT", 900...3_000), ("Thames Water", "BILLS_AND_SERVICES", 2_000...6_000),
        ("Octopus Energy", "BILLS_AND_SERVICES", 4_000...15_000), ("Deliveroo", "EATING_OUT", 1_200...4_500), ("Trainline", "TRANSPORT", 1_500...9_000),
    ]

    func writeStarling(_ writer: inout Writer, _ random: inout SplitMix64) throws {
        let accounts = 10 * scale
        var list = "{\"accounts\": [\n"
        for index in 0..<accounts {
            let uid = uuid(&random)
            let currency = index % 10 == 9 ? "EUR" : "GBP"
            list += index == 0 ? "" : ",\n"
            list += "  {\"accountUid\": \"\(uid)\", \"accountType\": \"\(index % 3 == 0 ? "PRIMARY" : "ADDITIONAL")\", \"defaultCategory\": \"\(uuid(&random))\", "
            list += "\"currency\": \"\(currency)\", \"createdAt\": \"2024-01-0\(index % 9 + 1)T09:00:00.000Z\", \"name\": \"Account \(index + 1)\"}"

            var feed = "{\"feedItems\": [\n"
            var balance: Int64 = 500_000
            for item in 0..<1_000 {
                let time = Instant(secondsSinceEpoch: Self.end.secondsSinceEpoch - Int64(random.next(upTo: UInt64(Self.year))))
                let isPay = item % 40 == 0
                let merchant = Self.merchants[Int(random.next(upTo: UInt64(Self.merchants.count)))]
                let minor = isPay ? 250_000 : Int64(merchant.2.lowerBound) + Int64(random.next(upTo: UInt64(merchant.2.count)))
                let statusRoll = random.next(upTo: 100)
                let status = statusRoll < 1 ? "DECLINED" : statusRoll < 3 ? "PENDING" : "SETTLED"
                let source = isPay ? "FASTER_PAYMENTS_IN" : item % 97 == 5 ? "INTERNAL_TRANSFER" : item % 15 == 0 ? "DIRECT_DEBIT" : "MASTER_CARD"
                if status == "SETTLED" { balance += isPay ? minor : -minor }
                feed += item == 0 ? "" : ",\n"
                feed += "  {\"feedItemUid\": \"\(uuid(&random))\", \"categoryUid\": \"\(uid)\", \"amount\": {\"currency\": \"\(currency)\", \"minorUnits\": \(minor)}, "
                feed += "\"sourceAmount\": {\"currency\": \"\(currency)\", \"minorUnits\": \(minor)}, \"direction\": \"\(isPay ? "IN" : "OUT")\", "
                feed += "\"updatedAt\": \"\(iso(time))\", \"transactionTime\": \"\(iso(time))\", \"source\": \"\(source)\", \"status\": \"\(status)\", "
                feed += "\"counterPartyType\": \"\(isPay ? "SENDER" : "MERCHANT")\", \"counterPartyName\": \"\(isPay ? "Employer Ltd" : merchant.0)\", "
                feed += "\"reference\": \"\(isPay ? "SALARY" : merchant.0.uppercased())   LONDON   GBR\", \"country\": \"GB\", "
                feed += "\"spendingCategory\": \"\(isPay ? "INCOME" : merchant.1)\", \"hasAttachment\": false, \"hasReceipt\": false}"
            }
            feed += "\n]}\n"
            try writer.file("starling/feed/\(uid).json", feed)
            writer.summary.starlingTransactions += 1_000
            let money = { (value: Int64) in "{\"currency\": \"\(currency)\", \"minorUnits\": \(value)}" }
            try writer.file("starling/balances/\(uid).json",
                            "{\"clearedBalance\": \(money(balance)), \"effectiveBalance\": \(money(balance)), \"totalClearedBalance\": \(money(balance))}\n")
            if index % 2 == 0 {
                let target = Int64(50_000 + random.next(upTo: 200_000))
                let saved = Int64(random.next(upTo: UInt64(target)))
                try writer.file("starling/savings-goals/\(uid).json", """
                    {"savingsGoalList": [{"savingsGoalUid": "\(uuid(&random))", "name": "Goal \(index + 1)", "target": \(money(target)), \
                    "totalSaved": \(money(saved)), "savedPercentage": \(saved * 100 / target), "state": "ACTIVE"}]}

                    """)
            }
        }
        try writer.file("starling/accounts.json", list + "\n]}\n")
    }

    // MARK: Qapital

    func writeQapital(_ writer: inout Writer, _ random: inout SplitMix64) throws {
        let users = 50 * scale, goals = 200 * scale, rules = 20
        for user in 1...users {
            try writer.file("qapital/users/\(user).json",
                            "{\"userId\": \(user), \"displayName\": \"Saver \(user)\", \"avatarUrl\": \"https://example.com/avatars/\(user).png\"}")
        }
        var ruleList = "{\"savingsRules\": [\n"
        for rule in 1...rules {
            ruleList += rule == 1 ? "" : ",\n"
            ruleList += "  {\"id\": \(rule), \"type\": \"\(rule % 2 == 0 ? "guilty_pleasure" : "roundup")\", \"amount\": \(rule % 5 + 1)}"
        }
        try writer.file("qapital/savingsrules.json", ruleList + "\n]}\n")
        var goalList = "{\"savingsGoals\": [\n"
        for goal in 1...goals {
            let owner = Int(random.next(upTo: UInt64(users))) + 1
            let target: String = goal % 4 == 0 ? "null" : "\(500 + random.next(upTo: 5_000))"
            let connected: String = goal % 3 == 0 ? "[\(owner % users + 1), \((owner + 1) % users + 1)]" : "null"
            var balanceCents: Int64 = 0
            var feed = "{\"feed\": [\n"
            for item in 0..<25 {
                let cents = Int64(50 + random.next(upTo: 2_500))
                balanceCents += cents
                let time = Instant(secondsSinceEpoch: Self.end.secondsSinceEpoch - Int64(random.next(upTo: UInt64(Self.year))))
                let rule = item % 4 == 3 ? "" : ", \"savingsRuleId\": \(random.next(upTo: UInt64(rules)) + 1)"
                feed += item == 0 ? "" : ",\n"
                feed += "  {\"id\": \"\(uuid(&random))\", \"type\": \"saving\", \"timestamp\": \"\(iso(time))\", "
                feed += "\"message\": \"<strong>Saver \(owner)</strong> \(rule.isEmpty ? "made a manual transfer" : "saved with a rule").\", "
                feed += "\"amount\": \(cents / 100).\(String(cents % 100).leftPadded(to: 2)), \"userId\": \(owner)\(rule)}"
            }
            try writer.file("qapital/feed/\(goal).json", feed + "\n]}\n")
            goalList += goal == 1 ? "" : ",\n"
            goalList += "  {\"goalImageURL\": \"https://example.com/goals/\(goal).jpg\", \"userId\": \(owner), \"targetAmount\": \(target), "
            goalList += "\"currentBalance\": \(balanceCents / 100).\(String(balanceCents % 100).leftPadded(to: 2)), \"created\": [2025, \(goal % 12 + 1), \(goal % 28 + 1)], "
            goalList += "\"status\": \"\(goal % 25 == 0 ? "deleted" : "active")\", \"name\": \"Goal \(goal)\", \"id\": \(goal), \"connectedUsers\": \(connected)}"
        }
        try writer.file("qapital/savingsgoals.json", goalList + "\n]}\n")
    }

    // MARK: Transactions app

    func writeTransactions(_ writer: inout Writer, _ random: inout SplitMix64) throws {
        let categories = ["food", "health", "entertainment", "shopping", "travel"]
        var list = "[\n"
        for index in 0..<(1_000 * scale) {
            let category = categories[Int(random.next(upTo: 5))]
            let cents = 100 + random.next(upTo: 15_000)
            let time = Instant(secondsSinceEpoch: Self.end.secondsSinceEpoch - Int64(random.next(upTo: UInt64(Self.year / 2))))
            list += index == 0 ? "" : ",\n"
            list += "  {\"id\": \(index + 1), \"name\": \"Purchase \(index + 1)\", \"category\": \"\(category)\", \"amount\": \(cents / 100).\(String(cents % 100).leftPadded(to: 2)), "
            list += "\(index % 50 == 0 ? "\"currency\": \"EUR\", " : "")\"date\": \"\(iso(time))\", \"accountName\": \"Card \(index % 3 + 1)\", "
            list += "\"provider\": \"Provider \(index % 7 + 1)\"\(index % 9 == 0 ? ", \"pinned\": false" : "")}"
        }
        try writer.file("transactions/transactions.json", list + "\n]\n")
    }

    // MARK: Countries and Kiva

    static let sectors = ["Agriculture", "Food", "Retail", "Services", "Transportation", "Education", "Housing", "Clothing"]

    func writeCountriesAndKiva(_ writer: inout Writer, _ random: inout SplitMix64) throws {
        // 250 two-letter codes AA, AB, …; flags from regional indicator symbols.
        var codes: [String] = []
        var countries = "[\n"
        for index in 0..<250 {
            let code = String(UnicodeScalar(65 + index / 26)!) + String(UnicodeScalar(65 + index % 26)!)
            codes.append(code)
            let flag = code.unicodeScalars.map { String(UnicodeScalar(0x1F1E6 + $0.value - 65)!) }.joined()
            let lat = Int(random.next(upTo: 140)) - 60, lon = Int(random.next(upTo: 360)) - 180
            let gini = index % 3 == 0 ? "{}" : "{\"20\(10 + index % 12)\": \(25 + random.next(upTo: 30)).\(random.next(upTo: 10))}"
            countries += index == 0 ? "" : ",\n"
            countries += "  {\"name\": {\"common\": \"Country \(code)\", \"official\": \"Republic of \(code)\"}, \"cca2\": \"\(code)\", "
            countries += "\"population\": \(index % 50 == 7 ? 0 : 10_000 + random.next(upTo: 90_000_000)), \"gini\": \(gini), "
            countries += "\"latlng\": [\(lat), \(lon)], \"flag\": \"\(flag)\", \"region\": \"Region \(index % 5)\"}"
        }
        try writer.file("restcountries/countries.json", countries + "\n]\n")

        let loans = 1_000 * scale, pageSize = 1_000
        let statuses = ["fundraising", "funded", "in_repayment", "paid", "defaulted", "expired"]
        var myLoans: [String] = []
        for page in 0..<(loans + pageSize - 1) / pageSize {
            var text = "{\"paging\": {\"page\": \(page + 1), \"total\": \(loans), \"page_size\": \(pageSize), \"pages\": \((loans + pageSize - 1) / pageSize)}, \"loans\": [\n"
            for offset in 0..<min(pageSize, loans - page * pageSize) {
                let id = 100_000 + page * pageSize + offset
                let code = codes[Int(random.next(upTo: 250))]
                let amount = 25 * (4 + random.next(upTo: 400))
                let status = statuses[Int(random.next(upTo: UInt64(statuses.count)))]
                let funded = status == "fundraising" ? amount * random.next(upTo: 100) / 100 / 25 * 25 : amount
                let posted = Instant(secondsSinceEpoch: Self.end.secondsSinceEpoch - Int64(random.next(upTo: UInt64(2 * Self.year))))
                let lat = Int(random.next(upTo: 140)) - 60, lon = Int(random.next(upTo: 360)) - 180
                let loan = "{\"id\": \(id), \"name\": \"Borrower \(id)\", \"status\": \"\(status)\", \"funded_amount\": \(funded), \"loan_amount\": \(amount), "
                    + "\"sector\": \"\(Self.sectors[id % Self.sectors.count])\", \"activity\": \"Activity \(id % 40)\", \"use\": \" To grow the business \", "
                    + "\"location\": {\"country_code\": \"\(code)\", \"country\": \"Country \(code)\", \"town\": \"Town \(id % 300)\", "
                    + "\"geo\": {\"level\": \"town\", \"pairs\": \"\(lat) \(lon)\", \"type\": \"point\"}}, \"image\": {\"id\": \(id), \"template_id\": 1}, "
                    + "\"posted_date\": \"\(iso(posted))\", \"borrower_count\": 1, \"lender_count\": \(random.next(upTo: 60))}"
                text += offset == 0 ? "" : ",\n"
                text += "  " + loan
                if myLoans.count < 10 && id % 7 == 0 { myLoans.append(loan) }
            }
            try writer.file("kiva/loans-\(String(page + 1).leftPadded(to: 4)).json", text + "\n]}\n")
        }
        try writer.file("kiva/my/account.json",
                        "{\"user_account\": {\"first_name\": \"Synthetic\", \"last_name\": \"Lender\", \"lender_id\": \"synthetic\", \"id\": 1}}\n")
        try writer.file("kiva/my/balance.json", "{\"user_balance\": {\"balance\": 250.00}}\n")
        try writer.file("kiva/my/loans.json",
                        "{\"paging\": {\"page\": 1, \"total\": \(myLoans.count), \"page_size\": 20, \"pages\": 1}, \"loans\": [\n  "
                        + myLoans.joined(separator: ",\n  ") + "\n]}\n")
        try writer.file("kiva/cart.json", "[" + (0..<4).map { "{\"loan_id\": \(100_000 + $0 * 3), \"amount\": 25}" }.joined(separator: ", ") + "]\n")
    }

    // MARK: Transfers

    func writeTransfers(_ writer: inout Writer, _ random: inout SplitMix64) throws {
        let users = 50 * scale
        var uids: [String] = []
        var list = "[\n"
        for index in 0..<users {
            let uid = String(uuid(&random).replacingOccurrences(of: "-", with: "").prefix(20))
            uids.append(uid)
            list += index == 0 ? "" : ",\n"
            list += "  {\"uid\": \"\(uid)\", \"name\": \"Person \(index + 1)\"}"
        }
        try writer.file("transfers/users.json", list + "\n]\n")
        var transfers = "[\n"
        for index in 0..<(1_000 * scale) {
            let from = uids[Int(random.next(upTo: UInt64(users)))]
            var to = uids[Int(random.next(upTo: UInt64(users)))]
            if to == from { to = uids[(uids.firstIndex(of: from)! + 1) % users] }
            let roll = random.next(upTo: 100)
            let status = roll < 85 ? "001" : roll < 95 ? "002" : "003"
            let time = Self.end.secondsSinceEpoch - Int64(random.next(upTo: UInt64(Self.year)))
            let cents = 100 + random.next(upTo: 200_000)
            transfers += index == 0 ? "" : ",\n"
            transfers += "  {\"fromUid\": \"\(from)\", \"toUid\": \"\(to)\", \"amount\": \(cents / 100).\(String(cents % 100).leftPadded(to: 2)), "
            transfers += "\"tid\": \"t\(String(index, radix: 36))\", \"tstatus\": \"\(status)\", \"ttime\": \(index % 2 == 0 ? "\"\(time)\"" : "\(time)")}"
        }
        try writer.file("transfers/transfers.json", transfers + "\n]\n")
    }

    // MARK: Helpers

    func iso(_ instant: Instant) -> String {
        let seconds = instant.secondsSinceEpoch
        let (days, rest) = (Int(seconds / 86_400), Int(seconds % 86_400))
        let date = CivilDate(daysSinceEpoch: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date)T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)).000Z"
    }

    func uuid(_ random: inout SplitMix64) -> String {
        let a = random.next(), b = random.next()
        let hex = String(a, radix: 16).leftPadded(to: 16) + String(b, radix: 16).leftPadded(to: 16)
        let c = Array(hex)
        return "\(String(c[0..<8]))-\(String(c[8..<12]))-4\(String(c[13..<16]))-a\(String(c[17..<20]))-\(String(c[20..<32]))"
    }

    struct Writer {
        let root: URL
        var summary = Summary()

        mutating func file(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = Data(text.utf8)
            try data.write(to: url)
            summary.files += 1
            summary.bytes += data.count
        }
    }
}

/// A small, fast, seedable pseudo-random generator (SplitMix64): the same seed, the same data.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func next(upTo bound: UInt64) -> UInt64 { bound == 0 ? 0 : next() % bound }
}
