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

/// The write stage on its own: staged, all or nothing, unchanged files kept, never a write
/// through to the old output.
@Suite struct SiteWriterTests {
    func site(_ files: [String: String], into output: URL) throws {
        let writer = try SiteWriter(output: output)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { try writer.write(text, to: path) }
        _ = try writer.commit().finished()
    }

    @Test func unchangedFilesKeepTheirCopyAndChangedOnesAreCounted() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        try site(["a.md": "same", "b/c.md": "old"], into: output)
        let before = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("a.md").path)
        let inode = before[.systemFileNumber] as? Int
        let writer = try SiteWriter(output: output)
        try writer.write("same", to: "a.md")
        try writer.write("new", to: "b/c.md")
        let summary = try writer.commit().finished()
        #expect(summary.files == 2 && summary.changed == 1 && summary.removed == 0)
        let after = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("a.md").path)
        #expect(after[.systemFileNumber] as? Int == inode, "the unchanged file is the old one, linked")
        #expect(try String(contentsOf: output.appendingPathComponent("b/c.md"), encoding: .utf8) == "new")
    }

    /// The stamps the writer records as it writes (from the open file) are the disk's, for new,
    /// changed, kept, reused (linked without reading) and adopted files alike, into an empty
    /// output and over an earlier one.
    @Test func theRecordedStampsAreTheDisksOwn() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        var last: [String: FileStamp] = [:]
        for round in 0..<2 {
            let writer = try SiteWriter(output: output)
            try writer.write("same", to: "a.md")
            try writer.write("changed \(round)", to: "b/c.md")
            try "printed \(round)".write(to: writer.stagedURL("b/d.pdf"), atomically: false, encoding: .utf8)
            writer.adopt("b/d.pdf")
            if round == 0 {
                try writer.write("kept by its page", to: "e/f.md")
            } else {
                #expect(writer.reuse(["e/f.md"], expected: last))
            }
            let stamps = writer.stamps()
            #expect(stamps.keys.sorted() == ["a.md", "b/c.md", "b/d.pdf", "e/f.md"])
            for (path, stamp) in stamps {
                #expect(stamp == FileStamp(path: writer.stagedURL(path).path), "round \(round): \(path)")
            }
            last = stamps
            _ = try writer.commit().finished()
        }
    }

    /// The previous site goes whole after the swap, by `readdir`'s types on every core: nested
    /// folders, links to a file and to a folder (removed, not followed: what they point to stays)
    /// and a folder its owner may not write (the slower way, as before). A link in the place of
    /// the folder itself (a leftover's name pointing at a folder of yours) goes as a link.
    @Test func thePreviousSiteIsRemovedWholeAndNothingOutsideIt() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let outside = work.appendingPathComponent("outside.txt")
        try "mine".write(to: outside, atomically: false, encoding: .utf8)
        let yours = work.appendingPathComponent("yours")
        try FileManager.default.createDirectory(at: yours.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try "kept".write(to: yours.appendingPathComponent("deep/file.md"), atomically: false, encoding: .utf8)
        func yoursIsWhole() throws -> Bool {
            try String(contentsOf: yours.appendingPathComponent("deep/file.md"), encoding: .utf8) == "kept"
        }
        for locked in [false, true] {
            let tree = work.appendingPathComponent("old")
            for folder in ["a/b/c", "d", "e/f"] {
                try FileManager.default.createDirectory(at: tree.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            for file in ["x.md", "a/y.md", "a/b/z.md", "a/b/c/w.md", "d/v.md", "e/f/u.md"] {
                try file.write(to: tree.appendingPathComponent(file), atomically: false, encoding: .utf8)
            }
            try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("d/link"), withDestinationURL: outside)
            try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("e/folder-link"), withDestinationURL: yours)
            if locked { chmod(tree.appendingPathComponent("a/b").path, 0o500) }
            // (As root, the locked folder is no obstacle: the quick way takes it too.)
            #expect(locked ? Ownership.removeTree(tree.path) : Ownership.removeFolder(tree.path), "locked: \(locked)")
            #expect(!FileManager.default.fileExists(atPath: tree.path))
            #expect(try String(contentsOf: outside, encoding: .utf8) == "mine")
            #expect(try yoursIsWhole())
        }
        let link = work.appendingPathComponent("leftover")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: yours)
        #expect(!Ownership.removeFolder(link.path))
        #expect(Ownership.removeTree(link.path))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "the link is gone")
        #expect(try yoursIsWhole())
    }

    /// A path is read as the file system reads it, in bytes: `..`, an empty component or a
    /// leading `/` is refused also where a combining mark follows the `/` (one Character with it).
    @Test func pathsOutsideTheSiteAreRefusedByteForByte() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let writer = try SiteWriter(output: work.appendingPathComponent("site"))
        for path in ["../\u{301}x.md", "a/../\u{301}/x.md", "/\u{301}x.md", "a//\u{301}x.md", "..", "../x.md", "a/../../x.md", "/x.md", ""] {
            #expect(throws: SiteWriter.WriteError.self, "\(path.unicodeScalars.map { String($0.value, radix: 16) })") { try writer.write("x", to: path) }
        }
        try writer.write("fine", to: "a/\u{301}x.md")
        writer.discard()
        // Beside the staging folder, where `../\u{301}x.md` would have landed: nothing.
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("\u{301}x.md").path))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("x.md").path))
    }

    @Test func aSecondWriteToOnePathIsRefusedAndTheOldOutputStaysWhole() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        try site(["page.md": "kept"], into: output)
        let writer = try SiteWriter(output: output)
        try writer.write("kept", to: "page.md")   // linked to the old output's file
        #expect(throws: SiteWriter.WriteError.self) { try writer.write("changed", to: "page.md") }
        writer.discard()
        #expect(try String(contentsOf: output.appendingPathComponent("page.md"), encoding: .utf8) == "kept")
    }

    @Test func pagesWrittenFromManyThreadsAreAllThere() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("site")
        let writer = try SiteWriter(output: output)
        let failures = Slots<Bool>(count: 400)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            failures[index] = (try? writer.write("page \(index)\n", to: "f\(index % 7)/p\(index).md")) == nil
        }
        #expect(!failures.values.contains(true))
        let summary = try writer.commit().finished()
        #expect(summary.files == 400 && summary.changed == 400)
        #expect(try String(contentsOf: output.appendingPathComponent("f3/p10.md"), encoding: .utf8) == "page 10\n")
    }
}
