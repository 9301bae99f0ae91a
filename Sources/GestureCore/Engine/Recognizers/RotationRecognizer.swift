/// Rotation: two fingers whose connecting line turns `rotationThreshold` degrees (hysteresis) when
/// turning dominates the motion: the turn exceeds the log of the scale change (so the threshold grows
/// with the scale: a zoom's drift is not a twist) and either each finger's arc is at least three
/// quarters of the pair's common motion (not two fingers panning around a curve, nor a pair moving
/// together with one finger leading) or the turn is wide, `wideTurnFactor` times the threshold (a
/// pivot finger, a turn while dragging or zooming: a turn that far is a rotation whatever else the
/// pair does). The angle only counts once the fingers are
/// `rotationMinimumSpan` mm apart (closer, a millimetre of jitter is degrees of angle). Rotation is
/// cumulative radians from that moment, clockwise positive in surface coordinates; velocity in
/// radians per second. A third finger is ignored. Continuous. Every reason a rotation fails is in
/// this file (and the engine's: never on a semi-MT device).
///
/// | from     | event        | to       | proposal / why                                          |
/// |----------|--------------|----------|---------------------------------------------------------|
/// | waiting  | pairFormed   | tracking | — (the angle's origin)                                  |
/// | waiting  | allLifted    | done     | fail: two fingers never came                            |
/// | tracking | pairFormed   | tracking | — (another pair, an origin rebased, or still too close) |
/// | tracking | pairLost     | waiting  | — (a finger lifted, one is still down)                  |
/// | tracking | allLifted    | done     | fail: not enough turn / turn did not dominate the scale |
/// | tracking | crossed      | active   | begin: turned ≥ `rotationThreshold`, turning dominates  |
/// | tracking | crossed      | tracking | — (turning does not dominate, or crowded: more fingers down and their gesture still possible) |
/// | active   | moved        | active   | change                                                  |
/// | active   | pairLost     | done     | end                                                     |
/// | active   | withdrawn    | tracking | — (a held begin no longer turn-like when released: decides on) |
///
/// A begin held by the engine (settling, require-to-fail) is checked again when released
/// (`disqualification`); one that no longer fits is withdrawn (`withdrawBegin`): the rotation goes
/// back to tracking ("not a rotation yet: … deciding on"), and begins once its turn is wide or leads
/// again, or fails at the lift ("not a rotation: the fingers moved … together, … around") or when a
/// rival wins. A pivot finger dragged along turns the pair less than it moves it for the first
/// hundred milliseconds: failing it for good there would lose the commonest turn on a touchscreen.
///
/// The machine is the one pinch and rotation share (`TwoFingerMachine.swift`); what a rotation measures
/// and decides is `RotationMeasure`, below. Any other pair is a bug (reported, and the rotation fails or
/// is cancelled).
typealias RotationRecognizer = TwoFingerMachine<RotationMeasure>

/// The rotation's measure of the pair: its turn, and the largest turn it overruled while deciding.
struct RotationMeasure: PairMeasure {
    static var kind: RecognizerKind { .rotation }
    static var name: StaticString { "rotation" }
    /// Rotation is cumulative radians from the moment the pair formed.
    static var origin: Double { 0 }
    /// A turn this many times `rotationThreshold` is a rotation whatever else the pair does
    /// (`PairMotion.isTurnLike`).
    static let wideTurnFactor = 3.0
    private static func wideTurn(_ p: RecognizerParameters) -> Double { wideTurnFactor * p.rotationThreshold }
    /// The largest turn that did not dominate (for the explain line), and whether it dominated the
    /// scale (then the pair's common motion overruled it).
    private var overruled: Double?
    private var overruledByMotion = false

    static func value(_ motion: PairMotion) -> Double { motion.rotation }

    /// Closer than `rotationMinimumSpan`, a millimetre of jitter is degrees of angle: not measured yet.
    static func restarts(_ pair: TwoFingerTracker, _ p: RecognizerParameters) -> Bool {
        pair.span < p.rotationMinimumSpan
    }

    static func crossing(_ motion: PairMotion, desktopScrolls: Bool, verdict: TouchpadVerdict,
                         libinputDeciding: Bool, _ p: RecognizerParameters) -> RotationRecognizer.Event? {
        guard motion.degrees >= p.rotationThreshold else { return nil }
        return .crossed(motion.degrees)
    }

    mutating func begin(_ degrees: Double, _ motion: PairMotion, contested: Bool, crowded: Bool, fingers: Int,
                        _ p: RecognizerParameters) -> Reason? {
        if motion.isTurnLike(wide: Self.wideTurn(p)) && !crowded { return .turned(degrees, p.rotationThreshold) }
        if degrees > (overruled ?? 0) {
            overruled = degrees
            overruledByMotion = motion.turnDominates
        }
        return nil
    }

    /// Why a rotation that never began fails when its fingers lift: its turn passed the threshold
    /// but never dominated the scale change, or it never turned far enough (0° when no pair formed).
    /// The scale quoted is the fingers' when they lifted, as a pinch of the same fingers reports it.
    func failure(_ motion: PairMotion, paired: Bool, _ p: RecognizerParameters) -> Reason {
        if let overruled {
            return overruledByMotion ? .motionIsNot(.rotation, motion.arc, motion.together)
                : .turnDoesNotDominate(overruled, motion.scale)
        }
        return .notEnoughTurn(motion.degrees, p.rotationThreshold)
    }

    /// A begin held while the fingers settle is checked again when it is released: the turn must still
    /// dominate the motion. A two-finger translation whose first finger leads (it moves alone for a few
    /// frames, then the fingers alternate frames, as some firmware reports) turns the pair for a moment,
    /// then moves it together: not a rotation however the frames interleave.
    static func disqualification(_ motion: PairMotion, active: Bool, contested: Bool,
                                 _ p: RecognizerParameters) -> Reason? {
        guard active, !motion.isTurnLike(wide: wideTurn(p)) else { return nil }
        return .motionIsNot(.rotation, motion.arc, motion.together)
    }

    /// The engine withdraws a held begin that `disqualification` rejected: the rotation decides on
    /// (tracking) instead of failing, with this explain line.
    static func withdrawal(_ motion: PairMotion) -> Reason? { .stillDeciding(.rotation, motion.arc, motion.together) }

    /// The motion keeps its origin (the turn grows on), and a lift before it is turn-like says why.
    mutating func withdrawn(_ motion: PairMotion) {
        overruled = max(overruled ?? 0, motion.degrees)
        overruledByMotion = true
    }

    static func describe(_ event: inout GestureEvent, _ motion: PairMotion) { event.rotation = motion.rotation }
}
