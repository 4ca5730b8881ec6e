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

/// Our JSON parser and Mustache renderer against conformance suites.
///
/// `make test` runs our own corpus, in Tests/Conformance/ (see its README): JSON files named as
/// JSONTestSuite names them (`y_` accepted, `n_` rejected, `i_` either, and for ours the outcome
/// NestEgg chose is pinned below), and Mustache cases in the spec's file format. The public suites
/// themselves are not in the repository: `make conformance JSONTESTSUITE=… MUSTACHE_SPEC=…` runs
/// `upstreamJSONTestSuite` and `upstreamMustacheSpec` against a checkout of each, and without
/// their variables those two tests are skipped.
@Suite struct ConformanceTests {
    static let corpus = repositoryRoot.appendingPathComponent("Tests/Conformance")

    // MARK: JSON

    /// What NestEgg does with each `i_` file of our corpus (true: accepted). Numbers are kept as
    /// their text, so no magnitude is out of range; a UTF-8 byte order mark is skipped; any other
    /// encoding, invalid UTF-8 and unpaired surrogates are rejected, since a string must become
    /// Swift text; nesting deeper than 512 levels is rejected; a member name repeated in one object
    /// is rejected (readers disagree on which value counts, so the file reads two ways).
    static let implementationDefined: [String: Bool] = [
        "i_object_duplicate_keys.json": false, "i_object_duplicate_keys_same_value.json": false,
        "i_object_duplicate_keys_canonically_equal.json": false,
        "i_number_huge_exponent.json": true, "i_number_huge_negative_exponent.json": true,
        "i_number_beyond_double_range.json": true, "i_number_below_double_range.json": true,
        "i_number_huge_int.json": true,
        "i_string_lone_high_surrogate.json": false, "i_string_lone_low_surrogate.json": false,
        "i_string_high_surrogate_then_text.json": false, "i_string_two_high_surrogates.json": false,
        "i_string_low_then_high_surrogate.json": false, "i_string_high_surrogate_then_non_surrogate_escape.json": false,
        "i_string_invalid_utf8_byte_ff.json": false, "i_string_invalid_utf8_lone_continuation.json": false,
        "i_string_invalid_utf8_truncated_two_byte.json": false, "i_string_invalid_utf8_truncated_three_byte.json": false,
        "i_string_invalid_utf8_truncated_four_byte.json": false, "i_string_invalid_utf8_overlong_slash.json": false,
        "i_string_invalid_utf8_overlong_nul.json": false, "i_string_invalid_utf8_encoded_surrogate.json": false,
        "i_string_invalid_utf8_beyond_10ffff.json": false, "i_string_invalid_utf8_five_byte_form.json": false,
        "i_string_invalid_utf8_in_key.json": false, "i_string_latin1_not_utf8.json": false,
        "i_structure_nested_arrays_500.json": true, "i_structure_nested_objects_500.json": true,
        "i_structure_nested_arrays_513.json": false, "i_structure_nested_arrays_10000.json": false,
        "i_bom_then_object.json": true, "i_bom_then_array.json": true,
        "i_utf16le_with_bom.json": false, "i_utf16be_without_bom.json": false, "i_utf32le_with_bom.json": false,
    ]

    /// How a folder of `y_`/`n_`/`i_` files fared.
    struct JSONResults {
        var accepted: [String: Bool] = [:]
        /// What went wrong, one line each.
        var failures: [String] = []

        func count(_ prefix: String, accepted: Bool) -> Int {
            self.accepted.filter { $0.key.hasPrefix(prefix) && $0.value == accepted }.count
        }
        func total(_ prefix: String) -> Int { accepted.keys.filter { $0.hasPrefix(prefix) }.count }

        var summary: String {
            "\(count("y_", accepted: true))/\(total("y_")) y_ accepted, \(count("n_", accepted: false))/\(total("n_")) n_ rejected, "
                + "\(total("i_")) i_ without a crash (\(count("i_", accepted: true)) accepted, \(count("i_", accepted: false)) rejected)"
        }
    }

