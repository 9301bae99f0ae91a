import GestureCore

/// What `gestured replay --svg` draws, gathered from the engine's outputs: each device's surface
/// and region frames, each touch's path, the gestures (a continuous one from began to its end as
/// one span), and the recognizers that failed, placed where the fingers were when they failed.
public struct ReplayPicture: Sendable {
    /// A device's surface with its regions as the engine lays them out.
    public struct Device: Sendable {
        public var name: String
        public var kind: DeviceKind
        public var source: String
        /// Surface size in surface units.
        public var surfaceSize: Point
        /// Surface units per mm.
        public var unitsPerMM: Point
        public var regions: [RegionBox]

        /// `layout`: the engine's layout of the device's surface (`GestureEngine.surfaceLayout`, the
        /// scene's `surfaces`): its regions as the engine hit-tests them, window regions named by
        /// `windows`. `surface` gives the millimetres.
        public init(description: DeviceDescription, source: String, surface: SurfaceConfiguration, layout: SurfaceLayout,
                    windows: WindowNames = WindowNames()) {
            name = description.name
            kind = description.kind
            self.source = source
            let mapper = SurfaceMapper(description: description, surface: surface)
            surfaceSize = layout.size
            unitsPerMM = mapper.surfaceUnitsPerMM
            regions = layout.regions.map {
                RegionBox(id: $0.id, frame: $0.frame, depth: $0.depth, hidden: $0.hidden, window: windows[region: $0.id])
            }
        }

        /// Surface units → mm.
        func mm(_ p: Point) -> Point {
            Point(x: unitsPerMM.x > 0 ? p.x / unitsPerMM.x : p.x, y: unitsPerMM.y > 0 ? p.y / unitsPerMM.y : p.y)
        }
        var sizeMM: Point { mm(surfaceSize) }
    }

    /// One region's frame on a surface.
    public struct RegionBox: Sendable, Equatable {
        public var id: String
        /// Surface units.
        public var frame: Rect
        /// 0 for the root.
        public var depth: Int
        public var hidden: Bool
        /// The window the region follows, when it is a window's.
        public var window: WindowName?

        public init(id: String, frame: Rect, depth: Int, hidden: Bool, window: WindowName? = nil) {
            self.id = id
            self.frame = frame
            self.depth = depth
            self.hidden = hidden
            self.window = window
        }
    }

    /// One finger (or a pen's tip or eraser) from down to up.
    public struct Track: Sendable {
        public var id: TouchID
        public var device: Int
        /// Times and surface positions, in order.
        public var points: [(time: Timestamp, location: Point)]
        public var endPhase: TouchPhase?
        /// Finger, pen or eraser.
        public var type: TouchType = .finger
        /// A pen's pressure (0…1) at each point, where it reports one; empty for a finger.
        public var pressures: [Double] = []
        /// A pen's altitude and azimuth (radians) when it touched down, where it reports its tilt.
        public var altitudeAngle: Double?
        public var azimuthAngle: Double?
        /// What the desktop got of it, when its device was forwarded (`replay --forward`).
        public var forwarding: ForwardingMark?
        public var began: Timestamp { points[0].time }
        public var end: Timestamp { points[points.count - 1].time }

        /// Where the finger was at `time` (its last position at or before it).
        func location(at time: Timestamp) -> Point {
            var last = points[0].location
            for p in points {
                if p.time > time { break }
                last = p.location
            }
            return last
        }
    }

    /// A pen in range and not touching (its `hovering` lines to its `hover-ended`): no touch, drawn
    /// apart from the tracks.
    public struct Hover: Sendable {
        public var id: TouchID
        public var device: Int
        public var type: TouchType
        /// Times and surface positions, in order.
        public var points: [(time: Timestamp, location: Point)]
    }

    /// What the desktop got of a touch of a forwarded device.
    public enum ForwardingMark: Sendable, Equatable {
        /// Passed through at once.
        case forwarded
        /// Held back from its start, then released (written late) at this time.
        case heldThenReleased(Timestamp)
        /// Held back, or passed through and then lifted on the clone, at this time: a gesture took it.
        case cancelled(Timestamp)
    }

    /// A gesture's published lines: a discrete one alone, a continuous one from began to its end.
    public struct Span: Sendable {
        public var number: Int
        public var device: Int
        public var events: [GestureEvent]
        public var first: GestureEvent { events[0] }
        public var last: GestureEvent { events[events.count - 1] }
    }

    /// A recognizer's transition to failed, and where the fingers were.
    public struct Failure: Sendable {
        public var number: Int
        public var event: ExplainEvent
        public var device: Int?
        /// Surface units on `device`.
        public var location: Point?
    }

