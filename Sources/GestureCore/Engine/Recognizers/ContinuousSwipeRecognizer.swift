/// Continuous swipe (libinput's touchpad swipe): `fingers` fingers moving together. It begins once
/// their centroid has moved `swipeBeginDistance` mm with the fingers together (their common motion at
/// least their motion apart: not a pinch), at any speed and with no time limit; then `changed` on every
/// frame they move, and `ended` when one of them lifts. Every line carries the translation, the
/// velocity and the direction of the dominant axis so far; a swipe whose first direction is not one of
/// `directions` fails. The style a swipe gets on each device is `SwipeStyle` (docs/recognizers.md,
/// "Touchpads"). Every reason a continuous swipe fails is in this file.
///
/// | from    | event          | to      | proposal / why                                            |
/// |---------|----------------|---------|-----------------------------------------------------------|
/// | waiting | tooFewFingers  | waiting | — (translation restarts: the fingers are not all down yet) |
/// | waiting | tooManyFingers | done    | fail: more than `fingers`                                  |
/// | waiting | crossed        | active  | begin: moved `swipeBeginDistance` together                 |
/// | waiting | crossed        | done    | fail: not a configured direction                           |
/// | waiting | crossed        | waiting | — (the fingers moved apart more than together: a pinch?)   |
/// | waiting | spread         | done    | fail: the fingers moved apart `swipeBeginDistance`, twice their common motion or two of them `swipeBeginDistance` in opposite ways: a pinch |
/// | waiting | allLifted      | done    | fail: too few fingers / not enough movement                |
/// | active  | moved          | active  | change                                                     |
/// | active  | tooFewFingers  | done    | end (a finger lifted)                                      |
/// | active  | tooManyFingers | done    | cancel (on a touchpad the engine decides again first)      |
///
/// The machine is the one the pan family shares (`CentroidMachine.swift`); what a continuous swipe
/// decides is `ContinuousSwipeRules`, below. Any other pair is a bug (reported, and the swipe fails or
/// is cancelled).
typealias ContinuousSwipeRecognizer = CentroidMachine<ContinuousSwipeRules>

/// The continuous swipe's rules: exactly `fingers` fingers, every touch read, its direction.
struct ContinuousSwipeRules: CentroidRules {
    static var kind: RecognizerKind { .swipe }
    static var name: StaticString { "continuous swipe" }
    static var followsFingers: Bool { false }
    static func minimum(_ p: RecognizerParameters) -> Int { p.fingers }
    static func maximum(_ p: RecognizerParameters) -> Int { p.fingers }
    static func threshold(_ p: RecognizerParameters) -> Double { p.swipeBeginDistance }
    /// The direction of the dominant axis so far.
    private var direction: SwipeDirection = .right

    /// The fingers moved apart `swipeBeginDistance`, twice their common motion or two of them that far
    /// in opposite ways, or on a touchpad libinput judged them apart and they moved more apart than
    /// together: a pinch.
    static func spread(_ motion: FingerMotion, _ touches: [Touch], verdict: TouchpadVerdict,
                       _ p: RecognizerParameters) -> Reason? {
        guard motion.apart >= p.swipeBeginDistance
                && (motion.apart >= 2 * motion.together.length || motion.opposed(touches) >= p.swipeBeginDistance)
                || (verdict == .apart && motion.apart > motion.together.length)
        else { return nil }
        return .motionIsNot(.swipe, motion.apart, motion.together.length)
    }

    /// Crosses at `swipeBeginDistance`, or on a touchpad once libinput judged the fingers together and
    /// they moved a millimetre.
    static func crosses(_ moved: Double, verdict: TouchpadVerdict, _ p: RecognizerParameters) -> Bool {
        moved >= p.swipeBeginDistance || (verdict == .together && moved >= 1)
    }

    mutating func crossed(_ t: Point, _ tracker: MotionTracker, _ motion: FingerMotion, contested: Bool,
                          mostFingers: Int, _ p: RecognizerParameters) -> ContinuousSwipeRecognizer.Crossing {
        let dir = Self.dominantDirection(tracker.translation)
        if !p.directions.contains(dir) { return .fail(.wrongDirection(dir)) }
        guard motion.together.length >= motion.apart else { return .undecided }
        direction = dir
        return .begin(.swipeBegan(p.fingers, t.length))
    }

    static func lifted(mostFingers: Int, _ moved: Double, _ p: RecognizerParameters) -> Reason {
        mostFingers < p.fingers ? .wrongFingers(mostFingers, p.fingers)
            : .notEnoughMovement(moved, p.swipeBeginDistance)
    }

    mutating func moved(_ tracker: MotionTracker) { direction = Self.dominantDirection(tracker.translation) }

    /// The direction of the dominant axis of a translation (surface units, y down).
    static func dominantDirection(_ t: Point) -> SwipeDirection {
        abs(t.x) >= abs(t.y) ? (t.x > 0 ? .right : .left) : (t.y > 0 ? .down : .up)
    }

    func describe(_ event: inout GestureEvent, _ tracker: MotionTracker, _ p: RecognizerParameters) {
        tracker.describeSwipe(&event, fingers: p.fingers, direction: direction)
    }
}
