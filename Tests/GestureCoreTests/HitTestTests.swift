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
        // Beyond an edge by more than the firmware overshoot a device may have (2 % of the side):
        // on no region.
        #expect(e.hitTest(Point(x: 205, y: 10), surfaceSize: Self.size).isEmpty)
        #expect(e.hitTest(Point(x: -5, y: 10), surfaceSize: Self.size).isEmpty)
        #expect(e.hitTest(Point(x: 10, y: 103), surfaceSize: Self.size).isEmpty)
    }

    @Test("a touch reported just past the axis range (firmware overshoot) is taken at the nearest edge")
    func overshoot() {
        let e = Self.engine([RegionSpec(id: "corner", frame: Self.rect(0, 0, 20, 20))])
        #expect(e.hitTest(Point(x: 201, y: 10), surfaceSize: Self.size) == ["root"])
        #expect(e.hitTest(Point(x: -1, y: 10), surfaceSize: Self.size) == ["corner", "root"])
        #expect(e.hitTest(Point(x: 10, y: 101.5), surfaceSize: Self.size) == ["root"])
        #expect(e.hitTest(Point(x: -3.9, y: -1.9), surfaceSize: Self.size) == ["corner", "root"])
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
