/// How libinput decides a touchpad's multi-finger gesture (docs/recognizers.md, "Touchpads"): it
/// follows two of the fingers (both of a pair; of three or four, the highest and the lowest on the
/// pad) from where they were when the finger count last changed, and decides as soon as both have
/// moved a little: the same way (their directions in the same or neighbouring 45° sectors) is a
/// scroll or swipe, other ways a pinch. The little is 1.5 mm for two fingers, 2 mm for three, 2.5 mm
/// for four. One finger moving 4 / 6 / 8 mm while the other stays under that also decides: the
/// lower one still is a resting thumb, the upper one still makes two fingers a scroll and more a
/// pinch (the thumb moving towards the fingers); and so does a pair still close together (within 7 mm
/// vertically and 40 mm sideways) 150 ms after the count changed once either has moved 1 mm.
///
/// The engine ends a touchpad gesture's settling at this decision (instead of after 6 mm of motion)
/// and lets the multi-finger pan, swipe and pinch begin on it; their own motion rules still say
/// which one it is (`TouchpadVerdict`, `EngineLane+PairDecision.swift`).
///
/// | from      | event        | to        | why                                                       |
/// |-----------|--------------|-----------|-----------------------------------------------------------|
/// | idle      | formed       | measuring | two or more fingers down: their origins are here          |
/// | idle      | moved        | idle      | — (fewer than two fingers)                                |
/// | idle      | cleared      | idle      | —                                                         |
/// | measuring | formed       | measuring | the set changed: start again                              |
/// | measuring | moved        | measuring / decided | decided once `judge` says so                    |
/// | measuring | cleared      | idle      | fewer than two fingers                                    |
/// | decided   | formed       | measuring | the set changed: decide again                             |
/// | decided   | moved        | decided   | — (libinput keeps its decision until the count changes)   |
/// | decided   | cleared      | idle      | fewer than two fingers                                    |
struct TouchpadPairClassifier: Sendable {
    enum State: Sendable, Equatable {
        case idle, measuring
        case decided(TouchpadVerdict)
    }
    enum Event: Sendable, Equatable {
        /// Two or more fingers whose set is new (or an origin rebased).
        case formed
        /// The set's fingers as they are now: the judgement of their motion since it formed.
        case moved(TouchpadVerdict)
        /// Fewer than two fingers down.
        case cleared
    }

