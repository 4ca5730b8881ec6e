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

@Suite struct TransfersTests {
    /// The seed's example request and response, as one record.
    let seedRecord = """
        [{"fromUid": "imgrl0x94hj8h2om6201", "toUid": "vjre4mxohv9ljxy6neyp", "amount": 10.0,
          "tid": "wf1clo4lhf", "tstatus": "001", "ttime": "1531125475"}]
        """

    func load(_ transfers: String, users: [TransferUser] = [], currency: Currency = .hkd) throws -> ([Transfer], DiagnosticLog) {
        let (doc, log) = document(transfers, file: "transfers/transfers.json")
        let parsed = try #require(doc)
        return (TransfersLoader.transfers(in: parsed, users: users, defaultCurrency: currency), log)
    }

    let chan = TransferUser(uid: "imgrl0x94hj8h2om6201", name: "Chan Tai Man", currency: nil)
    let wong = TransferUser(uid: "vjre4mxohv9ljxy6neyp", name: "Wong Siu Ming", currency: nil)

    @Test func theSeedsExampleLoadsAndShowsAs9July2018InLondon() throws {
        let (transfers, log) = try load(seedRecord, users: [chan, wong])
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let transfer = try #require(transfers.first)
        #expect(transfer.fromUid == "imgrl0x94hj8h2om6201")
        #expect(transfer.toUid == "vjre4mxohv9ljxy6neyp")
        #expect(transfer.amount == Money(minorUnits: 1000, currency: .hkd))
        #expect(transfer.tid == "wf1clo4lhf")
        #expect(transfer.status == .success)
        #expect(transfer.time == Instant(iso8601: "2018-07-09T08:37:55Z"))
        let context = ReportContext(settings: Settings())
        #expect(context.date(transfer.time) == "9 Jul 2018")
        #expect(context.time(transfer.time) == "09:37")
        #expect(context.money(transfer.amount) == "HK$10.00")
    }

    /// Tests/Samples/transfermoneyapp: the transfer app's `GET /transaction` response, as saved
    /// (two leading spaces, no final newline).
    @Test func theResponseSampleLoads() throws {
        let (doc, log) = try sample("transfermoneyapp/transactionapi.json")
        let response = try #require(TransfersLoader.response(doc.value))
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(response.tid == "q7h2m0xk3v")
        #expect(response.status == .insufficientFunds)
        #expect(response.time == Instant(secondsSinceEpoch: 1_562_935_847))
        #expect(response.time == Instant(iso8601: "2019-07-12T12:50:47Z"))
        // Joined with a request, the sample's text (leading spaces and all) is one record.
        let text = try sampleText("transfermoneyapp/transactionapi.json")
        #expect(text.hasPrefix("  {") && !text.hasSuffix("\n"))
        let body = text.drop { $0 != "{" }.dropFirst()
        let record = #"[{"fromUid": "imgrl0x94hj8h2om6201", "toUid": "vjre4mxohv9ljxy6neyp", "amount": 250.5,"# + body + "]"
        let (transfers, recordLog) = try load(record, users: [chan, wong])
        #expect(recordLog.diagnostics.isEmpty, "\(recordLog.diagnostics)")
        #expect(transfers.first?.tid == "q7h2m0xk3v")
        #expect(transfers.first?.amount == Money(minorUnits: 25_050, currency: .hkd))
        #expect(transfers.first?.status.words == "Insufficient funds in the debit account")
    }

    @Test(arguments: [
        ("001", "Success"), ("002", "Insufficient funds in the debit account"), ("003", "Recipient not found"),
        ("009", "Unknown status (009)"), ("E42", "Unknown status (E42)"),
    ])
    func statusCodesInWords(code: String, words: String) {
        #expect(TransferStatus(code: code).words == words)
        #expect(TransferStatus(code: code).code == code)
        #expect(TransferStatus(code: code).isSuccess == (code == "001"))
    }

