import NestEggReport
import NestEggModel
import NestEggSupport
/// `manifest.json`: every statement in a folder — whose, which period, final or provisional, its
/// opening and closing balance, its digest (``StatementDigest``) — and the SHA-256 of each file
/// written for it, by its path relative to the manifest's folder. `nestegg verify FOLDER` checks
/// the files against it. Every other file in the folder is listed too (`otherFiles`: the index
/// pages, a bundle's round-ups and stylesheet, the manifests of the folders below), so that a
/// file the manifest does not list is one nestegg did not write there. The schema is
/// `docs/statements-manifest.schema.json` (version 1); keys are written in a fixed order, money as
/// `{"amount": "1.58", "currency": "GBP"}`, as `--json` writes it.
public enum StatementManifest {
    public static let schemaVersion = 1
    public static let fileName = "manifest.json"

    /// A file written for a statement: where, relative to the manifest, and its SHA-256.
    public struct File: Sendable, Equatable {
        public let path: String
        public let sha256: String

        public init(path: String, sha256: String) {
            self.path = path
            self.sha256 = sha256
        }
    }

    public struct Entry: Sendable {
        public let record: StatementRecord
        public let files: [File]

        public init(record: StatementRecord, files: [File]) {
            self.record = record
            self.files = files
        }
    }

    public static func render(_ entries: [Entry], dataAsOf: CivilDate?, otherFiles: [File]) -> String {
        assemble(head: head(dataAsOf: dataAsOf), entries: entries.map(text(of:)), otherFiles: otherFiles)
    }

    /// The manifest's opening, up to its list of statements.
    public static func head(dataAsOf: CivilDate?) -> String {
        let quote = { (text: String) in JSONText.quote(text) }
        var out = "{\n"
        out += "  \"schemaVersion\": \(schemaVersion),\n"
        out += "  \"digestFormat\": \(quote(StatementDigest.format)),\n"
        out += "  \"dataAsOf\": \(dataAsOf.map { quote("\($0)") } ?? "null"),\n"
        return out
    }

    /// One statement's object in the list (a share of a sharded build writes those of its own
    /// statements; the merge puts them together in order).
    public static func text(of entry: Entry) -> String {
        let quote = { (text: String) in JSONText.quote(text) }
        let money = { (amount: Money?) in
            amount.map { "{\"amount\": \(quote($0.decimalString)), \"currency\": \(quote($0.currency.code))}" } ?? "null"
        }
        let record = entry.record
        var out = "    {\n"
        out += "      \"account\": {\"uid\": \(quote(record.account.uid)), \"name\": \(quote(record.account.name)), "
            + "\"currency\": \(quote(record.account.currency.code))},\n"
        out += "      \"period\": {\"month\": \(quote("\(record.month)")), \"first\": \(quote("\(record.period.first)")), "
            + "\"last\": \(quote("\(record.period.last)")), \"through\": \(quote("\(record.through)"))},\n"
        out += "      \"status\": \(quote(record.status.word)),\n"
        out += "      \"opening\": \(money(record.opening)),\n"
        out += "      \"closing\": \(money(record.status.isFinal ? record.closing : nil)),\n"
        out += "      \"balance\": \(money(record.closing)),\n"
        out += "      \"digest\": \(quote(record.digest)),\n"
        out += "      \"files\": ["
        for (fileIndex, file) in entry.files.enumerated() {
            out += fileIndex == 0 ? "\n" : ",\n"
            out += "        {\"path\": \(quote(file.path)), \"sha256\": \(quote(file.sha256))}"
        }
        out += entry.files.isEmpty ? "]\n" : "\n      ]\n"
        return out + "    }"
    }

    /// The manifest from its head, its statements' objects, in order, and the folder's other files
    /// (in path order).
    public static func assemble(head: String, entries: [String], otherFiles: [File]) -> String {
        var out = head + "  \"statements\": ["
        for (index, entry) in entries.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += entry
        }
        out += entries.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"otherFiles\": ["
        for (index, file) in otherFiles.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    {\"path\": \(JSONText.quote(file.path)), \"sha256\": \(JSONText.quote(file.sha256))}"
        }
        out += otherFiles.isEmpty ? "]\n" : "\n  ]\n"
        return out + "}\n"
    }
}
