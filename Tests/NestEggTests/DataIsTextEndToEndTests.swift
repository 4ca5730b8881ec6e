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

/// Issue 14's classes, each reproduced through the `nestegg` binary as a user runs it: hostile
/// strings in a small data folder (Qapital member names land as list items, a goal's name and a
/// transaction category as headings, transaction fields as table cells), then the `.md` and
/// `.html` files it writes.
@Suite(.serialized) struct DataIsTextEndToEndTests {
    /// The site built from a Qapital goal shared by users with `memberNames`, and transactions.
    func build(memberNames: [String] = [], goalName: String = "Trip", transactions: [[String: Any]] = []) throws -> [String: String] {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let data = work.appendingPathComponent("data")
        func json(_ value: Any, _ path: String) throws {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
            try write(text, to: data.appendingPathComponent(path))
        }
        if !memberNames.isEmpty || goalName != "Trip" {
            try json(["savingsGoals": [["id": 1, "name": goalName, "goalImageURL": "", "userId": 1, "targetAmount": 100, "currentBalance": 10,
                                        "created": [2026, 1, 1], "status": "active", "connectedUsers": Array(2..<(2 + memberNames.count))]]],
                     "qapital/savingsgoals.json")
            try json(["userId": 1, "displayName": "Owner", "avatarUrl": ""], "qapital/users/1.json")
            for (index, name) in memberNames.enumerated() {
                try json(["userId": index + 2, "displayName": name, "avatarUrl": ""], "qapital/users/\(index + 2).json")
            }
        }
        if !transactions.isEmpty {
            let rows = transactions.enumerated().map { index, fields in
                ["id": index + 1, "name": "Shop", "category": "Food", "amount": 1, "date": "2026-11-16", "accountName": "Visa"]
                    .merging(fields) { $1 }
            }
            try json(rows, "transactions/transactions.json")
        }
        let output = work.appendingPathComponent("site")
        let result = try NestEggBinary.run(["build", "--quiet", "--data", data.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        return snapshot(output).mapValues { unpadded(String(decoding: $0, as: UTF8.self)) }
    }

    /// The HTML of the goal page's member list, one entry per `<li>`.
    func members(_ files: [String: String]) throws -> [String] {
        let html = try #require(files.first { $0.key.hasPrefix("goals/1-") && $0.key.hasSuffix(".html") }?.value)
        let list = try #require(html.components(separatedBy: "<h2>Who shares it</h2>\n<ul>\n").dropFirst().first?.components(separatedBy: "</ul>").first)
        // Each without its initials (`<span class="avatar …">AB</span> `), which stand in for an avatar.
        return list.components(separatedBy: "\n").filter { !$0.isEmpty }.map { line in
            guard let start = line.range(of: "<span class=\"avatar "), let end = line.range(of: "</span> ", range: start.upperBound..<line.endIndex)
            else { return line }
            return String(line[..<start.lowerBound] + line[end.upperBound...])
        }
    }

    @Test func lineStartMarkersBeforeWhiteSpaceOrAControlCharacterStayText() throws {
        let names = ["#\tHeading", "-\tItem", "+\rItem", "*\u{2028}Item", ">\u{1}Quote", "1.\tItem", "1)\nItem", "---", "-\u{2029}-\u{2029}-",
                     "===", "-:", "* * *"]
        let files = try build(memberNames: names)
        let items = try members(files)
        let shown = ["# Heading", "- Item", "+ Item", "* Item", "&gt;Quote", "1. Item", "1) Item", "---", "- - -", "===", "-:", "* * *"]
        #expect(items == ["<li>Owner (owner)</li>"] + shown.map { "<li>\($0)</li>" })
        let markdown = try #require(files.first { $0.key.hasPrefix("goals/1-") && $0.key.hasSuffix(".md") }?.value)
        for escaped in [##"- \# Heading"##, #"- \- Item"#, #"- \+ Item"#, #"- \* Item"#, #"- \>Quote"#, #"- 1\. Item"#, #"- 1\) Item"#,
                        #"- \---"#, #"- \- - -"#, #"- \==="#, #"- \-:"#, #"- \* * \*"#] {
            #expect(markdown.contains(escaped + "\n"), "\(escaped)")
        }
    }

    @Test func aRunOfHashesIsEscapedWhateverFollowsIt() throws {
        let files = try build(memberNames: ["##\tx", "##x", "###### six", "#"])
        #expect(try members(files).dropFirst() == ["<li>## x</li>", "<li>##x</li>", "<li>###### six</li>", "<li>#</li>"])
    }

    @Test func aHeadingKeepsItsClosingHashes() throws {
        let files = try build(goalName: "Trip #", transactions: [["category": "Savings ##"]])
        let goal = try #require(files.first { $0.key.hasPrefix("goals/1-") && $0.key.hasSuffix(".html") }?.value)
        #expect(goal.contains("<h1>Trip #</h1>"))
        let category = try #require(files.first { $0.key.hasPrefix("transactions/savings") && $0.key.hasSuffix(".html") }?.value)
        #expect(category.contains("<h1>Transactions: Savings ##</h1>"))
        let markdown = try #require(files.first { $0.key.hasPrefix("transactions/savings") && $0.key.hasSuffix(".md") }?.value)
        #expect(markdown.hasPrefix("# Transactions: Savings \\##\n"))
    }

    @Test func aSchemeBrokenByAControlCharacterIsNoLink() throws {
        // As the payee (the provider, the link text of its payee's page) and as what the entry was for.
        let files = try build(transactions: [["name": "http:\u{1}//evil.example/x", "provider": "http:\u{1}//evil.example/x"],
                                             ["name": "https:\u{7F}//evil.example/y", "provider": "https:\u{7F}//evil.example/y"]])
        let html = try #require(files["transactions/index.html"])
        #expect(!html.contains("evil.example/x\"") && !html.contains("evil.example/y\""), "no link to it")
        #expect(html.contains("<td style=\"text-align: left\">http://evil.example/x</td>") || html.contains(">http://evil.example/x<"))
        let markdown = try #require(files["transactions/index.md"])
        // (Each payee is the link text of its payee's page, a reference-style link: `[name][p1]`; the
        // entry's own words stand beside it as text.)
        #expect(markdown.contains(#"| [http\://evil.example/x][p"#) && markdown.contains(#"| [https\://evil.example/y][p"#))
        #expect(markdown.contains(#"| http\://evil.example/x |"#), "\(markdown)")
    }

    @Test func nonWebAutolinksLeaveNoLinkAtAll() throws {
        let files = try build(transactions: [["name": "xmpp:a@b.example"], ["name": "mailto:c@d.example"], ["provider": "e@f.example"]])
        let html = try #require(files["transactions/index.html"])
        #expect(!html.contains("<a href=\"\""), "no empty link")
        #expect(!html.contains("href=\"xmpp:") && !html.contains("href=\"mailto:"))
        let text = html.replacingOccurrences(of: "<!-- -->", with: "")
        #expect(text.contains(">xmpp:a@b.example<") && text.contains(">mailto:c@d.example<") && text.contains(">e@f.example<"))
    }

    /// GitHub renders the `.md` files with an autolinker of its own and no node pass: nothing from
    /// data may read as a web address or an e-mail address there.
    @Test func onGitHubTheMarkdownLinksNothingFromData() throws {
        let hostile = ["see https://evil.example/a", "www.evil.example", "me@evil.example", "mailto:me@evil.example",
                       "xmpp:me@evil.example/r", "<http://evil.example>", "<a@evil.example>", "[x](https://evil.example)"]
        let files = try build(memberNames: hostile, goalName: hostile[2],
                              transactions: hostile.map { ["name": $0, "provider": $0, "accountName": $0, "category": $0] })
        for (path, markdown) in files where path.hasSuffix(".md") {
            #expect(Oracle.autolinkTrigger(in: markdown) == nil, "\(path): \(Oracle.autolinkTrigger(in: markdown) ?? "")")
            let github = CMark.htmlWithoutNodePass(from: markdown)
            let hrefs = github.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(hrefs.allSatisfy { !$0.contains(":") }, "\(path) would link \(hrefs.filter { $0.contains(":") })")
        }
        for (path, html) in files where path.hasSuffix(".html") {
            let targets = html.components(separatedBy: " href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
                + html.components(separatedBy: " src=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(!targets.contains { $0.contains("evil.example") }, "\(path) links to data")
        }
    }
}
