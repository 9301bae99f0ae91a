import Foundation
import Testing

/// Rotation while a desktop bridge is connected (issue 49 item 3; docs/rotation.md, "With a desktop
/// bridge"): the compositor's transform is the truth. `gesturectl rotate` then says that it is
/// overridden, with the output and its transform, instead of "rotation 90 set"; the config's
/// `rotation:` is overridden the same way and the daemon says so in its log.
@Suite(.serialized) struct BridgeRotationTests {
    @Test func aManualOrConfiguredRotationSaysTheOutputsTransformOverridesIt() throws {
        let dir = TempDir()
        try """
            version: 1
            surfaces:
              - match: { kind: touchscreen }
                rotation: 90
            """.write(toFile: dir.file("g.yaml"), atomically: true, encoding: .utf8)
        // A 1.4 s drag: the injected touchscreen is open while it plays (from the first subscribe).
        let drag = Paths.fixture("EP0430M09.1-finger-drag-up-down.events")
        let daemon = try DaemonProcess(extraArguments: ["--config", dir.file("g.yaml"), "--inject", drag,
                                                        "--inject-when-subscribed"])
        let bridge = try daemon.connect()
        #expect(isOK(try bridge.request(DesktopBridgeTests.snapshot())))
        let listener = try daemon.connect()
        #expect(isOK(try listener.request(#"{"request":"subscribe"}"#)))
        #expect(waitUntil(timeout: 10) { daemon.log.contains("configured rotation is overridden") }, "\(daemon.log.suffix(800))")
        let rotate = try runBinary("gesturectl", ["rotate", "180", "--socket", daemon.socketPath, "--format", "text"])
        let reply = try bridge.request(#"{"request":"set-surface","rotation":270}"#)
        #expect(rotate.status == 0, "\(rotate.stderr)")
        #expect(rotate.stdout.contains("rotation 180 not applied, overridden while the desktop bridge is connected"), "\(rotate.stdout)")
        #expect(rotate.stdout.contains("EP0430M09 follows output HEADLESS-1 (transform normal)"), "\(rotate.stdout)")
        #expect(!rotate.stdout.contains(" set"), "\(rotate.stdout)")
        // The JSON reply names each touchscreen that follows an output, with the output's transform.
        let overridden = try #require(reply["overridden"] as? [[String: String]], "\(reply)")
        #expect(overridden == [["device": "EP0430M09", "output": "HEADLESS-1", "transform": "normal"]])
        #expect(daemon.log.contains("output=HEADLESS-1"), "\(daemon.log.suffix(800))")
    }

    @Test func withoutABridgeTheRotationIsSetAsBefore() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.tap, "--inject-when-subscribed"])
        let rotate = try runBinary("gesturectl", ["rotate", "90", "--socket", daemon.socketPath, "--format", "text"])
        #expect(rotate.status == 0, "\(rotate.stderr)")
        #expect(rotate.stdout.contains("rotation 90 set"), "\(rotate.stdout)")
        #expect(!rotate.stdout.contains("overridden"))
    }
}
