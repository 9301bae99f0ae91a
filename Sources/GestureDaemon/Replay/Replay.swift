import GestureCore
import GestureConfig
import GestureProtocol
import GestureRecording
import GesturePosix

/// What to replay and how.
public struct ReplayOptions: Sendable {
    public var configuration: Configuration
    /// Emit every touch of every frame (`--touches`).
    public var emitsAllTouches: Bool
    /// Emit explain lines (`--explain`).
    public var explains: Bool
    /// Forward every device (`--forward`): the engine gives verdicts, and the clones' events are computed.
    public var forwards: Bool
    /// The desktop the replay runs over (`--desktop`), as a bridge would have sent it: its windows
    /// are regions, touchscreens follow their output, and lines name the windows.
    public var desktop: Desktop?
    /// Feed each device a frame at a time, as the daemon reads it: a forwarded frame that nothing
    /// can take is then written ahead of the engine, as the daemon writes it (docs/forwarding.md,
    /// "Writing ahead"). The clones' events and the outputs are the same either way.
    public var readsFrames: Bool

    public init(configuration: Configuration, emitsAllTouches: Bool = false, explains: Bool = false,
                forwards: Bool = false, desktop: Desktop? = nil, readsFrames: Bool = false) {
        self.configuration = configuration
        self.readsFrames = readsFrames
        self.emitsAllTouches = emitsAllTouches
        self.explains = explains
        self.forwards = forwards
        self.desktop = desktop
    }

    /// How the lines of this replay name the windows (empty without a desktop).
    public var windowNames: WindowNames { WindowNames(desktop: desktop, rules: configuration.engine.windowRules) }
}

/// Where a replayed device lies: its surface, and with a desktop the output it is bound to.
public struct ReplayPlacement: Sendable {
    public var surface: SurfaceConfiguration
    /// The desktop output whose windows the device's touches hit (touchscreens), nil otherwise.
    public var output: String?
}

/// The `gestured replay` driver: recordings in, engine outputs out, through the same
/// `GesturePipeline` the live daemon uses. Deterministic: time comes only from event timestamps.
public enum Replay {
    /// Loads every file, in order. A file may hold several devices (libinput record).
    public static func load(paths: [String], descriptionPath: String? = nil) throws(RecordingError) -> [Recording] {
        var result: [Recording] = []
        for path in paths {
            result += try RecordingLoader.load(path: path, descriptionPath: descriptionPath)
        }
        return result
    }

    /// The recordings with libinput's quirks for their devices (no machine's DMI: a recording's
    /// machine is not this one), as the daemon applies them to a live device.
    public static func applying(_ quirks: LibinputQuirks, to recordings: [Recording]) -> [Recording] {
        recordings.map { recording in
            var described = recording
            described.description = quirks.applied(to: recording.description, kind: recording.description.kind,
                                                   dmiModalias: nil)
            return described
        }
    }

    /// Warnings of the recordings as `file: warning: ...` lines (kept as is when they already name the file).
    public static func warningLines(_ recordings: [Recording]) -> [String] {
        recordings.flatMap { recording in
            recording.warnings.map { $0.hasPrefix(recording.source) ? $0 : "\(recording.source): warning: \($0)" }
        }
    }

    /// The device a recording becomes: id = its position in `recordings` (file order).
    public static func deviceRef(_ recording: Recording, index: Int) -> DeviceRef {
        DeviceRef(id: index, name: recording.description.name, kind: recording.description.kind)
    }

    /// The config's `devices` rule that decides whether each recording's device is opened, as the
    /// daemon decides for a live device (kind and path: the recording's).
    public static func decisions(_ recordings: [Recording], configuration: Configuration) -> [DeviceSelection.Decision] {
        recordings.map {
            configuration.opening($0.description, path: $0.description.path ?? $0.source).decision
        }
    }

    /// The decision for `recording` in words, naming the device: "device 'X' (touchpad) opened:
    /// devices.include[0] { kind: touchpad } matches it".
    public static func decisionText(_ recording: Recording, _ decision: DeviceSelection.Decision,
                                    configuration: Configuration) -> String {
        let kind = recording.description.kind
        return "device '\(recording.description.name)' (\(kind.rawValue)) "
            + configuration.devices.explanation(of: decision, kind: kind)
    }

