import NestEggModel
import NestEggSupport
/// The transfer ledger of the transfer app (seed 001): `transfers/index` (every transfer, the
/// people's totals and the failures by reason) and `transfers/<person>` (one person's transfers).
public enum TransfersReport {
    public static let section = Section(id: "transfers", title: "Transfers", path: "transfers/index")

    // MARK: View data (what the templates see)

    struct IndexView: Sendable, Encodable {
        let timeZone: String
        let countText: String
        let successCount: String
        let failureCount: String
        let moved: String
        let transfers: [TransferRow]
        let hasTransfers: Bool
        let people: [PersonRow]
        let hasPeople: Bool
        let sentChart: Chart?
        let failures: [FailureGroup]
        let hasFailures: Bool
        /// Which part of "Every transfer" this page shows; the people and the failures are on page 1.
        let pager: Pagination.View
        let isFirstPage: Bool
        /// The people's pages, once each, for the reference-style links of the tables (`[Ann][p1]`):
        /// a row reads as names in Markdown, not as two page addresses of 20 random characters.
        let references: [LinkReference]
    }

    struct TransferRow: Sendable, Encodable {
        let date: String
        let time: String
        let tid: String
        let from: String
        let fromHref: String
        /// The reference label of the sender's page (``LinkReference``), and the recipient's.
        let fromRef: String
        let to: String
        let toHref: String
        let toRef: String
        let amount: String
        let status: String
        /// The transfer did not go through: marked in words, not by colour alone.
        let failed: Bool
    }

    struct PersonRow: Sendable, Encodable {
        let name: String
        let href: String
        let ref: String
        let known: Bool
        let sentCount: Int
        let sent: String
        let receivedCount: Int
        let received: String
        let net: String
        let failedCount: Int
    }

    struct FailureGroup: Sendable, Encodable {
        /// `Recipient not found (003)`; an unknown status already names its code.
        let heading: String
        let countText: String
        let value: String
        let transfers: [TransferRow]
    }

    struct PersonView: Sendable, Encodable {
        let name: String
        let known: Bool
        /// The end of an unknown person's id (``Person/idEnding``).
        let idEnding: String
        let timeZone: String
        let lines: [PersonLine]
        let hasLines: Bool
        let sentText: String
        let sent: String
        let receivedCount: Int
        let received: String
        let net: String
        let failedText: String
    }

    struct PersonLine: Sendable, Encodable {
        let date: String
        let time: String
        let tid: String
        let direction: String
        let counterparty: String
        let counterpartyHref: String
        let amount: String
        let status: String
        let failed: Bool
        let runningNet: String
    }

    // MARK: Building

    /// One person of the ledger: a user from users.json, or a uid that only the transfers name.
    struct Person {
        let uid: String
        /// The user's name; for someone not among the users, "Unknown person …99x1".
        let name: String
        let known: Bool
        let currency: Currency
        let slug: String
        /// The end of the uid that tells this unknown person from the others ("" for a user).
        var idEnding = ""
    }

    /// Everyone in users.json (in its order), then any other uid the transfers name (sorted),
    /// each with a unique slug made from the uid. The data's ids are not names: someone not among
    /// the users is named as unknown, told from the others by the shortest end of their id (four
    /// characters at least) that no other unknown id shares.
    static func people(_ data: TransfersData, settings: Settings) -> [Person] {
        var allocator = SlugAllocator(reserved: ["index"])
        let fallback = settings.currency(forSource: "transfers")
        var result = data.users.map { user in
            Person(uid: user.uid, name: user.name, known: true, currency: user.currency ?? fallback,
                   slug: allocator.allocate(user.uid, fallback: "person"))
        }
        let known = Set(data.users.map(\.uid))
        let unknown = Set(data.transfers.flatMap { [$0.fromUid, $0.toUid] }).subtracting(known).sorted()
        let endings = idEndings(unknown)
        for uid in unknown {
            let ending = endings[uid] ?? uid
            // (An id short enough to be its own ending is shown whole, without the "…".)
            result.append(Person(uid: uid, name: ending == uid ? "Unknown person \(uid)" : "Unknown person …\(ending)", known: false, currency: fallback,
                                 slug: allocator.allocate(uid, fallback: "person"), idEnding: ending))
        }
        return result
    }

