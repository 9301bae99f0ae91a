import Foundation
import Testing

/// docs/rotation.md's table and script, against the program: for each `monitor-sensor` orientation
/// the table maps to a rotation, `gestured replay` with that rotation turns a drag towards the
/// panel's edge the orientation names as up into a drag up on the screen (and the other edges
/// into right, down and left, clockwise), and the script sends the table's rotations.
@Suite struct RotationDocumentationTests {
    struct Row: CustomStringConvertible {
        var orientation: String
        var rotation: Int
        var description: String { "\(orientation) → rotate \(rotation)" }
    }

    static let document = Paths.packageRoot + "/docs/rotation.md"

    /// `| \`left-up\` | ... | \`90\` |` rows of the table.
    static func tableRows() throws -> [Row] {
        let text = try String(contentsOfFile: document, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("| `"), cells.count == 3, let rotation = Int(cells[2].trimmingCharacters(in: ["`"]))
            else { return nil }
            return Row(orientation: cells[0].trimmingCharacters(in: ["`"]), rotation: rotation)
        }
    }

    /// The script's `*"orientation changed: left-up"*) gesturectl rotate 90 ;;` lines.
    static func scriptRows() throws -> [Row] {
        let text = try String(contentsOfFile: document, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Row? in
            guard let match = line.firstMatch(of: /orientation changed: ([a-z-]+)"\*\)\s+rotate (\d+)/),
                  let rotation = Int(match.output.2) else { return nil }
            return Row(orientation: String(match.output.1), rotation: rotation)
        }
    }

    /// The panel's edges in clockwise order, and the one each orientation puts at the top.
    static let edgesClockwise = ["top", "right", "bottom", "left"]
    static let upEdge = ["normal": "top", "right-up": "right", "bottom-up": "bottom", "left-up": "left"]
    static let screenDirectionsClockwise = ["up", "right", "down", "left"]

    /// A recording of the Atmel panel (0…799 × 0…479) with four one-finger drags of 200 units from
    /// its centre, towards its top, right, bottom and left edges, in that order.
    static func fourDrags(in dir: TempDir) throws -> String {
        let source = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events"
        let header = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
        var lines: [String] = []
        var time = 0.0
        func event(_ type: Int, _ code: Int, _ value: Int) {
            lines.append(String(format: "E: %.6f %04x %04x %04d", time, type, code, value))
        }
        let steps: [(Int, Int)] = [(0, -1), (1, 0), (0, 1), (-1, 0)]
        for (n, (dx, dy)) in steps.enumerated() {
            for i in 0...20 {
                let x = 400 + dx * 10 * i, y = 240 + dy * 10 * i
                if i == 0 { event(3, 0x39, n + 1); event(1, 0x14a, 1) }
                event(3, 0x35, x); event(3, 0x36, y); event(3, 0, x); event(3, 1, y)
                event(0, 0, 0)
                time += 0.015
            }
            event(3, 0x39, -1); event(1, 0x14a, 0); event(0, 0, 0)
            time += 1.0
        }
        let path = dir.file("four-drags.events")
        try (header + "\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The screen direction of each drag's pan (its `ended` translation's dominant axis).
    static func directions(rotation: Int, recording: String, dir: TempDir) throws -> [String] {
        let config = dir.file("rotation-\(rotation).yaml")
        try """
            version: 1
            surfaces:
              - match: { kind: touchscreen }
                rotation: \(rotation)
            gestures:
              - { id: drag, kind: pan, fingers: 1 }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try runBinary("gestured", ["replay", recording, "--config", config, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map { json(String($0)) }
            .filter { $0["gesture"] as? String == "drag" && $0["state"] as? String == "ended" }
            .map { line in
                let t = line["translation"] as? [String: Any] ?? [:]
                let x = (t["x"] as? Double) ?? 0, y = (t["y"] as? Double) ?? 0
                return abs(x) > abs(y) ? (x > 0 ? "right" : "left") : (y > 0 ? "down" : "up")
            }
    }

    @Test func eachOrientationOfTheTableTurnsTheEdgeItNamesUp() throws {
        let rows = try Self.tableRows()
        #expect(Set(rows.map(\.orientation)) == Set(Self.upEdge.keys), "the table's rows: \(rows)")
        let dir = TempDir()
        let recording = try Self.fourDrags(in: dir)
        for row in rows {
            let up = try #require(Self.edgesClockwise.firstIndex(of: Self.upEdge[row.orientation] ?? ""))
            // Drags towards top, right, bottom, left of the panel: the up edge goes up, the next
            // edge clockwise goes right, and so on.
            let expected = (0..<4).map { edge in Self.screenDirectionsClockwise[(edge - up + 4) % 4] }
            let got = try Self.directions(rotation: row.rotation, recording: recording, dir: dir)
            #expect(got == expected, "docs/rotation.md: \(row): drags towards the panel's top, right, bottom, left")
        }
    }

    @Test func theScriptSendsTheTablesRotations() throws {
        let table = try Self.tableRows().map(\.description).sorted()
        let script = try Self.scriptRows().map(\.description).sorted()
        #expect(table.count == 4)
        #expect(script == table)
    }

    /// The script, run with a `monitor-sensor` that starts on its side and then turns upright:
    /// the starting orientation is applied, then the change; its unit restarts with the daemon.
    @Test func theScriptTurnsTheStartingOrientationAndRestartsWithTheDaemon() throws {
        let text = try String(contentsOfFile: Self.document, encoding: .utf8)
        let script = try #require(text.components(separatedBy: "```sh\n#!/bin/sh\n# gestured-rotate").dropFirst().first?
            .components(separatedBy: "\n```").first.map { "#!/bin/sh\n# gestured-rotate" + $0 + "\n" })
        let dir = TempDir()
        let files = [
            ("gestured-rotate", script),
            ("monitor-sensor", "#!/bin/sh\necho '    Waiting for iio-sensor-proxy to appear'\n"
                + "echo '=== Has accelerometer (orientation: left-up, tilt: vertical)'\n"
                + "echo '    Accelerometer orientation changed: normal'\n"),
            ("gesturectl", "#!/bin/sh\necho \"$*\" >> \"\(dir.file("calls"))\"\n"),
        ]
        for (name, body) in files {
            try body.write(toFile: dir.file(name), atomically: true, encoding: .utf8)
            chmod(dir.file(name), 0o755)
        }
        let run = try runTool("/bin/sh", [dir.file("gestured-rotate")], timeout: 20, environment: ["PATH": dir.path + ":/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
        let calls = (try? String(contentsOfFile: dir.file("calls"), encoding: .utf8)) ?? ""
        #expect(calls == "rotate 90\nrotate 0\n", "\(calls)")
        let unit = try #require(text.components(separatedBy: "```ini\n").dropFirst().first?.components(separatedBy: "\n```").first)
        #expect(unit.contains("PartOf=gestured.service") && unit.contains("WantedBy=gestured.service"), "\(unit)")
    }
}
