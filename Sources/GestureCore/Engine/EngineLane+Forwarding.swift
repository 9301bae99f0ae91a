/// Forwarding: what the desktop gets of each touch of a forwarded device (docs/forwarding.md).
/// The lane decides per touch and publishes `EngineOutput.forwarding` verdicts; the raw side
/// (`ForwardingEncoder`) turns them into the clone's events. Lanes of devices that are not
/// forwarded never come here (`LaneForwarding.enabled` is false; each hook is one test).
///
/// Per touch (`ForwardedTouch.State` × event → emits / next state):
///
/// | state     | event                                                          | emits / next        |
/// |-----------|----------------------------------------------------------------|---------------------|
/// | new       | a claiming recognizer begins / is recognized with it (1st frame)| withdraw / withdrawn|
/// | new       | end of its first frame, a holding recognizer possible with it  | hold / held         |
/// | new       | end of its first frame, otherwise                              | — / passing         |
/// | held      | a claiming recognizer begins / is recognized with it           | withdraw / withdrawn|
/// | held      | end of a step, no holding recognizer possible with it          | release / passing   |
/// | passing   | a claiming recognizer begins / is recognized with it, not lifted| withdraw / withdrawn|
/// | passing, withdrawn | lifted                                                | — / forgotten       |
/// | held      | lifted                                                         | — / held (kept until released or withdrawn) |
/// | passing   | end of a step: a touch was held this step by a claiming recognizer's finger count (`.touchpadFingerCount(n)`) that has this touch too | pause / paused |
/// | paused    | a claiming recognizer begins / is recognized with it, not lifted| withdraw / withdrawn|
/// | paused    | end of a step, the touch that paused it is no longer held      | resume / passing    |
/// | paused    | end of a step, another touch held by finger count this step    | — / paused (by that touch) |
/// | paused    | lifted                                                         | — / forgotten (the lift reaches the clone) |
///
/// A recognizer holds a touch (`ForwardingHold`) while it is possible and has the touch: `.always`,
/// or on a touchpad `.touchpadFingerCount(n)` for a touch whose first frame left `n` fingers down.
/// When that finger-count hold is a claiming recognizer's, the touches already on the clone pause
/// (stay down, stop moving) until the held finger is released (they move again, from where they
/// stopped) or the recognizer takes them (they are lifted).
struct LaneForwarding: Sendable {
    /// The lane's device is forwarded (set from the pipeline when the device is added with forwarding).
    var enabled = false
    var isTouchpad = false
    var device = 0
    var deviceName = InternedString.empty
    var touches: [ForwardedTouch] = []
}

struct ForwardedTouch: Sendable {
    enum State: Sendable, Equatable { case new, held, passing, paused, withdrawn }
    var id: TouchID
    /// The recognizers it was delivered to (its record's list at touch-down).
    var recognizers: [Int]
    var state: State = .new
    /// Fingers down at the end of its first frame.
    var landingCount = 0
    /// The recognizer named in its hold (or pause) verdict.
    var heldBy = -1
    /// Paused: the held touch whose finger count paused it.
    var pausedFor = TouchID(rawValue: 0)
    /// When it was held (its first verdict): the start of its hold (EngineLane+Holds.swift).
    var heldAt = Timestamp.zero
    /// Touchpads: when, held, its holder's fingers had first moved far enough to end its settling
    /// (libinput's decision about them: a desktop scroll or swipe would be under way): the start of
    /// its hold (EngineLane+Holds.swift).
    var movingSince: Timestamp?
    /// Held in this step's first verdict (it may pause the others: `pauseOrResume`).
    var landedNow = false
    var lifted = false
}

extension EngineLane {
    /// At a touch's first frame: remember it, undecided until the end of the step.
    mutating func registerForwarded(_ ri: Int, device: DeviceRef) {
        forwarding.device = device.id
        forwarding.deviceName = device.internedName
        forwarding.isTouchpad = device.kind == .touchpad
        forwarding.touches.append(ForwardedTouch(id: records[ri].id, recognizers: records[ri].recognizers))
    }

    /// In `succeed`: recognizer `r` claims its touches; those still forwarded or held are withdrawn.
    mutating func withdrawForwarded(claimedBy r: Int, _ out: inout [EngineOutput]) {
        var lifted: [TouchID] = [], dropped: [TouchID] = []
        for k in forwarding.touches.indices {
            let t = forwarding.touches[k]
            guard t.state != .withdrawn, !t.lifted, slots[r].touches.contains(t.id) else { continue }
            if t.state == .held { endForwardHold(t) }
            forwarding.touches[k].state = .withdrawn
            let reason = ForwardingReason.claimed(gesture: slots[r].name, state: slots[r].state)
            out.append(.forwarding(TouchForwarding(touch: t.id, device: forwarding.device, deviceName: forwarding.deviceName,
                                                   verdict: .withdraw,
                                                   reason: reason, time: now)))
            // A held touch never reached the clone: nothing is lifted there, it is cancelled.
            if explains { if t.state == .held { dropped.append(t.id) } else { lifted.append(t.id) } }
        }
        let why = "\(slots[r].id) \(slots[r].state.rawValue)"
        if explains && !lifted.isEmpty { explainForwarding(r, "\(Self.touchesText(lifted)) lifted on the clone: \(why)", &out) }
        if explains && !dropped.isEmpty {
            explainForwarding(r, "\(Self.touchesText(dropped)) cancelled, never sent to the desktop: \(why)", &out)
        }
    }

