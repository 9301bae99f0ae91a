import GestureCore
import GesturePosix

/// Window actions on Hyprland: dispatchers on its request socket (`.socket.sock`), addressed by the
/// window's `address:`. `fullscreen` and `maximize` act on the focused window only, so they are sent
/// as a batch that focuses the window first; Hyprland has no minimizing: `minimize` moves the window
/// to the special workspace `minimized` (`togglespecialworkspace minimized` shows it).
public enum HyprlandWindowActions {
    /// The request for `request` (one line of Hyprland's socket protocol); nil for an id that is not
    /// an address.
    public static func command(_ request: WindowActionRequest) -> String? {
        let address = request.window
        guard address.hasPrefix("0x"), address.dropFirst(2).allSatisfy(\.isHexDigit), address.count > 2 else { return nil }
        let target = "address:" + address
        switch request.action {
        case .closeWindow: return "dispatch closewindow \(target)"
        case .maximize: return "[[BATCH]]dispatch focuswindow \(target);dispatch fullscreen 1"
        case .fullscreen: return "[[BATCH]]dispatch focuswindow \(target);dispatch fullscreen 0"
        case .minimize: return "dispatch movetoworkspacesilent special:minimized,\(target)"
        case .moveToWorkspace(let n): return "dispatch movetoworkspacesilent \(n),\(target)"
        }
    }

    static func perform(_ request: WindowActionRequest, instance: String) -> Result<Void, DesktopSourceError> {
        guard let command = command(request) else {
            return .failure(DesktopSourceError("'\(request.window)' is not a Hyprland window address"))
        }
        do {
            let socket = try CompositorSocket(path: instance + "/.socket.sock")
            let deadline = monotonicMicroseconds() + requestTimeoutMicroseconds
            try socket.write(Array(command.utf8), deadline: deadline)
            let reply = String(decoding: try socket.read(limit: 65_536, deadline: deadline, untilEnd: true), as: UTF8.self)
            // One "ok" per dispatcher; anything else is Hyprland's reason.
            if reply.split(whereSeparator: \.isWhitespace).contains(where: { $0 != "ok" }) {
                return .failure(DesktopSourceError("\(instance): '\(command)': \(reply.prefix(200))"))
            }
            return .success(())
        } catch {
            return .failure(DesktopSourceError("\(instance): '\(command)': \(error)"))
        }
    }
}
