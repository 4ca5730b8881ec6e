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

/// Work spread over the cores keeps a fixed order: results by index, diagnostics by index.
@Suite struct ConcurrencyTests {
    @Test func resultsAndDiagnosticsComeInIndexOrder() {
        let log = DiagnosticLog()
        let results = Concurrently.map(200, log: log) { index, own in
            // Uneven work, so the calls finish out of order.
            if index % 7 == 0 { usleep(200) }
            own.report(Diagnostic(.warning, file: "f\(index).json", message: "first of \(index)"))
            own.report(Diagnostic(.warning, file: "f\(index).json", message: "second of \(index)"))
            return index * index
        }
        #expect(results == (0..<200).map { $0 * $0 })
        #expect(log.diagnostics.map(\.message) == (0..<200).flatMap { ["first of \($0)", "second of \($0)"] })
    }

    @Test func theLoadStageReportsInTheSameOrderEveryTime() throws {
        let data = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        // Problems in several sources at once: each run must list them alike.
        try write("{\"accounts\": [{\"accountUid\": \"a\", \"name\": \"A\", \"currency\": \"GBP\"}]}",
                  to: data.appendingPathComponent("starling/accounts.json"))
        try write("{\"feedItems\": [oops]}", to: data.appendingPathComponent("starling/feed/a.json"))
        try write("[]", to: data.appendingPathComponent("qapital/savingsgoals.json"))
        try write("[", to: data.appendingPathComponent("qapital/feed/3.json"))
        try write("{}", to: data.appendingPathComponent("transfers/users.json"))
        try write("x", to: data.appendingPathComponent("stray.txt"))
        func messages() throws -> [String] {
            let log = DiagnosticLog()
            _ = DataLoader.load(try DataFolder(root: data), log: log)
            return log.diagnostics.map(\.description)
        }
        let first = try messages()
        #expect(first.count >= 4)
        for _ in 0..<5 { #expect(try messages() == first) }
    }
}
