import GestureCore
import GestureDesktop
import Testing

/// The niri reader over transcripts written from the niri-ipc crate's types (niri is not in
/// Debian 12: Fixtures/README.md).
@Suite struct NiriReaderTests {
    func read() throws -> (scene: Desktop, leftOut: Int) {
        try NiriReader.scene(outputs: try NiriReader.response(try Fixtures.json("niri-outputs.json"), "Outputs"),
                             workspaces: try NiriReader.response(try Fixtures.json("niri-workspaces.json"), "Workspaces"),
                             windows: try NiriReader.response(try Fixtures.json("niri-windows.json"), "Windows"))
    }

    @Test func outputsWithLogicalSizesDisabledOnesLeftOut() throws {
        let outputs = try read().scene.outputs
        #expect(outputs.map(\.name) == ["eDP-1", "HDMI-A-1"])
        #expect(outputs[0] == DesktopOutput(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1200, scale: 1.5, transform: .normal, focused: true))
        #expect(outputs[1].transform == .rotated90)
        #expect(outputs[1].focused == false)
    }

    @Test func floatingWindowsOfActiveWorkspacesTiledOnesHaveNoPosition() throws {
        let (scene, leftOut) = try read()
        #expect(leftOut == 2)
        #expect(scene.windowsBottomToTop.map(\.id) == ["16", "17", "14"])
        let pip = try #require(scene.windows.first { $0.id == "14" })
        #expect((pip.x, pip.y, pip.width, pip.height) == (1400, 880.5, 484, 276))
        #expect(pip.floating)
        #expect(pip.workspace == "1")
        #expect(scene.windows.first { $0.id == "16" }?.output == "HDMI-A-1")
    }

    @Test func errorsAndWrongShapes() throws {
        #expect(throws: NiriReader.Failure.self) { try NiriReader.response(try DesktopJSON(parsing: #"{"Err":"unknown request"}"#), "Windows") }
        #expect(throws: NiriReader.Failure.self) { try NiriReader.response(try DesktopJSON(parsing: #"{"Ok":"Handled"}"#), "Windows") }
        #expect(throws: NiriReader.Failure.self) { try NiriReader.scene(outputs: .array([]), workspaces: .array([]), windows: .array([])) }
    }

    @Test func theLayoutEventIsRecognized() throws {
        let lines = try Fixtures.bytes("niri-events.jsonl").split(separator: 10)
        #expect(lines.map { NiriEvents.isLayoutChange($0) } == [false, false, false, false, false, true])
        for line in lines { #expect((try? DesktopJSON(parsing: line)) != nil) }
    }
}
