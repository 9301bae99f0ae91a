/// The gesture engine (SPEC §5–§7): hit-tests new touches against the region tree, delivers touches
/// to the recognizers of the hit region and its ancestors, arbitrates, and emits gesture and touch
/// events. A value: feed it frames and time; it never reads a clock.
///
/// Per frame: (1) deadlines due at or before the frame fire; (2) new touches are hit-tested and bound
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

    /// A fresh lane (every recognizer possible), copied for each new device.
    var template: EngineLane
    /// One lane per device: recognizer states, touches and timers of touches of that device. Touches of
    /// different devices never share a gesture, so lanes never interact.
    var lanes: [EngineLane] = []
    var laneDevices: [Int] = []

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
        template = EngineLane(configuration: configuration)
    }

    /// Processes one frame (all touches of one SYN_REPORT of one device).
    public mutating func process(_ frame: TouchFrame) -> [EngineOutput] {
        var out: [EngineOutput] = []
        fire(upTo: frame.time, &out)
        var lane = 0
        while lane < laneDevices.count && laneDevices[lane] != frame.device.id { lane += 1 }
        if lane == laneDevices.count {
            laneDevices.append(frame.device.id)
            lanes.append(template)
            lanes[lane].deviceName = frame.device.name
        }
        if out.isEmpty {
            out = lanes[lane].process(frame)
        } else {
            out += lanes[lane].process(frame)
        }
        updateNextDeadline()
        return out
    }

    /// Moves time forward, firing every deadline at or before `time` (long press, tap timeouts).
    public mutating func advance(to time: Timestamp) -> [EngineOutput] {
        var out: [EngineOutput] = []
        fire(upTo: time, &out)
        updateNextDeadline()
        return out
    }

    /// Fires due deadlines of every lane in time order.
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

    mutating func updateNextDeadline() {
        var best: Timestamp?
        for i in lanes.indices {
            if let d = lanes[i].nextDeadline, best == nil || d < best! { best = d }
        }
        nextDeadline = best
    }

    /// The hit-test chain for a point on a surface of the given size: hit region first, then its
    /// ancestors up to the root. Empty when the point is outside the root.
    public func hitTest(_ point: Point, surfaceSize: Point, deviceKind: DeviceKind = .touchscreen) -> [String] {
        template.hitChain(point, surfaceSize: surfaceSize, deviceKind: deviceKind)
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

    /// Transitions the state machine refused in any lane (a bug if ever non-zero).
    var illegalTransitions: Int {
        var n = 0
        for l in lanes.indices { n += lanes[l].illegalTransitions }
        return n
    }
}

/// The engine's state for one device (see `GestureEngine`).
struct EngineLane: Sendable {
    /// The lane's device name, for touch-stream events.
    var deviceName = ""
    /// Emit `.explain` outputs for every recognizer transition.
    var explains: Bool = false
    /// "received touch" explain lines of touches bound during the current frame, emitted before its transitions.
    private var receivedExplains: [EngineOutput] = []

    struct Slot: Sendable {
        var id: String
        var kind: RecognizerKind
        var region: Int
        var regionID: String
        var discrete: Bool
        var taps: Int
        var isSingleTap: Bool
        var cancelsTouches: Bool
        var delaysBegan: Bool
        var delaysEnded: Bool
        var requires: [Int] = []
        var requiredBy: [Int] = []
        var state: GestureState = .possible
        /// A recognize / begin waiting for required recognizers to fail.
        var pending: Proposal?
        /// A continuous recognizer whose touches ended while its began was pending.
        var pendingEnded = false
        var touches: [TouchID] = []
        var active = 0
        var device: Int?
        var deviceName = ""
    }

