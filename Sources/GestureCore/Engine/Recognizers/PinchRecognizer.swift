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
/// | tracking | spanChanged  | active   | begin: span changed ≥ `pinchThreshold`, span dominates |
/// | tracking | spanChanged  | tracking | — (moved together or turned, while a pan or rotation may still be the gesture; or crowded: more fingers down and their gesture still possible) |
/// | tracking | scrolled     | done     | fail: claiming forwarded touches, the fingers moved together: the desktop's scroll |
/// | active   | moved        | active   | change                                               |
/// | active   | pairLost     | done     | end                                                  |
///
/// Any other pair is a bug (reported, and the pinch fails or is cancelled).
struct PinchRecognizer: RecognizerLogic {
    enum State: Sendable { case waiting, tracking, active, done }
    enum Event: Sendable {
        case pairFormed
        case pairLost
        case allLifted
        case spanChanged(Double)
        /// Claiming forwarded touches: the pair moved `pinchThreshold` together, twice its span change.
        case scrolled
        case moved
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = State.waiting
    private var pair = TwoFingerTracker()
    /// Judge every finger down, not the first two (touchpads: `TwoFingerTracker.allFingers`).
    var judgesAllFingers: Bool {
        get { pair.allFingers }
        set { pair.allFingers = newValue }
    }
    private var motion = PairMotion()
    private var ring = VelocityRing()
    private var contested = false
    private var crowded = false
    /// The fingers it reports: those of the set it tracks (two, or on a touchpad every finger down
    /// when the set formed: a pinch of three fingers is a pinch of three).
    private var fingers = 2
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .waiting
        fingers = 2
        pair.reset()
        motion = PairMotion()
        ring.reset()
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        var changedPair = false
        let two = pair.update(input, pairChanged: &changedPair)
        contested = input.contested
        crowded = input.crowded
        let event: Event
        switch state {
        case .waiting, .tracking:
            if !two {
                guard pair.fingers == 0 || state == .tracking else { return .none }
                event = pair.fingers == 0 ? .allLifted : .pairLost
            } else if state == .waiting || changedPair || pair.originRebased {
                event = .pairFormed
            } else {
                motion.update(pair)
                ring.push(input.time, Point(x: motion.scale, y: 0))
                let d = abs(motion.spanChange)
                if input.desktopScrolls && motion.together >= p.pinchThreshold && motion.together >= 2 * d {
                    event = .scrolled
                } else {
                    guard d >= p.pinchThreshold || (input.verdict == .apart && motion.isPinchLike) else { return .none }
                    event = .spanChanged(d)
                }
            }
        case .active:
            guard two, !changedPair else { return step(.pairLost, at: input.time) }
            motion.update(pair)
            ring.push(input.time, Point(x: motion.scale, y: 0))
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
            ring.push(time, Point(x: 1, y: 0))
        case (.waiting, .allLifted):
            state = .done
            proposal = pair.failureWhenLifted(.notEnoughMovement(0, p.pinchThreshold)) ?? .fail(.sequenceEnded)
        case (.tracking, .pairLost):
            state = .waiting
        case (.tracking, .allLifted):
            state = .done
            proposal = .fail(.notEnoughMovement(abs(motion.spanChange), p.pinchThreshold))
        case (.tracking, .spanChanged(let d)):
            if !crowded && (motion.isPinchLike || !contested) {
                state = .active
                proposal = .begin(d >= p.pinchThreshold ? .spanChanged(d, p.pinchThreshold)
                                                        : .decidedLikeLibinput(.apart, fingers, d))
            }
        case (.tracking, .scrolled):
            state = .done
            proposal = .fail(.motionIsNot(.pinch, abs(motion.spanChange), motion.together))
        case (.active, .moved):
            proposal = .change
        case (.active, .pairLost):
            state = .done
            proposal = .end
        case (.waiting, .pairLost), (.waiting, .spanChanged), (.waiting, .moved), (.tracking, .moved),
             (.waiting, .scrolled), (.active, .scrolled),
             (.active, .pairFormed), (.active, .allLifted), (.active, .spanChanged),
             (.done, _):
            state = .done
            proposal = .bug(.noTransition("pinch", from, event))
        }
        trace.record(.pinch, from, event, state)
        return proposal
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    var disqualification: Reason? {
        guard contested, !motion.isPinchLike else { return nil }
        return .motionIsNot(.pinch, abs(motion.spanChange), motion.together)
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = fingers
        event.location = pair.location
        event.scale = motion.scale
        event.scalarVelocity = ring.velocity.x
    }
}
