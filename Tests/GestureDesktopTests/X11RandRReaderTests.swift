import GestureCore
import GestureDesktop
import Testing

/// RandR's monitors as outputs: names, geometry, rotation (the real Xvfb's `screen` is in
/// Tests/desktop/run.sh; Xvfb can neither rotate nor split its screen, so those are tested here).
@Suite struct X11RandRReaderTests {
    /// RR_Rotate_90 is `xrandr --rotate left`, a quarter turn counter-clockwise: wl_output's 1, "90".
    @Test func rotationBitsAreWaylandTransforms() {
        #expect(X11Reader.transform(rotation: 1) == .normal)
        #expect(X11Reader.transform(rotation: 2) == .rotated90)
        #expect(X11Reader.transform(rotation: 4) == .rotated180)
        #expect(X11Reader.transform(rotation: 8) == .rotated270)
        #expect(X11Reader.transform(rotation: 1 | 16) == .flipped)
        #expect(X11Reader.transform(rotation: 2 | 16) == .flipped90)
        #expect(X11Reader.transform(rotation: 1 | 32) == .flipped180)
        #expect(X11Reader.transform(rotation: 1 | 16 | 32) == .rotated180)
    }

    @Test func monitorsAreOutputsAsXrandrNamesThem() {
        let outputs = X11Reader.outputs(monitors: [
            X11MonitorFacts(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, rotation: 1),
            X11MonitorFacts(name: "HDMI-1", x: 1920, y: 0, width: 1080, height: 1920, rotation: 2),
            X11MonitorFacts(name: "virtual", x: 0, y: 1080, width: 800, height: 600),
            X11MonitorFacts(name: "", x: 0, y: 0, width: 10, height: 10, rotation: 1),
            X11MonitorFacts(name: "off", x: 0, y: 0, width: 0, height: 0, rotation: 1),
        ])
        #expect(outputs == [
            DesktopOutput(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080),
            DesktopOutput(name: "HDMI-1", x: 1920, y: 0, width: 1080, height: 1920, transform: .rotated90),
            DesktopOutput(name: "virtual", x: 0, y: 1080, width: 800, height: 600),
        ])
    }

    @Test func windowsBelongToTheMonitorHoldingTheirCentre() {
        let outputs = X11Reader.outputs(monitors: [
            X11MonitorFacts(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, rotation: 1),
            X11MonitorFacts(name: "HDMI-1", x: 1920, y: 0, width: 1080, height: 1920, rotation: 2),
        ])
        var left = X11WindowFacts(id: 1)
        left.wmClass = Array("xterm\0Left\0".utf8)
        (left.x, left.y, left.width, left.height) = (100, 100, 400, 300)
        var right = X11WindowFacts(id: 2)
        right.wmClass = Array("xterm\0Right\0".utf8)
        // Mostly on HDMI-1: its centre is there.
        (right.x, right.y, right.width, right.height) = (1800, 500, 600, 400)
        var nowhere = X11WindowFacts(id: 3)
        (nowhere.x, nowhere.y, nowhere.width, nowhere.height) = (5000, 5000, 10, 10)
        let scene = X11Reader.scene(outputs: outputs, clients: [left, right, nowhere], currentDesktop: nil, active: 2,
                                    pointer: (x: 2000, y: 30))
        #expect(scene.windows.map { [$0.app, $0.output] } == [["Left", "eDP-1"], ["Right", "HDMI-1"]])
        #expect(scene.windows.map { [$0.x, $0.y] } == [[100, 100], [-120, 500]])
        #expect(scene.pointer == DesktopPointer(output: "HDMI-1", x: 80, y: 30))
    }
}
