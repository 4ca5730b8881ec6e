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

/// Tests/Samples: every file parses, and its README says what each one mirrors.
@Suite struct SamplesTests {
    /// The JSON files under Tests/Samples, relative to it, sorted.
    static func sampleFiles() -> [String] {
        SiteWriter.listFiles(under: samplesRoot).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everySampleParsesWithoutADiagnostic() throws {
        let files = Self.sampleFiles()
        #expect(files.count == 40)
        for path in files {
            let (_, log) = try sample(path)
            #expect(log.diagnostics.isEmpty, "\(path): \(log.diagnostics)")
        }
    }

    /// The README's tables name exactly the files there are.
    @Test func theReadmeNamesEverySampleAndNoOther() throws {
        let readme = try sampleText("README.md")
        let files = Self.sampleFiles()
        for path in files {
            #expect(readme.contains("`\(path)`"), "Tests/Samples/README.md does not describe \(path)")
        }
        let named = readme.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { $0.hasSuffix(".json") && $0.contains("/") && !$0.contains(" ") }
        #expect(Set(named).subtracting(files).isEmpty, "named but missing: \(Set(named).subtracting(files).sorted())")
        #expect(!readme.contains("../"), "the samples stand alone")
    }
}
