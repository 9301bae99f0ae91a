import Foundation
import Testing
import GestureDaemon

/// Live rotation, per-client caps, and the README's Python client, against the real binaries.
@Suite(.serialized) struct AppSurfaceAndLimitTests {
    static let swipe = #"[{"id":"fling","kind":"swipe","directions":"all","max-duration":"2s"}]"#

    /// The direction of the swipe the attached region reports for the rightward stroke.
    /// (With no gestures of the config's: its pan would begin first and win, as in UIKit.)
    func swipeDirection(rotating degrees: Int?) throws -> String? {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try AppFixtures.noGestures(in: dir),
                                                        "--inject", AppFixtures.rightwardStroke, "--inject-when-subscribed"])
        if let degrees {
            let result = try runBinary("gesturectl", ["rotate", String(degrees), "--socket", daemon.socketPath])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"request\":\"set-surface\""))
        }
        let app = try daemon.connect()
        #expect(isOK(try app.request(attachLine(region: "area", frame: #"[0, 0, "100%", "100%"]"#, gestures: Self.swipe))))
        _ = try AppRegionTests.trigger(daemon)
        return gestureLines(try app.lines(until: { $0["type"] as? String == "gesture" })).first?["direction"] as? String
    }

    @Test func rotatingTheSurfaceTurnsARecordedRightwardSwipe() throws {
        #expect(try swipeDirection(rotating: nil) == "right")
        // Clockwise 90°: the device's +x runs along the surface's +y.
        #expect(try swipeDirection(rotating: 90) == "down")
        #expect(try swipeDirection(rotating: 270) == "up")
    }

    /// The rightward stroke twice, 3 s apart, as one device (the `.desc` beside it names the device).
    static func twoStrokes(in dir: TempDir) throws -> String {
        let stroke = try String(contentsOfFile: AppFixtures.rightwardStroke, encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("E:") }
        var text = ""
        for shift in [0.0, 3.0] {
            for line in stroke {
                let fields = line.split(separator: " ", maxSplits: 2)
                text += "E: " + String(format: "%.6f", Double(fields[1])! + shift) + " " + fields[2] + "\n"
            }
        }
        let events = dir.file("Wacom ISDv4 E6 Finger.two-strokes.events")
        try text.write(toFile: events, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Paths.fixture("Wacom ISDv4 E6 Finger.desc"),
                                         toPath: dir.file("Wacom ISDv4 E6 Finger.desc"))
        return events
    }

    @Test func aRotationDuringAStrokeAppliesFromTheNextOne() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try AppFixtures.noGestures(in: dir),
                                                        "--inject", try Self.twoStrokes(in: dir), "--inject-when-subscribed"])
        let app = try daemon.connect()
        let gestures = #"[{"id":"fling","kind":"swipe","directions":"all","max-duration":"2s","simultaneous-with":["follow"]},"#
            + #"{"id":"follow","kind":"pan"}]"#
        #expect(isOK(try app.request(attachLine(region: "area", frame: #"[0, 0, "100%", "100%"]"#, gestures: gestures))))
        _ = try AppRegionTests.trigger(daemon)
        let first = try app.lines(until: { $0["gesture"] as? String == "fling" })
        #expect(first.last?["direction"] as? String == "right")
        // The finger is still down: the rotation waits for it to lift.
        var during: [[String: Any]] = []
        let reply = try app.request(#"{"request":"set-surface","rotation":90,"device":"Wacom ISDv4 E6 Finger"}"#,
                                    skipped: &during)
        #expect(reply["devices"] as? [String] == ["Wacom ISDv4 E6 Finger"])
        let rest = during + (try app.lines(until: { $0["gesture"] as? String == "fling" }))
        let ended = try #require(rest.first { $0["gesture"] as? String == "follow" && $0["state"] as? String == "ended" })
        let translation = ended["translation"] as? [String: Double] ?? [:]
        #expect((translation["x"] ?? 0) > 200 && abs(translation["y"] ?? 99) < 20, "\(translation)")
        #expect(rest.last?["direction"] as? String == "down")
    }

    @Test func setSurfaceRefusesWhatItCannotApply() throws {
        let daemon = try DaemonProcess()
        let app = try daemon.connect()
        let bad = try app.request(#"{"request":"set-surface","rotation":45}"#)
        #expect(bad["message"] as? String == "rotation: expected 0, 90, 180 or 270, got 45")
        let missing = try app.request(#"{"request":"set-surface","rotation":90,"device":"nothing"}"#)
        #expect((missing["message"] as? String ?? "").hasPrefix("device: no device 'nothing'"))
        let size = try app.request(#"{"request":"set-surface","size":[10]}"#)
        #expect((size["message"] as? String ?? "").hasPrefix("size: expected 2 numbers"))
        let result = try runBinary("gesturectl", ["rotate", "45", "--socket", daemon.socketPath])
        #expect(result.status != 0)
        #expect(result.stderr.contains("0, 90, 180 or 270"))
    }

    @Test func aClientAtItsCapIsRefusedWhileAnotherKeepsGettingItsGestures() throws {
        let dir = TempDir()
        let config = dir.file("gestured.yaml")
        try """
            version: 1
            gestures: []
            socket: { max-regions-per-client: 3, max-gestures-per-client: 2 }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", config, "--inject", AppFixtures.tap,
                                                        "--inject-when-subscribed"])
        let greedy = try daemon.connect()
        let polite = try daemon.connect()
        #expect(isOK(try polite.request(attachLine(region: "button", frame: AppFixtures.aroundTap,
                                                   gestures: #"[{"id":"press","kind":"tap"}]"#))))
        for i in 0..<3 {
            #expect(isOK(try greedy.request(attachLine(region: "r\(i)", frame: AppFixtures.awayFromTap, gestures: "[]"))))
        }
        let refused = try greedy.request(attachLine(region: "r3", frame: AppFixtures.awayFromTap, gestures: "[]"))
        #expect(refused["type"] as? String == "error")
        #expect(refused["message"] as? String
                == "limit: this would give you 4 regions, over your cap of 3 (socket.max-regions-per-client); nothing was attached")
        #expect(isOK(try greedy.request(#"{"request":"detach","region":"r2"}"#)))
        let gestures = #"[{"id":"a","kind":"tap"},{"id":"b","kind":"tap"},{"id":"c","kind":"tap"}]"#
        let tooMany = try greedy.request(attachLine(region: "r3", frame: AppFixtures.awayFromTap, gestures: gestures))
        #expect((tooMany["message"] as? String ?? "").contains("over your cap of 2 (socket.max-gestures-per-client)"))
        // A flood of refused attaches (without reading the replies) while the other client's tap comes.
        let flood = (0..<300).map { attachLine(region: "f\($0)", frame: AppFixtures.awayFromTap, gestures: gestures) }
        try greedy.send(flood.joined(separator: "\n"))
        _ = try AppRegionTests.trigger(daemon)
        let got = gestureLines(try polite.lines(until: { $0["type"] as? String == "gesture" }))
        #expect(got.first?["gesture"] as? String == "press")
        var errors = 0
        let replies = try greedy.lines(until: { line in
            if line["type"] as? String == "error" { errors += 1 }
            return errors == 300
        }).filter { $0["type"] as? String == "error" }
        #expect(replies.count == 300)
        #expect(replies.allSatisfy { ($0["message"] as? String ?? "").hasPrefix("limit: ") })
    }

    /// The README's Python client, extracted verbatim, run against the daemon.
    static func readmeClient() throws -> String {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        let marker = "<!-- tested: Tests/GestureDaemonTests/AppSurfaceAndLimitTests.swift -->\n```python\n"
        let start = try #require(readme.range(of: marker), "README lost its tested Python client")
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound]) + "\n"
    }

    @Test func theReadmePythonClientAttachesARegionAndPrintsItsGestures() throws {
        let code = try Self.readmeClient()
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 25, "the README client should stay short: \(lines) lines")
        #expect(!code.contains("import gestured"), "standard library only")
        let dir = TempDir()
        try code.write(toFile: dir.file("client.py"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.tap, "--inject-when-subscribed"])
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", dir.file("client.py")]
        python.environment = ProcessInfo.processInfo.environment.merging(["GESTURED_SOCKET": daemon.socketPath]) { $1 }
        _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
        python.standardOutput = FileHandle(forWritingAtPath: dir.file("out"))
        python.standardError = FileHandle(forWritingAtPath: dir.file("out"))
        try python.run()
        defer {
            // SIGKILL: a child of the test process may inherit a blocked SIGTERM.
            if python.isRunning { kill(python.processIdentifier, SIGKILL) }
            python.waitUntilExit()
        }
        #expect(waitUntil(timeout: 20) { daemon.log.contains("region attached") }, "\(daemon.log)")
        _ = try AppRegionTests.trigger(daemon)
        let output = { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 15) { output().contains("press recognized") }, "python printed:\n\(output())")
    }

    /// docs/protocol.md, "Testing an app against a recording": the recording it names, injected as
    /// it says, reaches the README's client (its attach starts the recording).
    @Test func theReadmeClientGetsTheSampleRecordingsTaps() throws {
        let doc = try String(contentsOfFile: Paths.packageRoot + "/docs/protocol.md", encoding: .utf8)
        let named = try #require(doc.firstMatch(of: /`(Tests\/Fixtures\/[^`]+\.events)` is a/)?.output.1,
                                 "docs/protocol.md no longer names its sample recording")
        let dir = TempDir()
        try Self.readmeClient().write(toFile: dir.file("client.py"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.packageRoot + "/" + named, "--inject-when-subscribed"])
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", dir.file("client.py")]
        python.environment = ProcessInfo.processInfo.environment.merging(["GESTURED_SOCKET": daemon.socketPath]) { $1 }
        _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
        python.standardOutput = FileHandle(forWritingAtPath: dir.file("out"))
        python.standardError = FileHandle(forWritingAtPath: dir.file("out"))
        try python.run()
        defer {
            if python.isRunning { kill(python.processIdentifier, SIGKILL) }
            python.waitUntilExit()
        }
        let output = { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 20) { output().contains("press recognized") }, "python printed:\n\(output())\n\(daemon.log)")
    }
}