    /// In `finishStep`: new touches get their first verdict, held touches whose holders have all
    /// decided are released, lifted touches that are settled are forgotten.
    mutating func decideForwarded(_ out: inout [EngineOutput]) {
        var down = 0
        for k in forwarding.touches.indices {
            if !forwarding.touches[k].lifted {
                let ri = recordIndex(forwarding.touches[k].id)
                if ri < 0 || records[ri].terminal { forwarding.touches[k].lifted = true } else { down += 1 }
            }
        }
        for k in forwarding.touches.indices {
            switch forwarding.touches[k].state {
            case .new:
                forwarding.touches[k].landingCount = down
                let holder = holder(of: forwarding.touches[k])
                guard holder >= 0 else {
                    forwarding.touches[k].state = .passing
                    continue
                }
                forwarding.touches[k].state = .held
                forwarding.touches[k].heldBy = holder
                forwarding.touches[k].heldAt = now
                forwarding.touches[k].landedNow = true
                let reason: ForwardingReason = if case .touchpadFingerCount(let n) = slots[holder].holdsForwarded {
                    .makesFingerCount(gesture: slots[holder].name, fingers: n)
                } else {
                    .mayTake(gesture: slots[holder].name)
                }
                emit(forwarding.touches[k], .hold, reason, &out)
            case .held:
                let holder = holder(of: forwarding.touches[k])
                if holder >= 0 {
                    if forwarding.isTouchpad { noteHeldMotion(k, holder) }
                    continue
                }
                endForwardHold(forwarding.touches[k])
                forwarding.touches[k].state = .passing
                let r = forwarding.touches[k].heldBy
                // A holder reset to possible ended its sequence undecided: it failed.
                let state = slots[r].state == .possible ? GestureState.failed : slots[r].state
                let reason = ForwardingReason.decided(gesture: slots[r].name, state: state)
                emit(forwarding.touches[k], .release, reason, &out)
            case .passing, .paused, .withdrawn:
                break
            }
        }
        if forwarding.isTouchpad { pauseOrResume(&out) }
        forwarding.touches.removeAll { $0.lifted && $0.state != .held }
    }

    /// Touchpads, at the end of a step: the touches paused for a touch no longer held move again;
    /// a touch held this step by a claiming recognizer's finger count pauses the touches on the
    /// clone that recognizer has.
    private mutating func pauseOrResume(_ out: inout [EngineOutput]) {
        var resumed: [TouchID] = [], resumer = -1
        for k in forwarding.touches.indices where forwarding.touches[k].state == .paused {
            let by = forwarding.touches[k].pausedFor
            if forwarding.touches.contains(where: { $0.id == by && $0.state == .held }) { continue }
            forwarding.touches[k].state = .passing
            let r = forwarding.touches[k].heldBy
            let state = slots[r].state == .possible ? GestureState.failed : slots[r].state
            let f = TouchForwarding(touch: forwarding.touches[k].id, device: forwarding.device,
                                    deviceName: forwarding.deviceName, verdict: .resume,
                                    reason: .decided(gesture: slots[r].name, state: state), time: now)
            out.append(.forwarding(f))
            if explains { resumed.append(f.touch); resumer = r }
        }
        if !resumed.isEmpty {
            let r = resumer
            let state = slots[r].state == .possible ? GestureState.failed : slots[r].state
            explainForwarding(r, "\(Self.touchesText(resumed)) move again on the clone: "
                              + ForwardingReason.decided(gesture: slots[r].name, state: state).text, &out)
        }
        for h in forwarding.touches.indices where forwarding.touches[h].state == .held && forwarding.touches[h].landedNow {
            forwarding.touches[h].landedNow = false
            let r = forwarding.touches[h].heldBy
            guard slots[r].claimsForwarded, case .touchpadFingerCount(let n) = slots[r].holdsForwarded else { continue }
            let by = forwarding.touches[h].id
            var paused: [TouchID] = []
            for k in forwarding.touches.indices where !forwarding.touches[k].lifted
                && (forwarding.touches[k].state == .passing || forwarding.touches[k].state == .paused)
                && slots[r].touches.contains(forwarding.touches[k].id) {
                let was = forwarding.touches[k].state
                forwarding.touches[k].state = .paused
                forwarding.touches[k].pausedFor = by
                forwarding.touches[k].heldBy = r
                guard was == .passing else { continue }
                let reason = ForwardingReason.fingersReached(gesture: slots[r].name, fingers: n, by: by)
                out.append(.forwarding(TouchForwarding(touch: forwarding.touches[k].id, device: forwarding.device,
                                                       deviceName: forwarding.deviceName, verdict: .pause,
                                                       reason: reason, time: now)))
                if explains { paused.append(forwarding.touches[k].id) }
            }
            if !paused.isEmpty {
                let reason = ForwardingReason.fingersReached(gesture: slots[r].name, fingers: n, by: by)
                explainForwarding(r, "\(Self.touchesText(paused)) stopped on the clone (still down): \(reason.text)", &out)
            }
        }
    }

