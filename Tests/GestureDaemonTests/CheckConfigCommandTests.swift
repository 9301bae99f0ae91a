import Foundation
import Testing
import GestureDaemon

/// `gestured check-config` through the real binary: exit status and file:line:column on stderr.
@Suite struct CheckConfigCommandTests {
    @Test func defaultConfigIsValid() throws {
        let dir = TempDir()
        let socket = ["--socket", dir.file("gestured.sock")]
        let embedded = try runBinary("gestured", ["check-config", "--embedded-default"] + socket)
        #expect(embedded.status == 0, "\(embedded.stderr)")
        #expect(embedded.stdout.contains("ok (1 region, 15 gestures, 0 bindings)"))
        let file = try runBinary("gestured", ["check-config", Paths.packageRoot + "/config/default.yaml"] + socket)
        #expect(file.status == 0, "\(file.stderr)")
    }

    /// With no file, check-config checks the file `run` would load, and says which.
    @Test func withNoFileItChecksWhatRunWouldLoadAndSaysWhich() throws {
        let dir = TempDir()
        let broken = dir.file("broken.yaml")
        try "gestures:\n  - { id: t, kind: tap, tapz: 2 }\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try runBinary("gestured", ["check-config", "--socket", dir.file("g.sock")],
                                    environment: ["GESTURED_CONFIG": broken])
        #expect(refused.status == 1)
        #expect(refused.stdout == "checking \(broken) (from $GESTURED_CONFIG)\n")
        #expect(refused.stderr.hasPrefix("\(broken):2:25: unknown key 'tapz'"), "\(refused.stderr)")

        let good = dir.file("good.yaml")
        try "gestures:\n  - { id: t, kind: tap }\n".write(toFile: good, atomically: true, encoding: .utf8)
        let accepted = try runBinary("gestured", ["check-config", "--socket", dir.file("g.sock")],
                                     environment: ["GESTURED_CONFIG": good])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout == "checking \(good) (from $GESTURED_CONFIG)\n\(good): ok (1 region, 1 gesture, 0 bindings)\n")
    }

    /// What would stop `run` starting stops check-config, with the same words: one decision for both.
    @Test(arguments: [
        ("socket: { group: gestured-no-such-group }\n", [] as [String],
         ":1:18: socket group 'gestured-no-such-group' does not exist on this machine: create it with "
         + "`sudo groupadd --system gestured-no-such-group`"),
        ("socket: { owner: gestured-no-such-user }\n", [],
         ":1:18: socket owner 'gestured-no-such-user': no such user on this machine"),
        ("version: 1\n", ["--socket", "/nonexistent-gestured/a/g.sock"],
         "--socket: socket directory '/nonexistent-gestured/a' does not exist, nor does '/nonexistent-gestured'"),
    ])
    func checkConfigAndRunAgree(yaml: String, options: [String], expected: String) throws {
        let dir = TempDir()
        let path = dir.file("config.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let socket = options.isEmpty ? ["--socket", dir.file("g.sock")] : options
        let checked = try runBinary("gestured", ["check-config", path] + socket)
        #expect(checked.status == 1)
        #expect(checked.stderr.contains(expected), "\(checked.stderr)")
        let run = try runBinary("gestured", ["run", "--config", path, "--no-devices"] + socket,
                                environment: ["LISTEN_PID": nil, "LISTEN_FDS": nil, "NOTIFY_SOCKET": nil])
        #expect(run.status == 2)
        #expect(run.stderr.contains("configuration refused"), "\(run.stderr)")
        let checkedLine = checked.stderr.split(separator: "\n").first.map(String.init) ?? "?"
        #expect(run.stderr.contains(checkedLine), "check-config said:\n\(checked.stderr)\nrun said:\n\(run.stderr)")
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
        let result = try runBinary("gestured", ["check-config", path, "--socket", dir.file("g.sock")])
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
        let accepted = try runBinary("gestured", ["check-config", good, "--socket", dir.file("g.sock")])
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
        let refused = try runBinary("gestured", ["check-config", bad, "--socket", dir.file("g.sock")])
        #expect(refused.status == 1)
        #expect(refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            == "\(bad):5:22: unknown key 'leftlat' in 'keys' of binding 1 (did you mean 'leftalt'?)")
    }
}

/// Which file `gestured run` (and `check-config` with no file) loads, and what it says about it.
@Suite struct ConfigurationChoiceTests {
    static func choice(_ environment: [String: String], uid: UInt32, files: Set<String>) -> ConfigurationChoice {
        defaultConfigurationChoice(environment: { environment[$0] }, uid: uid, isReadable: { files.contains($0) })
    }

    @Test func theLookupOrderAndItsReasons() {
        let user = "/home/u/.config/gestured/gestured.yaml"
        let system = "/etc/gestured/gestured.yaml"
        #expect(Self.choice(["GESTURED_CONFIG": "/x.yaml"], uid: 1000, files: [user, system]).description
            == "/x.yaml (from $GESTURED_CONFIG)")
        #expect(Self.choice(["HOME": "/home/u"], uid: 1000, files: [user, system]).description == "\(user) (the user's config)")
        #expect(Self.choice(["HOME": "/home/u", "XDG_CONFIG_HOME": "/x"], uid: 1000, files: [user, system]).description
            == "\(system) (the system config)")
        #expect(Self.choice(["HOME": "/home/u", "GESTURED_CONFIG": ""], uid: 0, files: [user, system]).description
            == "\(system) (the system config)")
        #expect(Self.choice(["HOME": "/home/u"], uid: 1000, files: []).description
            == "the embedded default config ($GESTURED_CONFIG is not set and there is no \(user) nor \(system))")
        #expect(Self.choice(["HOME": "/home/u"], uid: 1000, files: []).path == nil)
    }
}
