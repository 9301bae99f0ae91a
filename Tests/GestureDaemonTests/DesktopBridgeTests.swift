import Foundation
import Testing
import GestureProtocol
import GestureDaemon

/// The daemon's side of the desktop bridge over a real socket with the real binary
/// (docs/desktop.md, docs/protocol.md "The desktop bridge"): a test client sends the snapshots a
/// `gesturectl desktop` would; real recordings are injected over the windows.
@Suite(.serialized) struct DesktopBridgeTests {
    /// The Wacom tap lands at (126.9, 71) of a 277.6 × 156.9 mm surface: at (457, 452) of a
    /// 1000 × 1000 output, inside window 11 (x 400...1000) and away from window 10 (x 0...400).
    static let tap = AppFixtures.tap
    static let rules = """
        version: 1
        windows:
          - id: editor
            match: { app: "edit*" }
            gestures:
              - id: editor-tap
                kind: tap
          - id: terminal
            match: { app: foot }
            gestures:
              - id: terminal-tap
                kind: tap
        """

    static func config(in dir: TempDir) throws -> String {
        let path = dir.file("gestured.yaml")
        try rules.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func snapshot(_ n: Int = 1, windows: String? = nil, extra: String = "") -> String {
        let list = windows ?? """
            [{"id":"10","app":"foot","title":"~","output":"HEADLESS-1","x":0,"y":0,"width":400,"height":1000,"stack":1},\
            {"id":"11","app":"editor","title":"notes","output":"HEADLESS-1","x":400,"y":0,"width":600,"height":1000,"stack":2,"focused":true}]
            """
        return #"{"request":"desktop","version":1,"backend":"sway","seat":"seat0","snapshot":\#(n),"part":0,"parts":1,"#
            + #""outputs":[{"name":"HEADLESS-1","x":0,"y":0,"width":1000,"height":1000,"scale":1,"transform":"normal"}],"#
            + #""windows":\#(list)\#(extra)}"#
    }

    static func chain(_ client: ControlClient, _ x: Double, _ y: Double) throws -> [String]? {
        try client.request(#"{"request":"hit-test","output":"HEADLESS-1","x":\#(x),"y":\#(y)}"#)["chain"] as? [String]
    }

    @Test func aSnapshotMakesWindowRegionsAndARealTapReachesTheWindowsRuleOnly() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try Self.config(in: dir), "--inject", Self.tap,
                                                        "--inject-when-subscribed"])
        let bridge = try daemon.connect()
        let reply = try bridge.request(Self.snapshot())
        #expect(isOK(reply), "\(reply)")
        #expect(reply["windows"] as? Int == 2)
        #expect(reply["outputs"] as? Int == 1)
        let hit = try bridge.request(#"{"request":"hit-test","output":"HEADLESS-1","x":457,"y":452}"#)
        #expect(hit["chain"] as? [String] == ["window:11", "output:HEADLESS-1", "screen"])
        #expect((hit["names"] as? [String])?.first == #"window:11 (editor "notes") rule editor"#)
        #expect(try Self.chain(bridge, 100, 452) == ["window:10", "output:HEADLESS-1", "screen"])
        let status = try bridge.request(#"{"request":"status"}"#)
        let desktop = try #require(status["desktop"] as? [String: Any])
        #expect(desktop["backend"] as? String == "sway")
        #expect(desktop["windows"] as? Int == 2)
        #expect(desktop["snapshot"] as? Int == 1)
        let listener = try daemon.connect()
        #expect(isOK(try listener.request(#"{"request":"subscribe"}"#)))
        let got = gestureLines(try listener.lines(until: { $0["gesture"] as? String == "editor-tap" }))
        let line = try #require(got.last)
        #expect(line["region"] as? String == "window:11")
        #expect(line["state"] as? String == "recognized")
        #expect(waitUntil(timeout: 10) { daemon.log.contains("injected recording finished") })
        var rest: [[String: Any]] = []
        _ = try listener.request(#"{"request":"status"}"#, skipped: &rest)
        #expect(!(got + rest).contains { $0["gesture"] as? String == "terminal-tap" })
    }

    @Test func theWindowsGoWhenTheBridgeDisconnectsOrIsReplaced() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try Self.config(in: dir)])
        let watcher = try daemon.connect()
        var first: ControlClient? = try daemon.connect()
        #expect(isOK(try first!.request(Self.snapshot())))
        #expect(try Self.chain(watcher, 457, 452)?.first == "window:11")
        first = nil
        #expect(waitUntil(timeout: 10) { daemon.log.contains("desktop bridge disconnected") })
        let gone = try watcher.request(#"{"request":"hit-test","output":"HEADLESS-1","x":457,"y":452}"#)
        #expect(ProtocolLine.message(ofError: jsonLine(gone))?.contains("no desktop bridge") == true, "\(gone)")
        #expect(try watcher.request(#"{"request":"hit-test","x":45,"y":45}"#)["chain"] as? [String] == ["screen"])
        // One bridge per seat: the newer replaces the older, which is told and refused from then on.
        let older = try daemon.connect()
        let newer = try daemon.connect()
        #expect(isOK(try older.request(Self.snapshot(1))))
        let windows = #"[{"id":"20","app":"foot","title":"~","output":"HEADLESS-1","x":0,"y":0,"width":1000,"height":1000,"stack":1}]"#
        #expect(isOK(try newer.request(Self.snapshot(1, windows: windows))))
        #expect(try Self.chain(watcher, 457, 452)?.first == "window:20")
        let told = try older.lines(until: { $0["type"] as? String == "desktop-replaced" }, timeout: 10)
        #expect(told.last?["by"] as? Int != nil)
        let refused = try older.request(Self.snapshot(2))
        #expect(refused["type"] as? String == "error")
        #expect(try Self.chain(watcher, 457, 452)?.first == "window:20")
        #expect(try watcher.request(#"{"request":"status"}"#)["desktop"] as? [String: Any] != nil)
    }

