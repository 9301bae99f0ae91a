/// Long press: `fingers` fingers held `minimumPressDuration` without moving more than
/// `pressMovement`; `taps` counts the touch-downs including the press (1: a plain press, 2: a tap
/// then a press, like UILongPressGestureRecognizer.numberOfTapsRequired + 1); the prior taps follow
/// the tap's rules (`tapMovement`, `tapDuration`, `tapInterval`, `tapDistance`). Continuous: begins
/// from the timer, changes on movement, ends when a finger lifts. Every reason a long press fails is
/// in this file.
///
/// | from        | event        | to          | proposal / why                                       |
/// |-------------|--------------|-------------|------------------------------------------------------|
/// | idle        | fingerDown   | priorTap    | — (a tap comes first; deadline `tapDuration`)        |
/// | idle        | fingerDown   | pressing    | — (deadline `minimumPressDuration` once all are down) |
/// | priorTap    | fingerDown   | priorTap    | —                                                    |
/// | priorTap    | fingerDown   | done        | fail: more fingers than `fingers`                    |
/// | priorTap    | movedTooFar  | done        | fail: moved more than `tapMovement`                  |
/// | priorTap    | landingJump  | priorTap    | — (origin starts again)                              |
/// | priorTap    | fingerUp     | priorTap    | — (fingers still down)                               |
/// | priorTap    | fingerUp     | done        | fail: wrong finger count                             |
/// | priorTap    | fingerUp     | betweenTaps | — (deadline `tapInterval`)                           |
/// | priorTap    | timeout      | done        | fail: held longer than `tapDuration`                 |
/// | priorTap    | clicked      | done        | fail: a physical click                               |
/// | betweenTaps | fingerDown   | priorTap    | — (another prior tap)                                |
/// | betweenTaps | fingerDown   | pressing    | — (the press)                                        |
/// | betweenTaps | fingerDown   | done        | fail: farther than `tapDistance` from the last tap   |
/// | betweenTaps | timeout      | done        | fail: no press within `tapInterval`                  |
/// | pressing    | fingerDown   | pressing    | —                                                    |
/// | pressing    | fingerDown   | done        | fail: more fingers than `fingers`                    |
/// | pressing    | movedTooFar  | done        | fail: moved more than `pressMovement`                |
/// | pressing    | landingJump  | pressing    | — (origin starts again)                              |
/// | pressing    | fingerUp     | done        | fail: lifted before `minimumPressDuration`           |
/// | pressing    | timeout      | active      | begin                                                |
/// | pressing    | clicked      | done        | fail: a physical click is not a press                |
/// | active      | moved        | active      | change                                               |
/// | active      | fingerDown   | active      | — (an extra finger is ignored)                       |
/// | active      | landingJump  | active      | —                                                    |
/// | active      | clicked      | active      | —                                                    |
/// | active      | fingerUp     | done        | end                                                  |
///
/// A cancelled touch fails or cancels every recognizer holding it before any of them sees the frame
/// (the engine: "touch cancelled"). Any other pair is a bug (reported, and the press fails or is cancelled).
struct LongPressRecognizer: RecognizerLogic, FinishingMachine {
    enum State: Sendable, FinishingStates { case idle, priorTap, betweenTaps, pressing, active, done }
    typealias Event = TapFingers.Event

    let p: RecognizerParameters
    var trace = MachineTrace()
    /// Set only by the state machine (`step`, `finish`).
    var state = State.idle
    var deadline: Timestamp?
    private var pressStart = Timestamp.zero
    private var fingers = TapFingers()
    private var tracker = MotionTracker()

    init(_ p: RecognizerParameters) { self.p = p }

    /// Prior taps still to come before the press.
    private var pressIsNext: Bool { fingers.finished >= max(p.taps, 1) - 1 }
    private var allowance: Double { state == .priorTap ? p.tapMovement : p.pressMovement }

