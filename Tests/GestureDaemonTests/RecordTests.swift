import Foundation
import Logging
import Testing
import GestureProtocol
import GesturePosix
import GestureCore
import GestureConfig
import GestureRecording
@testable import GestureDaemon

/// Recording through the daemon (`record` request, `gesturectl record`), with injected recordings
/// standing in for devices (the kernel path is in Tests/vm).
@Suite(.serialized) struct RecordTests {
    /// A line without its "time" (a recording played live is moved onto CLOCK_MONOTONIC).
    static func timeless(_ line: String) -> String {
        line.replacingOccurrences(of: #""time":[0-9.]+,"#, with: "", options: .regularExpression)
    }

    static func times(_ lines: [String]) -> [Double] { lines.compactMap { json($0)["time"] as? Double } }

    static func replayLines(_ file: String) throws -> [String] {
        let result = try runBinary("gestured", ["replay", "--format", "json", file])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func gesturectlRecordWritesAnEvemuFileThatReplaysToTheSameGestures() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.twoFingerScroll, "--inject-when-subscribed"])
        let out = daemon.dir.file("recorded.evemu")
        // The record request starts the injection (it counts as a subscriber), so nothing is missed.
        let result = try runBinary("gesturectl", ["record", "--socket", daemon.socketPath, "-o", out], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)\nlog:\n\(daemon.log)")
        #expect(result.stderr.contains("recording 'EP0430M09' (device 0"), "\(result.stderr)")
        #expect(result.stderr.contains("recorded 695 events of 'EP0430M09'"), "\(result.stderr)")
        #expect(result.stderr.contains("(injected recording finished)"))

        // The full description: name, ids, properties, every axis with its resolution, key bits.
        let recorded = try RecordingLoader.load(path: out)
        let original = try RecordingLoader.load(path: Paths.twoFingerScroll)
        #expect(recorded.count == 1 && recorded[0].warnings.isEmpty)
        var a = recorded[0].description, b = original[0].description
        a.path = nil
        b.path = nil
        a.codes[.syn] = nil
        b.codes[.syn] = nil
        #expect(a == b)
        #expect(recorded[0].events.count == original[0].events.count)

