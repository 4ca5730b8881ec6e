import Crypto
import Foundation
@testable import NestEggBuild
@testable import NestEggImport
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

// libFuzzer targets for the parts of NestEgg that are our own code: the JSON parser, the loaders
// with the report and render stages behind them, the Mustache parser and renderer, the Markdown
// escaper with cmark-gfm behind it, and the rich-text sanitiser. `make fuzz` builds this file with
// `-sanitize=fuzzer,address` (see scripts/fuzz.sh); NESTEGG_FUZZ_TARGET names the target to run.
// A target fails by crashing: a trap, an overflow, a stack overflow, or an address sanitizer report.

private let target = ProcessInfo.processInfo.environment["NESTEGG_FUZZ_TARGET"] ?? "json"

/// libFuzzer's driver, for the entry point below (a C function, declared without a C module).
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// SwiftPM links an executable's entry point as `<Module>_main`: here it hands over to libFuzzer.
@_cdecl("NestEggFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc, arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzzOne(data, size)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case "json": FuzzTargets.json(bytes)
    case "loaders": FuzzTargets.loaders(bytes)
    case "template": FuzzTargets.template(bytes)
    case "markdown": FuzzTargets.markdown(bytes)
    case "richtext": FuzzTargets.richText(bytes)
    case "census": FuzzTargets.census(bytes)
    case "folder": FuzzTargets.folder(bytes)
    case "manifest": FuzzTargets.manifest(bytes)
    case "part": FuzzTargets.part(bytes)
    case "ofx": FuzzTargets.importFormat(bytes) { try OFXParser.parse($0) }
    case "camt": FuzzTargets.importFormat(bytes) { try CamtParser.parse($0) }
    case "mt940": FuzzTargets.importFormat(bytes) { try MT940Parser.parse($0) }
    case "qif": FuzzTargets.importFormat(bytes) { try QIFParser.parse($0, options: QIFOptions(currency: "GBP", accountName: "Fuzz")) }
    case "csv": FuzzTargets.csv(bytes)
    default: fatalError("unknown NESTEGG_FUZZ_TARGET \(target)")
    }
    return 0
}

enum FuzzTargets {
    /// A bank export parser on any bytes: it returns statements or throws, never traps; the
    /// amounts it returns are within ``DecimalAmount``'s limits, and their text reads back.
    static func importFormat(_ bytes: [UInt8], _ parse: ([UInt8]) throws -> [ImportedStatement]) {
        guard let statements = try? parse(bytes) else { return }
        for entry in statements.lazy.flatMap(\.entries) {
            precondition(DecimalAmount(parsing: entry.amount.description) == entry.amount, "an amount within DecimalAmount's limits, whose text reads back")
        }
    }

    /// The CSV reader with a mapping taken from the first line of the input (`date;amount;desc;balance`
    /// columns by position), then NestEgg's own statement CSV reader on the rest.
    static func csv(_ bytes: [UInt8]) {
        let mapping = CSVMapping(date: "#1", dateFormat: bytes.first.map { $0 % 2 == 0 ? "DD/MM/YYYY" : "YYYY-MM-DD" } ?? "YYYY-MM-DD",
                                 amount: "#2", description: ["#3"], balance: bytes.count % 3 == 0 ? "#4" : nil,
                                 decimal: bytes.count % 5 == 0 ? "," : ".", account: ImportedAccount(currency: "EUR"))
        importFormat(bytes) { try CSVImportParser.parse($0, mapping: mapping) }
        importFormat(bytes) { try CSVImportParser.parse($0) }
    }

    /// Parse; on success, place a diagnostic at every value (line, column and JSON path).
    static func json(_ bytes: [UInt8]) {
        let log = DiagnosticLog()
        guard let document = JSONDocument.parse(bytes, file: "fuzz.json", log: log) else { return }
        var pending = [document.root]
        var visited = 0
        while let node = pending.popLast(), visited < 10_000 {
            visited += 1
            document.report(.warning, at: node, "visited")
            switch node.kind {
            case .array(let elements): pending += elements
            case .object(let members): pending += members.map(\.value)
            default: break
            }
        }
    }