    @Test func badSnapshotsAreRefusedWithTheirPathAndTheDaemonKeepsServing() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try Self.config(in: dir)])
        let bridge = try daemon.connect()
        #expect(isOK(try bridge.request(Self.snapshot(1))))
        // 1001 windows in 11 parts of at most 100 (a line holds 64 KiB): the last part is refused.
        func windows(_ range: Range<Int>) -> String {
            "[" + range.map { #"{"id":"w\#($0)","output":"HEADLESS-1","x":0,"y":0,"width":1,"height":1}"# }
                .joined(separator: ",") + "]"
        }
        for part in 0..<10 {
            let outputs = part == 0 ? #""outputs":[{"name":"HEADLESS-1","width":1000,"height":1000}],"# : ""
            let line = #"{"request":"desktop","version":1,"snapshot":5,"part":\#(part),"parts":11,\#(outputs)"#
                + #""windows":\#(windows(part * 100..<part * 100 + 100))}"#
            #expect(isOK(try bridge.request(line)))
        }
        let last = try bridge.request(#"{"request":"desktop","version":1,"snapshot":5,"part":10,"parts":11,"windows":"#
            + windows(1000..<1001) + "}")
        #expect((last["message"] as? String)?.contains("windows: 1001 windows") == true, "\(last)")
        let cases: [(String, String)] = [
            (#"{"request":"desktop","version":1,garbage}"#, "malformed"),
            (#"{"request":"desktop","version":2,"snapshot":2,"part":0,"parts":1,"outputs":[],"windows":[]}"#,
             "version: this daemon reads desktop version 1, got 2"),
            (#"{"request":"desktop","version":1,"snapshot":2,"part":0,"outputs":[],"windows":[]}"#, "parts: missing"),
            (#"{"request":"desktop","version":1,"snapshot":2,"part":1,"parts":2,"windows":[]}"#, "without part 0"),
            (Self.snapshot(2, windows: #"[{"id":"1","output":"HEADLESS-1","x":0,"y":0,"width":1e400,"height":1}]"#),
             "windows[0].width"),
            (Self.snapshot(2, windows: #"[{"id":"1","output":"HEADLESS-1","x":0,"y":0,"width":-4,"height":1}]"#),
             "windows[0].width: must not be negative"),
            (Self.snapshot(2, windows: #"[{"id":"1","output":"HDMI-A-1","x":0,"y":0,"width":4,"height":1}]"#),
             "windows[0].output: no output 'HDMI-A-1'"),
            (Self.snapshot(2, extra: #","regions":{"id":"x"}"#), "a desktop bridge describes windows only"),
            (Self.snapshot(2, windows: #"[{"id":"1","output":"HEADLESS-1","x":0,"y":0,"width":4,"height":1,"pid":99999999999999999999}]"#),
             "windows[0].pid: expected a whole number"),
            (#"{"request":"desktop","version":1,"snapshot":2,"part":0.5,"parts":1,"outputs":[],"windows":[]}"#,
             "part: expected a whole number, got 0.5"),
        ]
        for (line, expected) in cases {
            let reply = try bridge.request(line)
            let message = reply["message"] as? String ?? ""
            #expect(reply["type"] as? String == "error", "\(line.prefix(80)): \(reply)")
            #expect(message.contains(expected), "\(line.prefix(80)): \(message)")
        }
        // The last complete snapshot stays, and the daemon serves on.
        #expect(try Self.chain(bridge, 457, 452)?.first == "window:11")
        #expect(isOK(try bridge.request(Self.snapshot(3))))
        #expect(daemon.process.isRunning)
    }

    /// Only a valid, complete snapshot takes the seat's bridge role: a client whose snapshot is
    /// refused, or still missing parts, leaves the bridge and its windows alone.
    @Test func aRefusedOrUnfinishedSnapshotNeverTakesTheBridgeRole() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try Self.config(in: dir)])
        let bridge = try daemon.connect()
        #expect(isOK(try bridge.request(Self.snapshot(1))))
        var intruder: ControlClient? = try daemon.connect()
        let refusedLines = [
            Self.snapshot(1, windows: #"[{"id":"1","output":"HDMI-A-1","x":0,"y":0,"width":4,"height":1}]"#),
            #"{"request":"desktop","version":1,"snapshot":9,"part":1,"parts":2,"windows":[]}"#,
            Self.snapshot(1, windows: #"[{"id":"1","output":"HEADLESS-1","x":0,"y":0,"width":1,"height":1,"pid":1e30}]"#),
        ]
        for line in refusedLines {
            #expect(try intruder!.request(line)["type"] as? String == "error")
        }
        // The first part of two, never finished.
        #expect(isOK(try intruder!.request(#"{"request":"desktop","version":1,"snapshot":9,"part":0,"parts":2,"#
            + #""outputs":[{"name":"HEADLESS-1","width":1000,"height":1000}],"windows":[]}"#)))
        // The real bridge was never told it was replaced, and its next snapshot is taken.
        #expect(isOK(try bridge.request(Self.snapshot(2))))
        #expect(try Self.chain(bridge, 457, 452)?.first == "window:11")
        let clientsBefore = try bridge.request(#"{"request":"status"}"#)["clients"] as? Int ?? 0
        intruder = nil
        #expect(waitUntil(timeout: 10) {
            ((try? bridge.request(#"{"request":"status"}"#)["clients"] as? Int) ?? 0) < clientsBefore
        })
        #expect(isOK(try bridge.request(Self.snapshot(3))))
        #expect(try Self.chain(bridge, 457, 452)?.first == "window:11")
        #expect(!daemon.log.contains("desktop bridge replaced"))
        #expect(!daemon.log.contains("desktop bridge disconnected"))
    }

    @Test func anAppThatAttachesAPinchUnderTheDefaultConfigGetsItsPinch() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Paths.packageRoot + "/Tests/Fixtures/chromiumos-touchmtb/tmtb-link-pinch-zoom_in.evemu",
                                                        "--inject-when-subscribed"])
        let app = try daemon.connect()
        #expect(isOK(try app.request(attachLine(region: "map", frame: #"[0, 0, "100%", "100%"]"#,
                                                gestures: #"[{"id":"zoom","kind":"pinch"}]"#))))
        _ = try AppRegionTests.trigger(daemon)
        let got = gestureLines(try app.lines(until: { $0["gesture"] as? String == "zoom" && $0["state"] as? String == "began" }))
        #expect(got.last?["gesture"] as? String == "zoom", "\(got)")
    }

    @Test func gesturectlHitTestOutputNamesTheWindows() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try Self.config(in: dir)])
        let bridge = try daemon.connect()
        #expect(isOK(try bridge.request(Self.snapshot())))
        let result = try runBinary("gesturectl", ["hit-test", "--output", "HEADLESS-1", "457", "452",
                                                  "--format", "text", "--socket", daemon.socketPath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"window:11 (editor "notes") rule editor ← output:HEADLESS-1 ← screen"#), "\(result.stdout)")
        let none = try runBinary("gesturectl", ["hit-test", "--output", "DP-9", "1", "1", "--socket", daemon.socketPath])
        #expect(none.status != 0)
        #expect((none.stdout + none.stderr).contains("no output"), "\(none.stdout)\(none.stderr)")
    }
}

/// A reply as a line again (for `ProtocolLine.message(ofError:)`).
private func jsonLine(_ object: [String: Any]) -> String {
    (try? JSONSerialization.data(withJSONObject: object)).map { String(decoding: $0, as: UTF8.self) } ?? ""
}
