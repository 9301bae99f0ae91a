import Foundation
import Testing
@testable import GestureCore

/// The UIKit conformance scenarios. P is the full surface containing C (20...80 mm); recognizers on P
/// unless said. Defaults: tap interval 300 ms, tap movement 5 mm, long press 500 ms / 3 mm, pan 3 mm,
/// swipe 10 mm in 500 ms, pinch 3 mm, rotation 8°, edge zone 5 mm.
@Suite("Conformance")
struct ConformanceTests {
    @Test("scenario 1: tap in C recognizes on P; C's stream shows began then cancelled")
    func scenario1() {
        var s = Scenario(pc([tap("tap")]))
        s.frame(0, .down(1, 50, 50))
        s.frame(100, .up(1))
        #expect(s.log("tap") == ["recognized@100"])
        #expect(s.stream("C") == ["began@0", "cancelled@100"])
        #expect(s.events("tap").first?.region == "P")
        #expect(s.events("tap").first?.device == "test-screen")
        #expect(s.settled)
    }

    @Test("scenario 2: cancels-touches off: C's stream shows began / ended and the tap recognizes")
    func scenario2() {
        var s = Scenario(pc([tap("tap", cancels: false)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(100, .up(1))
        #expect(s.log("tap") == ["recognized@100"])
        #expect(s.stream("C") == ["began@0", "ended@100"])
    }

    @Test("scenario 3: delays-touches-began on, tap recognized: C's stream shows nothing")
    func scenario3() {
        var s = Scenario(pc([tap("tap", delaysBegan: true)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(50, .move(1, 51, 50))
        s.frame(100, .up(1))
        #expect(s.log("tap") == ["recognized@100"])
        #expect(s.stream("C").isEmpty)
    }

    @Test("scenario 4: delays-touches-began on, dragged 20 mm: held began, a moved to the current point, then live")
    func scenario4() {
        var s = Scenario(pc([tap("tap", delaysBegan: true)]))
        s.frame(0, .down(1, 40, 50))
        s.frame(20, .move(1, 43, 50))
        #expect(s.stream("C").isEmpty)
        s.frame(40, .move(1, 60, 50))
        s.frame(60, .move(1, 65, 50))
        s.frame(80, .up(1))
        #expect(s.log("tap").isEmpty)
        #expect(s.reasons("tap") == ["moved 20 mm > 5 mm"])
        #expect(s.stream("C") == ["began@40", "moved@40", "moved@60", "ended@80"])
        let events = s.touchEvents("C")
        #expect(events.map(\.location) == [Point(x: 40, y: 50), Point(x: 60, y: 50), Point(x: 65, y: 50),
                                           Point(x: 65, y: 50)])
        #expect(s.settled)
    }

    @Test("scenario 5: a tap goes possible → recognized → possible, never began or changed")
    func scenario5() {
        var s = Scenario(pc([tap("tap")]))
        s.frame(0, .down(1, 50, 50))
        s.frame(100, .up(1))
        #expect(s.explain("tap") == ["possible->recognized", "recognized->possible"])
        #expect(s.events("tap").map(\.state) == [.recognized])
        #expect(s.events("tap").first?.taps == 1)
        #expect(s.settled)
    }

    @Test("scenario 6: single tap waits for double tap to fail")
    func scenario6() {
        var s = Scenario(pc([tap("single", requireToFail: ["double"]), tap("double", taps: 2)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(80, .up(1))
        #expect(s.log("single").isEmpty)
        #expect(s.engine.nextDeadline == Scenario.ms(380))
        s.advance(379)
        #expect(s.log("single").isEmpty)
        s.advance(380)
        #expect(s.log("single") == ["recognized@380"])
        #expect(s.log("double").isEmpty)
        #expect(s.reasons("double") == ["too slow: no next tap within 300 ms"])
        #expect(s.reasons("single", to: .recognized) == ["1 tap completed"])
        #expect(s.settled)
        #expect(s.engine.nextDeadline == nil)
    }

    @Test("scenario 7: single requires double to fail; a double tap: double at the second up, single never")
    func scenario7() {
        var s = Scenario(pc([tap("single", requireToFail: ["double"]), tap("double", taps: 2)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(80, .up(1))
        s.frame(200, .down(1, 51, 50))
        s.frame(280, .up(1))
        s.finish()
        #expect(s.log("double") == ["recognized@280"])
        #expect(s.events("double").first?.taps == 2)
        #expect(s.log("single").isEmpty)
        #expect(s.reasons("single") == ["required double to fail, which recognized"])
        #expect(s.settled)
    }

    @Test("scenario 8: single and double with no relation: single on the first up, double on the second")
    func scenario8() {
        var s = Scenario(pc([tap("single"), tap("double", taps: 2)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(80, .up(1))
        s.frame(200, .down(1, 51, 50))
        s.frame(280, .up(1))
        s.finish()
        #expect(s.log("single") == ["recognized@80"])
        #expect(s.log("double") == ["recognized@280"])
        #expect(s.reasons("single") == ["excluded by double"])
        #expect(s.settled)
    }

    @Test("scenario 9: two-finger tap recognizes at the centroid; one finger gives nothing")
    func scenario9() {
        var s = Scenario(pc([tap("two", fingers: 2)]))
        s.frame(0, .down(1, 40, 50), .down(2, 60, 60))
        s.frame(90, .up(1))
        s.frame(100, .up(2))
        #expect(s.log("two") == ["recognized@100"])
        #expect(s.events("two").first?.location == Point(x: 50, y: 55))
        #expect(s.events("two").first?.fingers == 2)
        s.clear()
        s.frame(1000, .down(1, 40, 50))
        s.frame(1100, .up(1))
        s.finish()
        #expect(s.log("two").isEmpty)
        #expect(s.reasons("two") == ["1 finger, needs 2"])
        #expect(s.settled)
    }

    @Test("scenario 10: long press began at 0.5 s from the timer, changed on a 1 mm move, ended at lift")
    func scenario10() {
        var s = Scenario(pc([spec("press", .longPress)]))
        s.frame(0, .down(1, 50, 50))
        #expect(s.engine.nextDeadline == Scenario.ms(500))
        s.advance(600)
        #expect(s.log("press") == ["began@500"])
        s.frame(650, .move(1, 51, 50))
        s.frame(700, .up(1))
        #expect(s.log("press") == ["began@500", "changed@650", "ended@700"])
        #expect(s.events("press").first?.location == Point(x: 50, y: 50))
        #expect(s.settled)
    }

    @Test("scenario 11: long press lifted at 0.3 s fails; moved beyond the allowance before 0.5 s fails")
    func scenario11() {
        var s = Scenario(pc([spec("press", .longPress)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(300, .up(1))
        s.finish()
        #expect(s.log("press").isEmpty)
        #expect(s.reasons("press") == ["lifted after 300 ms < 500 ms"])
        s.clear()
        s.frame(1000, .down(1, 50, 50))
        s.frame(1200, .move(1, 54, 50))
        s.advance(1600)
        s.frame(1700, .up(1))
        #expect(s.log("press").isEmpty)
        #expect(s.reasons("press") == ["moved 4 mm > 3 mm"])
        #expect(s.settled)
    }

    @Test("scenario 12: pan: below the hysteresis possible, then began, changed per move, ended at lift")
    func scenario12() {
        var s = Scenario(pc([spec("pan", .pan)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(10, .move(1, 52, 50))
        #expect(s.log("pan").isEmpty)
        #expect(s.engine.recognizerStates == [.possible])
        s.frame(20, .move(1, 60, 50))
        s.frame(30, .move(1, 70, 55))
        s.frame(40, .up(1))
        #expect(s.log("pan") == ["began@20", "changed@30", "ended@40"])
        #expect(s.events("pan").map(\.translation) == [Point(x: 10, y: 0), Point(x: 20, y: 5), Point(x: 20, y: 5)])
        // Velocity over the last 100 ms: (20, 5) mm in 30 ms.
        let v = s.events("pan")[1].velocity ?? .zero
        #expect(abs(v.x - 20 / 0.03) < 1e-6 && abs(v.y - 5 / 0.03) < 1e-6)
        // Two fingers: the translation is the centroid's.
        s.clear()
        s.frame(1000, .down(1, 40, 50), .down(2, 60, 50))
        s.frame(1010, .move(1, 50, 50))
        s.frame(1020, .move(2, 70, 50))
        s.frame(1030, .up(1), .up(2))
        #expect(s.log("pan") == ["began@1010", "changed@1020", "ended@1030"])
        #expect(s.events("pan").map(\.translation) == [Point(x: 5, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 0)])
        #expect(s.events("pan").map(\.fingers) == [2, 2, 2])
        #expect(s.settled)
    }

    @Test("scenario 13: pan and swipe, fast flick: pan begins, swipe never; swipe required to fail: pan waits")
    func scenario13() {
        var s = Scenario(pc([spec("pan", .pan), spec("swipe", .swipe)]))
        s.frame(0, .down(1, 30, 50))
        s.stroke(1, from: 0, to: 40, by: Point(x: 20, y: 0), steps: 4)
        s.frame(50, .up(1))
        #expect(s.log("pan") == ["began@10", "changed@20", "changed@30", "changed@40", "ended@50"])
        #expect(s.log("swipe").isEmpty)
        #expect(s.reasons("swipe") == ["excluded by pan"])
        #expect(s.settled)

        // Pan requires swipe to fail: the flick is a swipe, the pan never begins.
        var w = Scenario(pc([spec("pan", .pan, requireToFail: ["swipe"]), spec("swipe", .swipe)]))
        w.frame(0, .down(1, 30, 50))
        w.stroke(1, from: 0, to: 40, by: Point(x: 20, y: 0), steps: 4)
        w.frame(50, .up(1))
        #expect(w.log("swipe") == ["recognized@20"])
        #expect(w.log("pan").isEmpty)
        #expect(w.reasons("pan") == ["required swipe to fail, which recognized"])
        #expect(w.settled)

        // A slow drag: the swipe fails by its timer and the waiting pan begins then.
        w.clear()
        w.frame(1000, .down(1, 30, 50))
        w.frame(1200, .move(1, 34, 50))
        w.frame(1400, .move(1, 36, 50))
        #expect(w.log("pan").isEmpty)
        w.advance(1500)
        #expect(w.log("pan") == ["began@1500"])
        #expect(w.events("pan").first?.translation == Point(x: 6, y: 0))
        w.frame(1600, .move(1, 38, 50))
        w.frame(1700, .up(1))
        #expect(w.log("pan") == ["began@1500", "changed@1600", "ended@1700"])
        #expect(w.log("swipe").isEmpty)
        #expect(w.settled)

        // The other way round, swipe requires pan to fail: the flick begins the pan, the swipe fails.
        var v = Scenario(pc([spec("pan", .pan), spec("swipe", .swipe, requireToFail: ["pan"])]))
        v.frame(0, .down(1, 30, 50))
        v.stroke(1, from: 0, to: 40, by: Point(x: 20, y: 0), steps: 4)
        v.frame(50, .up(1))
        #expect(v.log("pan") == ["began@10", "changed@20", "changed@30", "changed@40", "ended@50"])
        #expect(v.log("swipe").isEmpty)
        #expect(v.reasons("swipe") == ["required pan to fail, which began"])
        #expect(v.settled)
    }

    @Test("scenario 14: right swipe recognizes during the move; left, too slow and too short fail")
    func scenario14() {
        var s = Scenario(pc([spec("swipe", .swipe)]))
        s.frame(0, .down(1, 30, 50))
        s.stroke(1, from: 0, to: 80, by: Point(x: 20, y: 0), steps: 4)
        #expect(s.log("swipe") == ["recognized@40"])
        #expect(s.events("swipe").first?.direction == .right)
        s.frame(100, .up(1))
        #expect(s.log("swipe") == ["recognized@40"])

        s.clear()
        s.frame(1000, .down(1, 60, 50))
        s.stroke(1, from: 1000, to: 1080, by: Point(x: -20, y: 0), steps: 4)
        s.frame(1100, .up(1))
        #expect(s.log("swipe").isEmpty)
        #expect(s.reasons("swipe") == ["wrong direction: left"])

        s.clear()
        s.frame(2000, .down(1, 30, 50))
        s.stroke(1, from: 2000, to: 3000, by: Point(x: 20, y: 0), steps: 10)
        s.frame(3100, .up(1))
        #expect(s.log("swipe").isEmpty)
        #expect(s.reasons("swipe") == ["too slow: not done within 500 ms"])

        s.clear()
        s.frame(4000, .down(1, 30, 50))
        s.stroke(1, from: 4000, to: 4040, by: Point(x: 8, y: 0), steps: 2)
        s.frame(4050, .up(1))
        s.finish()
        #expect(s.log("swipe").isEmpty)
        #expect(s.reasons("swipe") == ["lifted after moving 8 mm < 10 mm"])
        #expect(s.settled)
    }

    @Test("scenario 15: pinch possible at the second finger-down, begins after hysteresis, scale 2.0 at the end")
    func scenario15() {
        var s = Scenario(pc([spec("pinch", .pinch)]))
        s.frame(0, .down(1, 40, 50))
        s.frame(10, .down(2, 60, 50))
        #expect(s.log("pinch").isEmpty)
        s.frame(20, .move(1, 39, 50), .move(2, 61, 50))
        #expect(s.log("pinch").isEmpty)
        for (i, x) in stride(from: 2.0, through: 10, by: 2).enumerated() {
            s.frame(30 + Double(i) * 10, .move(1, 40 - x, 50), .move(2, 60 + x, 50))
        }
        s.frame(100, .up(1), .up(2))
        #expect(s.log("pinch") == ["began@30", "changed@40", "changed@50", "changed@60", "changed@70", "ended@100"])
        let scales = s.events("pinch").compactMap(\.scale)
        #expect(abs(scales[0] - 1.2) < 1e-9)
        #expect(abs(scales[4] - 2.0) < 1e-9)
        #expect((s.events("pinch")[1].scalarVelocity ?? 0) > 0)
        #expect(s.settled)
    }

    @Test("scenario 16: one finger moving never begins a pinch")
    func scenario16() {
        var s = Scenario(pc([spec("pinch", .pinch)]))
        s.frame(0, .down(1, 40, 50))
        s.stroke(1, from: 0, to: 100, by: Point(x: 30, y: 10), steps: 5)
        s.frame(120, .up(1))
        #expect(s.log("pinch").isEmpty)
        #expect(s.reasons("pinch") == ["1 finger, needs 2"])
        #expect(s.settled)
    }

    static func ring(_ degrees: Double, radius: Double = 10) -> (Scenario.Change, Scenario.Change) {
        let a = degrees * .pi / 180
        return (.move(1, 50 - radius * cos(a), 50 - radius * sin(a)), .move(2, 50 + radius * cos(a), 50 + radius * sin(a)))
    }

    @Test("scenario 17: rotation: 3° possible, 20° began with ≈ 0.35 rad, lift ended")
    func scenario17() {
        var s = Scenario(pc([spec("rotate", .rotation)]))
        s.frame(0, .down(1, 40, 50), .down(2, 60, 50))
        let (a3, b3) = Self.ring(3)
        s.frame(10, a3, b3)
        #expect(s.log("rotate").isEmpty)
        let (a20, b20) = Self.ring(20)
        s.frame(20, a20, b20)
        #expect(s.log("rotate") == ["began@20"])
        #expect(abs((s.events("rotate")[0].rotation ?? 0) - 20 * .pi / 180) < 1e-9)
        s.frame(30, .up(1), .up(2))
        #expect(s.log("rotate") == ["began@20", "ended@30"])
        #expect(s.settled)
    }

    @Test("scenario 18: pinch and rotation on one region: only one begins; simultaneous-with: both run")
    func scenario18() {
        func run(_ simultaneous: Bool) -> Scenario {
            var s = Scenario(pc([spec("pinch", .pinch, simultaneousWith: simultaneous ? ["rotate"] : []),
                                 spec("rotate", .rotation)]))
            s.frame(0, .down(1, 40, 50), .down(2, 60, 50))
            let (a, b) = Self.ring(4, radius: 13)
            s.frame(10, a, b)
            let (c, d) = Self.ring(30, radius: 13)
            s.frame(20, c, d)
            s.frame(30, .up(1), .up(2))
            return s
        }
        let exclusive = run(false)
        #expect(exclusive.log("pinch") == ["began@10", "changed@20", "ended@30"])
        #expect(exclusive.log("rotate").isEmpty)
        #expect(exclusive.reasons("rotate") == ["excluded by pinch"])
        #expect(exclusive.settled)
        let both = run(true)
        #expect(both.log("pinch") == ["began@10", "changed@20", "ended@30"])
        #expect(both.log("rotate") == ["began@20", "ended@30"])
        #expect(both.settled)
    }

    @Test("scenario 19: edge pan from the left edge begins; a touch starting outside the zone never does")
    func scenario19() {
        var s = Scenario(pc([spec("edge", .edgePan)]))
        s.frame(0, .down(1, 2, 50))
        s.frame(10, .move(1, 4, 50))
        #expect(s.log("edge").isEmpty)
        s.frame(20, .move(1, 12, 50))
        s.frame(30, .up(1))
        #expect(s.log("edge") == ["began@20", "ended@30"])
        #expect(s.events("edge")[0].translation == Point(x: 10, y: 0))
        s.clear()
        s.frame(1000, .down(1, 30, 50))
        s.frame(1010, .move(1, 50, 50))
        s.frame(1020, .up(1))
        #expect(s.log("edge").isEmpty)
        #expect(s.reasons("edge") == ["started 30 mm from the edge > 5 mm zone"])
        #expect(s.settled)
    }

    @Test("scenario 20: hidden / non-interactive child: touches go beneath; a child's frame outside its parent is no hit")
    func scenario20() {
        for flag in ["hidden", "disabled"] {
            let child = RegionSpec(id: "C", frame: RegionFrame(x: .absolute(20), y: .absolute(20), width: .absolute(60),
                                                               height: .absolute(60)),
                                   hidden: flag == "hidden", interactionEnabled: flag != "hidden" ? false : true,
                                   publishesTouches: true)
            var s = Scenario(pc([tap("ptap"), tap("ctap", region: "C")], child: child))
            s.frame(0, .down(1, 50, 50))
            s.frame(50, .up(1))
            #expect(s.log("ptap") == ["recognized@50"])
            #expect(s.log("ctap").isEmpty)
            #expect(s.stream("C").isEmpty)
            #expect(s.engine.hitTest(Point(x: 50, y: 50), surfaceSize: Point(x: 100, y: 100)) == ["P"])
        }
        // Q is 0...50 wide; its child K sticks out to 70: a point at 60 is no hit on K.
        let k = RegionSpec(id: "K", frame: RegionFrame(x: .absolute(30), y: .absolute(0), width: .absolute(40),
                                                       height: .absolute(10)))
        let q = RegionSpec(id: "Q", frame: RegionFrame(x: .absolute(0), y: .absolute(0), width: .percent(50),
                                                       height: .percent(50)), children: [k])
        let engine = GestureEngine(configuration: EngineConfiguration(root: RegionSpec(id: "P", children: [q]),
                                                                      recognizers: []))
        let size = Point(x: 100, y: 100)
        #expect(engine.hitTest(Point(x: 40, y: 5), surfaceSize: size) == ["K", "Q", "P"])
        #expect(engine.hitTest(Point(x: 60, y: 5), surfaceSize: size) == ["P"])
    }

    @Test("scenario 21: device removed mid-pan: in progress → cancelled, possible → failed, all reset")
    func scenario21() {
        var s = Scenario(pc([spec("pan", .pan), spec("press", .longPress), spec("pinch", .pinch, simultaneousWith: ["pan"])]))
        s.frame(0, .down(1, 50, 50))
        s.frame(10, .move(1, 60, 50))
        s.frame(20, .move(1, 65, 50))
        s.frame(30, .cancel(1))
        #expect(s.log("pan") == ["began@10", "changed@20", "cancelled@30"])
        #expect(s.explain("pinch") == ["possible->failed", "failed->possible"])
        #expect(s.reasons("pinch") == ["touch cancelled"])
        #expect(s.reasons("press") == ["moved 10 mm > 3 mm"])
        #expect(s.settled)
        #expect(s.stream("C") == ["began@0", "cancelled@10"])
        // Everything works again afterwards.
        s.clear()
        s.frame(100, .down(1, 50, 50))
        s.frame(110, .move(1, 60, 50))
        s.frame(120, .up(1))
        #expect(s.log("pan") == ["began@110", "ended@120"])
        #expect(s.settled)
    }

    @Test("scenario 22: a control child with a single tap on its parent: the control's press wins")
    func scenario22() {
        let button = RegionSpec(id: "B", frame: RegionFrame(x: .absolute(10), y: .absolute(10), width: .absolute(10),
                                                            height: .absolute(10)),
                                isControl: true, publishesTouches: true)
        var s = Scenario(pc([tap("ptap"), tap("pdouble", taps: 2), tap("btap", region: "B", cancels: false)],
                            child: button))
        s.frame(0, .down(1, 15, 15))
        s.frame(50, .up(1))
        #expect(s.log("ptap").isEmpty)
        #expect(s.log("btap") == ["recognized@50"])
        #expect(s.explain("ptap").isEmpty)
        s.finish()
        #expect(s.stream("B") == ["began@0", "ended@350"])
        // Outside the button the parent's tap works.
        s.clear()
        s.frame(1000, .down(1, 50, 50))
        s.frame(1050, .up(1))
        #expect(s.log("ptap") == ["recognized@1050"])
        s.finish()
        #expect(s.settled)
    }

    @Test("scenario 23: explain on a failed tap names the reason")
    func scenario23() {
        var s = Scenario(pc([tap("tap"), spec("pan", .pan)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(10, .move(1, 50, 52))
        s.frame(20, .move(1, 50, 54))
        s.frame(30, .up(1))
        #expect(s.reasons("tap") == ["excluded by pan"])

        var m = Scenario(pc([tap("tap")]))
        m.frame(0, .down(1, 50, 50))
        m.frame(10, .move(1, 57.2, 50))
        m.frame(20, .up(1))
        #expect(m.reasons("tap") == ["moved 7.2 mm > 5 mm"])

        var h = Scenario(pc([tap("tap")]))
        h.frame(0, .down(1, 50, 50))
        h.advance(700)
        h.frame(700, .up(1))
        #expect(h.reasons("tap") == ["held too long: 500 ms (max 500 ms)"])
        #expect(h.log("tap").isEmpty)
        #expect(h.explanations.allSatisfy { $0.time <= Scenario.ms(700) })
        #expect(h.settled)
    }

    @Test("explain names every recognizer that received a touch, and where it hit")
    func explainReceived() {
        var s = Scenario(pc([tap("tap"), spec("pan", .pan)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(30, .up(1))
        #expect(s.received("tap").count == 1)
        #expect(s.received("pan").count == 1)
        #expect(s.received("tap").first?.hasPrefix("received touch ") == true)
        #expect(s.received("tap").first?.hasSuffix("at (50, 50), hit region 'C' inside 'P'") == true,
                "\(s.received("tap"))")
        // Delivery lines come before the first transition of the sequence.
        let first = s.explanations.firstIndex { !$0.reason.hasPrefix("received touch") } ?? 0
        #expect(s.explanations.prefix(first).count == 2)
    }
}