    @Test func statusAndTimeMayBeNumbers() throws {
        let (transfers, log) = try load("""
            [{"fromUid": "a", "toUid": "b", "amount": 1, "tid": "t1", "tstatus": 2, "ttime": 1531125475},
             {"fromUid": "a", "toUid": "b", "amount": "2.50", "tid": 77, "tstatus": " 003 ", "ttime": " 1531125476 "}]
            """)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(transfers.map(\.status) == [.insufficientFunds, .recipientNotFound])
        #expect(transfers.map(\.time.secondsSinceEpoch) == [1_531_125_475, 1_531_125_476])
        #expect(transfers.map(\.tid) == ["t1", "77"])
        #expect(transfers[1].amount == Money(minorUnits: 250, currency: .hkd))
    }

    @Test func aBadValueNamesFileLineColumnAndPath() throws {
        let (transfers, log) = try load("""
            [
              {"fromUid": "a", "toUid": "b", "amount": 1, "tid": "t1", "tstatus": "001", "ttime": "soon"},
              {"fromUid": "a", "amount": 1.234, "tid": "t2", "tstatus": "001", "ttime": 1}
            ]
            """)
        #expect(transfers.isEmpty)
        let messages = log.errors.map(\.description)
        #expect(messages.contains(
            "transfers/transfers.json:2:87: error: expected an integer or a string of digits, found a string (at $[0].ttime)"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("transfers/transfers.json:3:3: error: missing required field \"toUid\"") }, "\(messages)")
        #expect(messages.contains {
            $0.hasPrefix("transfers/transfers.json:3:30: error: amount 1.234 has more decimal places") && $0.hasSuffix("(at $[1].amount)")
        }, "\(messages)")
    }

    @Test func unknownUidsAreWarningsExceptAnUnfoundRecipient() throws {
        let (transfers, log) = try load("""
            [{"fromUid": "ghost", "toUid": "vjre4mxohv9ljxy6neyp", "amount": 5, "tid": "t1", "tstatus": "001", "ttime": 1},
             {"fromUid": "imgrl0x94hj8h2om6201", "toUid": "nobody", "amount": 5, "tid": "t2", "tstatus": "003", "ttime": 2},
             {"fromUid": "imgrl0x94hj8h2om6201", "toUid": "t1", "amount": 5, "tid": "t1", "tstatus": "001", "ttime": 3}]
            """, users: [chan, wong])
        #expect(!log.hasErrors)
        #expect(transfers.map(\.tid) == ["t1", "t2"])
        let warnings = log.warnings.map(\.description)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.contains { $0.contains("no user \"ghost\" in transfers/users.json; shown by uid (at $[0].fromUid)") })
        #expect(!warnings.contains { $0.contains("nobody") })
        #expect(warnings.contains { $0.contains("duplicate tid \"t1\"") })
    }

    @Test func amountsAreInTheUsersCurrency() throws {
        let usd = TransferUser(uid: "a", name: "A", currency: .usd)
        let (transfers, log) = try load(#"[{"fromUid": "a", "toUid": "b", "amount": 0.1, "tid": "t", "tstatus": "001", "ttime": 1}]"#,
                                        users: [usd, TransferUser(uid: "b", name: "B", currency: nil)], currency: .gbp)
        #expect(log.diagnostics.isEmpty)
        #expect(transfers.first?.amount == Money(minorUnits: 10, currency: .usd))
        let (configured, _) = try load(#"[{"fromUid": "x", "toUid": "y", "amount": 3, "tid": "t", "tstatus": "001", "ttime": 1}]"#,
                                       currency: .gbp)
        #expect(configured.first?.amount == Money(minorUnits: 300, currency: .gbp))
    }

    @Test func usersLoadWithOptionalCurrencyAndDuplicatesWarn() throws {
        let (doc, log) = document(#"[{"uid": "a", "name": " Ann "}, {"uid": "b", "name": "Bo", "currency": "HKD"}, {"uid": "a", "name": "Again"}]"#,
                                  file: "transfers/users.json")
        let users = TransfersLoader.users(in: try #require(doc))
        #expect(users == [TransferUser(uid: "a", name: "Ann", currency: nil), TransferUser(uid: "b", name: "Bo", currency: .hkd)])
        #expect(log.warnings.count == 1)
        #expect(!log.hasErrors)
    }

    // MARK: The ledger

    func transfer(_ tid: String, _ from: String, _ to: String, _ minor: Int64, _ status: String, _ seconds: Int64) -> Transfer {
        Transfer(tid: tid, fromUid: from, toUid: to, amount: Money(minorUnits: minor, currency: .hkd),
                 status: TransferStatus(code: status), time: Instant(secondsSinceEpoch: seconds))
    }

    /// Newest first by places in the list is the order the transfers sorted themselves had, ties on
    /// both the time and the id included (kept in their order, as Swift's stable sort kept them).
    @Test func theTransfersNewestFirstByPlaceAreTheSortedTransfers() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let transfers = (0..<60).map { index in
                transfer("t\(Int.random(in: 1...5, using: &generator))", "a", "b", Int64(index), "000", Int64.random(in: 1...3, using: &generator))
            }
            let sorted = transfers.sorted { ($1.time, $0.tid) < ($0.time, $1.tid) }
            #expect(TransfersReport.newestFirstOrder(transfers).map { transfers[$0].amount } == sorted.map(\.amount))
        }
    }

    var ledger: Dataset {
        var dataset = Dataset()
        dataset.transfers = TransfersData(
            users: [TransferUser(uid: "ann", name: "Ann", currency: nil), TransferUser(uid: "bo", name: "Bo", currency: nil)],
            transfers: [
                transfer("t1", "ann", "bo", 10_000, "001", 1_531_125_475),
                transfer("t2", "bo", "ann", 2_500, "001", 1_531_200_000),
                transfer("t3", "ann", "bo", 500_000, "002", 1_531_300_000),
                transfer("t4", "ann", "zed", 1_000, "003", 1_531_400_000),
                transfer("t5", "bo", "ann", 4_250, "009", 1_531_500_000),
                transfer("t6", "bo", "ann", 100, "001", 1_531_500_000),
            ])
        return dataset
    }

    func render(_ dataset: Dataset, _ path: String) throws -> String {
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == path }, "no page \(path)")
        return inlined(unpadded(try PageRenderer(templates: TemplateLibrary(), site: site).render(page).markdown))
    }

    /// The page with its reference-style links (`[Ann][p1]` and `[p1]: ../transfers/ann.md` at the
    /// end) written inline, as a reader's Markdown viewer follows them; a label without its
    /// definition is left as it is, so an expectation of the link then fails.
    func inlined(_ markdown: String) -> String {
        var definitions: [String: String] = [:]
        var kept: [Substring] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[p"), let end = line.firstIndex(of: "]"), line[line.index(after: end)...].hasPrefix(": ") {
                definitions[String(line[line.index(after: line.startIndex)..<end])] = String(line[line.index(end, offsetBy: 3)...])
            } else {
                kept.append(line)
            }
        }
        var text = kept.joined(separator: "\n")
        for (label, href) in definitions { text = text.replacingOccurrences(of: "][\(label)]", with: "](\(href))") }
        return text
    }

    @Test func theIndexListsEveryTransferNewestFirstThenPeopleThenFailures() throws {
        let page = try render(ledger, "transfers/index")
        #expect(page.contains("6 transfers between the app's users: 3 went through, moving **HK$126.00**, and 3 failed."))
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("| t") && $0.contains("](") }
        // Newest first; two at the same second in the order of their ids.
        #expect(rows.prefix(6).map { String($0.split(separator: "|").last!).trimmingCharacters(in: .whitespaces) }
                == ["t5", "t6", "t4", "t3", "t2", "t1"])
        #expect(page.contains("| 9 Jul 2018 | 09:37 | [Ann](../transfers/ann.md) | [Bo](../transfers/bo.md) | HK$100.00 | Success | t1 |"))
        #expect(page.contains("| **Failed:** Insufficient funds in the debit account | t3 |"))
        #expect(page.contains("| [Unknown person zed](../transfers/zed.md) | HK$10.00 | **Failed:** Recipient not found | t4 |"))
        #expect(page.contains("| **Failed:** Unknown status (009) | t5 |"))
        // Per person, successful transfers only: Ann sent 100.00, received 25.00 + 1.00.
        #expect(page.contains("| [Ann](../transfers/ann.md) | 1 | HK$100.00 | 2 | HK$26.00 | -HK$74.00 | 3 |"))
        #expect(page.contains("| [Bo](../transfers/bo.md) | 2 | HK$26.00 | 1 | HK$100.00 | HK$74.00 | 2 |"))
        #expect(page.contains("| [Unknown person zed](../transfers/zed.md) | 0 | HK$0.00 | 0 | HK$0.00 | HK$0.00 | 1 |"),
                "the data's id is not a name: an id shorter than four characters is its own ending")
        // Failures grouped by reason, in code order.
        let headings = page.split(separator: "\n").filter { $0.hasPrefix("### ") }
        #expect(headings == ["### Insufficient funds in the debit account (002)", "### Recipient not found (003)", "### Unknown status (009)"])
    }

    @Test func aPersonsPageHasARunningNetOfSuccessfulTransfers() throws {
        let page = try render(ledger, "transfers/ann")
        #expect(page.hasPrefix("# Transfers of Ann\n"))
        let nets = page.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("](") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[6] }
        #expect(nets == ["-HK$100.00", "-HK$75.00", "-HK$75.00", "-HK$75.00", "-HK$75.00", "-HK$74.00"])
        #expect(page.contains("| **Net** | | | | | | **-HK$74.00** | |"))
    }

    @Test func theDashboardCountsTransfersValueAndFailures() {
        let section = TransfersReport.dashboard(for: ledger, context: ReportContext(settings: Settings()))
        #expect(section?.figures.map(\.value) == ["6", "HK$126.00", "3"])
        #expect(section?.figures.first?.label.hasPrefix("Transfers, ") == true, "the card says when the transfers were")
        #expect(section?.table == nil, "the failures' table is the ledger's page's")
    }

    @Test func theFixturesHaveFiveUsersAndFortyTransfersWithEveryStatus() throws {
        // The household's transfer app: Alex and Priya, Sam, Jo and Dan; every transfer is in
        // pounds (Dan names no currency: the one nestegg.json sets for transfers) and in 2026.
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: repositoryRoot.appendingPathComponent("Fixtures")), log: log)
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        #expect(dataset.transfers.users.count == 5)
        #expect(dataset.transfers.transfers.count >= 40)
        let statuses = Set(dataset.transfers.transfers.map(\.status.words))
        for words in ["Success", "Insufficient funds in the debit account", "Recipient not found"] {
            #expect(statuses.contains(words))
        }
        #expect(statuses.contains { $0.hasPrefix("Unknown status") })
        #expect(Set(dataset.transfers.users.map(\.name)) == ["Alex Morgan", "Priya Shah", "Sam Morgan", "Jo Reid", "Dan Okafor"])
        #expect(dataset.transfers.transfers.allSatisfy { $0.amount.currency == .gbp })
        let year = try #require(Instant(iso8601: "2026-01-01T00:00:00Z")), end = try #require(Instant(iso8601: "2026-11-21T00:00:00Z"))
        #expect(dataset.transfers.transfers.allSatisfy { $0.time >= year && $0.time < end }, "in 2026, up to the sample's last day")
    }

    @Test func withoutUsersJSONEveryoneIsShownByUidWithOneWarning() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        try write(seedRecord, to: work.appendingPathComponent("transfers/transfers.json"))
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: work), log: log)
        #expect(!log.hasErrors)
        #expect(log.warnings.map(\.description) == ["transfers/users.json: warning: missing: transfers show each person as unknown, by the end of their id"])
        #expect(dataset.transfers.transfers.count == 1)
        #expect(dataset.latestInstant == Instant(secondsSinceEpoch: 1_531_125_475))
        let page = try render(dataset, "transfers/index")
        #expect(page.contains("[Unknown person …6201](../transfers/imgrl0x94hj8h2om6201.md)"))
        #expect(!page.contains("imgrl0x94hj8h2om6201]"), "no id shown as a name")
    }
}

extension TransfersTests {
    /// A failed transfer is marked in words in both forms (a badge in HTML), never by colour alone.
    @Test func failedTransfersAreMarkedInWords() throws {
        let site = SiteReport.build(ledger)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        for path in ["transfers/index", "transfers/ann"] {
            let page = try #require(site.pages.first { $0.path == path })
            let output = try renderer.render(page)
            #expect(output.html.contains(#"<span class="badge-failed">Failed</span> Insufficient funds in the debit account"#), "\(path)")
            #expect(output.markdown.contains("**Failed:** Insufficient funds in the debit account"), "\(path)")
            #expect(!output.markdown.contains("Failed:** Success"))
        }
    }
}
