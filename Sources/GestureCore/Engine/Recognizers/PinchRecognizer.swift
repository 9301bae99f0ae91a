/// Pinch: two fingers whose distance changes by `pinchThreshold` mm (hysteresis, so it never begins at
/// the second finger-down). When a two-finger pan or a rotation it would exclude is still possible, the
/// change of span must also dominate: be at least the pair's common motion (both apart, or one anchored
/// and one moving, not two fingers scrolling) and its log-scale at least the pair's turn (not a twist). Scale is cumulative from the span when the pair formed (1.0);
/// velocity in scale per second. A third finger is ignored. Continuous. Every reason a pinch fails is
/// in this file.
///
/// A pinch that takes its touches from the desktop (forwarding: it claims them) has the desktop's own
/// two-finger scroll as a rival even when no pan is configured: fingers that move `pinchThreshold`
/// together, at least twice their change of span, are a scroll, and the pinch fails then, so its
/// held fingers go to the desktop within the first millimetres (docs/forwarding.md).
///
/// | from     | event        | to       | proposal / why                                       |
/// |----------|--------------|----------|------------------------------------------------------|
/// | waiting  | pairFormed   | tracking | — (the scale's origin)                               |
/// | waiting  | allLifted    | done     | fail: two fingers never came                         |
/// | tracking | pairFormed   | tracking | — (another pair, or an origin rebased: starts again) |
/// | tracking | pairLost     | waiting  | — (a finger lifted, one is still down)               |
/// | tracking | allLifted    | done     | fail: not enough span change                         |
/// | tracking | crossed      | active   | begin: span changed ≥ `pinchThreshold` (on a touchpad, not while libinput may still decide the pair), span dominates; or libinput judged the pair apart |
/// | tracking | crossed      | tracking | — (moved together or turned, while a pan or rotation may still be the gesture; or crowded: more fingers down and their gesture still possible) |
/// | tracking | scrolled     | done     | fail: claiming forwarded touches, the fingers moved together: the desktop's scroll |
/// | active   | moved        | active   | change                                               |
/// | active   | pairLost     | done     | end                                                  |
///
/// The machine is the one pinch and rotation share (`TwoFingerMachine.swift`); what a pinch measures and
/// decides is `PinchMeasure`, below. Any other pair is a bug (reported, and the pinch fails or is cancelled).
typealias PinchRecognizer = TwoFingerMachine<PinchMeasure>

/// The pinch's measure of the pair: the change of its span.
struct PinchMeasure: PairMeasure {
    static var kind: RecognizerKind { .pinch }
    static var name: StaticString { "pinch" }
    /// Scale is cumulative from the span when the pair formed.
    static var origin: Double { 1 }

    static func value(_ motion: PairMotion) -> Double { motion.scale }

    static func restarts(_ pair: TwoFingerTracker, _ p: RecognizerParameters) -> Bool { false }

    /// Claiming forwarded touches: the pair moved `pinchThreshold` together, twice its span change
    /// (`scrolled`, the desktop's scroll); else `crossed` once the span changed `pinchThreshold`, or
    /// on a touchpad once libinput judged the fingers apart and the motion is pinch-like. On a
    /// touchpad whose pair libinput may still decide by its directions (`libinputDeciding`: neither
    /// finger has moved 4 mm while the other rests, and not both 1.5 mm), the span's own threshold
    /// waits for that decision: libinput begins no pinch before it (a slow zoom whose second finger
    /// has moved 1.3 mm when the span changed 3 mm). A pinch about a resting finger is not libinput's
    /// to decide and goes on the span alone.
    static func crossing(_ motion: PairMotion, desktopScrolls: Bool, verdict: TouchpadVerdict,
                         libinputDeciding: Bool, _ p: RecognizerParameters) -> PinchRecognizer.Event? {
        let d = abs(motion.spanChange)
        if desktopScrolls && motion.together >= p.pinchThreshold && motion.together >= 2 * d {
            return .scrolled(.motionIsNot(.pinch, d, motion.together))
        }
        guard (d >= p.pinchThreshold && !libinputDeciding) || (verdict == .apart && motion.isPinchLike) else { return nil }
        return .crossed(d)
    }

    func begin(_ d: Double, _ motion: PairMotion, contested: Bool, crowded: Bool, fingers: Int,
               _ p: RecognizerParameters) -> Reason? {
        guard !crowded && (motion.isPinchLike || !contested) else { return nil }
        return d >= p.pinchThreshold ? .spanChanged(d, p.pinchThreshold) : .decidedLikeLibinput(.apart, fingers, d)
    }

    func failure(_ motion: PairMotion, paired: Bool, _ p: RecognizerParameters) -> Reason {
        .notEnoughMovement(paired ? abs(motion.spanChange) : 0, p.pinchThreshold)
    }

    static func disqualification(_ motion: PairMotion, active: Bool, contested: Bool,
                                 _ p: RecognizerParameters) -> Reason? {
        guard contested, !motion.isPinchLike else { return nil }
        return .motionIsNot(.pinch, abs(motion.spanChange), motion.together)
    }

    /// A pinch's held begin that no longer fits fails.
    static func withdrawal(_ motion: PairMotion) -> Reason? { nil }

    func withdrawn(_ motion: PairMotion) {}

    static func describe(_ event: inout GestureEvent, _ motion: PairMotion) { event.scale = motion.scale }
}
