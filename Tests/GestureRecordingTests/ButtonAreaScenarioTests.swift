@testable import GestureCore
import Testing

/// libinput's software button areas (docs/recognizers.md, "Begin with libinput"): on a clickpad a
/// finger that lands in the bottom button area (10 mm high, or 15 % of a lower pad) counts for no
/// scroll or pinch of two fingers until it leaves the area or moves more than 5 mm from where it
/// landed; the count of fingers then rises and the gesture is decided from there, like libinput's.
/// With three or four fingers down their gesture waits for it too, at most the hold limit past
/// libinput's decision about the others. Taps and the pointer still see it. Each scenario runs the default config on the synthetic 100 × 70 mm clickpad
/// (its button area: y ≥ 60 mm), frames every 10 ms.
@Suite struct ButtonAreaScenarioTests {
    /// When recognizer `id` began, ms, and in which direction.
    private func began(_ s: HandScript, _ id: String) -> (ms: Double, direction: SwipeDirection?)? {
        guard let g = s.gestures.first(where: { $0.gesture == id && $0.state == .began }) else { return nil }
        return (Double(g.time.microseconds) / 1000, g.direction)
    }

    /// Two fingers land in the button area at y = 65 and scroll up 0.5 mm a frame, at once or after
    /// resting 200 ms (settling over): they leave the area at the 11th frame of motion (y 59.5), and
    /// the scroll begins once both moved 1.5 mm from there, at the 14th. Not at the 3rd (libinput's
    /// decision on fingers that count) nor, after the rest, at the 6th (the pan's own 3 mm).
    @Test(arguments: [0.0, 200.0]) func aScrollFromTheButtonAreaBeginsOncePastItLikeLibinput(rest: Double) {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 65), .down(2, 60, 65))
        if rest > 0 { s.frame(100, .move(1, 40, 65), .move(2, 60, 65)) }
        s.strokes([1, 2], from: rest, to: rest + 300) { f, k in Point(x: f == 1 ? 40 : 60, y: 65 - 15 * k) }
        s.frame(rest + 310, .up(1), .up(2))
        s.finish()
        #expect(s.gestures.allSatisfy { $0.gesture == "two-finger-pan" }, "\(s.summary.prefix(6))")
        #expect(began(s, "two-finger-pan")?.ms == rest + 140, "\(s.summary.prefix(6))")
        let why = s.explanations.filter { $0.hasPrefix(":") || $0.hasPrefix("two-finger-pan: fingers") }
        #expect(why.contains(": contact 1 left the button area: counted for motion gestures")
                    && why.contains("two-finger-pan: fingers 0 → 2 on a touchpad: deciding again"), "\(why)")
    }

    /// libinput's `touchpad_2fg_scroll_from_btnareas`: the first finger moves up alone for five
    /// frames, then both move. The first counts once it moved 5.6 mm (> 5) inside the area, and the
    /// second, which landed with it, counts then too (libinput releases the fingers that landed
    /// within 80 ms of it: they are one gesture's). The scroll begins once both moved 1.5 mm from
    /// there, not while the second still rested in the area.
    @Test func aFingerMovingMoreThanFiveMillimetresInTheAreaCountsWithTheFingerThatLandedWithIt() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 68), .down(2, 50, 68))
        for k in 1...5 { s.frame(Double(10 * k), .move(1, 30, 68 - 0.7 * Double(k))) }
        for k in 1...20 {
            s.frame(Double(50 + 10 * k), .move(1, 30, 64.5 - 0.7 * Double(k)), .move(2, 50, 68 - 0.7 * Double(k)))
        }
        s.frame(260, .up(1), .up(2))
        s.finish()
        // The first finger moved 5.6 mm at k = 3 (80 ms); the second 1.5 mm more takes three frames.
        #expect(s.explanations.contains(": contact 1 moved 5.6 mm > 5 mm in the button area: counted for motion gestures"),
                "\(s.explanations.prefix(16))")
        #expect(s.explanations.contains(": contact 2 landed 0 ms from contact 1, which is counted now: counted for motion gestures too"),
                "\(s.explanations.prefix(16))")
        #expect(began(s, "two-finger-pan")?.ms == 110, "\(s.summary.prefix(6))")
        #expect(!s.gestures.contains { $0.kind == .pinch || $0.kind == .rotation }, "\(s.summary.prefix(6))")
    }

    /// A finger resting on the buttons since before the other landed (a thumb: 200 ms earlier) is not
    /// released with it when that finger moves 5 mm in the area: the other finger alone is no scroll,
    /// and the thumb counts only once it moves 5 mm or leaves the area itself.
    @Test func aThumbRestingOnTheButtonsIsNotReleasedByALaterFinger() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 68))
        s.frame(100, .move(1, 30, 68))
        s.frame(200, .down(2, 50, 66))
        for k in 1...20 { s.frame(Double(200 + 10 * k), .move(2, 50, 66 - 0.7 * Double(k))) }
        s.frame(420, .up(1), .up(2))
        s.finish()
        #expect(s.explanations.contains(": contact 2 moved 5.6 mm > 5 mm in the button area: counted for motion gestures"),
                "\(s.explanations.filter { $0.hasPrefix(":") })")
        #expect(!s.explanations.contains { $0.contains("which is counted now") }, "\(s.explanations.filter { $0.hasPrefix(":") })")
        #expect(!s.gestures.contains { $0.gesture == "two-finger-pan" || $0.kind == .pinch || $0.kind == .rotation },
                "\(s.summary.prefix(6))")
    }

    /// One finger alone in the button area (8 mm from the bottom edge, outside the edge pan's zone)
    /// is the pointer as anywhere, after 1.3 mm (the 3rd frame at 0.5 mm a frame): libinput's pointer
    /// would wait until it left the area, but a pointer moved from the bottom of the pad then became
    /// the bottom edge pan in real recordings.
    @Test func aPointerInTheButtonAreaIsNotHeld() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 50, 62))
        s.strokes([1], from: 0, to: 200) { _, k in Point(x: 50, y: 62 - 10 * k) }
        s.frame(210, .up(1))
        s.finish()
        #expect(began(s, "pan")?.ms == 30, "\(s.summary.prefix(6))")
    }

    /// Three fingers swipe right 0.7 mm a frame, the middle one in the button area (libinput's
    /// `cros-cyan` left swipe in small). libinput scrolls with the other two once they moved 1.5 mm
    /// (30 ms); the middle one counts once it moved 5.6 mm (80 ms), and the count's switch to three
    /// waits 100 ms as libinput's does, because a gesture of the others began; the swipe is decided
    /// from there and begins once its highest and lowest fingers moved 2 mm the same way: 210 ms,
    /// not at 30 ms as when the finger counted from its landing.
    @Test func aSwipeOfThreeWithOneOnTheButtonsBeginsWhereLibinputsDoes() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 35, 40), .down(2, 50, 64), .down(3, 65, 40))
        s.strokes([1, 2, 3], from: 0, to: 300) { f, k in
            Point(x: 20 + 15 * Double(f) + 21 * k, y: f == 2 ? 64 : 40)
        }
        s.frame(310, .up(1), .up(2), .up(3))
        s.finish()
        let swipe = began(s, "swipe-3")
        #expect(swipe?.direction == .right && swipe?.ms == 210, "\(s.summary.prefix(6))")
        #expect(s.explanations.contains(": contact 2 moved 5.6 mm > 5 mm in the button area: counted for motion gestures"),
                "\(s.explanations.filter { $0.hasPrefix(":") })")
        #expect(s.gestures.allSatisfy { $0.gesture == "swipe-3" }, "\(s.summary.prefix(6))")
    }

    /// The same hand whose middle finger stays in the button area, moving 0.2 mm a frame (never 5 mm
    /// before the lift): libinput would scroll with the other two to the end. The gesture of all three
    /// waits for it no longer than the hold limit (150 ms) past libinput's decision about the other
    /// two (30 ms); then it counts with them as if it always had, and the swipe goes on from what it
    /// measured meanwhile: it begins at 180 ms, not at the lift.
    @Test func aFingerThatStaysOnTheButtonsHoldsTheSwipeOfThreeOnlyForTheHoldLimit() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 35, 40), .down(2, 50, 64), .down(3, 65, 40))
        s.strokes([1, 2, 3], from: 0, to: 300) { f, k in
            Point(x: 20 + 15 * Double(f) + (f == 2 ? 6 : 21) * k, y: f == 2 ? 64 : 40)
        }
        s.frame(310, .up(1), .up(2), .up(3))
        s.finish()
        let swipe = began(s, "swipe-3")
        #expect(swipe?.direction == .right && swipe?.ms == 180, "\(s.summary.prefix(6))")
        #expect(s.explanations.contains(
            ": contact 2 rests in the button area while the other fingers' gesture went on 150 ms: counted for motion gestures with them"),
                "\(s.explanations.filter { $0.hasPrefix(":") })")
        #expect(s.gestures.allSatisfy { $0.gesture == "swipe-3" }, "\(s.summary.prefix(6))")
    }

    /// A tap in the button area is still a tap.
    @Test func aTapInTheButtonAreaIsATap() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 66))
        s.frame(60, .up(1))
        s.finish()
        #expect(s.gestures.contains { $0.gesture == "tap" && $0.state == .recognized }, "\(s.summary)")
    }
}
