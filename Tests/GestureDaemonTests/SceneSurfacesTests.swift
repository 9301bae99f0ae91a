import Foundation
import Testing

/// The scene's `surfaces` and the touch lines' `chain` (docs/protocol.md, "The scene" and "The hit
/// chain of a touch") from the real binary: `gestured replay --scene` over a laptop whose built-in
/// panel is neither the first output nor the focused one. The engine binds the touchscreen to the
/// panel; the scene and every touch's began line say so, so no client has to guess.
@Suite struct SceneSurfacesTests {
    static let snapshot = #"{"request":"desktop","version":1,"backend":"sway","snapshot":1,"part":0,"parts":1,"#
        + #""outputs":[{"name":"HDMI-A-1","x":0,"y":0,"width":1920,"height":1080,"scale":1,"transform":"normal","focused":true},"#
        + #"{"name":"eDP-1","x":1920,"y":0,"width":1280,"height":800,"scale":1,"transform":"normal","focused":false}],"#
        + #""windows":[{"id":"10","app":"foot","title":"~","output":"HDMI-A-1","x":0,"y":0,"width":1920,"height":1080,"stack":1,"focused":true},"#
        + #"{"id":"11","app":"editor","title":"notes","output":"eDP-1","x":0,"y":0,"width":1280,"height":800,"stack":1}]}"#

    static func replay(_ arguments: [String], in dir: TempDir) throws -> [[String: Any]] {
        let file = dir.file("desktop.json"), config = dir.file("replay.yaml")
        try (snapshot + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try (DesktopBridgeTests.rules + "\nregions:\n  id: screen\n  publish-touches: true\n  children:\n"
             + "    - id: bar\n      frame: [0, 0, \"100%\", 40]\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let result = try runBinary("gestured", ["replay", DesktopBridgeTests.tap, "--config", config, "--desktop", file,
                                                "--format", "json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { json(String($0)) }
    }

    @Test func theSceneLaysTheTouchscreenOutOnThePanelNotOnTheFocusedOutput() throws {
        let lines = try Self.replay(["--scene"], in: TempDir())
        let scene = try #require(lines.first)
        #expect(scene["type"] as? String == "response" && scene["request"] as? String == "scene", "\(scene)")
        let desktop = try #require(scene["desktop"] as? [String: Any])
        #expect((desktop["windows"] as? [[String: Any]])?.count == 2)
        let surfaces = try #require(scene["surfaces"] as? [[String: Any]], "\(scene)")
        #expect(surfaces.count == 1)
        let surface = try #require(surfaces.first)
        #expect(surface["device"] as? String == "Wacom ISDv4 E6 Finger")
        #expect(surface["kind"] as? String == "touchscreen")
        #expect(surface["output"] as? String == "eDP-1", "\(surface)")
        // The surface follows its output's logical size.
        #expect(surface["size"] as? [String: Int] == ["x": 1280, "y": 800], "\(surface)")
        let regions = try #require(surface["regions"] as? [[String: Any]])
        #expect(regions.map { $0["id"] as? String } == ["screen", "output:eDP-1", "window:11", "bar"], "\(regions)")
        let window = regions[2]
        #expect(window["role"] as? String == "window" && window["parent"] as? String == "output:eDP-1")
        #expect(window["frame"] as? [Int] == [0, 0, 1280, 800] && window["output-frame"] as? [Int] == [0, 0, 1280, 800])
        let bar = regions[3]
        #expect(bar["frame"] as? [Int] == [0, 0, 1280, 40] && bar["depth"] as? Int == 1 && bar["role"] == nil, "\(bar)")
        // The replay's own lines follow the scene.
        #expect(lines.dropFirst().contains { $0["type"] as? String == "gesture" && $0["gesture"] as? String == "editor-tap" })
        // Without --scene, no scene line.
        #expect(try Self.replay([], in: TempDir()).allSatisfy { $0["request"] == nil })
    }

    @Test func everyBeganLineCarriesTheHitChainTheEngineBoundTheTouchTo() throws {
        let lines = try Self.replay(["--touches"], in: TempDir())
        let touches = lines.filter { $0["type"] as? String == "touch" }
        let began = touches.filter { $0["phase"] as? String == "began" }
        // The screen's stream (its region named) and the frame's own touch (`--touches`, no region).
        #expect(began.count == 2, "\(touches)")
        #expect(began.allSatisfy { $0["chain"] as? [String] == ["window:11", "output:eDP-1", "screen"] }, "\(began)")
        #expect(touches.filter { $0["phase"] as? String != "began" }.allSatisfy { $0["chain"] == nil })
    }
}
