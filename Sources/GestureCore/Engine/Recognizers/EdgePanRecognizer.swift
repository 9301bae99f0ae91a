/// Screen-edge pan: a pan whose first touch starts within `edgeZone` mm of one of `edges` and whose
/// centroid then moves `panThreshold` mm away from that edge (more inward than along it).
/// Fingers: `minimumFingers`...`maximumFingers`; once begun, extra fingers are ignored (it never
/// reports more than `maximumFingers`). Continuous. Every reason an edge pan fails is in this file.
///
/// | from    | event          | to      | proposal / why                                       |
/// |---------|----------------|---------|------------------------------------------------------|
/// | idle    | landed         | waiting | — (the nearest configured edge is within `edgeZone`) |
/// | idle    | landed         | done    | fail: started outside every edge zone                |
/// | waiting | tooFewFingers  | waiting | —                                                    |
/// | waiting | tooManyFingers | done    | fail: more than `maximumFingers`                     |
/// | waiting | crossed        | active  | begin: moved ≥ `panThreshold` inward                 |
/// | waiting | crossed        | done    | fail: not away from the edge                         |
/// | waiting | allLifted      | done    | fail: not enough movement                            |
/// | active  | moved          | active  | change                                               |
/// | active  | tooFewFingers  | done    | end                                                  |
///
/// The machine is the one the pan family shares (`CentroidMachine.swift`); what an edge pan decides is
/// `EdgePanRules`, below. Any other pair is a bug (reported, and the edge pan fails or is cancelled).
typealias EdgePanRecognizer = CentroidMachine<EdgePanRules>

/// The edge pan's rules: where its first finger landed, and which way it then moved.
struct EdgePanRules: CentroidRules {
    static var kind: RecognizerKind { .edgePan }
    static var name: StaticString { "edge-pan" }
    static var waitsForLanding: Bool { true }
    static var readsMotionApart: Bool { false }
    static var restartsWhenFew: Bool { false }
    /// The edge its first finger landed near.
    private var edge: Edge = .left

    private static func distance(_ e: Edge, _ t: Touch, _ input: borrowing RecognizerInput) -> Double {
        let ux = input.unitsPerMM.x > 0 ? input.unitsPerMM.x : 1
        let uy = input.unitsPerMM.y > 0 ? input.unitsPerMM.y : 1
        switch e {
        case .left: return t.location.x / ux
        case .right: return (input.surfaceSize.x - t.location.x) / ux
        case .top: return t.location.y / uy
        case .bottom: return (input.surfaceSize.y - t.location.y) / uy
        }
    }

    /// The nearest configured edge to the first finger landing, and how far it is.
    static func landing(_ input: borrowing RecognizerInput, _ p: RecognizerParameters) -> EdgePanRecognizer.Event? {
        guard let first = input.touches.first(where: { $0.phase == .began }) else { return nil }
        var best: Edge?
        var bestDistance = Double.infinity
        for e in Edge.allCases where p.edges.contains(e) {
            let d = distance(e, first, input)
            if d < bestDistance {
                bestDistance = d
                best = e
            }
        }
        return .landed(best, bestDistance)
    }

    mutating func landed(_ nearest: Edge?, _ d: Double, _ p: RecognizerParameters) -> Reason? {
        guard let nearest, d <= p.edgeZone else { return .outsideEdgeZone(d, p.edgeZone) }
        edge = nearest
        return nil
    }

    /// Begins when it moved away from its edge more than along it.
    func crossed(_ t: Point, _ tracker: MotionTracker, _ motion: FingerMotion, contested: Bool, mostFingers: Int,
                 _ p: RecognizerParameters) -> EdgePanRecognizer.Crossing {
        let inward: Double
        let along: Double
        switch edge {
        case .left: (inward, along) = (t.x, abs(t.y))
        case .right: (inward, along) = (-t.x, abs(t.y))
        case .top: (inward, along) = (t.y, abs(t.x))
        case .bottom: (inward, along) = (-t.y, abs(t.x))
        }
        return inward <= 0 || inward < along ? .fail(.notFromEdge) : .begin(.moved(t.length, p.panThreshold))
    }

    static func lifted(mostFingers: Int, _ moved: Double, _ p: RecognizerParameters) -> Reason {
        .notEnoughMovement(moved, p.panThreshold)
    }
}
