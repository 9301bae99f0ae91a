/// Touchpads are not touchscreens (docs/recognizers.md, "Touchpads"): one finger moving is the
/// pointer, and the gesture is decided again whenever the number of fingers down rises (libinput's
/// model). Also here: the rule shared by both kinds that a pair of three or more fingers never begins a
/// pinch or a rotation while a gesture for all of them is still possible, and settling ended by motion.
///
/// | lane event (touchpad)          | recognizer (pan, swipe, pinch, rotation) state | becomes / why            |
/// |--------------------------------|-----------------------------------------------|--------------------------|
/// | fingers n → m > n (n > 0), m lasting 100 ms | began / changed                  | cancelled, then possible: "fingers n → m on a touchpad: deciding again" |
/// | fingers n → m > n (n > 0), m lasting 100 ms, while libinput holds (`libinputHolds`) | possible | possible, as below, from that frame; meanwhile it does not begin (`crowded`) |
/// | fingers n → m > n (n > 0)      | failed / recognized / ended / cancelled       | possible (same reason)   |
/// | fingers n → m > n (n > 0)      | possible                                      | possible, its logic and any held success started again |
/// | fingers n → m < n              | any                                           | unchanged: a gesture's fingers lift one by one at its end |
///
/// Taps, long presses and edge pans keep their sequence: they count their own fingers as they land
/// and lift (a three-finger tap's fingers land one by one). A tap that succeeds with one later touch
/// down waits for it (tap-and-drag, `holdsTouchDown`); with two or more it lets go of them, so the
/// tap and the scroll or swipe they make are both reported (`releaseFingersAfterTap`). When the
/// gesture is decided again, settling measures the fingers' motion from there (`settleMotion`).
extension EngineLane {
    /// The most fingers `r`'s gesture may have while it settles: its finger range's top, except that a
    /// touchpad's pinch and rotation judge every finger down (libinput's pinches of two, three and four
    /// fingers), so a third or fourth finger landing is part of them, not another gesture.
    func mostFingers(_ r: Int) -> Int {
        let kind = slots[r].kind
        if deviceKind == .touchpad && (kind == .pinch || kind == .rotation) { return Int.max }
        return slots[r].fingerRange.upperBound
    }

    /// Tap-and-drag (libinput's `touchpad_tap_n_drag`): a touchpad's single tap whose success would
    /// come while a later touch of its sequence is down (a finger landed within the tap interval)
    /// waits for that touch, for at most the tap interval after it landed: if it moves, its pan begins
    /// and excludes the tap (the tap and the motion are one drag, a one-finger pan from the second
    /// touch); if it lifts or stays still that long, the tap recognizes. A tap's own touches have
    /// lifted when it succeeds, so any touch it holds still down is later. Two or more later touches
    /// down are no drag but a gesture of their own: the tap does not wait for them
    /// (`releaseFingersAfterTap`).
    func holdsTouchDown(_ r: Int) -> Bool {
        var recent = false
        var down = 0
        for id in slots[r].touches {
            let ri = recordIndex(id)
            guard ri >= 0, !records[ri].terminal else { continue }
            down += 1
            if now.milliseconds(since: records[ri].beganTime) < slots[r].tapInterval { recent = true }
        }
        return recent && down < 2
    }

    /// A tap before a gesture of more fingers (libinput's `touchpad_tap_n_drag_2fg_scroll` and
    /// `touchpad_tap_n_drag_3fg_swipe`: a tap, then two or three fingers down at once that scroll or
    /// swipe, is a tap followed by the scroll or the swipe). A touchpad tap that succeeds while two or
    /// more later touches of its sequence are down lets go of them before it recognizes, so its
    /// success excludes nothing of theirs: the tap is reported and those fingers are the next
    /// gesture's, however near the tap they landed ("a tap before 2 fingers landed: …"). One later
    /// touch stays the tap's: a tap, then one finger, is a drag or a press (`holdsTouchDown`).
    /// Touchscreens keep UIKit's rule: a touch joining within the tap's window is part of its sequence.
    mutating func releaseFingersAfterTap(_ r: Int, _ out: inout [EngineOutput]) {
        var later = 0
        for id in slots[r].touches {
            let ri = recordIndex(id)
            if ri >= 0 && !records[ri].terminal { later += 1 }
        }
        guard later >= 2 else { return }
        var k = slots[r].touches.count - 1
        while k >= 0 {
            let ri = recordIndex(slots[r].touches[k])
            if ri >= 0 && !records[ri].terminal {
                slots[r].touches.remove(at: k)
                slots[r].active -= 1
                records[ri].recognizers.removeAll { $0 == r }
            }
            k -= 1
        }
        liftedSlots = true
        note(r, .tapBeforeFingers(later), &out)
    }

