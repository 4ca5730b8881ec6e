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

@Suite struct PDFPrinterTests {
    @Test func findsChromiumOnTheSearchPathOrByItsGivenPath() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let bin = work.appendingPathComponent("bin")
        let fake = bin.appendingPathComponent("chromium-browser")
        try write("#!/bin/sh\n", to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        #expect(try PDFPrinter.locate(explicit: nil, searchPath: "/nonexistent:\(bin.path)").chromium.path == fake.path)
        #expect(try PDFPrinter.locate(explicit: fake.path, searchPath: nil).chromium.path == fake.path)
        #expect(throws: PDFPrinter.NotFound.self) { try PDFPrinter.locate(explicit: nil, searchPath: "/nonexistent") }
        // A folder, or a file that is not executable, is not Chromium.
        #expect(throws: PDFPrinter.NotFound.self) { try PDFPrinter.locate(explicit: bin.path, searchPath: nil) }
        let plain = work.appendingPathComponent("plain")
        try write("text", to: plain)
        #expect(throws: PDFPrinter.NotFound.self) { try PDFPrinter.locate(explicit: plain.path, searchPath: bin.path) }
    }

    @Test func aChromiumThatWritesNothingIsAnError() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let fake = work.appendingPathComponent("chromium")
        try write("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n", to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let page = work.appendingPathComponent("page.html")
        try write("<p>x</p>", to: page)
        do {
            try PDFPrinter(chromium: fake).print(page, to: work.appendingPathComponent("page.pdf"), page: "statements/a/2026-10")
            Issue.record("expected an error")
        } catch {
            #expect(error.page == "statements/a/2026-10")
            #expect(error.reason.contains("exited with status 3"), "\(error.reason)")
            #expect(error.reason.contains("cannot open display"), "\(error.reason)")
        }
    }
}
