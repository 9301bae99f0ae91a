import Foundation
import GestureCore
import Testing

/// Synthetic real-hands scenarios (issue 11), one per class of input, through the whole pipeline
/// (raw evdev events → frame assembly → engine) with the default config. Positions in mm, times in
/// ms; frames every 10 ms like a 100 Hz digitizer. See `HandScript`.
@Suite struct RealHandsScenarios {
    static let config = defaultEngineConfiguration
    static let limits = FingerLimits(config)
    /// Pan recognizers of one finger only (the default `pan`).
    static let oneFingerPans = Set(config.recognizers.filter { $0.kind == .pan && $0.parameters.maximumFingers == 1 }.map(\.id))
    /// Pan recognizers that need two fingers or more (the default `two-finger-pan`).
    static let multiFingerPans = Set(config.recognizers.filter { $0.kind == .pan && $0.parameters.minimumFingers >= 2 }.map(\.id))

    @Test func theDefaultConfigHasTheRecognizersTheseScenariosNeed() {
        #expect(!Self.oneFingerPans.isEmpty)
        #expect(!Self.multiFingerPans.isEmpty)
        #expect(Self.config.recognizers.contains { $0.kind == .pinch })
        #expect(Self.config.recognizers.contains { $0.kind == .rotation })
    }

    // MARK: - Helpers

    /// The pinch began first, ended last, and its final scale.
    private func pinchBeganAndEnded(_ s: HandScript, _ context: Comment) -> Double? {
        let pinch = s.gestures.filter { $0.kind == .pinch }
        #expect(pinch.first?.state == .began, "\(context): \(s.summary.prefix(12))")
        #expect(pinch.last?.state == .ended, "\(context): \(s.summary.prefix(12))")
        return pinch.last { $0.state == .ended }?.scale
    }

    /// No line matches `unwanted`; a failure lists the first lines that do.
    private func expectNone(_ s: HandScript, _ context: Comment, _ unwanted: (GestureEvent) -> Bool,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = s.gestures.filter(unwanted).map { "\($0.gesture) \($0.state.rawValue)@\($0.time.microseconds / 1000) f\($0.fingers)" }
        #expect(lines.count == 0, "\(context): \(lines.prefix(8))", sourceLocation: sourceLocation)
    }

    private func expectWithinLimits(_ s: HandScript, _ context: Comment) {
        let wrong = Self.limits.violations(s.gestures)
        #expect(wrong.count == 0, "\(context): first: \(wrong.prefix(5))")
        let atOrigin = endsAtOrigin(s.outputs)
        #expect(atOrigin.count == 0, "\(context): \(atOrigin.prefix(3))")
    }

    /// Two fingers on a line through `centre` at `angle` degrees, `span` mm apart.
    private static func pair(_ f: Int, centre: Point, span: Double, angle: Double) -> Point {
        let a = angle * Double.pi / 180
        let half = Point(x: cos(a) * span / 2, y: sin(a) * span / 2)
        return f == 1 ? centre - half : centre + half
    }

    // MARK: - 1. Staggered landing

    /// Finger 1 lands and drifts 3.5 mm in its first 80 ms (on its own that is past the 3 mm pan
    /// threshold); finger 2 lands `delay` ms after it; both then spread to ×2.5 in 300 ms. A zoom:
    /// pinch, and no one-finger pan line at all.
    static func staggeredZoom(delay: Double) -> HandScript {
        var s = HandScript(.touchscreen)
        func x1(_ t: Double) -> Double { 40 - 3.5 * min(t, 80) / 80 }
        if delay == 0 {
            s.frame(0, .down(1, 40, 50), .down(2, 60, 50))
        } else {
            s.frame(0, .down(1, 40, 50))
            var t = 10.0
            while t < delay {
                if t <= 80 { s.frame(t, .move(1, x1(t), 50)) }
                t += 10
            }
            s.frame(delay, .down(2, 60, 50))
        }
        let start = x1(delay)
        let centre = Point(x: (start + 60) / 2, y: 50)
        let span0 = 60 - start
        s.strokes([1, 2], from: delay, to: delay + 300) { f, k in
            pair(f, centre: centre, span: span0 * (1 + 1.5 * k), angle: 0)
        }
        s.frame(delay + 310, .up(1))
        s.frame(delay + 320, .up(2))
        s.finish()
        return s
    }

