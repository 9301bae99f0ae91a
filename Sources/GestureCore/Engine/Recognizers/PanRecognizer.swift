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
/// Any other pair is a bug (reported, and the pan fails or is cancelled).
struct PanRecognizer: RecognizerLogic {
    enum State: Sendable { case waiting, active, done }
    enum Event: Sendable, PanEvents {
        case tooFewFingers(Int)
        case tooManyFingers(Int)
        case crossed(Double)
        case allLifted
        case moved
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = State.waiting
    private var tracker = MotionTracker()
    private var motion = FingerMotion()
    private var fingers = FollowedFingers()
    private var mostFingers = 0
    private var contested = false
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .waiting
        tracker.reset()
        motion.reset()
        fingers.reset()
        mostFingers = 0
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        let n = fingers.follow(input, capped: state == .active, limit: p.maximumFingers)
        contested = input.contested
        let followed = fingers.touches(of: input.touches)
        let moved = tracker.update(followed, at: input.time)
        motion.update(followed)
        let event: Event
        switch state {
        case .waiting:
            mostFingers = max(mostFingers, n)
            if let outside = Event.outside(n, minimum: p.minimumFingers, maximum: p.maximumFingers) {
                event = outside
            } else if tracker.translationMM.length >= p.panThreshold || input.verdict == .together {
                event = .crossed(tracker.translationMM.length)
            } else {
                return .none
            }
        case .active:
            guard let active = Event.active(n, minimum: p.minimumFingers, moved: moved) else { return .none }
            event = active
        case .done:
            return .none
        }
        return step(event)
    }

    @inline(__always)
    private mutating func step(_ event: Event) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.waiting, .tooFewFingers):
            tracker.restartTranslation()
        case (.waiting, .tooManyFingers(let n)):
            state = .done
            proposal = .fail(.tooManyFingers(n, p.maximumFingers))
        case (.waiting, .crossed(let d)):
            if motion.isPanLike || !contested {
                state = .active
                proposal = .begin(d >= p.panThreshold ? .moved(d, p.panThreshold)
                                                      : .decidedLikeLibinput(.together, mostFingers, d))
            }
        case (.waiting, .allLifted):
            state = .done
            proposal = mostFingers < p.minimumFingers
                ? .fail(.wrongFingers(mostFingers, p.minimumFingers))
                : .fail(.notEnoughMovement(tracker.translationMM.length, p.panThreshold))
        case (.active, .moved):
            proposal = .change
        case (.active, .tooFewFingers):
            state = .done
            proposal = .end
        case (.waiting, .moved), (.active, .tooManyFingers), (.active, .crossed), (.active, .allLifted),
             (.done, _):
            state = .done
            proposal = .bug(.noTransition("pan", from, event))
        }
        trace.record(.pan, from, event, state)
        return proposal
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    /// A begin held while the fingers settle is checked again when it is released: the pan was pan-like
    /// when it proposed, so it gives way only when the fingers have since moved apart more than
    /// together (a zoom), not on the way (a pair whose first finger leads catches up as it goes).
    var disqualification: Reason? {
        guard contested, !motion.isPanLike, motion.together.length < motion.apart else { return nil }
        return .motionIsNot(.pan, motion.apart * 2, motion.together.length)
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        tracker.describePan(&event)
        event.fingers = min(event.fingers, p.maximumFingers)
    }
}
