/// The engine's state for one device (see `GestureEngine`): the touches bound to recognizers, the
/// recognizers' states and timers. This file binds touches and runs a frame through the recognizers;
/// arbitration, touch streams and the end of a sequence are in the `EngineLane+…` files beside it.
struct EngineLane: Sendable {
    /// The lane's device name, for touch-stream events.
    var deviceName = ""
    /// Contact hygiene for the lane's device kind (first-contact jumps, resting contacts, clicks).
    var hygiene = ContactHygiene(settings: .touchscreen)
    /// Record every recognizer state-machine step as an explain line (`GestureEngine.tracesMachines`).
    var tracesMachines = false {
        didSet { for r in 0..<logics.count { logics[trace: r].enabled = tracesMachines } }
    }
    /// State-machine steps that had no transition (bugs), and the last one's text.
    var bugCount = 0
    var lastBug: String?
    /// Emit `.explain` outputs for every recognizer transition.
    var explains: Bool = false
    /// "received touch" explain lines of touches bound during the current frame, emitted before its transitions.
    var receivedExplains: [EngineOutput] = []

    struct Slot: Sendable {
        var id: String
        /// `id` and `regionID` interned, for the gesture events the recognizer publishes.
        var name: InternedString
        var kind: RecognizerKind
        var region: Int
        var regionID: String
        var regionName: InternedString
        var discrete: Bool
        var taps: Int
        var isSingleTap: Bool
        var cancelsTouches: Bool
        var delaysBegan: Bool
        var delaysEnded: Bool
        var claimsForwarded = false
        var holdsForwarded = ForwardingHold.never
        /// Fewest and most fingers the recognizer's gesture can have (settling).
        var fingerRange: ClosedRange<Int>
        /// `settle-time` as configured (nil: the device kind's default).
        var configuredSettleTime: Double?
        /// How long after its first finger landed a success waits while a finger may still join.
        var settleTime: Double
        /// Settling ends sooner once the fingers down have moved this far (mm): a drag under way.
        var settleDistance: Double
        /// `settleDistance` on a touchpad (`configure(for:)` picks one of the two).
        var touchpadSettleDistance: Double
        var touchscreenSettleDistance: Double
        /// A tap's `max-interval` (ms): on a touchpad, how long its success waits for a later touch
        /// that may make it a tap-and-drag (`holdsTouchDown`).
        var tapInterval: Double
        /// When the recognizer's current sequence began (its first touch bound).
        var sequenceStart = Timestamp.zero
        /// A success held while the finger count settles: released at this time.
        var settleUntil: Timestamp?
        /// Since when a recognizer that cannot decide holds this one's success (past settling):
        /// bounded by `holdLimit` (EngineLane+Holds.swift).
        var heldSince: Timestamp?
        var requires: [Int] = []
        var requiredBy: [Int] = []
        /// Recognizers this one waits for in this sequence because a keeping region holds its touches
        /// (EngineLane+Keeping.swift): like `requires`, set when its touches are bound.
        var keptWaits: [Int] = []
        var state: GestureState = .possible
        /// A recognize / begin waiting for required recognizers to fail.
        var pending: Proposal?
        /// When `pending` was set, in the lane's count of held successes: held successes released
        /// together are decided in the order they were proposed (taps needing more taps first, then
        /// delivery order, nearest region first), not in the configuration's order.
        var pendingOrder = 0
        /// A continuous recognizer whose touches ended while its began was pending.
        var pendingEnded = false
        var touches: [TouchID] = []
        var active = 0
        var device: Int?
        var deviceName = InternedString.empty
        /// A swipe's style as configured (resolved per device kind by `configure(for:)`).
        var swipeStyle = SwipeStyle.automatic
        /// `RecognizerSpec.touchTypes` and `buttons`: which touches `bindRecognizers` binds to it.
        var touchTypes = TouchTypes.finger
        var buttons: StylusButtons = []
        /// A pinch / rotation not considered while more fingers are down (`isCrowded`), said once.
        var crowdNoted = false
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
        /// Where the touch was and its tap count at its latest frame (not the whole touch: a record is
        /// updated for every touch of every frame).
        var lastLocation: Point
        var tapCount: Int
        var beganLocation: Point
        /// Where settling measures this touch's motion from (`settleMotion`) when not from
        /// `beganLocation`: on a touchpad, where it was when the gesture was decided again.
        var settleOrigin: Point? = nil
        /// When the touch landed.
        var beganTime: Timestamp
        /// The latest frame in which it moved (touchpads: whether a finger was moving when another
        /// landed, `fingerJoinedMotion`); `Timestamp.never` until it moves.
        var movedTime = Timestamp.never
        var beganDelivered = false
        var beganHeld = false
        var endedHeld = false
        var closed = false
        var terminal = false
        /// A pen's or eraser's values at its latest frame (nil for a finger): its touch lines carry them.
        var pen: PenValues? = nil
    }