    /// Whether a recognizer of this kind decides again when the finger count rises on a touchpad.
    @inline(__always)
    static func decidesAgain(_ kind: RecognizerKind) -> Bool {
        kind == .pan || kind == .swipe || kind == .pinch || kind == .rotation
    }

    /// Counts the fingers recognizers see down after this frame; when the count rose (and was not
    /// zero: a first finger starts a sequence anyway), the gesture is decided again. A finger resting
    /// in a clickpad's button area is not counted until it leaves (`leavesOutButtonArea`).
    @inline(__always)
    mutating func decideAgainIfFingersRose(_ out: inout [EngineOutput]) {
        var n = 0
        let leavesOut = leavesOutButtonArea()
        for k in 0..<seenRecords.count where !hygiene.touches[k].phase.isTerminal {
            if leavesOut && hygiene.inButtonArea(hygiene.touches[k].id) { continue }
            n += 1
        }
        let before = fingerCount
        fingerCount = n
        if n == before && riseSince == nil { return }
        decideAgainOnRise(from: before, to: n, &out)
    }

    /// How long a rise in the finger count must last before it ends a gesture under way (ms): a contact
    /// that brushes the pad for a moment during a pinch does not restart it (libinput's finger-count
    /// switch timeout).
    static let riseDebounce = 100.0

    /// The count changed, or a rise is waiting out `riseDebounce`. With no continuous gesture under way the gesture is decided again at once; with one under way, once the higher count has
    /// lasted `riseDebounce` ms (judged at the device's frames: a pad whose fingers are all still sends
    /// none, and nothing moves meanwhile).
    mutating func decideAgainOnRise(from before: Int, to n: Int, _ out: inout [EngineOutput]) {
        if n <= decidedFingers {
            riseSince = nil
            if n != decidedFingers { decidedAt = now }
            decidedFingers = n
            return
        }
        if riseSince == nil && !gestureUnderWay() && !libinputHolds() && !libinputStarted() {
            riseSince = nil
            let from = decidedFingers
            decidedFingers = n
            decidedAt = now
            // A finger leaving a clickpad's button area is a new gesture's even as the first counted:
            // libinput takes the fingers' origins there.
            if from > 0 || hygiene.leftButtonArea { decideAgain(from: from, to: n, &out) }
            return
        }
        guard let since = riseSince else {
            riseSince = now
            return
        }
        guard now.milliseconds(since: since) >= Self.riseDebounce else { return }
        riseSince = nil
        let from = decidedFingers
        decidedFingers = n
        decidedAt = now
        // The new fingers have been down since the count rose: settling counts from then.
        decideAgain(from: from, to: n, since: since, &out)
    }

    /// Whether libinput holds the pad's fingers (its hold gesture, which a finger landing does not end
    /// at once): they have rested undecided `holdTimeout` ms since they were counted. One finger holds
    /// until it moves as the pointer (`TouchpadPairClassifier.pointerMove`: libinput ignores motion
    /// while a tap is possible); two or more until libinput decides their gesture. A finger that
    /// lands then counts only after `riseDebounce` ms (libinput's finger-count switch), and the
    /// gesture is decided from there: a second finger pressing down slowly after the first rested
    /// (a light contact, not yet a finger: `DeviceQuirks.pressureRange`) begins its pinch where
    /// libinput's begins.
    func libinputHolds() -> Bool {
        guard decidedFingers >= 1, pairDecision.fingers == decidedFingers, pairDecision.verdict == .undecided else {
            return false
        }
        return now.milliseconds(since: decidedAt) >= Self.holdTimeout(fingers: decidedFingers)
    }

