#if canImport(Glibc)
import Glibc
#endif
import CGestureSys
import GestureCore
import GestureConfig
import GestureDevices
import Logging

/// Runs command bindings: `/bin/sh -c COMMAND` where COMMAND is the fixed config text and
/// every gesture value travels only in GESTURE_* environment variables. Never blocks: processes are
/// spawned with posix_spawn in their own process group, reaped with `waitpid(WNOHANG)` when SIGCHLD
/// arrives (`reap`), killed (the whole group) at their timeout, and at most `concurrency` run at once;
/// the rest wait in a bounded queue. Owned by the loop thread.
public final class BindingExecutor {
    /// A command waiting to run.
    public struct Job: Sendable {
        public var binding: Binding
        public var environment: [String: String]
    }

    struct Running {
        var job: Job
        var started: Int64
        var deadline: Int64
        /// SIGTERM was sent; SIGKILL follows at `deadline`.
        var terminated = false
    }

    /// How a finished command ended.
    public struct Completion: Sendable, Equatable {
        public var command: String
        public var gesture: String
        /// Exit status, or nil when killed by a signal.
        public var exitStatus: Int32?
        public var signal: Int32?
        public var timedOut: Bool
    }

    public var concurrency: Int
    public var queueLimit: Int
    private(set) var running: [pid_t: Running] = [:]
    private(set) var queue: [Job] = []
    private let logger: Logger
    /// Grace between SIGTERM and SIGKILL after a timeout, µs.
    static let killGrace: Int64 = 2_000_000
    /// Finished commands, oldest first (tests; the daemon logs them).
    public private(set) var completions: [Completion] = []