    /// The first recognizer that holds `t` back now, or -1.
    func holder(of t: ForwardedTouch) -> Int {
        for r in t.recognizers where slots[r].state == .possible && slots[r].touches.contains(t.id) {
            switch slots[r].holdsForwarded {
            case .never: continue
            case .always: return r
            case .touchpadFingerCount(let n): if forwarding.isTouchpad && t.landingCount == n { return r }
            }
        }
        return -1
    }

    private mutating func emit(_ t: ForwardedTouch, _ verdict: ForwardingVerdict, _ reason: ForwardingReason,
                               _ out: inout [EngineOutput]) {
        let f = TouchForwarding(touch: t.id, device: forwarding.device, deviceName: forwarding.deviceName,
                                                   verdict: verdict, reason: reason, time: now)
        out.append(.forwarding(f))
        guard explains else { return }
        let what = verdict == .hold ? "held" : "released to the desktop"
        explainForwarding(t.heldBy, "touch \(t.id) \(what): \(f.reasonText)", &out)
    }

    private func explainForwarding(_ r: Int, _ text: String, _ out: inout [EngineOutput]) {
        let gesture = r >= 0 ? slots[r].id : "", region = r >= 0 ? slots[r].regionID : ""
        let state = r >= 0 ? slots[r].state : .possible
        out.append(.explain(ExplainEvent(gesture: gesture, region: region, from: state, to: state, time: now,
                                         reason: text)))
    }

    /// "touch 3", "touches 1–2".
    static func touchesText(_ ids: [TouchID]) -> String {
        ids.count == 1 ? "touch \(ids[0])" : "touches " + touchList(ids)
    }

    /// "1–3", "1, 3, 4": consecutive runs joined by an en dash.
    static func touchList(_ ids: [TouchID]) -> String {
        let sorted = ids.map(\.rawValue).sorted()
        var parts: [String] = []
        var start = sorted[0], end = sorted[0]
        for v in sorted.dropFirst() {
            if v == end + 1 { end = v; continue }
            parts.append(start == end ? "\(start)" : "\(start)–\(end)")
            start = v
            end = v
        }
        parts.append(start == end ? "\(start)" : "\(start)–\(end)")
        return parts.joined(separator: ", ")
    }
}

extension EngineLane {
    /// Whether no verdict can come for this lane's forwarded touches from a frame that only moves or
    /// presses them (no touch lands, lifts or changes its tool): every one passes (none new, held,
    /// paused or withdrawn), and no claiming recognizer that has one of them can still take it in
    /// such a frame (under way, or possible with its fewest fingers down or a success waiting). Then
    /// the only verdicts left (`withdraw` by a claim; `hold`, `release`, `pause`, `resume`, which need
    /// a landing or a lift) cannot come, and `GesturePipeline.feed(_:device:writingAhead:)` writes
    /// such a frame before the engine runs. `tracks` (the device's encoder's) must each be one of
    /// these touches. Mutating only to be called in place: a read through `lanes[i]` copies the
    /// whole lane (some 1,800 instructions).
    mutating func forwardedTouchesSettled(covering tracks: [ForwardingEncoder.Track]) -> Bool {
        // A palm may become a finger on any move (ContactHygiene): while one is down, no read is
        // written ahead.
        guard forwarding.enabled, !hygiene.hasPalm else { return false }
        for track in tracks {
            guard let touch = track.touch, forwarding.touches.contains(where: { $0.id == touch }) else { return false }
        }
        for t in forwarding.touches {
            guard t.state == .passing, !t.lifted else { return false }
            for r in t.recognizers where slots[r].claimsForwarded {
                let state = slots[r].state
                guard state == .possible || state.isInProgress, slots[r].touches.contains(t.id) else { continue }
                // Short of its fewest fingers with no success waiting (a three-finger swipe under a
                // two-finger scroll): only a finger landing lets it take them, and that frame goes
                // the usual way. (Resting contacts never rejoin a gesture: ContactHygiene.)
                if state == .possible && slots[r].pending == nil && slots[r].active < slots[r].fingerRange.lowerBound {
                    continue
                }
                return false
            }
        }
        return true
    }
}
