/// Long press: `fingers` fingers held `minimumPressDuration` without moving more than
/// `pressMovement`; `taps` counts the touch-downs including the press (1: a plain press, 2: a tap
/// then a press, like UILongPressGestureRecognizer.numberOfTapsRequired + 1). Continuous: begins from
/// the timer, changes on movement, ends when a finger lifts.
///
/// | logic phase | input                                   | proposal                 |
/// |-------------|-----------------------------------------|--------------------------|
/// | prior tap   | as a tap (moved / held / too slow / far) | fail                    |
/// | press       | moved > `pressMovement`                 | fail (moved too far)     |
/// | press       | a finger lifted before the deadline     | fail (lifted early)      |
/// | press       | deadline with `fingers` down            | begin                    |
/// | began       | movement                                | change                   |
/// | began       | a finger lifted                         | end                      |
struct LongPressRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var priorTaps = 0
    private var inContact = false
    private var contactStart = Timestamp.zero
    private var pressStart = Timestamp.zero
    private var down = 0
    private var maxFingers = 0
    private var startIDs: [TouchID] = []
    private var startPoints: [Point] = []
    private var lastCenter = Point.zero
    private var tracker = MotionTracker()
    private(set) var deadline: Timestamp?

    init(_ p: RecognizerParameters) { self.p = p }

    private var isPressPhase: Bool { priorTaps >= max(p.taps, 1) - 1 }

    mutating func reset() {
        priorTaps = 0
        inContact = false
        down = 0
        maxFingers = 0
        startIDs.removeAll(keepingCapacity: true)
        startPoints.removeAll(keepingCapacity: true)
        tracker.reset()
        deadline = nil
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        let moved = tracker.update(input)
        if state.isInProgress {
            for t in input.touches where t.phase.isTerminal { return .end }
            return moved ? .change : .none
        }
        guard state == .possible else { return .none }
        var anyLift = false
        for t in input.touches {
            switch t.phase {
            case .began:
                if !inContact {
                    if priorTaps > 0 {
                        let d = t.physicalLocation.distance(to: lastCenter)
                        if d > p.tapDistance { return .fail(.nextTapTooFar(d, p.tapDistance)) }
                    }
                    inContact = true
                    contactStart = input.time
                    down = 0
                    maxFingers = 0
                    startIDs.removeAll(keepingCapacity: true)
                    startPoints.removeAll(keepingCapacity: true)
                    deadline = isPressPhase ? nil : input.time.adding(milliseconds: p.tapDuration)
                }
                startIDs.append(t.id)
                startPoints.append(t.physicalLocation)
                down += 1
                maxFingers = max(maxFingers, down)
                if down > p.fingers { return .fail(.tooManyFingers(down, p.fingers)) }
                if isPressPhase && down == p.fingers {
                    pressStart = input.time
                    deadline = input.time.adding(milliseconds: p.minimumPressDuration)
                }
            case .moved, .stationary, .ended:
                if let k = startIDs.firstIndex(of: t.id) {
                    let allowed = isPressPhase ? p.pressMovement : p.tapMovement
                    let d = t.physicalLocation.distance(to: startPoints[k])
                    if d > allowed { return .fail(.movedTooFar(d, allowed)) }
                }
                if t.phase == .ended {
                    down -= 1
                    anyLift = true
                }
            case .cancelled:
                return .fail(.touchCancelled)
            }
        }
        guard anyLift else { return .none }
        if isPressPhase {
            return .fail(.liftedEarly(input.time.milliseconds(since: maxFingers == p.fingers ? pressStart : contactStart),
                                      p.minimumPressDuration))
        }
        guard down <= 0 else { return .none }
        inContact = false
        if maxFingers != p.fingers { return .fail(.wrongFingers(maxFingers, p.fingers)) }
        priorTaps += 1
        lastCenter = Point.centroid(of: startPoints)
        deadline = input.time.adding(milliseconds: p.tapInterval)
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal {
        deadline = nil
        if isPressPhase && inContact && down == p.fingers {
            return .begin(.held(time.milliseconds(since: pressStart)))
        }
        if inContact { return .fail(.heldTooLong(time.milliseconds(since: contactStart), p.tapDuration)) }
        return .fail(.nextTapTooLate(p.tapInterval))
    }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = p.fingers
        event.location = tracker.location
        event.translation = tracker.translation
    }
}
