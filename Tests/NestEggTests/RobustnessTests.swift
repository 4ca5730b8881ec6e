import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

/// Issue 13's rules, one unit at a time: arithmetic on data never traps, templates never recurse
/// without bound, diagnostics cost what the input costs, Chromium dies with nestegg.
@Suite struct RobustnessTests {
    // MARK: Arithmetic

    @Test func sumsOfManyLargestAmountsAreExact() {
        var totals = MoneyTotals()
        var running = Money.zero(.gbp)
        let largest = Money(minorUnits: Money.maximumMinorUnits, currency: .gbp)
        // What ten million amounts at the loaders' limit add up to (10¹⁹, past Int64.max, 9.2 × 10¹⁸),
        // reached in fewer steps: sums far beyond Int64 stay exact.
        let tenMillionLargest = Money(minorUnits: 10_000_000 * Money.maximumMinorUnits, currency: .gbp)
        for _ in 0..<1_000 { totals.add(tenMillionLargest) }
        for _ in 0..<10_000 { running += largest }
        #expect(totals[.gbp].minorUnits == Int128(10_000_000_000) * Money.maximumMinorUnits)
        #expect(running.minorUnits == 10_000 * Money.maximumMinorUnits)
        #expect(SiteLocale.enGB.format(totals[.gbp]) == "£100,000,000,000,000,000,000.00")
        #expect(ReportContext.percent(totals[.gbp].minorUnits, of: largest.minorUnits) == 1_000_000_000_000)
    }

    @Test func decimalsWithAnyExponentAreAnErrorNotATrap() throws {
        for text in ["1e9223372036854775807", "1e-9223372036854775808", "1e99999999999999999999", "1e100", "1E+100", "5e-100"] {
            #expect(throws: Money.ParseError.exponentOutOfRange, "\(text)") { try Money.parse(decimal: text, currency: .gbp) }
        }
        #expect(throws: Money.ParseError.outOfRange) { try Money.parse(decimal: "1e20", currency: .gbp) }
        #expect(throws: Money.ParseError.outOfRange) { try Money.parse(decimal: String(repeating: "9", count: 60), currency: .gbp) }
        #expect(try Money.parse(decimal: "0e99", currency: .gbp).minorUnits == 0)
        #expect(try Money.parse(decimal: "1.5e2", currency: .gbp).minorUnits == 15_000)
    }

    @Test func datesOutsideTheYearsOneTo9999AreRefused() {
        #expect(CivilDate(year: Int.max, month: 1, day: 1) == nil)
        #expect(CivilDate(year: 0, month: 1, day: 1) == nil)
        #expect(CivilDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(CivilDate(year: 9999, month: 12, day: 31) != nil)
    }

    @Test func perMillionFiguresHoldForAnyPopulation() {
        #expect(KivaSupport.perMillion(loans: Int.max, population: Int.max, locale: .enGB) != nil)
        #expect(KivaSupport.perMillion(loans: 1, population: Int.max, locale: .enGB) == "<0.01")
        #expect(KivaSupport.perMillion(loans: 3, population: 1_000_000, locale: .enGB) == "3.00")
    }

    // MARK: Folders

    /// A folder's entries are read in place (``FolderEntries``): every name of every length, in
    /// any script, comes back as it was written, with its type. (Reading a whole `dirent` past a
    /// short record crashed `nestegg census` now and then; `make fuzz`'s `folder` target, under the
    /// address sanitizer, is what catches an over-read: here the names and types are checked.)
    @Test func folderEntriesGiveEveryNameAndTypeAsWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var names = Set((1...255).map { String(repeating: "a", count: $0) })
        names.formUnion(["Zürich €.json", "日本語のファイル", "a b\tc", String(repeating: "é", count: 127)])
        for name in names { #expect(FileManager.default.createFile(atPath: folder.path + "/" + name, contents: Data())) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: false)
        let entries = try #require(FolderEntries.read(folder.path))
        #expect(Set(entries.map(\.name)) == names.union([".", "..", "sub"]))
        #expect(entries.count == names.count + 3)
        // (A file system may not say: DT_UNKNOWN.)
        #expect(entries.filter { !names.contains($0.name) }.allSatisfy { $0.type == UInt8(DT_DIR) || $0.type == UInt8(DT_UNKNOWN) })
        #expect(entries.filter { names.contains($0.name) }.allSatisfy { $0.type == UInt8(DT_REG) || $0.type == UInt8(DT_UNKNOWN) })
        #expect(try DataFolder(root: folder).files == names.sorted())
        #expect(Set(SiteWriter.listFiles(under: folder)) == names)
        #expect(FolderEntries.read(folder.path + "/none") == nil)
    }

    // MARK: Templates

