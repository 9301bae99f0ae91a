import GestureCore
import GestureDesktop
import Testing

/// The Hyprland reader over transcripts written from Hyprland's documented `hyprctl -j` formats
/// (Hyprland is not in Debian 12: Fixtures/README.md).
@Suite struct HyprlandReaderTests {
    func scene() throws -> Desktop {
        try HyprlandReader.scene(monitors: try Fixtures.json("hyprland-monitors.json"), clients: try Fixtures.json("hyprland-clients.json"),
                                 activeWindow: try Fixtures.json("hyprland-activewindow.json"),
                                 cursor: try Fixtures.json("hyprland-cursorpos.json"))
    }

    @Test func monitorsInLogicalPixelsWithTheirTransform() throws {
        let outputs = try scene().outputs
        #expect(outputs == [
            DesktopOutput(name: "eDP-1", x: 0, y: 0, width: 1440, height: 900, scale: 2, transform: .normal, focused: true),
            DesktopOutput(name: "HDMI-A-1", x: 1440, y: 0, width: 1080, height: 1920, scale: 1, transform: .rotated90, focused: false),
        ])
    }

    @Test func visibleWindowsStackedTiledFloatingFullscreenSpecial() throws {
        let windows = try scene().windowsBottomToTop
        #expect(windows.map(\.app) == ["firefox", "kitty", "foot", "org.gnome.Evince", "pavucontrol"])
        let foot = try #require(windows.first { $0.app == "foot" })
        #expect(foot.id == "0x55d1c0b3a410")
        #expect(foot.focused)
        #expect(foot.floating)
        #expect((foot.x, foot.y, foot.width, foot.height) == (200, 200, 300, 300))
        #expect(foot.pid == 2301)
        let evince = try #require(windows.first { $0.app == "org.gnome.Evince" })
        #expect(evince.output == "HDMI-A-1")
        #expect(evince.fullscreen)
        #expect((evince.x, evince.y) == (0, 0))
        let special = try #require(windows.last)
        #expect(special.workspace == "special:magic")
        #expect((special.x, special.y) == (100, 100))
        #expect(windows.filter(\.focused).count == 1)
    }

    @Test func thePointerIsOnTheMonitorUnderIt() throws {
        #expect(try scene().pointer == DesktopPointer(output: "HDMI-A-1", x: 60, y: 40))
    }

    @Test func wrongShapesAreErrorsAndOddClientsAreSkipped() throws {
        #expect(throws: HyprlandReader.Failure.self) {
            try HyprlandReader.scene(monitors: .object([]), clients: .array([]), activeWindow: nil, cursor: nil)
        }
        let clients = try DesktopJSON(parsing: """
        [{"address":"0x1","at":[1],"size":[10,10],"workspace":{"id":1},"monitor":0},
         {"address":"0x2","at":["a","b"],"size":[10,10],"workspace":{"id":1},"monitor":0},
         {"at":[0,0],"size":[10,10],"workspace":{"id":1},"monitor":0},
         {"address":"0x3","at":[0,0],"size":[10,10],"workspace":{"id":1},"monitor":7},
         {"address":"0x4","at":[1,2],"size":[3,4],"workspace":{"id":1},"monitor":0,"fullscreen":true}]
        """)
        let scene = try HyprlandReader.scene(monitors: try Fixtures.json("hyprland-monitors.json"), clients: clients,
                                             activeWindow: .object([]), cursor: .string("garbage"))
        #expect(scene.windows.map(\.id) == ["0x3", "0x4"])
        #expect(scene.windows.last?.fullscreen == true)
        #expect(scene.pointer == nil)
    }

    @Test func eventLinesAreCountedNotKept() throws {
        let bytes = try Fixtures.bytes("hyprland-events.txt")
        var partial = 0
        #expect(HyprlandEventLines.count(in: Array(bytes.prefix(10)), partial: &partial, maximumLine: 1 << 20) == 0)
        #expect(partial == 10)
        #expect(HyprlandEventLines.count(in: Array(bytes.dropFirst(10)), partial: &partial, maximumLine: 1 << 20) == 7)
        #expect(partial == 0)
        var endless = 0
        #expect(HyprlandEventLines.count(in: [UInt8](repeating: 65, count: 5000), partial: &endless, maximumLine: 4096) == 0)
        #expect(endless == 0)
    }
}
