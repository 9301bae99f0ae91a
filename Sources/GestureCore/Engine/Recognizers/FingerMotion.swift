/// The touches a pan follows (pan, edge pan): every finger while it decides; once it has begun, at
/// most `limit` (UIKit's maximumNumberOfTouches), a lifted one replaced by a finger still down.
struct FollowedFingers: Sendable {
    private var members: [TouchID] = []
    /// This frame's touches of the followed fingers (lifting ones included) when some touch of the
    /// frame is not followed; when every touch is (`followsAll`), the frame's own array is used.
    private var some: [Touch] = []
    private var followsAll = true

    mutating func reset() { members.clearKeepingCapacity() }

    /// The touches followed among `frameTouches`, the touches of the frame `follow` last looked at.
    /// (Given the array, not the whole input: a copy of the input costs calls of its own.)
    func touches(of frameTouches: [Touch]) -> [Touch] { followsAll ? frameTouches : some }

    /// Picks the frame's followed touches; `capped` limits the fingers to `limit`. Returns how
    /// many followed fingers are still down.
    @inline(__always)
    mutating func follow(_ input: borrowing RecognizerInput, capped: Bool, limit: Int) -> Int {
        followsAll = true
        var active = 0
        let touches = input.touches
        for k in touches.indices {
            let id = touches[k].id
            let terminal = touches[k].phase.isTerminal
            if !members.contains(id) {
                guard !terminal, !capped || members.count < limit else {
                    if followsAll {
                        followsAll = false
                        some.clearKeepingCapacity()
                        some.append(contentsOf: touches[..<k])
                    }
                    continue
                }
                members.append(id)
            }
            if !followsAll { some.append(touches[k]) }
            if terminal {
                members.removeAll { $0 == id }
            } else {
                active += 1
            }
        }
        return active
    }
}

/// How a set of fingers moved since the set formed, split into what they did together and what they
/// did apart: `together` is the mean displacement (mm), `apart` the mean distance of each finger's
/// displacement from that mean (mm). Two fingers moving the same way are a pan (`together` dominates);
/// fingers spreading, pinching or turning, one anchored and one moving included, are not. The set
/// starts again (new origins) whenever a finger joins or leaves it, or its origin is rebased.
struct FingerMotion: Sendable {
    private var ids: [TouchID] = []
    private var origins: [Point] = []
    private(set) var together = Point.zero
    private(set) var apart = 0.0
    /// How many fingers the last measure was of.
    private var measured = 0

    mutating func reset() {
        measured = 0
        ids.clearKeepingCapacity()
        origins.clearKeepingCapacity()
        together = .zero
        apart = 0
    }

    /// Updates from the active touches of `touches` (all of them must be the set's members). A frame in
    /// which fingers lift keeps the last measure (the motion up to the lift is what decides).
    @inline(__always)
    mutating func update(_ touches: [Touch]) {
        var same = true
        var n = 0
        var lifting = false
        for k in touches.indices {  // by index: no copy of each touch
            if touches[k].phase.isTerminal {
                lifting = true
                continue
            }
            let id = touches[k].id
            if n >= ids.count || ids[n] != id || touches[k].originRebased { same = false }
            n += 1
        }
        if lifting { return }
        if !same || n != ids.count {
            ids.clearKeepingCapacity()
            origins.clearKeepingCapacity()
            for t in touches where !t.phase.isTerminal {
                ids.append(t.id)
                origins.append(t.physicalLocation)
            }
            together = .zero
            apart = 0
            measured = n
            return
        }
        guard n > 0 else { return }
        measured = n
        var sum = Point.zero
        var k = 0
        for i in touches.indices where !touches[i].phase.isTerminal {
            sum += touches[i].physicalLocation - origins[k]
            k += 1
        }
        let mean = sum / Double(n)
        var deviation = 0.0
        k = 0
        for i in touches.indices where !touches[i].phase.isTerminal {
            deviation += (touches[i].physicalLocation - origins[k] - mean).length
            k += 1
        }
        together = mean
        apart = deviation / Double(n)
    }