    mutating func reset() {
        state = .idle
        deadline = nil
        fingers.reset()
        tracker.reset()
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        let moved = tracker.update(input)
        guard published == .possible || published.isInProgress else { return .none }
        let touches = input.touches
        for i in touches.indices {  // by index: a touch is copied only into the event that needs it
            var event: Event?
            switch touches[i].phase {
            case .began: event = .fingerDown(touches[i])
            case .moved, .stationary:
                if touches[i].originRebased {
                    event = .landingJump(touches[i])
                } else if state == .active {
                    event = nil
                } else if let d = fingers.distanceMoved(touches[i]), d > allowance {
                    event = .movedTooFar(d)
                }
            case .ended: event = .fingerUp
            case .cancelled: event = nil  // the engine has failed or cancelled the press already
            }
            if let event {
                let proposal = step(event, at: input.time)
                if proposal != .none { return proposal }
            }
        }
        if input.clicked {
            let proposal = step(.clicked, at: input.time)
            if proposal != .none { return proposal }
        }
        if state == .active && moved { return step(.moved, at: input.time) }
        return .none
    }

    mutating func step(_ event: Event, at time: Timestamp) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.idle, .fingerDown(let t)), (.betweenTaps, .fingerDown(let t)):
            if let tooFar = fingers.startTap(t, afterTap: state == .betweenTaps, limit: p.tapDistance, at: time) {
                proposal = finish(.fail(tooFar))
                break
            }
            if pressIsNext {
                state = .pressing
                deadline = nil
            } else {
                state = .priorTap
                deadline = time.adding(milliseconds: p.tapDuration)
            }
            proposal = addFinger(t, at: time)
        case (.priorTap, .fingerDown(let t)), (.pressing, .fingerDown(let t)):
            proposal = addFinger(t, at: time)
        case (.priorTap, .movedTooFar(let d)), (.pressing, .movedTooFar(let d)):
            proposal = finish(.fail(.movedTooFar(d, from == .priorTap ? p.tapMovement : p.pressMovement)))
        case (.priorTap, .landingJump(let t)), (.pressing, .landingJump(let t)):
            fingers.rebase(t)
        case (.priorTap, .fingerUp):
            switch fingers.lift(needing: p.fingers) {
            case .stillDown: break
            case .wrongFingers(let most): proposal = finish(.fail(.wrongFingers(most, p.fingers)))
            case .tapped:
                state = .betweenTaps
                deadline = time.adding(milliseconds: p.tapInterval)
            }
        case (.priorTap, .timeout):
            proposal = finish(.fail(fingers.heldTooLong(at: time, limit: p.tapDuration)))
        case (.betweenTaps, .timeout):
            proposal = finish(.fail(.nextTapTooLate(p.tapInterval)))
        case (.pressing, .fingerUp):
            let since = fingers.mostFingers == p.fingers ? pressStart : fingers.started
            proposal = finish(.fail(.liftedEarly(time.milliseconds(since: since), p.minimumPressDuration)))
        case (.pressing, .timeout):
            state = .active
            deadline = nil
            proposal = .begin(.held(time.milliseconds(since: pressStart)))
        case (.priorTap, .clicked), (.pressing, .clicked):
            proposal = finish(.fail(.physicalClick))
        case (.active, .moved):
            proposal = .change
        case (.active, .fingerDown), (.active, .landingJump), (.active, .clicked):
            break
        case (.active, .fingerUp):
            state = .done
            proposal = .end
        case (.idle, .movedTooFar), (.idle, .moved), (.idle, .landingJump), (.idle, .fingerUp), (.idle, .timeout),
             (.idle, .clicked),
             (.priorTap, .moved), (.pressing, .moved),
             (.betweenTaps, .movedTooFar), (.betweenTaps, .moved), (.betweenTaps, .landingJump),
             (.betweenTaps, .fingerUp), (.betweenTaps, .clicked),
             (.active, .movedTooFar), (.active, .timeout),
             (.done, _):
            proposal = finish(.bug(.noTransition("long-press", state, event)))
        }
        trace.record(.longPress, from, event, state)
        return proposal
    }

    private mutating func addFinger(_ t: Touch, at time: Timestamp) -> Proposal {
        if let tooMany = fingers.add(t, needing: p.fingers) { return finish(.fail(tooMany)) }
        if state == .pressing && fingers.down == p.fingers {
            pressStart = time
            deadline = time.adding(milliseconds: p.minimumPressDuration)
        }
        return .none
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = p.fingers
        event.location = tracker.location
        event.translation = tracker.translation
    }
}
