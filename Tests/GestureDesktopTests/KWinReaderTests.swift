import GestureCore
import GestureDesktop
import Testing

/// The KWin reader on what a real headless KWin 5.27.5 and the gestured script gave (Fixtures/README.md),
/// and on a KWin 6 transcript written from KWin 6's documented scripting API (KWin 6 is not run here).
@Suite struct KWinReaderTests {
    func supportOutputs(_ name: String) throws -> [DesktopOutput] {
        KWinReader.outputs(supportInformation: try #require(try Fixtures.json(name)["data"]?.array?.first?.string))
    }

    @Test func outputsFromKWin527sSupportInformation() throws {
        #expect(try supportOutputs("kwin-support-information.json") == [
            DesktopOutput(name: "Virtual-0", x: 0, y: 0, width: 1280, height: 800, scale: 1),
        ])
    }

    /// kscreen-doctor's rotation 2 ("left") is wl_output 1, "90"; KWin's geometry is already turned.
    @Test func aRotatedOutputTakesKScreensRotation() throws {
        let rotations = KWinReader.rotations(kscreenDoctor: try Fixtures.json("kwin-kscreen-doctor-rotated.json"))
        #expect(rotations == ["Virtual-0": .rotated90])
        let scene = try KWinReader.scene(windows: try Fixtures.json("kwin-windows-rotated.json"),
                                         outputs: try supportOutputs("kwin-support-information-rotated.json"), rotations: rotations)
        #expect(scene.outputs == [DesktopOutput(name: "Virtual-0", x: 0, y: 0, width: 800, height: 1280, transform: .rotated90)])
        #expect(scene.windows.map(\.x) == [400, 50])
    }

    @Test func realWindowsOfKWin527() throws {
        let scene = try KWinReader.scene(windows: try Fixtures.json("kwin-windows.json"), outputs: try supportOutputs("kwin-support-information.json"))
        #expect(scene.windows == [
            DesktopWindow(id: "{31d0f4f2-ecb1-4574-ad89-6a8419e78714}", app: "org.gestured.Left", title: "org.gestured.Left", pid: 30590,
                          output: "Virtual-0", x: 440, y: 231, width: 400, height: 337, stack: 0, focused: false, floating: true, workspace: "1"),
            DesktopWindow(id: "{7f6f6da2-2baa-4839-ab5d-d264499cb594}", app: "xtermkde", title: "sleep", pid: 31023,
                          output: "Virtual-0", x: 50, y: 60, width: 364, height: 301, stack: 1, focused: true, floating: true, workspace: "1"),
        ])
    }

    /// Written from KWin 6's documented API: outputs named by the script, desktops as ids, panels left out.
    @Test func kwin6TranscriptNamedOutputsDesktopIDs() throws {
        let scene = try KWinReader.scene(windows: try Fixtures.json("kwin6-windows.json"), outputs: [])
        #expect(scene.outputs.map(\.name) == ["eDP-1", "HDMI-A-1"])
        #expect(scene.outputs.map(\.scale) == [1.5, 1])
        #expect(scene.windows.map(\.app) == ["org.kde.konsole", "firefox"])
        let firefox = try #require(scene.windows.last)
        #expect([firefox.output] == ["HDMI-A-1"])
        #expect((firefox.x, firefox.y, firefox.focused) == (100, 50, true))
    }

    @Test func minimizedOtherDesktopsAndGarbage() throws {
        let outputs = [DesktopOutput(name: "V", x: 0, y: 0, width: 1000, height: 800)]
        func scene(_ fields: String, current: Int = 1) throws -> Desktop {
            try KWinReader.scene(windows: DesktopJSON(parsing: #"{"version":1,"kwin":5,"currentDesktop":\#(current),"windows":[{"id":"w","resourceClass":"a","x":1,"y":2,"width":30,"height":40,"normal":true\#(fields)}]}"#), outputs: outputs)
        }
        #expect(try scene(#","desktop":1"#).windows.count == 1)
        #expect(try scene(#","desktop":2"#).windows.count == 0)
        #expect(try scene(#","desktop":-1"#, current: 3).windows.map(\.workspace) == ["all"])
        #expect(try scene(#","desktop":1,"minimized":true"#).windows.count == 0)
        #expect(try scene(#","desktop":1,"special":true"#).windows.count == 0)
        #expect(throws: KWinReader.Failure(description: "the KWin script speaks format 9, this gesturectl format 1")) {
            try KWinReader.scene(windows: DesktopJSON(parsing: #"{"version":9}"#), outputs: outputs)
        }
        #expect(throws: KWinReader.Failure(description: "the KWin script's JSON: expected a list of windows")) {
            try KWinReader.scene(windows: DesktopJSON(parsing: #"{"version":1,"windows":{}}"#), outputs: outputs)
        }
        #expect(KWinReader.outputs(supportInformation: "garbage\nScreens\nScreen 0:\nName: X\nGeometry: nonsense\n") == [])
    }
}
