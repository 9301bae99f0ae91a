#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig
import GestureDevices
import GesturePosix
import GestureRecording
import Logging
import GesturePosix
import GestureProtocol

/// How `gestured run` was started.
public struct DaemonOptions: Sendable {
    /// Config file; nil: `defaultConfigurationPath()` (looked up at start and at each reload),
    /// else the embedded default.
    public var configPath: String?
    /// Overrides the config's socket path.
    public var socketPath: String?
    /// false: open no input device (socket-only; tests).
    public var opensDevices: Bool
    /// Recordings fed through the live loop at their recorded pace, as extra devices (`--inject`).
    public var injectedRecordings: [String]
    /// Start the injected recordings when the first client subscribes, not at start-up.
    public var injectsWhenSubscribed: Bool
    /// The uinput node for the virtual keyboard of `keys:` bindings.
    public var uinputPath: String

    public init(configPath: String?, socketPath: String?, opensDevices: Bool = true,
                injectedRecordings: [String] = [], injectsWhenSubscribed: Bool = false,
                uinputPath: String = VirtualKeyboard.defaultUinputPath) {
        self.configPath = configPath
        self.socketPath = socketPath
        self.opensDevices = opensDevices
        self.injectedRecordings = injectedRecordings
        self.injectsWhenSubscribed = injectsWhenSubscribed
        self.uinputPath = uinputPath
    }
}

/// A recording played through the live loop as if it were a device: its timestamps are moved onto
/// CLOCK_MONOTONIC (`offset`) and its events are fed when the loop's timer reaches them.
final class InjectedDevice: SurfaceDevice {
    let ref: DeviceRef
    let recording: Recording
    var surface: SurfaceConfiguration
    var cursor = 0
    var offset: Int64 = 0
    init(ref: DeviceRef, recording: Recording, surface: SurfaceConfiguration) {
        self.ref = ref
        self.recording = recording
        self.surface = surface
    }
    /// Monotonic time of the next event, nil when done.
    var nextTime: Int64? {
        cursor < recording.events.count ? recording.events[cursor].time.microseconds + offset : nil
    }
}

/// One open input device.
final class LiveDevice: SurfaceDevice {
    let ref: DeviceRef
    let evdev: EvdevDevice
    var surface: SurfaceConfiguration
    init(ref: DeviceRef, evdev: EvdevDevice, surface: SurfaceConfiguration) {
        self.ref = ref
        self.evdev = evdev
        self.surface = surface
    }
}

/// The daemon: one thread, one epoll set multiplexing the device fds, the udev monitor, one
/// CLOCK_MONOTONIC timerfd (armed at the pipeline's next deadline or a binding timeout), a signalfd
/// (SIGTERM/SIGINT stop, SIGHUP reload, SIGCHLD reap), the listening socket and its clients, and
/// the watchdog timerfd. Idle means blocked in epoll_wait with no timeout. Everything here is
/// owned by that one thread.
public final class Daemon {
    private let options: DaemonOptions
    private let logger: Logger
    private var configuration: Configuration {
        didSet { recognizerKinds = Daemon.kinds(of: configuration) }
    }
    /// The config file in use, or "default" (the embedded one).
    private var configSource: String
    /// Recognizer id → kind, for filtering explain lines by kind.
    private var recognizerKinds: [String: RecognizerKind] = [:] {
        didSet { hub?.recognizerKinds = recognizerKinds }
    }
    private var pipeline: GesturePipeline
    private let epoll: Epoll
    private let timer: MonotonicTimer
    private let signals: SignalFD
    private var watchdogTimer: MonotonicTimer?
    private var hub: ClientHub!
    /// Clients recording a device's raw events (`record`, DeviceRecordings.swift).
    private var recordings: DeviceRecordings!
    /// attach / update / detach / set-surface (AppRequests.swift).
    private var apps: AppRequests
    private let bindings: BindingDispatcher
    private let notifier = SystemdNotifier()
    private var udev: Udev?
    private var monitor: UdevMonitor?
    private var devices: [Int: LiveDevice] = [:]
    private var deviceByFD: [FileDescriptor: Int] = [:]
    private var deviceByNode: [String: Int] = [:]
    private var nextDeviceID = 0
    private var running = true
    private let started = monotonicMicroseconds()
    private var eventBuffer: [RawEvent] = []
    private var injected: [InjectedDevice] = []
    /// Recordings waiting for the first subscriber (`--inject-when-subscribed`).
    var pendingInjection: [Recording] = []
    /// The latest event timestamp fed to the pipeline.
    private var lastEventTime: Timestamp?

