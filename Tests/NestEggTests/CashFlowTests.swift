import Foundation
import Testing
@testable import NestEggLoad
@testable import NestEggModel
@testable import NestEggRender
@testable import NestEggReport
@testable import NestEggSupport
@testable import NestEggSynthetic

@Suite struct CashFlowTests {
    /// `EATING_OUT` → `Eating out`, as a household reads it; the bank's groceries count as the
    /// app's Food, its transport and holidays as Travel (the default category mapping).
    static func humanized(_ code: String?) -> String {
        guard let code, !code.isEmpty else { return "Uncategorised" }
        switch code {
        case "GROCERIES": return "Food"
        case "TRANSPORT", "HOLIDAYS": return "Travel"
        default: break
        }
        let words = code.lowercased().replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    struct Expected {
        var income = 0, spending = 0, movedOut = 0, movedIn = 0
        var categories: [String: Int] = [:]
        var categoriesThrough: [Int: [String: Int]] = [:]
    }

    /// Every month's figures from the raw JSON: sums per account and source or category, each
    /// converted by `Decimal` at the rate of the month's last day (or the as-of date).
    static func expected(asOf: String) -> [String: Expected] {
        var months: [String: Expected] = [:]
        for account in HouseholdCheck.accounts {
            var sums: [String: [String: Int]] = [:]  // month → key → minor units
            var byDay: [String: [String: [Int: Int]]] = [:]
            for item in account.items where HouseholdCheck.counted(item, account) {
                let month = String(item.day.prefix(7))
                let key: String
                // A move is converted per counterparty (the other account, or the goal), as the diagram names it.
                if item.source == "INTERNAL_TRANSFER" { key = (item.out ? "moved out:" : "moved in:") + item.counterParty }
                else if !item.out { key = "in:" + item.counterParty }
                else {
                    key = "out:" + humanized(item.category)
                    byDay[month, default: [:]][key, default: [:]][Int(item.day.suffix(2))!, default: 0] += item.minor
                }
                sums[month, default: [:]][key, default: 0] += item.minor
            }
            for (month, keys) in sums {
                let day = min(HouseholdCheck.lastDay(month), asOf)
                var expected = months[month] ?? Expected()
                for (key, minor) in keys {
                    let pence = HouseholdCheck.toGBP(minor, account.currency, on: day)!.pence
                    switch key {
                    case let key where key.hasPrefix("moved out:"): expected.movedOut += pence
                    case let key where key.hasPrefix("moved in:"): expected.movedIn += pence
                    case let key where key.hasPrefix("in:"): expected.income += pence
                    default:
                        expected.spending += pence
                        expected.categories[String(key.dropFirst(4)), default: 0] += pence
                    }
                }
                for through in [21] {
                    for (key, days) in byDay[month] ?? [:] {
                        let total = days.filter { $0.key <= through }.reduce(0) { $0 + HouseholdCheck.toGBP($1.value, account.currency, on: day)!.pence }
                        if days.contains(where: { $0.key <= through }) { expected.categoriesThrough[through, default: [:]][String(key.dropFirst(4)), default: 0] += total }
                    }
                }
                months[month] = expected
            }
        }
        return months
    }

    @Test func everyMonthEqualsAnIndependentCheck() throws {
        let dataset = try NetWorthTests.fixtures()
        let context = ReportContext(dataset: dataset)
        let asOf = try #require(context.progress.asOf)
        let months = CashFlowReport.months(dataset, context: context, figures: AccountFigures.of(dataset, context: context))
        let expected = Self.expected(asOf: asOf.description)
        #expect(months.map(\.month.description) == ["2026-09", "2026-10", "2026-11"])
        for month in months {
            let check = try #require(expected[month.month.description])
            #expect(month.income.minorUnits == Int128(check.income), "\(month.month)")
            #expect(month.spending.minorUnits == Int128(check.spending), "\(month.month)")
            #expect(month.movedOut.minorUnits == Int128(check.movedOut), "\(month.month)")
            #expect(month.movedIn.minorUnits == Int128(check.movedIn), "\(month.month)")
            #expect(month.categories.mapValues { Int($0.minorUnits) } == check.categories, "\(month.month)")
            // The rate is left out while a month in progress has more out than in, and below −100%.
            let rate = check.income > 0 ? (check.income - check.spending) * 100 / check.income : nil
            #expect(month.savingsRate == rate.flatMap { ($0 < 0 && month.inProgress) || $0 < -100 ? nil : $0 })
            // The flows: what enters the accounts leaves them, and the money in and out are the table's.
            func isAccount(_ end: CashFlowReport.Flow.End) -> Bool { if case .account = end { true } else { false } }
            let into = month.flows.filter { isAccount($0.to) }.reduce(0) { $0 + $1.amount.minorUnits }
            let out = month.flows.filter { isAccount($0.from) }.reduce(0) { $0 + $1.amount.minorUnits }
            #expect(into == out)
            let sources = month.flows.filter { if case .source = $0.from { true } else { false } }.reduce(0) { $0 + $1.amount.minorUnits }
            let categories = month.flows.filter { if case .category = $0.to { true } else { false } }.reduce(0) { $0 + $1.amount.minorUnits }
            #expect(sources == month.income.minorUnits && categories == month.spending.minorUnits)
        }
        // November is in progress (data as of the 21st): compared with 1–21 October.
        let november = try #require(months.firstIndex { $0.month == CalendarMonth(year: 2026, month: 11) })
        let comparison = CashFlowReport.comparison(months, at: november, complete: false)
        #expect(comparison.throughDay == 21 && comparison.hasPrevious && !comparison.hasLastYear)
        let october = try #require(expected["2026-10"]?.categoriesThrough[21])
        for row in comparison.rows {
            #expect(row.previous.then?.minorUnits == Int128(october[row.category] ?? 0), "\(row.category)")
        }
        #expect(comparison.total.previous.then?.minorUnits == Int128(october.values.reduce(0, +)))
        let whole = CashFlowReport.comparison(months, at: november - 1, complete: true)
        #expect(whole.total.previous.then?.minorUnits == Int128(try #require(expected["2026-09"]).spending))
        #expect(whole.total.previous.percent == Int((Int128(try #require(expected["2026-10"]).spending) - Int128(expected["2026-09"]!.spending)) * 100
                                                    / Int128(expected["2026-09"]!.spending)))
    }

    /// The diagram has one band per flow, and its table beside it lists the same flows.
    @Test func theDiagramDrawsEveryFlowOfItsTable() throws {
        let dataset = try NetWorthTests.fixtures()
        let site = SiteReport.build(dataset)
        let renderer = PageRenderer(templates: try TemplateLibrary(), site: site)
        let page = try #require(site.pages.first { $0.path == "cashflow/2026-10" })
        let output = try renderer.render(page)
        let months = CashFlowReport.months(dataset, context: ReportContext(dataset: dataset), figures: AccountFigures.of(dataset, context: ReportContext(dataset: dataset)))
        let october = try #require(months.first { $0.month == CalendarMonth(year: 2026, month: 10) })
        #expect(output.html.components(separatedBy: "flow-link\"").count - 1 == october.flows.count)
        #expect(output.html.contains("<svg class=\"chart chart-flow\""))
        let markdown = unpadded(output.markdown)
        #expect(!markdown.contains("<svg"), "Markdown shows the table, not the drawing")
        for flow in october.flows {
            #expect(markdown.contains("| \(CashFlowReport.name(flow.from)) | \(CashFlowReport.name(flow.to)) | \(ReportContext(dataset: dataset).money(flow.amount)) |"))
        }
        // Every node is labelled with its amount on the drawing itself (no hovering needed): money in
        // is October's settled payments into Personal from others (the salary, Priya's share of the bills).
        let (start, end) = (try #require(Instant(iso8601: "2026-09-30T23:00:00Z")), try #require(Instant(iso8601: "2026-11-01T00:00:00Z")))
        let personal = try #require(dataset.accounts.first { $0.account.name == "Personal" })
        let moneyIn = personal.feed.filter { $0.status == .settled && $0.direction == .in && $0.source != .internalTransfer
            && $0.transactionTime >= start && $0.transactionTime < end }.reduce(Money.zero(.gbp)) { $0 + $1.amount }
        let label = ReportContext(dataset: dataset).money(moneyIn)
        #expect(output.html.contains(">\(label)</text>"), "\(label)")
        #expect(markdown.contains("| Money in | \(label) |"))
        // A move between the household's two accounts is named by the account at each end, never
        // "savings goals"; what the exchange rates made of it is said in words.
        #expect(markdown.contains("| Personal | To Euro Travel | £450.00 |") && markdown.contains("| From Personal | Euro Travel | £455.69 |"), "\(markdown)")
        #expect(!markdown.contains("savings goals |"), "no move between the accounts is called a goal's")
        #expect(markdown.contains("£450.00 went from Personal to Euro Travel and arrived as €522.90. At the month's rate that is\n£450.00 sent and £455.69 arrived: the £5.69 more is the difference"), "\(markdown)")
        let difference = try #require(october.exchangeDifferences.first)
        #expect(october.exchangeDifferences.count == 1 && difference.difference.minorUnits == 569 && difference.received.currency == .eur)
    }
}

