/// What can happen to a recognizer; the only input of `RecognizerStateMachine.transition`.
enum RecognizerEvent: Sendable, Hashable {
    case recognize, begin, change, end, cancel, fail, reset
}

/// The UIKit gesture-recognizer state machine, enforced in this one place.
///
/// Discrete (tap, swipe):
///
/// | from       | event     | to         |
/// |------------|-----------|------------|
/// | possible   | recognize | recognized |
/// | possible   | fail      | failed     |
/// | recognized | reset     | possible   |
/// | failed     | reset     | possible   |
///
/// Continuous (long-press, pan, pinch, rotation, edge-pan):
///
/// | from          | event  | to        |
/// |---------------|--------|-----------|
/// | possible      | begin  | began     |
/// | possible      | fail   | failed    |
/// | began/changed | change | changed   |
/// | began/changed | end    | ended     |
/// | began/changed | cancel | cancelled |
/// | failed/ended/cancelled | reset | possible |
///
/// Every other pair is illegal and yields nil. Reset happens only when the recognizer's gesture
/// sequence is over (its last finger lifted) and it has reached a final state.
enum RecognizerStateMachine {
    /// Inlined into its one caller, `EngineLane.transition` (a call site less on every frame).
    @inline(__always)
    static func transition(from state: GestureState, on event: RecognizerEvent, discrete: Bool) -> GestureState? {
        switch (state, event) {
        case (.possible, .recognize): return discrete ? .recognized : nil
        case (.possible, .begin): return discrete ? nil : .began
        case (.possible, .fail): return .failed
        case (.began, .change), (.changed, .change): return discrete ? nil : .changed
        case (.began, .end), (.changed, .end): return discrete ? nil : .ended
        case (.began, .cancel), (.changed, .cancel): return discrete ? nil : .cancelled
        case (.failed, .reset): return .possible
        case (.recognized, .reset): return discrete ? .possible : nil
        case (.ended, .reset), (.cancelled, .reset): return discrete ? nil : .possible
        default: return nil
        }
    }

    /// Whether `from → to` is one of the transitions above (used by tests over explain output).
    static func isLegal(from: GestureState, to: GestureState, discrete: Bool) -> Bool {
        for e in [RecognizerEvent.recognize, .begin, .change, .end, .cancel, .fail, .reset]
        where transition(from: from, on: e, discrete: discrete) == to {
            return true
        }
        return false
    }
}

extension GestureState {
    /// Failed, recognized, ended or cancelled: nothing more happens until the sequence ends.
    @inline(__always)
    var isFinal: Bool { self == .failed || self == .recognized || self == .ended || self == .cancelled }
    /// Began or changed.
    @inline(__always)
    var isInProgress: Bool { self == .began || self == .changed }
}

