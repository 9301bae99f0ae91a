/// The first two active touches of a recognizer: their span (mm) and angle (radians, clockwise
/// positive in surface coordinates, y down), for pinch and rotation. With `allFingers` (touchpads, as
/// libinput judges a pinch) every active finger counts: the span is twice their mean distance from
/// their centroid and the angle turns by their mean turn about it (for two fingers, the same as the
/// pair's); the "pair" changes whenever the set of fingers does.
struct TwoFingerTracker: Sendable {
    var allFingers = false
    /// `allFingers`: the fingers of the set, and each one's angle about the centroid at the last frame.
    private var members: [TouchID] = []
    private var memberAngles: [Double] = []
    var a: TouchID?
    var b: TouchID?
    var span = 0.0
    var angle = 0.0
    var location = Point.zero
    /// Midpoint of the pair, mm.
    var midpoint = Point.zero
    var fingers = 0
    var maxSeen = 0
    /// The fingers a gesture of this tracker reports: two, or with `allFingers` every finger of the
    /// set (taken when the set forms).
    private(set) var setSize = 2
    /// Either finger of the pair had its origin rebased in the last frame `update` read (the contact
    /// hygiene dropped its motion): the pair's measures start again from there.
    private(set) var originRebased = false

    mutating func reset() {
        a = nil
        b = nil
        members.removeAll(keepingCapacity: true)
        memberAngles.removeAll(keepingCapacity: true)
        fingers = 0
        maxSeen = 0
        setSize = 2
        originRebased = false
    }

    /// While possible with fewer than two fingers: once every finger has lifted, the recognizer fails,
    /// because two fingers never came (`wrongFingers`) or because they did not do enough
    /// (`notEnough`); nil while a finger is still down.
    func failureWhenLifted(_ notEnough: @autoclosure () -> Reason) -> Proposal? {
        guard fingers == 0 else { return nil }
        return maxSeen < 2 ? .fail(.wrongFingers(maxSeen, 2)) : .fail(notEnough())
    }

    /// The frame's finger count and location: the centroid of the active touches, or, in a frame where
    /// fingers lift, of every touch at its last position, the lifting ones included: where an ending
    /// pinch or rotation ends. When the contact hygiene dropped the motion of a finger staying down in
    /// that frame (`refit`: a touchpad re-fits its contacts when one lifts, and may report the others
    /// tens of mm away), the location stays where the last frame put it.
    private mutating func count(_ touches: [Touch]) {
        var n = 0
        var active = Point.zero, all = Point.zero
        var refit = false
        for k in touches.indices {
            all += touches[k].location
            guard !touches[k].phase.isTerminal else { continue }
            n += 1
            active += touches[k].location
            refit = refit || touches[k].originRebased
        }
        let total = touches.count
        fingers = n
        maxSeen = max(maxSeen, n)
        if n == total {
            if n > 0 { location = active / Double(n) }
        } else if refit {
            return
        } else if total > 0 {
            location = all / Double(total)
        }
    }

    /// `update` with every active finger (`allFingers`). The set stays the same while all of its
    /// fingers are down (a finger joining then is not part of it, as a third finger is not part of a
    /// pair); once one lifts, every finger down forms the next set.
    private mutating func updateAll(_ touches: [Touch], pairChanged: inout Bool) -> Bool {
        count(touches)
        pairChanged = false
        originRebased = false
        guard fingers >= 2 else { return false }
        var kept = 0
        for k in touches.indices where !touches[k].phase.isTerminal && members.contains(touches[k].id) { kept += 1 }
        // The set: its members while all are down, else every finger down.
        let keep = !members.isEmpty && kept == members.count
        if !keep {
            members.removeAll(keepingCapacity: true)
            memberAngles.removeAll(keepingCapacity: true)
            pairChanged = true
            angle = 0
        }
        var centre = Point.zero, centreMM = Point.zero
        var m = 0
        for i in touches.indices where !touches[i].phase.isTerminal && (!keep || members.contains(touches[i].id)) {
            centre += touches[i].location
            centreMM += touches[i].physicalLocation
            originRebased = originRebased || touches[i].originRebased
            m += 1
        }
        centre = centre / Double(m)
        centreMM = centreMM / Double(m)
        var radius = 0.0
        var turn = 0.0
        for i in touches.indices where !touches[i].phase.isTerminal {
            let id = touches[i].id
            let v = touches[i].location - centre
            let a = Geometry.atan2(v.y, v.x)
            if !keep {
                members.append(id)
                memberAngles.append(a)
            } else if let k = members.firstIndex(of: id) {
                turn += Geometry.wrap(a - memberAngles[k])
                memberAngles[k] = a
            } else {
                continue
            }
            radius += touches[i].physicalLocation.distance(to: centreMM)
        }
        if keep { angle += turn / Double(m) } else { setSize = max(2, members.count) }
        span = 2 * radius / Double(m)
        midpoint = centreMM
        return true
    }

    /// Returns false when fewer than two touches are active. `pairChanged` tells when the pair is new.
    /// The pair stays the same while both of its touches are down, whatever the frame order.
    mutating func update(_ input: borrowing RecognizerInput, pairChanged: inout Bool) -> Bool {
        if allFingers { return updateAll(input.touches, pairChanged: &pairChanged) }
        // Indices into `input.touches` (-1: none), so no touch is copied while looking.
        let touches = input.touches
        var first = -1
        var second = -1
        var keptA = -1
        var keptB = -1
        originRebased = false
        count(touches)
        for k in touches.indices where !touches[k].phase.isTerminal {
            let id = touches[k].id
            if id == a { keptA = k } else if id == b { keptB = k }
            if first < 0 { first = k } else if second < 0 { second = k }
        }
        pairChanged = false
        if keptA >= 0 && keptB >= 0 {
            first = keptA
            second = keptB
        } else {
            guard first >= 0, second >= 0 else { return false }
            // Lower id first, so the angle does not depend on frame order.
            if touches[second].id < touches[first].id { swap(&first, &second) }
            pairChanged = true
            a = touches[first].id
            b = touches[second].id
        }
        let f = first
        let s = second
        originRebased = touches[f].originRebased || touches[s].originRebased
        let v = touches[s].physicalLocation - touches[f].physicalLocation
        span = v.length
        midpoint = (touches[s].physicalLocation + touches[f].physicalLocation) / 2
        let w = touches[s].location - touches[f].location
        angle = Geometry.atan2(w.y, w.x)
        return true
    }
}
