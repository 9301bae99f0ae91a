import Testing
@testable import GestureCore

@Suite("Engine details")
struct EngineDetailTests {
    @Test("long press with a tap before the press")
    func tapThenPress() {
        var s = Scenario(pc([spec("tp", .longPress) { $0.taps = 2 }]))
        s.frame(0, .down(1, 50, 50))
        s.frame(80, .up(1))
        s.frame(200, .down(1, 51, 50))
        s.advance(800)
        s.frame(900, .up(1))
        #expect(s.log("tp") == ["began@700", "ended@900"])
        // A plain press is not enough.
        s.clear()
        s.frame(2000, .down(1, 50, 50))
        s.advance(2600)
        s.frame(2700, .up(1))
        s.finish()
        #expect(s.log("tp").isEmpty)
        #expect(s.reasons("tp") == ["held too long: 500 ms (max 500 ms)"])
        #expect(s.settled)
    }

    @Test("two devices: each device has its own recognizer states, timers and touches")
    func twoDevices() {
        var s = Scenario(pc([spec("pan", .pan), spec("press", .longPress)]))
        let pad = DeviceRef(id: 2, name: "pad", kind: .touchpad)
        func padFrame(_ t: Double, _ phase: TouchPhase, _ x: Double, _ px: Double) -> TouchFrame {
            let touch = Touch(id: TouchID(99), phase: phase, location: Point(x: x, y: 10), previousLocation: Point(x: px, y: 10),
                              physicalLocation: Point(x: x, y: 10), previousPhysicalLocation: Point(x: px, y: 10),
                              time: Scenario.ms(t), device: pad)
            return TouchFrame(device: pad, time: Scenario.ms(t), touches: [touch], surfaceSize: Point(x: 100, y: 100),
                              unitsPerMM: Point(x: 1, y: 1))
        }
        s.frame(0, .down(1, 50, 50))
        var padOut = s.engine.process(padFrame(5, .began, 10, 10))
        s.frame(10, .move(1, 60, 50))
        s.frame(20, .up(1))
        // (40 ms after landing: a touchpad's first report within 30 ms that fast would be a landing jump.)
        padOut += s.engine.process(padFrame(45, .moved, 20, 10))
        #expect(s.log("pan") == ["began@10", "ended@20"])
        #expect(s.events("pan").allSatisfy { $0.device == "test-screen" })
        // The pad's finger: its own pan, then its own long press timer is gone (excluded by its pan).
        #expect(s.engine.nextDeadline == nil)
        padOut += s.engine.process(padFrame(50, .ended, 20, 20))
        let padPan = padOut.compactMap { if case .gesture(let g) = $0, g.gesture == "pan" { g } else { nil } }
        #expect(padPan.map(\.state) == [.began, .ended])
        #expect(padPan.allSatisfy { $0.device == "pad" })
        #expect(s.settled)
    }

    @Test("delays-touches-ended holds ended until a double tap decides; explains off builds no explain lines")
    func delaysEnded() {
        var s = Scenario(pc([tap("double", taps: 2)]), explains: false)
        s.frame(0, .down(1, 50, 50))
        s.frame(80, .up(1))
        #expect(s.stream("C") == ["began@0"])
        s.advance(380)
        #expect(s.stream("C") == ["began@0", "ended@380"])
        #expect(s.explanations.isEmpty)
        // A double tap cancels the first touch, whose ended was still held.
        s.clear()
        s.frame(1000, .down(1, 50, 50))
        s.frame(1080, .up(1))
        s.frame(1200, .down(1, 50, 50))
        s.frame(1280, .up(1))
        #expect(s.log("double") == ["recognized@1280"])
        #expect(s.stream("C") == ["began@1000", "began@1200", "cancelled@1280", "cancelled@1280"])
        #expect(s.settled)
    }