    /// Each of `ids`' shortest end, four to twelve characters, that ends no other of them; the
    /// whole id when none does. (Counted one length at a time: linear in the ids, however many.)
    static func idEndings(_ ids: [String]) -> [String: String] {
        var result: [String: String] = [:]
        let characters = ids.map { Array($0) }
        var open = Array(ids.indices)
        for length in 4...12 where !open.isEmpty {
            var counts: [String: Int] = [:]
            for characters in characters where characters.count >= length { counts[String(characters.suffix(length)), default: 0] += 1 }
            open = open.filter { index in
                let ending = String(characters[index].suffix(min(length, characters[index].count)))
                guard characters[index].count <= length || counts[ending] == 1 else { return true }
                result[ids[index]] = characters[index].count <= length ? ids[index] : ending
                return false
            }
        }
        return result
    }

    static func personPath(_ person: Person) -> String { "transfers/\(person.slug)" }

    /// The places of `transfers`, newest first; ties in the order of their transaction ids, then
    /// in their own order.
    static func newestFirstOrder(_ transfers: [Transfer]) -> [Int] {
        transfers.indices.sorted { a, b in
            let (x, y) = (transfers[a], transfers[b])
            if x.time != y.time { return x.time > y.time }
            if x.tid != y.tid { return x.tid < y.tid }
            return a < b
        }
    }

    /// Totals of one person's successful transfers.
    struct Totals {
        var sent = MoneyTotals()
        var received = MoneyTotals()
        var net = MoneyTotals()
        var sentCount = 0
        var receivedCount = 0
        var failedCount = 0

        init(uid: String, transfers: some Sequence<Transfer>) {
            for transfer in transfers where transfer.fromUid == uid || transfer.toUid == uid {
                guard transfer.status.isSuccess else { failedCount += 1; continue }
                if transfer.fromUid == uid {
                    sent.add(transfer.amount); net.add(-transfer.amount); sentCount += 1
                }
                if transfer.toUid == uid {
                    received.add(transfer.amount); net.add(transfer.amount); receivedCount += 1
                }
            }
        }
    }

    /// Totals per currency, or zero in `currency` when there are none.
    static func money(_ totals: MoneyTotals, zero currency: Currency, context: ReportContext) -> String {
        totals.isEmpty ? context.money(Money.zero(currency)) : context.money(totals)
    }

