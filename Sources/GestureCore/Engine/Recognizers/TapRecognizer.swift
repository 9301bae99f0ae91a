/// Tap: `taps` taps of `fingers` fingers. Each tap: every finger down and up within `tapDuration`,
/// none moving more than `tapMovement` from where it landed; the next tap starts within `tapInterval`
/// of the last lift and within `tapDistance` of the previous tap. Discrete: recognizes at the last
/// tap's lift. Every reason a tap fails is in this file.
///
/// | from        | event        | to          | proposal / why                                   |
/// |-------------|--------------|-------------|--------------------------------------------------|
/// | idle        | fingerDown   | touching    | — (deadline `tapDuration`)                       |
/// | touching    | fingerDown   | touching    | — (another finger of this tap)                   |
/// | touching    | fingerDown   | done        | fail: more fingers than `fingers`                |
/// | touching    | movedTooFar  | done        | fail: a finger moved more than `tapMovement`     |
/// | touching    | landingJump  | touching    | — (the finger's origin starts again)             |
/// | touching    | fingerUp     | touching    | — (fingers still down)                           |
/// | touching    | fingerUp     | done        | fail: wrong finger count / recognize: last tap   |
/// | touching    | fingerUp     | betweenTaps | — (a tap done, more needed; deadline `tapInterval`) |
/// | touching    | timeout      | done        | fail: held longer than `tapDuration`             |
/// | touching    | clicked      | done        | fail: a physical click is not a tap              |
/// | betweenTaps | fingerDown   | touching    | — (next tap, near enough)                        |
/// | betweenTaps | fingerDown   | done        | fail: next tap farther than `tapDistance`        |
/// | betweenTaps | timeout      | done        | fail: no next tap within `tapInterval`           |
///
/// A cancelled touch fails every recognizer holding it before any of them sees the frame (the
/// engine: "touch cancelled"). Any other pair is a bug (reported, and the tap fails).
struct TapRecognizer: RecognizerLogic, FinishingMachine {
    enum State: Sendable, FinishingStates { case idle, touching, betweenTaps, done }
    typealias Event = TapFingers.Event

    let p: RecognizerParameters
    var trace = MachineTrace()
    /// Set only by the state machine (`step`, `finish`).
    var state = State.idle
    var deadline: Timestamp?
    private var fingers = TapFingers()

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .idle
        deadline = nil
        fingers.reset()
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible else { return .none }
        let touches = input.touches
        for i in touches.indices {  // by index: a touch is copied only into the event that needs it
            let proposal: Proposal
            switch touches[i].phase {
            case .began: proposal = step(.fingerDown(touches[i]), at: input.time)
            case .moved, .stationary:
                guard let d = fingers.distanceMoved(touches[i]) else { continue }
                if touches[i].originRebased {
                    proposal = step(.landingJump(touches[i]), at: input.time)
                } else {
                    guard d > p.tapMovement else { continue }
                    proposal = step(.movedTooFar(d), at: input.time)
                }
            case .ended:
                if let d = fingers.distanceMoved(touches[i]), d > p.tapMovement {
                    proposal = step(.movedTooFar(d), at: input.time)
                } else {
                    proposal = step(.fingerUp, at: input.time)
                }
            case .cancelled: continue  // the engine has failed the tap already
            }
            if proposal != .none { return proposal }
        }
        if input.clicked { return step(.clicked, at: input.time) }
        return .none
    }

    /// The state machine: the table above, one case per row.
    mutating func step(_ event: Event, at time: Timestamp) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.idle, .fingerDown(let t)), (.betweenTaps, .fingerDown(let t)):
            if let tooFar = fingers.startTap(t, afterTap: state == .betweenTaps, limit: p.tapDistance, at: time) {
                proposal = finish(.fail(tooFar))
                break
            }
            state = .touching
            deadline = time.adding(milliseconds: p.tapDuration)
            proposal = addFinger(t)
        case (.touching, .fingerDown(let t)):
            proposal = addFinger(t)
        case (.touching, .movedTooFar(let d)):
            proposal = finish(.fail(.movedTooFar(d, p.tapMovement)))
        case (.touching, .landingJump(let t)):
            fingers.rebase(t)
        case (.touching, .fingerUp):
            switch fingers.lift(needing: p.fingers) {
            case .stillDown: break
            case .wrongFingers(let most): proposal = finish(.fail(.wrongFingers(most, p.fingers)))
            case .tapped: proposal = tapped(at: time)
            }
        case (.touching, .timeout):
            proposal = finish(.fail(fingers.heldTooLong(at: time, limit: p.tapDuration)))
        case (.betweenTaps, .timeout):
            proposal = finish(.fail(.nextTapTooLate(p.tapInterval)))
        case (.touching, .clicked):
            proposal = finish(.fail(.physicalClick))
        case (.idle, .movedTooFar), (.idle, .landingJump), (.idle, .fingerUp), (.idle, .timeout),
             (.idle, .clicked), (.idle, .moved), (.touching, .moved),
             (.betweenTaps, .movedTooFar), (.betweenTaps, .landingJump), (.betweenTaps, .fingerUp),
             (.betweenTaps, .clicked), (.betweenTaps, .moved),
             (.done, _):
            proposal = finish(.bug(.noTransition("tap", state, event)))
        }
        trace.record(.tap, from, event, state)
        return proposal
    }

    private mutating func addFinger(_ t: Touch) -> Proposal {
        guard let tooMany = fingers.add(t, needing: p.fingers) else { return .none }
        return finish(.fail(tooMany))
    }

    /// A tap finished: the last one recognizes, another waits `tapInterval` for the next.
    private mutating func tapped(at time: Timestamp) -> Proposal {
        if fingers.finished >= p.taps { return finish(.recognize(.tapsCompleted(fingers.finished))) }
        state = .betweenTaps
        deadline = time.adding(milliseconds: p.tapInterval)
        return .none
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = p.fingers
        event.taps = p.taps
        event.location = fingers.lastTapLocation
    }
}
