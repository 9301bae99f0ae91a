#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig
import GestureDevices
import GesturePosix
import GestureProtocol
import GestureRecording
import Logging

/// The daemon: one thread, one epoll set multiplexing the device fds, the udev monitor, one
/// CLOCK_MONOTONIC timerfd (armed at the pipeline's next deadline or a binding timeout), a signalfd
/// (SIGTERM/SIGINT stop, SIGHUP reload, SIGCHLD reap), the listening socket and its clients, and
/// the watchdog timerfd. Idle means blocked in epoll_wait with no timeout. Everything here is
/// owned by that one thread.
public final class Daemon {
    let options: DaemonOptions
    let logger: Logger
    var configuration: Configuration {
        didSet { recognizerKinds = Daemon.kinds(of: configuration) }
    }
    /// The config file in use, or "default" (the embedded one).
    var configSource: String
    /// Recognizer id → kind, for filtering explain lines by kind.
    var recognizerKinds: [String: RecognizerKind] = [:] {
        didSet {
            hub.recognizerKinds = recognizerKinds
            hub.regionIDs = Self.regionIDs(configuration.engine.root)
        }
    }
    var pipeline: GesturePipeline
    let epoll: Epoll
    let timer: MonotonicTimer
    let signals: SignalFD
    var watchdogTimer: MonotonicTimer?
    /// `let`, as every object the per-frame path calls: a method called on a `var` object property
    /// retains and releases it around the call (the property could change meanwhile).
    let hub: ClientHub
    /// Clients recording a device's raw events (`record`, DeviceRecordings.swift).
    let recordings: DeviceRecordings
    /// attach / update / detach / set-surface (AppRequests.swift).
    var apps: AppRequests
    /// The session bridges and their snapshots (Desktop/).
    let seatBridges = SeatBridgeRegistry()
    /// Desktop conditions already logged (said once each).
    var desktopNotes: Set<String> = []
    let bindings: BindingDispatcher
    /// Binding commands finished and told to the explaining clients (Daemon+BindingLines.swift).
    var bindingRunsTold = 0
    let notifier = SystemdNotifier()
    var udev: Udev?
    var monitor: UdevMonitor?
    var devices: [Int: LiveDevice] = [:]
    var deviceByFD = DescriptorTable<LiveDevice>()
    var deviceByNode: [String: Int] = [:]
    /// The nodes of this daemon's clones of forwarded devices (never opened as input devices).
    var cloneNodes: Set<String> = []
    /// Makes a forwarded device's clone (a seam: `ForwardingSetup`).
    var cloneMaker: (EvdevDevice) throws(SystemCallError) -> any TouchClone = { evdev throws(SystemCallError) in
        try evdev.makeClone()
    }
    var nextDeviceID = 0
    var running = true
    let started = monotonicMicroseconds()
    var eventBuffer: [RawEvent] = []
    var injected: [InjectedDevice] = []
    /// Recordings waiting for the first subscriber (`--inject-when-subscribed`).
    var pendingInjection: [Recording] = []
    /// Recordings of `inject` requests still to play, each after the one before has finished.
    var injectionQueue: [Recording] = []
    /// Subscribe, record and attach requests so far, while the injection waits for them.
    var injectionRequests = 0
    /// The latest event timestamp fed to the pipeline.
    var lastEventTime: Timestamp?
    /// libinput's device quirks (`DaemonOptions.quirks`), nil without them; this machine's DMI modalias.
    var quirks: LibinputQuirks?
    var dmiModalias: String?

