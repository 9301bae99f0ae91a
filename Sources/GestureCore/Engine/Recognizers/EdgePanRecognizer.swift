/// Screen-edge pan: a pan whose first touch starts within `edgeZone` mm of one of `edges` and whose
/// centroid then moves `panThreshold` mm away from that edge (more inward than along it).
/// Fingers: `minimumFingers`...`maximumFingers`. Continuous.
///
/// | state       | input                                      | proposal                 |
/// |-------------|--------------------------------------------|--------------------------|
/// | possible    | first touch outside every edge zone        | fail (outside edge zone) |
/// | possible    | moved ≥ `panThreshold`, inward             | begin                    |
/// | possible    | moved ≥ `panThreshold`, not inward         | fail (wrong direction)   |
/// | possible    | more than `maximumFingers` / all lifted    | fail                     |
/// | in progress | movement / fingers below minimum           | change / end             |
struct EdgePanRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var tracker = MotionTracker()
    private var edge: Edge?
    private var maxSeen = 0
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        tracker.reset()
        edge = nil
        maxSeen = 0
    }

    private func distance(_ e: Edge, _ t: Touch, _ input: RecognizerInput) -> Double {
        let ux = input.unitsPerMM.x > 0 ? input.unitsPerMM.x : 1
        let uy = input.unitsPerMM.y > 0 ? input.unitsPerMM.y : 1
        switch e {
        case .left: return t.location.x / ux
        case .right: return (input.surfaceSize.x - t.location.x) / ux
        case .top: return t.location.y / uy
        case .bottom: return (input.surfaceSize.y - t.location.y) / uy
        }
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        if edge == nil && state == .possible, let first = input.touches.first(where: { $0.phase == .began }) {
            var best: Edge?
            var bestDistance = Double.infinity
            for e in Edge.allCases where p.edges.contains(e) {
                let d = distance(e, first, input)
                if d < bestDistance {
                    bestDistance = d
                    best = e
                }
            }
            guard let best, bestDistance <= p.edgeZone else {
                return .fail(.outsideEdgeZone(bestDistance, p.edgeZone))
            }
            edge = best
        }
        let moved = tracker.update(input)
        let n = tracker.active
        maxSeen = max(maxSeen, n)
        if state.isInProgress {
            if n < max(p.minimumFingers, 1) { return .end }
            return moved ? .change : .none
        }
        guard state == .possible, let edge else { return .none }
        if n > p.maximumFingers { return .fail(.tooManyFingers(n, p.maximumFingers)) }
        let t = tracker.translationMM
        if n == 0 { return .fail(.notEnoughMovement(t.length, p.panThreshold)) }
        if n < p.minimumFingers { return .none }
        let d = t.length
        guard d >= p.panThreshold else { return .none }
        let inward: Double
        let along: Double
        switch edge {
        case .left: (inward, along) = (t.x, abs(t.y))
        case .right: (inward, along) = (-t.x, abs(t.y))
        case .top: (inward, along) = (t.y, abs(t.x))
        case .bottom: (inward, along) = (-t.y, abs(t.x))
        }
        if inward <= 0 || inward < along { return .fail(.notFromEdge) }
        return .begin(.moved(d, p.panThreshold))
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    func describe(_ event: inout GestureEvent, at time: Timestamp) { tracker.describePan(&event) }
}
