import Testing
import GestureCore
import GestureDesktop

/// The daemon's `window-action` lines as the bridge reads them, and the sway / i3 commands they become.
@Suite struct WindowActionRequestTests {
    @Test func theDaemonsLineReadsBack() throws {
        for action in [WindowAction.closeWindow, .maximize, .minimize, .fullscreen, .moveToWorkspace(3)] {
            let line = action.line(window: "94", gesture: "g")
            #expect(WindowActionRequest.isRequest(line))
            let request = try WindowActionRequest.parse(line).get()
            #expect(request == WindowActionRequest(window: "94", action: action, gesture: "g"))
        }
        #expect(WindowAction.moveToWorkspace(3).line(window: "94", gesture: "g")
                == #"{"type":"window-action","window":"94","action":"move-to-workspace","workspace":3,"gesture":"g"}"#)
    }

    @Test func aLineThatIsNotAnActionIsRefusedWithWhy() {
        let cases = [
            (#"{"type":"window-action","action":"maximize"}"#, "a window-action line without its window"),
            (#"{"type":"window-action","window":"1","action":"shade"}"#, "unknown window action 'shade'"),
            (#"{"type":"window-action","window":"1","action":"move-to-workspace"}"#, "unknown window action 'move-to-workspace 0'"),
            ("{", "not a window-action line"),
        ]
        for (line, message) in cases {
            guard case .failure(let error) = WindowActionRequest.parse(line) else {
                Issue.record("\(line) was read")
                continue
            }
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    @Test func swayAndI3GetTheWindowsCriteria() {
        func command(_ action: WindowAction, _ window: String = "17") -> String? {
            SwayWindowActions.command(WindowActionRequest(window: window, action: action, gesture: "g"))
        }
        #expect(command(.closeWindow) == "[con_id=17] kill")
        #expect(command(.fullscreen) == "[con_id=17] fullscreen toggle")
        #expect(command(.minimize) == "[con_id=17] move scratchpad")
        #expect(command(.moveToWorkspace(4)) == "[con_id=17] move container to workspace number 4")
        #expect(command(.maximize) == nil)
        // An id that is not a number is never put into a command.
        #expect(command(.closeWindow, "17] exec rm") == nil)
    }
}
