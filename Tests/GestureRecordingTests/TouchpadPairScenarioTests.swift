@testable import GestureCore
import Testing

/// Touchpads begin with libinput (docs/recognizers.md, "Touchpads"): the gesture is decided as soon
/// as two of its fingers (both of a pair; the highest and the lowest of three or four) have moved
/// 1.5 / 2 / 2.5 mm, by their directions in 45° sectors (`TouchpadPairClassifier`); settling ends
/// there and the pan, swipe and pinch begin on it, before their own 3 mm. One finger alone is the
/// pointer once it moved 1.3 mm. Each scenario runs the default config on the synthetic 100 × 70 mm
/// clickpad, frames every 10 ms; without the decision each gesture below began only after 3 mm and
/// the 6 mm (or 150 ms) of settling.
@Suite struct TouchpadPairScenarioTests {
    private func began(_ s: HandScript, _ id: String) -> GestureEvent? {
        s.gestures.first { $0.gesture == id && $0.state == .began }
    }

    private func ms(_ g: GestureEvent?) -> Double? { g.map { Double($0.time.microseconds) / 1000 } }

    /// Two fingers scrolling down 0.6 mm a frame: both past 1.5 mm at the third frame, where the
    /// scroll begins (not at 3 mm, 50 ms, nor after 6 mm of settling, 100 ms).
    @Test func aTwoFingerScrollBeginsWhenBothFingersMovedOneAndAHalfMillimetres() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 30), .down(2, 60, 30))
        s.strokes([1, 2], from: 0, to: 400) { f, k in Point(x: f == 1 ? 40 : 60, y: 30 + 24 * k) }
        s.frame(410, .up(1), .up(2))
        s.finish()
        let scroll = began(s, "two-finger-pan")
        #expect(ms(scroll) == 30, "\(s.summary.prefix(6))")
        #expect((scroll?.translation?.y ?? 0) < 3, "began before the pan's own 3 mm: \(String(describing: scroll?.translation))")
        #expect(s.explanations.contains("two-finger-pan: 2 fingers moved the same way 1.8 mm: libinput's scroll"),
                "\(s.explanations.filter { $0.hasPrefix("two-finger-pan") })")
        #expect(!s.gestures.contains { $0.kind == .pinch || $0.kind == .rotation }, "\(s.summary.prefix(6))")
    }

    /// Two fingers moving apart on a slant, 0.4 mm sideways and 0.33 mm up or down a frame: past 1.5 mm
    /// at the third frame, different ways, so the pinch begins there with its span 2.4 mm wider (its own
    /// threshold is 3 mm).
    @Test func aPinchBeginsOnTheDecisionBeforeItsThreeMillimetres() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 35), .down(2, 60, 35))
        s.strokes([1, 2], from: 0, to: 300) { f, k in
            let d = Point(x: 12, y: 10) * k
            return f == 1 ? Point(x: 40, y: 35) - d : Point(x: 60, y: 35) + d
        }
        s.frame(310, .up(1), .up(2))
        s.finish()
        let pinch = began(s, "pinch")
        #expect(ms(pinch) == 30, "\(s.summary.prefix(6))")
        #expect(s.explanations.contains { $0.hasPrefix("pinch: 2 fingers moved different ways (span changed 2.") && $0.hasSuffix("libinput's pinch") },
                "\(s.explanations.filter { $0.hasPrefix("pinch") })")
        #expect(!s.gestures.contains { $0.gesture == "two-finger-pan" }, "\(s.summary.prefix(6))")
    }

    /// Three fingers swiping right 0.7 mm a frame: the highest and the lowest past 2 mm at the third
    /// frame, the same way: the swipe begins there, 2.1 mm along (its begin distance is 3 mm).
    @Test func aThreeFingerSwipeBeginsWhenItsFingersMovedTwoMillimetres() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 35, 30), .down(2, 50, 30), .down(3, 65, 31))
        s.strokes([1, 2, 3], from: 0, to: 500) { f, k in Point(x: 20 + 15 * Double(f) + 35 * k, y: f == 3 ? 31 : 30) }
        s.frame(510, .up(1), .up(2), .up(3))
        s.finish()
        let swipe = began(s, "swipe-3")
        #expect(ms(swipe) == 30, "\(s.summary.prefix(6))")
        #expect(swipe?.direction == .right)
        #expect(s.explanations.contains("swipe-3: swipe began: 3 fingers moved 2.1 mm together"),
                "\(s.explanations.filter { $0.hasPrefix("swipe-3") })")
    }

    /// Three fingers closing in on their middle 0.8 mm a frame: the highest and the lowest move
    /// opposite ways, past 2 mm at the third frame. The pinch begins there, though the three-finger
    /// tap has not yet failed on its 5 mm (libinput's tap gives up after 1.3 mm) and the swipe has
    /// not yet seen its fingers 3 mm apart.
    @Test func aThreeFingerPinchBeginsOnTheDecisionThoughTheTapStillWaits() {
        var s = HandScript(.touchpad)
        let middle = Point(x: 50, y: 35)
        let start = [Point(x: 35, y: 30), Point(x: 65, y: 30), Point(x: 50, y: 50)]
        s.frame(0, .down(1, start[0].x, start[0].y), .down(2, start[1].x, start[1].y), .down(3, start[2].x, start[2].y))
        s.strokes([1, 2, 3], from: 0, to: 100) { f, k in
            let p = start[f - 1], towards = middle - p
            return p + towards * (8 * k / towards.length)
        }
        s.frame(110, .up(1), .up(2), .up(3))
        s.finish()
        let pinch = began(s, "pinch")
        #expect(ms(pinch) == 30, "\(s.summary.prefix(6))")
        #expect(pinch?.fingers == 3)
        #expect(s.explanations.contains("three-finger-tap: excluded by pinch"),
                "\(s.explanations.filter { $0.hasPrefix("three-finger-tap") })")
        #expect(!s.gestures.contains { $0.gesture == "swipe-3" || $0.gesture == "three-finger-tap" }, "\(s.summary.prefix(6))")
    }

    /// One finger moving 0.5 mm a frame is the pointer from its third frame, 1.5 mm along.
    @Test func onePointerFingerBeginsAfterOnePointThreeMillimetres() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 50, 30))
        s.strokes([1], from: 0, to: 300) { _, k in Point(x: 50 + 15 * k, y: 30) }
        s.frame(310, .up(1))
        s.finish()
        let pan = began(s, "pan")
        #expect(ms(pan) == 30, "\(s.summary.prefix(6))")
        #expect(s.explanations.contains("pan: moved 1.5 mm >= 1.3 mm: libinput's pointer"),
                "\(s.explanations.filter { $0.hasPrefix("pan") })")
    }

    /// A finger that wobbles 1 mm and lifts is still a tap: the pointer needs 1.3 mm.
    @Test func aTapThatWobblesLessThanOnePointThreeMillimetresIsATap() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 50, 30))
        s.frame(20, .move(1, 50.6, 30.6))
        s.frame(40, .move(1, 50.7, 30.7))
        s.frame(60, .up(1))
        s.finish()
        #expect(s.gestures.contains { $0.gesture == "tap" && $0.state == .recognized }, "\(s.summary)")
        #expect(!s.gestures.contains { $0.gesture == "pan" }, "\(s.summary)")
    }

    /// libinput's one-finger scroll, along the pair's line: two fingers side by side scroll sideways,
    /// the left one 1 mm a frame from the first frame, the right one 0.5 mm a frame from the third.
    /// At the fourth frame the leader has moved 4 mm and the other 1 mm the same way: libinput
    /// scrolls there (the lower finger leads; the upper moved less than 1.5 mm), and so does the pan,
    /// though the fingers are not yet together as a pan's (it would wait until the sixth frame).
    @Test func aSidewaysScrollWhoseFirstFingerLeadsBeginsOnLibinputsOneFingerScroll() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 41), .down(2, 50, 40))
        for k in 1...12 {
            let d = Double(k)
            s.frame(10 * d, .move(1, 30 + d, 41), .move(2, 50 + 0.5 * max(0, d - 2), 40))
        }
        s.frame(130, .up(1), .up(2))
        s.finish()
        #expect(ms(began(s, "two-finger-pan")) == 40, "\(s.summary.prefix(6))")
        #expect(!s.gestures.contains { $0.kind == .pinch || $0.kind == .rotation }, "\(s.summary.prefix(6))")
    }

    /// The same leader beside a finger that stays (it never moves 1 mm): a zoom about an anchored
    /// finger, not libinput's one-finger scroll here. And the leader moving across the line instead,
    /// the other dragged 1 mm the same way as the turn starts (a turn about a pivot finger, which
    /// libinput would scroll): a rotation, no scroll either.
    @Test(arguments: [(Point(x: 1, y: 0), Point(x: 0, y: 0), "pinch"), (Point(x: 0, y: 1), Point(x: 0, y: 0.25), "rotate")])
    func aLeaderBesideAnAnchoredFingerIsNoScroll(step: Point, drift: Point, gesture: String) {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 30, 41), .down(2, 50, 40))
        for k in 1...20 {
            let d = Double(k), dragged = min(d, 4), jitter = k % 2 == 0 ? 0.2 : 0
            s.frame(10 * d, .move(1, 30 + step.x * min(d, 12), 41 + step.y * d),
                    .move(2, 50 + drift.x * dragged + jitter, 40 + drift.y * dragged))
        }
        s.frame(210, .up(1), .up(2))
        s.finish()
        #expect(began(s, gesture) != nil, "\(s.summary.prefix(6))")
        #expect(began(s, "two-finger-pan") == nil, "\(s.summary.prefix(6))")
    }
}

