import Foundation
import Testing
import GestureDaemon

/// `gestured replay --bindings`: what each binding would do, decided by the daemon's own
/// dispatcher, printed and never done.
@Suite struct ReplayBindingsTests {
    static let config = """
        version: 1
        gestures:
          - { id: tap, kind: tap, require-to-fail: [double-tap] }
          - { id: double-tap, kind: tap, taps: 2 }
          - { id: scroll, kind: pan, min-fingers: 2, max-fingers: 2 }
        bindings:
          - gesture: double-tap
            keys: [[leftctrl, leftalt, right], [enter]]
          - gesture: scroll
            every: 8mm
            command: 'touch "$MARK"'

        """

    @Test func printsEachFiringsKeysCommandAndEnvironmentAndDoesNone() throws {
        let dir = TempDir()
        let config = dir.file("gestured.yaml")
        try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
        let mark = dir.file("ran")
        setenv("MARK", mark, 1)
        defer { unsetenv("MARK") }
        let steps = try runBinary("gestured", ["replay", "--config", config, "--bindings", "--format", "json",
                                               Paths.twoFingerScroll])
        #expect(steps.status == 0, "\(steps.stderr)")
        let firings = steps.stdout.split(separator: "\n").map { json(String($0)) }.filter { $0["type"] as? String == "binding" }
        // 30 mm down in 8 mm steps: three steps, each a run of its own with GESTURE_STEP.
        #expect(firings.count == 3, "\(steps.stdout)")
        for firing in firings {
            #expect(firing["gesture"] as? String == "scroll")
            #expect(firing["command"] as? String == #"touch "$MARK""#)
            let environment = firing["environment"] as? [String: String] ?? [:]
            #expect(environment["GESTURE_STEP"] == "-1")
            #expect(environment["GESTURE_STEPS"] == "1")
            #expect(environment["GESTURE_KIND"] == "pan")
            #expect(environment["GESTURE_STATE"] == "changed")
        }
        let keys = try runBinary("gestured", ["replay", "--config", config, "--bindings", "--format", "text", Paths.doubleTap])
        #expect(keys.stdout.contains("double-tap       → keys leftctrl+leftalt+right, enter"), "\(keys.stdout)")
        #expect(!FileManager.default.fileExists(atPath: mark), "a command ran")
    }
}
