import Foundation
import Testing

/// `gestured check-config` through the real binary: exit status and file:line:column on stderr.
@Suite struct CheckConfigCommandTests {
    @Test func defaultConfigIsValid() throws {
        let embedded = try runBinary("gestured", ["check-config"])
        #expect(embedded.status == 0)
        #expect(embedded.stdout.contains("ok (1 regions, 15 gestures, 0 bindings)"))
        let file = try runBinary("gestured", ["check-config", Paths.packageRoot + "/config/default.yaml"])
        #expect(file.status == 0, "\(file.stderr)")
    }

    @Test(arguments: [
        ("version: 1\ngestures:\n  - id: t\n    kind: tap\n    tapz: 2\n",
         ":5:5: unknown key 'tapz' in gesture 't' (did you mean 'taps'?)"),
        ("version: 1\ngestures:\n  - id: t\n    kind: tap\n    require-to-fail: [nope]\n",
         ":5:23: unknown gesture 'nope' in 'require-to-fail' of gesture 't'"),
        ("version: 1\ngestures:\n  - id: a\n    kind: tap\n    require-to-fail: [b]\n  - id: b\n    kind: tap\n    require-to-fail: [a]\n",
         "cycle"),
        ("version: 1\ngestures: [\n", ":3:1:"),
    ])
    func brokenConfigsNameFileLineAndColumn(yaml: String, expected: String) throws {
        let dir = TempDir()
        let path = dir.file("broken.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runBinary("gestured", ["check-config", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(path + ":"), "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test func keysStepsAndCooldownAreAcceptedAndAMisspelledKeyIsPlaced() throws {
        let dir = TempDir()
        let good = dir.file("actions.yaml")
        try """
            gestures:
              - { id: swipe-3, kind: swipe, fingers: 3, directions: horizontal }
              - { id: scroll, kind: pan, min-fingers: 2, max-fingers: 2 }
              - { id: zoom, kind: pinch }
            bindings:
              - gesture: swipe-3
                keys: [[leftctrl, leftalt, right], [enter]]
                cooldown: 300ms
              - gesture: scroll
                every: 8mm
                command: 'echo "$GESTURE_STEP" >> /tmp/steps'
              - gesture: zoom
                every: 10%
                keys-increase: [leftctrl, kpplus]
                keys-decrease: [leftctrl, kpminus]

            """.write(toFile: good, atomically: true, encoding: .utf8)
        let accepted = try runBinary("gestured", ["check-config", good])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("3 bindings"))

        let bad = dir.file("typo.yaml")
        try """
            gestures:
              - { id: swipe-3, kind: swipe, fingers: 3 }
            bindings:
              - gesture: swipe-3
                keys: [leftctrl, leftlat, right]

            """.write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try runBinary("gestured", ["check-config", bad])
        #expect(refused.status == 1)
        #expect(refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            == "\(bad):5:22: unknown key 'leftlat' in 'keys' of binding 1 (did you mean 'leftalt'?)")
    }
}