    public init(concurrency: Int, queueLimit: Int = 64, logger: Logger) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = queueLimit
        self.logger = logger
    }

    public var runningCount: Int { running.count }
    public var queuedCount: Int { queue.count }

    /// Bindings that fire for this event: same gesture id, and a listed state (or, with no states
    /// given, the gesture's completion: recognized or ended).
    public static func matching(_ bindings: [Binding], _ event: GestureEvent) -> [Binding] {
        bindings.filter { binding in
            guard binding.gesture == event.gesture else { return false }
            if binding.states.isEmpty { return event.state == .recognized || event.state == .ended }
            return binding.states.contains(event.state)
        }
    }

    /// The GESTURE_* variables for an event.
    public static func environment(for event: GestureEvent) -> [String: String] {
        var env: [String: String] = [
            "GESTURE_ID": event.gesture,
            "GESTURE_KIND": event.kind.rawValue,
            "GESTURE_STATE": event.state.rawValue,
            "GESTURE_FINGERS": String(event.fingers),
            "GESTURE_REGION": event.region,
            "GESTURE_DEVICE": event.device,
            "GESTURE_TIME": JSONLine.number(event.time.seconds),
        ]
        if let d = event.direction { env["GESTURE_DIRECTION"] = d.rawValue }
        if let s = event.scale { env["GESTURE_SCALE"] = JSONLine.number(s) }
        if let r = event.rotation { env["GESTURE_ROTATION"] = JSONLine.number(r) }
        if let t = event.translation {
            env["GESTURE_TRANSLATION_X"] = JSONLine.number(t.x)
            env["GESTURE_TRANSLATION_Y"] = JSONLine.number(t.y)
        }
        if let l = event.location {
            env["GESTURE_X"] = JSONLine.number(l.x)
            env["GESTURE_Y"] = JSONLine.number(l.y)
        }
        if let taps = event.taps { env["GESTURE_TAPS"] = String(taps) }
        return env
    }

    /// Runs every binding matching the event (or queues it).
    public func trigger(_ bindings: [Binding], for event: GestureEvent, now: Int64 = monotonicMicroseconds()) {
        for binding in BindingExecutor.matching(bindings, event) {
            submit(Job(binding: binding, environment: BindingExecutor.environment(for: event)), now: now)
        }
    }

    public func submit(_ job: Job, now: Int64 = monotonicMicroseconds()) {
        if running.count < concurrency {
            start(job, now: now)
        } else if queue.count < queueLimit {
            queue.append(job)
        } else {
            logger.warning("binding queue full; command skipped",
                           metadata: ["gesture": "\(job.binding.gesture)", "limit": "\(queueLimit)"])
        }
    }

    private func start(_ job: Job, now: Int64) {
        do {
            let pid = try BindingExecutor.spawn(command: job.binding.command, environment: job.environment)
            let timeout = Int64(max(1, job.binding.timeout) * 1000)
            running[pid] = Running(job: job, started: now, deadline: now + timeout)
            logger.debug("binding started", metadata: ["gesture": "\(job.binding.gesture)", "pid": "\(pid)"])
        } catch {
            logger.error("binding could not start",
                         metadata: ["gesture": "\(job.binding.gesture)", "command": "\(job.binding.command)", "error": "\(error)"])
        }
    }

    /// Collects every finished child (call on SIGCHLD), then starts queued commands.
    public func reap(now: Int64 = monotonicMicroseconds()) {
        for (pid, entry) in running {
            var status: Int32 = 0
            let rc = retryingOnInterrupt { waitpid(pid, &status, WNOHANG) }
            guard rc == pid || (rc < 0 && errno == ECHILD) else { continue }
            running[pid] = nil
            let exited = rc == pid && (status & 0x7f) == 0
            let completion = Completion(
                command: entry.job.binding.command, gesture: entry.job.binding.gesture,
                exitStatus: exited ? (status >> 8) & 0xff : nil,
                signal: rc == pid && !exited ? status & 0x7f : nil, timedOut: entry.terminated)
            completions.append(completion)
            if completions.count > 256 { completions.removeFirst(completions.count - 256) }
            let ms = (now - entry.started) / 1000
            var meta: Logger.Metadata = ["gesture": "\(completion.gesture)", "pid": "\(pid)", "ms": "\(ms)"]
            if let code = completion.exitStatus { meta["status"] = "\(code)" }
            if let sig = completion.signal { meta["signal"] = "\(sig)" }
            if completion.timedOut {
                logger.warning("binding timed out and was killed", metadata: meta)
            } else if completion.exitStatus == 0 {
                logger.info("binding finished", metadata: meta)
            } else {
                logger.warning("binding failed", metadata: meta)
            }
        }
        while running.count < concurrency && !queue.isEmpty {
            start(queue.removeFirst(), now: now)
        }
    }

    /// The next timeout (µs, CLOCK_MONOTONIC), for the loop's timer.
    public var nextDeadline: Int64? { running.values.map(\.deadline).min() }

    /// Kills the process groups of commands past their timeout: SIGTERM, then SIGKILL after a grace.
    public func enforceTimeouts(now: Int64 = monotonicMicroseconds()) {
        for (pid, entry) in running where entry.deadline <= now {
            if entry.terminated {
                kill(-pid, SIGKILL)
                running[pid]?.deadline = now + BindingExecutor.killGrace
            } else {
                kill(-pid, SIGTERM)
                running[pid]?.terminated = true
                running[pid]?.deadline = now + BindingExecutor.killGrace
            }
        }
    }

    /// Environment variables never passed on to commands (they belong to the daemon's service manager).
    static let privateVariables: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS",
                                                 "LISTEN_PID", "LISTEN_FDNAMES"]

    /// posix_spawn `/bin/sh -c command` in a new process group, stdin /dev/null, default signal
    /// mask and dispositions, with the daemon's environment plus `environment`.
    static func spawn(command: String, environment: [String: String]) throws(SystemCallError) -> pid_t {
        var env: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let item = String(cString: pointer)
            if let eq = item.firstIndex(of: "=") {
                let key = String(item[..<eq])
                if !privateVariables.contains(key) && !key.hasPrefix("GESTURE_") {
                    env[key] = String(item[item.index(after: eq)...])
                }
            }
            entry += 1
        }
        for (k, v) in environment { env[k] = v.replacingNUL }
        let envStrings = env.keys.sorted().map { "\($0)=\(env[$0]!)" }
        let argvStrings = ["/bin/sh", "-c", command.replacingNUL]

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE, SIGQUIT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        let argv = argvStrings.map { strdup($0) } + [nil]
        let envp = envStrings.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        if rc != 0 { throw SystemCallError("posix_spawn", code: rc, subject: "/bin/sh -c \(command)") }
        return pid
    }
}

extension String {
    /// C strings cannot carry NUL; a value containing one is cut there by the kernel anyway.
    var replacingNUL: String { contains("\0") ? String(unicodeScalars.map { $0 == "\0" ? "?" : Character($0) }) : self }
}
