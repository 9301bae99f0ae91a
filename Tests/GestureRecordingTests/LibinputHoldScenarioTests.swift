@testable import GestureCore
import Testing

/// Two of libinput's touchpad rules that decide when a pinch begins (docs/recognizers.md, "Begin
/// with libinput"): its hold (fingers that rested 40 ms undecided hold, and a finger that lands then
/// counts only 100 ms later, the gesture decided from there) and its decision by directions (a
/// pinch begins no earlier than libinput could tell it from a scroll: both fingers moved 1.5 mm,
/// unless one moved 4 mm while the other rests). Default config, the synthetic 100 × 70 mm clickpad,
/// frames every 10 ms.
@Suite struct LibinputHoldScenarioTests {
    private func began(_ s: HandScript, _ id: String) -> Double? {
        s.gestures.first { $0.gesture == id && $0.state == .began }.map { Double($0.time.microseconds) / 1000 }
    }

    /// Finger 1 rests from 0 ms; finger 2 lands at `lands` ms; from 10 ms later both move apart
    /// 0.5 mm a frame. Landing after the 40 ms hold (60 ms), finger 2 counts at 160 and the pinch
    /// begins once both moved 1.5 mm from there (190). Landing before it (20 ms), it counts at once
    /// and the pinch begins at the third frame of motion (50).
    @Test(arguments: [(20.0, 50.0), (60.0, 190.0)])
    func aFingerLandingWhileLibinputHoldsCountsAHundredMillisecondsLater(lands: Double, pinchAt: Double) {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 35))
        s.frame(10, .move(1, 40, 35))
        s.frame(lands, .down(2, 60, 35))
        s.strokes([1, 2], from: lands, to: lands + 300) { f, k in Point(x: f == 1 ? 40 - 15 * k : 60 + 15 * k, y: 35) }
        s.frame(lands + 310, .up(1), .up(2))
        s.finish()
        #expect(began(s, "pinch") == pinchAt, "\(s.summary.prefix(8))")
        #expect(!s.gestures.contains { $0.state == .began && $0.gesture != "pinch" }, "\(s.summary.prefix(8))")
        let deciding = s.explanations.filter { $0.hasPrefix("pinch: fingers 1 → 2") }
        #expect(deciding.count == 1, "\(s.explanations.prefix(20))")
    }

    /// Two fingers land together; finger 2 moves right 0.5 mm a frame, finger 1 left 0.25: the span
    /// has changed 3 mm at 40 ms, when finger 1 has moved 1 mm. libinput cannot tell a pinch yet; it
    /// does at 60 ms (finger 1 past 1.5 mm, the other way): the pinch begins there, its span then
    /// changed 4.5 mm.
    @Test func aPinchWaitsUntilLibinputCanTellIt() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 35), .down(2, 60, 35))
        s.strokes([1, 2], from: 0, to: 300) { f, k in Point(x: f == 1 ? 40 - 7.5 * k : 60 + 15 * k, y: 35) }
        s.frame(310, .up(1), .up(2))
        s.finish()
        #expect(began(s, "pinch") == 60, "\(s.summary.prefix(8))")
        #expect(s.explanations.contains("pinch: span changed 4.5 mm >= 3 mm"), "\(s.explanations.suffix(8))")
    }

    /// Finger 1 rests while finger 2 moves away 0.5 mm a frame: libinput never decides these by the
    /// directions (it gives up once finger 2 has moved 4 mm while the other rests: its resting thumb),
    /// so the pinch about the resting finger goes on its span. It is published when the touchpad's
    /// settling ends (150 ms: no libinput decision ends it sooner, and the pair's centre moved less
    /// than 6 mm); waiting for a decision that never comes, it would never begin.
    @Test func aPinchAboutARestingFingerStillBegins() {
        var s = HandScript(.touchpad)
        s.frame(0, .down(1, 40, 35), .down(2, 60, 35))
        s.strokes([2], from: 0, to: 300) { _, k in Point(x: 60 + 15 * k, y: 35) }
        s.frame(310, .up(1), .up(2))
        s.finish()
        #expect(began(s, "pinch") == 150, "\(s.summary.prefix(8))")
    }
}
