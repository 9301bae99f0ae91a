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
/// | tracking | turned       | active   | begin: turned ≥ `rotationThreshold`, turning dominates  |
/// | tracking | turned       | tracking | — (turning does not dominate, or crowded: more fingers down and their gesture still possible) |
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
/// Any other pair is a bug (reported, and the rotation fails or is cancelled).
struct RotationRecognizer: RecognizerLogic {
    enum State: Sendable { case waiting, tracking, active, done }
    enum Event: Sendable {
        case pairFormed
        case pairLost
        case allLifted
        case turned(Double)
        case moved
        /// The engine withdrew a held begin that no longer fits when released (`withdrawBegin`).
        case withdrawn
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = State.waiting
    private var pair = TwoFingerTracker()
    private var crowded = false
    /// Judge every finger down, not the first two (touchpads: `TwoFingerTracker.allFingers`).
    var judgesAllFingers: Bool {
        get { pair.allFingers }
        set { pair.allFingers = newValue }
    }
    private var motion = PairMotion()
    private var ring = VelocityRing()
    /// A turn this many times `rotationThreshold` is a rotation whatever else the pair does
    /// (`PairMotion.isTurnLike`).
    static let wideTurnFactor = 3.0
    private var wideTurn: Double { Self.wideTurnFactor * p.rotationThreshold }
    /// The largest turn that did not dominate (for the explain line), and whether it dominated the
    /// scale (then the pair's common motion overruled it).
    private var overruled: Double?
    private var overruledByMotion = false
    /// The fingers it reports: those of the set it tracks (two, or on a touchpad every finger down
    /// when the set formed: a pinch of three fingers is a pinch of three).
    private var fingers = 2
    var deadline: Timestamp? { nil }

    /// Why a rotation that never began fails when its fingers lift: its turn passed the threshold
    /// but never dominated the scale change, or it never turned far enough (0° when no pair formed).
    /// The scale quoted is the fingers' when they lifted, as a pinch of the same fingers reports it.
    private var liftedTooSoon: Reason {
        if let overruled {
            return overruledByMotion ? .motionIsNot(.rotation, motion.arc, motion.together)
                : .turnDoesNotDominate(overruled, motion.scale)
        }
        return .notEnoughTurn(motion.degrees, p.rotationThreshold)
    }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .waiting
        fingers = 2
        pair.reset()
        motion = PairMotion()
        ring.reset()
        overruled = nil
        overruledByMotion = false
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        crowded = input.crowded
        var changedPair = false
        let two = pair.update(input, pairChanged: &changedPair)
        let event: Event
        switch state {
        case .waiting, .tracking:
            if !two {
                guard pair.fingers == 0 || state == .tracking else { return .none }
                event = pair.fingers == 0 ? .allLifted : .pairLost
            } else if state == .waiting || changedPair || pair.originRebased
                        || pair.span < p.rotationMinimumSpan {
                event = .pairFormed
            } else {
                motion.update(pair)
                ring.push(input.time, Point(x: motion.rotation, y: 0))
                guard motion.degrees >= p.rotationThreshold else { return .none }
                event = .turned(motion.degrees)
            }
        case .active:
            guard two, !changedPair else { return step(.pairLost, at: input.time) }
            motion.update(pair)
            ring.push(input.time, Point(x: motion.rotation, y: 0))
            guard input.anyMoved else { return .none }
            event = .moved
        case .done:
            return .none
        }
        return step(event, at: input.time)
    }

    private mutating func step(_ event: Event, at time: Timestamp) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.waiting, .pairFormed), (.tracking, .pairFormed):
            state = .tracking
            fingers = pair.setSize
            motion.start(pair)
            ring.reset()
            ring.push(time, .zero)
        case (.waiting, .allLifted):
            state = .done
            proposal = pair.failureWhenLifted(liftedTooSoon) ?? .fail(.sequenceEnded)
        case (.tracking, .pairLost):
            state = .waiting
        case (.tracking, .allLifted):
            state = .done
            proposal = .fail(liftedTooSoon)
        case (.tracking, .turned(let degrees)):
            if motion.isTurnLike(wide: wideTurn) && !crowded {
                state = .active
                proposal = .begin(.turned(degrees, p.rotationThreshold))
            } else if degrees > (overruled ?? 0) {
                overruled = degrees
                overruledByMotion = motion.turnDominates
            }
        case (.active, .moved):
            proposal = .change
        case (.active, .pairLost):
            state = .done
            proposal = .end
        case (.active, .withdrawn):
            // Decides on from here: the motion keeps its origin (the turn grows on), and a lift before
            // it is turn-like says why.
            state = .tracking
            overruled = max(overruled ?? 0, motion.degrees)
            overruledByMotion = true
        case (.waiting, .pairLost), (.waiting, .turned), (.waiting, .moved), (.tracking, .moved),
             (.waiting, .withdrawn), (.tracking, .withdrawn),
             (.active, .pairFormed), (.active, .allLifted), (.active, .turned),
             (.done, _):
            state = .done
            proposal = .bug(.noTransition("rotation", from, event))
        }
        trace.record(.rotation, from, event, state)
        return proposal
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    /// A begin held while the fingers settle is checked again when it is released: the turn must still
    /// dominate the motion. A two-finger translation whose first finger leads (it moves alone for a few
    /// frames, then the fingers alternate frames, as some firmware reports) turns the pair for a moment,
    /// then moves it together: not a rotation however the frames interleave.
    var disqualification: Reason? {
        guard state == .active, !motion.isTurnLike(wide: wideTurn) else { return nil }
        return .motionIsNot(.rotation, motion.arc, motion.together)
    }

    /// The engine withdraws a held begin that `disqualification` rejected: the rotation decides on
    /// (tracking) instead of failing. Returns the explain line's reason.
    mutating func withdrawBegin(at time: Timestamp) -> Reason? {
        guard state == .active else { return nil }
        let reason = Reason.stillDeciding(.rotation, motion.arc, motion.together)
        if case .bug = step(.withdrawn, at: time) { return nil }
        return reason
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = fingers
        event.location = pair.location
        event.rotation = motion.rotation
        event.scalarVelocity = ring.velocity.x
    }
}
