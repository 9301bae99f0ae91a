import Foundation
import Testing

/// `gesturectl inject FILE…`: recordings played into a daemon already running, one after another,
/// allowed to root and the daemon's own uid only.
@Suite(.serialized) struct InjectRequestTests {
    static let tap = Paths.fixture("Wacom ISDv4 E6 Finger.single-tap-center.events")
    static let swipe = Paths.fixture("Wacom ISDv4 E6 Finger.single-top-swipe.events")
    static let drag = InjectTests.drag

    @Test func recordingsPlayIntoTheRunningDaemonOneAfterAnother() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"subscribe"}"#))["ok"] as? Bool == true)
        let run = try runBinary("gesturectl", ["inject", "--socket", daemon.socketPath, Self.drag, Self.swipe])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""request":"inject""#), "\(run.stdout)")
        var gestures: [String] = []
        let done = waitUntil(timeout: 20) {
            while let line = try? client.readLine(timeout: 50) {
                let object = json(line)
                if object["type"] as? String == "gesture", let state = object["state"] as? String,
                   ["recognized", "ended"].contains(state) {
                    gestures.append(object["gesture"] as? String ?? "?")
                }
            }
            return daemon.log.components(separatedBy: "injected recording finished").count == 3
        }
        #expect(done, "\(daemon.log)")
        #expect(gestures == ["pan", "pan"], "\(gestures)")
        // The swipe's recording started only once the drag's had finished.
        let lines = daemon.log.split(separator: "\n")
        let dragEnded = try #require(lines.firstIndex { $0.contains("injected recording finished") })
        let swipeStarted = try #require(lines.firstIndex { $0.contains("injecting recording") && $0.contains("single-top-swipe") })
        #expect(dragEnded < swipeStarted, "\(daemon.log)")
    }

    @Test func aFileThatCannotBeReadInjectsNothingAndSaysWhich() throws {
        let daemon = try DaemonProcess()
        let run = try runBinary("gesturectl", ["inject", "--socket", daemon.socketPath, Self.tap, "/nonexistent/missing.events"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("missing.events"), "\(run.stderr)")
        #expect(!daemon.log.contains("injecting recording"), "\(daemon.log)")
    }

    @Test func anotherUserIsRefusedAndToldWhoMay() throws {
        let config = TempDir()
        try "version: 1\nsocket: { mode: \"0666\" }\n".write(toFile: config.file("gestured.yaml"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", config.file("gestured.yaml")])
        chmod(daemon.dir.path, 0o755)
        _ = try daemon.connect()
        let run = try runTool("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                   Paths.binary("gesturectl"), "inject", "--socket", daemon.socketPath, Self.tap])
        #expect(run.status != 0)
        #expect(run.stderr.contains("inject is allowed only to root and to the daemon's own uid (0); this client's uid is 65534"),
                "\(run.stderr)")
        #expect(run.stderr.contains("SO_PEERCRED"), "\(run.stderr)")
        #expect(!daemon.log.contains("injecting recording"), "\(daemon.log)")
    }

    /// `gestured run --inject` with `forward: true`: the log says forwarding is skipped for the recording.
    @Test func injectingWithForwardOnSaysForwardingIsSkipped() throws {
        let config = TempDir()
        try "version: 1\ndevices: { forward: true }\n".write(toFile: config.file("gestured.yaml"), atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", config.file("gestured.yaml"), "--inject", Self.tap])
        #expect(waitUntil(timeout: 15) { daemon.log.contains("injected recording finished") }, "\(daemon.log)")
        #expect(daemon.log.contains("forwarding skipped for an injected recording"), "\(daemon.log)")
        #expect(daemon.log.contains("gestured replay --forward"), "\(daemon.log)")
    }
}