    /// The most two of `touches` (the set's, as last given to `update`) moved in opposite ways since
    /// the set formed (directions more than 90° apart), mm: the smaller of the pair's two motions.
    /// Fingers closing or spreading, not moving together. Asked only when the fingers moved apart.
    func opposed(_ touches: [Touch]) -> Double {
        var best = 0.0
        var i = 0
        for a in touches.indices where !touches[a].phase.isTerminal && i < origins.count {
            let da = touches[a].physicalLocation - origins[i]
            var j = 0
            for b in touches.indices where !touches[b].phase.isTerminal && j < origins.count {
                if j > i {
                    let db = touches[b].physicalLocation - origins[j]
                    if da.x * db.x + da.y * db.y < 0 { best = max(best, min(da.length, db.length)) }
                }
                j += 1
            }
            i += 1
        }
        return best
    }

    /// A pan: the fingers' common motion is at least twice their motion apart. One finger always is.
    var isPanLike: Bool { measured < 2 || together.length >= 2 * apart }
}

/// How a pair of fingers moved since the pair formed, as a similarity: scale (span / span then),
/// rotation (radians, accumulated frame by frame so it can pass half a turn) and the midpoint's
/// translation (mm). Pinch and rotation decide from it which motion dominates: the log of the scale
/// and the angle are the two halves of one complex logarithm, so "turning dominates" means
/// |rotation| > |ln scale| (UIKit's rotation threshold grows with the scale change the same way).
struct PairMotion: Sendable {
    private(set) var span0 = 0.0
    private var midpoint0 = Point.zero
    private var lastAngle = 0.0
    private(set) var rotation = 0.0
    private(set) var span = 0.0
    private var midpoint = Point.zero

    /// Takes the pair's current shape as the origin.
    mutating func start(_ pair: TwoFingerTracker) {
        span0 = pair.span
        midpoint0 = pair.midpoint
        lastAngle = pair.angle
        rotation = 0
        span = pair.span
        midpoint = pair.midpoint
    }

    /// Returns whether the angle changed.
    @discardableResult
    mutating func update(_ pair: TwoFingerTracker) -> Bool {
        let delta = Geometry.wrap(pair.angle - lastAngle)
        lastAngle = pair.angle
        rotation += delta
        span = pair.span
        midpoint = pair.midpoint
        return delta != 0
    }

    var scale: Double { span0 > 0 ? span / span0 : 1 }
    var logScale: Double { span0 > 0 && span > 0 ? Geometry.log(span / span0) : 0 }
    /// Change of the distance between the fingers, mm.
    var spanChange: Double { span - span0 }
    /// How far the pair moved together (its midpoint), mm.
    var together: Double { (midpoint - midpoint0).length }
    var degrees: Double { abs(rotation) * Geometry.degreesPerRadian }

    /// The span changes more than the pair moves together, and more than it turns.
    var isPinchLike: Bool { abs(spanChange) >= together && abs(logScale) >= abs(rotation) }
    /// The pair turns more than it scales (|turn| > |ln scale|).
    var turnDominates: Bool { abs(rotation) > abs(logScale) }
    /// Each finger's arc about the pair's midpoint, mm.
    var arc: Double { abs(rotation) * span / 2 }
    /// The turn is most of what the fingers do apart from moving together: each finger's arc is at
    /// least three quarters of the pair's common motion (they move opposite ways around their
    /// midpoint, or one pivots about the other: arc = common motion), not a pair moving together
    /// with one finger leading.
    var turnLeads: Bool { arc >= 0.75 * together }
    /// A rotation: the turn dominates the scale and either leads the motion (`turnLeads`) or is wide,
    /// at least `wide` degrees: a turn that far is a rotation whatever else the pair does (a pivot
    /// finger, a turn while dragging, a turn while zooming). A leading finger turns the pair only
    /// while it is ahead, by the lead over the span (a few degrees), and then the pair moves together.
    func isTurnLike(wide: Double) -> Bool { turnDominates && (turnLeads || degrees >= wide) }
}