    @Test(arguments: [0.0, 50, 120])
    func secondFingerLandingLateStillMakesAPinch(delay: Double) {
        let s = Self.staggeredZoom(delay: delay)
        let scale = pinchBeganAndEnded(s, "second finger \(delay) ms late")
        #expect((scale ?? 0) > 2, "final scale \(String(describing: scale))")
        expectNone(s, "one-finger pan, finger 2 \(delay) ms late") {
            Self.oneFingerPans.contains($0.gesture) || ($0.kind == .pan && $0.fingers == 1)
        }
        expectWithinLimits(s, "second finger \(delay) ms late")
    }

    @Test func aFingerJoiningEarlyIsExplainedAsDecidingAgain() {
        let s = Self.staggeredZoom(delay: 120)
        #expect(s.explanations.contains { $0.contains("deciding again") }, "\(s.explanations.filter { !$0.contains("received touch") }.prefix(40))")
    }

    /// A deliberate one-finger pan (12 mm in 200 ms) is under way when a second finger lands and
    /// rests while the first keeps going: the pan stays a one-finger pan following finger 1.
    static let secondFingerLands = Timestamp(microseconds: 200_000)

    @Test func aPanWellUnderWayIsNotTakenOverByALateSecondFinger() throws {
        var s = HandScript(.touchscreen)
        s.frame(0, .down(1, 20, 50))
        s.strokes([1], from: 0, to: 200) { _, k in Point(x: 20 + 12 * k, y: 50) }
        s.frame(200, .down(2, 60, 30))
        s.strokes([1], from: 200, to: 350) { _, k in Point(x: 32 + 15 * k, y: 50) }
        s.frame(360, .up(2))
        s.frame(370, .up(1))
        s.finish()
        let pan = s.gestures.filter { Self.oneFingerPans.contains($0.gesture) }
        try #require(pan.first?.state == .began, "\(s.summary.prefix(12))")
        #expect(pan.first!.time < Self.secondFingerLands, "the pan began before finger 2 landed")
        #expect(pan.last?.state == .ended, "\(s.summary.prefix(12))")
        #expect(pan.allSatisfy { $0.fingers == 1 }, "\(s.summary.prefix(12))")
        let offFinger1 = s.linesAway(pan.filter { $0.time >= Self.secondFingerLands }, from: 1, by: 1)
        #expect(offFinger1.count == 0, "pan location is not finger 1's: \(offFinger1.prefix(4))")
        expectNone(s, "late second finger") { $0.kind == .pinch || $0.kind == .rotation }
        expectNone(s, "late second finger") { $0.kind == .pan && $0.fingers >= 2 }
        expectWithinLimits(s, "late second finger")
    }

    /// Finger 1 rests still for 200 ms, then finger 2 lands and they zoom: nothing was under way, so
    /// this is a pinch.
    @Test func aStillFingerJoinedAt200msThenZoomIsAPinch() {
        var s = HandScript(.touchscreen)
        s.frame(0, .down(1, 40, 50))
        s.frame(200, .down(2, 60, 50))
        s.strokes([1, 2], from: 200, to: 500) { f, k in Self.pair(f, centre: Point(x: 50, y: 50), span: 20 * (1 + 1.5 * k), angle: 0) }
        s.frame(510, .up(1), .up(2))
        s.finish()
        let scale = pinchBeganAndEnded(s, "still finger then zoom")
        #expect((scale ?? 0) > 2)
        expectNone(s, "still finger then zoom") { $0.kind == .pan && $0.fingers == 1 }
        expectWithinLimits(s, "still finger then zoom")
    }

    // MARK: - 2. Pan or pinch by the fingers' motion

    /// One finger stays put, the other lands beside it and moves 25 mm straight away: a pinch.
    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func anchoredFingerZoomIsAPinch(kind: DeviceKind) {
        var s = HandScript(kind)
        s.frame(0, .down(1, 40, 35))
        s.frame(20, .down(2, 55, 35))
        s.strokes([2], from: 20, to: 270) { _, k in Point(x: 55 + 25 * k, y: 35) }
        s.frame(280, .up(2))
        s.frame(290, .up(1))
        s.finish()
        let scale = pinchBeganAndEnded(s, "anchored zoom on \(kind)")
        #expect((scale ?? 0) > 2, "40 mm / 15 mm")
        expectNone(s, "anchored zoom on \(kind)") { $0.kind == .pan }
        expectWithinLimits(s, "anchored zoom on \(kind)")
    }

    /// Both fingers move apart, 20 → 45 mm: a pinch.
    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func bothApartZoomIsAPinch(kind: DeviceKind) {
        var s = HandScript(kind)
        s.frame(0, .down(1, 40, 35), .down(2, 60, 35))
        s.strokes([1, 2], from: 0, to: 250) { f, k in Self.pair(f, centre: Point(x: 50, y: 35), span: 20 + 25 * k, angle: 0) }
        s.frame(260, .up(1), .up(2))
        s.finish()
        let scale = pinchBeganAndEnded(s, "both-apart zoom on \(kind)")
        #expect((scale ?? 0) > 2)
        expectNone(s, "both-apart zoom on \(kind)") { $0.kind == .pan }
        expectWithinLimits(s, "both-apart zoom on \(kind)")
    }