    /// Changed at run time by EngineLane+Reconfiguration.swift (regions attached by clients).
    var tree: RegionTree
    var layouts: [RegionTree.Layout] = []
    var slots: [Slot] = []
    var logics = RecognizerBank()
    var simultaneous: [Bool] = []
    var records: [TouchRecord] = []
    var frameTouches: [[Touch]] = []
    var marks: [UInt32] = []
    var epoch: UInt32 = 0
    var involved: [Int] = []
    /// The record of each touch of the frame that recognizers see (`hygiene.touches`), in order.
    var seenRecords = ScratchList<Int>()
    /// `resolvePending`'s list of held successes (kept to reuse its storage).
    var heldScratch: [Int] = []
    /// Some recognizer may hold touches that have all lifted (`finishStep` has work): set when a
    /// touch leaves a recognizer, kept while such a recognizer waits (a timer, a required recognizer).
    var liftedSlots = false
    var proposals = ScratchList<(Int, Proposal)>()
    var successes: [(Int, Proposal, Int)] = []
    var now = Timestamp.zero
    var surfaceSize = Point.zero
    var unitsPerMM = Point(x: 1, y: 1)
    var cachedDeadline: Timestamp?
    var pendingCount = 0
    /// How many successes this lane has held (`Slot.pendingOrder`).
    var heldSuccesses = 0
    /// Transitions the state machine refused (a bug if ever non-zero; tests assert it stays 0).
    var illegalTransitions = 0
    /// Held successes given up at the end of a sequence because what they waited for waited too (a
    /// cycle of waits; an invariant of the engine holds it at zero).
    var waitCycles = 0
    /// The longest a success was held by a recognizer that cannot decide (ms; EngineLane+Holds.swift).
    var longestHold = 0.0
    /// The most such a hold may last on this lane's device kind, ms (`configure(for:)`).
    var holdLimit = EngineLane.holdLimit(for: .touchscreen)
    /// Holds are bounded (false only to measure how long they lasted unbounded: HoldLengthTests).
    var boundsHolds = true
    /// The window or output region the first finger of the sequence hit (-1: none), its id, and when it
    /// landed: fingers that land within the settle time join it (`joinFirstFinger`).
    var firstFinger = -1
    var firstFingerID = ""
    var firstFingerTime = Timestamp.zero
    /// The kind of the lane's device (`configure(for:)`): touchpads decide the gesture again whenever
    /// the finger count rises, and their swipes are continuous by default.
    var deviceKind = DeviceKind.touchscreen
    /// Fingers the recognizers saw down after the last frame (resting contacts left out).
    var fingerCount = 0
    /// The finger count the touchpad's gesture was last decided for, and since when a higher count has
    /// lasted while a gesture is under way (EngineLane+Touchpad.swift).
    var decidedFingers = 0
    /// Touchpads: a finger landed beside one already moving and not every finger has moved since
    /// (`joinedMotion`): pinches and rotations measure from the frame where they all have.
    var measuresFromJoin = false
    var riseSince: Timestamp?
    /// Since when three or more fingers wait for one in a clickpad's button area, and the decision
    /// about them all meanwhile (EngineLane+PairDecision.swift).
    var buttonWaitSince: Timestamp?
    var withButtonAreaFingers = TouchpadPairClassifier()
    /// When `decidedFingers` last changed (or the gesture was decided again): libinput's hold counts from there.
    var decidedAt = Timestamp.zero
    /// libinput's decision about a touchpad's fingers (EngineLane+PairDecision.swift).
    var pairDecision = TouchpadPairClassifier()
    /// What the desktop gets of this lane's touches, when its device is forwarded (EngineLane+Forwarding.swift).
    var forwarding = LaneForwarding()
    /// The desktop (GestureEngine+Desktop.swift): the output region a touchscreen's touches may hit
    /// (-1: none), and the window region a touchpad's touches go to when they hit only the root.
    var boundOutput = -1
    var touchpadWindow = -1
    /// The stream of the pen's open hover (EngineLane+Pens.swift).
    var hoverStream: HoverStream?

