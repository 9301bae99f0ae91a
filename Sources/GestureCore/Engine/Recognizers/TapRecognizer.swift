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
    private var tapsDone = 0
    private var inTap = false
    private var tapStart = Timestamp.zero
    private var down = 0
    private var maxFingers = 0
    private var startIDs: [TouchID] = []
    private var startPoints: [Point] = []
    private var startLocations: [Point] = []
    private var lastTapCenter = Point.zero
    private var location = Point.zero
    private(set) var deadline: Timestamp?

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        tapsDone = 0
        inTap = false
        down = 0
        maxFingers = 0
        startIDs.removeAll(keepingCapacity: true)
        startPoints.removeAll(keepingCapacity: true)
        startLocations.removeAll(keepingCapacity: true)
        deadline = nil
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        guard state == .possible else { return .none }
        var anyLift = false
        for t in input.touches {
            switch t.phase {
            case .began:
                if !inTap {
                    if tapsDone > 0 {
                        let d = t.physicalLocation.distance(to: lastTapCenter)
                        if d > p.tapDistance { return .fail(.nextTapTooFar(d, p.tapDistance)) }
                    }
                    inTap = true
                    tapStart = input.time
                    down = 0
                    maxFingers = 0
                    startIDs.removeAll(keepingCapacity: true)
                    startPoints.removeAll(keepingCapacity: true)
                    startLocations.removeAll(keepingCapacity: true)
                    deadline = input.time.adding(milliseconds: p.tapDuration)
                }
                startIDs.append(t.id)
                startPoints.append(t.physicalLocation)
                startLocations.append(t.location)
                down += 1
                maxFingers = max(maxFingers, down)
                if down > p.fingers { return .fail(.tooManyFingers(down, p.fingers)) }
            case .moved, .stationary, .ended:
                if let k = startIDs.firstIndex(of: t.id) {
                    let d = t.physicalLocation.distance(to: startPoints[k])
                    if d > p.tapMovement { return .fail(.movedTooFar(d, p.tapMovement)) }
                }
                if t.phase == .ended {
                    down -= 1
                    anyLift = true
                }
            case .cancelled:
                return .fail(.touchCancelled)
            }
        }
        guard inTap, anyLift, down <= 0 else { return .none }
        inTap = false
        if maxFingers != p.fingers { return .fail(.wrongFingers(maxFingers, p.fingers)) }
        tapsDone += 1
        lastTapCenter = Point.centroid(of: startPoints)
        location = Point.centroid(of: startLocations)
        if tapsDone >= p.taps {
            deadline = nil
            return .recognize(.tapsCompleted(tapsDone))
        }
        deadline = input.time.adding(milliseconds: p.tapInterval)
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal {
        deadline = nil
        if inTap { return .fail(.heldTooLong(time.milliseconds(since: tapStart), p.tapDuration)) }
        return .fail(.nextTapTooLate(p.tapInterval))
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = p.fingers
        event.taps = p.taps
        event.location = location
    }
}
