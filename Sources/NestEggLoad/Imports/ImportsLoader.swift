import NestEggImport
import NestEggModel
import NestEggSupport

/// Reads `imports/` (and the open-banking answers of `berlingroup/` and `simplefin/`,
/// ``OpenBankingLoader``): every file under it (any name, any depth) is one bank's export, recognised by
/// its content (``ImportFormat``), or read as `nestegg.json`'s `imports` rules say (a CSV's columns,
/// a QIF's currency). Each account found is one account of the site, like a Starling account: the
/// same account (IBAN, or number and bank, and currency) in several files is one account, its
/// overlapping downloads de-duplicated (``ImportedAccounts``) and every balance the files state
/// checked against their entries (``BalanceAssertions``).
public enum ImportsLoader {
    public static let folderName = "imports"

    public static func load(from folder: DataFolder, settings: Settings, rules: [ImportRule], log: DiagnosticLog) -> [AccountData] {
        let paths = folder.files.filter { $0.hasPrefix(folderName + "/") }.sorted()
        paths.forEach(folder.claim)
        // Each file is read on its own core; their diagnostics come in path order.
        let files = Concurrently.map(paths.count, log: log) { index, log in
            read(paths[index], in: folder, settings: settings, rules: rules, log: log)
        }.compactMap { $0 }
        let answers = OpenBankingLoader.berlinGroup(from: folder, clock: settings.clock, log: log)
            + OpenBankingLoader.simpleFIN(from: folder, clock: settings.clock, log: log)
        guard !files.isEmpty || !answers.isEmpty else { return [] }
        var accounts = ImportedAccounts()
        for file in files + answers { accounts.add(file) }
        return accounts.accounts(settings: settings, log: log)
    }

    /// One file's statements, with what the rules say of its account; `nil` (after an error) when
    /// it cannot be read, is no format NestEgg reads, or its content is wrong.
    static func read(_ path: String, in folder: DataFolder, settings: Settings, rules: [ImportRule], log: DiagnosticLog) -> ImportedFile? {
        let bytes: [UInt8]
        switch FileBytes.read(folder.root.path + "/" + path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            log.report(Diagnostic(.error, file: path, message: "cannot read the file: \(failure.reason)"))
            return nil
        }
        let relative = String(path.dropFirst(folderName.count + 1))
        let rule = rules.first { $0.matches(relative) }
        let format: ImportFormat
        if let given = rule?.format {
            format = given
        } else if let found = ImportFormat.recognise(bytes) {
            format = found
        } else {
            log.report(Diagnostic(.error, file: path, message: "not a bank export NestEgg reads: expected OFX or QFX, ISO 20022 camt.052 or camt.053, "
                + "SWIFT MT940 or MT942, QIF, or NestEgg's own statement CSV; another CSV needs its columns named in nestegg.json's \"imports\" "
                + "(docs/IMPORTS.md)"))
            return nil
        }
        let statements: [ImportedStatement]
        do {
            statements = try format.parse(bytes, defaults: .init(currency: rule?.account.currency ?? settings.baseCurrency.code,
                                                                 accountName: rule?.account.name ?? defaultName(relative)))
        } catch {
            log.report(Diagnostic(.error, file: path, line: error.line, column: error.column, path: error.element,
                                  message: "\(format.name): \(error.message)"))
            return nil
        }
        guard !statements.isEmpty else {
            log.report(Diagnostic(.error, file: path, message: "\(format.name): the file holds no statement of an account"))
            return nil
        }
        return ImportedFile(path: path, statements: statements.map { rule?.account.applied(to: $0) ?? $0 },
                            roundUps: rule?.account.roundUps ?? false)
    }

    /// The name of the account of a file that names none (QIF, CSV) and has no rule naming it: its
    /// folder's under `imports/` (`joint/2026-10.qif` → `joint`), so that a folder of one account's
    /// downloads is one account; a file directly in `imports/` is named by its name without the
    /// extension (`savings.qif` → `savings`).
    static func defaultName(_ relative: String) -> String {
        let parts = relative.split(separator: "/")
        if parts.count > 1 { return String(parts[parts.count - 2]) }
        let name = String(parts.last ?? Substring(relative))
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

/// One file read: its statements and where they came from.
struct ImportedFile: Sendable {
    let path: String
    let statements: [ImportedStatement]
    /// The other files it was read from (an open-banking answer's balances and further pages):
    /// with `path`, what its accounts' pages are made of.
    var alsoRead: [String] = []
    /// Whether its accounts' round-ups are shown (an imports rule's `"roundUps": true`).
    var roundUps = false
}