    init(configuration: EngineConfiguration) {
        var tree = RegionTree(root: configuration.root)
        var regionOf: [Int?] = []
        var ids: [String: Int] = [:]
        for (i, spec) in configuration.recognizers.enumerated() {
            let region = spec.enabled ? tree.indexByID[spec.region] : nil
            regionOf.append(region)
            if ids[spec.id] == nil { ids[spec.id] = i }
            slots.append(Self.makeSlot(spec, region: region))
            logics.append(spec.kind, spec.parameters)
        }
        let n = slots.count
        simultaneous = .init(repeating: false, count: n * n)
        Self.relate(configuration.recognizers, from: 0, ids: ids, slots: &slots, simultaneous: &simultaneous)
        let singleTaps = slots.map(\.isSingleTap)
        let names = slots.map(\.id)
        tree.attach(recognizerRegions: regionOf, isSingleTap: { singleTaps[$0] }, name: { names[$0] })
        self.tree = tree
        frameTouches = .init(repeating: [], count: n)
        marks = .init(repeating: 0, count: n)
    }

    // MARK: - Lane API

    /// Processes one frame of this lane's device.
    @inline(__always)
    mutating func process(_ frame: TouchFrame, into out: inout [EngineOutput]) {
        fireDeadlines(upTo: frame.time, &out)
        now = frame.time
        surfaceSize = frame.surfaceSize
        unitsPerMM = frame.unitsPerMM
        hygiene.process(frame)
        if !hygiene.newlyResting.isEmpty || !hygiene.notes.isEmpty { applyHygiene(&out) }
        var layout = -1
        // `hygiene.touches` is the frame's touches in order, resting ones left out, as recognizers see them.
        seenRecords.removeAll()
        let countChanged = hygiene.countChanged
        // The fields read in place: a whole `Touch` copied out is a `memcpy` call.
        for k in frame.touches.indices {
            let id = frame.touches[k].id, phase = frame.touches[k].phase
            var ri = recordIndex(id)
            if ri < 0 {
                if phase.isTerminal { continue }
                if layout < 0 { layout = layoutIndex(for: frame.surfaceSize) }
                ri = newRecord(frame.touches[k], frame: frame, layout: layout)
                if forwarding.enabled { registerForwarded(ri, device: frame.device) }
            }
            // The sensor's re-fit in a frame where a contact lands or lifts is not motion. (Comparing the
            // touch's locations here copied the whole touch out: `moved` is a changed position.)
            if phase == .moved && !countChanged { records[ri].movedTime = frame.time }
            records[ri].lastLocation = frame.touches[k].location
            records[ri].tapCount = frame.touches[k].tapCount
            if frame.touches[k].type != .finger { records[ri].pen = PenValues(frame.touches[k]) }
            if phase.isTerminal { records[ri].terminal = true }
            let seen = seenRecords.count
            guard seen < hygiene.touches.count, hygiene.touches[seen].id == id else { continue }
            if !hygiene.newlyFingers.isEmpty && hygiene.newlyFingers.contains(id) {
                bindReleasedPalm(ri, hygiene.touches[seen], frame: frame)
            }
            seenRecords.append(ri)
            if phase.isTerminal {
                for r in records[ri].recognizers { slots[r].active -= 1 }
                liftedSlots = true
            }
        }
        if deviceKind == .touchpad {
            decideAgainIfFingersRose(&out)
            updatePairDecision(frame)
            if hygiene.leavesOutButtonArea || buttonWaitSince != nil { endButtonWaitIfLong(&out) }
            if measuresFromJoin { endJoinWhenAllMoving(&out) }
        }
        // Each recognizer gets the seen touches bound to it, in frame order. Usually every seen touch is
        // bound to the same recognizers (one region): then they all get the same touches, shared.
        let shared = seenTouchesShareRecognizers()
        if !shared { collectFrameTouches() }
        let involved = shared ? (seenRecords.isEmpty ? [] : records[seenRecords[0]].recognizers) : self.involved
        let seen = seenRecords.count
        let sharedTouches = seen == hygiene.touches.count ? hygiene.touches : Array(hygiene.touches[..<seen])
        if !receivedExplains.isEmpty {
            out += receivedExplains
            receivedExplains.clearKeepingCapacity()
        }
        proposals.removeAll()
        for r in involved {
            let state = slots[r].state
            if state.isFinal { continue }
            let touches = shared ? sharedTouches : frameTouches[r]
            var cancelled = false
            for k in touches.indices where touches[k].phase == .cancelled { cancelled = true }
            if cancelled {
                proposals.append((r, state == .possible ? .fail(.touchCancelled) : .cancel(.touchCancelled)))
                continue
            }
            var input = RecognizerInput(time: now, touches: touches, surfaceSize: surfaceSize,
                                        unitsPerMM: unitsPerMM)
            input.clicked = hygiene.clicked
            input.verdict = pairVerdict(r)
            if state == .possible && slots[r].kind == .pinch { input.libinputDeciding = pairStillDeciding(r) }
            if measuresFromJoin && state == .possible && (slots[r].kind == .pinch || slots[r].kind == .rotation) {
                input.restartsMeasure = true
            }
            // Only a recognizer still deciding (possible, its begin perhaps held) reads `contested`.
            if state == .possible && slots[r].touches.count >= 2 && (slots[r].kind == .pan || slots[r].kind == .pinch) {
                input.contested = isContested(r) && !(slots[r].kind == .pan && pairScrollsByLead(r))
                input.desktopScrolls = forwarding.enabled && slots[r].claimsForwarded
            }
            if slots[r].pending != nil {
                // Waiting with its outcome pending: a continuous recognizer keeps tracking as if began.
                if let until = slots[r].settleUntil, now < until, slots[r].active > mostFingers(r) {
                    // A finger joined while the count was settling: this recognizer cannot be the gesture.
                    proposals.append((r, .fail(.fingerJoined(now.milliseconds(since: slots[r].sequenceStart)))))
                    continue
                }
                if slots[r].discrete { continue }
                let p = logics.handle(r, input, state: .began)
                drainTrace(r, &out)
                switch p {
                case .end: slots[r].pendingEnded = true
                case .fail(let reason), .cancel(let reason), .bug(let reason): proposals.append((r, .fail(reason)))
                default: break
                }
                continue
            }
            if state == .possible && slots[r].active >= 3 && (slots[r].kind == .pinch || slots[r].kind == .rotation),
               let other = crowdingRival(r) {
                // Three or more fingers down and a gesture of that many fingers still possible: no pair
                // of them begins a pinch or a rotation (a swipe is not a twist); they keep measuring.
                input.crowded = true
                if !slots[r].crowdNoted {
                    slots[r].crowdNoted = true
                    note(r, .crowded(slots[r].kind, slots[r].active, other), &out)
                }
            }
            if leavesOutButtonArea() && state == .possible && restsInButtonArea(r) { input.crowded = true }
            // A touchpad's new finger count waits out `riseDebounce`: no gesture of it begins meanwhile.
            if riseSince != nil && state == .possible && Self.decidesAgain(slots[r].kind) { input.crowded = true }
            if slots[r].kind == .rotation && frame.device.isSemiMultitouch && state == .possible {
                proposals.append((r, .fail(.semiMultitouchAngle)))
                continue
            }
            let p = logics.handle(r, input, state: state)
            drainTrace(r, &out)
            if !p.isNone { proposals.append((r, p)) }
        }
        apply(&out)
        deliverStreams(frame, &out)
        if let hover = frame.hover { publishHover(hover, frame: frame, &out) }
        finishStep(&out)
    }

