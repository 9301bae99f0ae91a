import Foundation
import Testing
import GestureConfig

/// A binding's `action` (docs/desktop.md, "Actions on the window under the fingers"): read and
/// checked by the config, decided by the daemon's dispatcher on the gesture's window, and printed by
/// `gestured replay --bindings` with the window it would act on.
@Suite struct WindowActionBindingTests {
    static let rules = DesktopBridgeTests.rules + """

        bindings:
          - { gesture: editor-tap, action: move-to-workspace 3 }
          - { gesture: terminal-tap, action: close-window }

        """

    @Test func replayNamesTheActionAndTheWindowUnderTheFingers() throws {
        let dir = TempDir()
        let file = dir.file("desktop.json"), config = dir.file("actions.yaml")
        try (DesktopBridgeTests.snapshot() + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try Self.rules.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try runBinary("gestured", ["replay", DesktopBridgeTests.tap, "--config", config, "--desktop", file,
                                                "--bindings", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let firings = result.stdout.split(separator: "\n").map { json(String($0)) }.filter { $0["type"] as? String == "binding" }
        // The Wacom tap lands on the editor (window 11), right of the terminal.
        #expect(firings.count == 1, "\(result.stdout)")
        #expect(firings.first?["gesture"] as? String == "editor-tap")
        #expect(firings.first?["action"] as? String == "move-to-workspace 3")
        #expect(firings.first?["window"] as? String == "11")
        let text = try runBinary("gestured", ["replay", DesktopBridgeTests.tap, "--config", config, "--desktop", file,
                                              "--bindings", "--format", "text"])
        #expect(text.stdout.contains("→ move-to-workspace 3 window:11"), "\(text.stdout)")
    }

    @Test func anActionOnAScreenGestureOrAnUnknownActionIsAClearError() throws {
        let dir = TempDir()
        let config = dir.file("bad.yaml")
        try """
            version: 1
            gestures:
              - { id: swipe-down, kind: swipe, fingers: 3, directions: down }
            windows:
              - id: every-window
                gestures:
                  - { id: window-swipe, kind: swipe, fingers: 3, directions: down }
            bindings:
              - { gesture: swipe-down, action: close-window }
              - { gesture: window-swipe, action: move-to-workspace zero }
              - { gesture: window-swipe, action: maximize }

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let check = try runBinary("gestured", ["check-config", config])
        #expect(check.status == 1)
        let errors = (check.stdout + check.stderr).split(separator: "\n").filter { $0.hasPrefix(config) }.map(String.init)
        #expect(errors == [
            "\(config):9:36: 'action' in binding 1 acts on the window of its gesture, and 'swipe-down' is a screen gesture: "
                + "define it under a window rule ('windows:', a rule with no 'match' takes every window)",
            "\(config):10:38: bad value 'move-to-workspace zero' for 'action' in binding 2: expected one of close-window, "
                + "maximize, minimize, fullscreen, move-to-workspace N (N a workspace number from 1); a shell command goes in 'command'",
        ], "\(check.stdout)\(check.stderr)")
    }
}
