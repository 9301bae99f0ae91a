#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GesturePosix
import GestureProtocol

/// The bridge's loop: reads the compositor's scene after each of its events (and every poll
/// interval while windows exist, for the changes it sends no event for), and sends the scene to the
/// sink when it differs from the last one sent. A compositor or a daemon that goes away is tried
/// again with backoff; while the compositor is away the daemon connection is closed, so the daemon
/// drops the windows at once.
///
/// The table is `transition(from:on:once:)`'s; `handle` logs and performs its actions. Each row's
/// actions are in brackets; `once`: what a `--once` run does instead.
///
/// | state | event | next | what is done |
/// |---|---|---|---|
/// | looking | `compositorFound` | reading | the scene read and sent [readScene] |
/// | looking | `compositorMissing` | looking | a restarted compositor looked for where it documents its socket (`CompositorDiscovery`), the next attempt after the backoff [lookForRestartedCompositor, retryCompositorLater] (`once`: finished, 1) |
/// | reading | `compositorNews`, `pollDue` | reading | the scene read, sent if it changed [readScene] |
/// | reading | `compositorLost` | looking | the source disconnected, the sink closed; the next attempt after the backoff [disconnectSource, closeSink, retryCompositorLater] (`once`: finished, 1) |
/// | looking, reading | `sinkGone` | the same | the sink closed (nothing of it is watched until it opens again); opened again after its backoff (at most 1 s), the scene sent again [retrySinkLater] (`once`: finished, 1) |
/// | looking, reading | `sinkReplaced` | finished | another bridge has the seat: exit status 0 [] |
/// | looking, reading | `stopRequested` | finished | the source disconnected (KDE: its KWin script unloaded): exit status 0 [disconnectSource] |
/// | looking | `compositorNews`, `pollDue`, `compositorLost` | looking | impossible (nothing is read while looking): logged as a bug [logBug] |
/// | reading | `compositorFound`, `compositorMissing` | reading | impossible (no connection is tried while reading): logged as a bug [logBug] |
/// | finished | any | finished | nothing [] |
public final class DesktopBridge {
    public struct Options: Sendable {
        /// Microseconds between reads while windows exist and the backend misses changes.
        public var pollInterval: Int64 = 500_000
        /// Send one snapshot and return.
        public var once = false
        public var seat = "seat0"
        /// A descriptor whose readability asks the bridge to stop (a signalfd for SIGTERM / SIGINT):
        /// the source is disconnected (KDE: the KWin script unloaded) and `run` returns 0.
        public var stopDescriptor: Int32?
        public init() {}
    }

    public enum State: Equatable, Sendable {
        case looking
        case reading
        case finished(status: Int32)
    }

    public enum Event: Sendable {
        case compositorFound
        case compositorMissing(DesktopSourceError)
        case compositorNews
        case pollDue
        case compositorLost(DesktopSourceError)
        case sinkGone
        case sinkReplaced(String)
        /// SIGTERM, SIGINT or SIGHUP (`Options.stopDescriptor`).
        case stopRequested

        /// The event without what it carries: a column of the table.
        public enum Kind: String, CaseIterable, Sendable {
            case compositorFound, compositorMissing, compositorNews, pollDue, compositorLost, sinkGone, sinkReplaced, stopRequested
        }

        public var kind: Kind {
            switch self {
            case .compositorFound: .compositorFound
            case .compositorMissing: .compositorMissing
            case .compositorNews: .compositorNews
            case .pollDue: .pollDue
            case .compositorLost: .compositorLost
            case .sinkGone: .sinkGone
            case .sinkReplaced: .sinkReplaced
            case .stopRequested: .stopRequested
            }
        }
    }

    let source: DesktopSource
    let sink: SnapshotSink
    let options: Options
    let log: (String) -> Void
    public private(set) var state = State.looking
    /// A compositor restarted comes back within a second or two: looking again is cheap.
    private var compositorBackoff = Backoff(initial: 100_000, maximum: 1_000_000)
    /// A daemon restarted comes back within a second: connecting to its socket is cheap.
    private var sinkBackoff = Backoff(initial: 100_000, maximum: 1_000_000)
    private var compositorRetryAt: Int64 = 0
    private var sinkRetryAt: Int64 = 0
    private var lastSent: Desktop?
    private var current: Desktop?
    private var snapshotNumber: UInt32 = 0
    private var lastLeftOut = 0
    private var reportedAbsence = false
    private var lastNotice: String?

