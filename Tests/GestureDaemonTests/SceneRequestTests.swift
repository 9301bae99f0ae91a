import Foundation
import Testing
import GestureProtocol
import GestureDaemon

/// The `scene` request (docs/protocol.md, "The scene") over a real socket with the real binary:
/// the config's region tree as written, its gestures with what they wait for, and the desktop's
/// outputs and windows with the rule each matched.
@Suite(.serialized) struct SceneRequestTests {
    static let config = """
        version: 1
        regions:
          id: screen
          children:
            - id: panel
              frame: [0, 0, "100%", 40]
              children:
                - id: button
                  frame: ["85%", 5, 30, 30]
        gestures:
          - id: double
            kind: tap
            taps: 2
          - id: single
            kind: tap
            require-to-fail: [double]
        windows:
          - id: terminal
            match: { app: foot }
            gestures:
              - id: terminal-tap
                kind: tap
        """

    @Test func theSceneNamesRegionsGesturesAndWindowsWithTheirRules() throws {
        let dir = TempDir()
        let path = dir.file("gestured.yaml")
        try Self.config.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", path])
        let client = try daemon.connect()

        let before = try client.request(#"{"request":"scene"}"#)
        #expect(isOK(before), "\(before)")
        #expect(before["desktop"] is NSNull, "\(before)")
        let root = try #require(before["regions"] as? [String: Any])
        #expect(root["id"] as? String == "screen")
        let panel = try #require((root["children"] as? [[String: Any]])?.first)
        #expect(panel["id"] as? String == "panel")
        #expect(panel["frame"] as? [AnyHashable] == [0, 0, "100%", 40] as [AnyHashable])
        let button = try #require((panel["children"] as? [[String: Any]])?.first)
        #expect(button["frame"] as? [AnyHashable] == ["85%", 5, 30, 30] as [AnyHashable])
        let gestures = try #require(before["gestures"] as? [[String: Any]])
        let single = try #require(gestures.first { $0["id"] as? String == "single" })
        #expect(single["kind"] as? String == "tap")
        #expect(single["require-to-fail"] as? [String] == ["double"])
        #expect(gestures.contains { $0["id"] as? String == "terminal-tap" })

        let snapshot = #"{"request":"desktop","version":1,"backend":"sway","snapshot":1,"part":0,"parts":1,"#
            + #""outputs":[{"name":"HEADLESS-1","width":1280,"height":720,"scale":1,"transform":"normal"}],"#
            + #""windows":[{"id":"7","app":"foot","title":"~","output":"HEADLESS-1","x":10,"y":20,"width":600,"height":700,"stack":1},"#
            + #"{"id":"8","app":"other","title":"t","output":"HEADLESS-1","x":640,"y":0,"width":640,"height":720,"stack":2}]}"#
        #expect(isOK(try client.request(snapshot)))
        let after = try client.request(#"{"request":"scene"}"#)
        let desktop = try #require(after["desktop"] as? [String: Any], "\(after)")
        #expect(desktop["backend"] as? String == "sway")
        let output = try #require((desktop["outputs"] as? [[String: Any]])?.first)
        #expect(output["name"] as? String == "HEADLESS-1" && output["width"] as? Int == 1280)
        let windows = try #require(desktop["windows"] as? [[String: Any]])
        #expect(windows.count == 2)
        let foot = try #require(windows.first { $0["id"] as? String == "7" })
        #expect(foot["app"] as? String == "foot" && foot["title"] as? String == "~")
        #expect(foot["x"] as? Int == 10 && foot["y"] as? Int == 20 && foot["width"] as? Int == 600)
        #expect(foot["rule"] as? String == "terminal")
        let other = try #require(windows.first { $0["id"] as? String == "8" })
        #expect(other["rule"] == nil)
    }
}
