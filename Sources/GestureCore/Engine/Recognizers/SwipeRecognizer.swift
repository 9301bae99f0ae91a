/// Swipe: `fingers` fingers moving `minimumDistance` mm within `maximumDuration` ms of the first
/// finger down, within `angleTolerance` degrees of an axis, in one of `directions`. Discrete:
/// recognizes during the move, as soon as the distance is reached. Every reason a swipe fails is in
/// this file.
///
/// | from     | event          | to       | proposal / why                                         |
/// |----------|----------------|----------|--------------------------------------------------------|
/// | idle     | fingers        | tracking | — (deadline `maximumDuration`)                         |
/// | tracking | fingers        | tracking | — (not all fingers yet: distance restarts)             |
/// | tracking | tooManyFingers | done     | fail: more than `fingers`                              |
/// | tracking | timeout        | done     | fail: not done within `maximumDuration`                |
/// | tracking | reached        | done     | recognize / fail: off axis, or not a configured direction |
/// | tracking | allLifted      | done     | fail: too few fingers / not enough movement            |
///
/// (A frame later than `maximumDuration` never reaches the swipe: its deadline fires first.)
/// Any other pair is a bug (reported, and the swipe fails).
struct SwipeRecognizer: RecognizerLogic, FinishingMachine {
    enum State: Sendable, FinishingStates { case idle, tracking, done }
    enum Event: Sendable, TimeoutEvents {
        case fingers(Int)
        case tooManyFingers(Int)
        case timeout
        case reached(Point)
        case allLifted
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    /// Set only by the state machine (`step`, `finish`).
    var state = State.idle
    private var tracker = MotionTracker()
    private var start = Timestamp.zero
    private var mostFingers = 0
    private var direction: SwipeDirection = .right
    var deadline: Timestamp?

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .idle
        tracker.reset()
        mostFingers = 0
        deadline = nil
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible else { return .none }
        if state == .idle { start = input.time }
        tracker.update(input)
        let n = tracker.active
        mostFingers = max(mostFingers, n)
        let event: Event
        if state == .idle {
            event = .fingers(n)
        } else if n > p.fingers {
            event = .tooManyFingers(n)
        } else if mostFingers < p.fingers {
            event = n == 0 ? .allLifted : .fingers(n)
        } else if tracker.translationMM.length >= p.minimumDistance {
            event = .reached(tracker.translationMM)
        } else if n == 0 {
            event = .allLifted
        } else {
            return .none
        }
        let proposal = step(event, at: input.time)
        // The first frame may already carry every finger (and too many of them).
        if state == .tracking, case .fingers = event, n > p.fingers { return step(.tooManyFingers(n), at: input.time) }
        return proposal
    }

    mutating func step(_ event: Event, at time: Timestamp) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.idle, .fingers):
            state = .tracking
            deadline = start.adding(milliseconds: p.maximumDuration)
            if mostFingers < p.fingers {
                tracker.restartTranslation()
            }
        case (.tracking, .fingers):
            tracker.restartTranslation()
        case (.tracking, .tooManyFingers(let n)):
            proposal = finish(.fail(.tooManyFingers(n, p.fingers)))
        case (.tracking, .timeout):
            proposal = finish(.fail(.timedOut(p.maximumDuration)))
        case (.tracking, .reached(let t)):
            let horizontal = abs(t.x) >= abs(t.y)
            let dir: SwipeDirection = horizontal ? (t.x > 0 ? .right : .left) : (t.y > 0 ? .down : .up)
            let off = Geometry.atan2(horizontal ? abs(t.y) : abs(t.x), horizontal ? abs(t.x) : abs(t.y))
                * Geometry.degreesPerRadian
            if off > p.angleTolerance {
                proposal = finish(.fail(.offAxis(off, p.angleTolerance)))
            } else if !p.directions.contains(dir) {
                proposal = finish(.fail(.wrongDirection(dir)))
            } else {
                direction = dir
                proposal = finish(.recognize(.swiped(dir, t.length)))
            }
        case (.tracking, .allLifted):
            proposal = mostFingers < p.fingers
                ? finish(.fail(.wrongFingers(mostFingers, p.fingers)))
                : finish(.fail(.notEnoughMovement(tracker.translationMM.length, p.minimumDistance)))
        case (.idle, .tooManyFingers), (.idle, .timeout), (.idle, .reached), (.idle, .allLifted),
             (.done, _):
            proposal = finish(.bug(.noTransition("swipe", from, event)))
        }
        trace.record(.swipe, from, event, state)
        return proposal
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        tracker.describeSwipe(&event, fingers: p.fingers, direction: direction)
    }
}
