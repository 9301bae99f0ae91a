/// The first two active touches of a recognizer: their span (mm) and angle (radians, clockwise
/// positive in surface coordinates, y down), for pinch and rotation.
struct TwoFingerTracker: Sendable {
    var a: TouchID?
    var b: TouchID?
    var span = 0.0
    var angle = 0.0
    var location = Point.zero
    /// Midpoint of the pair, mm.
    var midpoint = Point.zero
    var fingers = 0
    var maxSeen = 0

    mutating func reset() {
        a = nil
        b = nil
        fingers = 0
        maxSeen = 0
    }

    /// Whether either finger of the pair is among `ids`.
    func involves(_ ids: [TouchID]) -> Bool {
        guard !ids.isEmpty else { return false }
        return ids.contains { $0 == a || $0 == b }
    }

    /// While possible with fewer than two fingers: once every finger has lifted, the recognizer fails,
    /// because two fingers never came (`wrongFingers`) or because they did not do enough
    /// (`notEnough`); nil while a finger is still down.
    func failureWhenLifted(_ notEnough: @autoclosure () -> Reason) -> Proposal? {
        guard fingers == 0 else { return nil }
        return maxSeen < 2 ? .fail(.wrongFingers(maxSeen, 2)) : .fail(notEnough())
    }

    /// Returns false when fewer than two touches are active. `pairChanged` tells when the pair is new.
    /// The pair stays the same while both of its touches are down, whatever the frame order.
    mutating func update(_ input: RecognizerInput, pairChanged: inout Bool) -> Bool {
        var first: Touch?
        var second: Touch?
        var keptA: Touch?
        var keptB: Touch?
        var n = 0
        var sum = Point.zero
        for t in input.touches where !t.phase.isTerminal {
            n += 1
            sum += t.location
            if t.id == a { keptA = t } else if t.id == b { keptB = t }
            if first == nil { first = t } else if second == nil { second = t }
        }
        fingers = n
        maxSeen = max(maxSeen, n)
        if n > 0 { location = sum / Double(n) }
        pairChanged = false
        if let ka = keptA, let kb = keptB {
            first = ka
            second = kb
        } else {
            guard let f = first, let s = second else { return false }
            // Lower id first, so the angle does not depend on frame order.
            if s.id < f.id {
                first = s
                second = f
            }
            pairChanged = true
            a = first!.id
            b = second!.id
        }
        let f = first!
        let s = second!
        let v = s.physicalLocation - f.physicalLocation
        span = v.length
        midpoint = (s.physicalLocation + f.physicalLocation) / 2
        let w = s.location - f.location
        angle = Geometry.atan2(w.y, w.x)
        return true
    }
}
