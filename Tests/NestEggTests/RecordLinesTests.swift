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
}
