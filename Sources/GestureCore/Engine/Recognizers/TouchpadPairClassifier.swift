/// How libinput decides a touchpad's gesture (docs/recognizers.md, "Touchpads"): it follows two of
/// the fingers (both of a pair; of three or four, the highest and the lowest on the pad) from where
/// they were when the finger count last changed, and decides as soon as both have moved a little:
/// the same way (their directions in the same or neighbouring 45° sectors) is a scroll or swipe,
/// other ways a pinch. The little is 1.5 mm for two fingers, 2 mm for three, 2.5 mm for four. One
/// finger alone is the pointer once it moved 1.3 mm (libinput's pointer moves at once; its tap gives
/// up at 1.3 mm, and here a pan that begins excludes the tap).
///
/// libinput also decides when one finger moves 4 mm while the other stays (a resting thumb, or a
/// "one-finger scroll") and when a pair close together is still undecided after 150 ms (a scroll).
/// The engine takes the one-finger scroll only where it cannot be a turn or a zoom (`leadsAlongLine`):
/// the leading finger moves along the pair's line and the other has started after it (1 mm, the same
/// way). One finger anchored while the other moves is a pinch or a rotation here, and a slow zoom
/// of two fingers side by side is no scroll; its own settling (150 ms, 6 mm) covers them.
/// Until then a pair is `stillDeciding`: one finger has moved less than 1.5 mm and the other less
/// than 4 mm, so libinput may still decide it by the directions; a touchpad pinch waits for that
/// (PinchRecognizer.swift).
///
/// The engine ends a touchpad gesture's settling at this decision (instead of after 6 mm of motion)
/// and lets the pan, the continuous swipe and the pinch begin on it; their own motion rules still
/// say which one it is (`TouchpadVerdict`, `EngineLane+PairDecision.swift`).
///
/// | from      | event        | to        | why                                                       |
/// |-----------|--------------|-----------|-----------------------------------------------------------|
/// | idle      | formed       | measuring | fingers down: their origins are here                      |
/// | idle      | moved        | idle      | — (no finger down)                                        |
/// | idle      | cleared      | idle      | —                                                         |
/// | measuring | formed       | measuring | the set changed (or one finger's landing jump): start again |
/// | measuring | moved        | measuring / decided | decided once `judge` says so                    |
/// | measuring | cleared      | idle      | no finger down                                            |
/// | decided   | formed       | measuring | the set changed: decide again                             |
/// | decided   | moved        | decided   | — (libinput keeps its decision until the count changes), except that a scroll or swipe judged apart within `pinchCorrection` becomes a pinch |
/// | decided   | cleared      | idle      | no finger down                                            |
struct TouchpadPairClassifier: Sendable {
    enum State: Sendable, Equatable {
        case idle, measuring
        case decided(TouchpadVerdict)
    }
    enum Event: Sendable, Equatable {
        /// Fingers whose set is new (or one finger's origin rebased).
        case formed
        /// The set's fingers as they are now: the judgement of their motion since it formed.
        case moved(TouchpadVerdict)
        /// No finger down.
        case cleared
    }

    /// The least both followed fingers must move before their directions are compared, mm (libinput's
    /// 1.5 mm for two fingers, half a millimetre more for each finger more).
    static func minimumMove(fingers n: Int) -> Double { 1.5 + 0.5 * Double(n - 2) }
    /// One finger alone is the pointer once it moved this far, mm: libinput's tap gives up there
    /// (its tap motion threshold), and its pointer has been moving since the first motion.
    static let pointerMove = 1.3
    /// A scroll or swipe decided on short motions may still turn out a pinch within this long after
    /// the set formed, ms (libinput corrects its guess so: short motions' directions are coarse).
    static let pinchCorrection = 300.0

    private(set) var state = State.idle
    /// The fingers of the set, in frame order, and the two followed (ids, origins in mm).
    private var members: [TouchID] = []
    private var first = TouchID(0)
    private var second = TouchID(0)
    private var firstOrigin = Point.zero
    private var secondOrigin = Point.zero
    private var formedAt = Timestamp.zero
    /// How many fingers the set has (0 when idle).
    private(set) var fingers = 0
    /// The decision is libinput's one-finger scroll, taken where it is no turn or zoom (`leadsAlongLine`):
    /// a scroll whose fingers do not yet move together as a pan's do.
    private(set) var decidedByLead = false
    /// How far the two followed fingers have moved since the set formed, mm: the one that moved
    /// more, and the other.
    private var leadMoved = 0.0
    private var trailMoved = 0.0

