import Testing
@testable import NestEggBuild
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggReport
@testable import NestEggRender
@testable import NestEggSupport
@testable import NestEggSynthetic
@testable import NestEggWrite

@Suite struct JSONTests {
    @Test func parsesValuesKeepingNumberText() throws {
        let (doc, log) = document(#"{"a": [1, 12.50, -0.78e1, true, null, "x\u00e9\ud83d\ude00\n"]}"#)
        #expect(log.diagnostics.isEmpty)
        let items = try #require(doc?.value["a"]?.array)
        #expect(items.count == 6)
        if case .number(let text) = items[1].node.kind { #expect(text == "12.50") } else { Issue.record("not a number") }
        #expect(items[5].string == "xé😀\n")
        #expect(items[3].bool == true)
        #expect(items[4].isNull)
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        let (doc, log) = document("{\n  \"a\": 1,\n  \"b\": tru\n}", file: "starling/accounts.json")
        #expect(doc == nil)
        #expect(log.diagnostics.map(\.description) == [
            "starling/accounts.json:3:8: error: malformed JSON: expected a value, found 't'",
        ])
        let (_, trailing) = document("[1, 2,]")
        #expect(trailing.diagnostics.first?.description == "test.json:1:7: error: malformed JSON: expected a value, found ']'")
        let (_, unclosed) = document("{\"a\": \"b")
        #expect(unclosed.diagnostics.first?.line == 1)
        #expect(unclosed.diagnostics.first?.column == 7)
        let (_, empty) = document("")
        #expect(empty.diagnostics.first?.message == "malformed JSON: expected a value, found end of file")
        let (_, after) = document("{} x")
        #expect(after.diagnostics.first?.column == 4)
    }

    @Test func columnsCountCharactersNotBytes() {
        let (_, log) = document("{\"café\": x}")
        #expect(log.diagnostics.first?.column == 10)
    }

    @Test func typeErrorsNameThePathAndWhatWasExpected() throws {
        let json = """
        {"feedItems": [
          {"amount": {"currency": "GBP", "minorUnits": 1}},
          {"amount": {"currency": "GBP", "minorUnits": "12"}}
        ]}
        """
        let (doc, log) = document(json, file: "starling/feed/a.json")
        let items = try #require(doc?.value["feedItems"]?.array)
        _ = items[1]["amount"]?.currencyAndAmount
        #expect(log.diagnostics.map(\.description) == [
            "starling/feed/a.json:3:48: error: expected an integer, found a string (at $.feedItems[1].amount.minorUnits)",
        ])
    }

    @Test func missingFieldsNameTheField() throws {
        let (doc, log) = document(#"{"accounts": [{"accountUid": "a"}]}"#)
        _ = StarlingLoader.accounts(in: try #require(doc))
        #expect(log.diagnostics.first?.description
            == "test.json:1:15: error: missing required field \"currency\" (expected an ISO 4217 code such as \"GBP\") (at $.accounts[0].currency)")
    }
}