/// libinput's decision itself (`TouchpadPairClassifier.judge`, `Octants`).
@Suite struct TouchpadPairClassifierTests {
    private func judge(_ a: Point, _ b: Point, _ n: Int = 2) -> TouchpadVerdict {
        TouchpadPairClassifier.judge(firstMoved: a, secondMoved: b, fingers: n)
    }

    @Test func bothFingersMustMoveTheLeastBeforeTheirDirectionsCount() {
        #expect(judge(Point(x: 0, y: 1.6), Point(x: 0.2, y: 1.6)) == .together)
        #expect(judge(Point(x: 0, y: 1.4), Point(x: 0, y: 5)) == .undecided)
        #expect(judge(Point(x: 0, y: -1.6), Point(x: 0, y: 1.6)) == .apart)
        // Three fingers need 2 mm, four 2.5 mm.
        #expect(judge(Point(x: 1.9, y: 0), Point(x: 1.9, y: 0), 3) == .undecided)
        #expect(judge(Point(x: 2.1, y: 0), Point(x: 2.1, y: 0), 3) == .together)
        #expect(judge(Point(x: 2.4, y: 0), Point(x: 2.4, y: 0), 4) == .undecided)
        #expect(judge(Point(x: 2.6, y: 0), Point(x: -2.6, y: 0), 4) == .apart)
    }

