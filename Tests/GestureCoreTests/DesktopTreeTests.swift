import Testing
@testable import GestureCore

/// The desktop as the view tree (GestureEngine+Desktop.swift, EngineLane+Keeping.swift): output and
/// window regions, window rules, the keep rule, `disable`, touchpads and the focused window,
/// touchscreens bound to an output. The scenario surface is 100 × 100 mm; outputs are 1000 × 1000
/// logical pixels, so a window's pixel x / 10 is its mm on the surface.
@Suite struct DesktopTreeTests {
    static func window(_ id: String, app: String = "app", output: String = "O", _ x: Double, _ y: Double,
                       _ w: Double, _ h: Double, stack: Int = 0, focused: Bool = false) -> DesktopWindow {
        DesktopWindow(id: id, app: app, title: "t\(id)", output: output, x: x, y: y, width: w, height: h, stack: stack,
                      focused: focused)
    }

    static func desktop(_ windows: [DesktopWindow], outputs: [String] = ["O"]) -> Desktop {
        Desktop(outputs: outputs.map { DesktopOutput(name: $0, width: 1000, height: 1000) }, windows: windows)
    }

    static func config(_ recognizers: [RecognizerSpec], rules: [WindowRule]) -> EngineConfiguration {
        var c = EngineConfiguration(root: RegionSpec(id: "P"), recognizers: recognizers)
        c.windowRules = rules
        return c
    }

    static func rule(_ id: String, app: String, disable: [String] = [], _ gestures: [RecognizerSpec]) -> WindowRule {
        WindowRule(id: id, match: WindowMatch(app: app), disable: disable, gestures: gestures)
    }

    static func twoFingerPan(_ id: String = "two-finger-pan") -> RecognizerSpec {
        spec(id, .pan) {
            $0.minimumFingers = 2
            $0.maximumFingers = 2
        }
    }

    /// Two fingers around (cx, cy) mm moving apart, drifting down a little as real hands do: a zoom.
    static func zoom(_ s: inout Scenario, at cx: Double, _ cy: Double, from t0: Double) {
        s.frame(t0, .down(1, cx - 5, cy), .down(2, cx + 5, cy))
        for k in 1...12 {
            let d = 5 + Double(k) * 1.5
            let drift = Double(min(k, 3)) * 1.5
            s.frame(t0 + Double(k) * 16, .move(1, cx - d, cy + drift), .move(2, cx + d, cy + drift))
        }
        s.frame(t0 + 220, .up(1), .up(2))
    }

    /// Two fingers moving together to the right: a two-finger drag.
    static func drag(_ s: inout Scenario, at cx: Double, _ cy: Double, from t0: Double) {
        s.frame(t0, .down(1, cx - 5, cy), .down(2, cx + 5, cy))
        for k in 1...12 {
            let d = Double(k) * 2
            s.frame(t0 + Double(k) * 16, .move(1, cx - 5 + d, cy), .move(2, cx + 5 + d, cy))
        }
        s.frame(t0 + 220, .up(1), .up(2))
    }

    @Test func aTouchWhereTwoWindowsOverlapHitsTheOneOnTop() {
        var s = Scenario(Self.config([], rules: [
            Self.rule("a", app: "a", [tap("ta", region: "")]), Self.rule("b", app: "b", [tap("tb", region: "")])]))
        _ = s.engine.setDesktop(Self.desktop([
            Self.window("2", app: "b", 300, 300, 600, 600, stack: 2),
            Self.window("1", app: "a", 0, 0, 600, 600, stack: 1),
        ]), at: .zero)
        #expect(s.engine.hitTest(output: "O", at: Point(x: 400, y: 400)) == ["window:2", "output:O", "P"])
        #expect(s.engine.hitTest(output: "O", at: Point(x: 100, y: 100)) == ["window:1", "output:O", "P"])
        s.frame(0, .down(1, 40, 40))
        s.frame(50, .up(1))
        s.advance(600)
        #expect(s.log("tb") == ["recognized@50"])
        #expect(s.log("ta").isEmpty)
        // Raised: the same point now hits window 1.
        _ = s.engine.setDesktop(Self.desktop([
            Self.window("2", app: "b", 300, 300, 600, 600, stack: 1),
            Self.window("1", app: "a", 0, 0, 600, 600, stack: 2),
        ]), at: Scenario.ms(700))
        s.clear()
        s.frame(800, .down(1, 40, 40))
        s.frame(850, .up(1))
        s.advance(1500)
        #expect(s.log("ta") == ["recognized@850"])
        #expect(s.log("tb").isEmpty)
        #expect(s.engine.illegalTransitions == 0)
    }

