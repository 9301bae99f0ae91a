#if canImport(Glibc)
import Glibc
#endif
import CGestureSys
import GestureCore
import GestureConfig
import GesturePosix
import Logging
import GesturePosix

/// Runs binding commands: `/bin/sh -c COMMAND` where COMMAND is the fixed config text and every
/// gesture value travels only in GESTURE_* environment variables. Never blocks: processes are
/// spawned with posix_spawn in their own process group, reaped with `waitpid(WNOHANG)` when SIGCHLD
/// arrives through the loop's signalfd (`reap`), and killed (the whole group) at their timeout.
///
/// Nothing piles up: a binding has at most one command running. Triggers that come while it runs
/// (or while `concurrency` commands of other bindings run) are coalesced into one pending run per
/// binding, which learns how many triggers it stands for (GESTURE_STEPS; for stepped bindings the
/// net number of steps, whose sign is GESTURE_STEP). So at most `concurrency` processes run, and at
/// most one run per binding waits. Owned by the loop thread.
public final class BindingExecutor {
    /// A binding across triggers: the config generation (bumped at each reload) and its index.
    public struct BindingID: Hashable, Sendable {
        public var generation: Int
        public var index: Int
    }

    /// One trigger of a binding's command.
    public struct Job: Sendable {
        public var id: BindingID
        public var gesture: String
        public var command: String
        /// Kill after this many ms.
        public var timeout: Double = 10_000
        public var environment: [String: String] = [:]
        /// +1 / -1 for a step of a stepped binding, nil otherwise.
        public var step: Int?
    }

    /// Triggers waiting for their binding's command (or a free slot): the latest job's values, how
    /// many triggers, and the net steps.
    struct Pending {
        var job: Job
        var triggers: Int
        var steps: Int
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
        /// GESTURE_STEPS of the run: how many triggers (or net steps) it stood for.
        public var steps: Int
        /// How long it ran, milliseconds.
        public var milliseconds: Int64 = 0
    }

    public var concurrency: Int
    private(set) var running: [pid_t: Running] = [:]
    private var runningIDs: Set<BindingID> = []
    private var pending: [BindingID: Pending] = [:]
    /// Pending bindings in the order of their first waiting trigger.
    private var order: [BindingID] = []
    private let logger: Logger
    /// Grace between SIGTERM and SIGKILL after a timeout, µs.
    static let killGrace: Int64 = 2_000_000
    /// Finished commands, oldest first: the last 256 (tests; the daemon logs them and tells the
    /// explaining clients, `binding` lines).
    public private(set) var completions: [Completion] = []
    /// Commands finished since start (`completions` holds the last of them).
    public private(set) var completedCount = 0
    /// Triggers merged into a pending run since start.
    public private(set) var coalescedCount = 0

    public init(concurrency: Int, logger: Logger) {
        self.concurrency = max(1, concurrency)
        self.logger = logger
    }

    public var runningCount: Int { running.count }
    /// Runs waiting (at most one per binding).
    public var queuedCount: Int { pending.count }

    /// Starts the job's command now, or folds it into its binding's pending run.
    public func submit(_ job: Job, now: Int64 = monotonicMicroseconds()) {
        let step = job.step ?? 0
        if var waiting = pending[job.id] {
            waiting.job = job
            waiting.triggers += 1
            waiting.steps += step
            pending[job.id] = waiting
            coalescedCount += 1
        } else if runningIDs.contains(job.id) || running.count >= concurrency {
            pending[job.id] = Pending(job: job, triggers: 1, steps: step)
            order.append(job.id)
            if runningIDs.contains(job.id) { coalescedCount += 1 }
        } else {
            start(Pending(job: job, triggers: 1, steps: step), now: now)
        }
    }

