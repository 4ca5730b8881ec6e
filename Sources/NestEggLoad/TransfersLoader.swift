import NestEggModel
import NestEggSupport
/// Reads `transfers/` (seed 001): the transfer app's users and its transfers, each transfer being
/// the app's request (`fromUid`, `toUid`, `amount`) and the API's response (`tid`, `tstatus`,
/// `ttime`) in one record.
public enum TransfersLoader {
    static let usersPath = "transfers/users.json"
    static let transfersPath = "transfers/transfers.json"

    public static func load(from folder: DataFolder, settings: Settings, log: DiagnosticLog) -> TransfersData {
        guard folder.hasFolder("transfers") else { return TransfersData() }
        var data = TransfersData()
        if folder.contains(usersPath) {
            if let document = folder.document(usersPath, log: log) { data.users = users(in: document) }
        } else {
            log.report(Diagnostic(.warning, file: usersPath, message: "missing: transfers show each person as unknown, by the end of their id"))
        }
        if folder.contains(transfersPath) {
            if let document = folder.document(transfersPath, log: log) {
                data.transfers = transfers(in: document, users: data.users, defaultCurrency: settings.currency(forSource: "transfers"))
            }
        } else {
            log.report(Diagnostic(.warning, file: transfersPath, message: "missing: there are no transfers to report"))
        }
        return data
    }

    /// `[{uid, name, currency?}]`; a repeated uid is a warning and the first one counts.
    public static func users(in document: JSONDocument) -> [TransferUser] {
        guard let list = document.value.array else { return [] }
        var seen: Set<String> = []
        var result: [TransferUser] = []
        for value in list {
            guard let user = user(value) else { continue }
            guard seen.insert(user.uid).inserted else {
                value.warning("duplicate uid \"\(user.uid)\"; the first entry is used")
                continue
            }
            result.append(user)
        }
        return result
    }

    public static func user(_ value: JSONValue) -> TransferUser? {
        guard value.object != nil else { return nil }
        let uid = value.required("uid", "the user's unique id")?.identifier
        let name = value.required("name", "the user's name")?.trimmedString
        let currency = value["currency"]?.currency
        guard let uid, let name else { return nil }
        if Text.normalised(uid).isEmpty { value["uid"]?.error("expected a non-empty uid"); return nil }
        return TransferUser(uid: uid, name: name.isEmpty ? uid : name, currency: currency)
    }

    /// `[{fromUid, toUid, amount, tid, tstatus, ttime}]`. Amounts are in the sender's currency
    /// (else the recipient's, else the configured one). An unknown uid and a repeated tid are warnings.
    public static func transfers(in document: JSONDocument, users: [TransferUser], defaultCurrency: Currency) -> [Transfer] {
        guard let list = document.value.array else { return [] }
        var byUid: [String: TransferUser] = [:]
        for user in users { byUid[user.uid] = user }
        var seen: Set<String> = []
        var result: [Transfer] = []
        result.reserveCapacity(list.count)
        for value in list {
            guard let transfer = transfer(value, users: byUid, defaultCurrency: defaultCurrency) else { continue }
            guard seen.insert(transfer.tid).inserted else {
                value.warning("duplicate tid \"\(transfer.tid)\"; the first record is used")
                continue
            }
            result.append(transfer)
        }
        return result
    }

    /// One record: the request's fields and the response's, side by side.
    public static func transfer(_ value: JSONValue, users: [String: TransferUser], defaultCurrency: Currency) -> Transfer? {
        guard value.object != nil else { return nil }
        let from = value.required("fromUid", "the sender's uid")?.identifier
        let to = value.required("toUid", "the recipient's uid")?.identifier
        let amountValue = value.required("amount", "an amount (a decimal number such as 10.0)")
        let response = self.response(value)
        let fromCurrency = from.flatMap { users[$0]?.currency }, toCurrency = to.flatMap { users[$0]?.currency }
        let currency = fromCurrency ?? toCurrency ?? defaultCurrency
        let amount = amountValue?.decimalMoney(currency)
        guard let from, let to, let amount, let response else { return nil }
        for (uid, key) in [(from, "fromUid"), (to, "toUid")] where users[uid] == nil && !users.isEmpty {
            // "Recipient not found" already says the recipient is unknown: no need to warn again.
            if key == "toUid", response.status == .recipientNotFound { continue }
            value[key]?.warning("no user \"\(uid)\" in transfers/users.json; shown by uid")
        }
        if let fromCurrency, let toCurrency, fromCurrency != toCurrency {
            value.warning("sender's currency \(fromCurrency) differs from the recipient's \(toCurrency); amount read in \(fromCurrency)")
        }
        if amount.isNegative {
            amountValue?.error("expected a positive amount, found \(amount.decimalString)")
            return nil
        }
        if amount.isZero { amountValue?.warning("a transfer of nothing") }
        if from == to { value.warning("a transfer from \(from) to itself") }
        return Transfer(tid: response.tid, fromUid: from, toUid: to, amount: amount, status: response.status, time: response.time)
    }

    /// The API's response, `{"tid": "wf1clo4lhf", "tstatus": "001", "ttime": "1531125475"}`:
    /// `tstatus` is a code (a number such as `1` is read as "001"), `ttime` Unix seconds as a string or number.
    public static func response(_ value: JSONValue) -> TransferResponse? {
        guard value.object != nil else { return nil }
        let tid = value.required("tid", "the transaction id")?.identifier
        let status = value.required("tstatus", "a status code such as \"001\"").flatMap(statusCode)
        let time = value.required("ttime", "Unix seconds, as a string or number")?.unixSeconds
        guard let tid, let status, let time else { return nil }
        if Text.normalised(tid).isEmpty { value["tid"]?.error("expected a non-empty transaction id"); return nil }
        return TransferResponse(tid: tid, status: TransferStatus(code: status), time: time)
    }

    static func statusCode(_ value: JSONValue) -> String? {
        guard let code = value.identifier else { return nil }
        guard !code.isEmpty else { value.error("expected a status code such as \"001\", found an empty string"); return nil }
        if code.count < 3, code.allSatisfy({ ("0"..."9").contains($0) }) {
            return String(repeating: "0", count: 3 - code.count) + code
        }
        return code
    }
}
