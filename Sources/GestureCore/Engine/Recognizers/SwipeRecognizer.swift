/// Swipe: `fingers` fingers moving `minimumDistance` mm within `maximumDuration` ms of the first
/// finger down, within `angleTolerance` degrees of an axis, in one of `directions`. Discrete:
/// recognizes during the move, as soon as the distance is reached.
///
/// | input                                      | proposal                      |
/// |--------------------------------------------|-------------------------------|
/// | more than `fingers` fingers                | fail (too many fingers)       |
/// | deadline / a frame after `maximumDuration` | fail (too slow)               |
/// | distance reached, off axis                 | fail (wrong direction: angle) |
/// | distance reached, direction not configured | fail (wrong direction)        |
/// | distance reached, configured direction     | recognize                     |
/// | every finger lifted before the distance    | fail (not enough movement)    |
struct SwipeRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var tracker = MotionTracker()
    private var started = false
    private var start = Timestamp.zero
    private var maxSeen = 0
    private var direction: SwipeDirection = .right
    private(set) var deadline: Timestamp?

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        tracker.reset()
        started = false
        maxSeen = 0
        deadline = nil
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        guard state == .possible else { return .none }
        if !started {
            started = true
            start = input.time
            deadline = input.time.adding(milliseconds: p.maximumDuration)
        }
        tracker.update(input)
        let n = tracker.active
        maxSeen = max(maxSeen, n)
        if n > p.fingers { return .fail(.tooManyFingers(n, p.fingers)) }
        let elapsed = input.time.milliseconds(since: start)
        if elapsed > p.maximumDuration { return .fail(.tooSlow(elapsed, p.maximumDuration)) }
        if maxSeen < p.fingers {
            if n == 0 { return .fail(.wrongFingers(maxSeen, p.fingers)) }
            tracker.translation = .zero
            tracker.translationMM = .zero
            return .none
        }
        let t = tracker.translationMM
        let d = t.length
        if d >= p.minimumDistance {
            let horizontal = abs(t.x) >= abs(t.y)
            let dir: SwipeDirection = horizontal ? (t.x > 0 ? .right : .left) : (t.y > 0 ? .down : .up)
            let off = Geometry.atan2(horizontal ? abs(t.y) : abs(t.x), horizontal ? abs(t.x) : abs(t.y))
                * Geometry.degreesPerRadian
            if off > p.angleTolerance { return .fail(.offAxis(off, p.angleTolerance)) }
            if !p.directions.contains(dir) { return .fail(.wrongDirection(dir)) }
            direction = dir
            deadline = nil
            return .recognize(.swiped(dir, d))
        }
        if n == 0 { return .fail(.notEnoughMovement(d, p.minimumDistance)) }
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal {
        deadline = nil
        return .fail(.timedOut(p.maximumDuration))
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = max(maxSeen, 1)
        event.direction = direction
        event.location = tracker.location
        event.translation = tracker.translation
        event.velocity = tracker.ring.velocity
    }
}
