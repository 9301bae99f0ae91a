import Foundation
import GestureCore
import GestureDesktop
import Testing

/// Window actions on Hyprland and niri (neither is in Debian 12), over their sockets against servers
/// made of data that record what they were sent and answer as the compositor does.
@Suite(.serialized) struct WindowActionSocketTests {
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    @Test func hyprlandGetsTheDispatchersAddressedToTheWindow() throws {
        let dir = try FakeLineServer.directory()
        let received = Received()
        let server = try FakeLineServer(path: dir + "/.socket.sock") { request in
            let text = String(decoding: request, as: UTF8.self)
            received.add(text)
            return (Array((text.hasPrefix("[[BATCH]]") ? "ok\n\nok" : "ok").utf8), true)
        }
        defer { server.stop() }
        let choice = BackendChoice(backend: .hyprland, target: dir)
        for action in [WindowAction.closeWindow, .fullscreen, .moveToWorkspace(2)] {
            let result = WindowActions.perform(action.line(window: "0x55d1c0a0", gesture: "g"), choice: choice)
            #expect((try? result.get()) != nil, "\(result)")
        }
        #expect(received.all == ["dispatch closewindow address:0x55d1c0a0",
                                 "[[BATCH]]dispatch focuswindow address:0x55d1c0a0;dispatch fullscreen 0",
                                 "dispatch movetoworkspacesilent 2,address:0x55d1c0a0"])
        // An id that is not an address is never put into a request.
        #expect(HyprlandWindowActions.command(WindowActionRequest(window: "42; exec rm", action: .closeWindow, gesture: "g")) == nil)
    }

    @Test func niriGetsItsActionsByWindowId() throws {
        let dir = try FakeLineServer.directory()
        let received = Received()
        let server = try FakeLineServer(path: dir + "/niri.sock") { request in
            let text = String(decoding: request, as: UTF8.self)
            received.add(text)
            return (Array((text.contains("CloseWindow") ? #"{"Err":"no window with id 7"}"# : #"{"Ok":"Handled"}"#).utf8) + [10], true)
        }
        defer { server.stop() }
        let choice = BackendChoice(backend: .niri, target: dir + "/niri.sock")
        let moved = WindowActions.perform(WindowAction.moveToWorkspace(3).line(window: "7", gesture: "g"), choice: choice)
        #expect((try? moved.get()) != nil, "\(moved)")
        let maximized = WindowActions.perform(WindowAction.maximize.line(window: "7", gesture: "g"), choice: choice)
        #expect((try? maximized.get()) != nil, "\(maximized)")
        let closed = WindowActions.perform(WindowAction.closeWindow.line(window: "7", gesture: "g"), choice: choice)
        guard case .failure(let error) = closed else { Issue.record("niri's refusal was taken"); return }
        #expect(error.description.hasSuffix("no window with id 7"), "\(error)")
        #expect(received.all == [
            #"{"Action":{"MoveWindowToWorkspace":{"window_id":7,"reference":{"Index":3},"focus":false}}}"# + "\n",
            #"{"Action":{"FocusWindow":{"id":7}}}"# + "\n", #"{"Action":{"MaximizeColumn":{}}}"# + "\n",
            #"{"Action":{"CloseWindow":{"id":7}}}"# + "\n"])
        let minimized = WindowActions.perform(WindowAction.minimize.line(window: "7", gesture: "g"), choice: choice)
        guard case .failure(let none) = minimized else { Issue.record("niri minimized"); return }
        #expect(none.description.hasPrefix("minimize has no equivalent on niri"))
    }
}
