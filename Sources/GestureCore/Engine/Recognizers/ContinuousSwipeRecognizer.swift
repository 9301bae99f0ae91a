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
/// | active  | fingerLifted   | done    | end                                                        |
/// | active  | tooManyFingers | done    | cancel (on a touchpad the engine decides again first)      |
///
/// Any other pair is a bug (reported, and the swipe fails or is cancelled).
struct ContinuousSwipeRecognizer: RecognizerLogic {
    enum State: Sendable { case waiting, active, done }
    enum Event: Sendable, FingerCountEvents {
        case tooFewFingers(Int)
        case tooManyFingers(Int)
        case crossed(Double)
        case spread(Double, Double)
        case allLifted
        case moved
        case fingerLifted
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = State.waiting
    private var tracker = MotionTracker()
    private var motion = FingerMotion()
    private var mostFingers = 0
    private var direction: SwipeDirection = .right
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .waiting
        tracker.reset()
        motion.reset()
        mostFingers = 0
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        let moved = tracker.update(input)
        motion.update(input.touches)
        let n = tracker.active
        let event: Event
        switch state {
        case .waiting:
            mostFingers = max(mostFingers, n)
            if let outside = Event.outside(n, minimum: p.fingers, maximum: p.fingers) {
                event = outside
            } else if motion.apart >= p.swipeBeginDistance
                        && (motion.apart >= 2 * motion.together.length
                            || motion.opposed(input.touches) >= p.swipeBeginDistance)
                        || (input.verdict == .apart && motion.apart > motion.together.length) {
                event = .spread(motion.apart, motion.together.length)
            } else if tracker.translationMM.length >= p.swipeBeginDistance
                        || (input.verdict == .together && tracker.translationMM.length >= 1) {
                event = .crossed(tracker.translationMM.length)
            } else {
                return .none
            }
        case .active:
            if n > p.fingers {
                event = .tooManyFingers(n)
            } else if n < p.fingers {
                event = .fingerLifted
            } else if moved {
                event = .moved
            } else {
                return .none
            }
        case .done:
            return .none
        }
        return step(event)
    }

    private mutating func step(_ event: Event) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.waiting, .tooFewFingers):
            tracker.restartTranslation()
        case (.waiting, .tooManyFingers(let n)):
            state = .done
            proposal = .fail(.tooManyFingers(n, p.fingers))
        case (.waiting, .crossed(let d)):
            let dir = Self.dominantDirection(tracker.translation)
            if !p.directions.contains(dir) {
                state = .done
                proposal = .fail(.wrongDirection(dir))
            } else if motion.together.length >= motion.apart {
                direction = dir
                state = .active
                proposal = .begin(.swipeBegan(p.fingers, d))
            }
        case (.waiting, .spread(let apart, let together)):
            state = .done
            proposal = .fail(.motionIsNot(.swipe, apart, together))
        case (.waiting, .allLifted):
            state = .done
            proposal = mostFingers < p.fingers
                ? .fail(.wrongFingers(mostFingers, p.fingers))
                : .fail(.notEnoughMovement(tracker.translationMM.length, p.swipeBeginDistance))
        case (.active, .moved):
            direction = Self.dominantDirection(tracker.translation)
            proposal = .change
        case (.active, .fingerLifted):
            state = .done
            proposal = .end
        case (.active, .tooManyFingers(let n)):
            state = .done
            proposal = .cancel(.tooManyFingers(n, p.fingers))
        case (.waiting, .moved), (.waiting, .fingerLifted), (.active, .tooFewFingers), (.active, .crossed),
             (.active, .spread),
             (.active, .allLifted), (.done, _):
            state = .done
            proposal = .bug(.noTransition("continuous swipe", from, event))
        }
        trace.record(.swipe, from, event, state)
        return proposal
    }

    /// The direction of the dominant axis of a translation (surface units, y down).
    static func dominantDirection(_ t: Point) -> SwipeDirection {
        abs(t.x) >= abs(t.y) ? (t.x > 0 ? .right : .left) : (t.y > 0 ? .down : .up)
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        tracker.describeSwipe(&event, fingers: p.fingers, direction: direction)
    }
}