/// A month's comparison names each change by what it compares with, and has year-ago columns only
/// once the data reaches the same month a year before (the synthetic data runs thirteen months).
/// Each month's money out meets spent line by line, per currency, and the lines are the data's.
@Suite struct CashFlowReconciliationTests {
    @Test func moneyOutMeetsSpentLineByLine() throws {
        let dataset = try NetWorthTests.fixtures()
        let context = ReportContext(dataset: dataset)
        let asOf = try #require(context.progress.asOf)
        let figures = AccountFigures.of(dataset, context: context)
        let months = CashFlowReport.months(dataset, context: context, figures: figures)
        let totals = SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock))
        let app = SpendingTotals(TransactionsRules.items(from: dataset, clock: context.clock, bankAccounts: false))
        let reconciliations = CashFlowReport.reconciliations(CashFlowReport.accounts(dataset, figures: figures), totals: totals, app: app,
                                                             months: months.map(\.month))
        let spent = BudgetsTests.expectedSpent(asOf: asOf.description)
        #expect(reconciliations.count == 3)
        for (month, lines) in reconciliations {
            let key = month.description
            // Read from the raw JSON: pending payments out (not moves), and settled ones with the moves out.
            var pending: [String: Int] = [:], settled: [String: Int] = [:], statementsOut: [String: Int] = [:]
            for account in HouseholdCheck.accounts {
                for item in account.items where item.out && item.day.hasPrefix(key) {
                    if item.status == "PENDING" && item.source != "INTERNAL_TRANSFER" { pending[item.currency, default: 0] += item.minor }
                    guard HouseholdCheck.counted(item, account) else { continue }
                    statementsOut[item.currency, default: 0] += item.minor
                    if item.source != "INTERNAL_TRANSFER" { settled[item.currency, default: 0] += item.minor }
                }
            }
            for currency in Set(lines.spent.amounts.map(\.currency)).union(lines.moneyOut.amounts.map(\.currency)) {
                let code = currency.code
                #expect(lines.notSettled[currency].minorUnits == Int128(pending[code] ?? 0), "\(key) \(code)")
                #expect(lines.moneyOut[currency].minorUnits == Int128(settled[code] ?? 0), "\(key) \(code)")
                #expect(lines.statementsOut[currency].minorUnits == Int128(statementsOut[code] ?? 0), "\(key) \(code)")
                #expect(lines.spent[currency] - lines.app[currency] - lines.notSettled[currency] == lines.moneyOut[currency])
                #expect(lines.moneyOut[currency] + lines.movedOut[currency] == lines.statementsOut[currency])
            }
            // Spent and the app's part, per currency, from the raw JSON: the bank accounts' payments out
            // (settled or pending, not moves) and the app's pinned entries.
            var rawSpent: [String: Int] = [:], rawApp: [String: Int] = [:]
            for account in HouseholdCheck.accounts {
                for item in account.items where item.out && item.day.hasPrefix(key) && ["SETTLED", "PENDING"].contains(item.status)
                    && item.source != "INTERNAL_TRANSFER" { rawSpent[item.currency, default: 0] += item.minor }
            }
            for entry in HouseholdCheck.json("transactions/transactions.json") as! [[String: Any]] where entry["pinned"] as? Bool ?? true {
                let date = entry["date"] as! String
                let day = date.count == 10 ? date : HouseholdCheck.localDay(date.replacingOccurrences(of: #"(:\d\d)(Z|[+-]\d\d:\d\d)$"#, with: "$1.000$2", options: .regularExpression))
                guard day.hasPrefix(key) else { continue }
                let minor = NSDecimalNumber(decimal: Decimal(string: "\(entry["amount"] as! Double)")! * 100).intValue
                rawSpent[entry["currency"] as? String ?? "GBP", default: 0] += minor
                rawApp[entry["currency"] as? String ?? "GBP", default: 0] += minor
            }
            #expect(Dictionary(uniqueKeysWithValues: lines.spent.amounts.map { ($0.currency.code, Int($0.minorUnits)) }) == rawSpent, "\(key)")
            #expect(Dictionary(uniqueKeysWithValues: lines.app.amounts.map { ($0.currency.code, Int($0.minorUnits)) }) == rawApp, "\(key)")
            let whole = try #require(BudgetsTests.months(dataset, context: context).first { $0.month == month })
            #expect(whole.allSpent.minorUnits == Int128(try #require(spent[key]).values.reduce(0, +)))
        }
        let site = SiteReport.build(dataset)
        let page = try #require(site.pages.first { $0.path == "cashflow/2026-11" })
        let markdown = unpadded(try PageRenderer(templates: try TemplateLibrary(), site: site).render(page).markdown)
        #expect(markdown.contains("| **Spent** | **£2,114.52** | **€451.27** |"), "\(markdown)")
        #expect(markdown.contains("| **The statements' money out** | **£1,339.08** | **€451.27** |"), "\(markdown)")
        #expect(markdown.contains("| **Money out** | **£1,730.54** |"), "the comparison's total is named money out")
    }
}