    /// A touch bound at touch-down to its hit region and the recognizers of the region chain. Its
    /// touch-stream delivery (regions with `publishesTouches`):
    ///
    /// | stream state | event                                              | emits / next state            |
    /// |--------------|----------------------------------------------------|-------------------------------|
    /// | new          | began, a delaying (`delaysBegan`) recognizer possible | — / began held             |
    /// | new          | began, otherwise                                   | began / delivered             |
    /// | began held   | every delaying recognizer decided, none cancelling | began + moved to now / delivered |
    /// | began held   | a `cancelsTouches` recognizer succeeds             | — / closed                    |
    /// | delivered    | moved                                              | moved                         |
    /// | delivered    | ended, a `delaysEnded` recognizer possible         | — / ended held                |
    /// | delivered    | ended, otherwise                                   | ended / closed                |
    /// | ended held   | the delaying recognizers decided                   | ended / closed                |
    /// | delivered, ended held | a `cancelsTouches` recognizer succeeds, or cancelled | cancelled / closed |
    struct TouchRecord: Sendable {
        var id: TouchID
        var region: Int
        var regionID: String?
        var recognizers: [Int]
        var publishes: Bool
        /// The region whose touch stream gets this touch: the hit region or the nearest ancestor
        /// with a consumer (`RegionTree.responder(for:)`); nil when `publishes` is false.
        var responderID: String? = nil
        var last: Touch
        var beganLocation: Point
        var beganDelivered = false
        var beganHeld = false
        var endedHeld = false
        var closed = false
        var terminal = false
    }

    // Internal (not private) for EngineLane+Reconfiguration.swift: regions and recognizers attached
    // and detached at run time.
    var tree: RegionTree
    var layouts: [RegionTree.Layout] = []
    var slots: [Slot] = []
    var logics: [any RecognizerLogic] = []
    var simultaneous: [Bool] = []
    var records: [TouchRecord] = []
    var frameTouches: [[Touch]] = []
    var marks: [UInt32] = []
    private var epoch: UInt32 = 0
    private var involved: [Int] = []
    private var proposals: [(Int, Proposal)] = []
    private var successes: [(Int, Proposal, Int)] = []
    var now = Timestamp.zero
    private var surfaceSize = Point.zero
    private var unitsPerMM = Point(x: 1, y: 1)
    private(set) var cachedDeadline: Timestamp?
    var pendingCount = 0
    /// Transitions the state machine refused (a bug if ever non-zero; tests assert it stays 0).
    private(set) var illegalTransitions = 0

    init(configuration: EngineConfiguration) {
        var tree = RegionTree(root: configuration.root)
        var regionOf: [Int?] = []
        var ids: [String: Int] = [:]
        for (i, spec) in configuration.recognizers.enumerated() {
            let region = spec.enabled ? tree.indexByID[spec.region] : nil
            regionOf.append(region)
            if ids[spec.id] == nil { ids[spec.id] = i }
            let (slot, logic) = Self.makeRecognizer(spec, region: region)
            slots.append(slot)
            logics.append(logic)
        }
        let n = slots.count
        simultaneous = .init(repeating: false, count: n * n)
        for (i, spec) in configuration.recognizers.enumerated() {
            for other in spec.simultaneousWith {
                guard let j = ids[other] else { continue }
                simultaneous[i * n + j] = true
                simultaneous[j * n + i] = true
            }
            for other in spec.requireToFail {
                guard let j = ids[other], j != i else { continue }
                slots[i].requires.append(j)
                slots[j].requiredBy.append(i)
            }
        }
        let singleTaps = slots.map(\.isSingleTap)
        tree.attach(recognizerRegions: regionOf, isSingleTap: { singleTaps[$0] })
        self.tree = tree
        frameTouches = .init(repeating: [], count: n)
        marks = .init(repeating: 0, count: n)
    }

    /// One recognizer's slot and logic (also used for recognizers attached at run time).
    static func makeRecognizer(_ spec: RecognizerSpec, region: Int?) -> (Slot, any RecognizerLogic) {
        let p = spec.parameters
        let slot = Slot(id: spec.id, kind: spec.kind, region: region ?? -1, regionID: spec.region,
                        discrete: spec.kind.isDiscrete, taps: p.taps,
                        isSingleTap: spec.kind == .tap && p.taps == 1 && p.fingers == 1,
                        cancelsTouches: spec.cancelsTouches, delaysBegan: spec.delaysTouchesBegan,
                        delaysEnded: spec.delaysTouchesEnded)
        let logic: any RecognizerLogic = switch spec.kind {
        case .tap: TapRecognizer(p)
        case .longPress: LongPressRecognizer(p)
        case .pan: PanRecognizer(p)
        case .swipe: SwipeRecognizer(p)
        case .pinch: PinchRecognizer(p)
        case .rotation: RotationRecognizer(p)
        case .edgePan: EdgePanRecognizer(p)
        }
        return (slot, logic)
    }

    // MARK: - Lane API