    @Test func directionsInNeighbouringSectorsAreTheSameWay() {
        // Right and down-right (45° apart) are neighbours; right and down (90°) are not.
        #expect(judge(Point(x: 3, y: 0), Point(x: 3, y: 3)) == .together)
        #expect(judge(Point(x: 3, y: 0), Point(x: 0, y: 3)) == .apart)
        // Up and up-left wrap around sector 0.
        #expect(Octants(Point(x: 0, y: -3)).neighbours(Octants(Point(x: -3, y: -3))))
    }

    /// Motions under 2 mm on both axes cover their quadrant's three sectors: two fingers spreading
    /// sideways while both drift down read as the same way (libinput's first guess, a scroll), and
    /// once they moved far enough to tell, within 300 ms, the decision becomes a pinch.
    @Test func aShortSpreadReadAsAScrollBecomesAPinch() {
        #expect(judge(Point(x: -1.6, y: 0.3), Point(x: 1.6, y: 0.3)) == .together)
        let device = DeviceRef(id: 0, name: "pad", kind: .touchpad)
        func frame(_ ms: Int64, _ spread: Double) -> [Touch] {
            [Touch(id: TouchID(1), phase: .moved, location: .zero, physicalLocation: Point(x: 40 - spread, y: 30 + spread / 5),
                   time: Timestamp(microseconds: ms * 1000), device: device),
             Touch(id: TouchID(2), phase: .moved, location: .zero, physicalLocation: Point(x: 60 + spread, y: 30.1 + spread / 5),
                   time: Timestamp(microseconds: ms * 1000), device: device)]
        }
        var c = TouchpadPairClassifier()
        c.update(frame(0, 0), at: Timestamp(microseconds: 0))
        c.update(frame(20, 1.6), at: Timestamp(microseconds: 20_000))
        #expect(c.verdict == .together)
        c.update(frame(40, 3), at: Timestamp(microseconds: 40_000))
        #expect(c.verdict == .apart)
        // Past 300 ms a decision stands.
        var late = TouchpadPairClassifier()
        late.update(frame(0, 0), at: Timestamp(microseconds: 0))
        late.update(frame(20, 1.6), at: Timestamp(microseconds: 20_000))
        late.update(frame(320, 3), at: Timestamp(microseconds: 320_000))
        #expect(late.verdict == .together)
    }
}