    /// A pair that libinput may still decide by its fingers' directions: measuring, and neither
    /// finger has moved `leadMove` mm while the other moved less than `minimumMove` (a resting thumb
    /// or libinput's "one-finger scroll", which the engine takes only along the pair's line:
    /// `leadsAlongLine`).
    var stillDeciding: Bool {
        state == .measuring && fingers == 2 && !(leadMoved >= Self.leadMove && trailMoved < Self.minimumMove(fingers: 2))
    }
    /// One finger of a pair moved this far while the other stayed (libinput's 4 mm, `max_move`): libinput
    /// no longer decides the pair by directions.
    static let leadMove = 4.0

    /// The decision, or `.undecided`.
    var verdict: TouchpadVerdict {
        switch state {
        case .decided(let v): v
        case .idle, .measuring: .undecided
        }
    }

    mutating func reset() {
        state = .idle
        members.removeAll(keepingCapacity: true)
        fingers = 0
        decidedByLead = false
    }

    /// Feeds one frame's fingers (resting ones left out; lifting ones are not part of the set). Like
    /// libinput's, the origins of two or more fingers are where they were when the set formed: a
    /// contact's landing jump that the hygiene drops for the recognizers (`originRebased`) still
    /// counts there.
    mutating func update(_ touches: [Touch], at time: Timestamp) {
        var n = 0
        var same = true
        var rebased = false
        for k in touches.indices where !touches[k].phase.isTerminal {
            if n >= members.count || members[n] != touches[k].id { same = false }
            rebased = rebased || touches[k].originRebased
            n += 1
        }
        // One finger alone is judged against a tap, which ignores a landing jump: so does the pointer.
        if n == 1 && rebased { same = false }
        let event: Event
        var moved: (first: Point, second: Point)?
        if n < 1 {
            event = .cleared
        } else if !same || n != members.count || state == .idle {
            event = .formed
        } else {
            moved = followedMotion(touches)
            // No `moved.map(judge)`: the closure captured (copied) the classifier each frame.
            if let m = moved { event = .moved(judge(m)) } else { event = .moved(.undecided) }
        }
        let wasMeasuring = state == .measuring
        step(event, touches, at: time)
        if wasMeasuring, case .decided(.together) = state, let moved { decidedByLead = leads(moved) }
        if state == .measuring && fingers == 2, let moved {
            let a = moved.first.length, b = moved.second.length
            leadMoved = max(a, b)
            trailMoved = min(a, b)
        }
    }

    private mutating func step(_ event: Event, _ touches: [Touch], at time: Timestamp) {
        switch (state, event) {
        case (.idle, .formed), (.measuring, .formed), (.decided, .formed):
            form(touches, at: time)
            state = .measuring
        case (.measuring, .moved(let v)):
            if v != .undecided { state = .decided(v) }
        case (.decided(let was), .moved(let v)):
            if was == .together && v == .apart && time.milliseconds(since: formedAt) < Self.pinchCorrection {
                state = .decided(.apart)
                decidedByLead = false
            }
        case (.idle, .moved):
            break
        case (.idle, .cleared), (.measuring, .cleared), (.decided, .cleared):
            members.removeAll(keepingCapacity: true)
            fingers = 0
            state = .idle
            decidedByLead = false
        }
    }

    /// Takes the set's origins: of two fingers both, of more the highest and the lowest on the pad.
    private mutating func form(_ touches: [Touch], at time: Timestamp) {
        members.removeAll(keepingCapacity: true)
        var top = -1
        var bottom = -1
        for k in touches.indices where !touches[k].phase.isTerminal {
            members.append(touches[k].id)
            let y = touches[k].physicalLocation.y
            if top < 0 || y < touches[top].physicalLocation.y { top = k }
            if bottom < 0 || (y >= touches[bottom].physicalLocation.y && k != top) { bottom = k }
        }
        if bottom == top {
            // Every finger at one height: any other one.
            for k in touches.indices where !touches[k].phase.isTerminal && k != top {
                bottom = k
                break
            }
        }
        fingers = members.count
        leadMoved = 0
        trailMoved = 0
        decidedByLead = false
        first = touches[top].id
        second = touches[bottom].id
        firstOrigin = touches[top].physicalLocation
        secondOrigin = touches[bottom].physicalLocation
        formedAt = time
    }

    /// How far the two followed fingers moved since the set formed (mm), nil when one is not in the frame.
    private func followedMotion(_ touches: [Touch]) -> (first: Point, second: Point)? {
        var a: Point?
        var b: Point?
        for k in touches.indices {
            if touches[k].id == first { a = touches[k].physicalLocation }
            if touches[k].id == second { b = touches[k].physicalLocation }
        }
        guard let a, let b else { return nil }
        return (a - firstOrigin, b - secondOrigin)
    }

