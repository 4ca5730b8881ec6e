import Foundation
import Testing
@testable import NestEggSupport
@testable import NestEggWrite

/// A writer that keeps the swapped-out site as its spare and stages the next build into it: the
/// output is always exactly what the build wrote, and the live site is never written through the
/// files it shares with the spare.
@Suite struct SiteWriterSpareTests {
    /// Writes `files` as one build (with a spare), and gives the output's files and texts.
    @discardableResult
    func build(_ files: [String: String], into output: URL) throws -> [String: String] {
        let writer = try SiteWriter(output: output, keepsSpare: true)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { try writer.write(text, to: path) }
        _ = try writer.commit().finished()
        return try contents(of: output)
    }

    func contents(of folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for path in SiteWriter.listFiles(under: folder) where path != SiteWriter.marker {
            files[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    func inode(_ url: URL) -> UInt64? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    /// Every folder under `root` (relative), for the empty ones a clean build would not have.
    func folders(under root: URL) -> [String] {
        (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder) && isFolder.boolValue
        }.sorted()
    }

    @Test func eachBuildLeavesExactlyItsOwnFilesAndKeepsUnchangedOnesInPlace() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let spare = StateFolder.spare(of: output)
        let first = ["a.md": "same", "b/c.md": "one", "gone/d.md": "removed next", "e/f/g.md": "deep"]
        #expect(try build(first, into: output) == first)
        #expect(!FileManager.default.fileExists(atPath: spare.path), "the first build had no site to keep")
        let second = ["a.md": "same", "b/c.md": "two", "e/f/g.md": "deep", "h.md": "new"]
        #expect(try build(second, into: output) == second)
        #expect(try contents(of: spare) == first, "the spare is the site swapped out")
        let kept = inode(output.appendingPathComponent("a.md"))
        // Staged into the spare: the first build's site, with its own files and folders.
        let third = ["a.md": "same", "b/c.md": "three", "h.md": "new", "i/j.md": "newer"]
        #expect(try build(third, into: output) == third)
        #expect(inode(output.appendingPathComponent("a.md")) == kept, "an unchanged file is the same file through every build")
        #expect(folders(under: output) == ["b", "i"], "no folder is left of the pages that went (gone/, e/f/)")
        #expect(try contents(of: spare) == second)
        // Nothing at all changed: every file stays, and the spare is the same site again.
        #expect(try build(third, into: output) == third)
        #expect(try build(["a.md": "same"], into: output) == ["a.md": "same"])
        #expect(folders(under: output).isEmpty)
        // Only this output's own spare, in its folder of state, and nothing else, beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == [".site.nestegg", "site"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: StateFolder.of(output).path) == ["spare"])
    }

    @Test func theLiveSiteIsNeverWrittenThroughTheFilesItSharesWithTheSpare() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let files = ["a.md": "live a", "b/c.md": "live c", "b/d.pdf": "live pdf"]
        try build(files, into: output)
        try build(files, into: output)
        // The spare's files are now the live site's, linked: a new build stages into them.
        let writer = try SiteWriter(output: output, keepsSpare: true)
        try writer.write("changed a", to: "a.md")
        try Data("printed again".utf8).write(to: writer.stagedURL(forNew: "b/d.pdf"))
        writer.adopt("b/d.pdf")
        #expect(try contents(of: output) == files, "before the swap, the live site is as it was")
        writer.discard()
        #expect(try contents(of: output) == files, "a discarded build leaves the live site whole")
        #expect(try build(["a.md": "changed a", "b/c.md": "live c"], into: output) == ["a.md": "changed a", "b/c.md": "live c"])
    }

    @Test func aSpareThatIsALinkOrHoldsLinksIsNeverFollowed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let spare = StateFolder.spare(of: output)
        let yours = work.appendingPathComponent("yours")
        try FileManager.default.createDirectory(at: yours, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: yours.appendingPathComponent("b"))
        let files = ["a.md": "a", "b/c.md": "c"]
        try build(files, into: output)
        // The spare's name is a link to a folder of yours.
        try FileManager.default.createDirectory(at: StateFolder.of(output), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: spare, withDestinationURL: yours)
        #expect(try build(files, into: output) == files)
        #expect(try contents(of: yours) == ["b": "keep me"])
        // A link inside the spare, where a page's folder goes, to the same folder.
        try build(files, into: output)
        try FileManager.default.removeItem(at: spare.appendingPathComponent("b"))
        try FileManager.default.createSymbolicLink(at: spare.appendingPathComponent("b"), withDestinationURL: yours)
        #expect(try build(files, into: output) == files)
        #expect(try contents(of: yours) == ["b": "keep me"])
    }

    @Test func aFileWhereAFolderGoesAndAFolderWhereAFileGoes() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let before = ["x": "a file", "y/z.md": "in a folder"]
        try build(before, into: output)
        try build(before, into: output)
        // Staged into the first site: `x` is a file there and `y` a folder.
        let after = ["x/a.md": "now a folder", "y": "now a file"]
        #expect(try build(after, into: output) == after)
        #expect(try build(before, into: output) == before)
    }

    /// A name this build made a folder of is its own: a page written at it is refused (as in a new
    /// staging folder), not the folder of the spare's removed with the page already written in it.
    @Test func aFolderThisBuildMadeIsNeverTakenForTheSpares() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let files = ["a/b.md": "b", "c.md": "c"]
        try build(files, into: output)
        try build(files, into: output)
        let writer = try SiteWriter(output: output, keepsSpare: true)
        try writer.write("b again", to: "a/b.md")
        #expect(throws: SiteWriter.WriteError.self) { try writer.write("a file where this build's folder is", to: "a") }
        #expect(try String(contentsOf: writer.stagedURL("a/b.md"), encoding: .utf8) == "b again")
        writer.discard()
        #expect(try contents(of: output) == files)
    }

    @Test func aSpareBesideAnEmptyOutputIsRemovedNotWrittenOver() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let spare = StateFolder.spare(of: output)
        try build(["a.md": "a"], into: output)
        try build(["a.md": "b"], into: output)
        try FileManager.default.removeItem(at: output)
        #expect(try build(["c.md": "c"], into: output) == ["c.md": "c"])
        #expect(!FileManager.default.fileExists(atPath: spare.path), "the stale spare went; this build swapped out no site")
        // A writer without a spare (a merge, the bundles) removes the site it swaps out, as before.
        let plain = try SiteWriter(output: output)
        try plain.write("d", to: "d.md")
        _ = try plain.commit().finished()
        #expect(!FileManager.default.fileExists(atPath: spare.path))
    }
}
