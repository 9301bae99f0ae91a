#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig
import GesturePosix
import GestureRecording
import Logging
import GesturePosix
import GestureProtocol

/// `gestured replay --socket PATH`: serves a replay's outputs over the socket protocol, so clients
/// (gesturectl listen, an app under development) can be tested against a recording.
/// Without --realtime it applies back-pressure (waits for slow subscribers, up to 5 s per stall)
/// rather than dropping lines.
public final class ReplayServer {
    private let epoll: Epoll
    private let hub: ClientHub
    private let logger: Logger
    private var engine: GestureEngine?
    private var recordings: [Recording] = []
    private var configuration: Configuration?

    public init(path: String, settings: SocketSettings, logger: Logger) throws(SystemCallError) {
        signal(SIGPIPE, SIG_IGN)
        self.logger = logger
        epoll = try Epoll()
        let fd = try ClientHub.listen(path: path, settings: settings)
        hub = try ClientHub(listenFD: fd, socketPath: path, settings: settings, epoll: epoll, logger: logger)
    }

    deinit { hub.closeAll() }

    private func answer(_ request: ClientRequest) -> String {
        switch request.request {
        case "status":
            return ProtocolLine.response("status", [
                ("version", ProtocolLine.string(DaemonVersion.version)),
                ("commit", ProtocolLine.string(DaemonVersion.commit)),
                ("protocol", String(DaemonVersion.protocolVersion)),
                ("replay", "true"),
                ("devices", String(recordings.count)),
                ("clients", String(hub.clientCount)),
            ])
        case "devices":
            let list = recordings.enumerated().map { index, r -> String in
                var j = JSONLine()
                j.add("id", index)
                j.add("name", r.description.name)
                j.add("kind", r.description.kind.rawValue)
                j.add("path", r.source)
                return j.line
            }
            return ProtocolLine.response("devices", [("devices", ProtocolLine.array(list))])
        case "hit-test":
            guard let x = request.x, let y = request.y, let engine else {
                return ProtocolLine.error("hit-test needs numeric \"x\" and \"y\"", request: "hit-test")
            }
            let r = recordings.first
            let size = r.flatMap { r in
                configuration?.surface(for: r.description, kind: r.description.kind, path: r.source).size(for: r.description)
            } ?? Point(x: 100, y: 100)
            let chain = engine.hitTest(Point(x: x, y: y), surfaceSize: size, deviceKind: r?.description.kind ?? .touchscreen)
            return ProtocolLine.response("hit-test", [("chain", ProtocolLine.strings(chain))])
        default:
            return ProtocolLine.error("\(ProtocolError.echo(request.request)) is not available during a replay", request: request.request)
        }
    }

    /// Services the socket for up to `timeout` ms (-1: until something happens).
    private func service(timeout: Int32) throws(SystemCallError) {
        for (fd, events) in try epoll.wait(timeout: timeout) {
            if fd == hub.listenFD { hub.acceptAll() } else { hub.handle(fd: fd, events: events) }
            actOnHubEvents()
        }
    }

    /// Answers the requests the hub hands over. Explain lines exist only with --explain and
    /// subscriptions are seen through `hasSubscriber`, so the other events need nothing.
    private func actOnHubEvents() {
        while let event = hub.nextEvent() {
            if case .request(let pending) = event { hub.reply(to: pending, with: answer(pending.request)) }
        }
    }

    /// Replays, publishing to subscribers; then flushes (up to 5 s) and closes.
    public func serve(_ recordings: [Recording], options: ReplayOptions, realtime: Bool, waitForClient: Bool) throws(SystemCallError) {
        self.recordings = recordings
        self.configuration = options.configuration
        self.engine = GestureEngine(configuration: options.configuration.engine)
        // What subscribe filters may name (ClientRequests.swift), as the daemon's.
        hub.recognizerKinds = Daemon.kinds(of: options.configuration)
        hub.regionIDs = Daemon.regionIDs(options.configuration.engine.root)
        hub.checksFilterNames = true
        hub.lines.windows = options.windowNames
        if waitForClient {
            logger.info("waiting for a client to subscribe")
            while !hub.hasSubscriber { try service(timeout: -1) }
        }
        var failure: SystemCallError?
        var origin: (event: Timestamp, clock: Int64)?
        var count = 0
        let limit = hub.queueLimit
        Replay.run(recordings, options: options, pace: { [self] time in
            guard failure == nil else { return }
            do throws(SystemCallError) {
                if realtime {
                    if let start = origin {
                        let due = start.clock + (time.microseconds - start.event.microseconds)
                        while true {
                            let wait = due - monotonicMicroseconds()
                            if wait <= 0 { break }
                            try service(timeout: Int32(min(wait / 1000 + 1, 1000)))
                        }
                    } else {
                        origin = (time, monotonicMicroseconds())
                    }
                } else {
                    count += 1
                    if count % 64 == 0 { try service(timeout: 0) }
                    let stallEnd = monotonicMicroseconds() + 5_000_000
                    while hub.largestQueue > limit / 2 && monotonicMicroseconds() < stallEnd {
                        try service(timeout: 100)
                    }
                }
            } catch {
                failure = error
            }
        }) { output in
            hub.publish(output)
            actOnHubEvents()
        }
        if let failure { throw failure }
        let end = monotonicMicroseconds() + 5_000_000
        while hub.largestQueue > 0 && monotonicMicroseconds() < end {
            try service(timeout: 100)
        }
    }
}
