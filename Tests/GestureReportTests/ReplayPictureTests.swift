import Testing
import GestureCore
import GestureConfig
@testable import GestureReport

/// What the picture is made of (the rendering itself is checked with rsvg-convert in GestureDaemonTests).
@Suite struct ReplayPictureTests {
    static let t0 = Timestamp(seconds: 50)
    static func at(_ ms: Double) -> Timestamp { t0.adding(milliseconds: ms) }

    static let description = DeviceDescription(
        name: "Pad", properties: [.direct],
        absInfo: [.absMTSlot: AbsInfo(minimum: 0, maximum: 4),
                  .absMTPositionX: AbsInfo(minimum: 0, maximum: 2000, resolution: 10),
                  .absMTPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)])

    /// The device with `root` laid out by the engine on its 200 × 100 mm surface.
    static func laidOut(_ root: RegionSpec = ConfigurationLoader.loadDefault().engine.root) -> ReplayPicture.Device {
        let engine = GestureEngine(configuration: EngineConfiguration(root: root, recognizers: []))
        return ReplayPicture.Device(description: description, source: "pad.evemu", surface: SurfaceConfiguration(),
                                    layout: engine.surfaceLayout(device: 0, name: "Pad", kind: .touchscreen,
                                                                 size: Point(x: 200, y: 100)))
    }
    static let device = laidOut()

    static func touch(_ id: UInt64, _ phase: TouchPhase, _ ms: Double, _ x: Double, _ y: Double) -> EngineOutput {
        .touch(TouchEvent(phase: phase, id: TouchID(id), location: Point(x: x, y: y), region: nil, tapCount: 1,
                          time: at(ms), device: "Pad"))
    }

    @Test func theDeviceSurfaceIsItsAreaInMillimetres() {
        #expect(Self.device.sizeMM == Point(x: 200, y: 100))
        #expect(Self.device.regions.first?.id == "screen")
    }

    @Test func regionFramesResolvePercentagesInTheirParent() {
        let root = RegionSpec(id: "screen", children: [
            RegionSpec(id: "strip", frame: RegionFrame(x: .percent(0), y: .percent(90), width: .percent(100), height: .percent(10)),
                       children: [RegionSpec(id: "button", frame: RegionFrame(x: .absolute(10), y: .absolute(2),
                                                                              width: .percent(50), height: .absolute(5)))]),
            RegionSpec(id: "drawer", frame: RegionFrame(x: .absolute(0), y: .absolute(0), width: .percent(30), height: .percent(100)),
                       hidden: true),
        ])
        let boxes = Self.laidOut(root).regions
        #expect(boxes.map(\.id) == ["screen", "strip", "button", "drawer"])
        #expect(boxes[1].frame == Rect(x: 0, y: 90, width: 200, height: 10))
        #expect(boxes[2].frame == Rect(x: 10, y: 92, width: 100, height: 5))
        #expect(boxes[2].depth == 2)
        #expect(boxes[3].hidden)
    }

    @Test func touchesBecomeTracksGesturesSpansAndFailuresSitWhereTheFingersWere() {
        func pan(_ state: GestureState, _ ms: Double) -> EngineOutput {
            .gesture(GestureEvent(gesture: "pan", kind: .pan, state: state, time: Self.at(ms), device: "Pad", region: "screen",
                                  fingers: 1, location: Point(x: 10 + ms / 10, y: 20)))
        }
        let outputs: [EngineOutput] = [
            Self.touch(1, .began, 0, 10, 20),
            .explain(ExplainEvent(gesture: "swipe-3", region: "screen", from: .possible, to: .failed, time: Self.at(0),
                                  reason: "1 finger, needs 3")),
            Self.touch(2, .began, 0, 30, 40),
            pan(.began, 50), Self.touch(1, .moved, 50, 15, 20), pan(.changed, 60), pan(.changed, 70),
            // Already failed: not a new failure.
            .explain(ExplainEvent(gesture: "swipe-3", region: "screen", from: .failed, to: .failed, time: Self.at(70),
                                  reason: "received touch 3")),
            pan(.ended, 80), Self.touch(1, .ended, 80, 18, 20), Self.touch(2, .cancelled, 80, 30, 40),
            .explain(ExplainEvent(gesture: "tap", region: "screen", from: .possible, to: .failed, time: Self.at(90),
                                  reason: "moved 8 mm > 5 mm")),
        ]
        let picture = ReplayPicture(title: "t", configName: "c", devices: [Self.device], outputs: outputs, origin: Self.t0)
        #expect(picture.tracks.map(\.id) == [TouchID(1), TouchID(2)])
        #expect(picture.tracks[0].points.count == 3)
        #expect(picture.tracks[0].endPhase == .ended && picture.tracks[1].endPhase == .cancelled)
        #expect(picture.spans.count == 1)
        #expect(picture.spans[0].events.map(\.state) == [.began, .changed, .changed, .ended])
        #expect(picture.failures.map(\.event.gesture) == ["swipe-3", "tap"])
        // Both fingers down at 0 ms: their centroid; after every lift, where the last ones lifted.
        #expect(picture.failures[0].location == Point(x: 20, y: 30))
        #expect(picture.failures[1].location == Point(x: 24, y: 30))
        #expect(picture.ms(picture.end) == 90)
    }

    @Test func theSVGNumbersEveryGestureAndFailureAndEscapesText() {
        let outputs: [EngineOutput] = [
            Self.touch(1, .began, 0, 10, 20), Self.touch(1, .ended, 40, 10, 20),
            .gesture(GestureEvent(gesture: "tap<&>", kind: .tap, state: .recognized, time: Self.at(40), device: "Pad",
                                  region: "screen", fingers: 1, taps: 1, location: Point(x: 10, y: 20))),
            .explain(ExplainEvent(gesture: "pan", region: "screen", from: .possible, to: .failed, time: Self.at(40),
                                  reason: "lifted after moving 0 mm < 3 mm")),
        ]
        let picture = ReplayPicture(title: "Replay of \"a\" & b", configName: "c", devices: [Self.device], outputs: outputs,
                                    origin: Self.t0)
        let svg = ReplaySVG.render(picture, explained: true)
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("width=\"1000\""))
        #expect(svg.contains("Replay of &quot;a&quot; &amp; b"))
        #expect(svg.contains("G1 tap&lt;&amp;&gt;"))
        #expect(svg.contains("F1"))
        #expect(svg.contains("lifted after moving 0 mm &lt; 3 mm"))
        #expect(!svg.contains("tap<&>"))
    }
}