    /// Whether libinput's gesture of the counted fingers (two or more) has begun although none of the
    /// lane's has: libinput decided them (`TouchpadPairClassifier`), so a rise in the count waits out
    /// its finger-count switch too. (A pair scrolling beside a finger resting on a clickpad's buttons:
    /// the lane's pan is bound to all three fingers and does not begin.)
    func libinputStarted() -> Bool {
        decidedFingers >= 2 && pairDecision.fingers == decidedFingers && pairDecision.verdict != .undecided
    }

    /// How long undecided fingers rest before libinput's hold begins, ms: 40 for one or two fingers
    /// (its quick hold), 180 for more.
    static func holdTimeout(fingers n: Int) -> Double { n <= 2 ? 40 : 180 }

    /// A continuous gesture of this lane (an edge pan or a long press included) has begun and not ended.
    func gestureUnderWay() -> Bool {
        for r in slots.indices where slots[r].state.isInProgress { return true }
        return false
    }

    /// Every pan, swipe, pinch and rotation holding the lane's fingers starts again from this frame:
    /// one under way is cancelled, a final one is possible again, a possible one forgets what it had
    /// measured (and a success it held). Their touches stay bound; the hygiene has already rebased the
    /// fingers' origins in a frame where the count changes.
    mutating func decideAgain(from before: Int, to n: Int, since: Timestamp? = nil, _ out: inout [EngineOutput]) {
        let reason = Reason.fingersChanged(before, n)
        // libinput takes the fingers' origins afresh when it decides again.
        pairDecision.reset()
        withButtonAreaFingers.reset()
        // Settling measures the fingers' motion from here: a pointer finger that travelled before
        // the others landed has not settled the new gesture (a staggered scroll is no twist).
        for ri in records.indices where !records[ri].terminal { records[ri].settleOrigin = records[ri].lastLocation }
        measuresFromJoin = n >= 2 && fingerJoinedMotion()
        for r in slots.indices where slots[r].active > 0 && Self.decidesAgain(slots[r].kind) {
            switch slots[r].state {
            case .began, .changed:
                transition(r, .cancel, reason, &out)
                transition(r, .reset, reason, &out)
            case .failed, .recognized, .ended, .cancelled:
                transition(r, .reset, reason, &out)
            case .possible:
                if slots[r].pending != nil {
                    slots[r].pending = nil
                    pendingCount -= 1
                }
                note(r, reason, &out)
            }
            slots[r].settleUntil = nil
            slots[r].pendingEnded = false
            slots[r].crowdNoted = false
            slots[r].sequenceStart = since ?? now
            logics.reset(r)
            if measuresFromJoin && (slots[r].kind == .pinch || slots[r].kind == .rotation) { note(r, .joinedMotion, &out) }
        }
    }

    /// Whether a finger already down was moving when the count rose: it has travelled
    /// `joinedMotionTravel` mm since it landed and moved within `joinedMotionWindow` ms. The finger
    /// that lands beside it joins a motion under way (a staggered scroll: the first finger is the
    /// pointer, the second rests a moment before it moves too), and while the new finger rests, the
    /// first one's lead turns and stretches the pair as a twist or a zoom would; a pinch's or a
    /// rotation's fingers start together. Pinches and rotations then measure only once every finger
    /// has moved (`endJoinWhenAllMoving`).
    func fingerJoinedMotion() -> Bool {
        for ri in records.indices where !records[ri].terminal {
            guard now.milliseconds(since: records[ri].movedTime) <= Self.joinedMotionWindow else { continue }
            if millimetres(records[ri].lastLocation - records[ri].beganLocation) >= Self.joinedMotionTravel { return true }
        }
        return false
    }

    /// How far a finger must have travelled since it landed (mm), and how recently it must have moved
    /// (ms), to be a motion under way when another finger lands (`fingerJoinedMotion`): the pointer
    /// moving, not a resting finger's jitter or a pointer stopped a while ago.
    static let joinedMotionTravel = 2.0
    static let joinedMotionWindow = 50.0

