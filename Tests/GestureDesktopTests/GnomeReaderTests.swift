import GestureCore
import GestureDesktop
import Testing

/// The GNOME reader over replies captured from a real headless GNOME Shell 43.9 with the gestured
/// extension (Fixtures/README.md).
@Suite struct GnomeReaderTests {
    /// The arguments of a captured `busctl --json=short call` reply.
    func arguments(_ name: String) throws -> [DesktopJSON] {
        try #require(try Fixtures.json(name)["data"]?.array)
    }

    func windows(_ name: String) throws -> DesktopJSON {
        try DesktopJSON(parsing: try #require(try arguments(name).first?.string))
    }

    @Test func oneVirtualMonitorInThePhysicalLayout() throws {
        #expect(try GnomeReader.outputs(currentState: arguments("gnome-current-state.json")) == [
            DesktopOutput(name: "Meta-0", x: 0, y: 0, width: 1280, height: 800, scale: 1, transform: .normal),
        ])
    }

    /// Mutter's transform is the wl_output enum: 1 is "90" (sway's `transform 90`), the output's
    /// axes trade places; 3 is "270".
    @Test func transformOneIsNinetyAndTurnsTheOutput() throws {
        #expect(try GnomeReader.outputs(currentState: arguments("gnome-current-state-transform1.json")) == [
            DesktopOutput(name: "Meta-0", x: 0, y: 0, width: 800, height: 1280, scale: 1, transform: .rotated90),
        ])
        #expect(OutputTransform(waylandValue: 1) == .rotated90)
        #expect(OutputTransform(waylandValue: 3) == .rotated270)
        #expect(OutputTransform(waylandValue: 5) == .flipped90)
    }

    @Test func twoMonitorsInTheLogicalLayoutAreDividedByTheirScale() throws {
        #expect(try GnomeReader.outputs(currentState: arguments("gnome-current-state-two-logical.json")) == [
            DesktopOutput(name: "Meta-1", x: 0, y: 0, width: 960, height: 540, scale: 2, transform: .normal),
            DesktopOutput(name: "Meta-0", x: 960, y: 0, width: 800, height: 1280, scale: 1, transform: .rotated270),
        ])
    }

    @Test func realWindowsAtTheirFramesInStackingOrder() throws {
        let outputs = try GnomeReader.outputs(currentState: arguments("gnome-current-state.json"))
        let scene = try GnomeReader.scene(outputs: outputs, windows: windows("gnome-windows.json"))
        // The Shell's own 1×1 override-redirect window (type 15) is not a window to touch.
        #expect(scene.windowsBottomToTop.map(\.app) == ["foot-app", "org.gestured.Left", "XTermGnome"])
        #expect(scene.windows == [
            DesktopWindow(id: "3479110026", app: "foot-app", title: "foot", pid: 19777, output: "Meta-0",
                          x: 289, y: 121, width: 700, height: 500, stack: 0, focused: false, floating: true, workspace: "1"),
            DesktopWindow(id: "3479110027", app: "org.gestured.Left", title: "org.gestured.Left", pid: 19775, output: "Meta-0",
                          x: 0, y: 32, width: 400, height: 300, stack: 1, focused: false, floating: true, workspace: "1"),
            DesktopWindow(id: "3479110028", app: "XTermGnome", title: "sleep", pid: 21640, output: "Meta-0",
                          x: 50, y: 82, width: 364, height: 301, stack: 2, focused: true, floating: true, workspace: "1"),
        ])
        #expect(scene.pointer == DesktopPointer(output: "Meta-0", x: 16, y: 16))
    }

    @Test func aWindowBelongsToTheOutputHoldingItsCentreRelativeToIt() throws {
        let outputs = try GnomeReader.outputs(currentState: arguments("gnome-current-state-two-logical.json"))
        let scene = try GnomeReader.scene(outputs: outputs, windows: windows("gnome-windows-two-logical.json"))
        let foot = try #require(scene.windows.first)
        #expect(scene.windows.count == 1)
        #expect([foot.output] == ["Meta-0"])
        #expect((foot.x, foot.y, foot.width, foot.height) == (140, 300, 500, 400))
        #expect(scene.pointer == DesktopPointer(output: "Meta-1", x: 16, y: 16))
    }

    func scene(_ json: String) throws -> Desktop {
        try GnomeReader.scene(outputs: [DesktopOutput(name: "Meta-0", x: 0, y: 0, width: 1280, height: 800)],
                              windows: DesktopJSON(parsing: json))
    }

    static func window(_ fields: String, workspace: Int = 0, width: Int = 300, type: Int = 0) -> String {
        #"{"id":"7","wmClass":"a","x":10,"y":20,"width":\#(width),"height":200,"stack":0,"focused":false,"workspace":\#(workspace),"type":\#(type)\#(fields)}"#
    }

    @Test func minimizedOtherWorkspacesAndTheOverviewHideWindows() throws {
        let shown = try scene(#"{"version":1,"activeWorkspace":0,"windows":[\#(Self.window(""))]}"#)
        #expect(shown.windows.map(\.id) == ["7"])
        #expect(try scene(#"{"version":1,"activeWorkspace":0,"windows":[\#(Self.window(#","minimized":true"#))]}"#).windows == [])
        #expect(try scene(#"{"version":1,"activeWorkspace":1,"windows":[\#(Self.window(""))]}"#).windows == [])
        let sticky = try scene(#"{"version":1,"activeWorkspace":1,"windows":[\#(Self.window("", workspace: -1))]}"#)
        #expect(sticky.windows.map(\.workspace) == ["all"])
        #expect(try scene(#"{"version":1,"activeWorkspace":0,"overview":true,"windows":[\#(Self.window(""))]}"#).windows == [])
        #expect(try scene(#"{"version":1,"activeWorkspace":0,"windows":[\#(Self.window("", width: 0))]}"#).windows == [])
        #expect(try scene(#"{"version":1,"activeWorkspace":0,"windows":[\#(Self.window("", type: 1))]}"#).windows == [])
    }

    @Test func theAppIDFallsBackFromWMClassToGTKFlatpakAndDesktopIDs() throws {
        func app(_ fields: String) throws -> String? {
            try scene(#"{"version":1,"windows":[{"id":"1","x":0,"y":0,"width":9,"height":9\#(fields)}]}"#).windows.first?.app
        }
        #expect(try app(#","wmClass":"foot","gtkApplicationId":"org.x""#) == "foot")
        #expect(try app(#","wmClass":"","gtkApplicationId":"org.gnome.Nautilus""#) == "org.gnome.Nautilus")
        #expect(try app(#","sandboxedAppId":"org.mozilla.firefox""#) == "org.mozilla.firefox")
        #expect(try app(#","desktopId":"org.gnome.Terminal.desktop""#) == "org.gnome.Terminal")
        #expect(try app(#","desktopId":"window:3""#) == "")
    }

    @Test func anotherFormatOrGarbageIsAFailureNamingIt() throws {
        #expect(throws: GnomeReader.Failure(description: "the Shell extension speaks format 2, this gesturectl format 1: install the extension of this gestured package")) {
            try scene(#"{"version":2,"windows":[]}"#)
        }
        #expect(throws: GnomeReader.Failure(description: "GetWindows: expected an object with a version")) { try scene("[1,2]") }
        #expect(throws: GnomeReader.Failure(description: "GetWindows: expected a list of windows")) { try scene(#"{"version":1,"windows":7}"#) }
        // A window missing its frame is left out; the others stay.
        let partly = try scene(#"{"version":1,"windows":[{"id":"1","x":"?"},\#(Self.window(""))]}"#)
        #expect(partly.windows.map(\.id) == ["7"])
        #expect(throws: GnomeReader.Failure(description: "GetCurrentState: expected (serial, monitors, logical monitors, properties)")) {
            try GnomeReader.outputs(currentState: [.number(1)])
        }
    }
}
