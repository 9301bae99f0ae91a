import GestureCore
import GestureDesktop
import Testing

/// The Hyprland and niri readers over their sockets, against servers made of data that answer
/// with the transcripts (neither compositor is in Debian 12).
@Suite struct HyprlandNiriSocketTests {
    static func fixture(_ name: String) -> [UInt8] { (try? Fixtures.bytes(name)) ?? [] }

    @Test func hyprlandRequestsOneConnectionEachAndEventLines() throws {
        let dir = try FakeLineServer.directory()
        let requests = try FakeLineServer(path: dir + "/.socket.sock") { request in
            switch String(decoding: request, as: UTF8.self) {
            case "j/monitors": (Self.fixture("hyprland-monitors.json"), true)
            case "j/clients": (Self.fixture("hyprland-clients.json"), true)
            case "j/activewindow": (Self.fixture("hyprland-activewindow.json"), true)
            case "j/cursorpos": (Self.fixture("hyprland-cursorpos.json"), true)
            default: (Array("unknown request".utf8), true)
            }
        }
        defer { requests.stop() }
        let events = try FakeLineServer(path: dir + "/.socket2.sock") { _ in (Self.fixture("hyprland-events.txt"), false) }
        defer { events.stop() }
        let source = HyprlandSource(directory: dir)
        try source.connect()
        let scene = try source.read()
        #expect(scene.windowsBottomToTop.map(\.app) == ["firefox", "kitty", "foot", "org.gnome.Evince", "pavucontrol"])
        #expect(scene.pointer?.output == "HDMI-A-1")
        #expect(try source.drainEvents() == false)
    }

    @Test func hyprlandGarbageIsAnError() throws {
        let dir = try FakeLineServer.directory()
        let requests = try FakeLineServer(path: dir + "/.socket.sock") { _ in (Array("{\"garbage".utf8), true) }
        defer { requests.stop() }
        let events = try FakeLineServer(path: dir + "/.socket2.sock") { _ in ([], false) }
        defer { events.stop() }
        let source = HyprlandSource(directory: dir)
        try source.connect()
        #expect(throws: DesktopSourceError.self) { try source.read() }
    }

    @Test func hyprlandReplyOverTheLimitIsRefused() throws {
        let dir = try FakeLineServer.directory()
        let requests = try FakeLineServer(path: dir + "/.socket.sock") { _ in ([UInt8](repeating: 0x20, count: 300_000), true) }
        defer { requests.stop() }
        let events = try FakeLineServer(path: dir + "/.socket2.sock") { _ in ([], false) }
        defer { events.stop() }
        let source = HyprlandSource(directory: dir, maximumReply: 100_000)
        try source.connect()
        do {
            _ = try source.read()
            Issue.record("a 300 kB reply was read with a 100 kB limit")
        } catch {
            #expect(error.description.contains("a reply over 100000 bytes"), "\(error)")
        }
    }

    @Test func niriRequestsAndTheEventStream() throws {
        let dir = try FakeLineServer.directory()
        let server = try FakeLineServer(path: dir + "/niri.sock") { request in
            switch String(decoding: request, as: UTF8.self) {
            case "\"Outputs\"\n": (Self.fixture("niri-outputs.json"), true)
            case "\"Workspaces\"\n": (Self.fixture("niri-workspaces.json"), true)
            case "\"Windows\"\n": (Self.fixture("niri-windows.json"), true)
            case "\"EventStream\"\n": (Self.fixture("niri-events.jsonl"), false)
            default: (Array("{\"Err\":\"unknown\"}\n".utf8), true)
            }
        }
        defer { server.stop() }
        var logged: [String] = []
        let source = NiriSource(path: server.path) { logged.append($0) }
        #expect(source.missesChanges)
        try source.connect()
        // The events that came with the stream's first reply are read; WindowLayoutsChanged among
        // them ends the polling.
        #expect(!source.missesChanges)
        let scene = try source.read()
        #expect(scene.windowsBottomToTop.map(\.id) == ["16", "17", "14"])
        #expect(source.leftOut == 2)
        #expect(logged.count == 1 && logged[0].contains("2 tiled windows left out"))
        #expect(try source.drainEvents() == false)
    }

    @Test func niriRefusingTheEventStreamIsAnError() throws {
        let dir = try FakeLineServer.directory()
        let server = try FakeLineServer(path: dir + "/niri.sock") { _ in (Array("{\"Err\":\"no\"}\n".utf8), true) }
        defer { server.stop() }
        let source = NiriSource(path: server.path)
        do {
            try source.connect()
            Issue.record("a refused event stream was taken")
        } catch {
            #expect(error.description.contains("niri refused the event stream"), "\(error)")
        }
    }
}
