import NestEggReport
import NestEggModel
import NestEggSupport
import Foundation

/// A program run in a process group of its own, so that it and everything it starts can be
/// stopped together, and stopped with nestegg (the `--pdf` printer's Chromium).
final class ChildProcess: Sendable {
    let pid: pid_t

    struct SpawnError: Error { let reason: String }

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` with `arguments`, standard input from /dev/null, standard output to
    /// /dev/null and standard error to `standardError`. With `diesWithParent`, it is started
    /// through util-linux's `setpriv --pdeathsig KILL` where that exists, so that the kernel kills
    /// it if nestegg itself is killed.
    static func spawn(_ executable: String, _ arguments: [String], diesWithParent: Bool, standardError: String) throws(SpawnError) -> ChildProcess {
        Self.installSignalHandlers()
        var command = [executable] + arguments
        if diesWithParent, let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: { (path: String) in access(path, X_OK) == 0 }) {
            command = [setpriv, "--pdeathsig", "KILL", "--"] + command
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError(reason: systemReason(result)) }
        running.add(pid)
        return ChildProcess(pid: pid)
    }

    /// The exit status once the program has ended (`nil` while it runs); 128 + N after signal N.
    func exitStatus() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 ? -1 : nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Kills the program's whole process group and reaps it.
    func killGroup() {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        Self.running.remove(pid)
    }

    /// The process groups to kill if nestegg is stopped by a signal. A fixed table read by the
    /// signal handler, which may call nothing but async-signal-safe functions (`kill`, `raise`) and
    /// so cannot take a lock: that is why it is a raw table (the one `@unchecked` left here).
    private final class Table: @unchecked Sendable {
        let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: 64)
        private let lock = NSLock()
        init() { slots.initialize(repeating: 0, count: 64) }
        func add(_ pid: pid_t) { lock.withLock { if let free = (0..<64).first(where: { slots[$0] == 0 }) { slots[free] = pid } } }
        func remove(_ pid: pid_t) { lock.withLock { for index in 0..<64 where slots[index] == pid { slots[index] = 0 } } }
    }

    private static let running = Table()
    private static let installed: Void = {
        // A parent may have started nestegg with these signals blocked (blocked masks are
        // inherited): unblocked here, or stopping nestegg would wait for Chromium to finish.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            _ = Glibc.signal(signal) { number in
                let slots = ChildProcess.running.slots
                for index in 0..<64 where slots[index] > 0 { kill(-slots[index], SIGKILL) }
                // Then nestegg stops as its own handler stops it (staged work removed, also as
                // PID 1, where a signal's default action does nothing); failing that, by default.
                if !Termination.stopFromSignalHandler(number) {
                    _ = Glibc.signal(number, SIG_DFL)
                    raise(number)
                }
            }
        }
    }()

    static func installSignalHandlers() { _ = installed }
}
