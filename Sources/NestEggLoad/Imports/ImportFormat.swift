import NestEggImport

/// The formats of `imports/`, and how a file's content tells which it is.
public enum ImportFormat: Sendable, Hashable {
    case ofx
    case camt
    case mt940
    case qif(QIFOptions.DateOrder)
    /// A CSV read by its columns as `nestegg.json` names them.
    case csv(CSVMapping)
    /// The CSV NestEgg writes for statements (its columns are known).
    case nestEggCSV

    /// The defaults a file that names neither its account nor its currency is read with (QIF, CSV).
    struct Defaults {
        var currency: String
        var accountName: String
    }

    public var name: String {
        switch self {
        case .ofx: "OFX"
        case .camt: "camt"
        case .mt940: "MT940"
        case .qif: "QIF"
        case .csv: "CSV"
        case .nestEggCSV: "NestEgg statement CSV"
        }
    }

    /// The format a file's first bytes show, if any: camt's XML namespace, OFX's header or root,
    /// MT940's tags, QIF's `!Type:`, NestEgg's own statement CSV header. Another CSV is read only
    /// through a rule (its columns mean what the bank chose).
    static func recognise(_ bytes: [UInt8]) -> ImportFormat? {
        if CamtParser.recognises(bytes) { return .camt }
        if OFXParser.recognises(bytes) { return .ofx }
        if MT940Parser.recognises(bytes) { return .mt940 }
        if QIFParser.recognises(bytes) { return .qif(.automatic) }
        if CSVImportParser.recognises(bytes) { return .nestEggCSV }
        return nil
    }

    func parse(_ bytes: [UInt8], defaults: Defaults) throws(ImportProblem) -> [ImportedStatement] {
        switch self {
        case .ofx: return try OFXParser.parse(bytes)
        case .camt: return try CamtParser.parse(bytes)
        case .mt940: return try MT940Parser.parse(bytes)
        case .qif(let order):
            return try QIFParser.parse(bytes, options: QIFOptions(currency: defaults.currency, accountName: defaults.accountName, dateOrder: order))
        case .csv(let mapping): return try CSVImportParser.parse(bytes, mapping: mapping)
        case .nestEggCSV:
            return try CSVImportParser.parse(bytes).map { statement in
                var named = statement
                named.account.name = named.account.name ?? defaults.accountName
                return named
            }
        }
    }
}
