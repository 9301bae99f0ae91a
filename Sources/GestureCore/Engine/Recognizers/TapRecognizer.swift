/// Tap: `taps` taps of `fingers` fingers. Each tap: every finger down and up within `tapDuration`,
/// none moving more than `tapMovement`; the next tap starts within `tapInterval` of the last lift and
/// within `tapDistance` of the previous tap. Discrete: recognizes at the last tap's lift.
///
/// | logic phase        | input                                  | proposal                  |
/// |--------------------|----------------------------------------|---------------------------|
/// | between taps       | finger down (near, in time)            | — (tap starts, deadline)  |
/// | in tap             | more fingers than `fingers`            | fail (too many fingers)   |
/// | in tap             | a finger moved > `tapMovement`         | fail (moved too far)      |
/// | in tap             | deadline (held > `tapDuration`)        | fail (held too long)      |
/// | in tap             | last finger up, wrong finger count     | fail (wrong fingers)      |
/// | in tap             | last finger up, last tap               | recognize                 |
/// | in tap             | last finger up, more taps needed       | — (deadline `tapInterval`)|
/// | between taps       | deadline                               | fail (too slow)           |
/// | between taps       | next finger down too far               | fail (next tap too far)   |
struct TapRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var taps = TapSequence()
    var deadline: Timestamp? { taps.deadline }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() { taps.reset() }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        guard state == .possible else { return .none }
        taps.startFrame()
        for t in input.touches {
            if let failure = taps.track(t, at: input.time, p, timed: true, allowed: p.tapMovement) {
                return failure
            }
        }
        guard taps.inTap, taps.lifted, taps.down <= 0 else { return .none }
        if let failure = taps.finishTap(at: input.time, p) { return failure }
        if taps.count >= p.taps {
            taps.deadline = nil
            return .recognize(.tapsCompleted(taps.count))
        }
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal {
        taps.expire(at: time, p)
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = p.fingers
        event.taps = p.taps
        event.location = taps.lastTapLocation
    }
}