    public var title: String
    public var configName: String
    public var devices: [Device]
    /// The windows of the desktop the replay ran over (`--desktop`), by region: gestures and
    /// failures over a window name it.
    public var windows = WindowNames()
    public var tracks: [Track] = []
    public var hovers: [Hover] = []
    public var spans: [Span] = []
    public var failures: [Failure] = []
    /// Time zero of every "ms" in the picture: the first event of the replay.
    public var origin: Timestamp
    public var end: Timestamp

    /// - Parameters: devices in replay order (device names in the outputs find their surface by
    ///   name; two devices of the same name share the first one's); `origin`: the replay's first
    ///   event time.
    /// `forwarded`: the devices were forwarded (`replay --forward`), so every touch gets a `ForwardingMark`.
    public init(title: String, configName: String, devices: [Device], outputs: [EngineOutput], origin: Timestamp,
                forwarded: Bool = false, windows: WindowNames = WindowNames()) {
        self.title = title
        self.configName = configName
        self.devices = devices
        self.windows = windows
        self.origin = origin
        var last = origin
        func device(named name: String) -> Int {
            devices.firstIndex { $0.name == name } ?? 0
        }
        var trackIndex: [TouchID: Int] = [:]
        var hoverIndex: [TouchID: Int] = [:]
        var openSpan: [String: Int] = [:]
        var explains: [ExplainEvent] = []
        var marks: [TouchID: ForwardingMark] = [:]
        for output in outputs {
            switch output {
            case .touch(let t) where t.hoverPhase != nil:
                last = max(last, t.time)
                if let i = hoverIndex[t.id] {
                    hovers[i].points.append((t.time, t.location))
                } else {
                    hoverIndex[t.id] = hovers.count
                    hovers.append(Hover(id: t.id, device: device(named: t.device), type: t.type,
                                        points: [(t.time, t.location)]))
                }
            case .touch(let t):
                last = max(last, t.time)
                if let i = trackIndex[t.id] {
                    tracks[i].points.append((t.time, t.location))
                    if let pressure = t.pressure { tracks[i].pressures.append(pressure) }
                    if t.phase.isTerminal { tracks[i].endPhase = t.phase }
                } else {
                    trackIndex[t.id] = tracks.count
                    var track = Track(id: t.id, device: device(named: t.device), points: [(t.time, t.location)],
                                      endPhase: t.phase.isTerminal ? t.phase : nil)
                    track.type = t.type
                    if let pressure = t.pressure { track.pressures = [pressure] }
                    track.altitudeAngle = t.altitudeAngle
                    track.azimuthAngle = t.azimuthAngle
                    tracks.append(track)
                }
            case .gesture(let g):
                last = max(last, g.time)
                let key = g.device + "\u{0}" + g.gesture
                if let i = openSpan[key], g.state != .began {
                    spans[i].events.append(g)
                    if g.state != .changed { openSpan[key] = nil }
                } else {
                    spans.append(Span(number: spans.count + 1, device: device(named: g.device), events: [g]))
                    if g.state == .began || g.state == .changed { openSpan[key] = spans.count - 1 }
                }
            case .forwarding(let f):
                switch f.verdict {
                case .hold: marks[f.touch] = marks[f.touch] ?? .cancelled(f.time)
                case .release: marks[f.touch] = .heldThenReleased(f.time)
                case .withdraw: marks[f.touch] = .cancelled(f.time)
                case .pause, .resume: break
                }
            case .explain(let e):
                last = max(last, e.time)
                // A recognizer that had already failed hears about later touches; only the failure counts.
                if e.to == .failed && e.from != .failed { explains.append(e) }
            }
        }
        end = last
        if !marks.isEmpty || forwarded {
            for i in tracks.indices { tracks[i].forwarding = marks[tracks[i].id] ?? .forwarded }
        }
        for e in explains {
            let place = fingers(at: e.time)
            failures.append(Failure(number: failures.count + 1, event: e, device: place?.device, location: place?.location))
        }
    }

    /// The centroid of the fingers down at `time` (or, when none is, of those that lifted last before
    /// it), and their device.
    private func fingers(at time: Timestamp) -> (device: Int, location: Point)? {
        var down = tracks.filter { $0.began <= time && $0.end >= time }
        if down.isEmpty {
            let ended = tracks.filter { $0.end <= time }
            guard let latest = ended.map(\.end).max() else { return nil }
            down = ended.filter { $0.end == latest }
        }
        guard let device = down.first?.device else { return nil }
        let points = down.filter { $0.device == device }.map { $0.location(at: time) }
        return (device, Point.centroid(of: points))
    }

    /// Milliseconds from the first event.
    func ms(_ time: Timestamp) -> Double { time.milliseconds(since: origin) }
}