    /// Feeds every recording as its own device, events merged by time (file order breaks ties),
    /// then finishes at the last event time so pending recognizers resolve. `pace` is called before
    /// each event with its time (for `--realtime`); `emit` gets every output in order.
    /// With `options.forwards`, `forwarded` gets each device's clone events (device index, events) as
    /// they are computed.
    /// `notes` gets, after the run, a sentence per device whose contacts had no position while other
    /// axes moved (`AxisActivity.positionProblem`: a device reporting its position on other axes).
    public static func run(_ recordings: [Recording], options: ReplayOptions,
                           pace: ((Timestamp) -> Void)? = nil, forwarded: ((Int, [RawEvent]) -> Void)? = nil,
                           notes: ((Int, String) -> Void)? = nil,
                           finished: ((GesturePipeline) -> Void)? = nil,
                           emit: (EngineOutput) -> Void) {
        let (engine, placements) = start(recordings, options: options)
        var pipeline = GesturePipeline(engine: engine, emitsAllTouches: options.emitsAllTouches)
        // A device the config does not select is not opened, as live: none of its events is fed.
        let selected = decisions(recordings, configuration: options.configuration).map(\.selects)
        for (index, recording) in recordings.enumerated() where selected[index] {
            pipeline.addDevice(recording.description, ref: deviceRef(recording, index: index),
                               surface: placements[index].surface)
            if options.forwards { pipeline.startForwarding(device: index) }
        }
        func drain() { if let forwarded { pipeline.drainForwarded(forwarded) } }
        var cursors = recordings.indices.map { selected[$0] ? 0 : recordings[$0].events.count }
        var last: Timestamp?
        while true {
            // k-way merge; k is the number of devices (small).
            var pick: Int?
            for i in recordings.indices where cursors[i] < recordings[i].events.count {
                let t = recordings[i].events[cursors[i]].time
                if pick == nil || t < recordings[pick!].events[cursors[pick!]].time { pick = i }
            }
            guard let i = pick else { break }
            let event = recordings[i].events[cursors[i]]
            pace?(event.time)
            if options.readsFrames {
                // One frame of device i, through its SYN_REPORT, as one read.
                var end = cursors[i]
                while end < recordings[i].events.count {
                    let e = recordings[i].events[end]
                    end += 1
                    last = max(last ?? e.time, e.time)
                    if e.type == .syn && e.code == .synReport { break }
                }
                let read = Array(recordings[i].events[cursors[i]..<end])
                cursors[i] = end
                var ahead: [RawEvent] = []
                for output in pipeline.feed(read, device: i, writingAhead: { ahead = $1 }) { emit(output) }
                if !ahead.isEmpty { forwarded?(i, ahead) }
            } else {
                cursors[i] += 1
                last = max(last ?? event.time, event.time)
                for output in pipeline.feed(event, device: i) { emit(output) }
            }
            drain()
        }
        for output in pipeline.finish(at: last ?? .zero) { emit(output) }
        drain()
        finished?(pipeline)
        guard let notes else { return }
        for (index, recording) in recordings.enumerated() {
            let surface = options.configuration.surface(for: recording.description, kind: recording.description.kind,
                                                        path: recording.description.path ?? recording.source)
            if let problem = pipeline.axisActivity(ofDevice: index)?
                .positionProblem(description: recording.description, remapped: surface.axes) {
                notes(index, problem)
            }
        }
    }

    /// Where each recording's device lies (its surface; with a desktop, its output), as the replay places it.
    public static func placements(_ recordings: [Recording], options: ReplayOptions) -> [ReplayPlacement] {
        start(recordings, options: options).placements
    }

    /// Each recording's surface as the engine lays it out before the first touch (ids in file order).
    public static func surfaceLayouts(_ recordings: [Recording], options: ReplayOptions) -> [SurfaceLayout] {
        let (engine, placements) = start(recordings, options: options)
        return layouts(recordings, engine: engine, placements: placements)
    }

