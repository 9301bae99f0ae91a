import Foundation
import Testing

/// `gesturectl setup` (docs/setup.md): for every desktop, the config it writes passes
/// `gestured check-config`, and each of its bindings fires on a bundled recording of its gesture
/// (`gestured replay --bindings`) and no other binding does; the docs show what it writes; writing
/// keeps the file that was there.
@Suite struct SetupCommandTests {
    static let desktops = ["sway", "i3", "hyprland", "niri", "gnome", "kde", "x11"]
    static let fixtures = Paths.packageRoot + "/Tests/Fixtures/"

    /// The recording that makes each gesture of the setup config, with the step the pinch's
    /// binding takes on it (0: not stepped).
    static let recordings: [String: (file: String, step: Int)] = [
        "next-workspace": ("chromiumos-autotest/cros-cyan.3fg-swipe-left.evemu", 0),
        "previous-workspace": ("chromiumos-autotest/cros-cyan.3fg-swipe-right.evemu", 0),
        // litest's N and S are its test's names: its N moves the fingers down the pad (y grows).
        "overview": ("litest-port/rmi4.gestures_swipe_4fg-S.evemu", 0),
        "overview-close": ("litest-port/rmi4.gestures_swipe_4fg-N.evemu", 0),
        "zoom": ("chromiumos-touchmtb/tmtb-link-pinch-zoom_in.evemu", +1),
        "zoom-out": ("chromiumos-touchmtb/tmtb-lumpy-pinch-zoom_out-fw_11.27-20130726_022452.evemu", -1),
        "panel": ("derived/EP0430M09.1-finger-drag-from-top-edge.evemu", 0),
        "keyboard": ("derived/EP0430M09.1-finger-drag-from-bottom-edge.evemu", 0),
    ]

    static func setup(_ arguments: [String], environment: [String: String?] = [:]) throws -> RunResult {
        try runBinary("gesturectl", ["setup"] + arguments, environment: environment)
    }