    /// Ends `measuresFromJoin` once every finger down has moved `settleEveryFingerMM` since the
    /// count rose (or fewer than two are down): the pinches and rotations measure from this frame.
    mutating func endJoinWhenAllMoving(_ out: inout [EngineOutput]) {
        var fingers = 0
        var allMoved = true
        for k in seenRecords.indices where !hygiene.touches[k].phase.isTerminal {
            let ri = seenRecords[k]
            fingers += 1
            if millimetres(records[ri].lastLocation - (records[ri].settleOrigin ?? records[ri].beganLocation))
                < Self.settleEveryFingerMM { allMoved = false }
        }
        if fingers >= 2 && !allMoved { return }
        measuresFromJoin = false
        guard fingers >= 2 else { return }
        for r in slots.indices where slots[r].state == .possible && slots[r].active >= 2
            && (slots[r].kind == .pinch || slots[r].kind == .rotation) {
            note(r, .allFingersMoving, &out)
        }
    }

    /// A pinch or rotation `r` with three or more fingers down: the recognizer (not a pinch or
    /// rotation) still possible on its fingers whose gesture has that many fingers and that it would
    /// exclude, or nil. While there is one, `r` is not considered.
    func crowdingRival(_ r: Int) -> Int? {
        let n = slots[r].active
        for o in slots.indices where o != r && slots[o].state == .possible && !slots[o].touches.isEmpty {
            let kind = slots[o].kind
            guard kind != .pinch && kind != .rotation, slots[o].fingerRange.contains(n), shareTouches(r, o),
                  canPrevent(o, r), !pinchDecided(r, past: o) else { continue }
            return o
        }
        return nil
    }

    /// An explain line about `r` that is not a transition (its state stays), when explaining.
    mutating func note(_ r: Int, _ reason: Reason, _ out: inout [EngineOutput]) {
        guard explains else { return }
        out.append(.explain(ExplainEvent(gesture: slots[r].id, region: slots[r].regionID, from: slots[r].state,
                                         to: slots[r].state, time: now,
                                         reason: reason.text(name: { [slots] in slots[$0].id }))))
    }

    /// Settling ends once `r`'s fingers have moved `settleDistance` mm from where they landed (on a
    /// touchpad, from where they were when the gesture was last decided again): a drag under way is
    /// the gesture, whichever finger joins later. The farthest any of them moved, mm.
    /// On both kinds: a quick two-finger flick on a touchpad is over in about 100 ms, so waiting out the
    /// settle time would decide it at the lift with the wrong fingers; a finger that joins later makes a
    /// touchpad's gesture be decided again anyway. What the motion is (scroll, pinch) is the
    /// recognizers' to decide, from the motion since the fingers formed.
    /// On a touchpad the fingers' motion counts once every one of them has moved
    /// `settleEveryFingerMM`: a finger still at rest beside a moving one may be about to move with it
    /// (a staggered scroll's second finger starts up to ~100 ms after it landed), and the lead the
    /// moving one takes meanwhile is no twist. (Waiting until every finger moved the whole distance
    /// instead delayed real scrolls and pinches by 30-80 ms: the hp8470p, libinput's
    /// `touchpad_2fg_scroll_from_btnareas`.)
    func settleMotion(_ r: Int) -> Double {
        var farthest = 0.0
        var least = Double.infinity
        for id in slots[r].touches {
            let ri = recordIndex(id)
            guard ri >= 0, !records[ri].terminal else { continue }
            let mm = millimetres(records[ri].lastLocation - (records[ri].settleOrigin ?? records[ri].beganLocation))
            farthest = max(farthest, mm)
            least = min(least, mm)
        }
        if deviceKind == .touchpad && least < Self.settleEveryFingerMM { return 0 }
        return farthest
    }

    /// The length of a motion in surface units, mm (surface units when the lane has no scale).
    func millimetres(_ d: Point) -> Double {
        Point(x: unitsPerMM.x > 0 ? d.x / unitsPerMM.x : d.x, y: unitsPerMM.y > 0 ? d.y / unitsPerMM.y : d.y).length
    }

    /// How far every finger of a touchpad gesture must have moved before their motion ends settling
    /// (`settleMotion`), mm: above a resting finger's jitter.
    static let settleEveryFingerMM = 1.0
}
