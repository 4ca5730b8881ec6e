import Foundation
import Testing
@testable import NestEggFetch
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggSupport

/// Exchange rates as data: Frankfurter's answers in `rates/`, read exactly, used through one
/// conversion rule, and brought by `nestegg fetch rates`.
@Suite struct RatesTests {
    static let day = CivilDate(year: 2026, month: 11, day: 20)!

    func rate(_ text: String, _ quote: Currency = .eur, base: Currency = .gbp) -> ExchangeRate? {
        ExchangeRate(base: base, quote: quote, date: Self.day, decimal: text)
    }

    @Test func ratesAreExactDecimals() throws {
        #expect(rate("1.1362")?.text == "1.1362")
        #expect(rate("1.13620")?.text == "1.1362", "trailing zeros say nothing")
        #expect(rate("166.95")?.text == "166.95")
        #expect(rate("8.5e-1")?.text == "0.85")
        #expect(rate("1e2")?.text == "100")
        #expect(rate("1.0")?.text == "1")
        for wrong in ["0", "-1.2", "", "1..2", "abc", "1.2.3", "1e99", "0.0000000000001"] {
            #expect(rate(wrong) == nil, "\(wrong)")
        }
    }

    /// amount ÷ rate, rounded once to the base's minor unit, halves away from zero.
    @Test func conversionDividesAndRoundsHalvesAwayFromZero() throws {
        let eur = try #require(rate("1.1362"))
        // 100.00 EUR ÷ 1.1362 = 88.0126… GBP
        #expect(eur.toBase(Money(minorUnits: 10_000, currency: .eur)) == gbp(8801))
        #expect(eur.toBase(Money(minorUnits: -10_000, currency: .eur)) == gbp(-8801))
        let two = try #require(rate("2"))
        // 0.01 EUR ÷ 2 = 0.005 GBP: a half, away from zero.
        #expect(two.toBase(Money(minorUnits: 1, currency: .eur)) == gbp(1))
        #expect(two.toBase(Money(minorUnits: -1, currency: .eur)) == gbp(-1))
        #expect(two.toBase(Money(minorUnits: 3, currency: .eur)) == gbp(2))
        // 0.0049… rounds down.
        #expect(try #require(rate("2.0001")).toBase(Money(minorUnits: 1, currency: .eur)) == gbp(0))
        // Currencies of other minor digits: 1,000 JPY at 200 JPY/GBP = £5.00; 1.000 KWD at 0.4 KWD/GBP = £2.50.
        let jpy = try #require(rate("200", Currency(code: "JPY")!))
        #expect(jpy.toBase(Money(minorUnits: 1000, currency: Currency(code: "JPY")!)) == gbp(500))
        let kwd = try #require(rate("0.4", Currency(code: "KWD")!))
        #expect(kwd.toBase(Money(minorUnits: 1000, currency: Currency(code: "KWD")!)) == gbp(250))
        #expect(eur.toBase(usd(100)) == nil, "only the rate's own currency")
        // The largest amounts the data can hold convert without leaving Int128.
        let small = try #require(rate("0.000000000001"))
        #expect(small.toBase(Money(minorUnits: Money.maximumMinorUnits << 24, currency: .eur)) != nil)
    }

    @Test func theRateInForceIsTheLastOnOrBeforeTheDay() throws {
        var rates = ExchangeRates(base: .gbp)
        let friday = CivilDate(year: 2026, month: 10, day: 30)!, monday = CivilDate(year: 2026, month: 11, day: 2)!
        rates.add(try #require(ExchangeRate(base: .gbp, quote: .eur, date: monday, decimal: "1.15")))
        rates.add(try #require(ExchangeRate(base: .gbp, quote: .eur, date: friday, decimal: "1.14")))
        let saturday = CivilDate(year: 2026, month: 10, day: 31)!
        #expect(rates.rate(for: .eur, on: saturday)?.text == "1.14", "a month-end on a Saturday uses Friday's rate")
        #expect(rates.rate(for: .eur, on: monday)?.text == "1.15")
        #expect(rates.rate(for: .eur, on: CivilDate(year: 2026, month: 10, day: 29)!) == nil, "none before the first")
        #expect(rates.rate(for: .usd, on: monday) == nil)
        let same = rates.convert(gbp(123), on: saturday)
        #expect(same?.converted == gbp(123) && same?.rate == nil, "the base currency needs no rate")
        #expect(rates.convert(Money(minorUnits: 114, currency: .eur), on: saturday)?.converted == gbp(100))
    }

    // MARK: Loading

    func load(_ files: [String: String], settings: String? = nil) throws -> (ExchangeRates?, DiagnosticLog) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, text) in files { try write(text, to: folder.appendingPathComponent(path)) }
        if let settings { try write(settings, to: folder.appendingPathComponent("nestegg.json")) }
        let data = try DataFolder(root: folder)
        let log = DiagnosticLog()
        let read = SettingsLoader.load(from: data, log: log)
        return (RatesLoader.load(from: data, settings: read, log: log), log)
    }