    /// The files of one source, split at "\n@@\n", in a data folder: loaded, reported on, and
    /// every page rendered (Markdown and HTML), as a build does. The first byte picks the source.
    static let sources: [[String]] = [
        ["transactions/transactions.json", "nestegg.json"],
        ["starling/accounts.json", "starling/feed/a1.json", "starling/balances/a1.json", "starling/savings-goals/a1.json", "nestegg.json"],
        ["qapital/savingsgoals.json", "qapital/feed/1.json", "qapital/users/1.json", "qapital/savingsrules.json"],
        ["kiva/loans.json", "restcountries/countries.json", "kiva/my/loans.json", "kiva/cart.json", "kiva/my/balance.json", "kiva/my/account.json"],
        ["transfers/transfers.json", "transfers/users.json"],
        // Two bank downloads of (perhaps) one account, and the rules that read them: merged,
        // de-duplicated and their balances checked (NestEggLoad's ImportedAccounts).
        ["imports/a.ofx", "imports/b.xml", "imports/c.sta", "imports/d.csv", "nestegg.json"],
    ]
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-fuzz-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        return url
    }()
    static let templates = try! TemplateLibrary()

    static func loaders(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let paths = sources[Int(first) % sources.count]
        try? FileManager.default.removeItem(at: folder)
        let parts = split(Array(bytes.dropFirst()), separator: Array("\n@@\n".utf8))
        for (path, part) in zip(paths, parts) {
            let url = folder.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data(part))
        }
        guard let data = try? DataFolder(root: folder) else { return }
        let log = DiagnosticLog()
        let dataset = DataLoader.load(data, log: log)
        guard !log.hasErrors else { return }
        let site = SiteReport.build(dataset)
        let renderer = PageRenderer(templates: templates, site: site)
        for page in site.pages.prefix(200) { _ = try? renderer.render(page) }
        _ = TotalsJSON.render(site: site, warnings: log.diagnostics)
    }

    /// `nestegg verify` of a folder made of the input — a manifest, its signature file and one
    /// statement, split at "\n@@\n" — without a key and with a fixed one; and the statement
    /// formats' escapers on the same bytes as text, whose guard must hold.
    static func manifest(_ bytes: [UInt8]) {
        let parts = split(bytes, separator: Array("\n@@\n".utf8))
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("nestegg-fuzz-manifest-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("personal"), withIntermediateDirectories: true)
        for (name, part) in zip([StatementManifest.fileName, ManifestSignature.fileName, "personal/2026-10.md"], parts) {
            try? Data(part).write(to: folder.appendingPathComponent(name))
        }
        _ = ManifestVerifier.verify(folder: folder)
        _ = ManifestVerifier.verify(folder: folder, publicKey: fuzzPublicKey)
        let text = String(decoding: bytes.prefix(4_096), as: UTF8.self)
        let cell = CSVCell.guarded(Text.withoutBidiControls(text))
        if let first = cell.unicodeScalars.first, CSVCell.formulaStarts.contains(first), !CSVCell.isSignedNumber(cell) { fatalError("a formula start unguarded: \(cell.debugDescription)") }
        if XMLText.escaped(text).contains("<") { fatalError("markup in XML text: \(text.debugDescription)") }
    }

    static let fuzzPublicKey = ManifestSignature.PublicKey(raw: Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)

    /// A share's part record, as `nestegg merge` reads it: the input signed as a record's body (so
    /// that the fuzzer reaches past the SHA-256 line) and as it is, authenticated with a fixed part
    /// key, its statements' entries read for their paths; the same bytes as a statements manifest
    /// whose listed files the merge and the build hash before they sign; and as a name in the
    /// summaries' folder. A record that reads must hold together: its paths inside the part, its
    /// places inside the manifest.
    static func part(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        for candidate in [RecordFile.signed(text), text] {
            guard let record = PartRecord(text: candidate) else { continue }
            _ = record.unauthenticated(by: fuzzPartKey)
            if !record.files.allSatisfy(PartRecord.isInside) { fatalError("a path out of the part: \(record.files)") }
            if !record.entries.allSatisfy({ (0..<record.statementCount).contains($0.place) }) { fatalError("a place outside the manifest") }
            for entry in record.entries.prefix(100) { _ = Merge.paths(inEntry: entry.entry) }
            // Written again, it reads back as itself, authenticated by the key it was written with.
            guard let again = PartRecord(text: record.text(key: fuzzPartKey)) else { fatalError("a record that does not read back") }
            if again.unauthenticated(by: fuzzPartKey) != nil || again.files != record.files || again.entries != record.entries {
                fatalError("a record that does not read back as itself")
            }
        }
        _ = Build.listedFiles(manifest: text)
        _ = BesideOutput.isSummaryName(String(text.prefix(300)))
    }

    static let fuzzPartKey = PartKey(raw: Data(repeating: 7, count: 32), file: nil)

    /// A template and a partial (split at the first "\n@@\n"), parsed and rendered with a view
    /// that has text, flags, lists and objects under short names.
    static func template(_ bytes: [UInt8]) {
        let parts = split(bytes, separator: Array("\n@@\n".utf8))
        let text = String(decoding: parts[0], as: UTF8.self)
        let partial = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : "{{a}}"
        guard let template = try? Template(text, kind: .markdown), let included = try? Template(partial, kind: .html) else { return }
        let leaf: TemplateValue = .object(["a": .text("<a>*1*</a>"), "b": .flag(true), "c": .flag(false)])
        let view: TemplateValue = .object([
            "a": .text("# x | y"), "m": .markup("<b>m</b>"), "b": .flag(true), "c": .list([leaf, leaf, .text("t")]), "d": leaf, "p": .text("p"),
        ])
        var partials = ["p": included]
        // A partial that includes itself never finishes: the library refuses it before rendering.
        if !included.partialNames.contains("p") && included.depth(with: [:]) + template.depth(with: ["p": included.depth(with: [:])]) <= Template.maximumDepth {
            _ = try? template.render(view, partials: partials)
            // Both flavours at once (a page's Markdown and its HTML-flavoured Markdown) are each
            // flavour rendered alone, or fail where one of them fails (a property failure is a crash).
            let common = { (flag: Bool) -> TemplateValue in .object(["b": .flag(flag), "t": .text("T")]) }
            let off = try? template.render([view, common(false)], partials: partials)
            let on = try? template.render([view, common(true)], partials: partials)
            let both = try? template.renderBoth([view, common(false)], forkName: "b", partials: partials)
            if let off, let on {
                precondition(both?.off == off && both?.on == on, "renderBoth differs from rendering each flavour")
            } else {
                precondition(both == nil, "renderBoth rendered what one flavour refuses")
            }
        }
        partials.removeAll()
    }

    /// A string from data escaped for each Markdown placement, through cmark-gfm as a build runs
    /// it: besides not crashing, the result may hold no link, image or element from the data (a
    /// property failure is a crash, so libFuzzer keeps the input).
    static func markdown(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let paragraph = Escape.value(text, at: .paragraph), start = Escape.value(text, at: .lineStart)
        let document = """
            # \(Escape.value(text, at: .heading))

            \(start) and \(paragraph).

            - \(Escape.value(text, at: .listItem))

            | a | b |
            |---|--:|
            | \(Escape.value(text, at: .tableCell)) | 1 |

            [\(Escape.value(text, at: .linkText))](page.md)
            """
        let html = CMark.html(from: document)
        for forbidden in ["<a href=\"http", "<img", "<script", "<h2", "<ol", "<hr", "<pre", "<blockquote"] where html.contains(forbidden) {
            fatalError("data became structure (\(forbidden)): \(String(reflecting: text)) → \(html)")
        }
        // The .md file's padded tables render as the unpadded ones.
        if CMark.html(from: MarkdownTablePadding.pad(document)) != html {
            fatalError("padding changed the HTML: \(String(reflecting: text))")
        }
        // Any text: no crash, and the cache's and a part's lines are read or refused, never trusted.
        _ = MarkdownTablePadding.pad(text)
        _ = BuildCache.parse(Array(text.utf8))
        _ = PartRecord(text: text)
        // Signed as nestegg signs its records, so that the reader gets past the signature.
        let body = PartRecord.format + "\n" + text.replacingOccurrences(of: "\n", with: " ") + "\n"
        _ = PartRecord(text: RecordFile.signed(body))
        _ = BuildCache.parse(Array(RecordFile.signed(body.replacingOccurrences(of: PartRecord.format, with: BuildCache.format)).utf8))
        // The cache's three lines, each the text, so that every line's decoder reads it.
        let line = text.replacingOccurrences(of: "\n", with: " ")
        _ = BuildCache.parse(Array(RecordFile.signed(BuildCache.format + "\n" + [line, line, line].joined(separator: "\n") + "\n").utf8))
        _ = Escape.value(text, at: .url)
        _ = Escape.value(text, at: .htmlText)
        _ = Escape.value(text, at: .htmlAttribute)
    }

    /// A census file's body, signed as nestegg signs it (so the reader goes past the signature, as
    /// with a hand-made file): read for two accounts, its rows too; what it reads, written again,
    /// reads as itself, and a share's site-wide pages are worked out and rendered from its figures,
    /// as a build does.
    static let censusAccounts = [
        StarlingAccount(uid: "a1", type: "PRIMARY", currency: .gbp, name: "Main"),
        StarlingAccount(uid: "a2", type: "ADDITIONAL", currency: Currency(code: "JPY")!, name: "Yen"),
    ]
    static func census(_ bytes: [UInt8]) {
        var body = String(decoding: bytes, as: UTF8.self)
        if !body.hasSuffix("\n") { body += "\n" }
        let text = RecordFile.signed(body)
        let byUID = Dictionary(uniqueKeysWithValues: censusAccounts.map { ($0.uid, $0) })
        // Any line as a share's run decodes a row: no trap.
        let decoder = JSONDecoder()
        for line in body.utf8.split(separator: UInt8(ascii: "\n")).prefix(1_000) {
            guard let row = try? decoder.decode(SpendingItem.StarlingRow.self, from: Data(line)) else { continue }
            _ = SpendingItem(row: row, accountName: "Main", category: SpendingCategory(key: row.category, name: row.categoryName))
        }
        guard case .success(let record) = CensusRecord.read(text, accounts: byUID) else { return }
        // Its rows as a share reads them, from where they start: any rows, no trap.
        let run = CensusRun(path: "fuzz.census", run: record.run, rows: record.rows, totals: record.totals,
                            accountNames: Dictionary(uniqueKeysWithValues: censusAccounts.map { ($0.uid, $0.name) }), text: text)
        while run.next() != nil {}
        // What it read, with its rows where they all decode, written again reads as itself.
        let lines = RecordFile.Lines(text: text, from: record.run.mark)
        var rows: [SpendingItem.StarlingRow]? = []
        while let line = lines.next(), RecordFile.signature(line) == nil {
            guard let row = try? decoder.decode(SpendingItem.StarlingRow.self, from: Data(line.utf8)) else { rows = nil; break }
            rows?.append(row)
        }
        if let rows {
            let written = record.text(rows: rows)
            guard case .success(let reread) = CensusRecord.read(written, accounts: byUID), reread.text(rows: rows) == written else {
                fatalError("a census read back does not read as itself")
            }
        }
        var dataset = Dataset(settings: Settings())
        var elsewhere: [String: AccountFigures] = [:]
        for entry in record.accounts where elsewhere[entry.account.uid] == nil {
            guard var figures = entry.figures else { continue }
            figures.latest = entry.known.latest
            dataset.accounts.append(AccountData(account: entry.account, feed: [], balance: nil, savingsGoals: [], holderName: nil))
            elsewhere[entry.account.uid] = figures
        }
        // The rows of the transactions lists are the census's run, which a share fills them from (not here).
        let site = SiteReport.build(dataset, figures: elsewhere, elsewhere: Set(elsewhere.keys), rows: .runs(record.totals))
        let renderer = PageRenderer(templates: templates, site: site)
        for page in site.pages.prefix(200) where !page.template.isEmpty && page.template != "transactions-list" { _ = try? renderer.render(page) }
    }

    /// File names from the input (split at line feeds; `/`, NUL and leading dots dropped, up to 255
    /// bytes), among 700 of every length, in a folder that ``DataFolder`` and the site writer's
    /// listing read: each must list every name exactly. Enough entries that `readdir`'s buffer
    /// fills, so a record read past its end (copying a whole `dirent`) is an address sanitizer report.
    static let namesFolder = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-fuzz-names-\(getpid())")
    static func folder(_ bytes: [UInt8]) {
        var names = Set((0..<700).map { "n\($0)-" + String(repeating: "x", count: $0 % 240) })
        for part in bytes.split(separator: UInt8(ascii: "\n")).prefix(50) {
            var name = Array(part.filter { $0 != UInt8(ascii: "/") && $0 != 0 }.drop { $0 == UInt8(ascii: ".") }.prefix(200))
            // A name is what the file system keeps: its bytes, read back as UTF-8 (invalid bytes replaced).
            while !name.isEmpty, String(decoding: name, as: UTF8.self).utf8.count > 255 { name.removeLast() }
            let text = String(decoding: name, as: UTF8.self)
            if !text.isEmpty, Array(text.utf8) == name { names.insert(text) }
        }
        try? FileManager.default.removeItem(at: namesFolder)
        try? FileManager.default.createDirectory(at: namesFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: namesFolder) }
        // The names the folder holds: a name the file system refuses is not a listing's to give back.
        names = names.filter { FileManager.default.createFile(atPath: namesFolder.path + "/" + $0, contents: Data()) }
        guard let listed = try? DataFolder(root: namesFolder) else { fatalError("the folder cannot be listed") }
        guard Set(listed.files) == names, listed.files.count == names.count else { fatalError("DataFolder lists other names than the folder holds") }
        guard Set(SiteWriter.listFiles(under: namesFolder)) == names else { fatalError("the site writer lists other names than the folder holds") }
    }

    /// Rich text from data (a Qapital feed message) to Markdown, through cmark-gfm.
    static func richText(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = CMark.html(from: RichText.markdown(fromHTML: text))
        _ = SanitizedText.decodeEntities(text)
    }

    static func split(_ bytes: [UInt8], separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0, index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<index + separator.count].elementsEqual(separator) {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }
}
