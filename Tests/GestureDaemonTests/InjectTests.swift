import Foundation
import Testing
import GestureConfig
import GestureDaemon
import GesturePosix
import GestureProtocol

/// `gestured run --inject FILE`: a recording played through the live loop (timer-paced), so the
/// socket, filters and bindings see real gestures without a device.
@Suite(.serialized) struct InjectTests {
    static let drag = Paths.fixture("EP0430M09.1-finger-drag-up-down.events")

    @Test func anUnreadableRecordingStopsStartUpWithItsName() throws {
        let dir = TempDir()
        let result = try runBinary("gestured", ["run", "--no-devices", "--socket", dir.file("s"),
                                                "--inject", dir.file("missing.events")], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("missing.events"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("s")))
    }

    @Test
    func subscribersGetTheirGesturesLiveAndFiltersHold() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Self.drag, "--inject-when-subscribed"])
        let taps = try daemon.connect()
        #expect(json(try daemon.roundTrip(taps, #"{"request":"subscribe","kinds":["tap"]}"#))["ok"] as? Bool == true)
        // The first subscribe started the recording; the pan subscriber may miss its first lines,
        // so subscribe both before the recording's first pan (it starts ~0.1 s in).
        let pans = try daemon.connect()
        #expect(json(try daemon.roundTrip(pans, #"{"request":"subscribe","kinds":["pan"],"devices":["EP0430M09"]}"#))["ok"] as? Bool == true)
        var states: [String] = []
        var devices = Set<String>()
        let start = Date()
        while Date().timeIntervalSince(start) < 15, !states.contains("ended") && !states.contains("cancelled") {
            guard let line = try pans.readLine(timeout: 15_000) else { break }
            let object = json(line)
            #expect(object["kind"] as? String == "pan")
            if let state = object["state"] as? String { states.append(state) }
            if let device = object["device"] as? String { devices.insert(device) }
        }
        #expect(states.contains("changed"))
        #expect(states.last == "ended")
        #expect(devices == ["EP0430M09"])
        // The recording lasts 1.4 s; replayed live it must take about as long, not be instant.
        #expect(Date().timeIntervalSince(start) > 0.8)
        // Nothing for the tap-only subscriber (a status reply comes back first and only).
        let status = json(try daemon.roundTrip(taps, #"{"request":"status"}"#))
        #expect(status["request"] as? String == "status")
    }

    @Test
    func bindingsRunForLiveGesturesWithValuesInTheEnvironment() throws {
        let dir = TempDir()
        let out = dir.file("binding.out")
        let yaml = ConfigurationLoader.defaultYAML
        let binding = "\nbindings:\n  - gesture: pan\n    command: 'env | grep ^GESTURE_ | sort > \(out)'\n"
        #expect(yaml.contains("\nbindings: []"))
        let config = dir.file("gestured.yaml")
        try yaml.replacingOccurrences(of: "\nbindings: []", with: binding).write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", config, "--inject", Self.drag])
        #expect(waitUntil(timeout: 15) {
            ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("GESTURE_STATE=ended")
        }, "log:\n\(daemon.log)")
        let env = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        #expect(env.contains("GESTURE_ID=pan\n"))
        #expect(env.contains("GESTURE_KIND=pan\n"))
        #expect(env.contains("GESTURE_DEVICE=EP0430M09\n"))
        #expect(env.contains("GESTURE_TRANSLATION_Y="))
        #expect(waitUntil(timeout: 5) { daemon.log.contains("binding finished") })
    }
}