    private static func layouts(_ recordings: [Recording], engine: GestureEngine,
                                placements: [ReplayPlacement]) -> [SurfaceLayout] {
        recordings.enumerated().map { i, recording in
            let d = recording.description
            return engine.surfaceLayout(device: i, name: d.name, kind: d.kind, size: placements[i].surface.size(for: d))
        }
    }

    /// The `scene` reply a daemon playing these recordings would give before their first touch
    /// (`gestured replay --scene`, docs/protocol.md "The scene"): each recording a device (ids in
    /// file order) with its surface as the engine lays it out, over the `--desktop` snapshot if any.
    public static func scene(_ recordings: [Recording], options: ReplayOptions) -> String {
        let (engine, placements) = start(recordings, options: options)
        let surfaces = layouts(recordings, engine: engine, placements: placements)
        let desktop = engine.desktop.map { desktop in
            desktop.sceneJSON(backend: "replay") { engine.window(forRegion: $0.regionID)?.rule }
        } ?? "null"
        let configuration = options.configuration.engine
        return Daemon.sceneReply(regions: configuration.root,
                                 gestures: configuration.recognizers + configuration.windowRules.flatMap(\.gestures),
                                 desktop: desktop, surfaces: surfaces) { $0 }
    }

    /// The engine a replay starts with, and its devices' places: with a desktop, the desktop's
    /// regions, each device bound to its output (`surfaces[].output` or the default) and each
    /// touchscreen on an output taking its logical size and rotation, as the daemon does while a
    /// bridge is connected (docs/desktop.md).
    static func start(_ recordings: [Recording], options: ReplayOptions) -> (engine: GestureEngine, placements: [ReplayPlacement]) {
        let configuration = options.configuration
        var engine = GestureEngine(configuration: configuration.engine)
        engine.explains = options.explains
        var placements: [ReplayPlacement] = []
        if let desktop = options.desktop {
            for (index, recording) in recordings.enumerated() {
                let d = recording.description
                engine.setOutput(configuration.output(for: d, kind: d.kind, path: d.path ?? recording.source), forDevice: index)
            }
            _ = engine.setDesktop(desktop, at: .zero)
        }
        for (index, recording) in recordings.enumerated() {
            let d = recording.description
            var placement = ReplayPlacement(surface: configuration.surface(for: d, kind: d.kind, path: d.path ?? recording.source))
            if d.kind == .touchscreen, let desktop = options.desktop, let name = engine.output(forDevice: index),
               let o = desktop.output(named: name) {
                placement.surface = placement.surface.following(o)
                placement.output = name
            }
            placements.append(placement)
        }
        return (engine, placements)
    }

    /// A forwarded replay: the outputs, and per recording what its clone gets (same description,
    /// the clone's events), deterministic. A device the config does not select is not taken: the
    /// desktop gets its own events, unchanged.
    public static func forwarded(_ recordings: [Recording], options: ReplayOptions,
                                 finished: ((GesturePipeline) -> Void)? = nil)
        -> (outputs: [EngineOutput], clones: [Recording]) {
        var options = options
        options.forwards = true
        var outputs: [EngineOutput] = []
        var events = desktopEvents(recordings, configuration: options.configuration)
        run(recordings, options: options, forwarded: { events[$0] += $1 }, finished: finished) { outputs.append($0) }
        let clones = recordings.enumerated().map { i, r in
            Recording(description: r.description, events: events[i], source: r.source + " (forwarded)")
        }
        return (outputs, clones)
    }

    /// What the desktop gets of each device before forwarding: nothing yet of a selected one (its
    /// clone's events are computed), everything of one the config does not select (never taken).
    public static func desktopEvents(_ recordings: [Recording], configuration: Configuration) -> [[RawEvent]] {
        zip(recordings, decisions(recordings, configuration: configuration)).map { $1.selects ? [] : $0.events }
    }

    /// Every output of a replay, in order (for tests and benchmarks).
    public static func outputs(_ recordings: [Recording], options: ReplayOptions) -> [EngineOutput] {
        var result: [EngineOutput] = []
        run(recordings, options: options) { result.append($0) }
        return result
    }
}