        // `gestured replay` of it: the same gestures, all moved by one constant offset in time.
        let replayed = try Self.replayLines(out)
        let reference = try Self.replayLines(Paths.twoFingerScroll)
        #expect(!reference.isEmpty)
        #expect(replayed.map(Self.timeless) == reference.map(Self.timeless))
        let offsets = zip(Self.times(replayed), Self.times(reference)).map { ($0 - $1) * 1000 }
        #expect(offsets.count == reference.count)
        #expect((offsets.max() ?? 0) - (offsets.min() ?? 0) < 0.01, "offsets vary: \(offsets.min() ?? 0)…\(offsets.max() ?? 0) ms")
    }

    /// One connection subscribes and records at once: what the daemon published live and what
    /// `gestured replay` makes of the recorded events are the same lines, byte for byte.
    @Test func theLiveGesturesAndTheReplayOfTheRecordingAreIdentical() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.pinch, "--inject-when-subscribed"])
        let client = try daemon.connect()
        try client.send("{\"request\":\"subscribe\"}\n{\"request\":\"record\"}")
        var live: [String] = []
        var body = ""
        var end: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, end.isEmpty, let line = try client.readLine(timeout: 60_000) {
            let object = json(line)
            switch object["type"] as? String {
            case "gesture": live.append(line)
            case "response" where object["request"] as? String == "record": body += object["header"] as? String ?? ""
            case "record": body += object["events"] as? String ?? ""
            case "record-end": end = object
            default: break
            }
        }
        #expect(end["reason"] as? String == "injected recording finished", "\(end)")
        #expect(end["events"] as? Int == 5363)
        let file = daemon.dir.file("pinch.evemu")
        try body.write(toFile: file, atomically: true, encoding: .utf8)
        let replayed = try Self.replayLines(file)
        #expect(live.contains { $0.contains("\"kind\":\"pinch\"") })
        #expect(replayed == live)
    }

    @Test func requestsAreCheckedAndRecordStopEndsTheRecording() throws {
        let empty = try DaemonProcess()
        let none = try runBinary("gesturectl", ["record", "--socket", empty.socketPath, "-o", empty.dir.file("x.evemu")])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no device to record: the daemon has no device open"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: empty.dir.file("x.evemu")))

        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.pinch, "--inject-when-subscribed"])
        let client = try daemon.connect()
        let unknown = json(try daemon.roundTrip(client, #"{"request":"record","device":"nope"}"#))
        #expect(unknown["type"] as? String == "error")
        #expect((unknown["message"] as? String)?.contains("no device 'nope'; devices: 0 'Advanced Silicon S.A. CoolTouch® System'") == true,
                "\(unknown)")
        let badTime = json(try daemon.roundTrip(client, #"{"request":"record","seconds":0}"#))
        #expect((badTime["message"] as? String)?.contains("\"seconds\" must be more than 0") == true, "\(badTime)")
        let started = json(try daemon.roundTrip(client, #"{"request":"record","device":"0"}"#))
        #expect(started["ok"] as? Bool == true)
        #expect((started["header"] as? String)?.contains("\nA: 35 0 32767 0 0 55\n") == true)
        #expect((started["device"] as? [String: Any])?["name"] as? String == "Advanced Silicon S.A. CoolTouch® System")
        try client.send(#"{"request":"record"}"#)
        var again: [String: Any] = [:]
        while again.isEmpty, let line = try client.readLine(timeout: 5000) {
            if json(line)["type"] as? String == "error" { again = json(line) }
        }
        #expect((again["message"] as? String)?.contains("already recording device 0") == true, "\(again)")
        // The recording's lines share the socket: take the status response, not the next line.
        try client.send(#"{"request":"status"}"#)
        var status: [String: Any] = [:]
        while status.isEmpty, let line = try client.readLine(timeout: 5000) {
            if json(line)["request"] as? String == "status" { status = json(line) }
        }
        #expect(status["recordings"] as? Int == 1, "\(status)")
        try client.send(#"{"request":"record-stop"}"#)
        var ended: [String: Any] = [:], reply: [String: Any] = [:]
        while reply.isEmpty, let line = try client.readLine(timeout: 5000) {
            let object = json(line)
            if object["type"] as? String == "record-end" { ended = object }
            if object["request"] as? String == "record-stop" { reply = object }
        }
        #expect(ended["reason"] as? String == "stopped", "record-end comes before the reply: \(ended)")
        #expect(reply["recording"] as? Bool == true)
        // Nothing more is recorded for this client.
        let after = json(try daemon.roundTrip(client, #"{"request":"status"}"#))
        #expect(after["recordings"] as? Int == 0, "\(after)")
    }

    @Test func aTimedRecordingEndsWhenItsTimeIsUp() throws {
        // 13.9 s of recording; a quarter second of it is asked for.
        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.pinch, "--inject-when-subscribed"])
        let out = daemon.dir.file("short.evemu")
        let result = try runBinary("gesturectl", ["record", "--socket", daemon.socketPath, "--seconds", "0.25", "-o", out],
                                   timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("for 0.25 s"))
        #expect(result.stderr.contains("(time)"), "\(result.stderr)")
        let recorded = try RecordingLoader.load(path: out)
        #expect(recorded[0].events.count > 0 && recorded[0].events.count < 5363)
    }

    /// In process: a recorder that does not read loses its recording; a subscriber on the same hub
    /// gets every gesture line meanwhile, and the daemon's queues stay bounded.
    @Test func aSlowRecorderLosesItsRecordingAndNoOneElseLosesAnything() throws {
        let served = try InProcessHub(queueLimit: 16)
        let (hub, path, settings) = (served.hub, served.path, served.settings)
        defer { hub.closeAll() }
        let recordings = DeviceRecordings(hub: hub, logger: Logger(label: "test.record"))
        func service() throws { try served.service() }
        let recorder = try ControlClient(path: path)
        try service()
        let recorderConnection = try #require(hub.clients.values.first)
        let listener = try ControlClient(path: path)
        try service()
        #expect(try recorder.readLine(timeout: 2000) == DaemonVersion.helloLine)
        #expect(try listener.readLine(timeout: 2000) == DaemonVersion.helloLine)
        try listener.send(#"{"request":"subscribe"}"#)
        #expect(waitUntil(timeout: 2) { (try? service()) != nil && hub.hasSubscriber })
        #expect(json(try listener.readLine(timeout: 2000))["request"] as? String == "subscribe")

        let target = DeviceRecordings.Target(id: 3, name: "Pad", path: "/dev/input/event9",
                                             description: DeviceDescription(name: "Pad"), kind: .touchpad)
        let reply = recordings.start(ClientRequest(request: "record"), client: recorderConnection.info,
                                     fd: recorderConnection.fd, devices: [target], now: 0)
        #expect(json(reply)["ok"] as? Bool == true)
        hub.enqueueWhole(reply, to: recorderConnection)

        // 5 000 reads of 20 events (far beyond the socket buffer and 16 lines), each followed by a
        // gesture line for the listener, who keeps reading.
        let batch = (0..<20).map { RawEvent(time: Timestamp(microseconds: Int64($0)), type: .abs, code: .absMTPositionX, value: Int32($0)) }
        let total = 5_000
        var received = 0, dropped = 0
        for i in 0..<total {
            recordings.capture(batch, device: 3)
            hub.publish(.gesture(GestureEvent(gesture: "pan", kind: .pan, state: .changed, time: Timestamp(microseconds: Int64(i)),
                                              device: "Pad", region: "screen", fingers: 1, translation: Point(x: Double(i), y: 0))))
            #expect(hub.largestQueue <= settings.clientQueueLimit + 1)
            if i % 50 == 0 {
                try service()
                while let line = try? listener.readLine(timeout: 1) {
                    let object = json(line)
                    if object["type"] as? String == "gesture" { received += 1 }
                    if object["type"] as? String == "dropped" { dropped += object["count"] as? Int ?? 0 }
                }
            }
        }
        #expect(!recordings.isActive, "the recording should have ended")
        #expect(waitUntil(timeout: 20) {
            try? service()
            while let line = try? listener.readLine(timeout: 5) {
                if json(line)["type"] as? String == "gesture" { received += 1 }
            }
            return received == total
        }, "the listener got \(received) of \(total) gesture lines")
        #expect(dropped == 0)

        // The recorder, reading at last: the response, record lines, then the notice; nothing after.
        var records = 0
        var end: [String: Any] = [:]
        var after = 0
        #expect(waitUntil(timeout: 20) {
            try? service()
            while let line = try? recorder.readLine(timeout: 5) {
                let object = json(line)
                if !end.isEmpty { after += 1 }
                if object["type"] as? String == "record" { records += 1 }
                if object["type"] as? String == "record-end" { end = object }
            }
            return !end.isEmpty
        })
        #expect(end["reason"] as? String == "too slow")
        #expect((end["message"] as? String)?.contains("other clients were not affected") == true)
        #expect(end["events"] as? Int == records * 20)
        #expect(records > 0 && records < total)
        #expect(after == 0)
    }
}
