/// The gesture engine: hit-tests new touches against the region tree, delivers touches
/// to the recognizers of the hit region and its ancestors, arbitrates, and emits gesture and touch
/// events. A value: feed it frames and time; it never reads a clock.
///
/// Per frame: (1) deadlines due at or before the frame fire; (1b) contact hygiene drops first-contact
/// jumps, takes resting contacts out of their gestures and pins clicked ones; (2) new touches are hit-tested and bound
/// to the recognizers of their region chain; (3) every recognizer holding a touch of the frame
/// proposes (fail / cancel / change / end first, then recognize / begin, more-tap taps first);
/// (4) a success is checked against require-to-fail (wait with the outcome pending, or fail), then
/// applied: waiters on it fail, recognizers it excludes fail or are cancelled, its touches are
/// cancelled on touch streams; (5) touch streams get the frame's touches, held began/ended are
/// released once no delaying recognizer is undecided; (6) recognizers in a final state whose touches
/// have all lifted reset to possible.
public struct GestureEngine: Sendable {
    public internal(set) var configuration: EngineConfiguration
    /// Emit `.explain` outputs for every recognizer transition.
    public var explains: Bool = false {
        didSet {
            template.explains = explains
            for i in lanes.indices { lanes[i].explains = explains }
        }
    }

    /// Record every recognizer state-machine step as an explain line ("machine: tap: idle --fingerDown-->
    /// touching"): libinput-style tracing, for tests and `--explain` debugging.
    public var tracesMachines: Bool = false {
        didSet {
            template.tracesMachines = tracesMachines
            for i in lanes.indices { lanes[i].tracesMachines = tracesMachines }
        }
    }

    /// State-machine events no transition handles, summed over every lane: a bug if ever non-zero
    /// (the daemon logs `lastBug` and shows the count in `status`).
    public var bugCount: Int { lanes.reduce(0) { $0 + $1.bugCount } }
    public var lastBug: String? { lanes.lazy.compactMap(\.lastBug).first }

