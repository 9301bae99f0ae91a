/// Rotation: two fingers whose connecting line turns `rotationThreshold` degrees (hysteresis).
/// Rotation is cumulative radians from the angle when the pair formed, clockwise positive in surface
/// coordinates; velocity in radians per second. Continuous.
///
/// | state       | input                                | proposal                  |
/// |-------------|--------------------------------------|---------------------------|
/// | possible    | one finger                           | —                         |
/// | possible    | turned ≥ `rotationThreshold`         | begin                     |
/// | possible    | every finger lifted                  | fail                      |
/// | in progress | a finger moved                       | change                    |
/// | in progress | fewer than two fingers               | end                       |
struct RotationRecognizer: RecognizerLogic {
    let p: RecognizerParameters
    private var pair = TwoFingerTracker()
    private var lastAngle = 0.0
    private var rotation = 0.0
    private var ring = VelocityRing()
    var deadline: Timestamp? { nil }

    init(_ p: RecognizerParameters) { self.p = p }

    mutating func reset() {
        pair.reset()
        rotation = 0
        ring.reset()
    }

    private mutating func accumulate(_ time: Timestamp) -> Bool {
        let delta = Geometry.wrap(pair.angle - lastAngle)
        lastAngle = pair.angle
        rotation += delta
        ring.push(time, Point(x: rotation, y: 0))
        return delta != 0
    }

    mutating func handle(_ input: RecognizerInput, state: GestureState) -> Proposal {
        var changedPair = false
        let two = pair.update(input, pairChanged: &changedPair)
        if state.isInProgress {
            guard two, !changedPair else { return .end }
            _ = accumulate(input.time)
            return input.anyMoved ? .change : .none
        }
        guard state == .possible else { return .none }
        guard two else {
            return pair.failureWhenLifted(
                .notEnoughMovement(abs(rotation) * Geometry.degreesPerRadian, p.rotationThreshold)) ?? .none
        }
        if changedPair {
            lastAngle = pair.angle
            rotation = 0
            ring.reset()
        }
        _ = accumulate(input.time)
        let degrees = abs(rotation) * Geometry.degreesPerRadian
        if degrees >= p.rotationThreshold { return .begin(.turned(degrees, p.rotationThreshold)) }
        return .none
    }

    mutating func fire(at time: Timestamp, state: GestureState) -> Proposal { .none }

    func describe(_ event: inout GestureEvent, at time: Timestamp) {
        event.fingers = max(pair.fingers, 2)
        event.location = pair.location
        event.rotation = rotation
        event.scalarVelocity = ring.velocity.x
    }
}