    /// Processes one frame of this lane's device.
    mutating func process(_ frame: TouchFrame) -> [EngineOutput] {
        var out: [EngineOutput] = []
        fireDeadlines(upTo: frame.time, &out)
        now = frame.time
        surfaceSize = frame.surfaceSize
        unitsPerMM = frame.unitsPerMM
        epoch &+= 1
        involved.removeAll(keepingCapacity: true)
        var layout = -1
        for touch in frame.touches {
            var ri = recordIndex(touch.id)
            if ri < 0 {
                if touch.phase.isTerminal { continue }
                if layout < 0 { layout = layoutIndex(for: frame.surfaceSize) }
                ri = newRecord(touch, frame: frame, layout: layout)
            }
            records[ri].last = touch
            if touch.phase.isTerminal { records[ri].terminal = true }
            for r in records[ri].recognizers {
                if marks[r] != epoch {
                    marks[r] = epoch
                    involved.append(r)
                    frameTouches[r].removeAll(keepingCapacity: true)
                }
                frameTouches[r].append(touch)
                if touch.phase.isTerminal { slots[r].active -= 1 }
            }
        }
        if !receivedExplains.isEmpty {
            out += receivedExplains
            receivedExplains.removeAll(keepingCapacity: true)
        }
        proposals.removeAll(keepingCapacity: true)
        for r in involved {
            let state = slots[r].state
            if state.isFinal { continue }
            var cancelled = false
            for t in frameTouches[r] where t.phase == .cancelled { cancelled = true }
            if cancelled {
                proposals.append((r, state == .possible ? .fail(.touchCancelled) : .cancel(.touchCancelled)))
                continue
            }
            let input = RecognizerInput(time: now, touches: frameTouches[r], surfaceSize: surfaceSize,
                                        unitsPerMM: unitsPerMM)
            if slots[r].pending != nil {
                // Waiting with its outcome pending: a continuous recognizer keeps tracking as if began.
                if slots[r].discrete { continue }
                switch logics[r].handle(input, state: .began) {
                case .end: slots[r].pendingEnded = true
                case .fail(let reason), .cancel(let reason): proposals.append((r, .fail(reason)))
                default: break
                }
                continue
            }
            if slots[r].kind == .rotation && frame.device.isSemiMultitouch && state == .possible {
                proposals.append((r, .fail(.semiMultitouchAngle)))
                continue
            }
            let p = logics[r].handle(input, state: state)
            if p != .none { proposals.append((r, p)) }
        }
        apply(&out)
        deliverStreams(frame, &out)
        finishStep(&out)
        return out
    }

    /// Fires the earliest deadline if it is at or before `time`; false when there is none.
    mutating func fireOne(upTo time: Timestamp, _ out: inout [EngineOutput]) -> Bool {
        guard let deadline = cachedDeadline, deadline <= time else { return false }
        var due = -1
        for r in slots.indices where slots[r].state == .possible && slots[r].pending == nil && !slots[r].touches.isEmpty {
            if let d = logics[r].deadline, d <= deadline {
                due = r
                break
            }
        }
        guard due >= 0 else {
            recomputeDeadline()
            return cachedDeadline != deadline
        }
        if deadline > now { now = deadline }
        let p = logics[due].fire(at: deadline, state: .possible)
        proposals.removeAll(keepingCapacity: true)
        if p != .none { proposals.append((due, p)) }
        apply(&out)
        finishStep(&out)
        return true
    }

    /// The earliest time at which `fireOne` would do something, or nil.
    var nextDeadline: Timestamp? { cachedDeadline }

    func hitChain(_ point: Point, surfaceSize: Point, deviceKind: DeviceKind) -> [String] {
        let layout = layouts.first(where: { $0.size == surfaceSize }) ?? tree.layout(for: surfaceSize)
        guard let hit = tree.hit(point, layout: layout, deviceKind: deviceKind) else { return [] }
        return tree.chain(from: hit).map { tree.nodes[$0].id }
    }

    /// Every recognizer's current state, in configuration order (for tests and status).
    var recognizerStates: [GestureState] { slots.map(\.state) }

    // MARK: - Touches

    func recordIndex(_ id: TouchID) -> Int {
        var i = 0
        while i < records.count {
            if records[i].id == id { return i }
            i += 1
        }
        return -1
    }

    private mutating func layoutIndex(for size: Point) -> Int {
        if let i = layouts.firstIndex(where: { $0.size == size }) { return i }
        if layouts.count >= 8 { layouts.removeFirst() }
        layouts.append(tree.layout(for: size))
        return layouts.count - 1
    }