    @Test func deeplyNestedSectionsAreATemplateErrorNotAStackOverflow() {
        let deep = String(repeating: "{{#a}}", count: 10_000) + String(repeating: "{{/a}}", count: 10_000)
        #expect(throws: Template.ParseError.self) { try Template(deep, kind: .markdown) }
        do {
            _ = try Template(deep, kind: .markdown)
        } catch {
            #expect(error.message == "sections nested deeper than \(Template.maximumDepth) levels")
            #expect(error.line == 1 && error.column == 6 * Template.maximumDepth + 1)
        }
        let limit = String(repeating: "{{#a}}", count: Template.maximumDepth) + "x" + String(repeating: "{{/a}}", count: Template.maximumDepth)
        #expect((try? Template(limit, kind: .markdown)) != nil)
    }

    @Test func nestingThroughPartialsCountsTooAndFailsTheBuildWithExit78() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        // pager-top.md is a partial of every paged list; sections inside it add to its includers'.
        let sections = String(repeating: "{{#a}}", count: Template.maximumDepth) + String(repeating: "{{/a}}", count: Template.maximumDepth)
        try write(sections, to: work.appendingPathComponent("templates/pager-top.md.mustache"))
        #expect(throws: TemplateLibrary.LoadError.self) { try TemplateLibrary(overrides: work.appendingPathComponent("templates")) }
        let result = try NestEggBinary.run(["build", "--data", repositoryRoot.appendingPathComponent("Fixtures").path,
                                            "--output", work.appendingPathComponent("site").path,
                                            "--templates", work.appendingPathComponent("templates").path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("levels deep with the partials it includes"), "\(result.stderr)")
    }

    // MARK: Diagnostics

    @Test func aFileShowsItsFirstHundredDiagnosticsAndCountsTheRest() {
        let log = DiagnosticLog()
        for index in 0..<250 { log.report(Diagnostic(index % 2 == 0 ? .error : .warning, file: "a.json", message: "\(index)")) }
        log.report(Diagnostic(.error, file: "b.json", message: "other file"))
        #expect(log.diagnostics.count == 103)
        let errors = log.diagnostics[100], warnings = log.diagnostics[101]
        #expect(errors.severity == .error && errors.count == 75)
        #expect(errors.message == "… and 75 more errors in this file, not shown (the first 100 are)")
        #expect(warnings.severity == .warning && warnings.count == 75)
        #expect(DiagnosticLog.tally(log.diagnostics) == (126, 125))
        #expect(log.diagnostics[102].file == "b.json")
    }

    @Test func placesAndPathsAreTheSameFoundFromAnywhere() throws {
        let json = "[\n" + (0..<500).map { "  {\"a\": [1, \"x\", {\"b\": \($0)}]}" }.joined(separator: ",\n") + "\n]"
        let (parsed, log) = document(json)
        let doc = try #require(parsed)
        guard case .array(let elements) = doc.root.kind else { Issue.record("not an array"); return }
        // Out of order on purpose: the cursor must go back as well as forward.
        for index in [499, 3, 250, 0, 498] {
            guard case .object(let members) = elements[index].kind, case .array(let inner) = members[0].value.kind else { continue }
            doc.report(.error, at: inner[2], "here")
            let placed = try #require(log.diagnostics.last)
            #expect(placed.line == index + 2 && placed.column == 18, "\(placed)")
            #expect(placed.path == "$[\(index)].a[2]")
        }
    }

    // MARK: Chromium dies with nestegg

    @Test func chromiumStartedForPDFsDiesWhenNestEggIsStopped() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let pidFile = work.appendingPathComponent("chromium.pid")
        let fake = work.appendingPathComponent("chromium")
        try write("#!/bin/sh\necho $$ > \(pidFile.path)\nexec sleep 60\n", to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        // A profile a killed nestegg left behind: removed by the next printing build.
        let temporary = work.appendingPathComponent("tmp")
        let abandoned = temporary.appendingPathComponent("\(PDFPrinter.profilePrefix)1-left")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: true)
        let binary = try #require(NestEggBinary.url)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["build", "-q", "--pdf", "--chromium", fake.path, "--data", repositoryRoot.appendingPathComponent("Fixtures").path,
                             "--output", work.appendingPathComponent("site").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        var chromium: pid_t?
        for _ in 0..<200 where chromium == nil {
            Thread.sleep(forTimeInterval: 0.05)
            chromium = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let pid = try #require(chromium, "the fake Chromium never started")
        #expect(kill(pid, 0) == 0)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        // Gone, or a zombie waiting for its new parent to reap it: either way no longer running.
        func running(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
        }
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !running(pid)
            if !gone { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(gone, "Chromium outlived nestegg")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("site").path))
    }
}