    @Test func aWindowNoRuleMatchesShieldsTheWindowBelow() {
        var s = Scenario(Self.config([tap("screen-tap")], rules: [Self.rule("a", app: "a", [tap("ta", region: "")])]))
        _ = s.engine.setDesktop(Self.desktop([
            Self.window("1", app: "a", 0, 0, 800, 800, stack: 1),
            Self.window("2", app: "other", 200, 200, 400, 400, stack: 2),
        ]), at: .zero)
        #expect(s.engine.hitTest(output: "O", at: Point(x: 300, y: 300)) == ["window:2", "output:O", "P"])
        s.frame(0, .down(1, 30, 30))
        s.frame(50, .up(1))
        s.advance(600)
        #expect(s.log("ta").isEmpty)
        // The screen's gestures still apply over a window no rule matches.
        #expect(s.log("screen-tap") == ["recognized@50"])
    }

    @Test func theWindowsPinchWinsOverTheScreensTwoFingerPan() {
        var s = Scenario(Self.config([Self.twoFingerPan()],
                                     rules: [Self.rule("browser", app: "firefox", [spec("browser-pinch", .pinch, region: "")])]))
        _ = s.engine.setDesktop(Self.desktop([Self.window("12", app: "firefox", 0, 0, 1000, 1000)]), at: .zero)
        Self.zoom(&s, at: 50, 50, from: 0)
        #expect(s.log("browser-pinch").first?.hasPrefix("began@") == true, "\(s.log("browser-pinch"))")
        #expect(s.log("two-finger-pan").isEmpty)
        #expect(s.reasons("two-finger-pan").contains { $0.hasPrefix("excluded by browser-pinch") },
                "\(s.reasons("two-finger-pan"))")
        // A two-finger drag over the same window is not a pinch: the screen's pan gets it.
        s.clear()
        Self.drag(&s, at: 50, 50, from: 1000)
        #expect(s.log("two-finger-pan").first?.hasPrefix("began@") == true, "\(s.log("two-finger-pan"))")
        #expect(s.log("browser-pinch").isEmpty)
        let waits = s.explanations.filter { $0.gesture == "two-finger-pan" }.map(\.reason)
        #expect(waits.contains("waiting for window:12's browser-pinch to fail (the window keeps its gestures)"), "\(waits)")
        #expect(s.engine.illegalTransitions == 0)
    }

    @Test func anAttachedRegionKeepsItsGesturesToo() throws {
        // The screen's pan would begin first (1 mm), the app's only at 8 mm: the app's still wins.
        var s = Scenario(Self.config([spec("screen-pan", .pan) { $0.panThreshold = 1 }], rules: []))
        try s.engine.attach(RegionSpec(id: "app"), under: "P",
                            recognizers: [spec("app-pan", .pan, region: "app") { $0.panThreshold = 8 }])
        s.frame(0, .down(1, 50, 50))
        s.stroke(1, from: 0, to: 200, by: Point(x: 20, y: 0), steps: 10)
        s.frame(210, .up(1))
        #expect(s.log("app-pan").first?.hasPrefix("began@") == true, "\(s.log("app-pan"))")
        #expect(s.log("screen-pan").isEmpty)
        let waits = s.explanations.filter { $0.gesture == "screen-pan" }.map(\.reason)
        #expect(waits.contains("waiting for app's app-pan to fail (the region keeps its gestures)"), "\(waits)")
    }

    @Test func theScreensEdgePanStillStartsFromTheEdge() {
        let edge = spec("edge-left", .edgePan) { $0.edges = [.left] }
        var s = Scenario(Self.config([edge], rules: [Self.rule("draw", app: "draw", [spec("draw-pan", .pan, region: "")])]))
        _ = s.engine.setDesktop(Self.desktop([Self.window("5", app: "draw", 0, 0, 1000, 1000)]), at: .zero)
        s.frame(0, .down(1, 1, 50))
        s.stroke(1, from: 0, to: 200, by: Point(x: 30, y: 0), steps: 10)
        s.frame(210, .up(1))
        #expect(s.log("edge-left").first?.hasPrefix("began@") == true, "\(s.log("edge-left"))")
        #expect(s.log("draw-pan").isEmpty)
        // Away from the edge, the window's pan.
        s.clear()
        s.frame(1000, .down(1, 50, 50))
        s.stroke(1, from: 1000, to: 1200, by: Point(x: 30, y: 0), steps: 10)
        s.frame(1210, .up(1))
        #expect(s.log("draw-pan").first?.hasPrefix("began@") == true, "\(s.log("draw-pan"))")
        #expect(s.log("edge-left").isEmpty)
    }

    @Test func disableKeepsTheListedScreenGesturesOffTheWindow() {
        let edge = spec("edge-left", .edgePan) { $0.edges = [.left] }
        var s = Scenario(Self.config([edge, tap("screen-tap")],
                                     rules: [Self.rule("draw", app: "draw", disable: ["edge-left"], [])]))
        _ = s.engine.setDesktop(Self.desktop([Self.window("5", app: "draw", 0, 0, 500, 1000)]), at: .zero)
        // From the edge over the drawing app: no edge pan.
        s.frame(0, .down(1, 1, 50))
        s.stroke(1, from: 0, to: 200, by: Point(x: 30, y: 0), steps: 10)
        s.frame(210, .up(1))
        #expect(s.log("edge-left").isEmpty)
        // The gestures it does not list still apply.
        s.frame(1000, .down(1, 20, 20))
        s.frame(1050, .up(1))
        s.advance(1600)
        #expect(s.log("screen-tap") == ["recognized@1050"])
        // "*": none of the screen's gestures.
        var all = Scenario(Self.config([tap("screen-tap")], rules: [Self.rule("draw", app: "draw", disable: ["*"], [])]))
        _ = all.engine.setDesktop(Self.desktop([Self.window("5", app: "draw", 0, 0, 500, 1000)]), at: .zero)
        all.frame(0, .down(1, 20, 20))
        all.frame(50, .up(1))
        all.advance(600)
        #expect(all.log("screen-tap").isEmpty)
        all.frame(1000, .down(1, 80, 20))
        all.frame(1050, .up(1))
        all.advance(1600)
        #expect(all.log("screen-tap") == ["recognized@1050"])
    }

    @Test func touchpadTouchesGoToTheFocusedWindowsGestures() {
        let swipe = { (id: String) in spec(id, .swipe, region: "") { $0.fingers = 3; $0.directions = [.right] } }
        var s = Scenario(Self.config([], rules: [Self.rule("a", app: "a", [swipe("a-swipe")]),
                                                 Self.rule("b", app: "b", [swipe("b-swipe")])]))
        s.device = DeviceRef(id: 2, name: "pad", kind: .touchpad)
        _ = s.engine.setDesktop(Self.desktop([
            Self.window("1", app: "a", 0, 0, 500, 1000, stack: 1),
            Self.window("2", app: "b", 500, 0, 500, 1000, stack: 2, focused: true),
        ]), at: .zero)
        s.frame(0, .down(1, 10, 50), .down(2, 20, 50), .down(3, 30, 50))
        for k in 1...15 {
            let d = Double(k) * 3
            s.frame(Double(k) * 12, .move(1, 10 + d, 50), .move(2, 20 + d, 50), .move(3, 30 + d, 50))
        }
        s.frame(200, .up(1), .up(2), .up(3))
        #expect(s.log("b-swipe").first?.hasPrefix("began@") == true, "\(s.log("b-swipe"))")
        #expect(s.log("a-swipe").isEmpty)
    }

    @Test func aTouchscreenHitsOnlyTheWindowsOfItsOutput() {
        let rules = [Self.rule("hdmi", app: "h", [tap("on-hdmi", region: "")]), Self.rule("edp", app: "e", [tap("on-edp", region: "")])]
        var s = Scenario(Self.config([], rules: rules))
        _ = s.engine.setDesktop(Self.desktop([
            Self.window("1", app: "h", output: "HDMI-A-1", 0, 0, 1000, 1000),
            Self.window("2", app: "e", output: "eDP-1", 0, 0, 1000, 1000),
        ], outputs: ["HDMI-A-1", "eDP-1"]), at: .zero)
        // By default, the built-in panel.
        #expect(s.engine.output(forDevice: 1) == "eDP-1")
        s.frame(0, .down(1, 50, 50))
        s.frame(50, .up(1))
        s.advance(600)
        #expect(s.log("on-edp") == ["recognized@50"])
        #expect(s.log("on-hdmi").isEmpty)
        // Bound by the config to the other output.
        s.engine.setOutput("HDMI-A-1", forDevice: 1)
        s.clear()
        s.frame(1000, .down(1, 50, 50))
        s.frame(1050, .up(1))
        s.advance(1600)
        #expect(s.log("on-hdmi") == ["recognized@1050"])
        #expect(s.log("on-edp").isEmpty)
        // Two outputs, none built in, none named: no window is hit.
        var none = Scenario(Self.config([], rules: rules))
        _ = none.engine.setDesktop(Self.desktop([Self.window("1", app: "h", output: "DP-1", 0, 0, 1000, 1000)],
                                                outputs: ["DP-1", "DP-2"]), at: .zero)
        #expect(none.engine.output(forDevice: 1) == nil)
        #expect(none.engine.hitTest(Point(x: 50, y: 50), surfaceSize: none.surface, device: 1) == ["P"])
    }

    @Test func windowsThatGoLoseTheirRegionsAndGesturesInProgress() {
        var s = Scenario(Self.config([], rules: [Self.rule("a", app: "a", [spec("wpan", .pan, region: "")])]))
        _ = s.engine.setDesktop(Self.desktop([Self.window("1", app: "a", 0, 0, 1000, 1000)]), at: .zero)
        s.frame(0, .down(1, 50, 50))
        s.stroke(1, from: 0, to: 100, by: Point(x: 20, y: 0), steps: 5)
        // A snapshot that moves the window keeps the gesture going.
        _ = s.engine.setDesktop(Self.desktop([Self.window("1", app: "a", 100, 0, 900, 1000)]), at: Scenario.ms(105))
        s.stroke(1, from: 110, to: 150, by: Point(x: 5, y: 0), steps: 2)
        #expect(s.log("wpan").first == "began@20")
        #expect(!s.log("wpan").contains { $0.hasPrefix("cancelled") })
        let out = s.engine.setDesktop(nil, at: Scenario.ms(160))
        let states = out.compactMap { if case .gesture(let g) = $0 { g.state } else { nil } }
        #expect(states == [.cancelled])
        s.frame(170, .up(1))
        #expect(s.engine.hitTest(Point(x: 50, y: 50), surfaceSize: s.surface, device: 1) == ["P"])
        let compacted = s.engine.compactIfIdle()
        #expect(compacted)
        #expect(!s.engine.hasDetachedLeftovers)
        #expect(s.engine.illegalTransitions == 0)
    }

    @Test func globs() {
        #expect(Glob.matches("firefox*", "firefox-esr"))
        #expect(Glob.matches("*fox", "firefox"))
        #expect(!Glob.matches("firefox*", "Firefox"))
        #expect(Glob.matches("f?re[a-z]ox", "firefox"))
        #expect(!Glob.matches("[!f]irefox", "firefox"))
        #expect(Glob.matches("*", ""))
        #expect(!Glob.matches("a", ""))
    }
}