    @inline(__always)
    private func judge(_ moved: (first: Point, second: Point)) -> TouchpadVerdict {
        if fingers == 1 { return moved.first.length >= Self.pointerMove ? .together : .undecided }
        if leads(moved) { return .together }
        return Self.judge(firstMoved: moved.first, secondMoved: moved.second, fingers: fingers)
    }

    /// Whether a pair's motion is `leadsAlongLine`'s.
    private func leads(_ moved: (first: Point, second: Point)) -> Bool {
        fingers == 2 && Self.leadsAlongLine(moved.first, moved.second, line: secondOrigin - firstOrigin)
    }

    /// libinput's one-finger scroll where it is neither a turn nor a zoom: one finger of a pair moved
    /// `leadMove` mm, within 45° of the line through both where they formed (a turn moves across it),
    /// while the other moved less than `minimumMove` but at least `trailStart` mm the same way (it
    /// started after the leader; an anchored finger of a zoom stays or moves the other way).
    static func leadsAlongLine(_ a: Point, _ b: Point, line: Point) -> Bool {
        let (lead, trail) = a.length >= b.length ? (a, b) : (b, a)
        let least = minimumMove(fingers: 2)
        guard lead.length >= leadMove, trail.length < least, trail.length >= trailStart,
              Octants(lead).neighbours(Octants(trail)) else { return false }
        let along = abs(lead.x * line.x + lead.y * line.y), across = abs(lead.x * line.y - lead.y * line.x)
        return along > across
    }
    /// How far the trailing finger of a one-finger scroll has moved the leader's way, mm (libinput
    /// decides nothing while both moved less than 1 mm).
    static let trailStart = 1.0

    /// libinput's decision from the two followed fingers' motion since the set formed (mm) and how
    /// many fingers the set has.
    static func judge(firstMoved: Point, secondMoved: Point, fingers n: Int) -> TouchpadVerdict {
        let least = minimumMove(fingers: n)
        if firstMoved.length < least || secondMoved.length < least { return .undecided }
        return Octants(firstMoved).neighbours(Octants(secondMoved)) ? .together : .apart
    }
}

/// What `TouchpadPairClassifier` decided about a touchpad gesture's fingers.
enum TouchpadVerdict: Sendable, Hashable {
    /// Not yet: the followed fingers moved too little.
    case undecided
    /// They move the same way (or stayed close together past the timeout): a scroll or a swipe.
    case together
    /// They move different ways: a pinch.
    case apart
}

/// The 45° sectors a motion points into, as bits (0 is up, then clockwise; y grows down the pad). A
/// motion under 2 mm on both axes is too short to trust its angle: it covers its quadrant's three
/// sectors. A longer one covers the sector it points into and the neighbouring one when it is
/// within a tenth of a sector of the border.
struct Octants: Sendable, Equatable {
    let bits: UInt8

    init(_ d: Point) {
        if abs(d.x) < 2 && abs(d.y) < 2 {
            // Sector k's centre points at k × 45° clockwise from up: 0 up, 2 right, 4 down, 6 left.
            // The three sectors around the centre sector (no array: this runs each frame while measuring).
            let centre: UInt8
            switch (d.x > 0 ? 1 : d.x < 0 ? -1 : 0, d.y > 0 ? 1 : d.y < 0 ? -1 : 0) {
            case (1, 1): centre = 3
            case (1, -1): centre = 1
            case (-1, 1): centre = 5
            case (-1, -1): centre = 7
            case (1, 0): centre = 2
            case (-1, 0): centre = 6
            case (0, 1): centre = 4
            case (0, -1): centre = 0
            default:
                bits = 0
                return
            }
            bits = Self.rotl(0b111, (centre + 7) % 8)
            return
        }
        // Clockwise from up, in sectors: [0, 8).
        var r = Geometry.atan2(d.x, -d.y) / (Double.pi / 4)
        if r < 0 { r += 8 }
        let near = Int(r + 0.9) % 8
        let far = Int(r + 0.1) % 8
        bits = UInt8(1 << near) | UInt8(1 << far)
    }

    /// Whether two motions point the same way: a sector in common or side by side.
    func neighbours(_ o: Octants) -> Bool {
        let grown = bits | Self.rotl(bits, 1) | Self.rotr(bits, 1)
        return grown & o.bits != 0
    }

    private static func rotl(_ b: UInt8, _ k: UInt8) -> UInt8 { (b << k) | (b >> ((8 - k) % 8)) }
    private static func rotr(_ b: UInt8, _ k: UInt8) -> UInt8 { (b >> k) | (b << ((8 - k) % 8)) }
}