    public init(source: DesktopSource, sink: SnapshotSink, options: Options, log: @escaping (String) -> Void) {
        self.source = source
        self.sink = sink
        self.options = options
        self.log = log
    }

    public var finished: Bool { if case .finished = state { true } else { false } }

    /// Runs until `once` is done or the seat is taken over; returns the exit status.
    public func run() -> Int32 {
        while true {
            if case .finished(let status) = state { return status }
            step()
        }
    }

    /// One wake-up: connects when due, then waits for the next event or deadline and handles it.
    public func step() {
        if state == .looking && monotonicMicroseconds() >= compositorRetryAt {
            do {
                try source.connect()
                handle(.compositorFound)
            } catch {
                source.disconnect()
                handle(.compositorMissing(error))
            }
        }
        guard !finished else { return }
        wait()
    }

    public func handle(_ event: Event) {
        let (next, actions) = Self.transition(from: state, on: event.kind, once: options.once)
        if case .finished = state { return }
        switch event {
        case .stopRequested: log("stopping")
        case .sinkReplaced(let line): log("another bridge took over this seat (\(line)); stopping")
        case .sinkGone: log("the daemon went away; trying again")
        case .compositorFound:
            if state == .looking {
                compositorBackoff.succeeded()
                if reportedAbsence { log("\(source.backend): connected to \(source.target)") }
                reportedAbsence = false
            }
        case .compositorMissing(let error):
            if state == .looking && options.once { log("\(error)") }
        case .compositorLost(let error):
            if state == .reading { log("\(error); looking for the compositor again") }
        case .compositorNews, .pollDue: break
        }
        state = next
        for action in actions { perform(action, for: event) }
    }

    /// What `handle` does after the transition, in this order.
    public enum Action: Equatable, Sendable {
        /// The source disconnected (KDE: its KWin script unloaded).
        case disconnectSource
        /// The sink closed, the scene read and sent forgotten (the daemon drops the windows).
        case closeSink
        /// The scene sent forgotten, the sink opened again after its backoff.
        case retrySinkLater
        /// A restarted compositor looked for where it documents its socket (`CompositorDiscovery`).
        case lookForRestartedCompositor
        /// The next connection attempt after the compositor's backoff.
        case retryCompositorLater
        /// The scene read, and sent if it changed.
        case readScene
        /// An impossible pair: logged as a bug, nothing else.
        case logBug
    }

    /// The State × Event table of the doc comment, with no I/O (`DesktopBridgeTableTests` checks
    /// the two agree, row by row). `once`: a lost compositor, a missing one or a gone daemon
    /// finishes the run with status 1.
    public static func transition(from state: State, on event: Event.Kind, once: Bool) -> (next: State, actions: [Action]) {
        switch (state, event) {
        case (.finished, _):
            return (state, [])
        case (_, .stopRequested):
            return (.finished(status: 0), [.disconnectSource])
        case (_, .sinkReplaced):
            return (.finished(status: 0), [])
        case (_, .sinkGone):
            return (once ? .finished(status: 1) : state, [.retrySinkLater])
        case (.looking, .compositorFound):
            return (.reading, [.readScene])
        case (.looking, .compositorMissing):
            return once ? (.finished(status: 1), []) : (.looking, [.lookForRestartedCompositor, .retryCompositorLater])
        case (.reading, .compositorNews), (.reading, .pollDue):
            return (.reading, [.readScene])
        case (.reading, .compositorLost):
            return (once ? .finished(status: 1) : .looking, [.disconnectSource, .closeSink, .retryCompositorLater])
        case (.looking, .compositorNews), (.looking, .pollDue), (.looking, .compositorLost),
             (.reading, .compositorFound), (.reading, .compositorMissing):
            return (state, [.logBug])
        }
    }

