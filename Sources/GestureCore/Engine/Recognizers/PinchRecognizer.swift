/// Pinch: two fingers whose distance changes by `pinchThreshold` mm (hysteresis, so it never begins at
/// the second finger-down). Scale is cumulative from the span when the pair formed (1.0); velocity
/// in scale per second. Continuous.
///
/// | state       | input                                | proposal                  |
/// |-------------|--------------------------------------|---------------------------|
/// | possible    | one finger                           | —                         |
/// | possible    | span changed ≥ `pinchThreshold`      | begin                     |
/// | possible    | every finger lifted                  | fail                      |
/// | in progress | a finger moved                       | change                    |
/// | in progress | fewer than two fingers               | end                       |
struct PinchRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var pair = TwoFingerTracker()
    private var span0 = 0.0
    private var scale = 1.0
    private var ring = VelocityRing()
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        pair.reset()
        span0 = 0
        scale = 1
        ring.reset()
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        var changedPair = false
        let two = pair.update(input, pairChanged: &changedPair)
        if state.isInProgress {
            guard two, !changedPair else { return .end }
            scale = span0 > 0 ? pair.span / span0 : 1
            ring.push(input.time, Point(x: scale, y: 0))
            return input.anyMoved ? .change : .none
        }
        guard state == .possible else { return .none }
        guard two else {
            return pair.failureWhenLifted(.notEnoughMovement(abs(pair.span - span0), p.pinchThreshold)) ?? .none
        }
        if changedPair {
            span0 = pair.span
            ring.reset()
        }
        scale = span0 > 0 ? pair.span / span0 : 1
        ring.push(input.time, Point(x: scale, y: 0))
        let d = abs(pair.span - span0)
        if d >= p.pinchThreshold { return .begin(.spanChanged(d, p.pinchThreshold)) }
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = max(pair.fingers, 2)
        event.location = pair.location
        event.scale = scale
        event.scalarVelocity = ring.velocity.x
    }
}