    @Test("swipe reports direction, translation and velocity in surface units (y down)")
    func swipeDown() {
        var s = Scenario(pc([spec("down", .swipe) { $0.directions = [.down]; $0.fingers = 3 }]))
        s.frame(0, .down(1, 40, 30), .down(2, 50, 30), .down(3, 60, 30))
        s.frame(20, .move(1, 40, 36), .move(2, 50, 36), .move(3, 60, 36))
        s.frame(40, .move(1, 41, 42), .move(2, 51, 42), .move(3, 61, 42))
        #expect(s.log("down") == ["recognized@40"])
        let e = s.events("down")[0]
        #expect(e.direction == .down && e.fingers == 3)
        #expect(e.translation == Point(x: 1, y: 12))
        #expect((e.velocity?.y ?? 0) > 0)
        #expect(e.location == Point(x: 51, y: 42))
        #expect(e.jsonLine.contains("\"direction\":\"down\""))
    }
}

@Suite("Require-to-fail")
struct RequireToFailTests {
    @Test("a require-to-fail cycle cannot deadlock: the sequence still ends and everything resets")
    func cycle() {
        var s = Scenario(pc([tap("a", requireToFail: ["b"]), tap("b", requireToFail: ["a"])]))
        s.frame(0, .down(1, 30, 50))
        s.frame(40, .up(1))
        #expect(s.engine.nextDeadline == nil)
        #expect(s.settled)
        // Each tap waits for the other; the first gives up at sequence end, which releases the second.
        #expect(s.log("a").isEmpty)
        #expect(s.log("b") == ["recognized@40"])
        #expect(s.reasons("a") == ["gesture sequence ended"])
    }

    @Test("a continuous recognizer whose fingers lift while its began is pending begins and ends when released")
    func pendingThenLifted() {
        var s = Scenario(pc([spec("pan", .pan, requireToFail: ["press"]), spec("press", .longPress) { $0.pressMovement = 50 }]))
        s.frame(0, .down(1, 30, 50))
        s.frame(100, .move(1, 40, 50))
        #expect(s.log("pan").isEmpty)
        s.frame(200, .up(1))
        s.finish()
        #expect(s.log("press").isEmpty)
        #expect(s.reasons("press") == ["lifted after 200 ms < 500 ms"])
        #expect(s.log("pan") == ["began@200", "ended@200"])
        #expect(s.settled)
    }

