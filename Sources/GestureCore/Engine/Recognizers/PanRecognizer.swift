/// Pan: `minimumFingers`...`maximumFingers` fingers whose centroid moves `panThreshold` mm, moving
/// together (two fingers spreading apart, or one anchored while the other moves, are a pinch, not a
/// pan). Translation is from the first centroid (compensated when fingers join or leave); velocity
/// over the last ~100 ms. Once it has begun, fingers beyond `maximumFingers` are ignored (UIKit's
/// maximumNumberOfTouches): it never reports more, and its location stays on its own fingers.
/// Continuous. Every reason a pan fails is in this file (and the engine's settling, when a finger
/// joins within the settle time: docs/recognizers.md).
///
/// | from    | event         | to      | proposal / why                                          |
/// |---------|---------------|---------|---------------------------------------------------------|
/// | waiting | tooFewFingers | waiting | — (translation restarts)                                |
/// | waiting | tooManyFingers| done    | fail: more than `maximumFingers`                        |
/// | waiting | crossed       | active  | begin: moved ≥ `panThreshold`, the fingers together     |
/// | waiting | crossed       | waiting | — (moved apart, not together, while a pinch or rotation may still be the gesture) |
/// | waiting | allLifted     | done    | fail: too few fingers / not enough movement             |
/// | active  | moved         | active  | change                                                  |
/// | active  | tooFewFingers | done    | end                                                     |
///
/// The machine is the one the pan family shares (`CentroidMachine.swift`); what a pan decides is
/// `PanRules`, below. Any other pair is a bug (reported, and the pan fails or is cancelled).
typealias PanRecognizer = CentroidMachine<PanRules>

/// The pan's rules: it follows at most `maximumFingers` once begun, and begins when its fingers move
/// together (or nothing it would exclude is still possible).
struct PanRules: CentroidRules {
    static var kind: RecognizerKind { .pan }
    static var name: StaticString { "pan" }

    /// Crosses at `panThreshold`, or on a touchpad once libinput judged the fingers together.
    static func crosses(_ moved: Double, verdict: TouchpadVerdict, _ p: RecognizerParameters) -> Bool {
        moved >= p.panThreshold || verdict == .together
    }

    func crossed(_ t: Point, _ tracker: MotionTracker, _ motion: FingerMotion, contested: Bool, mostFingers: Int,
                 _ p: RecognizerParameters) -> PanRecognizer.Crossing {
        guard motion.isPanLike || !contested else { return .undecided }
        let d = t.length
        return .begin(d >= p.panThreshold ? .moved(d, p.panThreshold) : .decidedLikeLibinput(.together, mostFingers, d))
    }

    static func lifted(mostFingers: Int, _ moved: Double, _ p: RecognizerParameters) -> Reason {
        mostFingers < p.minimumFingers ? .wrongFingers(mostFingers, p.minimumFingers)
            : .notEnoughMovement(moved, p.panThreshold)
    }

    /// A begin held while the fingers settle is checked again when it is released: the pan was pan-like
    /// when it proposed, so it gives way only when the fingers have since moved apart more than
    /// together (a zoom), not on the way (a pair whose first finger leads catches up as it goes).
    static func disqualification(_ motion: FingerMotion, contested: Bool) -> Reason? {
        guard contested, !motion.isPanLike, motion.together.length < motion.apart else { return nil }
        return .motionIsNot(.pan, motion.apart * 2, motion.together.length)
    }
}
