/// Pan: `minimumFingers`...`maximumFingers` fingers whose centroid moves `panThreshold` mm.
/// Translation is from the first centroid (compensated when fingers join or leave); velocity over
/// the last ~100 ms. Continuous.
///
/// | state     | input                                   | proposal                  |
/// |-----------|-----------------------------------------|---------------------------|
/// | possible  | more than `maximumFingers`              | fail (too many fingers)   |
/// | possible  | fewer than `minimumFingers`             | — (translation restarts)  |
/// | possible  | centroid moved ≥ `panThreshold`         | begin                     |
/// | possible  | every finger lifted                     | fail (not enough movement)|
/// | in progress | movement                              | change                    |
/// | in progress | fingers below `minimumFingers`        | end                       |
struct PanRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var tracker = MotionTracker()
    private var maxSeen = 0
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        tracker.reset()
        maxSeen = 0
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        let moved = tracker.update(input)
        let n = tracker.active
        maxSeen = max(maxSeen, n)
        if state.isInProgress {
            if n < max(p.minimumFingers, 1) { return .end }
            return moved ? .change : .none
        }
        guard state == .possible else { return .none }
        if n > p.maximumFingers { return .fail(.tooManyFingers(n, p.maximumFingers)) }
        if n == 0 {
            if maxSeen < p.minimumFingers { return .fail(.wrongFingers(maxSeen, p.minimumFingers)) }
            return .fail(.notEnoughMovement(tracker.translationMM.length, p.panThreshold))
        }
        if n < p.minimumFingers {
            tracker.translation = .zero
            tracker.translationMM = .zero
            return .none
        }
        let d = tracker.translationMM.length
        if d >= p.panThreshold { return .begin(.moved(d, p.panThreshold)) }
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    func describe(_ event: inout GestureEvent, at time: Timestamp) { tracker.describePan(&event) }
}
