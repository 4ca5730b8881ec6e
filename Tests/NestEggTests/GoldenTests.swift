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

@Suite struct GoldenTests {
    /// Output/ is the site generated from Fixtures/, committed: regenerating it must change nothing.
    @Test func outputIsWhatTheFixturesGenerate() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let generated = work.appendingPathComponent("Output")
        var build = Build(options: BuildOptions(data: repositoryRoot.appendingPathComponent("Fixtures"), output: generated))
        build.progress = { _ in }
        _ = try build.run()
        // PDFs (`make pdf`) and the build cache are not part of the committed site; the "what
        // changed" page depends on the build before (it is there, but its text is not compared).
        let changes: Set<String> = [ChangesReport.path + ".md", ChangesReport.path + ".html"]
        let committed = { (path: String) in !path.hasSuffix(".pdf") && path != BuildCache.fileName && !changes.contains(path) }
        for path in changes {
            #expect(FileManager.default.fileExists(atPath: generated.appendingPathComponent(path).path))
            #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("Output").appendingPathComponent(path).path))
        }
        let expected = snapshot(repositoryRoot.appendingPathComponent("Output")).filter { committed($0.key) }
        let actual = snapshot(generated).filter { committed($0.key) }
        #expect(Set(actual.keys) == Set(expected.keys), "run `make site` and commit Output/")
        for (path, bytes) in actual.sorted(by: { $0.key < $1.key }) where expected[path] != bytes {
            Issue.record("Output/\(path) differs from what Fixtures/ generate: run `make site` and commit Output/")
        }
    }

    /// The templates built into the binary are the ones in Templates/.
    @Test func builtInTemplatesMatchTheTemplatesFolder() throws {
        let folder = repositoryRoot.appendingPathComponent("Templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names == DefaultTemplates.files.keys.sorted())
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(DefaultTemplates.files[name] == text, "run `make templates`: \(name) differs")
        }
    }
}