    private mutating func newRecord(_ touch: Touch, frame: TouchFrame, layout: Int) -> Int {
        let region = tree.hit(touch.location, layout: layouts[layout], deviceKind: frame.device.kind) ?? -1
        var recs: [Int] = []
        if region >= 0 {
            for r in tree.nodes[region].delivery {
                if let d = slots[r].device, d != frame.device.id { continue }
                if slots[r].touches.isEmpty {
                    slots[r].device = frame.device.id
                    slots[r].deviceName = frame.device.name
                }
                slots[r].touches.append(touch.id)
                slots[r].active += 1
                recs.append(r)
                if explains {
                    let chain = tree.nodes[region].id == slots[r].regionID
                        ? "its region" : "region '\(tree.nodes[region].id)' inside '\(slots[r].regionID)'"
                    receivedExplains.append(.explain(ExplainEvent(
                        gesture: slots[r].id, region: slots[r].regionID, from: slots[r].state, to: slots[r].state,
                        time: frame.time,
                        reason: "received touch \(touch.id) at (\(JSONLine.number(touch.location.x)), "
                            + "\(JSONLine.number(touch.location.y))), hit \(chain)")))
                }
            }
        }
        let responder = region >= 0 ? tree.responder(for: region) : nil
        records.append(TouchRecord(id: touch.id, region: region, regionID: region >= 0 ? tree.nodes[region].id : nil,
                                   recognizers: recs, publishes: responder != nil,
                                   responderID: responder.map { tree.nodes[$0].id }, last: touch,
                                   beganLocation: touch.location))
        return records.count - 1
    }

    private func blocks(_ ri: Int, began: Bool) -> Bool {
        let id = records[ri].id
        for r in records[ri].recognizers {
            let s = slots[r]
            guard began ? s.delaysBegan : s.delaysEnded, s.state == .possible else { continue }
            if s.touches.contains(id) { return true }
        }
        return false
    }

    func touchEvent(_ ri: Int, _ phase: TouchPhase, at location: Point) -> EngineOutput {
        .touch(TouchEvent(phase: phase, id: records[ri].id, location: location, region: records[ri].regionID,
                          responder: records[ri].responderID, tapCount: records[ri].last.tapCount, time: now,
                          device: deviceName))
    }

    private mutating func deliverStreams(_ frame: TouchFrame, _ out: inout [EngineOutput]) {
        for touch in frame.touches {
            let ri = recordIndex(touch.id)
            guard ri >= 0, records[ri].publishes, !records[ri].closed else { continue }
            switch touch.phase {
            case .began:
                if blocks(ri, began: true) {
                    records[ri].beganHeld = true
                } else {
                    out.append(touchEvent(ri, .began, at: touch.location))
                    records[ri].beganDelivered = true
                }
            case .moved:
                if records[ri].beganDelivered { out.append(touchEvent(ri, .moved, at: touch.location)) }
            case .stationary:
                break
            case .ended:
                if records[ri].beganDelivered && !blocks(ri, began: false) {
                    out.append(touchEvent(ri, .ended, at: touch.location))
                    records[ri].closed = true
                } else {
                    records[ri].endedHeld = true
                }
            case .cancelled:
                if records[ri].beganDelivered { out.append(touchEvent(ri, .cancelled, at: touch.location)) }
                records[ri].closed = true
                records[ri].beganHeld = false
                records[ri].endedHeld = false
            }
        }
    }

    /// Releases held began / ended events whose delaying recognizers have decided.
    private mutating func flushHeld(_ out: inout [EngineOutput]) {
        for ri in records.indices where !records[ri].closed && (records[ri].beganHeld || records[ri].endedHeld) {
            if records[ri].beganHeld && !blocks(ri, began: true) {
                records[ri].beganHeld = false
                records[ri].beganDelivered = true
                out.append(touchEvent(ri, .began, at: records[ri].beganLocation))
                if records[ri].last.location != records[ri].beganLocation {
                    out.append(touchEvent(ri, .moved, at: records[ri].last.location))
                }
            }
            if records[ri].endedHeld && records[ri].beganDelivered && !blocks(ri, began: false) {
                records[ri].endedHeld = false
                records[ri].closed = true
                out.append(touchEvent(ri, .ended, at: records[ri].last.location))
            }
        }
    }

