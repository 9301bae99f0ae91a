#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// The bridge's loop: reads the compositor's scene after each of its events (and every poll
/// interval while windows exist, for the changes it sends no event for), and sends the scene to the
/// sink when it differs from the last one sent. A compositor or a daemon that goes away is tried
/// again with backoff; while the compositor is away the daemon connection is closed, so the daemon
/// drops the windows at once.
///
/// | state | event | next |
/// |---|---|---|
/// | looking | the compositor answers | reading |
/// | looking | it does not | looking (after the backoff) |
/// | reading | an event, or the poll interval passed with windows | reading (scene read, sent if changed) |
/// | reading | the compositor's stream ends or lies | looking (sink closed) |
public final class DesktopBridge {
    public struct Options: Sendable {
        /// Microseconds between reads while windows exist and the backend misses changes.
        public var pollInterval: Int64 = 500_000
        /// Send one snapshot and return.
        public var once = false
        public var seat = "seat0"
        public init() {}
    }

    enum State {
        case looking
        case reading
    }

    let source: DesktopSource
    let sink: SnapshotSink
    let options: Options
    let log: (String) -> Void
    let lines: DesktopRequestLines
    private var state = State.looking
    private var compositorBackoff = Backoff()
    private var sinkBackoff = Backoff()
    private var compositorRetryAt: Int64 = 0
    private var sinkRetryAt: Int64 = 0
    private var lastSent: DesktopScene?
    private var current: DesktopScene?
    private var snapshotNumber: UInt32 = 0
    private var lastLeftOut = 0
    private var reportedAbsence = false
    /// Whether to stop (`once` after its snapshot, or the seat taken by another bridge).
    public private(set) var finished = false
    public private(set) var exitStatus: Int32 = 0

    public init(source: DesktopSource, sink: SnapshotSink, options: Options, log: @escaping (String) -> Void) {
        self.source = source
        self.sink = sink
        self.options = options
        self.log = log
        self.lines = DesktopRequestLines(backend: source.backend, seat: options.seat)
    }

    /// Runs until `once` is done or the seat is taken over; returns the exit status.
    public func run() -> Int32 {
        while !finished { step() }
        return exitStatus
    }

    /// One wake-up: connects or reads as due, then waits for the next event or deadline.
    public func step() {
        let now = monotonicMicroseconds()
        if state == .looking && now >= compositorRetryAt { lookForCompositor() }
        if !sink.isReady && now >= sinkRetryAt && state == .reading { reopenSink() }
        guard !finished else { return }
        wait()
    }

    private func lookForCompositor() {
        do {
            try source.connect()
            state = .reading
            compositorBackoff.succeeded()
            if reportedAbsence { log("\(source.backend): connected to \(source.target)") }
            reportedAbsence = false
            refresh()
        } catch {
            source.disconnect()
            if options.once {
                log("\(error)")
                finish(1)
                return
            }
            if !reportedAbsence { log("\(error); trying again") }
            reportedAbsence = true
            compositorRetryAt = monotonicMicroseconds() + compositorBackoff.failed()
        }
    }

    private func lose(_ error: DesktopSourceError) {
        log("\(error); looking for the compositor again")
        source.disconnect()
        state = .looking
        reportedAbsence = true
        current = nil
        lastSent = nil
        sink.close()
        if options.once { finish(1); return }
        compositorRetryAt = monotonicMicroseconds() + compositorBackoff.failed()
    }

    private func reopenSink() {
        if sink.reopen() {
            sinkBackoff.succeeded()
            lastSent = nil
            sendIfChanged()
        } else {
            sinkRetryAt = monotonicMicroseconds() + sinkBackoff.failed()
        }
    }

    /// Reads the scene and sends it when it changed.
    private func refresh() {
        do {
            current = try source.read()
        } catch {
            lose(error)
            return
        }
        if !sink.isReady {
            if monotonicMicroseconds() >= sinkRetryAt { reopenSink() }
            if options.once && !sink.isReady {
                log("cannot reach the daemon")
                finish(1)
            }
            return
        }
        sendIfChanged()
    }

    private func sendIfChanged() {
        guard let current, sink.isReady, current != lastSent else {
            if options.once && current != nil && sink.isReady { finish(0) }
            return
        }
        snapshotNumber &+= 1
        let (snapshotLines, leftOut) = lines.lines(current, snapshot: snapshotNumber)
        if leftOut != lastLeftOut && leftOut > 0 {
            log("\(leftOut) of \(current.windows.count) windows left out (a snapshot holds the topmost \(DesktopRequestLines.maximumWindows))")
        }
        lastLeftOut = leftOut
        if sink.send(snapshotLines) {
            lastSent = current
            if options.once { finish(0) }
        } else {
            log("the daemon went away; trying again")
            lastSent = nil
            sinkRetryAt = monotonicMicroseconds() + sinkBackoff.failed()
            if options.once { finish(1) }
        }
    }

    private func finish(_ status: Int32) {
        finished = true
        exitStatus = status
    }

    /// Waits for the compositor's events, the sink's news or the next deadline.
    private func wait() {
        let now = monotonicMicroseconds()
        var deadline: Int64? = nil
        func due(_ time: Int64) { deadline = min(deadline ?? time, time) }
        switch state {
        case .looking: due(compositorRetryAt)
        case .reading:
            if source.missesChanges, let current, !current.windows.isEmpty { due(now + options.pollInterval) }
            if !sink.isReady { due(sinkRetryAt) }
        }
        var fds: [pollfd] = []
        if state == .reading { fds += source.eventDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
        let compositorCount = fds.count
        if let fd = sink.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let timeout = deadline.map { Int32(clamping: max(0, ($0 - now + 999) / 1000)) } ?? -1
        let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        guard ready >= 0 else { return }
        if compositorCount < fds.count, fds[compositorCount].revents != 0 {
            switch sink.service() {
            case .nothing: break
            case .gone:
                log("the daemon went away; trying again")
                lastSent = nil
                sinkRetryAt = monotonicMicroseconds() + sinkBackoff.failed()
            case .replaced(let line):
                log("another bridge took over this seat (\(line)); stopping")
                finish(0)
                return
            }
        }
        guard state == .reading else { return }
        let eventReady = fds.prefix(compositorCount).contains { $0.revents != 0 }
        if eventReady {
            do {
                _ = try source.drainEvents()
            } catch {
                lose(error)
                return
            }
            refresh()
        } else if ready == 0 && state == .reading, source.missesChanges, current?.windows.isEmpty == false {
            refresh()
        } else if ready == 0 && !sink.isReady {
            reopenSink()
        }
    }
}