    /// The least both followed fingers must move before their directions are compared, mm (libinput's
    /// 1.5 mm for two fingers, half a millimetre more for each finger more).
    static func minimumMove(fingers n: Int) -> Double { 1.5 + 0.5 * Double(n - 2) }
    /// One finger moving this far while the other stays under `minimumMove` decides too, mm.
    static func maximumMove(fingers n: Int) -> Double { 4 + 2 * Double(n - 2) }
    /// Below this, both fingers moved too little to say anything, mm.
    static let noMotion = 1.0
    /// After this long (ms from the set forming), fingers close together moving at all are a scroll
    /// or swipe; close is within `closeX` mm sideways and `closeY` mm vertically.
    static let closeTimeout = 150.0
    static let closeX = 40.0
    static let closeY = 7.0
    /// One finger alone is the pointer once it moved this far, mm: libinput's tap gives up there
    /// (its tap motion threshold), and its pointer has been moving since the first motion.
    static let pointerMove = 1.3

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
    }

    /// Feeds one frame's fingers (resting ones left out; lifting ones are not part of the set). Like
    /// libinput's, the origins are where the fingers were when the set formed: a contact's landing
    /// jump that the hygiene drops for the recognizers (`originRebased`) still counts here.
    mutating func update(_ touches: [Touch], at time: Timestamp) {
        var n = 0
        var same = true
        for k in touches.indices where !touches[k].phase.isTerminal {
            if n >= members.count || members[n] != touches[k].id { same = false }
            n += 1
        }
        let event: Event
        if n < 1 {
            event = .cleared
        } else if !same || n != members.count || state == .idle {
            event = .formed
        } else {
            event = .moved(judge(touches, at: time))
        }
        step(event, touches, at: time)
    }

    private mutating func step(_ event: Event, _ touches: [Touch], at time: Timestamp) {
        switch (state, event) {
        case (.idle, .formed), (.measuring, .formed), (.decided, .formed):
            form(touches, at: time)
            state = .measuring
        case (.measuring, .moved(let v)):
            if v != .undecided { state = .decided(v) }
        case (.decided, .moved), (.idle, .moved):
            break
        case (.idle, .cleared), (.measuring, .cleared), (.decided, .cleared):
            members.removeAll(keepingCapacity: true)
            fingers = 0
            state = .idle
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
        first = touches[top].id
        second = touches[bottom].id
        firstOrigin = touches[top].physicalLocation
        secondOrigin = touches[bottom].physicalLocation
        formedAt = time
    }

    private func judge(_ touches: [Touch], at time: Timestamp) -> TouchpadVerdict {
        var a: Point?
        var b: Point?
        for k in touches.indices {
            if touches[k].id == first { a = touches[k].physicalLocation }
            if touches[k].id == second { b = touches[k].physicalLocation }
        }
        guard let a, let b else { return .undecided }
        if fingers == 1 { return (a - firstOrigin).length >= Self.pointerMove ? .together : .undecided }
        return Self.judge(firstMoved: a - firstOrigin, secondMoved: b - secondOrigin, separation: a - b,
                          fingers: fingers, elapsed: time.milliseconds(since: formedAt))
    }

    /// libinput's decision from the two followed fingers' motion since the set formed (mm), how far
    /// apart they are (mm), how many fingers the set has and how long ago it formed (ms).
    static func judge(firstMoved: Point, secondMoved: Point, separation: Point, fingers n: Int,
                      elapsed: Double) -> TouchpadVerdict {
        let d1 = firstMoved.length
        let d2 = secondMoved.length
        if d1 < noMotion && d2 < noMotion { return .undecided }
        if elapsed > closeTimeout && abs(separation.x) < closeX && abs(separation.y) < closeY { return .together }
        let least = minimumMove(fingers: n)
        if max(d1, d2) >= maximumMove(fingers: n) && min(d1, d2) < least {
            // The lower finger still: a resting thumb. The upper one still while the lower moves: of
            // two fingers a one-finger scroll, of more a thumb pinching towards the fingers.
            if d2 < least { return .thumbResting }
            return n == 2 ? .together : .apart
        }
        if d1 < least || d2 < least { return .undecided }
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
    /// The upper finger moved far while the lower one stayed: libinput takes the lower one for a
    /// resting thumb (the other is the pointer); the engine's own rules decide it.
    case thumbResting
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
            let sectors: [Int]
            switch (d.x > 0 ? 1 : d.x < 0 ? -1 : 0, d.y > 0 ? 1 : d.y < 0 ? -1 : 0) {
            case (1, 1): sectors = [2, 3, 4]
            case (1, -1): sectors = [0, 1, 2]
            case (-1, 1): sectors = [4, 5, 6]
            case (-1, -1): sectors = [6, 7, 0]
            case (1, 0): sectors = [1, 2, 3]
            case (-1, 0): sectors = [5, 6, 7]
            case (0, 1): sectors = [3, 4, 5]
            case (0, -1): sectors = [7, 0, 1]
            default: sectors = []
            }
            var b: UInt8 = 0
            for s in sectors { b |= 1 << UInt8(s) }
            bits = b
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
        let grown = bits | rotl(bits, 1) | rotr(bits, 1)
        return grown & o.bits != 0
    }

    private func rotl(_ b: UInt8, _ k: UInt8) -> UInt8 { (b << k) | (b >> (8 - k)) }
    private func rotr(_ b: UInt8, _ k: UInt8) -> UInt8 { (b >> k) | (b << (8 - k)) }
}
