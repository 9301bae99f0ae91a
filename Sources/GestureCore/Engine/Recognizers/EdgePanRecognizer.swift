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
/// Any other pair is a bug (reported, and the edge pan fails or is cancelled).
struct EdgePanRecognizer: RecognizerLogic {
    enum State: Sendable { case idle, waiting, active, done }
    enum Event: Sendable, PanEvents {
        case landed(Edge?, Double)
        case tooFewFingers(Int)
        case tooManyFingers(Int)
        case crossed(Point)
        case allLifted
        case moved
    }

    let p: RecognizerParameters
    var trace = MachineTrace()
    private(set) var state = State.idle
    private var tracker = MotionTracker()
    private var edge: Edge = .left
    private var fingers = FollowedFingers()
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        state = .idle
        tracker.reset()
        fingers.reset()
    }

    private func distance(_ e: Edge, _ t: Touch, _ input: borrowing RecognizerInput) -> Double {
        let ux = input.unitsPerMM.x > 0 ? input.unitsPerMM.x : 1
        let uy = input.unitsPerMM.y > 0 ? input.unitsPerMM.y : 1
        switch e {
        case .left: return t.location.x / ux
        case .right: return (input.surfaceSize.x - t.location.x) / ux
        case .top: return t.location.y / uy
        case .bottom: return (input.surfaceSize.y - t.location.y) / uy
        }
    }

    mutating func handle(_ input: borrowing RecognizerInput, state published: GestureState) -> Proposal {
        guard published == .possible || published.isInProgress else { return .none }
        if state == .idle, let first = input.touches.first(where: { $0.phase == .began }) {
            var best: Edge?
            var bestDistance = Double.infinity
            for e in Edge.allCases where p.edges.contains(e) {
                let d = distance(e, first, input)
                if d < bestDistance {
                    bestDistance = d
                    best = e
                }
            }
            let proposal = step(.landed(best, bestDistance))
            if proposal != .none { return proposal }
        }
        let n = fingers.follow(input, capped: state == .active, limit: p.maximumFingers)
        let followed = fingers.touches(of: input.touches)
        let moved = tracker.update(followed, at: input.time)
        let event: Event
        switch state {
        case .waiting:
            let t = tracker.translationMM
            if let outside = Event.outside(n, minimum: p.minimumFingers, maximum: p.maximumFingers) {
                event = outside
            } else if t.length >= p.panThreshold {
                event = .crossed(t)
            } else {
                return .none
            }
        case .active:
            guard let active = Event.active(n, minimum: p.minimumFingers, moved: moved) else { return .none }
            event = active
        case .idle, .done:
            return .none
        }
        return step(event)
    }

    private mutating func step(_ event: Event) -> Proposal {
        let from = state
        var proposal = Proposal.none
        switch (state, event) {
        case (.idle, .landed(let nearest, let d)):
            if let nearest, d <= p.edgeZone {
                edge = nearest
                state = .waiting
            } else {
                state = .done
                proposal = .fail(.outsideEdgeZone(d, p.edgeZone))
            }
        case (.waiting, .tooFewFingers):
            break
        case (.waiting, .tooManyFingers(let n)):
            state = .done
            proposal = .fail(.tooManyFingers(n, p.maximumFingers))
        case (.waiting, .crossed(let t)):
            let inward: Double
            let along: Double
            switch edge {
            case .left: (inward, along) = (t.x, abs(t.y))
            case .right: (inward, along) = (-t.x, abs(t.y))
            case .top: (inward, along) = (t.y, abs(t.x))
            case .bottom: (inward, along) = (-t.y, abs(t.x))
            }
            state = inward <= 0 || inward < along ? .done : .active
            proposal = state == .done ? .fail(.notFromEdge) : .begin(.moved(t.length, p.panThreshold))
        case (.waiting, .allLifted):
            state = .done
            proposal = .fail(.notEnoughMovement(tracker.translationMM.length, p.panThreshold))
        case (.active, .moved):
            proposal = .change
        case (.active, .tooFewFingers):
            state = .done
            proposal = .end
        case (.idle, .tooFewFingers), (.idle, .tooManyFingers), (.idle, .crossed), (.idle, .allLifted), (.idle, .moved),
             (.waiting, .landed), (.waiting, .moved),
             (.active, .landed), (.active, .tooManyFingers), (.active, .crossed), (.active, .allLifted),
             (.done, _):
            state = .done
            proposal = .bug(.noTransition("edge-pan", from, event))
        }
        trace.record(.edgePan, from, event, state)
        return proposal
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        tracker.describePan(&event)
        event.fingers = min(event.fingers, p.maximumFingers)
    }
}