    @Test func theFixturesRatesCoverTheirCurrenciesAndMonths() throws {
        let (rates, log) = try load(["rates/GBP.json": String(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/rates/GBP.json"), encoding: .utf8)])
        #expect(log.diagnostics.isEmpty, "\(log.diagnostics)")
        let held = try #require(rates)
        #expect(held.currencies == [.eur, .hkd, .usd])
        #expect(held.span == CivilDate(year: 2025, month: 11, day: 3)!...CivilDate(year: 2026, month: 11, day: 20)!)
        #expect(held.files == ["rates/GBP.json"])
    }

    @Test func bothShapesAreRead() throws {
        let series = #"{"amount":1.0,"base":"GBP","start_date":"2026-11-02","end_date":"2026-11-03","rates":{"2026-11-02":{"EUR":1.15,"USD":1.31},"2026-11-03":{"EUR":1.16}}}"#
        let latest = #"{"amount":1.0,"base":"GBP","date":"2026-11-04","rates":{"EUR":1.17}}"#
        let (rates, log) = try load(["rates/GBP.json": series, "rates/latest.json": latest])
        #expect(!log.hasErrors, "\(log.diagnostics)")
        let held = try #require(rates)
        #expect(held.count == 4)
        #expect(held.rate(for: .eur, on: CivilDate(year: 2026, month: 11, day: 30)!)?.text == "1.17")
    }

    @Test func wrongRatesAreErrorsAtTheirPlace() throws {
        let text = """
            {"amount": 1.0, "base": "GBP", "rates": {
              "2026-11-02": {"EUR": -1.15, "USD": "1.31", "ZZZ": 2},
              "2026-13-01": {"EUR": 1.1}
            }}
            """
        let (_, log) = try load(["rates/GBP.json": text])
        let found = log.diagnostics.map { "\($0.severity) \($0.file):\($0.line ?? 0):\($0.column ?? 0) \($0.path ?? "")" }
        #expect(found == [
            "error rates/GBP.json:2:25 $.rates['2026-11-02'].EUR",
            "error rates/GBP.json:2:39 $.rates['2026-11-02'].USD",
            "warning rates/GBP.json:2:54 $.rates['2026-11-02'].ZZZ",
            "error rates/GBP.json:3:17 $.rates['2026-13-01']",
        ], "\(log.diagnostics.map(\.description))")
        #expect(log.diagnostics[1].message.contains("expected a rate"))

        let (_, amount) = try load(["rates/GBP.json": #"{"amount": 10, "base": "GBP", "rates": {}}"#])
        #expect(amount.errors.map(\.message) == ["expected 1 (rates for one unit of the base currency, as Frankfurter answers without ?amount=)"])

        let other = #"{"amount":1.0,"base":"EUR","date":"2026-11-04","rates":{"GBP":0.87}}"#
        let (rates, base) = try load(["rates/EUR.json": other])
        #expect(!base.hasErrors)
        #expect(base.diagnostics.first?.message.contains("against EUR, but the base currency is GBP") == true)
        #expect(rates?.isEmpty == true)

        let (_, euros) = try load(["rates/EUR.json": other], settings: #"{"baseCurrency": "EUR"}"#)
        #expect(euros.diagnostics.isEmpty)

        let one = #"{"amount":1.0,"base":"GBP","date":"2026-11-04","rates":{"EUR":1.17}}"#
        let two = #"{"amount":1.0,"base":"GBP","date":"2026-11-04","rates":{"EUR":1.18}}"#
        let (_, conflict) = try load(["rates/a.json": one, "rates/b.json": two, "rates/c.json": one])
        #expect(conflict.errors.map(\.file) == ["rates/b.json"])
        #expect(conflict.errors.first?.message.contains("is 1.18 here but 1.17 in an earlier file") == true)
    }

    @Test func theBaseCurrencyIsASetting() throws {
        let (doc, log) = document(#"{"baseCurrency": "EUR", "frankfurter": {"baseURL": "http://127.0.0.1:9"}}"#)
        let settings = SettingsLoader.settings(in: try #require(doc))
        #expect(!log.hasErrors)
        #expect(settings.baseCurrency == .eur)
        #expect(settings.frankfurterBaseURL == "http://127.0.0.1:9")
        let (wrong, wrongLog) = document(#"{"baseCurrency": "POUNDS"}"#)
        _ = SettingsLoader.settings(in: try #require(wrong))
        #expect(wrongLog.errors.map(\.path) == ["$.baseCurrency"])
    }

    // MARK: Fetching

    @Test func fetchAsksForTheSpanAndWritesTheAnswerAsItCame() async throws {
        let body = try Data(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/rates/GBP.json"))
        let asked = Recorded<String>()
        let api = CannedClient { request in
            asked.append(request.url.absoluteString)
            return HTTPResponse(status: 200, body: [UInt8](body))
        }
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        var fetcher = Fetcher(data: work, label: "data")
        fetcher.client = api
        fetcher.now = { FetchTests.now }
        let summary = try await fetcher.rates(from: CivilDate(year: 2025, month: 11, day: 1)!)
        #expect(asked.values == ["https://api.frankfurter.dev/v1/2025-11-01..2026-11-24?base=GBP"])
        #expect(summary.days == 269 && summary.currencies == 3)
        #expect(try Data(contentsOf: work.appendingPathComponent("rates/GBP.json")) == body, "written as received")

        // A wrong answer (another base, no rates, not JSON, a bad rate) writes nothing.
        for wrong in [#"{"amount":1.0,"base":"EUR","date":"2026-11-04","rates":{"GBP":0.87}}"#,
                      #"{"amount":1.0,"base":"GBP","date":"2026-11-04","rates":{}}"#, "<html>",
                      #"{"amount":1.0,"base":"GBP","date":"2026-11-04","rates":{"EUR":-1}}"#] {
            var bad = fetcher
            bad.client = CannedClient { _ in FakeStarling.ok(wrong) }
            let error = try await #require(throws: FetchError.self) { try await bad.rates() }
            #expect(error.exitCode == 76, "\(wrong)")
            #expect(try Data(contentsOf: work.appendingPathComponent("rates/GBP.json")) == body)
        }
        // A server error is tried again, then given up.
        var failing = fetcher
        let waits = Recorded<Double>()
        failing.retry.sleep = { waits.append($0) }
        failing.client = CannedClient { _ in FakeStarling.status(503) }
        #expect(try await #require(throws: FetchError.self) { try await failing.rates() }.exitCode == 69)
        #expect(waits.values == [1, 2])
    }

    /// `nestegg fetch rates` through the binary against the local stand-in (Tests/FetchServer),
    /// then a build that reads what it wrote.
    @Test func fetchRatesFromALocalServerAndBuild() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/FetchServer/server.py").path,
                            "--data", repositoryRoot.appendingPathComponent("Fixtures").path, "--token", "unused", "--lifetime", "60"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        var firstLine = Data()
        while !firstLine.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            firstLine.append(chunk)
        }
        let port = try #require(Int(String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        let data = work.appendingPathComponent("data")
        // The fixtures' Starling files, so that the span starts at their earliest date.
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Fixtures/starling"), to: data.appendingPathComponent("starling"))
        try write(#"{"frankfurter": {"baseURL": "http://127.0.0.1:\#(port)"}}"#, to: data.appendingPathComponent("nestegg.json"))
        let fetched = try NestEggBinary.run(["fetch", "rates", "--data", data.path, "--to", "2026-11-30"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stderr.contains("fetch: 269 days of ECB rates for 3 currencies against GBP"), "\(fetched.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("rates/GBP.json"))) as! [String: Any]
        #expect(written["start_date"] as? String == "2025-11-03", "from the month of the Personal account's opening")
        let build = try NestEggBinary.run(["build", "-q", "--data", data.path, "--output", work.appendingPathComponent("site").path])
        #expect(build.status == 0, "\(build.stderr)")

        let wrongDay = try NestEggBinary.run(["fetch", "rates", "--data", data.path, "--from", "2026-02-30"])
        #expect(wrongDay.status == 64)
    }
}