    /// Both fingers move 25 mm down together, their span within ± 0.4 mm: a two-finger pan.
    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func twoFingerScrollIsATwoFingerPan(kind: DeviceKind) throws {
        var s = HandScript(kind)
        s.frame(0, .down(1, 40, 15), .down(2, 60, 15))
        s.strokes([1, 2], from: 0, to: 250) { f, k in
            let wobble = 0.2 * sin(k * 4 * Double.pi)
            return Point(x: f == 1 ? 40 - wobble : 60 + wobble, y: 15 + 25 * k)
        }
        s.frame(260, .up(1), .up(2))
        s.finish()
        let pan = s.gestures.filter { Self.multiFingerPans.contains($0.gesture) }
        try #require(pan.first?.state == .began, "\(kind): \(s.summary.prefix(12))")
        #expect(pan.last?.state == .ended)
        #expect(pan.allSatisfy { $0.fingers == 2 })
        #expect((pan.last?.translation?.y ?? 0) > 20, "\(String(describing: pan.last?.translation))")
        expectNone(s, "\(kind)") { $0.kind == .pinch || $0.kind == .rotation }
        expectWithinLimits(s, "two-finger scroll on \(kind)")
    }

    // MARK: - 3. A zoom is not a rotation

    /// Fingers 40 mm apart turn 60° about their midpoint, span within ± 1 mm: a rotation.
    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func aSixtyDegreeTwistIsARotation(kind: DeviceKind) throws {
        var s = HandScript(kind)
        let centre = Point(x: 50, y: 35)
        s.frame(0, .down(1, 30, 35), .down(2, 70, 35))
        s.strokes([1, 2], from: 0, to: 400) { f, k in
            Self.pair(f, centre: centre, span: 40 + sin(k * 3 * Double.pi), angle: 60 * k)
        }
        s.frame(410, .up(1), .up(2))
        s.finish()
        let turn = s.gestures.filter { $0.kind == .rotation }
        try #require(turn.first?.state == .began, "\(kind): \(s.summary.prefix(12))")
        #expect(turn.last?.state == .ended)
        let degrees = (turn.last?.rotation ?? 0) * 180 / Double.pi
        #expect(degrees > 45 && degrees < 75, "\(degrees)°")
        expectNone(s, "\(kind)") { $0.kind == .pan }
        expectWithinLimits(s, "twist on \(kind)")
    }

    /// A ×3 zoom (20 → 60 mm) whose connecting line drifts 25° on the way: a pinch, no rotation.
    static func driftingZoom(_ kind: DeviceKind) -> HandScript {
        var s = HandScript(kind)
        let centre = Point(x: 50, y: 35)
        s.frame(0, .down(1, 40, 35), .down(2, 60, 35))
        s.strokes([1, 2], from: 0, to: 400) { f, k in pair(f, centre: centre, span: 20 + 40 * k, angle: 25 * k) }
        s.frame(410, .up(1), .up(2))
        s.finish()
        return s
    }

    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func aZoomWithAngleDriftIsNoRotation(kind: DeviceKind) {
        let s = Self.driftingZoom(kind)
        let scale = pinchBeganAndEnded(s, "drifting zoom on \(kind)")
        #expect((scale ?? 0) > 2.5)
        expectNone(s, "\(kind)") { $0.kind == .rotation }
        expectWithinLimits(s, "drifting zoom on \(kind)")
    }

    @Test func aZoomWithAngleDriftExplainsThatTheTurnDoesNotDominate() {
        let s = Self.driftingZoom(.touchscreen)
        #expect(s.explanations.contains { $0.contains("does not dominate") }, "\(s.explanations.filter { !$0.contains("received touch") }.prefix(40))")
    }

    // MARK: - 4. Touchpad hygiene

