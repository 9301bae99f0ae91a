import Testing
@testable import GestureCore

/// Regions and recognizers attached, updated and detached while the engine runs
/// (GestureEngine+Reconfiguration.swift), the responder chain, and rotated mm.
@Suite struct LiveRegionTests {
    static func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> RegionFrame {
        RegionFrame(x: .absolute(x), y: .absolute(y), width: .absolute(w), height: .absolute(h))
    }

    @Test func aTouchKeepsTheRegionItWentDownInWhenTheFrameMoves() throws {
        var s = Scenario(pc([]))
        try s.engine.attach(RegionSpec(id: "W", frame: Self.frame(0, 0, 50, 50)), under: "P",
                            recognizers: [spec("wp", .pan, region: "W")])
        s.frame(0, .down(1, 10, 10))
        try s.engine.updateRegion("W", frame: Self.frame(60, 60, 30, 30))
        s.stroke(1, from: 0, to: 100, by: Point(x: 20, y: 0), steps: 5)
        s.frame(110, .up(1))
        #expect(s.log("wp").first == "began@20")
        #expect(s.log("wp").last == "ended@110")
        // The next touch at the same place no longer hits W.
        s.clear()
        s.frame(200, .down(1, 10, 10))
        s.stroke(1, from: 200, to: 300, by: Point(x: 20, y: 0), steps: 5)
        s.frame(310, .up(1))
        #expect(s.log("wp").isEmpty)
        #expect(s.engine.hitTest(Point(x: 70, y: 70), surfaceSize: s.surface) == ["W", "P"])
    }

    @Test func detachingCancelsTheGestureInFlightAndTheRestGoesOn() throws {
        var s = Scenario(pc([spec("outer", .pan) { $0.minimumFingers = 2 }]))
        try s.engine.attach(RegionSpec(id: "W", frame: Self.frame(0, 0, 50, 50)), under: "P",
                            recognizers: [spec("wp", .pan, region: "W")])
        s.frame(0, .down(1, 10, 10))
        // (The two-finger `outer` makes `wp` wait for the finger count to settle before it begins.)
        s.stroke(1, from: 0, to: 250, by: Point(x: 25, y: 0), steps: 25)
        #expect(s.log("wp").first?.hasPrefix("began@") == true, "\(s.log("wp"))")
        let out = try s.engine.detach(region: "W", at: Scenario.ms(255))
        let cancelled = out.compactMap { if case .gesture(let g) = $0 { g } else { nil } }
        #expect(cancelled.map(\.gesture) == ["wp"])
        #expect(cancelled.map(\.state) == [.cancelled])
        #expect(s.engine.hasDetachedLeftovers)
        // The finger stays down and keeps going to the ancestors' recognizers, never to the detached one.
        s.clear()
        s.stroke(1, from: 260, to: 300, by: Point(x: 10, y: 0), steps: 4)
        s.frame(310, .up(1))
        #expect(s.log("wp").isEmpty)
        #expect(s.engine.illegalTransitions == 0)
        let compacted = s.engine.compactIfIdle()
        #expect(compacted)
        #expect(!s.engine.hasDetachedLeftovers)
        #expect(s.engine.hitTest(Point(x: 10, y: 10), surfaceSize: s.surface) == ["P"])
        do {
            _ = try s.engine.detach(region: "W", at: Scenario.ms(320))
            Issue.record("detached twice")
        } catch {
            #expect(error == .unknownRegion("W"))
        }
    }

    @Test func laterAttachesLieOnTopOfEarlierSiblings() throws {
        var s = Scenario(pc([]))
        try s.engine.attach(RegionSpec(id: "A", frame: Self.frame(0, 0, 50, 50)), under: "P", recognizers: [tap("ta", region: "A")])
        try s.engine.attach(RegionSpec(id: "B", frame: Self.frame(0, 0, 50, 50)), under: "P", recognizers: [tap("tb", region: "B")])
        s.frame(0, .down(1, 10, 10))
        s.frame(50, .up(1))
        #expect(s.log("tb") == ["recognized@50"])
        #expect(s.log("ta").isEmpty)
        do {
            try s.engine.attach(RegionSpec(id: "A"), under: "P", recognizers: [])
            Issue.record("attached a duplicate id")
        } catch {
            #expect(error == .duplicateRegion("A"))
        }
    }

    @Test func anAttachedEngineBehavesLikeOneBuiltFromItsConfiguration() throws {
        var live = Scenario(pc([spec("pan", .pan) { $0.minimumFingers = 2 }, tap("tap", requireToFail: ["double"]), tap("double", taps: 2)]))
        let keyboard = RegionSpec(id: "K", frame: Self.frame(10, 10, 40, 40), children: [
            RegionSpec(id: "K1", frame: Self.frame(0, 0, 20, 20), isControl: true)])
        try live.engine.attach(keyboard, under: "C", recognizers: [
            tap("k-tap", region: "K1"), spec("k-swipe", .swipe, region: "K") { $0.directions = [.left, .right] }])
        var fresh = Scenario(live.engine.configuration)
        func play(_ s: inout Scenario) {
            s.frame(0, .down(1, 35, 35))
            s.frame(40, .up(1))
            s.frame(100, .down(1, 45, 45))
            s.stroke(1, from: 100, to: 200, by: Point(x: 20, y: 0), steps: 5)
            s.frame(210, .up(1))
            s.finish()
        }
        play(&live)
        play(&fresh)
        #expect(live.outputs == fresh.outputs)
        #expect(live.log("k-tap") == ["recognized@40"])
        #expect(live.events("k-swipe").first?.direction == .right)
    }

    @Test func touchesGoUpTheResponderChainToTheNearestConsumer() throws {
        var s = Scenario(pc([]))  // C publishes its touches
        try s.engine.attach(RegionSpec(id: "K", frame: Self.frame(0, 0, 20, 20)), under: "C", recognizers: [])
        s.frame(0, .down(1, 25, 25))
        s.frame(30, .up(1))
        let streamed = s.outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
        #expect(streamed.map(\.phase) == [.began, .ended])
        #expect(streamed.allSatisfy { $0.region == "K" && $0.responder == "C" })
        // A subscriber to K's touches makes K the responder, from the next touch on.
        s.clear()
        s.engine.setTouchSubscribers(["K"])
        s.frame(100, .down(1, 25, 25))
        s.frame(130, .up(1))
        #expect(s.touchEvents("K").map(\.responder) == ["K", "K"])
        // No consumer anywhere up the chain: no stream.
        s.clear()
        s.frame(200, .down(1, 5, 5))
        s.frame(230, .up(1))
        #expect(s.touchEvents("P").isEmpty)
    }

    @Test func millimetresTurnWithTheSurface() {
        // A 100 × 50 mm device (10 units/mm); the surface is its area in mm, so mm and surface agree.
        let axis = { (max: Int32) in AbsInfo(value: 0, minimum: 0, maximum: max, fuzz: 0, flat: 0, resolution: 10) }
        for rotation in SurfaceRotation.allCases {
            let m = SurfaceMapper(xAxis: axis(1000), yAxis: axis(500), surface: SurfaceConfiguration(rotation: rotation))
            for (x, y): (Int32, Int32) in [(0, 0), (1000, 0), (250, 400)] {
                let p = m.physical(x: x, y: y), q = m.surface(x: x, y: y)
                #expect(abs(p.x - q.x) < 1e-9 && abs(p.y - q.y) < 1e-9, "\(rotation) \(x),\(y): \(p) vs \(q)")
            }
        }
    }
}
