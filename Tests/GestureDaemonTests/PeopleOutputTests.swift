import Foundation
import Testing
import GestureCore
import GestureReport

/// What people read from the real binaries: explain lines without routine unless asked, a
/// rotation's failure quoting the pinch's scale, and gesturectl's one-shot replies and filters.
@Suite(.serialized) struct PeopleOutputTests {
    static func lines(_ stdout: String) -> [[String: Any]] { stdout.split(separator: "\n").map { json(String($0)) } }

    @Test func routineExplainLinesOnlyWithVerbose() throws {
        let plain = try runBinary("gestured", ["replay", "--explain", "--format", "json", Paths.twoFingerScroll])
        let verbose = try runBinary("gestured", ["replay", "--explain", "-v", "--format", "json", Paths.twoFingerScroll])
        let reasons = Self.lines(plain.stdout).compactMap { $0["reason"] as? String }
        let all = Self.lines(verbose.stdout).compactMap { $0["reason"] as? String }
        #expect(!reasons.isEmpty && all.count > reasons.count)
        for routine in ["received touch", "gesture sequence ended", "moved", "lifted"] {
            #expect(!reasons.contains { $0 == routine || $0.hasPrefix("received touch") && routine == "received touch" }, "\(routine)")
            #expect(all.contains { $0 == routine || $0.hasPrefix(routine) }, "\(routine)")
        }
        // The decisions stay: the pan's threshold and what it excluded.
        #expect(reasons.contains { $0.hasPrefix("moved ") && $0.contains(">=") })
        #expect(reasons.contains { $0.hasPrefix("excluded by") })
    }

    @Test func aRotationFailureQuotesTheScaleThePinchReports() throws {
        let result = try runBinary("gestured", ["replay", "--explain", "--format", "json", Paths.pinch])
        let lines = Self.lines(result.stdout)
        let failure = try #require(lines.first { ($0["reason"] as? String)?.contains("does not dominate") == true })
        let end = try #require(lines.last { $0["type"] as? String == "gesture" && $0["kind"] as? String == "pinch"
                                            && $0["state"] as? String == "ended" })
        let scale = try #require(end["scale"] as? Double)
        let reason = failure["reason"] as? String ?? ""
        #expect(reason.contains("×" + ValueText.number(scale, decimals: 2) + " scale"), "\(reason) against \(scale)")
    }

    @Test func oneShotRepliesAreTextWhenAskedAndJSONWhenPiped() throws {
        let daemon = try DaemonProcess()
        let socket = ["--socket", daemon.socketPath]
        let piped = try runBinary("gesturectl", ["status"] + socket)
        #expect(piped.stdout.hasPrefix(#"{"type":"response","request":"status""#), "\(piped.stdout)")
        let text = try runBinary("gesturectl", ["status", "--format", "text"] + socket)
        #expect(text.stdout.contains("\nuptime ") && !text.stdout.contains("{"), "\(text.stdout)")
        // Uptime with its unit: `uptime  0.1 s`.
        #expect(text.stdout.contains(/\nuptime +[0-9.]+ s\n/), "\(text.stdout)")
        #expect(text.stdout.contains("gestures ") && text.stdout.contains("two-finger-pan"))
        let devices = try runBinary("gesturectl", ["devices", "--format", "text"] + socket)
        #expect(devices.stdout == "no device open\n", "\(devices.stdout)")
        let hit = try runBinary("gesturectl", ["hit-test", "-5", "-3.5", "--format", "text"] + socket)
        #expect(hit.status == 0, "\(hit.stderr)")
        #expect(hit.stdout.hasPrefix("chain    no region"), "\(hit.stdout)")
        let inside = try runBinary("gesturectl", ["hit-test", "10", "20", "--format", "json"] + socket)
        #expect(inside.stdout.contains(#""chain":["screen"]"#), "\(inside.stdout)")
        // With no touchscreen open the rotation still applies: to those plugged in later.
        let rotate = try runBinary("gesturectl", ["rotate", "90", "--format", "text"] + socket)
        #expect(rotate.stdout == "rotation 90 set for every touchscreen, also those plugged in later (none is open now), "
                + "from its next touch\n", "\(rotate.stdout)")
        let rotateJSON = try runBinary("gesturectl", ["rotate", "270", "--size", "1080x1920"] + socket)
        #expect(rotateJSON.stdout == #"{"type":"response","request":"set-surface","ok":true,"rotation":270,"size":[1080,1920],"devices":[],"every":true}"# + "\n")
    }

    @Test func aFilterNamingNothingConfiguredSaysSoInsteadOfWaiting() throws {
        let daemon = try DaemonProcess()
        let socket = ["--socket", daemon.socketPath]
        let gesture = try runBinary("gesturectl", ["listen", "--gesture", "nosuch"] + socket, timeout: 20)
        #expect(gesture.status == 1)
        #expect(gesture.stderr.contains("no gesture 'nosuch' is configured"), "\(gesture.stderr)")
        let region = try runBinary("gesturectl", ["explain", "--region", "nowhere"] + socket, timeout: 20)
        #expect(region.status == 1)
        #expect(region.stderr.contains("no region 'nowhere' is configured"), "\(region.stderr)")
    }

    @Test func explainTakesKind() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.drag, "--inject-when-subscribed"])
        let dir = TempDir()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary("gesturectl"))
        process.arguments = ["explain", "--kind", "pan", "--format", "json", "--socket", daemon.socketPath]
        _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: dir.file("out"))
        process.standardError = FileHandle(forWritingAtPath: dir.file("out"))
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        func output() -> String { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 15) { output().contains(#""state":"ended""#) }, "\(output())")
        let explained = Self.lines(output()).filter { $0["type"] as? String == "explain" }
        #expect(!explained.isEmpty, "\(output())")
        #expect(Set(explained.compactMap { $0["gesture"] as? String }).isSubset(of: ["pan", "two-finger-pan"]), "\(output())")
    }
}
