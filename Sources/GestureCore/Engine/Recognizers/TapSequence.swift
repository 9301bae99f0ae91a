/// A sequence of taps of `fingers` fingers, shared by tap and long press: counts the finished taps;
/// each tap starts with a finger down within `tapDistance` of the previous tap's centre, counts its
/// fingers, fails on a finger moving more than the allowance from where it went down, and finishes
/// when its last finger lifts with exactly `fingers` fingers used; the next tap is due within
/// `tapInterval` of that lift. The owner feeds it every touch while possible, decides what a lift or
/// a finished tap means, and may replace `deadline` with its own timer.
///
/// | phase        | input                                       | result                                 |
/// |--------------|---------------------------------------------|----------------------------------------|
/// | between taps | finger down too far (`tapDistance`)         | fail (next tap too far)                |
/// | between taps | finger down                                 | tap starts (deadline `tapDuration`?)   |
/// | in tap       | more fingers than `fingers`                 | fail (too many fingers)                |
/// | in tap       | a finger moved more than the allowance      | fail (moved too far)                   |
/// | any          | a touch cancelled                           | fail (touch cancelled)                 |
/// | in tap       | `finishTap`, wrong finger count             | fail (wrong fingers)                   |
/// | in tap       | `finishTap`                                 | count + 1, deadline `tapInterval`      |
/// | in tap       | `expire` (held > `tapDuration`)             | fail (held too long)                   |
/// | between taps | `expire`                                    | fail (too slow)                        |
struct TapSequence: Sendable {
    /// Taps finished.
    private(set) var count = 0
    private(set) var inTap = false
    /// When the current (or last) tap's first finger went down.
    private(set) var tapStart = Timestamp.zero
    /// Fingers of the current tap still down.
    private(set) var down = 0
    /// Most fingers down at once in the current tap.
    private(set) var maxFingers = 0
    /// Whether a finger lifted in the frame being fed (cleared by `startFrame`).
    private(set) var lifted = false
    /// Centroid of the last finished tap's start points, mm.
    private(set) var lastTapCenter = Point.zero
    /// Centroid of the last finished tap's start points, surface units.
    private(set) var lastTapLocation = Point.zero
    private var startIDs: [TouchID] = []
    private var startPoints: [Point] = []
    private var startLocations: [Point] = []
    var deadline: Timestamp?

    mutating func reset() {
        count = 0
        inTap = false
        clearFingers()
        deadline = nil
    }

    private mutating func clearFingers() {
        down = 0
        maxFingers = 0
        startIDs.removeAll(keepingCapacity: true)
        startPoints.removeAll(keepingCapacity: true)
        startLocations.removeAll(keepingCapacity: true)
    }

    mutating func startFrame() { lifted = false }

    /// Feeds one touch of the frame at `time`. `timed`: a starting tap gets the `tapDuration`
    /// deadline (otherwise none); `allowed`: the movement allowed from where a finger went down, mm.
    /// Returns the failure, if any.
    mutating func track(_ t: Touch, at time: Timestamp, _ p: RecognizerParameters,
                        timed: Bool, allowed: Double) -> Proposal? {
        switch t.phase {
        case .began:
            if !inTap {
                if count > 0 {
                    let d = t.physicalLocation.distance(to: lastTapCenter)
                    if d > p.tapDistance { return .fail(.nextTapTooFar(d, p.tapDistance)) }
                }
                inTap = true
                tapStart = time
                clearFingers()
                deadline = timed ? time.adding(milliseconds: p.tapDuration) : nil
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
                if d > allowed { return .fail(.movedTooFar(d, allowed)) }
            }
            if t.phase == .ended {
                down -= 1
                lifted = true
            }
        case .cancelled:
            return .fail(.touchCancelled)
        }
        return nil
    }

    /// Ends the current tap (its last finger lifted at `time`): fails on the wrong finger count,
    /// otherwise counts it and sets the `tapInterval` deadline for the next one.
    mutating func finishTap(at time: Timestamp, _ p: RecognizerParameters) -> Proposal? {
        inTap = false
        if maxFingers != p.fingers { return .fail(.wrongFingers(maxFingers, p.fingers)) }
        count += 1
        lastTapCenter = Point.centroid(of: startPoints)
        lastTapLocation = Point.centroid(of: startLocations)
        deadline = time.adding(milliseconds: p.tapInterval)
        return nil
    }

    /// The deadline passed at `time`: a tap held too long, or the next tap too late.
    mutating func expire(at time: Timestamp, _ p: RecognizerParameters) -> Proposal {
        deadline = nil
        if inTap { return .fail(.heldTooLong(time.milliseconds(since: tapStart), p.tapDuration)) }
        return .fail(.nextTapTooLate(p.tapInterval))
    }
}
