import Foundation
import Testing
import GestureDaemon
import GestureProtocol

/// When `--inject`ed recordings start: each at once when injection starts, whatever its recorded
/// timestamps; with `--inject-when-subscribed`, at the first subscribe, record or attach.
@Suite(.serialized) struct InjectStartTests {
    /// Recorded in 2012 (timestamps ~1.33e9 s) and at boot (~0 s): forty years apart.
    @Test func everyRecordingStartsWhenInjectionStartsWhateverItsTimestamps() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.drag, "--inject", AppFixtures.tap,
                                                        "--inject-when-subscribed"])
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"subscribe"}"#))["ok"] as? Bool == true)
        var devices = Set<String>()
        let lines = try client.lines(until: { object in
            if object["type"] as? String == "gesture", let device = object["device"] as? String { devices.insert(device) }
            return devices.count == 2
        }, timeout: 15)
        #expect(devices == ["EP0430M09", "Wacom ISDv4 E6 Finger"], "lines: \(lines)\nlog:\n\(daemon.log)")
    }

    /// An app that only attaches (no subscribe) starts the recording and gets its own gesture.
    @Test func anAttachStartsTheRecordingsOfInjectWhenSubscribed() throws {
        let dir = TempDir()
        let config = try AppFixtures.noGestures(in: dir)
        let daemon = try DaemonProcess(extraArguments: ["--config", config, "--inject", AppFixtures.tap,
                                                        "--inject-when-subscribed"])
        let app = try daemon.connect()
        #expect(!daemon.log.contains("injecting recording"))
        var skipped: [[String: Any]] = []
        let reply = try app.request(attachLine(region: "button", frame: AppFixtures.aroundTap,
                                               gestures: #"[{"id":"press","kind":"tap"}]"#), skipped: &skipped)
        #expect(isOK(reply), "\(reply)")
        let lines = try app.lines(until: { $0["type"] as? String == "gesture" }, timeout: 15)
        let gesture = gestureLines(skipped + lines).first
        #expect(gesture?["gesture"] as? String == "press", "lines: \(lines)\nlog:\n\(daemon.log)")
        #expect(gesture?["state"] as? String == "recognized")
    }
}