    public static func pages(for dataset: Dataset, context: ReportContext) -> [Page] {
        let data = dataset.transfers
        guard !data.isEmpty else { return [] }
        let people = self.people(data, settings: context.settings)
        let byUid = Dictionary(people.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        // Each person's reference label: their place in the list (a label is one per page, whatever the names).
        var refs: [String: String] = [:]
        for (index, person) in people.enumerated() where refs[person.uid] == nil { refs[person.uid] = "p\(index + 1)" }
        let labels = refs
        let fallback = context.settings.currency(forSource: "transfers")
        let crumbs = [Link("Dashboard", "index")]
        let indexCrumbs = crumbs + [Link(section.title, section.path)]

        let row: @Sendable (Transfer) -> TransferRow = { transfer in
            let from = byUid[transfer.fromUid]!, to = byUid[transfer.toUid]!
            return TransferRow(date: context.date(transfer.time), time: context.time(transfer.time), tid: transfer.tid,
                               from: from.name, fromHref: ReportContext.href(personPath(from)), fromRef: labels[from.uid]!,
                               to: to.name, toHref: ReportContext.href(personPath(to)), toRef: labels[to.uid]!,
                               amount: context.money(transfer.amount), status: transfer.status.words,
                               failed: !transfer.status.isSuccess)
        }

        // The lists below hold places in `all`, not copies of the transfers: each copy of a
        // hundred thousand transfers cost as much as the list itself.
        let all = data.transfers
        let ordered = newestFirstOrder(all)
        let failed = ordered.filter { !all[$0].status.isSuccess }
        let successCount = all.count - failed.count
        var moved = MoneyTotals()
        var currencies = Set<Currency>()
        for transfer in all where transfer.status.isSuccess {
            moved.add(transfer.amount)
            currencies.insert(transfer.amount.currency)
        }

        // Each person's transfers, found once (not by a pass over every transfer per person).
        var byPerson: [String: [Int]] = [:]
        for (index, transfer) in all.enumerated() {
            byPerson[transfer.fromUid, default: []].append(index)
            if transfer.toUid != transfer.fromUid { byPerson[transfer.toUid, default: []].append(index) }
        }
        var personRows: [PersonRow] = []
        var bars: [Chart.Bar] = []
        var pages: [Page] = []
        for person in people {
            let places = byPerson[person.uid] ?? []
            let totals = Totals(uid: person.uid, transfers: places.lazy.map { all[$0] })
            let href = ReportContext.href(personPath(person))
            personRows.append(PersonRow(
                name: person.name, href: href, ref: refs[person.uid]!, known: person.known,
                sentCount: totals.sentCount, sent: money(totals.sent, zero: person.currency, context: context),
                receivedCount: totals.receivedCount, received: money(totals.received, zero: person.currency, context: context),
                net: money(totals.net, zero: person.currency, context: context), failedCount: totals.failedCount))
            if totals.sent.amounts.count <= 1 {
                let sent = totals.sent.amounts.first ?? .zero(person.currency)
                bars.append(Chart.Bar(label: person.name, value: sent.minorUnits, valueText: context.money(sent)))
            }
            pages.append(Page(path: personPath(person), title: "Transfers of \(person.name)", template: "transfers-person",
                              section: section.id, breadcrumbs: indexCrumbs,
                              view: personView(person, totals: totals, transfers: places.map { all[$0] }, people: byUid, context: context)))
        }

        var groups: [TransferStatus: [Int]] = [:]
        for index in failed { groups[all[index].status, default: []].append(index) }
        let failedByStatus = groups.keys.sorted().map { ($0, groups[$0]!) }
        // Built with the first page's view, when it is rendered.
        let failures: @Sendable () -> [FailureGroup] = {
            failedByStatus.map { status, places in
                let heading: String
                if case .unknown = status { heading = status.words } else { heading = "\(status.words) (\(status.code))" }
                return FailureGroup(heading: heading, countText: context.counted(places.count, "transfer"),
                                    value: context.money(MoneyTotals(places.map { all[$0].amount })), transfers: places.map { row(all[$0]) })
            }
        }
        // One chart only when every person's sends are in one currency (a bar cannot mix currencies).
        let chart = bars.count == people.count && currencies.count <= 1 && bars.contains { $0.value > 0 }
            ? Chart.bars(bars, title: "Money sent per person (successful transfers)") : nil

        let pagination = Pagination(count: ordered.count)
        let personList = personRows
        let movedText = moved.isEmpty ? context.money(Money.zero(fallback)) : context.money(moved)
        let indexPages = pagination.pages(base: section.path, title: "Transfers").map { page in
            let first = page.number == 1
            let rows = ordered[page.range].map { row(all[$0]) }
            let failureGroups = first ? failures() : []
            // The page's references: everyone on page 1 (its table of people lists them all), else the rows' people.
            let pairs: [(String, String)] = first
                ? people.map { (labels[$0.uid]!, ReportContext.href(personPath($0))) }
                : rows.flatMap { [($0.fromRef, $0.fromHref), ($0.toRef, $0.toHref)] }
            var used = Set<String>()
            let references = pairs.filter { used.insert($0.0).inserted }.map { LinkReference(label: $0.0, href: $0.1) }
            return Page(path: page.path, title: page.title, template: "transfers-index", section: section.id,
                        breadcrumbs: first ? crumbs : indexCrumbs,
                        view: IndexView(
                            timeZone: context.clock.identifier, countText: context.counted(ordered.count, "transfer"),
                            successCount: context.count(successCount), failureCount: context.count(failed.count), moved: movedText,
                            transfers: rows, hasTransfers: !ordered.isEmpty,
                            people: first ? personList : [], hasPeople: first && !personList.isEmpty,
                            sentChart: first ? chart : nil, failures: failureGroups,
                            hasFailures: !failedByStatus.isEmpty,
                            pager: pagination.view(page: page.number, base: section.path, noun: "transfers", locale: context.locale),
                            isFirstPage: first, references: references))
        }
        pages.insert(contentsOf: indexPages, at: 0)
        return pages
    }

    /// One person's transfers, oldest first, with the running net of the successful ones
    /// (`transfers` may hold others', which are left out).
    static func personView(_ person: Person, totals: Totals, transfers: [Transfer], people: [String: Person],
                           context: ReportContext) -> PersonView {
        let mine = transfers.filter { $0.fromUid == person.uid || $0.toUid == person.uid }
            .sorted { ($0.time, $0.tid) < ($1.time, $1.tid) }
        var running = MoneyTotals()
        var lines: [PersonLine] = []
        for transfer in mine {
            let outgoing = transfer.fromUid == person.uid
            let other = people[outgoing ? transfer.toUid : transfer.fromUid]!
            let signed = outgoing ? -transfer.amount : transfer.amount
            if transfer.status.isSuccess {
                running.add(signed)
                if transfer.fromUid == transfer.toUid { running.add(transfer.amount) }  // to oneself: nets to nothing
            }
            lines.append(PersonLine(
                date: context.date(transfer.time), time: context.time(transfer.time), tid: transfer.tid,
                direction: outgoing ? "Sent to" : "Received from", counterparty: other.name,
                counterpartyHref: ReportContext.href(personPath(other)), amount: context.money(signed),
                status: transfer.status.words, failed: !transfer.status.isSuccess,
                runningNet: money(running, zero: person.currency, context: context)))
        }
        return PersonView(
            name: person.name, known: person.known, idEnding: person.idEnding, timeZone: context.clock.identifier,
            lines: lines, hasLines: !lines.isEmpty,
            sentText: context.counted(totals.sentCount, "successful transfer"), sent: money(totals.sent, zero: person.currency, context: context),
            receivedCount: totals.receivedCount, received: money(totals.received, zero: person.currency, context: context),
            net: money(totals.net, zero: person.currency, context: context),
            failedText: context.counted(totals.failedCount, "transfer") + " failed")
    }

    /// The start page's transfers: how many, the value moved, and the failures.
    public static func dashboard(for dataset: Dataset, context: ReportContext) -> DashboardSection? {
        let data = dataset.transfers
        guard !data.isEmpty else { return nil }
        let successful = data.transfers.filter(\.status.isSuccess)
        let moved = MoneyTotals(successful.map(\.amount))
        let href = ReportContext.href(section.path)
        // When they happened, on the card: the ledger may be years older than the data's "as of" date.
        let times = data.transfers.map(\.time)
        let when = times.min().flatMap { first in times.max().map { last in
            let (a, b) = (context.clock.date(of: first), context.clock.date(of: last))
            return a == b ? context.date(a) : context.locale.formatRange(a, b)
        } }
        let figures: [DashboardSection.Figure] = [
            .init(label: when.map { "Transfers, \($0)" } ?? "Transfers", value: context.count(data.transfers.count), href: href,
                  count: data.transfers.count, id: "transfers"),
            .init(label: "Value moved (successful transfers)",
                  value: moved.isEmpty ? context.money(Money.zero(context.settings.currency(forSource: "transfers"))) : context.money(moved),
                  href: href),
            .init(label: "Failed transfers", value: context.count(data.transfers.count - successful.count), href: href,
                  count: data.transfers.count - successful.count),
        ]
        // The failures' table is the ledger's page's: the start page keeps to the household's figures.
        return DashboardSection(title: "Transfers", href: href, linkText: "The transfer ledger", figures: figures)
    }
}
