/// The fingers of one tap, shared by the tap and the long press (its prior taps and its press): where
/// each finger landed, how many are down, the most that were down at once, and where the last
/// finished tap was, and the events both machines read from them. The recognizers keep their own
/// state machines (their states and tables); this is the bookkeeping both do the same way.
struct TapFingers: Sendable {
    /// What the fingers of a tap or a press do.
    enum Event: Sendable, TimeoutEvents {
        case fingerDown(Touch)
        case movedTooFar(Double)
        /// Once a press has begun, the fingers moved (the long press's change).
        case moved
        case landingJump(Touch)
        case fingerUp
        case timeout
        case clicked
    }

    /// The current tap's fingers: id, where it landed (mm, surface units).
    private var starts: [(id: TouchID, mm: Point, location: Point)] = []
    /// Fingers of this tap still down.
    private(set) var down = 0
    /// The most fingers of this tap down at once.
    private(set) var mostFingers = 0
    /// The centroid of the last finished tap where its fingers landed (mm, surface units).
    private(set) var lastTapCenter = Point.zero
    private(set) var lastTapLocation = Point.zero
    /// When the current tap started (its first finger landed), and how many taps finished.
    private(set) var started = Timestamp.zero
    private(set) var finished = 0

    /// No tap yet.
    mutating func reset() {
        finished = 0
        startTap()
    }

    /// A new tap: no finger down yet (the last finished tap is kept: the next tap is measured from it).
    mutating func startTap() {
        down = 0
        mostFingers = 0
        starts.clearKeepingCapacity()
    }

    /// A finger of this tap lands. Returns why the tap fails when more than `fingers` are now down.
    mutating func add(_ t: Touch, needing fingers: Int) -> Reason? {
        starts.append((t.id, t.physicalLocation, t.location))
        down += 1
        mostFingers = max(mostFingers, down)
        return down > fingers ? .tooManyFingers(down, fingers) : nil
    }

    /// How far (mm) a finger of this tap is from where it landed; nil when it is not one of this tap's.
    @inline(__always)
    func distanceMoved(_ t: Touch) -> Double? {
        guard let k = starts.firstIndex(where: { $0.id == t.id }) else { return nil }
        return t.physicalLocation.distance(to: starts[k].mm)
    }

    /// A finger's origin starts again (a landing jump): it is measured from here on.
    mutating func rebase(_ t: Touch) {
        if let k = starts.firstIndex(where: { $0.id == t.id }) { starts[k].mm = t.physicalLocation }
    }

    /// The first finger of a tap lands (`afterTap`: of the tap after a finished one). Returns why the
    /// tap fails when it lands farther than `limit` mm from the last tap; else the tap starts (with no
    /// finger down yet: `add` it).
    mutating func startTap(_ t: Touch, afterTap: Bool, limit: Double, at time: Timestamp) -> Reason? {
        if afterTap {
            let d = t.physicalLocation.distance(to: lastTapCenter)
            if d > limit { return .nextTapTooFar(d, limit) }
        }
        startTap()
        started = time
        return nil
    }

    /// Why the tap fails when its deadline passes with a finger still down (`limit`: `tapDuration`).
    func heldTooLong(at time: Timestamp, limit: Double) -> Reason {
        .heldTooLong(time.milliseconds(since: started), limit)
    }

    /// What a finger lifting means for the tap.
    enum Lift: Sendable, Equatable {
        /// Fingers of the tap are still down.
        case stillDown
        /// Every finger lifted, but the most down at once was not `fingers`.
        case wrongFingers(Int)
        /// Every finger lifted after `fingers` were down: a tap (the last tap is now this one, and
        /// `finished` counts it).
        case tapped
    }

    /// A finger of this tap lifts; `fingers` is how many a tap needs.
    mutating func lift(needing fingers: Int) -> Lift {
        down -= 1
        guard down <= 0 else { return .stillDown }
        guard mostFingers == fingers else { return .wrongFingers(mostFingers) }
        lastTapCenter = Point.centroid(of: starts.map(\.mm))
        lastTapLocation = Point.centroid(of: starts.map(\.location))
        finished += 1
        return .tapped
    }
}