    @Test("JSON lines carry each kind's fields")
    func jsonLines() {
        var s = Scenario(pc([tap("tap"), spec("pinch", .pinch)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(60, .up(1))
        s.frame(100, .down(1, 40, 50), .down(2, 60, 50))
        s.frame(110, .move(1, 35, 50), .move(2, 65, 50))
        s.frame(120, .up(1), .up(2))
        let lines = s.outputs.map(\.jsonLine)
        #expect(lines.contains(#"{"type":"gesture","gesture":"tap","kind":"tap","state":"recognized","time":0.06,"device":"test-screen","region":"P","fingers":1,"taps":1,"location":{"x":50,"y":50}}"#))
        #expect(lines.contains { $0.contains(#""gesture":"pinch","kind":"pinch","state":"began""#) && $0.contains(#""scale":1.5"#) && $0.contains("scaleVelocity") })
        #expect(lines.contains(#"{"type":"explain","gesture":"tap","region":"P","from":"possible","to":"recognized","time":0.06,"reason":"1 tap completed"}"#))
        #expect(lines.contains { $0.hasPrefix(#"{"type":"touch","phase":"began""#) && $0.contains(#""region":"C""#) })
    }

    @Test("a surface of unknown size still hits the root")
    func unknownSurface() {
        let e = GestureEngine(configuration: pc([]))
        #expect(e.hitTest(Point(x: 5, y: 5), surfaceSize: .zero) == ["P"])
    }

    @Test("two taps deciding in one frame: the nearest region's tap wins and excludes the ancestor's")
    func nearestFirst() {
        // The parent's tap is configured first; the child's is still nearer to the touch.
        var s = Scenario(pc([tap("ptap"), tap("ctap", region: "C")]))
        s.frame(0, .down(1, 50, 50))
        s.frame(60, .up(1))
        #expect(s.log("ctap") == ["recognized@60"])
        #expect(s.log("ptap").isEmpty)
        #expect(s.reasons("ptap") == ["excluded by ctap"])
        #expect(s.settled)
    }

    @Test("two pans held while the finger count settles: the nearest region's pan wins when both are released")
    func nearestFirstAfterSettling() {
        // The parent's pan is configured first; a two-finger pinch on the parent keeps both one-finger
        // pans held (a second finger may still join) until settle-time has passed.
        var s = Scenario(pc([spec("ppan", .pan), spec("cpan", .pan, region: "C"), spec("pinch", .pinch)]))
        // Slowly (4 mm in 290 ms): past the pans' 3 mm, short of the 5 mm that ends settling by motion.
        s.frame(0, .down(1, 50, 50))
        for t in stride(from: 10.0, through: 290, by: 10) { s.frame(t, .move(1, 50 + t / 72.5, 50)) }
        #expect(s.log("cpan").isEmpty && s.log("ppan").isEmpty)
        s.advance(300)
        #expect(s.log("cpan") == ["began@300"])
        #expect(s.log("ppan").isEmpty)
        #expect(s.reasons("ppan") == ["excluded by cpan"])
        s.frame(310, .up(1))
        #expect(s.log("cpan") == ["began@300", "ended@310"])
        #expect(s.settled)
    }

    @Test("a rotation that never began says why in degrees when its fingers lift, one after the other")
    func rotationLiftReasons() {
        // Turned 3°: below the 8° threshold.
        var small = Scenario(pc([spec("rot", .rotation)]))
        small.frame(0, .down(1, 40, 50), .down(2, 60, 50))
        small.frame(20, .move(2, 40 + 20 * 0.998630, 50 + 20 * 0.052336))  // 20 mm at 3°
        small.frame(40, .up(2))
        small.frame(60, .up(1))
        #expect(small.reasons("rot") == ["lifted after turning 3° < 8°"])
        // Turned 10° while the span doubled: the turn passed the threshold but never dominated.
        var spread = Scenario(pc([spec("rot", .rotation)]))
        spread.frame(0, .down(1, 40, 50), .down(2, 60, 50))
        spread.frame(20, .move(2, 40 + 40 * 0.984808, 50 + 40 * 0.173648))  // 40 mm at 10°
        spread.frame(40, .up(2))
        spread.frame(60, .up(1))
        let reasons = spread.reasons("rot")
        #expect(reasons.count == 1 && reasons[0].hasPrefix("rotation 10") && reasons[0].contains("does not dominate"),
                "\(reasons)")
        #expect(small.settled && spread.settled)
    }

    @Test("a pan that begins cancels the stream mid-drag; with delays-touches-ended off a tap's ended is live")
    func streamCancellation() {
        var s = Scenario(pc([spec("pan", .pan)]))
        s.frame(0, .down(1, 50, 50))
        s.frame(10, .move(1, 51, 50))
        s.frame(20, .move(1, 55, 50))
        s.frame(30, .move(1, 60, 50))
        s.frame(40, .up(1))
        #expect(s.stream("C") == ["began@0", "moved@10", "cancelled@20"])
        #expect(s.log("pan") == ["began@20", "changed@30", "ended@40"])

        var t = Scenario(pc([tap("double", taps: 2, delaysEnded: false)]))
        t.frame(0, .down(1, 50, 50))
        t.frame(60, .up(1))
        #expect(t.stream("C") == ["began@0", "ended@60"])
        t.finish()
        #expect(t.settled)
    }

    @Test("a three-finger swipe whose fingers land in separate frames")
    func staggeredFingers() {
        var s = Scenario(pc([spec("s3", .swipe) { $0.fingers = 3; $0.directions = [.left] }]))
        s.frame(0, .down(1, 60, 40))
        s.frame(15, .down(2, 70, 40), .move(1, 58, 40))
        s.frame(30, .down(3, 80, 40))
        s.frame(45, .move(1, 52, 40), .move(2, 64, 40), .move(3, 74, 40))
        #expect(s.log("s3").isEmpty)
        s.frame(60, .move(1, 46, 40), .move(2, 58, 40), .move(3, 68, 40))
        #expect(s.log("s3") == ["recognized@60"])
        #expect(s.events("s3").first?.direction == .left)
        #expect(s.events("s3").first?.translation == Point(x: -12, y: 0))
        s.frame(70, .up(1), .up(2), .up(3))
        #expect(s.settled)
    }
}