    /// Touch-down, the next report 10 ms later 3.5 mm away, then still; lift at 90 ms: one tap
    /// (recognized once the double tap's interval has passed), no pan.
    static func jumpThenStill() -> HandScript {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 50, 35))
        s.frame(10, .move(1, 50, 31.5))
        s.frame(90, .up(1))
        s.finish()
        return s
    }

    @Test func aFirstContactJumpThenAStillFingerIsATap() {
        let s = Self.jumpThenStill()
        let taps = s.gestures.filter { $0.kind == .tap }
        #expect(taps.count == 1, "\(s.summary.prefix(12))")
        #expect(taps.first?.state == .recognized)
        #expect(taps.first?.fingers == 1)
        #expect(taps.first?.taps == 1)
        expectNone(s, "jump then still") { $0.kind == .pan || $0.kind == .edgePan }
    }

    @Test func aFirstContactJumpIsExplained() {
        let s = Self.jumpThenStill()
        #expect(s.explanations.contains { $0.contains("first-contact jump") }, "\(s.explanations.filter { !$0.contains("received touch") }.prefix(40))")
    }

    /// The jump is ignored, not the finger: real motion after it is still a one-finger pan.
    @Test func aFirstContactJumpThenRealMotionIsStillAPan() throws {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 35))
        s.frame(10, .move(1, 30, 31.5))
        s.strokes([1], from: 10, to: 210) { _, k in Point(x: 30 + 20 * k, y: 31.5) }
        s.frame(220, .up(1))
        s.finish()
        let pan = s.gestures.filter { Self.oneFingerPans.contains($0.gesture) }
        try #require(pan.first?.state == .began, "\(s.summary.prefix(12))")
        #expect(pan.last?.state == .ended)
        #expect((pan.last?.translation?.x ?? 0) > 15, "\(String(describing: pan.last?.translation))")
        expectNone(s, "jump then motion") { $0.kind == .tap }
    }

    /// Contact A lands at `a` and stays still; `restMS` later contact B lands at `b` and moves 30 mm
    /// right in 300 ms; B lifts, then A. A is a resting thumb, not a gesture finger: the only gesture
    /// is B's one-finger pan.
    static func restingContact(a: Point, b: Point, restMS: Double) -> HandScript {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, a.x, a.y))
        s.frame(restMS, .down(2, b.x, b.y))
        s.strokes([2], from: restMS, to: restMS + 300) { _, k in Point(x: b.x + 30 * k, y: b.y) }
        s.frame(restMS + 310, .up(2))
        s.frame(restMS + 400, .up(1))
        s.finish()
        return s
    }

    /// Mid-pad, B lands 480 ms after A: just before the default long-press (500 ms) could begin on A,
    /// so the case is a still contact beside a moving one, not a long press that was already under way.
    @Test(arguments: [("thumb near the bottom edge, 800 ms", Point(x: 30, y: 64), Point(x: 45, y: 30), 800.0),
                      ("still contact mid-pad, 480 ms", Point(x: 50, y: 40), Point(x: 15, y: 15), 480.0)])
    func aRestingContactIsNotAGestureFinger(label: String, a: Point, b: Point, restMS: Double) throws {
        let s = Self.restingContact(a: a, b: b, restMS: restMS)
        let pan = s.gestures.filter { Self.oneFingerPans.contains($0.gesture) }
        try #require(pan.first?.state == .began, "\(label): \(s.summary.prefix(12))")
        #expect(pan.last?.state == .ended, "\(label)")
        #expect(pan.allSatisfy { $0.fingers == 1 }, "\(label): \(s.summary.prefix(12))")
        #expect((pan.last?.translation?.x ?? 0) > 25, "\(label): \(String(describing: pan.last?.translation))")
        // Within one frame of B's travel (1 mm at 100 Hz): a began released at the settle deadline
        // reports the last frame's location.
        let offB = s.linesAway(pan, from: 2, by: 1.5)
        #expect(offB.count == 0, "\(label): pan location is not B's: \(offB.prefix(4))")
        // Only the one-finger pan: no pinch, rotation or two-finger pan, and no tap from the resting
        // contact. A contact held alone for 500 ms is a long press until another finger lands and
        // shows it is a resting thumb: that long press is then cancelled, never ended.
        let resting = s.gestures.filter { $0.gesture == "long-press" }
        #expect(resting.isEmpty || resting.map(\.state) == [.began, .cancelled], "\(label): \(s.summary.prefix(12))")
        if let cancelled = resting.last { #expect(cancelled.time.microseconds / 1000 == Int64(restMS)) }
        expectNone(s, "\(label)") { !Self.oneFingerPans.contains($0.gesture) && $0.gesture != "long-press" }
        expectWithinLimits(s, "\(label)")
    }

    @Test func aRestingThumbIsExplained() {
        let s = Self.restingContact(a: Point(x: 30, y: 64), b: Point(x: 45, y: 30), restMS: 800)
        #expect(s.explanations.contains { $0.contains("resting") }, "\(s.explanations.filter { !$0.contains("received touch") }.prefix(40))")
    }
}