    /// cancels-touches: the recognizer's touches are cancelled on their regions' streams.
    private mutating func cancelTouches(of r: Int, _ out: inout [EngineOutput]) {
        for id in slots[r].touches {
            let ri = recordIndex(id)
            guard ri >= 0, records[ri].publishes, !records[ri].closed else { continue }
            if records[ri].beganDelivered { out.append(touchEvent(ri, .cancelled, at: records[ri].last.location)) }
            records[ri].closed = true
            records[ri].beganHeld = false
            records[ri].endedHeld = false
        }
    }

    // MARK: - Arbitration

    /// The single place where recognizer states change.
    @discardableResult
    mutating func transition(_ r: Int, _ event: RecognizerEvent, _ reason: Reason,
                                     _ out: inout [EngineOutput]) -> Bool {
        let from = slots[r].state
        guard let to = RecognizerStateMachine.transition(from: from, on: event, discrete: slots[r].discrete) else {
            illegalTransitions += 1
            return false
        }
        slots[r].state = to
        if to == .failed || event == .reset, slots[r].pending != nil {
            slots[r].pending = nil
            pendingCount -= 1
        }
        if explains {
            let text = reason.text(name: { [slots] in slots[$0].id })
            out.append(.explain(ExplainEvent(gesture: slots[r].id, region: slots[r].regionID, from: from, to: to,
                                             time: now, reason: text)))
        }
        if to != .possible && to != .failed {
            var e = GestureEvent(gesture: slots[r].id, kind: slots[r].kind, state: to, time: now,
                                 device: slots[r].deviceName, region: slots[r].regionID, fingers: 0)
            logics[r].describe(&e, at: now)
            out.append(.gesture(e))
        }
        return true
    }

    private enum Requirement { case clear, waiting, blocked(Int) }

    private func requirement(_ r: Int) -> Requirement {
        for q in slots[r].requires {
            let s = slots[q]
            switch s.state {
            case .failed: continue
            case .possible:
                if s.touches.isEmpty { continue }
                return .waiting
            default: return .blocked(q)
            }
        }
        return .clear
    }

    private func requiredSucceeded(_ q: Int) -> Reason {
        slots[q].discrete ? .requiredRecognized(q) : .requiredBegan(q)
    }

    /// Whether a required recognizer that is still undecided can decide later (has touches down, a
    /// timer, or is not itself waiting); false for waits that could only deadlock (a require-to-fail cycle).
    private func requirementsCanResolve(_ r: Int) -> Bool {
        for q in slots[r].requires where slots[q].state == .possible && !slots[q].touches.isEmpty {
            if slots[q].active > 0 || logics[q].deadline != nil || slots[q].pending == nil { return true }
        }
        return false
    }

    private func canPrevent(_ r: Int, _ o: Int) -> Bool {
        if simultaneous[r * slots.count + o] { return false }
        // A tap never prevents a tap that needs more taps.
        if slots[r].kind == .tap && slots[o].kind == .tap && slots[o].taps > slots[r].taps { return false }
        return true
    }

    private func shareTouches(_ a: Int, _ b: Int) -> Bool {
        for t in slots[a].touches where slots[b].touches.contains(t) { return true }
        return false
    }

    private mutating func apply(_ out: inout [EngineOutput]) {
        successes.removeAll(keepingCapacity: true)
        for (r, p) in proposals {
            switch p {
            case .fail(let reason):
                if slots[r].state == .possible { transition(r, .fail, reason, &out) }
            case .cancel(let reason):
                if slots[r].state.isInProgress { transition(r, .cancel, reason, &out) }
            case .change:
                if slots[r].state.isInProgress { transition(r, .change, .moving, &out) }
            case .end:
                if slots[r].state.isInProgress { transition(r, .end, .lifted, &out) }
            case .recognize, .begin:
                successes.append((r, p, successes.count))
            case .none:
                break
            }
        }
        if successes.count > 1 {
            // Taps needing more taps decide first, so a double tap excludes the single tap at its second
            // lift; otherwise delivery order (nearest region first).
            let s = slots
            successes.sort { a, b in
                let ka = s[a.0].kind == .tap ? s[a.0].taps : 0
                let kb = s[b.0].kind == .tap ? s[b.0].taps : 0
                return ka != kb ? ka > kb : a.2 < b.2
            }
        }
        var k = 0
        while k < successes.count {
            let (r, p, _) = successes[k]
            k += 1
            guard slots[r].state == .possible, slots[r].pending == nil else { continue }
            switch requirement(r) {
            case .clear:
                succeed(r, p, &out)
            case .waiting:
                slots[r].pending = p
                pendingCount += 1
            case .blocked(let q):
                transition(r, .fail, requiredSucceeded(q), &out)
            }
        }
        resolvePending(&out)
    }