    /// A fresh lane (every recognizer possible), copied for each new device.
    var template: EngineLane
    /// One lane per device: recognizer states, touches and timers of touches of that device. Touches of
    /// different devices never share a gesture, so lanes never interact.
    var lanes: [EngineLane] = []
    var laneDevices: [Int] = []
    /// Devices whose touches the desktop gets through a clone (GestureEngine+Forwarding.swift).
    var forwardedDevices: [Int] = []
    /// The desktop's outputs and windows as regions (GestureEngine+Desktop.swift).
    var desktopState = DesktopState()

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
        template = EngineLane(configuration: configuration)
    }

    /// Processes one frame (all touches of one SYN_REPORT of one device).
    @inline(__always)
    public mutating func process(_ frame: TouchFrame) -> [EngineOutput] {
        // The storage of the array returned last time, unique again once the caller has let it go
        // (it normally has, before the next frame): a frame's outputs then cost no allocation.
        var out = spareOutput
        spareOutput = []
        out.clearKeepingCapacity()
        fire(upTo: frame.time, &out)
        var lane = 0
        while lane < laneDevices.count && laneDevices[lane] != frame.device.id { lane += 1 }
        if lane == laneDevices.count {
            laneDevices.append(frame.device.id)
            lanes.append(template)
            lanes[lane].deviceName = frame.device.name
            lanes[lane].hygiene = ContactHygiene(settings: configuration.contacts(for: frame.device.kind))
            lanes[lane].configure(for: frame.device.kind)
            lanes[lane].forwarding.enabled = forwardedDevices.contains(frame.device.id)
            // Not a mutating call on the engine here: after one, every frame checked the lanes'
            // storage a second time (docs/architecture.md).
            if desktopState.desktop != nil {
                (lanes[lane].boundOutput, lanes[lane].touchpadWindow) = Self.desktopBinding(
                    desktopState, template.tree, configuration.touchpadWindow, kind: frame.device.kind,
                    device: frame.device.id)
            }
        }
        lanes[lane].process(frame, into: &out)
        updateNextDeadline()
        spareOutput = out
        return out
    }

    /// Set when a region is detached (its leftovers may remain until every lane is idle), cleared
    /// once none remain: `compactIfIdle` looks no further while it is false.
    @usableFromInline var mayHaveDetachedLeftovers = false

    /// See `process`: the storage of the last output array.
    private var spareOutput: [EngineOutput] = []

    /// Moves time forward, firing every deadline at or before `time` (long press, tap timeouts).
    public mutating func advance(to time: Timestamp) -> [EngineOutput] {
        var out: [EngineOutput] = []
        fire(upTo: time, &out)
        updateNextDeadline()
        return out
    }

    /// Fires due deadlines of every lane in time order.
    @inline(__always)
    private mutating func fire(upTo time: Timestamp, _ out: inout [EngineOutput]) {
        while true {
            var best = -1
            var bestTime = time
            for i in lanes.indices {
                if let d = lanes[i].nextDeadline, d <= bestTime, best < 0 || d < bestTime {
                    best = i
                    bestTime = d
                }
            }
            if best < 0 || !lanes[best].fireOne(upTo: time, &out) { return }
        }
    }

    /// The earliest time at which `advance(to:)` would do something, or nil. Stored: the pipeline asks
    /// for it at every raw event.
    public private(set) var nextDeadline: Timestamp?

    @inline(__always)
    mutating func updateNextDeadline() {
        if !retiredDevices.isEmpty { dropIdleRetiredLanes() }
        var best: Timestamp?
        for i in lanes.indices {
            if let d = lanes[i].nextDeadline, best == nil || d < best! { best = d }
        }
        nextDeadline = best
    }

    /// Devices gone whose lanes still have something to decide (`removeLane(device:)`).
    private var retiredDevices: [Int] = []

    /// Forgets the lane of a device that is gone (unplugged, or its recording ended): call after
    /// its touches were cancelled. A lane still deciding (a single tap waiting out the double tap's
    /// interval, say) stays until that is decided, so no outcome is lost; then nothing of the
    /// device is kept. A later frame of the same device id starts a fresh lane.
    public mutating func removeLane(device id: Int) {
        guard laneDevices.contains(id), !retiredDevices.contains(id) else { return }
        retiredDevices.append(id)
        updateNextDeadline()
    }

    /// Lanes held: one per device that sent a frame and is not yet removed, or not yet idle.
    public var laneCount: Int { lanes.count }

    private mutating func dropIdleRetiredLanes() {
        retiredDevices.removeAll { id in
            guard let lane = laneDevices.firstIndex(of: id) else { return true }
            guard lanes[lane].isIdle else { return false }
            lanes.remove(at: lane)
            laneDevices.remove(at: lane)
            return true
        }
    }

    /// The hit-test chain for a point on a surface of the given size: hit region first, then its
    /// ancestors up to the root. Empty when the point is outside the root.
    /// With `device`, the regions of the output that device is bound to (GestureEngine+Desktop.swift).
    public func hitTest(_ point: Point, surfaceSize: Point, deviceKind: DeviceKind = .touchscreen,
                        device: Int? = nil) -> [String] {
        var output = -1
        if let device, let name = self.output(forDevice: device),
           let index = template.tree.indexByID[DesktopRegions.outputPrefix + name] { output = index }
        return template.hitChain(point, surfaceSize: surfaceSize, deviceKind: deviceKind, output: output)
    }

    /// Per recognizer, in configuration order: its state on a device where it is not possible, else possible.
    var recognizerStates: [GestureState] {
        var states = template.recognizerStates
        for l in lanes.indices {
            for (i, s) in lanes[l].recognizerStates.enumerated() where s != .possible && states[i] == .possible {
                states[i] = s
            }
        }
        return states
    }

    /// Held successes given up at a sequence's end because of a cycle of waits, in any lane (a bug if
    /// ever non-zero: no recognizer waits for one that waits for it).
    var waitCycles: Int { lanes.reduce(0) { $0 + $1.waitCycles } }
    /// Holds by undecided recognizers are bounded (EngineLane+Holds.swift); false only to measure
    /// how long they last unbounded (set before any device is added).
    var boundsHolds: Bool {
        get { template.boundsHolds }
        set { template.boundsHolds = newValue }
    }
    /// The longest a success was held by a recognizer that could not decide, over every lane, ms.
    var longestHold: Double { lanes.reduce(0) { max($0, $1.longestHold) } }

    /// Transitions the state machine refused in any lane (a bug if ever non-zero).
    var illegalTransitions: Int {
        var n = 0
        for l in lanes.indices { n += lanes[l].illegalTransitions }
        return n
    }
}

/// The engine's state for one device (see `GestureEngine`).
