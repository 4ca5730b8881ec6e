import Foundation
import Synchronization

/// Work spread over every core, with results (and diagnostics) in a fixed order, so that what
/// a build prints and writes never depends on which thread finished first.
public enum Concurrently {
    /// `body(0)`, `body(1)`, … run on every core; the results in index order.
    public static func map<Result>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        let slots = Slots<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in slots[index] = body(index) }
        return slots.values
    }

    /// Like ``map(_:_:)``, for work that reports diagnostics: each call gets a log of its own,
    /// and their diagnostics reach `log` in index order.
    public static func map<Result>(_ count: Int, log: DiagnosticLog, _ body: @Sendable (Int, DiagnosticLog) -> Result) -> [Result] {
        let results = map(count) { index in
            let own = DiagnosticLog()
            return (body(index, own), own)
        }
        for (_, own) in results { log.absorb(own) }
        return results.map(\.0)
    }

    /// `body(0)`, `body(1)`, … run on every core until one fails: calls after the first failure
    /// in index order are skipped (those before it still run), so the failure returned is always
    /// the lowest index's, whichever worker met it first.
    public static func firstFailure<Failure: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Failure?) -> Failure? {
        let first = Mutex<(index: Int, failure: Failure)?>(nil)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            guard index < first.withLock({ $0?.index ?? .max }) else { return }
            guard let failure = body(index) else { return }
            first.withLock { current in
                if index < current?.index ?? .max { current = (index, failure) }
            }
        }
        return first.withLock { $0?.failure }
    }
}

/// Work on a thread of its own, beside what the caller goes on with: one core's worth of work
/// that would otherwise leave the other cores waiting. ``value`` waits for it.
public final class Beside<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.start()
    }

    /// The work's value, once it is done; asked again, the same.
    public var value: Value {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}

/// Slots that concurrent workers fill by index, each once; read when all are done.
///
/// `@unchecked`: the values need not be `Sendable` (a worker's diagnostic log is handed over
/// whole), and each crosses threads exactly once, from the worker that wrote it to the caller,
/// after `concurrentPerform` has returned; the lock orders those accesses.
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