    static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]

    /// Runs the daemon until SIGTERM/SIGINT; returns the process exit status.
    public static func main(options: DaemonOptions, logger: Logger) -> Int32 {
        SignalFD.block(handledSignals)
        // An ignored signal is discarded before signalfd could see it (a shell starting us in the
        // background ignores SIGINT); blocked, the default action never runs.
        for signo in handledSignals { signal(signo, SIG_DFL) }
        signal(SIGPIPE, SIG_IGN)
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: options.configPath ?? defaultConfigurationPath())
        } catch {
            logger.critical("configuration refused:\n\(error.description)")
            return 2
        }
        var recordings: [Recording] = []
        do {
            recordings = try Replay.load(paths: options.injectedRecordings)
        } catch {
            logger.critical("cannot inject recording: \(error.description)")
            return 1
        }
        do {
            let daemon = try Daemon(options: options, configuration: configuration, logger: logger)
            daemon.pendingInjection = recordings
            if !options.injectsWhenSubscribed { daemon.startInjection() }
            try daemon.run()
            return 0
        } catch {
            logger.critical("cannot run: \(error)")
            return 1
        }
    }

    init(options: DaemonOptions, configuration: Configuration, logger: Logger) throws(SystemCallError) {
        self.options = options
        self.logger = logger
        self.configuration = configuration
        self.configSource = options.configPath ?? defaultConfigurationPath() ?? "default"
        self.recognizerKinds = Daemon.kinds(of: configuration)
        self.pipeline = GesturePipeline(engine: GestureEngine(configuration: configuration.engine))
        apps = AppRequests(settings: configuration.socket, logger: logger)
        epoll = try Epoll()
        timer = try MonotonicTimer()
        signals = try SignalFD(signals: Daemon.handledSignals)
        bindings = BindingDispatcher(concurrency: configuration.bindingConcurrency, uinputPath: options.uinputPath, logger: logger)
        try epoll.add(timer.fd, events: .readable)
        try epoll.add(signals.fd, events: .readable)

        var settings = configuration.socket
        if let path = options.socketPath { settings.path = path }
        let listenFD: FileDescriptor
        let socketPath: String?
        if let fd = ClientHub.activatedSocket() {
            listenFD = fd
            socketPath = nil
            logger.info("using the socket passed by systemd")
        } else {
            listenFD = try ClientHub.listen(path: settings.path, settings: settings)
            socketPath = settings.path
        }
        hub = try ClientHub(listenFD: listenFD, socketPath: socketPath, settings: settings, epoll: epoll, logger: logger)
        hub.recognizerKinds = recognizerKinds
        recordings = DeviceRecordings(hub: hub, logger: logger)
        bindings.unitsPerMM = { [unowned self] name in self.surfaceUnitsPerMM(device: name) }
        bindings.configure(configuration)

        if let interval = notifier.watchdogInterval {
            let watchdog = try MonotonicTimer()
            watchdog.arm(at: monotonicMicroseconds() + interval, interval: interval)
            try epoll.add(watchdog.fd, events: .readable)
            watchdogTimer = watchdog
        }
        if options.opensDevices { startDevices() }
        logger.info("gestured \(DaemonVersion.version) listening",
                    metadata: ["socket": "\(socketPath ?? "systemd")", "config": "\(configSource)",
                               "devices": "\(devices.count)"])
    }

    static func kinds(of configuration: Configuration) -> [String: RecognizerKind] {
        Dictionary(configuration.engine.recognizers.map { ($0.id, $0.kind) }) { first, _ in first }
    }

    // MARK: loop

    func run() throws(SystemCallError) {
        notifier.ready()
        while running {
            armTimer()
            for (fd, events) in try epoll.wait(timeout: -1) {
                dispatch(fd: fd, events: events)
                // Any dispatch can move the hub (publishing frees a queue, which lets held-back
                // requests through), so its events are taken after each one.
                actOnHubEvents()
            }
            if pipeline.engine.hasDetachedLeftovers { pipeline.engine.compactIfIdle() }
        }
        shutdown()
    }

    private func dispatch(fd: FileDescriptor, events: EpollEvents) {
        if let id = deviceByFD[fd] {
            readDevice(id)
            // A hung-up fd stays readable forever (level-triggered): never leave one in the set.
            if devices[id] != nil && !events.isDisjoint(with: [.hangUp, .error]) {
                closeDevice(id, reason: "hang-up")
            }
        } else if fd == hub.listenFD {
            hub.acceptAll()
        } else if fd == timer.fd {
            timer.acknowledge()
            let now = monotonicMicroseconds()
            // Events already queued by the kernel happened before `now`: feed them first, so the
            // engine sees time only move forward.
            for id in devices.keys.sorted() { readDevice(id) }
            feedInjected(until: now)
            let time = max(Timestamp(microseconds: now), lastEventTime ?? .zero)
            handle(pipeline.advance(to: time))
            bindings.enforceTimeouts(now: now)
            recordings.expire(now: now)
        } else if fd == signals.fd {
            for signo in signals.drain() { handleSignal(signo) }
        } else if let monitor, fd == monitor.fd {
            for event in monitor.drain() {
                switch event {
                case .added(let info): openDevice(info)
                case .removed(let node):
                    if let id = deviceByNode[node] { closeDevice(id, reason: "udev remove") }
                }
            }
        } else if let watchdogTimer, fd == watchdogTimer.fd {
            watchdogTimer.acknowledgePeriodic()
            notifier.watchdog()
        } else {
            hub.handle(fd: fd, events: events)
        }
    }

    /// What the client hub reported: answers the requests it hands over, follows explain and
    /// subscription changes. Replying lets that client's next lines through, which may report more.
    private func actOnHubEvents() {
        while let event = hub.nextEvent() {
            switch event {
            case .request(let pending): hub.reply(to: pending, with: answer(pending))
            case .explainWanted(let on): pipeline.engine.explains = on
            case .subscribed:
                startInjection()
                refreshTouchSubscribers()
            case .unsubscribed: refreshTouchSubscribers()
            case .disconnected(let client):
                handle(apps.clientGone(client.id, pipeline: &pipeline, at: now))
                refreshTouchSubscribers()
            }
        }
    }

    /// One timer for everything time-driven: the engine's next deadline, binding timeouts, the end of
    /// timed recordings.
    private func armTimer() {
        // Runs at every loop turn: no arrays built for a few optional times.
        var earliest = pipeline.nextDeadline?.microseconds
        func consider(_ time: Int64?) {
            if let time, earliest == nil || time < earliest! { earliest = time }
        }
        consider(bindings.nextDeadline)
        for device in injected { consider(device.nextTime) }
        consider(recordings.nextDeadline)
        timer.arm(at: earliest)
    }

    private func handleSignal(_ signo: Int32) {
        switch signo {
        case SIGTERM, SIGINT:
            logger.info("stopping", metadata: ["signal": "\(signo == SIGTERM ? "SIGTERM" : "SIGINT")"])
            running = false
        case SIGHUP:
            _ = reload(origin: "SIGHUP")
        case SIGCHLD:
            bindings.reap()
        default:
            break
        }
    }

    /// Publishes outputs and runs bindings.
    private func handle(_ outputs: [EngineOutput]) {
        for output in outputs {
            hub.publish(output)
            if case .gesture(let event) = output, !bindings.bindings.isEmpty {
                bindings.handle(event)
            }
        }
    }

    private func shutdown() {
        notifier.stopping()
        recordings.endAll(reason: "daemon stopping")
        for id in devices.keys.sorted() { closeDevice(id, reason: "daemon stopping") }
        hub.closeAll()
        if bindings.runningCount > 0 {
            logger.info("leaving running binding commands to finish", metadata: ["count": "\(bindings.runningCount)"])
        }
    }

    // MARK: devices

    private func startDevices() {
        do {
            let udev = try Udev()
            self.udev = udev
            do {
                let monitor = try UdevMonitor(udev: udev)
                try epoll.add(monitor.fd, events: .readable)
                self.monitor = monitor
            } catch {
                logger.warning("no udev monitor; hot-plug disabled", metadata: ["error": "\(error)"])
            }
            for info in try udev.inputDevices() { openDevice(info) }
        } catch {
            logger.error("cannot enumerate input devices through udev", metadata: ["error": "\(error)"])
        }
    }

    private func openDevice(_ info: UdevDeviceInfo) {
        guard deviceByNode[info.devnode] == nil, info.isCandidate else { return }
        let evdev: EvdevDevice
        do {
            evdev = try EvdevDevice(path: info.devnode)
        } catch {
            // Without udev's word we only probe; failing to open a keyboard is expected then.
            if info.kindHint != nil {
                logger.warning("cannot open touch device", metadata: ["path": "\(info.devnode)", "error": "\(error)"])
            } else {
                logger.debug("cannot probe input device", metadata: ["path": "\(info.devnode)", "error": "\(error)"])
            }
            return
        }
        let description = evdev.description
        guard description.kind != .other else {
            logger.debug("not a touch device", metadata: ["path": "\(info.devnode)", "name": "\(description.name)"])
            return
        }
        let kind = info.kindHint ?? description.kind
        guard configuration.devices.selects(description, kind: kind, path: info.devnode) else {
            logger.info("device not selected by the config",
                        metadata: ["path": "\(info.devnode)", "name": "\(description.name)", "kind": "\(kind.rawValue)"])
            return
        }
        do {
            try evdev.useMonotonicClock()
        } catch {
            logger.warning("cannot switch device to CLOCK_MONOTONIC; timers may be off", metadata: ["error": "\(error)"])
        }
        if configuration.devices.grab {
            do { try evdev.grab(true) } catch {
                logger.warning("cannot grab device", metadata: ["error": "\(error)"])
            }
        }
        do {
            try epoll.add(evdev.fd, events: .readable)
        } catch {
            logger.error("cannot watch device", metadata: ["path": "\(info.devnode)", "error": "\(error)"])
            return
        }
        let ref = DeviceRef(id: nextDeviceID, name: description.name, kind: kind)
        nextDeviceID += 1
        let surface = apps.surfaces.applied(to: configuration.surface(for: description, kind: kind, path: info.devnode), device: ref)
        let device = LiveDevice(ref: ref, evdev: evdev, surface: surface)
        devices[ref.id] = device
        deviceByFD[evdev.fd] = ref.id
        deviceByNode[info.devnode] = ref.id
        pipeline.addDevice(description, ref: ref, surface: surface)
        logger.info("device added", metadata: [
            "id": "\(ref.id)", "name": "\(description.name)", "kind": "\(kind.rawValue)", "path": "\(info.devnode)",
            "protocol": "\(description.multitouchProtocol.rawValue)", "slots": "\(description.slotCount)",
            "grabbed": "\(evdev.isGrabbed)"])
    }

    /// Cancels the device's touches (recognizers see cancelled / failed), then frees it.
    private func closeDevice(_ id: Int, reason: String) {
        guard let device = devices.removeValue(forKey: id) else { return }
        epoll.remove(device.evdev.fd)
        deviceByFD[device.evdev.fd] = nil
        deviceByNode = deviceByNode.filter { $0.value != id }
        let now = max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero)
        handle(pipeline.removeDevice(id: id, at: now))
        recordings.end(device: id, reason: "device removed (\(reason))")
        logger.info("device removed", metadata: ["id": "\(id)", "name": "\(device.ref.name)", "reason": "\(reason)"])
    }

    private func readDevice(_ id: Int) {
        guard let device = devices[id] else { return }
        eventBuffer.removeAll(keepingCapacity: true)
        let status = device.evdev.read(into: &eventBuffer)
        for event in eventBuffer {
            if event.type == .syn && event.code == .synDropped {
                logger.notice("SYN_DROPPED: events lost, resyncing", metadata: ["device": "\(device.ref.name)"])
            }
            lastEventTime = max(lastEventTime ?? event.time, event.time)
        }
        handle(pipeline.feed(eventBuffer, device: id))
        // After the gestures they made were published.
        if recordings.isActive { recordings.capture(eventBuffer, device: id) }
        if case .gone(let error) = status {
            closeDevice(id, reason: error.code == ENODEV ? "unplugged" : "\(error)")
        }
    }

    /// Surface units per mm of the named device, for stepped bindings' lengths (1 when unknown).
    private func surfaceUnitsPerMM(device name: String) -> Point {
        if let d = devices.values.first(where: { $0.ref.name == name }) {
            return SurfaceMapper(description: d.evdev.description, surface: d.surface).surfaceUnitsPerMM
        }
        if let d = injected.first(where: { $0.ref.name == name }) {
            return SurfaceMapper(description: d.recording.description, surface: d.surface).surfaceUnitsPerMM
        }
        return Point(x: 1, y: 1)
    }

    // MARK: injected recordings

    /// Adds the pending recordings as devices and starts their clocks now.
    func startInjection() {
        guard !pendingInjection.isEmpty else { return }
        let recordings = pendingInjection
        pendingInjection = []
        let now = monotonicMicroseconds()
        let start = recordings.compactMap { $0.events.first?.time.microseconds }.min() ?? 0
        for recording in recordings {
            let kind = recording.description.kind
            let ref = DeviceRef(id: nextDeviceID, name: recording.description.name, kind: kind)
            nextDeviceID += 1
            let surface = apps.surfaces.applied(
                to: configuration.surface(for: recording.description, kind: kind, path: recording.source), device: ref)
            let device = InjectedDevice(ref: ref, recording: recording, surface: surface)
            device.offset = now - start
            injected.append(device)
            pipeline.addDevice(recording.description, ref: ref, surface: surface)
            logger.info("injecting recording", metadata: ["id": "\(ref.id)", "name": "\(ref.name)",
                                                           "file": "\(recording.source)", "events": "\(recording.events.count)"])
        }
    }

    /// Feeds every injected event due by `now`, in time order across recordings; a finished
    /// recording is removed like an unplugged device.
    private func feedInjected(until now: Int64) {
        var recorded: [Int: [RawEvent]] = [:]
        while true {
            var pick: InjectedDevice?
            for device in injected {
                guard let t = device.nextTime, t <= now else { continue }
                if pick == nil || t < pick!.nextTime! { pick = device }
            }
            guard let device = pick else { break }
            var event = device.recording.events[device.cursor]
            device.cursor += 1
            event.time = Timestamp(microseconds: event.time.microseconds + device.offset)
            lastEventTime = max(lastEventTime ?? event.time, event.time)
            handle(pipeline.feed(event, device: device.ref.id))
            if recordings.isActive { recorded[device.ref.id, default: []].append(event) }
        }
        for (id, events) in recorded.sorted(by: { $0.key < $1.key }) { recordings.capture(events, device: id) }
        for device in injected where device.nextTime == nil {
            let end = max(Timestamp(microseconds: now), lastEventTime ?? .zero)
            handle(pipeline.removeDevice(id: device.ref.id, at: end))
            recordings.end(device: device.ref.id, reason: "injected recording finished")
            logger.info("injected recording finished", metadata: ["id": "\(device.ref.id)", "file": "\(device.recording.source)"])
        }
        injected.removeAll { $0.nextTime == nil }
    }

    // MARK: requests

    private func answer(_ pending: PendingRequest) -> String {
        let request = pending.request
        let client = pending.client
        switch request.request {
        case "status":
            let uptime = Double(monotonicMicroseconds() - started) / 1_000_000
            return ProtocolLine.response("status", [
                ("version", ProtocolLine.string(DaemonVersion.version)),
                ("protocol", String(DaemonVersion.protocolVersion)),
                ("config", ProtocolLine.string(configSource)),
                ("uptime", JSONLine.number(uptime)),
                ("devices", String(devices.count + injected.count)),
                ("clients", String(hub.clientCount)),
            ] + bindings.statusFields + [
                ("explain", pipeline.engine.explains ? "true" : "false"),
                ("recordings", String(recordings.count)),
            ])
        case "devices":
            let list = devices.keys.sorted().map { id -> String in
                let d = devices[id]!
                let desc = d.evdev.description
                var j = JSONLine()
                j.add("id", id)
                j.add("name", desc.name)
                j.add("kind", d.ref.kind.rawValue)
                j.add("path", d.evdev.path)
                j.add("vendor", hex4(desc.vendor))
                j.add("product", hex4(desc.product))
                j.add("protocol", desc.multitouchProtocol.rawValue)
                j.add("slots", desc.slotCount)
                j.add("grabbed", d.evdev.isGrabbed)
                j.add("surface", d.surface.size(for: desc))
                return j.line
            }
            let fed = injected.map { d -> String in
                var j = JSONLine()
                j.add("id", d.ref.id)
                j.add("name", d.ref.name)
                j.add("kind", d.ref.kind.rawValue)
                j.add("path", d.recording.source)
                j.add("injected", true)
                j.add("surface", d.surface.size(for: d.recording.description))
                return j.line
            }
            return ProtocolLine.response("devices", [("devices", ProtocolLine.array(list + fed))])
        case "hit-test":
            guard let x = request.x, let y = request.y else {
                return ProtocolLine.error("hit-test needs numeric \"x\" and \"y\"", request: "hit-test")
            }
            var size: Point
            var kind = DeviceKind.touchscreen
            var deviceName: String?
            if let wanted = request.device {
                guard let d = devices.values.first(where: { $0.ref.name == wanted || String($0.ref.id) == wanted }) else {
                    return ProtocolLine.error("no device \(ProtocolError.echo(wanted)) (see the devices request)", request: "hit-test")
                }
                size = d.surface.size(for: d.evdev.description)
                kind = d.ref.kind
                deviceName = d.ref.name
            } else if let d = devices.keys.min().flatMap({ devices[$0] }) {
                size = d.surface.size(for: d.evdev.description)
                kind = d.ref.kind
                deviceName = d.ref.name
            } else {
                size = configuration.surfaces.compactMap(\.surface.size).first ?? Point(x: 100, y: 100)
            }
            let chain = pipeline.engine.hitTest(Point(x: x, y: y), surfaceSize: size, deviceKind: kind)
                .map { ClientNamespace.local($0, for: client.id) }
            var fields = [("chain", ProtocolLine.strings(chain))]
            if let deviceName { fields.append(("device", ProtocolLine.string(deviceName))) }
            fields.append(("surface", "{\"x\":\(JSONLine.number(size.x)),\"y\":\(JSONLine.number(size.y))}"))
            return ProtocolLine.response("hit-test", fields)
        case "record":
            // A recorder counts as a subscriber for --inject-when-subscribed.
            startInjection()
            return recordings.start(request, client: client, fd: pending.fd, devices: recordableDevices(),
                                    now: monotonicMicroseconds())
        case "record-stop":
            return recordings.stop(client: client)
        case "reload":
            logger.info("reload requested", metadata: ["client": "\(client.id)", "uid": "\(client.uid)"])
            switch reload(origin: client.name) {
            case .success: return ProtocolLine.response("reload", [("config", ProtocolLine.string(configSource))])
            case .failure(let error): return ProtocolLine.error("config refused; the old one keeps running:\n\(error.description)", request: "reload")
            }
        case "attach", "update", "detach", "set-surface":
            let answer = apps.answer(request, client: client, pipeline: &pipeline,
                                     devices: devices.values.map { $0 as any SurfaceDevice } + injected.map { $0 as any SurfaceDevice }, at: now)
            handle(answer.outputs)
            if answer.changed { refreshTouchSubscribers() }
            return answer.reply
        default:
            return ProtocolLine.error("unsupported request '\(request.request)'", request: request.request)
        }
    }

    /// Every open and injected device, for `record`.
    private func recordableDevices() -> [DeviceRecordings.Target] {
        devices.keys.sorted().map { id in
            let d = devices[id]!
            return .init(id: id, name: d.ref.name, path: d.evdev.path, description: d.evdev.description, kind: d.ref.kind)
        } + injected.map { .init(id: $0.ref.id, name: $0.ref.name, path: $0.recording.source,
                                  description: $0.recording.description, kind: $0.ref.kind) }
    }

    /// The engine's clock now: monotonic time, never before the last event fed.
    private var now: Timestamp { max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero) }

    /// Regions with a touch subscriber are touch consumers in the responder chain.
    private func refreshTouchSubscribers() {
        pipeline.engine.setTouchSubscribers(apps.touchSubscribers(hub.clients.values, engine: pipeline.engine))
    }

    private func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }

    // MARK: reload

    /// Loads the config again. A broken one is refused (logged, returned) and the old one keeps running.
    func reload(origin: String) -> Result<Void, ConfigErrors> {
        notifier.reloading()
        defer { notifier.ready() }
        let newConfiguration: Configuration
        do {
            let path = options.configPath ?? defaultConfigurationPath()
            newConfiguration = try loadConfiguration(path: path)
            configSource = path ?? "default"
        } catch {
            logger.error("reload refused; keeping the running config",
                         metadata: ["origin": "\(origin)", "errors": "\(error.description)"])
            return .failure(error)
        }
        apply(newConfiguration)
        logger.info("configuration reloaded", metadata: ["origin": "\(origin)", "devices": "\(devices.count)"])
        return .success(())
    }

    private func apply(_ newConfiguration: Configuration) {
        let now = max(Timestamp(microseconds: monotonicMicroseconds()), lastEventTime ?? .zero)
        // Open gestures end as cancelled under the old config; every device restarts clean.
        for id in devices.keys.sorted() { handle(pipeline.removeDevice(id: id, at: now)) }
        for device in injected { handle(pipeline.removeDevice(id: device.ref.id, at: now)) }
        if newConfiguration.socket != configuration.socket {
            logger.notice("socket path, mode and owner changes take effect at restart")
        }
        configuration = newConfiguration
        var engine = GestureEngine(configuration: newConfiguration.engine)
        engine.explains = pipeline.engine.explains
        pipeline = GesturePipeline(engine: engine)
        hub.queueLimit = max(1, newConfiguration.socket.clientQueueLimit)
        apps.regionLimit = newConfiguration.socket.clientRegionLimit
        apps.gestureLimit = newConfiguration.socket.clientGestureLimit
        for (client, line) in apps.reattach(&pipeline) { hub.sendLine(line, toClient: client) }
        refreshTouchSubscribers()
        hub.allowedUIDs = newConfiguration.socket.allowedUIDs
        bindings.configure(newConfiguration)

        let old = devices
        devices = [:]
        deviceByFD = [:]
        deviceByNode = [:]
        for (id, device) in old.sorted(by: { $0.key < $1.key }) {
            let desc = device.evdev.description
            guard newConfiguration.devices.selects(desc, kind: device.ref.kind, path: device.evdev.path) else {
                epoll.remove(device.evdev.fd)
                recordings.end(device: id, reason: "device no longer selected by the reloaded config")
                logger.info("device no longer selected", metadata: ["id": "\(id)", "name": "\(desc.name)"])
                continue
            }
            if device.evdev.isGrabbed != newConfiguration.devices.grab {
                try? device.evdev.grab(newConfiguration.devices.grab)
            }
            let surface = apps.surfaces.applied(
                to: newConfiguration.surface(for: desc, kind: device.ref.kind, path: device.evdev.path), device: device.ref)
            let live = LiveDevice(ref: device.ref, evdev: device.evdev, surface: surface)
            devices[id] = live
            deviceByFD[device.evdev.fd] = id
            deviceByNode[device.evdev.path] = id
            pipeline.addDevice(desc, ref: device.ref, surface: surface)
        }
        for device in injected {
            pipeline.addDevice(device.recording.description, ref: device.ref, surface: device.surface)
        }
        if let udev, options.opensDevices, let infos = try? udev.inputDevices() {
            for info in infos { openDevice(info) }
        }
    }
}
