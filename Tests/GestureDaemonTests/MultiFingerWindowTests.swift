import Foundation
import Testing

/// One gesture, one window (issue 49 item 6; docs/desktop.md): the real four-finger drag of the Atmel
/// maXTouch lands its fingers on three windows (x 519, 166, 323, 800 of a 1000-wide output, the
/// first at 0 ms, the last at 111 ms); fingers landing within the settle time of the first join the
/// first finger's window, so the window's four-finger pan is the gesture. Before, each finger
/// hit-tested on its own and the window's pan never had more than two fingers.
@Suite struct MultiFingerWindowTests {
    static let config = """
        version: 1
        regions: { id: screen, publish-touches: true }
        windows:
          - id: term
            match: { app: "foot" }
            gestures:
              - { id: term-drag-4, kind: pan, min-fingers: 4, max-fingers: 4 }
        """
    static let desktop = #"{"request":"desktop","version":1,"backend":"sway","seat":"seat0","snapshot":1,"part":0,"parts":1,"#
        + #""outputs":[{"name":"eDP-1","x":0,"y":0,"width":1000,"height":1000,"scale":1,"transform":"normal"}],"windows":["#
        + #"{"id":"1","app":"foot","output":"eDP-1","x":0,"y":0,"width":250,"height":1000,"stack":1},"#
        + #"{"id":"2","app":"foot","output":"eDP-1","x":250,"y":0,"width":200,"height":1000,"stack":2},"#
        + #"{"id":"3","app":"foot","output":"eDP-1","x":450,"y":0,"width":550,"height":1000,"stack":3}]}"#

    @Test func aFourFingerDragAcrossThreeWindowsIsTheFirstFingersWindowsGesture() throws {
        let dir = TempDir()
        try Self.config.write(toFile: dir.file("g.yaml"), atomically: true, encoding: .utf8)
        try (Self.desktop + "\n").write(toFile: dir.file("desktop.json"), atomically: true, encoding: .utf8)
        let recording = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
        let run = try runBinary("gestured", ["replay", "--config", dir.file("g.yaml"), "--desktop", dir.file("desktop.json"),
                                             "--format", "json", "--touches", recording])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { json(String($0)) }
        // Without a region: the frame's touches as the device gave them (where each finger landed).
        let landed = lines.filter { $0["phase"] as? String == "began" && $0["region"] == nil }
            .compactMap { ($0["location"] as? [String: Double])?["x"] }
        #expect(landed.count == 4)
        #expect(Set(landed.map { $0 < 250 ? 1 : $0 < 450 ? 2 : 3 }) == [1, 2, 3], "the fingers land on three windows: \(landed)")
        let regions = lines.filter { $0["phase"] as? String == "began" && $0["region"] != nil }.compactMap { $0["region"] as? String }
        #expect(regions == ["window:3", "window:3", "window:3", "window:3"], "\(regions)")
        let drag = lines.filter { $0["gesture"] as? String == "term-drag-4" }
        #expect(drag.first?["state"] as? String == "began", "\(lines.filter { $0["type"] as? String == "gesture" }.prefix(4))")
        #expect(drag.first?["region"] as? String == "window:3")
        #expect(drag.first?["fingers"] as? Int == 4)
    }
}