    private mutating func succeed(_ r: Int, _ p: Proposal, _ out: inout [EngineOutput]) {
        let reason: Reason
        let event: RecognizerEvent
        switch p {
        case .recognize(let why):
            event = .recognize
            reason = why
        case .begin(let why):
            event = .begin
            reason = why
        default: return
        }
        if slots[r].pending != nil {
            slots[r].pending = nil
            pendingCount -= 1
        }
        guard transition(r, event, reason, &out) else { return }
        // Recognizers waiting for this one to fail now fail.
        for w in slots[r].requiredBy where slots[w].state == .possible && !slots[w].touches.isEmpty {
            transition(w, .fail, requiredSucceeded(r), &out)
        }
        // Exclusion.
        for o in slots.indices where o != r {
            let st = slots[o].state
            guard st == .possible || st.isInProgress, !slots[o].touches.isEmpty, shareTouches(r, o),
                  canPrevent(r, o) else { continue }
            transition(o, st == .possible ? .fail : .cancel, .excludedBy(r), &out)
        }
        if slots[r].cancelsTouches { cancelTouches(of: r, &out) }
        if !slots[r].discrete && slots[r].pendingEnded {
            slots[r].pendingEnded = false
            transition(r, .end, .lifted, &out)
        }
    }

    private mutating func resolvePending(_ out: inout [EngineOutput]) {
        var changed = pendingCount > 0
        while changed {
            changed = false
            for r in slots.indices where slots[r].pending != nil {
                guard slots[r].state == .possible, let p = slots[r].pending else { continue }
                switch requirement(r) {
                case .clear:
                    succeed(r, p, &out)
                    changed = true
                case .blocked(let q):
                    transition(r, .fail, requiredSucceeded(q), &out)
                    changed = true
                case .waiting:
                    break
                }
            }
        }
    }

    // MARK: - Time and sequence end

    private mutating func fireDeadlines(upTo time: Timestamp, _ out: inout [EngineOutput]) {
        while fireOne(upTo: time, &out) {}
    }

    mutating func recomputeDeadline() {
        var best: Timestamp?
        for r in slots.indices where slots[r].state == .possible && slots[r].pending == nil && !slots[r].touches.isEmpty {
            if let d = logics[r].deadline, best == nil || d < best! { best = d }
        }
        cachedDeadline = best
    }

    /// Resets recognizers whose sequence is over, releases held touch events, forgets finished touches.
    private mutating func finishStep(_ out: inout [EngineOutput]) {
        var changed = true
        while changed {
            changed = false
            for r in slots.indices where !slots[r].touches.isEmpty && slots[r].active <= 0 {
                if slots[r].state == .possible {
                    // Still deciding: waiting for another tap or a timer, or for a required recognizer
                    // that can still decide. Anything else has nothing left to wait for.
                    if logics[r].deadline != nil { continue }
                    if slots[r].pending != nil {
                        guard case .waiting = requirement(r) else {
                            changed = true  // decided: resolvePending below applies it
                            continue
                        }
                        if requirementsCanResolve(r) { continue }
                    }
                    transition(r, .fail, .sequenceEnded, &out)
                    changed = true
                    continue
                }
                if slots[r].state.isInProgress { transition(r, .cancel, .sequenceEnded, &out) }
                transition(r, .reset, .sequenceEnded, &out)
                slots[r].touches.removeAll(keepingCapacity: true)
                slots[r].active = 0
                slots[r].device = nil
                slots[r].pendingEnded = false
                logics[r].reset()
            }
            if changed { resolvePending(&out) }
        }
        flushHeld(&out)
        var i = records.count - 1
        while i >= 0 {
            let rec = records[i]
            if rec.terminal && (rec.closed || !rec.publishes || (!rec.beganHeld && !rec.endedHeld)) {
                records.swapAt(i, records.count - 1)
                records.removeLast()
            }
            i -= 1
        }
        recomputeDeadline()
    }
}
