import GestureCore
import Testing

/// A tap just before a two- or three-finger gesture on a touchpad (libinput's
/// `touchpad_tap_n_drag_2fg_scroll` and `touchpad_tap_n_drag_3fg_swipe`: "tap with 1-3 fingers, then
/// immediate 2fg scroll / 3fg swipe. We expect this to be a tap followed by a scroll / swipe"). The
/// tap is reported and the fingers that land after it are the scroll's or the swipe's, whatever their
/// distance from the tap. A tap, then one finger that moves, stays one drag (tap-and-drag).
@Suite struct TapThenGestureScenarios {
    /// A tap of `tapFingers` fingers (down 0 ms, up at 60 ms), then `fingers` fingers landing
    /// `gap` ms later (one frame apart each) and moving 14 mm down together in 100 ms.
    private func script(tapFingers: Int, gap: Double, fingers: Int, nearTheTap: Bool = false) -> HandScript {
        var s = HandScript(.touchpad)
        let tapX: [Double] = [40, 50, 60]
        s.frame(0, (0..<tapFingers).map { .down(10 + $0, tapX[$0], 20) })
        s.frame(60, (0..<tapFingers).map { .up(10 + $0) })
        let x0 = nearTheTap ? 42.0 : 30
        let xs = (0..<fingers).map { x0 + 20 * Double($0) }
        var t = 60 + gap
        for f in 0..<fingers {
            s.frame(t, .down(f, xs[f], 35))
            t += 1
        }
        s.strokes(Array(0..<fingers), from: t, to: t + 100) { f, k in Point(x: xs[f], y: 35 + 14 * k) }
        s.frame(t + 110, (0..<fingers).map { .up($0) })
        s.finish()
        return s
    }

    private func tapName(_ fingers: Int) -> String { ["tap", "two-finger-tap", "three-finger-tap"][fingers - 1] }

    /// The tap, then a two-finger scroll (`two-finger-pan`) or a three-finger swipe down (`swipe-3`).
    @Test(arguments: [1, 2, 3], [20.0, 100, 250])
    func aTapThenAScrollOrASwipeIsATapThenTheGesture(tapFingers: Int, gap: Double) {
        for fingers in [2, 3] {
            let s = script(tapFingers: tapFingers, gap: gap, fingers: fingers)
            let summary = s.summary.filter { !$0.contains("changed") }
            let context: Comment = "\(tapFingers)-finger tap, \(gap) ms, then \(fingers) fingers: \(summary) \(s.explanations.suffix(30))"
            #expect(s.gestures.filter { $0.kind == .tap }.map(\.gesture) == [tapName(tapFingers)], context)
            let gesture = s.gestures.filter { $0.gesture == (fingers == 2 ? "two-finger-pan" : "swipe-3") }
            #expect(gesture.first?.state == .began, context)
            #expect(gesture.last?.state == .ended, context)
            #expect(gesture.allSatisfy { $0.fingers == fingers && (fingers == 2 || $0.direction == .down) }, context)
            #expect(!s.gestures.contains { $0.kind == .pinch || $0.kind == .rotation || $0.gesture == "pan" }, context)
            #expect(fingers == 2 || !s.gestures.contains { $0.kind == .pan }, context)
            // A single tap lets go of the later fingers once two are down (the third lands after).
            if tapFingers == 1 {
                #expect(s.explanations.contains("tap: a tap before 2 fingers landed: the tap stands, the fingers are the next gesture's"),
                        context)
            }
        }
    }

    /// The first of the scroll's fingers lands where the tap was (a double tap's second tap could begin).
    @Test func aTapThenAScrollStartingOnTheTapIsATapThenAScroll() {
        let s = script(tapFingers: 1, gap: 60, fingers: 2, nearTheTap: true)
        let context: Comment = "\(s.summary.filter { !$0.contains("changed") }) \(s.explanations.suffix(30))"
        #expect(s.gestures.filter { $0.kind == .tap }.map(\.gesture) == ["tap"], context)
        #expect(s.gestures.first { $0.gesture == "two-finger-pan" }?.state == .began, context)
    }
}