    /// Whether every touch seen in this frame is bound to the same recognizers (in the same order).
    @inline(__always)
    func seenTouchesShareRecognizers() -> Bool {
        guard seenRecords.count > 1 else { return true }
        let first = records[seenRecords[0]].recognizers
        for k in 1..<seenRecords.count where records[seenRecords[k]].recognizers != first { return false }
        return true
    }

    /// `involved` (recognizers in the order their first touch was seen) and each one's `frameTouches`,
    /// for a frame whose touches are bound to different recognizers.
    mutating func collectFrameTouches() {
        epoch &+= 1
        involved.clearKeepingCapacity()
        for k in seenRecords.indices {
            for r in records[seenRecords[k]].recognizers {
                if marks[r] != epoch {
                    marks[r] = epoch
                    involved.append(r)
                    frameTouches[r].clearKeepingCapacity()
                }
                frameTouches[r].append(hygiene.touches[k])
            }
        }
    }

    /// Emits the recognizer's state-machine steps as explain lines when tracing.
    @inline(__always)
    mutating func drainTrace(_ r: Int, _ out: inout [EngineOutput]) {
        guard tracesMachines, !logics[trace: r].steps.isEmpty else { return }
        for step in logics[trace: r].steps {
            out.append(.explain(ExplainEvent(gesture: slots[r].id, region: slots[r].regionID, from: slots[r].state,
                                             to: slots[r].state, time: now, reason: "machine: \(step)")))
        }
        logics[trace: r].steps.clearKeepingCapacity()
    }

