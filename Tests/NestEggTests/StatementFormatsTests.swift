import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggWrite

/// A statement's CSV and camt.053 (``StatementFormats``): data stays text in both (property tests
/// over ``PropertyStrings``, read back by decoders written here from the formats' rules), the CSV's
/// rows add up to the statement, and the files are part of the statement (manifest, verify, link).
/// `Tests/formats/test_camt.py` checks every built file against the official XSD with lxml.
@Suite struct StatementFormatsTests {
    static let strings: [String] = PropertyStrings.make(count: 20_000)

    // MARK: XML

    /// What an XML 1.0 parser reads from escaped text: references decoded; nothing else may hold
    /// `<`, `&` (but a reference's), a quote, or a character XML forbids. `nil`: not well-formed.
    static func xmlDecoded(_ escaped: String) -> String? {
        var out = "", scalars = Array(escaped.unicodeScalars)[...]
        let names = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<", "\"", "'", "\t", "\n", "\r": return nil  // raw: markup, or normalised by a parser in an attribute
            case "&":
                guard let end = scalars.firstIndex(of: ";") else { return nil }
                let name = String(String.UnicodeScalarView(scalars[..<end]))
                scalars = scalars[scalars.index(after: end)...]
                if let named = names[name] {
                    out += named
                } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let decoded = Unicode.Scalar(value) {
                    out.unicodeScalars.append(decoded)
                } else {
                    return nil
                }
            default:
                let value = scalar.value
                guard value >= 0x20, value != 0xFFFE, value != 0xFFFF else { return nil }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The oracle: the string without what XML 1.0's `Char` production leaves out.
    static func xmlAllowed(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
            let v = scalar.value
            if Oracle.isBidiControl(scalar) { return false }
            return v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
        }))
    }

    @Test func everyStringIsTextInXMLContentAndAttributes() {
        var failures: [String] = []
        for value in Self.strings + ["\u{0}\u{1}\u{B}\u{C}\u{1F}\u{FFFE}\u{FFFF}", "]]>", "&amp;", "<a href='x'>", "\r\n"] {
            let escaped = XMLText.escaped(value)
            if Self.xmlDecoded(escaped) != Self.xmlAllowed(value) { failures.append(value.debugDescription) }
            if failures.count >= 12 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func limitedTextsKeepToTheSchemasLengthsAndNeverSplitACharacter() {
        for value in Self.strings + [String(repeating: "👩‍👩‍👧", count: 20), String(repeating: "é", count: 200)] {
            for maximum in [4, 35, 140] {
                guard let limited = XMLText.limited(value, to: maximum) else {
                    #expect(Self.xmlAllowed(value).isEmpty || Self.xmlAllowed(value).first!.unicodeScalars.count > maximum, "\(value.debugDescription)")
                    continue
                }
                #expect(limited.unicodeScalars.count <= maximum && limited.unicodeScalars.count >= 1)
                #expect(Self.xmlAllowed(value).hasPrefix(limited), "\(value.debugDescription) → \(limited.debugDescription)")
            }
            let pieces = XMLText.pieces(value, of: 35)
            #expect(pieces.joined() == Self.xmlAllowed(value) && pieces.allSatisfy { (1...35).contains($0.unicodeScalars.count) || $0.count == 1 })
        }
    }

    // MARK: CSV

    /// An RFC 4180 reader of one record's line (no line ends outside quotes); `nil` when not well-formed.
    static func csvCells(_ line: String) -> [String]? {
        var cells: [String] = [], cell = "", quoted = false, wasQuoted = false
        var scalars = Array(line.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { scalars.removeFirst(); cell += "\"" } else { quoted = false }
                } else {
                    cell.unicodeScalars.append(scalar)
                }
            } else if scalar == "," {
                cells.append(cell); cell = ""; wasQuoted = false
            } else if scalar == "\"" {
                guard cell.isEmpty, !wasQuoted else { return nil }
                quoted = true; wasQuoted = true
            } else if scalar == "\r" || scalar == "\n" {
                return nil
            } else {
                guard !wasQuoted else { return nil }
                cell.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { return nil }
        return cells + [cell]
    }

    @Test func everyStringIsOneGuardedCell() {
        var failures: [String] = []
        for value in Self.strings + ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\t=x", "\r=x", "\u{202E}=1+1", "\u{2066}@cmd", "=HYPERLINK(\"http://x\",\"y\")", "a,\"b\"\r\nc",
                                  "-£3.20", "+US$1,234.56", "-12%", "-1,2", "-£", "-1.", "-1e5", "-1+1", "-(1)", "-£1 ", "+HK$2"] {
            let line = "1.00," + CSVCell.text(value) + ",-2.50"
            let cells = Self.csvCells(line)
            // Bidirectional controls go first (README, "Safety"); then the OWASP guard.
            let shown = String(String.UnicodeScalarView(value.unicodeScalars.filter { !Oracle.isBidiControl($0) }))
            let starts = shown.unicodeScalars.first.map { CSVCell.formulaStarts.contains($0) } ?? false
            // Text however much it looks like an amount (`-£3.20`): amounts are never text cells. A
            // signed number with nothing else (`-12%`, `-1,2`) holds no formula and is left as it is.
            let signedNumber = shown.wholeMatch(of: /[+-][0-9]+([.,][0-9]+)*%?/) != nil
            let expected = starts && !signedNumber ? "'" + shown : shown
            if cells != ["1.00", expected, "-2.50"] { failures.append("\(value.debugDescription) → \(line.debugDescription)") }
            if let cell = cells?[1], let first = cell.unicodeScalars.first, CSVCell.formulaStarts.contains(first), !signedNumber {
                failures.append("formula-like: \(cell.debugDescription)")
            }
            if failures.count >= 12 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    // MARK: A statement

    func fixtureStatements() throws -> [StatementData] {
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        let context = ReportContext(settings: dataset.settings)
        let pages = StatementsReport.pages(for: dataset, context: context)
        return pages.compactMap { $0.statementData?() }
    }

    @Test func csvRowsSumToTheStatementsMoneyInAndOut() throws {
        let statements = try fixtureStatements()
        #expect(statements.count == 17)
        for data in statements {
            let lines = StatementCSV.render(data).components(separatedBy: "\r\n")
            #expect(lines.last == "")
            let rows = try lines.dropFirst().dropLast().map { try #require(Self.csvCells($0)) }
            #expect(rows.count == data.entries.count)
            var moneyIn = Money.zero(data.currency), moneyOut = Money.zero(data.currency)
            for row in rows {
                let amount = try Money.parse(decimal: row[4], currency: data.currency)
                if amount.isNegative { moneyOut += -amount } else { moneyIn += amount }
            }
            #expect(moneyIn == data.moneyIn && moneyOut == data.moneyOut, "\(data.month)")
            if let closing = data.closing, let last = rows.last {
                #expect(last[5] == closing.decimalString)
            }
        }
    }

    @Test func camtCarriesTheStatementsBalancesAndOneEntryEachLine() throws {
        let statements = try fixtureStatements()
        let october = try #require(statements.first { "\($0.month)" == "2026-10" && $0.account.name == "Personal" })
        let xml = StatementCamt.render(october)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">"))
        #expect(xml.components(separatedBy: "<Ntry>").count - 1 == october.entries.count)
        #expect(xml.contains("<IBAN>GB03SRLG60837141234567</IBAN>") || xml.contains("<IBAN>GB19SRLG60837147654321</IBAN>"))
        #expect(xml.contains("<Cd>OPBD</Cd>") && xml.contains("<Cd>CLBD</Cd>") && !xml.contains("ITBD"))
        #expect(xml.contains("<LglSeqNb>"))
        // The holder's address (starling/addresses.json) is the owner's PstlAdr, in the XSD's order.
        let owner = xml.components(separatedBy: "<Ownr>").last?.components(separatedBy: "</Ownr>").first ?? ""
        let compact = owner.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(compact == "<Nm>Alex Morgan</Nm><PstlAdr><PstCd>SW9 8QT</PstCd><TwnNm>LONDON</TwnNm><Ctry>GB</Ctry>"
                + "<AdrLine>Flat 2</AdrLine><AdrLine>18 Albemarle Terrace</AdrLine></PstlAdr>", "\(owner)")
        let provisional = try #require(statements.last { $0.isProvisional })
        let interim = StatementCamt.render(provisional)
        #expect(interim.contains("<Cd>ITBD</Cd>") && !interim.contains("CLBD") && !interim.contains("<LglSeqNb>"))
    }

    @Test func familyCodesFollowTheSourceNotTheCategory() {
        #expect(StatementCamt.familyCode(source: "MASTER_CARD", direction: .out)! == ("CCRD", "POSD"))
        #expect(StatementCamt.familyCode(source: "DIRECT_DEBIT", direction: .out)! == ("RDDT", "PMDD"))
        #expect(StatementCamt.familyCode(source: "FASTER_PAYMENTS_IN", direction: .in)! == ("RCDT", "DMCT"))
        #expect(StatementCamt.familyCode(source: "MASTER_CARD", direction: .in) == nil)
        #expect(StatementCamt.familyCode(source: "SOMETHING_NEW", direction: .out) == nil)
    }

    // MARK: Part of the statement

    @Test func theFilesAreListedLinkedAndVerified() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site"), bundles = work.appendingPathComponent("bundles")
        let result = try NestEggBinary.run(["build", "--data", repositoryRoot.appendingPathComponent("Fixtures").path,
                                            "--output", output.path, "--bundles", bundles.path])
        #expect(result.status == 0, "\(result.stderr)")
        let statements = output.appendingPathComponent("statements")
        let manifest = try String(contentsOf: statements.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains(#"{"path": "personal/2026-10.csv", "sha256": ""#))
        #expect(manifest.contains(#"{"path": "personal/2026-10.camt053.xml", "sha256": ""#))
        let page = try String(contentsOf: statements.appendingPathComponent("personal/2026-10.md"), encoding: .utf8)
        #expect(page.contains("Download: [CSV](2026-10.csv) · [camt.053](2026-10.camt053.xml)"), "\(page)")
        let html = try String(contentsOf: statements.appendingPathComponent("personal/2026-10.html"), encoding: .utf8)
        #expect(html.contains(#"<a href="2026-10.csv">CSV</a>"#))
        let bundleManifest = try String(contentsOf: bundles.appendingPathComponent("personal/manifest.json"), encoding: .utf8)
        #expect(bundleManifest.contains(#"{"path": "statements/2026-10.camt053.xml", "sha256": ""#))
        #expect(FileManager.default.fileExists(atPath: bundles.appendingPathComponent("personal/statements/2026-10.csv").path))
        let clean = try NestEggBinary.run(["verify", statements.path])
        #expect(clean.status == 0 && clean.stderr.contains("68 files of 17 statements"), "\(clean.stderr)")
        #expect(try NestEggBinary.run(["verify", bundles.path]).status == 0)

        // One byte changed in each: verify names both.
        for name in ["personal/2026-10.csv", "personal/2026-10.camt053.xml"] {
            let url = statements.appendingPathComponent(name)
            var bytes = try [UInt8](Data(contentsOf: url))
            let index = try #require(bytes.lastIndex(of: UInt8(ascii: "5")) ?? bytes.lastIndex(of: UInt8(ascii: "0")))
            bytes[index] = bytes[index] == UInt8(ascii: "5") ? UInt8(ascii: "6") : UInt8(ascii: "1")
            try Data(bytes).write(to: url)
        }
        let tampered = try NestEggBinary.run(["verify", statements.path])
        #expect(tampered.status == 65)
        #expect(tampered.stderr.contains("\(statements.path)/personal/2026-10.csv: error: differs from the manifest"), "\(tampered.stderr)")
        #expect(tampered.stderr.contains("\(statements.path)/personal/2026-10.camt053.xml: error: differs from the manifest"), "\(tampered.stderr)")
    }
}