    static func printed(_ desktop: String, devices: String = "touchpad,touchscreen") throws -> String {
        let result = try setup(["--desktop", desktop, "--devices", devices, "--print"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The gesture ids the config's bindings name, in order.
    static func boundGestures(_ config: String) -> [String] {
        guard let start = config.range(of: "\nbindings:\n") else { return [] }
        return config[start.upperBound...].split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "gesture: ") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "," && $0 != " " && $0 != "}" })
        }
    }

    @Test(arguments: desktops) func theConfigPassesCheckConfig(_ desktop: String) throws {
        for devices in ["touchpad,touchscreen", "touchpad"] {
            let dir = TempDir()
            let file = dir.file("gestured.yaml")
            try Self.printed(desktop, devices: devices).write(toFile: file, atomically: true, encoding: .utf8)
            let check = try runBinary("gestured", ["check-config", file])
            #expect(check.status == 0, "\(desktop), \(devices): \(check.stdout)\(check.stderr)")
        }
    }

    @Test(arguments: desktops) func everyBindingFiresOnARealRecordingAndNoOther(_ desktop: String) throws {
        let config = try Self.printed(desktop)
        let dir = TempDir()
        let file = dir.file("gestured.yaml")
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        let bound = Self.boundGestures(config)
        #expect(bound.contains("next-workspace") && bound.contains("previous-workspace") && bound.contains("zoom"), "\(bound)")
        for gesture in bound + (bound.contains("zoom") ? ["zoom-out"] : []) {
            let recording = try #require(Self.recordings[gesture], "no recording for \(gesture)")
            let replay = try runBinary("gestured", ["replay", "--config", file, "--bindings", "--format", "json",
                                                    Self.fixtures + recording.file])
            #expect(replay.status == 0, "\(replay.stderr)")
            let firings = replay.stdout.split(separator: "\n").map { json(String($0)) }
                .filter { $0["type"] as? String == "binding" }
            let expected = gesture == "zoom-out" ? "zoom" : gesture
            #expect(!firings.isEmpty, "\(desktop): \(recording.file) fires no binding of \(expected):\n\(replay.stdout)")
            for firing in firings {
                #expect(firing["gesture"] as? String == expected, "\(desktop): \(recording.file) fires \(firing)")
                if let command = firing["command"] as? String {
                    #expect(config.contains(command), "\(desktop): \(command) is not the config's")
                }
                if let keys = firing["keys"] as? [[String]] {
                    #expect(config.contains("[" + keys[0].joined(separator: ", ") + "]"), "\(desktop): keys \(keys)")
                }
                #expect(firing["command"] != nil || firing["keys"] != nil, "\(firing)")
            }
            if recording.step != 0 {
                let increase = recording.step > 0
                #expect(firings.allSatisfy { ($0["step"] as? Int) == recording.step }, "\(firings)")
                #expect(firings.allSatisfy { ($0["keys"] as? [[String]]) == [["leftctrl", increase ? "kpplus" : "kpminus"]] })
            } else {
                #expect(firings.count == 1, "\(desktop): \(expected) fired \(firings.count) times")
            }
        }
    }

    @Test func withoutATouchscreenNoEdgeSwipesAreWritten() throws {
        let touchpad = try Self.printed("sway", devices: "touchpad")
        #expect(!touchpad.contains("edge-pan") && !touchpad.contains("regions:"), "\(touchpad)")
        let both = try Self.printed("sway")
        #expect(both.contains("{ id: panel, kind: edge-pan, edges: top, region: top-edge }"), "\(both)")
    }

    @Test func theDesktopIsFoundAsTheBridgeFindsIt() throws {
        let cases: [([String: String?], String)] = [
            (["SWAYSOCK": "/run/user/1000/sway-ipc.1000.5.sock", "XDG_CURRENT_DESKTOP": "sway"], "config for sway"),
            (["HYPRLAND_INSTANCE_SIGNATURE": "abc", "SWAYSOCK": nil, "XDG_CURRENT_DESKTOP": "Hyprland"], "config for Hyprland"),
            // GNOME on X11: GNOME's shortcuts, not plain EWMH.
            (["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "DISPLAY": ":0", "SWAYSOCK": nil], "config for GNOME"),
            (["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0", "SWAYSOCK": nil], "config for KDE Plasma"),
        ]
        for (environment, expected) in cases {
            var clean: [String: String?] = ["SWAYSOCK": nil, "I3SOCK": nil, "HYPRLAND_INSTANCE_SIGNATURE": nil, "NIRI_SOCKET": nil,
                                            "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "XDG_CURRENT_DESKTOP": nil, "DESKTOP_SESSION": nil]
            for (k, v) in environment { clean[k] = v }
            let result = try Self.setup(["--print", "--devices", "touchpad"], environment: clean)
            #expect(result.status == 0 && result.stdout.hasPrefix("# gestured \(expected) "), "\(environment): \(result.stdout)\(result.stderr)")
        }
        let none = try Self.setup(["--print"], environment: [
            "SWAYSOCK": nil, "I3SOCK": nil, "HYPRLAND_INSTANCE_SIGNATURE": nil, "NIRI_SOCKET": nil, "DISPLAY": nil,
            "WAYLAND_DISPLAY": nil, "XDG_CURRENT_DESKTOP": nil, "DESKTOP_SESSION": nil])
        #expect(none.status != 0 && none.stderr.contains("--desktop (sway, i3, hyprland, niri, x11, gnome, kde)"), "\(none.stderr)")
    }

    @Test func writingKeepsTheFileThatWasThere() throws {
        let dir = TempDir()
        let file = dir.path + "/config/gestured/gestured.yaml"
        // $GESTURED_CONFIG, the first place `gestured run` looks (the tests run as root, whose
        // default would be /etc/gestured/gestured.yaml; DesktopSetupPathTests checks the lookup).
        let environment: [String: String?] = ["GESTURED_CONFIG": file]
        let first = try Self.setup(["--desktop", "sway", "--devices", "touchpad"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("wrote \(file)\n"), "\(first.stdout)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.printed("sway", devices: "touchpad"))
        let again = try Self.setup(["--desktop", "sway", "--devices", "touchpad"], environment: environment)
        #expect(again.stdout.contains("already holds this config: nothing written"), "\(again.stdout)")
        #expect(!FileManager.default.fileExists(atPath: file + ".bak"))

        try "# mine\nversion: 1\n".write(toFile: file, atomically: true, encoding: .utf8)
        let replaced = try Self.setup(["--desktop", "gnome", "--devices", "touchpad"], environment: environment)
        #expect(replaced.stdout.contains("the file that was there is now \(file).bak"), "\(replaced.stdout)")
        #expect(try String(contentsOfFile: file + ".bak", encoding: .utf8) == "# mine\nversion: 1\n")
        try "# mine, again\nversion: 1\n".write(toFile: file, atomically: true, encoding: .utf8)
        let second = try Self.setup(["--desktop", "kde", "--devices", "touchpad"], environment: environment)
        #expect(second.stdout.contains("is now \(file).bak.1"), "\(second.stdout)")
        #expect(try String(contentsOfFile: file + ".bak", encoding: .utf8) == "# mine\nversion: 1\n")
        #expect(try String(contentsOfFile: file + ".bak.1", encoding: .utf8) == "# mine, again\nversion: 1\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.printed("kde", devices: "touchpad"))
    }

    /// docs/setup.md shows, after each `<!-- written by: COMMAND -->`, the ```yaml block COMMAND prints.
    @Test func theDocsShowWhatSetupWritesForEveryDesktop() throws {
        let lines = try String(contentsOfFile: Paths.packageRoot + "/docs/setup.md", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var shown: [String] = []
        for (i, line) in lines.enumerated() where line.hasPrefix("<!-- written by: gesturectl setup ") {
            let command = String(line.dropFirst("<!-- written by: ".count).dropLast(" -->".count))
            let end = try #require(lines[(i + 2)...].firstIndex(of: "```"))
            #expect(lines[i + 1] == "```yaml")
            let text = lines[(i + 2)..<end].joined(separator: "\n") + "\n"
            let words = command.split(separator: " ").map(String.init)
            let result = try runBinary("gesturectl", Array(words.dropFirst()))
            #expect(result.stdout == text, "docs/setup.md:\(i + 1): \(command) prints (scripts/generate-setup-docs writes it):\n\(result.stdout)")
            if let at = words.firstIndex(of: "--desktop") { shown.append(words[at + 1]) }
        }
        #expect(Set(shown) == Set(Self.desktops), "docs/setup.md shows \(shown)")
    }
}
