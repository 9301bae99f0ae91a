import GestureCore
import GesturePosix

/// Window actions on sway and i3: an IPC `RUN_COMMAND` with the window's criteria, `[con_id=N]`.
/// sway and i3 have no maximized state (a tiled window fills its place; `fullscreen` fills the
/// output) and no minimizing: `minimize` moves the window to the scratchpad, where `scratchpad show`
/// brings it back.
public enum SwayWindowActions {
    /// The command for `request`; nil for an action the compositor has no equivalent of.
    public static func command(_ request: WindowActionRequest) -> String? {
        guard request.window.allSatisfy(\.isNumber) else { return nil }
        let criteria = "[con_id=\(request.window)] "
        switch request.action {
        case .closeWindow: return criteria + "kill"
        case .fullscreen: return criteria + "fullscreen toggle"
        case .minimize: return criteria + "move scratchpad"
        case .moveToWorkspace(let n): return criteria + "move container to workspace number \(n)"
        case .maximize: return nil
        }
    }

    static func perform(_ request: WindowActionRequest, socket path: String) -> Result<Void, DesktopSourceError> {
        guard let command = command(request) else {
            return .failure(DesktopSourceError("\(request.action.text) has no equivalent on sway / i3 (use fullscreen)"))
        }
        do {
            let socket = try CompositorSocket(path: path)
            let reply = try SwaySource.request(socket, .runCommand, command, maximum: 1 << 20)
            let json = try DesktopJSON(parsing: reply)
            let failures = (json.array ?? []).filter { $0["success"]?.bool != true }
            if let failure = failures.first {
                return .failure(DesktopSourceError("\(path): '\(command)' failed: \(failure["error"]?.string ?? "no reason given")"))
            }
            return .success(())
        } catch {
            return .failure(DesktopSourceError("\(path): '\(command)': \(error)"))
        }
    }
}
