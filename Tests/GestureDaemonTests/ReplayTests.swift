import Foundation
import Testing
import GestureCore
import GestureConfig
import GestureRecording
@testable import GestureDaemon
import GesturePosix
import GestureProtocol

@Suite struct ReplayTests {
    static let drag = Paths.fixture("EP0430M09.1-finger-drag-up-down.events")

    @Test func aMissingFileIsAClearErrorAndANonZeroExit() throws {
        let result = try runBinary("gestured", ["replay", "/nonexistent/dir/none.events"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/dir/none.events"))
        #expect(result.stdout.isEmpty)
    }

    @Test func replayNeedsAFile() throws {
        let result = try runBinary("gestured", ["replay"])
        #expect(result.status != 0)
        #expect(result.stderr.lowercased().contains("file"))
    }

    @Test func helpListsTheSubcommands() throws {
        let result = try runBinary("gestured", ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("run"))
        #expect(result.stdout.contains("replay"))
    }

    @Test func mergesDevicesByTimeWithFileOrderBreakingTies() {
        // Two devices, events interleaved; the pipeline gets them in time order. Observed through
        // `--touches`-style output once the assembler exists; here through the merge order itself.
        let a = Recording(description: DeviceDescription(name: "a"), events: [
            RawEvent(time: Timestamp(microseconds: 10), type: .syn, code: .synReport, value: 0),
            RawEvent(time: Timestamp(microseconds: 30), type: .syn, code: .synReport, value: 0),
        ], source: "a.events")
        let b = Recording(description: DeviceDescription(name: "b"), events: [
            RawEvent(time: Timestamp(microseconds: 10), type: .syn, code: .synReport, value: 0),
            RawEvent(time: Timestamp(microseconds: 20), type: .syn, code: .synReport, value: 0),
        ], source: "b.events")
        var paced: [Int64] = []
        // Neither is a touch device: a rule that names them lets replay read them (as the daemon would).
        var configuration = ConfigurationLoader.loadDefault()
        configuration.devices.include = [DeviceMatch(nameGlob: "*")]
        Replay.run([a, b], options: ReplayOptions(configuration: configuration),
                   pace: { paced.append($0.microseconds) }) { _ in }
        #expect(paced == [10, 10, 20, 30])
        #expect(Replay.deviceRef(b, index: 1).id == 1)
    }

    @Test func warningsNameTheirFile() {
        let r = Recording(description: DeviceDescription(name: "x"), events: [], warnings: ["no description; ranges inferred"],
                          source: "x.events")
        #expect(Replay.warningLines([r]) == ["x.events: warning: no description; ranges inferred"])
    }

    /// After the merge: a one-finger drag up and down on a touchscreen is a pan with the default config,
    /// and the same file gives byte-identical output every run.
    @Test
    func aRecordedDragIsAPanAndReplayIsDeterministic() throws {
        let first = try runBinary("gestured", ["replay", Self.drag])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map { json(String($0)) }
        #expect(lines.contains { $0["kind"] as? String == "pan" && $0["state"] as? String == "began" })
        #expect(lines.contains { $0["kind"] as? String == "pan" && $0["state"] as? String == "ended" })
        #expect(lines.allSatisfy { $0["device"] as? String == "EP0430M09" || $0["type"] as? String != "gesture" })
        let second = try runBinary("gestured", ["replay", Self.drag])
        #expect(second.stdout == first.stdout)
        let touches = try runBinary("gestured", ["replay", "--touches", Self.drag])
        #expect(touches.stdout.contains("\"type\":\"touch\""))
        #expect(touches.stdout.contains("\"phase\":\"began\""))
    }

    /// After the merge: replay served on a socket reaches a subscribed client.
    @Test
    func replayOnASocketReachesASubscriber() throws {
        let dir = TempDir()
        let socket = dir.file("replay.sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary("gestured"))
        process.arguments = ["replay", Self.drag, "--socket", socket, "--wait-for-client"]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var client: ControlClient?
        #expect(waitUntil(timeout: 20) {
            client = try? ControlClient(path: socket)
            return client != nil
        })
        guard let client else { return }
        #expect(try client.readLine(timeout: 5000) == DaemonVersion.helloLine)
        try client.send(#"{"request":"subscribe","kinds":["pan"]}"#)
        var lines: [[String: Any]] = []
        while let line = try client.readLine(timeout: 20_000) { lines.append(json(line)) }
        #expect(lines.first?["request"] as? String == "subscribe")
        #expect(lines.contains { $0["kind"] as? String == "pan" && $0["state"] as? String == "ended" })
        #expect(lines.dropFirst().allSatisfy { $0["kind"] as? String == "pan" })
        #expect(waitUntil(timeout: 10) { !process.isRunning })
    }
}
