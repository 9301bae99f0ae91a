import Testing
@testable import GestureCore

/// `GestureEngine.surfaceLayout` (SurfaceLayout.swift) and the hit chain of a touch's began line: what
/// the engine decided, as the scene reply and the touch lines tell every client (docs/protocol.md).
/// The surface is 100 × 100 units; the laptop panel eDP-1 is 1000 × 1000 logical pixels, so a
/// window's pixel x / 10 is its unit on the surface.
@Suite struct SurfaceLayoutTests {
    static let surface = Point(x: 100, y: 100)

    /// A laptop with an external monitor that has the focus and comes first: the built-in panel is
    /// neither the first nor the focused output.
    static let laptop = Desktop(
        outputs: [DesktopOutput(name: "HDMI-A-1", width: 1920, height: 1080, focused: true),
                  DesktopOutput(name: "eDP-1", width: 1000, height: 1000, focused: false)],
        windows: [DesktopWindow(id: "1", app: "big", title: "b", output: "HDMI-A-1", x: 0, y: 0, width: 1920, height: 1080,
                                stack: 1, focused: true),
                  DesktopWindow(id: "2", app: "foot", title: "~", output: "eDP-1", x: 100, y: 200, width: 500, height: 400,
                                stack: 1)])

    static func config() -> EngineConfiguration {
        let panel = RegionSpec(id: "panel", frame: RegionFrame(x: .absolute(0), y: .absolute(0), width: .percent(100),
                                                               height: .absolute(10)))
        let hidden = RegionSpec(id: "away", hidden: true)
        let padsOnly = RegionSpec(id: "pad-edge", frame: RegionFrame(x: .percent(90), y: .absolute(0), width: .percent(10),
                                                                     height: .percent(100)),
                                  deviceKinds: [.touchpad])
        return EngineConfiguration(root: RegionSpec(id: "screen", children: [panel, hidden, padsOnly],
                                                    publishesTouches: true),
                                   recognizers: [])
    }

    @Test func aTouchscreenIsLaidOutOnTheOutputTheEngineBindsItToNotTheFocusedOne() {
        var engine = GestureEngine(configuration: Self.config())
        _ = engine.setDesktop(Self.laptop, at: .zero)
        let layout = engine.surfaceLayout(device: 1, name: "ELAN", kind: .touchscreen, size: Self.surface)
        #expect(layout.output == "eDP-1")
        #expect(layout.output == engine.output(forDevice: 1))
        // The desktop's regions lie below the config's own; the other output's are left out, as is
        // the touchpad-only region; the hidden one is in, marked.
        #expect(layout.regions.map(\.id) == ["screen", "output:eDP-1", "window:2", "panel", "away"])
        #expect(layout.regions.map(\.depth) == [0, 1, 2, 1, 1])
        #expect(layout.regions.map(\.parent) == [nil, "screen", "output:eDP-1", "screen", "screen"])
        #expect(layout.regions.map(\.role) == [.plain, .output, .window, .plain, .plain])
        #expect(layout.regions.map(\.hidden) == [false, false, false, false, true])
        let window = layout.regions[2]
        #expect(window.frame == Rect(x: 10, y: 20, width: 50, height: 40))
        #expect(window.outputFrame == Rect(x: 100, y: 200, width: 500, height: 400))
        let panel = layout.regions[3]
        #expect(panel.frame == Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(panel.outputFrame == Rect(x: 0, y: 0, width: 1000, height: 100))
        // What the hit test says at the window's middle is what the layout draws there.
        #expect(engine.hitTest(Point(x: 35, y: 40), surfaceSize: Self.surface, device: 1)
                    == ["window:2", "output:eDP-1", "screen"])
    }

    @Test func theOutputTheConfigNamesIsTheOneLaidOut() {
        var engine = GestureEngine(configuration: Self.config())
        engine.setOutput("HDMI-A-1", forDevice: 1)
        _ = engine.setDesktop(Self.laptop, at: .zero)
        let layout = engine.surfaceLayout(device: 1, name: "ELAN", kind: .touchscreen, size: Point(x: 1920, y: 1080))
        #expect(layout.output == "HDMI-A-1")
        #expect(layout.regions.map(\.id) == ["screen", "output:HDMI-A-1", "window:1", "panel", "away"])
        #expect(layout.regions[2].outputFrame == Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    @Test func aTouchpadHasNoOutputAndNoWindowRegions() {
        var engine = GestureEngine(configuration: Self.config())
        _ = engine.setDesktop(Self.laptop, at: .zero)
        let layout = engine.surfaceLayout(device: 2, name: "Pad", kind: .touchpad, size: Self.surface)
        #expect(layout.output == nil)
        #expect(layout.regions.map(\.id) == ["screen", "panel", "away", "pad-edge"])
        #expect(layout.regions.allSatisfy { $0.outputFrame == nil })
        #expect(layout.regions[3].frame == Rect(x: 90, y: 0, width: 10, height: 100))
    }

    @Test func withoutABridgeASurfaceHasOnlyTheConfigsRegions() {
        let engine = GestureEngine(configuration: Self.config())
        let layout = engine.surfaceLayout(device: 1, name: "ELAN", kind: .touchscreen, size: Self.surface)
        #expect(layout.output == nil)
        #expect(layout.regions.map(\.id) == ["screen", "panel", "away"])
    }

    @Test func aTouchsBeganLineCarriesTheHitChainAndNoOtherLineDoes() {
        var s = Scenario(Self.config())
        s.device = DeviceRef(id: 1, name: "ELAN", kind: .touchscreen)
        _ = s.engine.setDesktop(Self.laptop, at: .zero)
        s.frame(0, .down(1, 35, 40))
        s.frame(20, .move(1, 36, 40))
        s.frame(40, .up(1))
        let lines = s.outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
        #expect(lines.map(\.phase) == [.began, .moved, .ended])
        #expect(lines.map(\.chain) == [["window:2", "output:eDP-1", "screen"], nil, nil])
        #expect(lines[0].jsonLine.contains(#""responder":"screen","chain":["window:2","output:eDP-1","screen"],"tapCount":1"#),
                "\(lines[0].jsonLine)")
        #expect(!lines[1].jsonLine.contains("chain"))
        // On the panel, over the window: the config's region is on top.
        s.clear()
        s.frame(100, .down(2, 35, 5))
        s.frame(120, .up(2))
        let panel = s.outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
        #expect(panel.first?.chain == ["panel", "screen"])
    }
}
