import Foundation
import Testing
import GestureDaemon

/// Lines name the window their region follows (docs/protocol.md, "The window a line is about";
/// docs/desktop.md): over the real socket with the real binary and a bridge's snapshot, and in
/// `gestured replay --desktop` as JSON, text (on a real terminal) and SVG (rendered by rsvg-convert).
@Suite(.serialized) struct DesktopWindowNameTests {
    static let editor: [String: String] = ["id": "11", "app": "editor", "title": "notes", "rule": "editor"]
    static let longTitle = "Meeting notes for the quarterly planning review — a title longer than any column"

    /// A snapshot whose window 11 (under the Wacom tap) is `app`, and window 10 has a long title.
    static func snapshot(_ n: Int = 1, app: String = "editor", title: String = "notes") -> String {
        DesktopBridgeTests.snapshot(n, windows: """
            [{"id":"10","app":"foot","title":"\(longTitle)","output":"HEADLESS-1","x":0,"y":0,"width":400,"height":1000,"stack":1},\
            {"id":"11","app":"\(app)","title":"\(title)","output":"HEADLESS-1","x":400,"y":0,"width":600,"height":1000,"stack":2,"focused":true}]
            """)
    }

    @Test func aGestureOverAWindowCarriesTheWindowAsTheBridgeLastDescribedIt() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try DesktopBridgeTests.config(in: dir),
                                                        "--inject", DesktopBridgeTests.tap, "--inject-when-subscribed"])
        let bridge = try daemon.connect()
        #expect(isOK(try bridge.request(Self.snapshot(1, title: "draft"))))
        // The title changed: same window, same rule, so the same region; the lines say the new title.
        #expect(isOK(try bridge.request(Self.snapshot(2))))
        let listener = try daemon.connect()
        #expect(isOK(try listener.request(#"{"request":"explain"}"#)))
        // Touches of the screen's stream too: those that hit a window name it.
        #expect(isOK(try listener.request(#"{"request":"subscribe","touches":["screen"]}"#)))
        let got = try listener.lines(until: { $0["gesture"] as? String == "editor-tap" && $0["type"] as? String == "gesture" })
        let line = try #require(gestureLines(got).last)
        #expect(line["region"] as? String == "window:11")
        #expect(line["window"] as? [String: String] == Self.editor, "\(line)")
        let explains = got.filter { $0["type"] as? String == "explain" && $0["gesture"] as? String == "editor-tap" }
        #expect(!explains.isEmpty)
        #expect(explains.allSatisfy { $0["window"] as? [String: String] == Self.editor }, "\(explains)")
        let touches = got.filter { $0["type"] as? String == "touch" }
        #expect(!touches.isEmpty && touches.allSatisfy { $0["region"] as? String == "window:11" })
        #expect(touches.allSatisfy { $0["window"] as? [String: String] == Self.editor }, "\(touches)")
    }

    @Test func gesturectlListenNamesTheWindowAsText() throws {
        let dir = TempDir()
        let daemon = try DaemonProcess(extraArguments: ["--config", try DesktopBridgeTests.config(in: dir),
                                                        "--inject", DesktopBridgeTests.tap, "--inject-when-subscribed"])
        let bridge = try daemon.connect()
        #expect(isOK(try bridge.request(Self.snapshot())))
        // The listener is the first subscriber: the injected tap starts with it.
        let out = dir.file("listen.out")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary("gesturectl"))
        process.arguments = ["listen", "--socket", daemon.socketPath, "--format", "text", "--explain"]
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            // SIGKILL: a child of a test thread inherits its blocked signals (SIGTERM among them).
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let read = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 30) { read().contains(" recognized ") }, "\(read())")
        let lines = read().split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex(of: #"-- Wacom ISDv4 E6 Finger over window:11 (editor "notes")"#),
                                  "\(lines)")
        #expect(lines.dropFirst(header + 1).first?.contains("editor-tap") == true, "\(lines)")
        // The explain line of the tap, its window on the reason's row or on a row of its own below it.
        let explain = try #require(lines.firstIndex { $0.contains("editor-tap") && $0.contains("recognized:") }, "\(lines)")
        #expect(lines[explain...].prefix(2).contains { $0.hasSuffix(#"— over window:11 (editor "notes")"#) },
                "the explain line names no window: \(lines)")
    }

    /// `gestured replay` of the Wacom tap over `snapshot`, with the window rules and a screen that
    /// publishes its touches (so touch lines name the region, here a window, that each touch hit).
    static func replay(_ arguments: [String], snapshot: String = snapshot(), in dir: TempDir) throws -> RunResult {
        let file = dir.file("desktop.json"), config = dir.file("replay.yaml")
        try (snapshot + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try (DesktopBridgeTests.rules + "\nregions:\n  id: screen\n  publish-touches: true\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        return try runBinary("gestured", ["replay", DesktopBridgeTests.tap, "--config", config, "--desktop", file] + arguments)
    }

    @Test func replayOverACapturedDesktopNamesTheWindowsAsTheDaemonDoes() throws {
        let dir = TempDir()
        // --touches prints touch lines: the screen's stream (hit region named) and each frame's touches.
        let result = try Self.replay(["--format", "json", "--explain", "--touches"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { json(String($0)) }
        let tap = try #require(lines.first { $0["type"] as? String == "gesture" })
        #expect(tap["gesture"] as? String == "editor-tap")
        #expect(tap["window"] as? [String: String] == Self.editor, "\(tap)")
        let touches = lines.filter { $0["type"] as? String == "touch" && $0["region"] != nil }
        #expect(!touches.isEmpty)
        #expect(touches.allSatisfy { $0["region"] as? String == "window:11" && $0["responder"] as? String == "screen" })
        #expect(touches.allSatisfy { $0["window"] as? [String: String] == Self.editor }, "\(touches)")
        let explains = lines.filter { $0["type"] as? String == "explain" && $0["gesture"] as? String == "editor-tap" }
        #expect(!explains.isEmpty && explains.allSatisfy { $0["window"] as? [String: String] == Self.editor })
        // A window no rule matches: its touches name it, without a rule; no gesture is recognized there.
        let other = try Self.replay(["--format", "json", "--touches"], snapshot: Self.snapshot(app: "viewer"), in: dir)
        let otherLines = other.stdout.split(separator: "\n").map { json(String($0)) }
        #expect(!otherLines.contains { $0["type"] as? String == "gesture" })
        #expect(otherLines.first { $0["type"] as? String == "touch" && $0["region"] != nil }?["window"] as? [String: String]
            == ["id": "11", "app": "viewer", "title": "notes"])
        // Without a desktop, nothing names a window.
        let plain = try runBinary("gestured", ["replay", DesktopBridgeTests.tap, "--format", "json", "--touches",
                                              "--config", dir.file("replay.yaml")])
        #expect(plain.status == 0 && plain.stdout.contains(#""region":"screen","responder""#), "\(plain.stdout)")
        #expect(!plain.stdout.contains("\"window\""), "\(plain.stdout)")
    }

    @Test func theTextFormatNamesTheWindowInAHeaderThatFitsTheTerminal() throws {
        let dir = TempDir()
        let snapshot = Self.snapshot(title: Self.longTitle)
        let file = dir.file("desktop.json")
        try (snapshot + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let rows = try runInTerminal(["/usr/bin/env", "COLUMNS=60", Paths.binary("gestured"), "replay", DesktopBridgeTests.tap, "--config",
                                      try DesktopBridgeTests.config(in: dir), "--desktop", file], columns: 60)
        let header = try #require(rows.first { $0.hasPrefix("-- ") }, "\(rows)")
        #expect(header.hasPrefix(#"-- Wacom ISDv4 E6 Finger over window:11 (editor "Meeting"#), "\(rows)")
        #expect(header.hasSuffix(#"…")"#), "\(header)")
        #expect(header.unicodeScalars.count <= 60)
        let index = try #require(rows.firstIndex(of: header))
        // The next row is the tap itself, not the header wrapped onto a second row.
        #expect(rows[index + 1].contains("editor-tap") && rows[index + 1].contains("recognized"), "\(rows)")
    }

    @Test func theSVGDrawsTheWindowsWithTheirNamesAndListsTheWindowOfEachGesture() throws {
        let dir = TempDir()
        let svg = dir.file("out.svg"), png = dir.file("out.png")
        let result = try Self.replay(["--format", "json", "--svg", svg, "--explain"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let render = try runTool(ReplayPictureRenderTests.renderer, [svg, "-o", png])
        #expect(render.status == 0 && render.stderr.isEmpty, "rsvg-convert: \(render.stderr)")
        #expect(ReplayPictureRenderTests.pngSize(png)?.0 == 1000)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        // The frames: the output, window 11 with its whole name, window 10's long title cut to its frame.
        #expect(text.contains(">output:HEADLESS-1<"), "no output frame")
        #expect(text.contains(">window:11 (editor &quot;notes&quot;)<"), "window 11 is not named")
        let start = try #require(text.range(of: ">window:10 (foot &quot;Meeting"), "window 10 is not named")
        let cut = text[start.lowerBound...].prefix(200)
        #expect(cut.contains("…&quot;)<"), "\(cut)")
        #expect(!text.contains(Self.longTitle))
        // The list of gestures says where the tap was (the row wraps at a space of the name).
        #expect(text.contains(">G1   ") && text.contains("over window:11"), "the gesture list names no window")
    }

    @Test func aBadSnapshotFileIsAnErrorNamingItsLine() throws {
        let dir = TempDir()
        let negative = DesktopBridgeTests.snapshot(1, windows:
            #"[{"id":"1","output":"HEADLESS-1","x":0,"y":0,"width":-4,"height":1}]"#)
        let bad = try Self.replay([], snapshot: "\n" + negative, in: dir)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("desktop.json:2: windows[0].width: must not be negative"), "\(bad.stderr)")
        let partial = #"{"request":"desktop","version":1,"snapshot":3,"part":0,"parts":2,"#
            + #""outputs":[{"name":"HEADLESS-1","width":1000,"height":1000}],"windows":[]}"#
        let missing = try Self.replay([], snapshot: partial, in: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("desktop.json:1: snapshot 3 ends after part 0 of 2: part 1 is missing"),
                "\(missing.stderr)")
        let empty = try Self.replay([], snapshot: "", in: dir)
        #expect(empty.status == 1 && empty.stderr.contains("no desktop snapshot"), "\(empty.stderr)")
    }
}
