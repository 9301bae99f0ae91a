import Foundation
import Testing
import GestureDaemon

/// `gestured replay` of a device whose position comes on other axes, through the real binary: it
/// says so, and with `axes:` it gives the touches.
@Suite struct OddDeviceReplayCommandTests {
    static let eGalax = Paths.corpus("evemu-devices/tablets/eGalax Inc. USB TouchController.events")

    @Test func replaySaysWhichAxesMovedAndWhatToSet() throws {
        // The device claims a pen: as the daemon, replay reads it only when the config names it.
        let dir = TempDir()
        let config = dir.file("named.yaml")
        try "version: 1\ndevices: { include: [{ name: \"eGalax*\" }] }\n".write(toFile: config, atomically: true, encoding: .utf8)
        let unnamed = try runBinary("gestured", ["replay", "--touches", Self.eGalax])
        #expect(unnamed.stderr.contains("not opened: not a touch device, and devices.include names no rule for it"),
                "\(unnamed.stderr)")
        let result = try runBinary("gestured", ["replay", "--config", config, "--touches", Self.eGalax])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(Self.eGalax): warning: eGalax Inc. USB TouchController: 2 contacts with no position: "
                + "ABS_X, ABS_Y never moved; ABS_Z, ABS_RX moved: the position may be there (a broken report descriptor); "
                + "try `axes: { x: ABS_Z, y: ABS_RX }` in a `surfaces:` rule for this device (docs/input.md)\n")
    }

    @Test func withAxesTheRecordingGivesItsTouches() throws {
        let dir = TempDir()
        let config = dir.file("egalax.yaml")
        try """
            surfaces:
              - match: { name: "eGalax Inc. USB TouchController" }
                axes: { x: ABS_Z, y: ABS_RX }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try runBinary("gestured", ["replay", "--config", config, "--touches", "--format", "json", Self.eGalax])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let began = result.stdout.split(separator: "\n").filter { $0.contains("\"phase\":\"began\"") }
        #expect(began.count == 2)
        // ABS_Z 1909 on 30…4040, ABS_RX 2123 on 60…4035, at 10 units per mm.
        #expect(began.first?.contains("\"location\":{\"x\":187.9,\"y\":206.3}") == true, "\(began)")
    }
}

/// The daemon with the same recording played through its live loop: the device claims a pen, so it
/// is opened only when the config names it (as a live one); then `devices` shows which axes moved
/// and the problem, and the log says it once the device is gone.
@Suite(.serialized) struct OddDeviceDaemonTests {
    @Test func devicesAndTheLogSayWhichAxesMoved() throws {
        let dir = TempDir()
        let config = dir.file("gestured.yaml")
        try "version: 1\ndevices: { include: [{ name: \"eGalax Inc. USB TouchController\" }] }\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", config, "--inject", OddDeviceReplayCommandTests.eGalax])
        let client = try daemon.connect()
        var device: [String: Any] = [:]
        let seen = waitUntil(timeout: 10) {
            let reply = json(try? daemon.roundTrip(client, #"{"request":"devices"}"#))
            device = (reply["devices"] as? [[String: Any]])?.first { $0["name"] as? String == "eGalax Inc. USB TouchController" } ?? [:]
            return device["position"] != nil
        }
        #expect(seen, "\(device)")
        #expect(device["axes-moved"] as? [String] == ["ABS_Z", "ABS_RX"])
        #expect(device["axes-still"] as? [String] == ["ABS_X", "ABS_Y"])
        #expect((device["position"] as? String)?.contains("try `axes: { x: ABS_Z, y: ABS_RX }`") == true)
        #expect(waitUntil(timeout: 15) { daemon.log.contains("injected recording finished") }, "\(daemon.log)")
        #expect(daemon.log.contains("device gave no touches: its position axes never moved"), "\(daemon.log)")
        #expect(daemon.log.contains("ABS_X, ABS_Y never moved; ABS_Z, ABS_RX moved"), "\(daemon.log)")
    }
}

/// Unnamed, the same device is not opened (a pen-like device, as live) and the log says how to open it.
@Suite(.serialized) struct OddDeviceNotNamedTests {
    @Test func aPenLikeDeviceTheConfigDoesNotNameIsNotInjected() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", OddDeviceReplayCommandTests.eGalax])
        #expect(waitUntil(timeout: 10) { daemon.log.contains("not injecting recording") }, "\(daemon.log)")
        #expect(daemon.log.contains("not a touch device"), "\(daemon.log)")
    }
}
