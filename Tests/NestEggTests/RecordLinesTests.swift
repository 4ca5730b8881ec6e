import Foundation
import Testing
@testable import NestEggSupport
@testable import NestEggWrite

/// The build cache's columns as lines of one JSON string (``Lines``): every list comes back as it
/// went, the empty list and the list of one empty line told apart, a value with a line break
/// written as an array instead, and a string that is not lines of the values refused.
@Suite struct RecordLinesTests {
    func roundTrip<Value: Codable>(_ value: Value) throws -> (json: String, back: Value) {
        let json = RecordFile.line(value)
        return (json, try JSONDecoder().decode(Value.self, from: Data(json.utf8)))
    }

    @Test func listsOfLinesComeBackAsTheyWent() throws {
        for list in [[], [""], ["", ""], ["a"], ["a", "b"], ["statements/personal/2026-10.md", "", "ü €"], ["a\\b", "\"q\""], ["a\r", "b"], ["\r", "\r\r", ""]] {
            let (json, back) = try roundTrip(Lines(list))
            #expect(back.elements == list, "\(list) → \(json)")
            #expect(json.hasPrefix("\""), "one string: \(json)")
        }
        #expect(try roundTrip(Lines<String>([])).json == #""""#)
        #expect(try roundTrip(Lines([""])).json == #""\n""#)
        let broken = try roundTrip(Lines(["a\nb", "c"]))
        #expect(broken.back.elements == ["a\nb", "c"] && broken.json.hasPrefix("["), "a line break in a value: an array")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Lines<String>.self, from: Data(#""no break first""#.utf8)) }
    }

    @Test func columnsOfStampsAndTextComeBackAsTheyWent() throws {
        let stamps = ["b.html": FileStamp(size: 12, modified: 1_795_930_018_376_155_814), "a.md": FileStamp(size: 0, modified: -5)]
        let (json, back) = try roundTrip(SortedColumns(stamps))
        #expect(back.dictionary == stamps && json == #"{"keys":"\na.md\nb.html","values":"\n0 -5\n12 1795930018376155814"}"#, "\(json)")
        let text = ["x": "1", "y": "two words"]
        #expect(try roundTrip(SortedColumns(text)).back.dictionary == text)
        #expect(FileStamp(line: "12") == nil && FileStamp(line: "-1 5") == nil && FileStamp(line: "1 x") == nil)
        // Columns written as arrays (a value with a line break) read too.
        let old = try JSONDecoder().decode(SortedColumns<FileStamp>.self, from: Data(#"{"keys":["a"],"values":[[1,2]]}"#.utf8))
        #expect(old.dictionary == ["a": FileStamp(size: 1, modified: 2)])
    }

    /// A record written from its pieces (``RecordFile/pieces(lines:format:)``) is the signed file
    /// the readers take; staged again with the same pieces it is left alone (its time kept), and
    /// a file of the same size with another byte anywhere is replaced.
    @Test func aRecordStagedFromItsPiecesIsLeftAloneWhileUnchanged() throws {
        let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("record-pieces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let format = "nestegg-test 1", file = work.appendingPathComponent("record")
        let pieces = RecordFile.pieces(lines: [RecordFile.lineBytes(["a": 1]), RecordFile.lineBytes(["b": "two"])], format: format)
        let bytes = Array(pieces.joined())
        #expect(RecordFile.value([String: String].self, from: bytes, format: format, line: 1, of: 2) == ["b": "two"])
        #expect(RecordFile.text([["a": 1], ["b": "two"]] as [any Encodable], format: format) == String(decoding: bytes, as: UTF8.self))
        func stage() throws -> Bool {
            let staged = try StagedFile.stage(pieces: pieces, at: file)
            defer { staged.finish() }
            return try staged.commit()
        }
        #expect(try stage(), "written")
        #expect(try FileBytes.read(file.path).get() == bytes)
        let old = timespec(tv_sec: 1_000_000_000, tv_nsec: 0)
        #expect(utimensat(AT_FDCWD, file.path, [old, old], 0) == 0)
        #expect(try !stage(), "left alone")
        var status = stat()
        #expect(stat(file.path, &status) == 0 && status.st_mtim.tv_sec == old.tv_sec, "its time kept")
        // The same size and the same last line, another byte in the middle: written again.
        var damaged = bytes
        damaged[format.utf8.count + 3] ^= 1
        try Data(damaged).write(to: file)
        #expect(try stage(), "a damaged copy is replaced")
        #expect(try FileBytes.read(file.path).get() == bytes)
    }
}
