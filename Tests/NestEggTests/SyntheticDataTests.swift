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

@Suite struct SyntheticDataTests {
    @Test func theSameSeedGivesTheSameFilesAndTheDataIsValid() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let first = work.appendingPathComponent("a"), second = work.appendingPathComponent("b")
        let summary = try SyntheticData(scale: 1, seed: 7).write(to: first)
        _ = try SyntheticData(scale: 1, seed: 7).write(to: second)
        #expect(summary.starlingTransactions == 10_000)
        #expect(snapshot(first) == snapshot(second))

        // Every file is in a shape the loaders read, with nothing to warn about.
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: first), log: log)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics.prefix(5))")
        #expect(dataset.accounts.count == 10)
        #expect(dataset.kiva.loans.count == 1_000)
        #expect(dataset.transfers.transfers.count == 1_000)
    }

    @Test func anotherSeedGivesOtherData() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let path = "transfers/transfers.json"
        _ = try SyntheticData(scale: 1, seed: 1).write(to: work.appendingPathComponent("a"))
        _ = try SyntheticData(scale: 1, seed: 2).write(to: work.appendingPathComponent("b"))
        let a = FileManager.default.contents(atPath: work.appendingPathComponent("a/" + path).path)
        let b = FileManager.default.contents(atPath: work.appendingPathComponent("b/" + path).path)
        #expect(a != nil && a != b)
    }
}
