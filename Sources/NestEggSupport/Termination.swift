import Foundation

/// How nestegg stops on SIGTERM, SIGINT and SIGHUP, whatever its process id: a batch engine stops a
/// worker with SIGTERM (a pod evicted, `scancel`, a job past its time), a closed terminal or SSH
/// session sends SIGHUP (ignored, as `nohup` asks, when nestegg starts with it ignored), and a process that is
/// PID 1 of its namespace (a container's entry point) gets no default action from the kernel, so
/// without handlers of its own it would run on until killed.
///
/// ``install()`` makes each signal wake a thread of nestegg's own (the handler only writes the
/// signal's number into a pipe, which is all a handler may safely do). That thread waits for any
/// ``holding(_:)`` section to end — the swap of a finished output, which must not be cut in two —
/// then removes what was registered with ``removeOnStop(_:)`` and ``removeOnStop(making:by:)`` (the
/// folders a build stages into, the files it stages beside the output and their list),
/// says so on standard error and exits with 128 + the signal's number (143 for SIGTERM, 130 for
/// SIGINT, 129 for SIGHUP). The previous output is never touched: it is replaced only inside a held section.
///
/// The other threads are not stopped first: a worker may create a file in a staging folder while
/// it is being removed, so the removal is retried until the folder stays gone.
public enum Termination {
    /// The signals nestegg stops on.
    public static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// A path to remove if nestegg is stopped, until ``end()``.
    public final class Registration: Sendable {
        let number: Int
        init(number: Int) { self.number = number }

        /// Forgets the path: it is no longer nestegg's to remove.
        public func end() {
            registry.condition.lock()
            registry.entries[number] = nil
            registry.condition.unlock()
        }
    }

    /// What the stopping thread and the build share, behind one condition.
    private final class Registry: @unchecked Sendable {
        let condition = NSCondition()
        var installed = false
        var next = 0
        /// The registered paths, and whether each is a file (made once, under a name of its own, so
        /// never made again once removed) rather than a folder (which a worker may make again).
        var entries: [Int: (path: String, file: Bool)] = [:]
        var holds = 0
    }
    private static let registry = Registry()

    /// Installs the handlers (once; later calls do nothing).
    public static func install() {
        registry.condition.lock()
        defer { registry.condition.unlock() }
        guard !registry.installed else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        stopPipe = ends[1]
        registry.installed = true
        let reader = ends[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(reader, &byte, 1)
                if count == 1 { stop(Int32(byte)) }
                if count == 0 || (count < 0 && errno != EINTR) { return }
            }
        }
        thread.name = "nestegg-stop"
        thread.start()
        // A parent may have started nestegg with these signals blocked (blocked masks are inherited).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            // A hang-up that the parent chose to ignore (`nohup`) stays ignored.
            var current = sigaction()
            if number == SIGHUP, sigaction(number, nil, &current) == 0, let handler = current.__sigaction_handler.sa_handler,
               unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            _ = signal(number, onStopSignal)
        }
    }

    /// Registers the folder `path` (one this process makes and owns: registered before it is made,
    /// so that a stop never comes between the two) to be removed if nestegg is stopped before the
    /// registration ends.
    public static func removeOnStop(_ path: String) -> Registration {
        registry.condition.lock()
        defer { registry.condition.unlock() }
        registry.next += 1
        registry.entries[registry.next] = (path, false)
        return Registration(number: registry.next)
    }

    /// Makes the file `path` with `make` (`nil`, or the `errno` it failed with) and registers it to
    /// be removed if nestegg is stopped, as one step: a stop finds it registered, or not made.
    /// - Returns: the registration, or why the file was not made.
    public static func removeOnStop(making path: String, by make: (String) -> Int32?) -> Result<Registration, Ownership.SystemError> {
        registry.condition.lock()
        defer { registry.condition.unlock() }
        if let failure = make(path) { return .failure(Ownership.SystemError(code: failure)) }
        registry.next += 1
        registry.entries[registry.next] = (path, true)
        return .success(Registration(number: registry.next))
    }

    /// Runs `body` with a stop held off until it returns: a signal that comes meanwhile takes
    /// effect right after, and one that came before it keeps it from starting.
    public static func holding<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        registry.condition.lock()
        registry.holds += 1
        registry.condition.unlock()
        defer {
            registry.condition.lock()
            registry.holds -= 1
            registry.condition.broadcast()
            registry.condition.unlock()
        }
        return try body()
    }

    /// On the stopping thread: waits for the held sections, removes what is registered, exits.
    /// The lock is kept to the end, so nothing registers or holds once the stop has begun.
    private static func stop(_ signal: Int32) -> Never {
        registry.condition.lock()
        while registry.holds > 0 { registry.condition.wait() }
        let entries = registry.entries.keys.sorted().compactMap { registry.entries[$0] }
        for (path, file) in entries {
            if file { unlink(path) } else { remove(path) }
        }
        let name = signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : signal == SIGHUP ? "SIGHUP" : "signal \(signal)"
        let line = "nestegg: stopped by \(name)"
            + (entries.isEmpty ? "" : "; what it had staged was removed and the previous output left as it was") + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        _exit(128 + signal)
    }

    /// Removes the folder `path`, again while it comes back (a worker that was creating a file in it).
    static func remove(_ path: String) {
        for _ in 0..<20 {
            var status = stat()
            if lstat(path, &status) != 0 {
                // Gone: make sure no worker was about to create it again.
                usleep(5_000)
                if lstat(path, &status) != 0 { return }
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

extension Termination {
    /// For another signal handler that replaces nestegg's for a while (one that first kills child
    /// processes): stops nestegg as its own handler would. Async-signal-safe (one `write(2)`).
    /// - Returns: whether ``install()`` was called; if not, the caller must stop the process itself.
    public static func stopFromSignalHandler(_ signal: Int32) -> Bool {
        guard stopPipe >= 0 else { return false }
        onStopSignal(signal)
        return true
    }
}

/// The write end of the pipe the handler writes into; set once, before the handlers are installed.
nonisolated(unsafe) private var stopPipe: Int32 = -1

/// The signal handler: only `write(2)`, which is safe in a handler.
private func onStopSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(stopPipe, &byte, 1)
}