    static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]
    /// Descriptors the daemon may need: two per client slot (socket and stream pipe), and room
    /// for devices, binding commands' pipes and its own (epoll, timers, signals, udev).
    static let descriptorsWanted: UInt64 = 4096

    /// Runs the daemon until SIGTERM/SIGINT; returns the process exit status.
    public static func main(options: DaemonOptions, logger: Logger) -> Int32 {
        SignalFD.block(handledSignals)
        // An ignored signal is discarded before signalfd could see it (a shell starting us in the
        // background ignores SIGINT); blocked, the default action never runs.
        for signo in handledSignals { signal(signo, SIG_DFL) }
        signal(SIGPIPE, SIG_IGN)
        // Every client may hold two descriptors (its socket and its stream pipe); the loop uses
        // epoll, never select(2), so a limit above 1024 is safe (docs/daemon.md, "Socket").
        if let raised = DescriptorLimit.raise(toAllow: Daemon.descriptorsWanted) {
            logger.info("open-file limit raised", metadata: ["from": "\(raised.before)", "to": "\(raised.after)"])
        }
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: options.configPath ?? defaultConfigurationPath())
        } catch {
            logger.critical("configuration refused:\n\(error.description)")
            return 2
        }
        var options = options
        if options.socketPath == nil, configuration.socket.path == nil, !UnixListener.isActivated {
            switch SocketPath.current.forDaemon {
            case .success(let path): options.socketPath = path
            case .failure(let error):
                logger.critical("cannot run: \(error)")
                return 2
            }
        }
        let problems = startupProblems(configuration, socketOverride: options.socketPath,
                                       socketActivated: UnixListener.isActivated)
        if !problems.isEmpty {
            logger.critical("configuration refused:\n\(ConfigErrors(errors: problems).description)")
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
        settings.path = daemonSocketPath(configuration, override: options.socketPath)
        let listenFD: FileDescriptor
        let socketPath: String?
        if let fd = ClientHub.activatedSocket() {
            listenFD = fd
            socketPath = nil
            logger.info("using the socket passed by systemd")
        } else {
            let path = settings.path ?? SocketPath.system
            listenFD = try ClientHub.listen(path: path, settings: settings)
            socketPath = path
        }
        hub = try ClientHub(listenFD: listenFD, socketPath: socketPath, settings: settings, epoll: epoll, logger: logger)
        hub.recognizerKinds = recognizerKinds
        hub.regionIDs = Self.regionIDs(configuration.engine.root)
        hub.checksFilterNames = true
        recordings = DeviceRecordings(hub: hub, logger: logger)
        bindings.unitsPerMM = { [unowned self] name in self.surfaceUnitsPerMM(device: name) }
        bindings.sendWindowAction = { [unowned self] line in self.sendToDesktopBridge(line) }
        bindings.configure(configuration)
        quirks = QuirksLoading.load(options.quirks)
        dmiModalias = QuirksLoading.dmiModalias()
        for problem in quirks?.problems ?? [] { logger.warning("libinput quirks: \(problem)") }

        if let interval = notifier.watchdogInterval {
            let watchdog = try MonotonicTimer()
            watchdog.arm(at: monotonicMicroseconds() + interval, interval: interval)
            try epoll.add(watchdog.fd, events: .readable)
            watchdogTimer = watchdog
        }
        if options.opensDevices { startDevices() }
        logger.info("gestured \(DaemonVersion.version) listening",
                    metadata: ["socket": "\(socketPath ?? "systemd")", "config": "\(configSource)",
                               "devices": "\(devices.count)",
                               // docs/input.md, "Device quirks": without them every touchpad contact counts.
                               "quirks": "\(quirks.map { "\($0.sections.count) libinput sections" } ?? "none")"])
    }

    static func kinds(of configuration: Configuration) -> [String: RecognizerKind] {
        // Window rules' gestures too: subscribe filters and `listen --gesture` may name them.
        let windowGestures = configuration.engine.windowRules.flatMap(\.gestures)
        return Dictionary((configuration.engine.recognizers + windowGestures).map { ($0.id, $0.kind) }) { first, _ in first }
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
                if hub.hasEvents { actOnHubEvents() }
            }
            // In place (a mutating call): reading a property of the engine from here would copy it.
            pipeline.engine.compactIfIdle()
        }
        shutdown()
    }

    @inline(__always)
    func dispatch(fd: FileDescriptor, events: EpollEvents) {
        if let device = deviceByFD[fd] {
            let id = device.ref.id
            read(device)
            // A hung-up fd stays readable forever (level-triggered): never leave one in the set.
            if !events.isDisjoint(with: [.hangUp, .error]) && devices[id] != nil {
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
    func actOnHubEvents() {
        while let event = hub.nextEvent() {
            switch event {
            case .request(let pending): hub.reply(to: pending, with: answer(pending))
            case .explainWanted(let on): pipeline.engine.explains = on
            case .subscribed:
                countTowardsInjection()
                refreshTouchSubscribers()
            case .unsubscribed: refreshTouchSubscribers()
            case .disconnected(let client):
                handle(apps.clientGone(client.id, pipeline: &pipeline, at: now))
                desktopClientGone(client.id)
                refreshTouchSubscribers()
            }
        }
    }

    /// One timer for everything time-driven: the engine's next deadline, binding timeouts, the end of
    /// timed recordings.
    @inline(__always)
    func armTimer() {
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

    func handleSignal(_ signo: Int32) {
        switch signo {
        case SIGTERM, SIGINT:
            logger.info("stopping", metadata: ["signal": "\(signo == SIGTERM ? "SIGTERM" : "SIGINT")"])
            running = false
        case SIGHUP:
            _ = reload(origin: "SIGHUP")
        case SIGCHLD:
            bindings.reap()
            tellBindingRuns()
        default:
            break
        }
    }

    /// Publishes outputs and runs bindings.
    @inline(__always)
    func handle(_ outputs: [EngineOutput]) {
        // The desktop's frame first: clients and bindings do not delay it.
        if pipeline.forwards { writeClones() }
        let binds = !bindings.bindings.isEmpty
        // Each output handed on where it lies in the array, not copied out of it first.
        outputs.withUnsafeBufferPointer { outputs in
            for i in outputs.indices {
                // A gesture as the plain bytes it is (ClientFanOut.swift, `publish(gesture:)`).
                if case .gesture(let event) = outputs[i] {
                    hub.publish(gesture: event)
                    if binds { bindings.handle(event) }
                } else {
                    hub.publish(outputs[i])
                }
            }
        }
    }

    func shutdown() {
        notifier.stopping()
        recordings.endAll(reason: "daemon stopping")
        for id in devices.keys.sorted() { closeDevice(id, reason: "daemon stopping") }
        hub.closeAll()
        if bindings.runningCount > 0 {
            logger.info("leaving running binding commands to finish", metadata: ["count": "\(bindings.runningCount)"])
        }
    }
}