    private func perform(_ action: Action, for event: Event) {
        switch action {
        case .disconnectSource: source.disconnect()
        case .closeSink:
            current = nil
            lastSent = nil
            sink.close()
        case .retrySinkLater:
            lastSent = nil
            sinkRetryAt = monotonicMicroseconds() + sinkBackoff.failed()
        case .lookForRestartedCompositor:
            guard case .compositorMissing(let error) = event else { return }
            if let moved = source.relocate() {
                log("\(error); \(source.backend) restarted: reading the new instance at \(moved)")
                compositorBackoff.succeeded()
            } else if !reportedAbsence {
                log("\(error); trying again")
            }
            reportedAbsence = true
        case .retryCompositorLater:
            reportedAbsence = true
            compositorRetryAt = monotonicMicroseconds() + compositorBackoff.failed()
        case .readScene: refresh()
        case .logBug: log("bug: \(event) while \(state); ignored")
        }
    }

    private func reopenSink() {
        if sink.reopen() {
            sinkBackoff.succeeded()
            lastSent = nil
            // Nothing was read while the daemon was away: read the scene now, then send it.
            if state == .reading { refresh() }
        } else {
            sinkRetryAt = monotonicMicroseconds() + sinkBackoff.failed()
            if options.once {
                log("cannot reach the daemon")
                state = .finished(status: 1)
            }
        }
    }

    /// Reads the scene and sends it when it changed.
    private func refresh() {
        do {
            current = try source.read()
        } catch {
            handle(.compositorLost(error))
            return
        }
        if source.notice != lastNotice {
            if let notice = source.notice { log(notice) } else { log("\(source.backend): windows are read again") }
            lastNotice = source.notice
        }
        if !sink.isReady {
            if monotonicMicroseconds() >= sinkRetryAt { reopenSink() }
            return
        }
        sendIfChanged()
    }

    private func sendIfChanged() {
        guard let current, sink.isReady else { return }
        guard current != lastSent else {
            if options.once { state = .finished(status: 0) }
            return
        }
        snapshotNumber &+= 1
        let (snapshotLines, leftOut) = DesktopSnapshot.lines(for: current, backend: source.backend, seat: options.seat,
                                                             snapshot: snapshotNumber)
        if leftOut != lastLeftOut && leftOut > 0 {
            log("\(leftOut) of \(current.windows.count) windows left out (a snapshot holds the topmost \(DesktopSnapshot.maxWindows), on an output of the snapshot, with ids of at most \(DesktopSnapshot.maxIDBytes) bytes)")
        }
        lastLeftOut = leftOut
        switch sink.send(snapshotLines) {
        case .nothing:
            lastSent = current
            if options.once { state = .finished(status: 0) }
        case .gone: handle(.sinkGone)
        case .replaced(let line): handle(.sinkReplaced(line))
        }
    }

    /// Waits for the compositor's events, the sink's news or the next deadline, and handles what came.
    private func wait() {
        if state == .reading && source.takeQueuedEvents() {
            handle(.compositorNews)
            return
        }
        let now = monotonicMicroseconds()
        var deadline: Int64? = nil
        func due(_ time: Int64) { deadline = min(deadline ?? time, time) }
        // No poll while the daemon is away: nothing could be sent; the scene is read when it is back.
        let polling = state == .reading && sink.isReady && source.missesChanges && current?.windows.isEmpty == false
        if state == .looking { due(compositorRetryAt) }
        if polling { due(now + options.pollInterval) }
        if state == .reading && !sink.isReady { due(sinkRetryAt) }
        var fds: [pollfd] = []
        if state == .reading { fds += source.eventDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
        let compositorCount = fds.count
        if let fd = sink.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        if let fd = options.stopDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        guard case .success(let ready) = Poll.wait(&fds, until: deadline) else { return }  // a poll error: the next step waits again
        if options.stopDescriptor != nil, fds.last?.revents ?? 0 != 0 {
            handle(.stopRequested)
            return
        }
        if sink.descriptor != nil, compositorCount < fds.count, fds[compositorCount].revents != 0 {
            switch sink.service() {
            case .nothing: break
            case .gone: handle(.sinkGone)
            case .replaced(let line): handle(.sinkReplaced(line))
            }
        }
        guard state == .reading else { return }
        if fds.prefix(compositorCount).contains(where: { $0.revents != 0 }) {
            do {
                _ = try source.drainEvents()
                handle(.compositorNews)
            } catch {
                handle(.compositorLost(error))
            }
        } else if ready == 0 && polling {
            handle(.pollDue)
        } else if ready == 0 && !sink.isReady && monotonicMicroseconds() >= sinkRetryAt {
            reopenSink()
        }
    }
}
