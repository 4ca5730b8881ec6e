import Foundation

/// Work spread over every core, with results (and diagnostics) in a fixed order, so that what
/// a build prints and writes never depends on which thread finished first.
enum Concurrently {
    /// `body(0)`, `body(1)`, … run on every core; the results in index order.
    static func map<Result>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        let slots = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in slots[index] = body(index) }
        return slots.values
    }

    /// Like ``map(_:_:)``, for work that reports diagnostics: each call gets a log of its own,
    /// and their diagnostics reach `log` in index order.
    static func map<Result>(_ count: Int, log: DiagnosticLog, _ body: @Sendable (Int, DiagnosticLog) -> Result) -> [Result] {
        let results = map(count) { index in
            let own = DiagnosticLog()
            return (body(index, own), own)
        }
        for (_, own) in results { log.absorb(own) }
        return results.map(\.0)
    }
}

/// Slots that concurrent workers fill by index, each once; read when all are done.
final class Slots<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Value? {
        get { lock.withLock { storage[index] } }
        set { lock.withLock { storage[index] = newValue } }
    }

    var values: [Value] { lock.withLock { storage.map { $0! } } }
}