/// Why a transition happened. Kept as data so no string is built unless explaining.
enum Reason: Sendable, Hashable {
    case tapsCompleted(Int)
    case held(Double)
    case moved(Double, Double)
    /// A touchpad gesture begun on libinput's decision about its fingers (`TouchpadPairClassifier`),
    /// before its own threshold: the verdict, the fingers, how far they moved (or the span changed), mm.
    case decidedLikeLibinput(TouchpadVerdict, Int, Double)
    case spanChanged(Double, Double)
    case turned(Double, Double)
    case swiped(SwipeDirection, Double)
    case movedTooFar(Double, Double)
    case heldTooLong(Double, Double)
    case liftedEarly(Double, Double)
    case tooSlow(Double, Double)
    case timedOut(Double)
    case nextTapTooLate(Double)
    case nextTapTooFar(Double, Double)
    case wrongFingers(Int, Int)
    case tooManyFingers(Int, Int)
    case notEnoughMovement(Double, Double)
    /// A rotation that ended below its threshold: degrees turned, threshold.
    case notEnoughTurn(Double, Double)
    case wrongDirection(SwipeDirection)
    case offAxis(Double, Double)
    case outsideEdgeZone(Double, Double)
    case notFromEdge
    case semiMultitouchAngle
    case excludedBy(Int)
    case requiredRecognized(Int)
    case requiredBegan(Int)
    case requiredFailed
    case touchCancelled
    /// Its region was detached by the socket client that attached it.
    case regionDetached
    case moving
    case lifted
    case sequenceEnded
    /// Settling: a finger joined this many ms after the first landed, so the decision is taken again.
    case fingerJoined(Double)
    /// Touchpad: the finger count rose from the first to the second number, so the gesture is decided
    /// again (libinput's model: a gesture under way is cancelled, the others start from here).
    case fingersChanged(Int, Int)
    /// Touchpad: a finger landed beside one already moving (a staggered scroll): a pinch or rotation
    /// measures the pair only once every finger has moved `EngineLane.settleEveryFingerMM`.
    case joinedMotion
    /// Touchpad: every finger of a pair joined in motion has moved: a pinch or rotation measures from here.
    case allFingersMoving
    /// Touchpad: a tap whose fingers lifted before this many fingers landed together: the tap is
    /// reported and those fingers are the next gesture's (libinput's tap, then a scroll or a swipe).
    case tapBeforeFingers(Int)
    /// Continuous swipe: this many fingers moved this many mm together.
    case swipeBegan(Int, Double)
    /// Pinch / rotation: not considered while this many fingers are down and recognizer (index), a
    /// gesture of that many fingers, is still possible.
    case crowded(RecognizerKind, Int, Int)
    /// Settling: the fingers moved this many mm (>= the second number) before another joined, so the
    /// gesture under way is this one's.
    case settledByMotion(Double, Double)
    /// Rotation: turned this many degrees, which does not dominate the scale change (×scale).
    case turnDoesNotDominate(Double, Double)
    /// Undecided while its fingers were down, it held recognizer (index)'s success this many ms
    /// (the most it may): it gives way, and the held recognizer goes on (docs/recognizers.md,
    /// "No endless holds").
    case heldRivalTooLong(Int, Double)
    /// Forwarding: undecided while its fingers were down, it held this touch back from the desktop
    /// this many ms past settling (the most it may): it gives way, and the desktop gets the touch
    /// (docs/forwarding.md, "No endless holds").
    case heldTouchTooLong(TouchID, Double)
    /// The fingers' motion is not this recognizer's (pan: it is a pinch; pinch: it is a pan / twist).
    case motionIsNot(RecognizerKind, Double, Double)
    /// A held begin released when the fingers' motion no longer fits (as `motionIsNot`): withdrawn,
    /// the recognizer decides on (a rotation: the pair moved more than it turned so far).
    case stillDeciding(RecognizerKind, Double, Double)
    /// Hygiene: the first report after touch-down jumped (mm) in (ms) and was ignored.
    case landingJump(Double, Double)
    /// Hygiene: contact (id) resting, still for (ms) when contact (id) landed.
    case resting(TouchID, Double, TouchID)
    /// Hygiene: contact (id) is a resting thumb (mm) from the bottom edge.
    case thumb(TouchID, Double)
    /// Hygiene: contact (id) is a thumb from its landing, (mm) from the bottom edge and (mm) below
    /// the lowest finger down.
    case thumbLanded(TouchID, Double, Double)
    /// Hygiene: contact (id) landed in a palm edge zone with no finger down: a palm.
    case palm(TouchID, PalmEdge)
    /// Hygiene: palm (id) is a finger from now on.
    case palmReleased(TouchID, PalmRelease)
    /// Hygiene: contact (id) landed in a clickpad's bottom button area (mm high): motion gestures do
    /// not count it yet.
    case buttonArea(TouchID, Double)
    /// Hygiene: contact (id) counts for motion gestures from now on.
    case buttonAreaLeft(TouchID, ButtonAreaRelease)
    /// A physical click on a clickpad (not a tap, not a press).
    case physicalClick
    /// A state machine met an event it has no transition for (recognizer: state, event). The names
    /// are interned (case names without payloads, a bounded set), so that a `Reason`, and every
    /// `Proposal` carrying one, is plain bytes: no reference counting where proposals are copied.
    case impossible(InternedString, InternedString)

    /// `impossible` for a recognizer's state machine: `recognizer` ("pan"), the state it was in and
    /// the event it had no transition for, by their case names.
    static func noTransition<State, Event>(_ recognizer: StaticString, _ state: State, _ event: Event) -> Reason {
        .impossible(InternedString("\(recognizer) in \(MachineTrace.name(state))"), InternedString(MachineTrace.name(event)))
    }

    static func fmt(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        if r == r.rounded() { return String(Int(r)) }
        return String(r)
    }

