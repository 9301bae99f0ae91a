import Testing
@testable import GestureCore

@Suite("Hit-testing")
struct HitTestTests {
    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> RegionFrame {
        RegionFrame(x: .absolute(x), y: .absolute(y), width: .absolute(w), height: .absolute(h))
    }

    static let size = Point(x: 200, y: 100)

    static func engine(_ children: [RegionSpec], recognizers: [RecognizerSpec] = []) -> GestureEngine {
        GestureEngine(configuration: EngineConfiguration(root: RegionSpec(id: "root", children: children),
                                                         recognizers: recognizers))
    }

    @Test("children are tried top-most first; no child hit gives the region; the root covers the surface")
    func zOrder() {
        let e = Self.engine([
            RegionSpec(id: "below", frame: Self.rect(0, 0, 100, 100)),
            RegionSpec(id: "above", frame: Self.rect(50, 0, 100, 100)),
        ])
        #expect(e.hitTest(Point(x: 60, y: 10), surfaceSize: Self.size) == ["above", "root"])
        #expect(e.hitTest(Point(x: 10, y: 10), surfaceSize: Self.size) == ["below", "root"])
        #expect(e.hitTest(Point(x: 180, y: 10), surfaceSize: Self.size) == ["root"])
        #expect(e.hitTest(Point(x: 200, y: 100), surfaceSize: Self.size) == ["root"])
        #expect(e.hitTest(Point(x: 201, y: 10), surfaceSize: Self.size).isEmpty)
        #expect(e.hitTest(Point(x: -1, y: 10), surfaceSize: Self.size).isEmpty)
    }

    @Test("percent frames are of the parent's size, in the parent's coordinates")
    func percent() {
        let inner = RegionSpec(id: "inner", frame: RegionFrame(x: .percent(50), y: .percent(50), width: .percent(50),
                                                               height: .percent(50)))
        let outer = RegionFrame(x: .percent(50), y: .absolute(0), width: .percent(50), height: .percent(50))
        let e = Self.engine([RegionSpec(id: "outer", frame: outer, children: [inner])])
        // outer is x 100...200, y 0...50; inner is x 150...200, y 25...50.
        #expect(e.hitTest(Point(x: 160, y: 30), surfaceSize: Self.size) == ["inner", "outer", "root"])
        #expect(e.hitTest(Point(x: 140, y: 30), surfaceSize: Self.size) == ["outer", "root"])
        #expect(e.hitTest(Point(x: 160, y: 20), surfaceSize: Self.size) == ["outer", "root"])
        // The same tree on another surface size resolves again.
        #expect(e.hitTest(Point(x: 160, y: 30), surfaceSize: Point(x: 400, y: 400)) == ["root"])
        #expect(e.hitTest(Point(x: 310, y: 110), surfaceSize: Point(x: 400, y: 400)) == ["inner", "outer", "root"])
    }

    @Test("a small region grows to its minimum hit size around its centre")
    func minimumHitSize() {
        let e = Self.engine([RegionSpec(id: "dot", frame: Self.rect(50, 50, 4, 4), minimumHitSize: Point(x: 10, y: 10))])
        #expect(e.hitTest(Point(x: 47.5, y: 52), surfaceSize: Self.size) == ["dot", "root"])
        #expect(e.hitTest(Point(x: 46.9, y: 52), surfaceSize: Self.size) == ["root"])
        #expect(e.hitTest(Point(x: 56.9, y: 56.9), surfaceSize: Self.size) == ["dot", "root"])
    }

    @Test("hidden and non-interactive regions skip their whole subtree")
    func hiddenSubtree() {
        let child = RegionSpec(id: "child", frame: Self.rect(0, 0, 10, 10))
        let e = Self.engine([
            RegionSpec(id: "hidden", frame: Self.rect(0, 0, 50, 50), children: [child], hidden: true),
            RegionSpec(id: "off", frame: Self.rect(100, 0, 50, 50), children: [child], interactionEnabled: false),
        ])
        #expect(e.hitTest(Point(x: 5, y: 5), surfaceSize: Self.size) == ["root"])
        #expect(e.hitTest(Point(x: 105, y: 5), surfaceSize: Self.size) == ["root"])
    }

    @Test("redirect hands hits to another region; device kinds filter")
    func redirectAndKinds() {
        let e = Self.engine([
            RegionSpec(id: "drawer", frame: Self.rect(20, 0, 80, 100)),
            RegionSpec(id: "strip", frame: Self.rect(0, 0, 5, 100), redirect: "drawer"),
            RegionSpec(id: "pad-only", frame: Self.rect(150, 0, 50, 50), deviceKinds: [.touchpad]),
        ])
        #expect(e.hitTest(Point(x: 2, y: 50), surfaceSize: Self.size) == ["drawer", "root"])
        #expect(e.hitTest(Point(x: 160, y: 10), surfaceSize: Self.size, deviceKind: .touchpad) == ["pad-only", "root"])
        #expect(e.hitTest(Point(x: 160, y: 10), surfaceSize: Self.size, deviceKind: .touchscreen) == ["root"])
    }

    @Test("a touch stays bound to its hit region when it leaves it")
    func binding() {
        let c = RegionSpec(id: "C", frame: RegionFrame(x: .absolute(20), y: .absolute(20), width: .absolute(60),
                                                       height: .absolute(60)), publishesTouches: true)
        var s = Scenario(pc([spec("pan", .pan, region: "C")], child: c))
        s.frame(0, .down(1, 75, 50))
        s.frame(10, .move(1, 95, 50))
        s.frame(20, .move(1, 99, 90))
        s.frame(30, .up(1))
        #expect(s.log("pan") == ["began@10", "changed@20", "ended@30"])
        #expect(s.events("pan").allSatisfy { $0.region == "C" })
        // A touch starting outside C never reaches C's pan.
        s.clear()
        s.frame(100, .down(1, 95, 50))
        s.frame(110, .move(1, 50, 50))
        s.frame(120, .up(1))
        #expect(s.log("pan").isEmpty)
        #expect(s.settled)
    }
}

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
        padOut += s.engine.process(padFrame(15, .moved, 20, 10))
        s.frame(20, .up(1))
        #expect(s.log("pan") == ["began@10", "ended@20"])
        #expect(s.events("pan").allSatisfy { $0.device == "test-screen" })
        // The pad's finger: its own pan, then its own long press timer is gone (excluded by its pan).
        #expect(s.engine.nextDeadline == nil)
        padOut += s.engine.process(padFrame(30, .ended, 20, 20))
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
}