    /// Fires the earliest deadline if it is at or before `time`; false when there is none.
    mutating func fireOne(upTo time: Timestamp, _ out: inout [EngineOutput]) -> Bool {
        guard let deadline = cachedDeadline, deadline <= time else { return false }
        var due = -1
        var settled = -1
        for r in slots.indices where slots[r].state == .possible && !slots[r].touches.isEmpty {
            if slots[r].pending == nil {
                if let d = logics.deadline(r), d <= deadline {
                    due = r
                    break
                }
            } else if let until = slots[r].settleUntil ?? holdDeadline(r), until <= deadline, settled < 0 {
                settled = r
            }
        }
        guard due >= 0 || settled >= 0 else {
            if forwarding.enabled, let d = forwardHoldDeadline(), d <= deadline {
                // A forwarded touch held back too long: its holder gives way, the step releases it.
                if deadline > now { now = deadline }
                proposals.removeAll()
                _ = boundForwardHolds(&out)
                finishStep(&out)
                return true
            }
            recomputeDeadline()
            return cachedDeadline != deadline
        }
        if deadline > now { now = deadline }
        proposals.removeAll()
        if due >= 0 {
            let p = logics.fire(due, at: deadline, state: .possible)
            drainTrace(due, &out)
            if !p.isNone { proposals.append((due, p)) }
        } else {
            // The finger count has settled: every success held until now goes on to its
            // require-to-fail check, together, so `resolvePending` decides them in proposal order.
            for r in slots.indices where slots[r].pending != nil {
                if let until = slots[r].settleUntil, until <= deadline { slots[r].settleUntil = nil }
            }
        }
        apply(&out)
        finishStep(&out)
        return true
    }

    /// The earliest time at which `fireOne` would do something, or nil.
    var nextDeadline: Timestamp? { cachedDeadline }

    func hitChain(_ point: Point, surfaceSize: Point, deviceKind: DeviceKind, output: Int = -1) -> [String] {
        let layout = layouts.first(where: { $0.size == surfaceSize }) ?? tree.layout(for: surfaceSize)
        guard let hit = tree.hitRegion(point, layout: layout, deviceKind: deviceKind, output: output,
                                       touchpadWindow: touchpadWindow) else { return [] }
        return tree.chain(from: hit).map { tree.nodes[$0].id }
    }

    /// Every recognizer's current state, in configuration order (for tests and status).
    var recognizerStates: [GestureState] { slots.map(\.state) }

}