    /// Parses every `.json` file in `folder` as the loaders do (JSONDocument, which places an error
    /// at its line and column). A rejection must be one "malformed JSON" error with a position.
    static func runJSON(_ folder: URL) throws -> JSONResults {
        var results = JSONResults()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let log = DiagnosticLog()
            let accepted = JSONDocument.parse(bytes, file: name, log: log) != nil
            results.accepted[name] = accepted
            if !accepted {
                let errors = log.errors
                if errors.count != 1 || !errors[0].message.hasPrefix("malformed JSON: ") || errors[0].line == nil {
                    results.failures.append("\(name): rejected without one placed syntax error: \(log.diagnostics)")
                }
            } else if !log.diagnostics.isEmpty {
                results.failures.append("\(name): accepted with diagnostics \(log.diagnostics)")
            }
            if name.hasPrefix("y_") && !accepted && !Self.refusedByDesign.contains(name) {
                results.failures.append("\(name): rejected (\(log.diagnostics.first?.message ?? ""))")
            }
            if name.hasPrefix("n_") && accepted { results.failures.append("\(name): accepted") }
        }
        return results
    }

    /// JSONTestSuite's `y_` files that NestEgg refuses on purpose: a member name twice in one
    /// object (RFC 8259 lets a parser accept it; NestEgg does not, since readers disagree on which
    /// value counts and a statement's amount could read two ways).
    static let refusedByDesign: Set<String> = ["y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"]

    @Test func ourJSONCorpus() throws {
        let results = try Self.runJSON(Self.corpus.appendingPathComponent("json"))
        #expect(results.failures.isEmpty, "\(results.failures.joined(separator: "\n"))")
        #expect(results.total("y_") >= 70 && results.total("n_") >= 140 && results.total("i_") >= 30, "\(results.summary)")
        // Every i_ file has NestEgg's outcome pinned, and keeps it.
        let implementationDefined = results.accepted.filter { $0.key.hasPrefix("i_") }
        #expect(Set(implementationDefined.keys) == Set(Self.implementationDefined.keys))
        for (name, accepted) in implementationDefined.sorted(by: { $0.key < $1.key }) {
            #expect(Self.implementationDefined[name] == accepted, "\(name): \(accepted ? "accepted" : "rejected")")
        }
    }

    /// What the y_ string files hold reads back exactly: every escape, surrogate pairs, raw UTF-8.
    @Test func escapesDecodeToTheRightScalars() throws {
        let json = #"["\" \\ \/ \b \f \n \r \t", "a\u0000b", "caf\u00e9\u20AC", "\uD83D\uDCB0\ud83d\udcb0", "\uDBFF\uDFFF", "ø€💰"]"#
        let (doc, log) = document(json)
        #expect(log.diagnostics.isEmpty)
        let strings = try #require(doc?.value.array).map(\.string)
        #expect(strings == ["\" \\ / \u{8} \u{C} \n \r \t", "a\u{0}b", "café€", "💰💰", "\u{10FFFF}", "ø€💰"])
    }

    /// Numbers keep their text, whatever their size, so money never passes through a Double.
    @Test func numbersKeepTheirText() throws {
        let (doc, _) = document("[-0, 7e99999, 9007199254740993, 12.50, -0.75e-2]")
        let texts = try #require(doc?.value.array).map { node -> String in
            if case .number(let text) = node.node.kind { return text }
            return "not a number"
        }
        #expect(texts == ["-0", "7e99999", "9007199254740993", "12.50", "-0.75e-2"])
    }

    /// The deepest document accepted parses on the load stage's worker threads too (their stacks
    /// can be smaller than the main thread's), and one level more is an error, not a crash.
    @Test func theDeepestDocumentParsesOnWorkerThreads() throws {
        // 2 arrays and 255 objects each holding an array: 512 levels.
        let deepest = Array(("[[" + String(repeating: "{\"a\":[", count: 255) + String(repeating: "]}", count: 255) + "]]").utf8)
        let tooDeep = Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
        let outcomes = Concurrently.map(8, log: DiagnosticLog()) { index, log in
            JSONDocument.parse(index % 2 == 0 ? deepest : tooDeep, file: "deep.json", log: log) != nil
        }
        #expect(outcomes == [true, false, true, false, true, false, true, false])
    }

    // MARK: Mustache

    /// One case of a spec file: `expected` output, or (our extension for what NestEgg refuses)
    /// a part of the expected `error`; `knownFailure` says why it does not pass today.
    struct MustacheCase {
        let file: String
        let name: String
        let data: JSONNode?
        let template: String
        let partials: [String: String]
        let expected: String?
        let error: String?
        let knownFailure: String?
    }

    enum MustacheOutcome: Equatable {
        case rendered(String)
        case refused(String)
    }

    /// A view value that is code: TemplateValue has text, flags, lists and objects, nothing to call.
    struct LambdaRefused: Error {}

    /// Reads a spec file (`{"tests": [{name, data, template, partials, expected}]}`) with our own parser.
    static func mustacheCases(in url: URL) throws -> [MustacheCase] {
        let file = url.lastPathComponent
        let log = DiagnosticLog()
        let doc = try #require(JSONDocument.parse([UInt8](try Data(contentsOf: url)), file: file, log: log), "\(log.diagnostics)")
        return try #require(doc.value["tests"]?.array).map { test in
            func text(_ key: String) -> String? { test[key]?.string }
            var partials: [String: String] = [:]
            for (name, value) in test["partials"]?.memberValues ?? [] { partials[name] = value.string }
            let data = test.memberValues?.first { $0.key == "data" }?.value.node
            return MustacheCase(file: file, name: text("name") ?? "?", data: data, template: text("template") ?? "",
                                partials: partials, expected: text("expected"), error: text("error"),
                                knownFailure: text("knownFailure"))
        }
    }

    /// Spec data as view data: numbers become their text (as a view's numbers do), null is absent,
    /// and a lambda (`{"__tag__": "code", …}`) is refused.
    static func templateValue(_ node: JSONNode, asText: Bool = false) throws -> TemplateValue? {
        switch node.kind {
        case .null: return nil
        case .bool(let flag): return .flag(flag)
        // The spec's values may be placed raw (`{{{x}}}`, `{{& x}}`), which NestEgg allows only for
        // markup its render stage wrote; `{{x}}` escapes markup as it escapes text. `asText`: as
        // a report's text, which a raw tag refuses.
        case .number(let text), .string(let text): return asText ? .text(text) : .markup(text)
        case .array(let items): return .list(try items.compactMap { try templateValue($0, asText: asText) })
        case .object(let members):
            if members.contains(where: { $0.key == "__tag__" }) { throw LambdaRefused() }
            var fields: TemplateValue.Fields = [:]
            for member in members { fields[member.key] = try templateValue(member.value, asText: asText) }
            return .object(fields)
        }
    }

    /// Renders a case as the HTML layout is rendered (HTML escaping); an error refuses it.
    static func run(_ test: MustacheCase, asText: Bool = false) -> MustacheOutcome {
        do {
            var partials: [String: Template] = [:]
            for (name, text) in test.partials { partials[name] = try Template(text, kind: .html) }
            let template = try Template(test.template, kind: .html)
            let value = try test.data.flatMap { try templateValue($0, asText: asText) } ?? .object([:])
            return .rendered(try template.render(value, partials: partials))
        } catch let error as Template.ParseError {
            return .refused("\(error.line):\(error.column): \(error.message)")
        } catch is LambdaRefused {
            return .refused("lambdas are not supported: view data is text, flags, lists and objects, never code")
        } catch {
            return .refused("\(error)")
        }
    }

    /// Whether a case meets its expectation: the expected output, or an error naming what is refused.
    static func check(_ test: MustacheCase) -> String? {
        let outcome = run(test)
        if let part = test.error {
            if case .refused(let message) = outcome, message.contains(part) { return nil }
            return "\(test.file) \"\(test.name)\": expected an error with \"\(part)\", got \(outcome)"
        }
        if outcome == .rendered(test.expected ?? "") { return nil }
        return "\(test.file) \"\(test.name)\": expected \(String(reflecting: test.expected ?? "")), got \(outcome)"
    }

    @Test func ourMustacheCorpus() throws {
        let folder = Self.corpus.appendingPathComponent("mustache")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files == ["comments.json", "interpolation.json", "inverted.json", "partials.json", "refused.json", "sections.json"])
        var count = 0
        for file in files {
            for test in try Self.mustacheCases(in: folder.appendingPathComponent(file)) {
                count += 1
                #expect(test.expected != nil || test.error != nil, "\(file) \"\(test.name)\" expects nothing")
                #expect(file == "refused.json" || test.error == nil, "only refused.json expects errors")
                if let reason = test.knownFailure {
                    withKnownIssue(Comment(rawValue: reason)) {
                        if let failure = Self.check(test) { Issue.record(Comment(rawValue: failure)) }
                    }
                } else if let failure = Self.check(test) {
                    Issue.record(Comment(rawValue: failure))
                }
            }
        }
        #expect(count >= 120)
    }

    // MARK: The public suites, when a checkout of them is named

    static let jsonTestSuite = ProcessInfo.processInfo.environment["NESTEGG_JSONTESTSUITE"].flatMap { $0.isEmpty ? nil : $0 }
    static let mustacheSpec = ProcessInfo.processInfo.environment["NESTEGG_MUSTACHE_SPEC"].flatMap { $0.isEmpty ? nil : $0 }

    /// JSONTestSuite's `test_parsing/` (github.com/nst/JSONTestSuite): every y_ accepted, every n_
    /// rejected, every i_ parsed without a crash.
    @Test(.enabled(if: ConformanceTests.jsonTestSuite != nil, "set NESTEGG_JSONTESTSUITE to a JSONTestSuite test_parsing/ folder"))
    func upstreamJSONTestSuite() throws {
        let folder = URL(fileURLWithPath: try #require(Self.jsonTestSuite))
        let results = try Self.runJSON(folder)
        #expect(results.total("y_") > 0 && results.total("n_") > 0, "no y_ or n_ files in \(folder.path)")
        #expect(results.failures.isEmpty, "\(results.failures.joined(separator: "\n"))")
        print("JSONTestSuite test_parsing: \(results.summary)")
    }

    /// The modules the README claims, which must pass whole.
    static let claimedModules = ["comments.json", "interpolation.json", "inverted.json", "partials.json", "sections.json"]

    /// The mustache spec's `specs/` (github.com/mustache/spec): the claimed modules pass; in the
    /// others (delimiters, ~inheritance, ~dynamic-names, ~lambdas) each case is refused with an
    /// error or, where it does not use the feature, rendered right — never rendered wrong.
    @Test(.enabled(if: ConformanceTests.mustacheSpec != nil, "set NESTEGG_MUSTACHE_SPEC to the mustache spec's specs/ folder"))
    func upstreamMustacheSpec() throws {
        let folder = URL(fileURLWithPath: try #require(Self.mustacheSpec))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(Set(Self.claimedModules).isSubset(of: files), "\(folder.path) lacks some of \(Self.claimedModules)")
        var lines: [String] = []
        for file in files {
            var passed = 0, refused = 0, pipes = 0, wrong: [String] = []
            let tests = try Self.mustacheCases(in: folder.appendingPathComponent(file))
            // With the spec's values as a report's text, as every value from data is: a raw tag
            // refuses them, so those cases are refused by design.
            let passedAsText = tests.filter { Self.run($0, asText: true) == .rendered($0.expected ?? "") }.count
            for test in tests {
                let outcome = Self.run(test)
                if outcome == .rendered(test.expected ?? "") { passed += 1; continue }
                // By design: `|` in HTML is written `&#124;` (it would end a Markdown table cell).
                if outcome == .rendered((test.expected ?? "").replacingOccurrences(of: "|", with: "&#124;")) { pipes += 1; continue }
                if case .refused = outcome, !Self.claimedModules.contains(file) { refused += 1; continue }
                let line = "\(file) \"\(test.name)\": expected \(String(reflecting: test.expected ?? "")), got \(outcome)"
                wrong.append(line)
            }
            for line in wrong { Issue.record(Comment(rawValue: line)) }
            lines.append(Self.claimedModules.contains(file)
                ? "\(file): \(passed)/\(tests.count) pass\(pipes > 0 ? " (\(pipes) more with | written &#124;)" : ""); \(passedAsText)/\(tests.count) with the values as a report's text"
                : "\(file): \(refused) refused with an error, \(passed) rendered right, \(wrong.count) rendered wrong")
        }
        print("mustache spec:\n  " + lines.joined(separator: "\n  "))
    }
}