    /// The environment of a run standing for `triggers` triggers (`steps` net steps for a stepped
    /// binding): GESTURE_STEP and GESTURE_STEPS added; nil when the steps cancel out (no run).
    static func runEnvironment(_ base: [String: String], step: Int?, triggers: Int, steps: Int) -> [String: String]? {
        var environment = base
        if step != nil {
            // Steps in opposite directions cancel; a run for no net step has nothing to do.
            guard steps != 0 else { return nil }
            environment["GESTURE_STEP"] = steps > 0 ? "+1" : "-1"
            environment["GESTURE_STEPS"] = String(abs(steps))
        } else {
            environment["GESTURE_STEPS"] = String(triggers)
        }
        return environment
    }

    private func start(_ run: Pending, now: Int64) {
        var job = run.job
        guard let environment = Self.runEnvironment(job.environment, step: job.step, triggers: run.triggers, steps: run.steps) else {
            logger.debug("binding run skipped: its coalesced steps cancel out", metadata: ["gesture": "\(job.gesture)"])
            return
        }
        job.environment = environment
        let count = Int(environment["GESTURE_STEPS"] ?? "1") ?? 1
        do {
            let pid = try BindingExecutor.spawn(command: job.command, environment: job.environment)
            let timeout = Int64(max(1, job.timeout) * 1000)
            running[pid] = Running(job: job, started: now, deadline: now + timeout)
            runningIDs.insert(job.id)
            logger.debug("binding started", metadata: ["gesture": "\(job.gesture)", "pid": "\(pid)", "steps": "\(count)"])
        } catch {
            logger.error("binding could not start",
                         metadata: ["gesture": "\(job.gesture)", "command": "\(job.command)", "error": "\(error)"])
        }
    }

    /// Collects every finished child (call on SIGCHLD), then starts pending runs.
    public func reap(now: Int64 = monotonicMicroseconds()) {
        for (pid, entry) in running {
            var status: Int32 = 0
            let result = retryingOnInterrupt { Errno.result(waitpid(pid, &status, WNOHANG)) }
            // ECHILD: already collected (or never ours); either way it is no longer running.
            guard result == .success(pid) || result == .failure(Errno(rawValue: ECHILD)) else { continue }
            let rc = (try? result.get()) ?? -1
            running[pid] = nil
            runningIDs.remove(entry.job.id)
            let exited = rc == pid && (status & 0x7f) == 0
            let completion = Completion(
                command: entry.job.command, gesture: entry.job.gesture,
                exitStatus: exited ? (status >> 8) & 0xff : nil,
                signal: rc == pid && !exited ? status & 0x7f : nil, timedOut: entry.terminated,
                steps: Int(entry.job.environment["GESTURE_STEPS"] ?? "1") ?? 1, milliseconds: (now - entry.started) / 1000)
            completions.append(completion)
            completedCount += 1
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
        startPending(now: now)
    }

    /// Starts waiting runs, oldest first, whose binding is idle, while slots are free.
    private func startPending(now: Int64) {
        var index = 0
        while index < order.count && running.count < concurrency {
            let id = order[index]
            guard !runningIDs.contains(id), let run = pending.removeValue(forKey: id) else {
                index += 1
                continue
            }
            order.remove(at: index)
            start(run, now: now)
        }
    }

    /// The next timeout (µs, CLOCK_MONOTONIC), for the loop's timer.
    /// Asked at every loop turn: no array is built, and with nothing running nothing is called.
    @inline(__always)
    public var nextDeadline: Int64? { running.isEmpty ? nil : earliestRunningDeadline() }

    private func earliestRunningDeadline() -> Int64? {
        var earliest: Int64?
        for entry in running.values where earliest == nil || entry.deadline < earliest! { earliest = entry.deadline }
        return earliest
    }

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

    /// posix_spawn `/bin/sh -c command` in a new process group, stdin /dev/null, no descriptor
    /// beyond stderr, default signal mask and dispositions, with the daemon's environment plus
    /// `environment`.
    static func spawn(command: String, environment: [String: String]) throws(SystemCallError) -> pid_t {
        var env = ProcessEnvironment.current().filter { !privateVariables.contains($0.key) && !$0.key.hasPrefix("GESTURE_") }
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
        // Only stdin, stdout and stderr reach the command: nothing the daemon inherited or opened.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

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
