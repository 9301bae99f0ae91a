import GestureCore
@testable import GestureDesktop
import Testing

/// The one-shot KWin scripts that do bindings' window actions on KDE Plasma: what each action does,
/// that only a KWin window id reaches the script, and that the script unloads itself when done.
@Suite struct KWinWindowActionsTests {
    static let id = "{ebb12f39-f5f5-462d-8047-2f9374a70f0e}"

    static func script(_ action: WindowAction, id: String = id) -> String? {
        KWinWindowActions.script(WindowActionRequest(window: id, action: action, gesture: "g"), name: "gestured-action-1-1")
    }

    @Test func eachActionDoesWhatKWinsWindowMenuDoes() throws {
        #expect(try #require(Self.script(.closeWindow)).contains("w.closeWindow();"))
        #expect(try #require(Self.script(.minimize)).contains("w.minimized = true;"))
        #expect(try #require(Self.script(.fullscreen)).contains("w.fullScreen = !w.fullScreen;"))
        let maximize = try #require(Self.script(.maximize))
        #expect(maximize.contains("workspace.clientArea(KWin.MaximizeArea, w)") && maximize.contains("w.setMaximize(!full, !full);"))
        let move = try #require(Self.script(.moveToWorkspace(3)))
        #expect(move.contains("workspace.desktops[2]") && move.contains("w.desktop = 3"))
    }

    @Test func theScriptFindsTheWindowByItsIdOnBothKWinsAndUnloadsItself() throws {
        let text = try #require(Self.script(.closeWindow))
        #expect(text.contains("(kwin6 ? workspace.windowList() : workspace.clientList()).find(c => String(c.internalId) === \"\(Self.id)\")"))
        #expect(text.hasSuffix("callDBus(\"org.kde.KWin\", \"/Scripting\", \"org.kde.kwin.Scripting\", \"unloadScript\", \"gestured-action-1-1\");\n"))
    }

    @Test func onlyAKWinWindowIdReachesTheScript() {
        #expect(Self.script(.closeWindow, id: "42") != nil)            // KWin 5.27 ids may be numbers
        #expect(Self.script(.closeWindow, id: "\"); evil(); (\"") == nil)
        #expect(Self.script(.closeWindow, id: "") == nil)
        #expect(Self.script(.closeWindow, id: String(repeating: "a", count: 65)) == nil)
    }
}