@Suite struct CashFlowComparisonColumnsTests {
    @Test func aYearAgoColumnAppearsOnlyOnceThereIsAYearAgo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nestegg-compare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try SyntheticData(scale: 1, seed: 7).write(to: folder)
        let log = DiagnosticLog()
        let dataset = DataLoader.load(try DataFolder(root: folder), log: log)
        let site = SiteReport.build(dataset)
        let renderer = try PageRenderer(templates: try TemplateLibrary(), site: site)
        let months = site.pages.filter { $0.path.hasPrefix("cashflow/") && $0.path != "cashflow/index" }.sorted { $0.path < $1.path }
        #expect(months.count >= 13)
        func header(_ page: Page) throws -> String {
            let markdown = unpadded(try renderer.render(page).markdown)
            let compared = try #require(markdown.range(of: "## Money out by category, compared"))
            return String(try #require(markdown[compared.upperBound...].split(separator: "\n").first { $0.hasPrefix("| Category") }))
        }
        let first = try header(months[1]), last = try header(months[months.count - 1])
        #expect(first.components(separatedBy: "Change from ").count == 2, "the month before only: \(first)")
        #expect(last.components(separatedBy: "Change from ").count == 3 && last.components(separatedBy: "% from ").count == 3, "and a year before: \(last)")
    }
}