    static func fmt2(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        guard r.isFinite, abs(r) < 1e15 else { return String(v) }
        let hundredths = Int((abs(r) * 100).rounded())
        let fraction = hundredths % 100
        return (r < 0 ? "-" : "") + String(hundredths / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// `a` and `b` with the fewest decimals (one at least, at most six) that keep the comparison
    /// true as printed: 3.04 > 3 prints "3.04" and "3", never "3" and "3". (A comparison that
    /// does not hold at all is printed with one decimal.)
    static func compared(_ a: Double, _ b: Double, _ holds: (Double, Double) -> Bool) -> (String, String) {
        var scale = 10.0
        for _ in 1...6 {
            let ra = (a * scale).rounded() / scale
            let rb = (b * scale).rounded() / scale
            if holds(ra, rb) { return (trimmed(ra), trimmed(rb)) }
            scale *= 10
        }
        return (fmt(a), fmt(b))
    }

    private static func trimmed(_ r: Double) -> String {
        if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
        return String(r)
    }

    /// Routine lines (what always happens, not a decision): printed only on request (`--verbose`).
    /// Anything else is a reason worth reading.
    var isRoutine: Bool {
        switch self {
        case .moving, .lifted, .sequenceEnded: return true
        default: return false
        }
    }

    func text(name: (Int) -> String) -> String {
        let f = Reason.fmt
        /// "A op B" with the precision that keeps it true.
        func cmp(_ a: Double, _ op: String, _ b: Double, _ unit: String) -> String {
            let holds: (Double, Double) -> Bool = op == ">" ? { $0 > $1 } : op == ">=" ? { $0 >= $1 } : { $0 < $1 }
            let (x, y) = Reason.compared(a, b, holds)
            return "\(x)\(unit) \(op) \(y)\(unit)"
        }
        switch self {
        case .tapsCompleted(let n): return "\(n) tap\(n == 1 ? "" : "s") completed"
        case .semiMultitouchAngle:
            return "semi-MT device: it reports the fingers' bounding box, not their angle"
        case .held(let ms): return "held \(f(ms)) ms"
        case .moved(let d, let t): return "moved " + cmp(d, ">=", t, " mm")
        case .decidedLikeLibinput(let v, let n, let d):
            switch v {
            case .apart: return "\(n) fingers moved different ways (span changed \(f(d)) mm): libinput's pinch"
            case .together where n >= 3: return "\(n) fingers moved the same way \(f(d)) mm: libinput's swipe"
            case .together where n == 2: return "2 fingers moved the same way \(f(d)) mm: libinput's scroll"
            case .together: return "moved \(f(d)) mm >= \(f(TouchpadPairClassifier.pointerMove)) mm: libinput's pointer"
            case .undecided: return "moved \(f(d)) mm"
            }
        case .spanChanged(let d, let t): return "span changed " + cmp(d, ">=", t, " mm")
        case .turned(let d, let t): return "turned " + cmp(d, ">=", t, "°")
        case .swiped(let dir, let d): return "swiped \(dir.rawValue) \(f(d)) mm"
        case .movedTooFar(let d, let t): return "moved " + cmp(d, ">", t, " mm")
        case .heldTooLong(let ms, let t):
            // At the deadline: held as long as the maximum counts as too long.
            let (x, y) = Reason.compared(ms, t, { $0 >= $1 })
            return "held too long: \(x) ms (max \(y) ms)"
        case .liftedEarly(let ms, let t): return "lifted after " + cmp(ms, "<", t, " ms")
        case .tooSlow(let ms, let t): return "too slow: " + cmp(ms, ">", t, " ms")
        case .timedOut(let t): return "too slow: not done within \(f(t)) ms"
        case .nextTapTooLate(let t): return "too slow: no next tap within \(f(t)) ms"
        case .nextTapTooFar(let d, let t):
            let (x, y) = Reason.compared(d, t, { $0 > $1 })
            return "next tap \(x) mm away > \(y) mm"
        case .wrongFingers(let n, let want): return "\(n) finger\(n == 1 ? "" : "s"), needs \(want)"
        case .tooManyFingers(let n, let most): return "\(n) fingers > \(most)"
        // Past the threshold, what held it back (a rival, its own motion rule) has its own line.
        case .notEnoughMovement(let d, let t):
            return d < t ? "lifted after moving " + cmp(d, "<", t, " mm")
                : "lifted before it began, though it moved " + cmp(d, ">=", t, " mm")
        case .notEnoughTurn(let d, let t):
            return d < t ? "lifted after turning " + cmp(d, "<", t, "°")
                : "lifted before it began, though it turned " + cmp(d, ">=", t, "°")
        case .wrongDirection(let d): return "wrong direction: \(d.rawValue)"
        case .offAxis(let a, let t):
            let (x, y) = Reason.compared(a, t, { $0 > $1 })
            return "wrong direction: \(x)° off axis > \(y)°"
        case .outsideEdgeZone(let d, let t):
            let (x, y) = Reason.compared(d, t, { $0 > $1 })
            return "started \(x) mm from the edge > \(y) mm zone"
        case .notFromEdge: return "wrong direction: not away from the edge"
        case .excludedBy(let r): return "excluded by \(name(r))"
        case .requiredRecognized(let r): return "required \(name(r)) to fail, which recognized"
        case .requiredBegan(let r): return "required \(name(r)) to fail, which began"
        case .requiredFailed: return "required recognizers failed"
        case .touchCancelled: return "touch cancelled"
        case .regionDetached: return "its region was detached"
        case .moving: return "moved"
        case .lifted: return "lifted"
        case .sequenceEnded: return "gesture sequence ended"
        case .fingerJoined(let ms): return "a finger joined \(f(ms)) ms in: deciding again"
        case .fingersChanged(let a, let b): return "fingers \(a) → \(b) on a touchpad: deciding again"
        case .joinedMotion:
            return "a finger landed beside one already moving: measures once every finger has moved \(f(EngineLane.settleEveryFingerMM)) mm"
        case .allFingersMoving: return "every finger is moving: measures from here"
        case .tapBeforeFingers(let n): return "a tap before \(n) fingers landed: the tap stands, the fingers are the next gesture's"
        case .swipeBegan(let n, let d): return "swipe began: \(n) fingers moved \(f(d)) mm together"
        case .crowded(let kind, let n, let r):
            return "\(kind == .pinch ? "pinch" : "rotation") not considered: \(n) fingers down, \(name(r)) may still be the gesture"
        case .settledByMotion(let d, let t): return "moved \(f(d)) mm >= \(f(t)) mm before another finger joined"
        case .heldRivalTooLong(let r, let ms):
            return "undecided after holding \(name(r)) for \(f(ms)) ms: gives way, \(name(r)) goes on"
        case .heldTouchTooLong(let t, let ms):
            return "undecided after holding touch \(t) from the desktop for \(f(ms)) ms: gives way, the desktop gets it"
        case .turnDoesNotDominate(let deg, let scale):
            return "rotation \(f(deg))° does not dominate a ×\(Reason.fmt2(scale)) scale change"
        case .motionIsNot(let kind, let a, let b):
            switch kind {
            case .pan: return "not a pan: the fingers' span changed \(f(a)) mm while they moved \(f(b)) mm together"
            case .pinch: return "not a pinch: the fingers moved \(f(b)) mm together, their span \(f(a)) mm"
            case .swipe: return "not a swipe: the fingers moved \(f(a)) mm apart, \(f(b)) mm together"
            case .rotation: return "not a rotation: the fingers moved \(f(b)) mm together, \(f(a)) mm around"
            default: return "not a \(kind.rawValue): \(f(a)) / \(f(b))"
            }
        case .stillDeciding(let kind, let a, let b):
            let what = kind == .rotation ? "\(f(b)) mm together, \(f(a)) mm around" : "\(f(a)) / \(f(b))"
            return "begin withdrawn: not a \(kind.rawValue) yet (the fingers moved \(what)), deciding on"
        case .landingJump(let mm, let ms): return "first-contact jump of \(f(mm)) mm in \(f(ms)) ms ignored"
        case .resting(let id, let ms, let other):
            return "contact \(id) resting: still for \(f(ms)) ms when contact \(other) landed"
        case .thumb(let id, let mm): return "contact \(id) resting: a thumb \(f(mm)) mm from the bottom edge"
        case .thumbLanded(let id, let mm, let below):
            return "contact \(id) is a thumb: landed \(f(mm)) mm from the bottom edge, \(f(below)) mm below the fingers"
        case .palm(let id, let edge):
            return "contact \(id) is a palm: landed in the \(edge.rawValue) palm edge zone with no finger down"
        case .palmReleased(let id, .leftZone(let ms)):
            return "contact \(id) is a finger: left the palm edge zone away from the edge \(f(ms)) ms after landing"
        case .palmReleased(let id, .fingerBeside(let other)):
            return "contact \(id) is a finger: contact \(other) is a finger beside it"
        case .buttonArea(let id, let mm):
            return "contact \(id) landed in the clickpad's button area (bottom \(f(mm)) mm): not counted for motion gestures yet"
        case .buttonAreaLeft(let id, .leftArea):
            return "contact \(id) left the button area: counted for motion gestures"
        case .buttonAreaLeft(let id, .moved(let mm)):
            return "contact \(id) moved \(f(mm)) mm > 5 mm in the button area: counted for motion gestures"
        case .buttonAreaLeft(let id, .waitedOut(let ms)):
            return "contact \(id) rests in the button area while the other fingers' gesture went on \(f(ms)) ms: counted for motion gestures with them"
        case .buttonAreaLeft(let id, .landedWith(let other, let ms)):
            return "contact \(id) landed \(f(ms)) ms from contact \(other), which is counted now: counted for motion gestures too"
        case .physicalClick: return "physical click: not a tap"
        case .impossible(let where_, let event): return "bug: \(where_.string) has no transition for \(event.string)"
        }
    }
}
