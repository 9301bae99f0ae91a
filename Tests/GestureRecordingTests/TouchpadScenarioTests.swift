import GestureCore
import Testing

/// Touchpads are not touchscreens (docs/recognizers.md, "Touchpads"): one finger moving is the
/// pointer, the gesture is decided again whenever the finger count rises, and a three- or four-finger
/// swipe is continuous, begins after a few mm at any speed and has no time limit. Touchscreens keep
/// UIKit's rules, with staggered landing up to ~250 ms. Each scenario runs the default config on a
/// synthetic 100 × 70 mm clickpad (or 100 × 100 mm touchscreen) through the whole pipeline.
@Suite struct TouchpadScenarios {
    private func lines(_ s: HandScript, _ id: String) -> [GestureEvent] { s.gestures.filter { $0.gesture == id } }

    /// One swipe, began … ended, in `direction`, and nothing else of more than one finger.
    private func expectSwipe(_ s: HandScript, _ id: String, _ direction: SwipeDirection, fingers: Int,
                             _ context: Comment) {
        let swipe = lines(s, id)
        #expect(swipe.first?.state == .began, "\(context): \(s.summary.prefix(12))")
        #expect(swipe.last?.state == .ended, "\(context): \(s.summary.suffix(6))")
        #expect(swipe.filter { $0.state == .began }.count == 1, "\(context): one swipe")
        #expect(swipe.allSatisfy { $0.direction == direction && $0.fingers == fingers && $0.translation != nil },
                "\(context): \(swipe.map { "\($0.state) \($0.direction?.rawValue ?? "-")" }.prefix(6))")
        #expect(!s.gestures.contains { $0.kind == .pinch || $0.kind == .rotation }, "\(context): \(s.summary.prefix(12))")
        #expect(!s.gestures.contains { $0.kind == .pan && $0.fingers >= 2 }, "\(context): \(s.summary.prefix(12))")
    }

    /// Three fingers 15 mm apart, moving 8 mm left in 900 ms: a real touchpad swipe's size and speed.
    @Test func aSlowThreeFingerSwipeIsASwipe() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 30), .down(2, 55, 30), .down(3, 70, 30))
        s.strokes([1, 2, 3], from: 0, to: 900) { f, k in Point(x: 25 + 15 * Double(f) - 8 * k, y: 30) }
        s.frame(910, .up(1), .up(2), .up(3))
        s.finish()
        expectSwipe(s, "swipe-3", .left, fingers: 3, "8 mm in 900 ms")
        #expect(s.explanations.contains { $0.hasPrefix("swipe-3: swipe began: 3 fingers moved") }, "\(s.explanations.suffix(20))")
        // Its last translation is the whole stroke.
        #expect(abs((lines(s, "swipe-3").last?.translation?.x ?? 0) + 8) < 0.5)
    }

    @Test func aFourFingerSwipeIsASwipeOfFour() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 20, 40), .down(2, 35, 38), .down(3, 50, 37), .down(4, 65, 39))
        s.strokes([1, 2, 3, 4], from: 0, to: 400) { f, k in Point(x: 5 + 15 * Double(f), y: 40 - 12 * k) }
        s.frame(410, .up(1), .up(2), .up(3), .up(4))
        s.finish()
        expectSwipe(s, "swipe-4", .up, fingers: 4, "four fingers up")
        #expect(lines(s, "swipe-3").isEmpty)
    }

    /// The pointer finger moves alone for `alone` ms, then a second finger lands and both scroll down.
    @Test(arguments: [200.0, 400, 600])
    func pointerMotionThenATwoFingerScroll(alone: Double) {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 20))
        s.strokes([1], from: 0, to: alone) { _, k in Point(x: 40 + 15 * k, y: 20) }
        s.frame(alone + 10, .down(2, 70, 20))
        s.strokes([1, 2], from: alone + 10, to: alone + 400) { f, k in Point(x: f == 1 ? 55 : 70, y: 20 + 25 * k) }
        s.frame(alone + 410, .up(1), .up(2))
        s.finish()
        let scroll = lines(s, "two-finger-pan")
        #expect(scroll.first?.state == .began, "\(alone) ms alone: \(s.summary.prefix(10))")
        #expect(scroll.last?.state == .ended, "\(alone) ms alone: \(s.summary.suffix(4))")
        #expect(scroll.allSatisfy { $0.fingers == 2 })
        #expect((scroll.last?.translation?.y ?? 0) > 15, "the scroll's translation: \(String(describing: scroll.last?.translation))")
        #expect(!s.gestures.contains { $0.gesture == "pan" && $0.state == .ended },
                "the pointer's pan does not go on: \(s.summary.prefix(10))")
        #expect(s.explanations.contains("two-finger-pan: fingers 1 → 2 on a touchpad: deciding again"))
    }

    /// The pointer finger moves alone for `alone` ms, then two more land and the three swipe right.
    @Test(arguments: [200.0, 400, 600])
    func pointerMotionThenAThreeFingerSwipe(alone: Double) {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 30))
        s.strokes([1], from: 0, to: alone) { _, k in Point(x: 30, y: 30 + 10 * k) }
        s.frame(alone + 10, .down(2, 45, 40), .down(3, 60, 40))
        s.strokes([1, 2, 3], from: alone + 10, to: alone + 700) { f, k in
            Point(x: 15 + 15 * Double(f) + 10 * k, y: 40)
        }
        s.frame(alone + 710, .up(1), .up(2), .up(3))
        s.finish()
        expectSwipe(s, "swipe-3", .right, fingers: 3, "after \(alone) ms of pointer motion")
        #expect(s.explanations.contains("swipe-3: fingers 1 → 3 on a touchpad: deciding again"))
    }

    /// Three fingers land within 100 ms, the third lagging, and swipe down.
    @Test func threeFingersLandingStaggeredAreOneSwipe() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 20))
        s.frame(40, .down(2, 55, 20), .move(1, 40, 21))
        s.frame(100, .down(3, 70, 22), .move(1, 40, 22), .move(2, 55, 22))
        s.strokes([1, 2, 3], from: 100, to: 600) { f, k in Point(x: 25 + 15 * Double(f), y: 22 + 12 * k) }
        s.frame(610, .up(1), .up(2), .up(3))
        s.finish()
        expectSwipe(s, "swipe-3", .down, fingers: 3, "staggered landing")
    }

    /// Three fingers swipe right while the first two wobble against each other (a pair that, alone,
    /// turns past the rotation threshold): a swipe, no rotation, and explain says why.
    @Test func aNoisyPairOfThreeSwipingFingersIsNoTwist() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 30), .down(2, 52, 30), .down(3, 64, 30))
        s.strokes([1, 2, 3], from: 0, to: 800) { f, k in
            // Fingers 1 and 2 are 12 mm apart; ±1.5 mm of opposite vertical jitter turns their pair ~14°.
            let wobble = f == 3 ? 0 : (f == 1 ? 1.5 : -1.5) * (k < 0.5 ? k * 2 : 2 - k * 2)
            return Point(x: 28 + 12 * Double(f) + 9 * k, y: 30 + wobble)
        }
        s.frame(810, .up(1), .up(2), .up(3))
        s.finish()
        expectSwipe(s, "swipe-3", .right, fingers: 3, "noisy pair")
        #expect(s.explanations.contains { $0.hasPrefix("rotate: rotation not considered: 3 fingers down") },
                "\(s.explanations.filter { $0.hasPrefix("rotate") })")
    }

    /// Three fingers spread apart on a touchpad: not a swipe ("the fingers moved apart"), and the
    /// pinch, judged on all three fingers as libinput does, zooms in.
    @Test func threeFingersSpreadingOnATouchpadAreAPinch() {
        var s = HandScript(.touchpad)
        let centre = Point(x: 50, y: 35)
        let directions = [Point(x: -1, y: 0), Point(x: 0.5, y: -0.866), Point(x: 0.5, y: 0.866)]
        s.frame(0, .down(1, 42, 35), .down(2, 54, 28.1), .down(3, 54, 41.9))
        s.strokes([1, 2, 3], from: 0, to: 500) { f, k in centre + directions[f - 1] * (8 + 12 * k) }
        s.frame(510, .up(1), .up(2), .up(3))
        s.finish()
        let pinch = lines(s, "pinch")
        #expect(pinch.first?.state == .began, "\(s.summary.prefix(8))")
        #expect((pinch.last?.scale ?? 0) > 1.8, "the set's spread: \(String(describing: pinch.last?.scale))")
        #expect(lines(s, "swipe-3").isEmpty, "\(s.summary.prefix(8))")
        #expect(s.explanations.contains { $0.hasPrefix("swipe-3: not a swipe: the fingers moved") },
                "\(s.explanations.filter { $0.hasPrefix("swipe-3") })")
    }

    /// A thumb rests at the bottom of the pad; three fingers land and swipe left.
    @Test func aRestingThumbAndThreeMovingFingersAreAThreeFingerSwipe() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(9, 40, 65))
        s.frame(400, .down(1, 50, 25))
        s.frame(420, .down(2, 65, 25))
        s.frame(440, .down(3, 80, 25))
        s.strokes([1, 2, 3], from: 440, to: 1000) { f, k in Point(x: 35 + 15 * Double(f) - 12 * k, y: 25) }
        s.frame(1010, .up(1), .up(2), .up(3))
        s.frame(1100, .up(9))
        s.finish()
        expectSwipe(s, "swipe-3", .left, fingers: 3, "thumb resting")
        #expect(lines(s, "swipe-4").isEmpty, "the thumb is no fourth finger")
    }

    /// On a touchscreen the second finger lands `delay` ms after the first, which has moved 3 mm
    /// meanwhile; then they zoom: a pinch, never a one-finger pan.
    @Test(arguments: [175.0, 250])
    func aTouchscreenSecondFingerLateThenAZoomIsAPinch(delay: Double) {
        var s = HandScript(.touchscreen)
        s.frame(0, .down(1, 40, 50))
        s.strokes([1], from: 0, to: delay - 10) { _, k in Point(x: 40 - 3 * k, y: 50) }
        s.frame(delay, .down(2, 60, 50))
        s.strokes([1, 2], from: delay, to: delay + 300) { f, k in Point(x: f == 1 ? 37 - 15 * k : 60 + 15 * k, y: 50) }
        s.frame(delay + 310, .up(1), .up(2))
        s.finish()
        let pinch = lines(s, "pinch")
        #expect(pinch.first?.state == .began, "\(delay) ms: \(s.summary.prefix(10))")
        #expect((pinch.last?.scale ?? 0) > 1.8, "\(delay) ms: \(String(describing: pinch.last?.scale))")
        #expect(!s.gestures.contains { $0.kind == .pan }, "\(delay) ms: \(s.summary.prefix(10))")
    }

    /// A two-finger pan whose fingers lift one after the other ends where its fingers were (their
    /// centroid at their last positions), not on the finger lifted last.
    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func aTwoFingerPanEndsAtItsFingersCentroid(kind: DeviceKind) {
        var s = HandScript(kind)
        s.frame(0, .down(1, 30, 20), .down(2, 60, 20))
        s.strokes([1, 2], from: 0, to: 400) { f, k in Point(x: f == 1 ? 30 : 60, y: 20 + 30 * k) }
        s.frame(410, .up(1))
        s.frame(450, .up(2))
        s.finish()
        let pan = lines(s, "two-finger-pan")
        #expect(pan.last?.state == .ended, "\(kind): \(s.summary.suffix(4))")
        let end = pan.last?.location ?? .zero
        #expect(end.distance(to: Point(x: 45, y: 50)) < 1, "\(kind): ended at \(end)")
        let last = pan.dropLast().last?.location ?? .zero
        #expect(end.distance(to: last) < 1, "\(kind): its last changed line was at \(last)")
    }
}
