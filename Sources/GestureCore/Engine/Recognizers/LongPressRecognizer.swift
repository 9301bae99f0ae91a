/// Long press: `fingers` fingers held `minimumPressDuration` without moving more than
/// `pressMovement`; `taps` counts the touch-downs including the press (1: a plain press, 2: a tap
/// then a press, like UILongPressGestureRecognizer.numberOfTapsRequired + 1). Continuous: begins from
/// the timer, changes on movement, ends when a finger lifts.
///
/// | logic phase | input                                   | proposal                 |
/// |-------------|-----------------------------------------|--------------------------|
/// | prior tap   | as a tap (`TapSequence`)                | fail                     |
/// | press       | moved > `pressMovement`                 | fail (moved too far)     |
/// | press       | a finger lifted before the deadline     | fail (lifted early)      |
/// | press       | deadline with `fingers` down            | begin                    |
/// | began       | movement                                | change                   |
/// | began       | a finger lifted                         | end                      |
struct LongPressRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    /// The prior taps, then the press as the sequence's last contact (untimed, `pressMovement`).
    private var taps = TapSequence()
    private var pressStart = Timestamp.zero
    private var tracker = MotionTracker()
    var deadline: Timestamp? { taps.deadline }

    init(_ p: RecognizerParameters) { self.p = p }

    private var isPressPhase: Bool { taps.count >= max(p.taps, 1) - 1 }

    mutating func reset() {
        taps.reset()
        tracker.reset()
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        let moved = tracker.update(input)
        if state.isInProgress {
            for t in input.touches where t.phase.isTerminal { return .end }
            return moved ? .change : .none
        }
        guard state == .possible else { return .none }
        let press = isPressPhase
        let allowed = press ? p.pressMovement : p.tapMovement
        taps.startFrame()
        for t in input.touches {
            if let failure = taps.track(t, at: input.time, p, timed: !press, allowed: allowed) {
                return failure
            }
            if press && t.phase == .began && taps.down == p.fingers {
                pressStart = input.time
                taps.deadline = input.time.adding(milliseconds: p.minimumPressDuration)
            }
        }
        guard taps.lifted else { return .none }
        if press {
            return .fail(.liftedEarly(input.time.milliseconds(since: taps.maxFingers == p.fingers ? pressStart : taps.tapStart),
                                      p.minimumPressDuration))
        }
        guard taps.down <= 0 else { return .none }
        return taps.finishTap(at: input.time, p) ?? .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal {
        if isPressPhase && taps.inTap && taps.down == p.fingers {
            taps.deadline = nil
            return .begin(.held(time.milliseconds(since: pressStart)))
        }
        return taps.expire(at: time, p)
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = p.fingers
        event.location = tracker.location
        event.translation = tracker.translation
    }
}