/// The flow diagram names every flow in full: a name wraps onto lines between words (a word longer
/// than a line across lines), and only a name past four lines is cut.
@Suite struct FlowLabelTests {
    @Test func aNameWrapsInsteadOfBeingCut() {
        #expect(ChartSVG.wrapped("Bills and services") == ["Bills and", "services"])
        #expect(ChartSVG.wrapped("To savings goals and own accounts") == ["To savings goals", "and own accounts"])
        #expect(ChartSVG.wrapped("Food") == ["Food"] && ChartSVG.wrapped("") == [""])
        #expect(ChartSVG.wrapped("Supercalifragilisticexpialidocious") == ["Supercalifragili", "sticexpialidocio", "us"])
        for name in ["Left in the accounts", "From the accounts' balances", "Northwind Trading Company Ltd", String(repeating: "word ", count: 12)] {
            let lines = ChartSVG.wrapped(name)
            #expect(lines.allSatisfy { $0.count <= ChartSVG.flowLineLength } && lines.count <= ChartSVG.flowLines)
            #expect(lines.joined(separator: " ") == name.split(separator: " ").joined(separator: " "), "nothing cut: \(lines)")
        }
        let long = ChartSVG.wrapped(String(repeating: "x", count: 1_000_000))
        #expect(long.count == ChartSVG.flowLines && long.last?.hasSuffix("…") == true, "a name past four lines is cut, without reading it all")
    }
}
