import GestureCore
import GesturePosix

/// A `window-action` line from the daemon (docs/protocol.md, "Window actions"), as the bridge reads
/// it: which window, what to do. The backend files (`SwayWindowActions`, `X11WindowActions`) have
/// the compositor do it.
public struct WindowActionRequest: Equatable, Sendable {
    public var window: String
    public var action: WindowAction
    public var gesture: String

    public init(window: String, action: WindowAction, gesture: String) {
        self.window = window
        self.action = action
        self.gesture = gesture
    }

    /// Whether `line` is a window-action line (the sink hands it on instead of reading it as news).
    public static func isRequest(_ line: String) -> Bool { line.hasPrefix("{\"type\":\"window-action\"") }

    /// The request in `line`, or why it cannot be read.
    public static func parse(_ line: String) -> Result<WindowActionRequest, DesktopSourceError> {
        guard let json = try? DesktopJSON(parsing: line), json["type"]?.string == "window-action" else {
            return .failure(DesktopSourceError("not a window-action line: \(line.prefix(200))"))
        }
        guard let window = json["window"]?.string, !window.isEmpty else {
            return .failure(DesktopSourceError("a window-action line without its window: \(line.prefix(200))"))
        }
        let name = json["action"]?.string ?? ""
        let text = name == "move-to-workspace" ? "\(name) \(json["workspace"]?.int ?? 0)" : name
        guard let action = WindowAction(text: text) else {
            return .failure(DesktopSourceError("unknown window action '\(text)'"))
        }
        return .success(WindowActionRequest(window: window, action: action, gesture: json["gesture"]?.string ?? ""))
    }
}

/// Has the compositor of `choice` do window actions: one short connection per action, apart from
/// the source's own (whose events it would interleave with).
public enum WindowActions {
    /// Does `line`'s action; the message names what went wrong (logged by the bridge).
    public static func perform(_ line: String, choice: BackendChoice,
                               environment: [String: String] = ProcessEnvironment.current()) -> Result<Void, DesktopSourceError> {
        let request: WindowActionRequest
        switch WindowActionRequest.parse(line) {
        case .success(let r): request = r
        case .failure(let error): return .failure(error)
        }
        switch choice.backend {
        case .sway, .i3: return SwayWindowActions.perform(request, socket: choice.target)
        case .x11: return X11WindowActions.perform(request, display: choice.target)
        case .hyprland: return HyprlandWindowActions.perform(request, instance: choice.target)
        case .niri: return NiriWindowActions.perform(request, socket: choice.target)
        case .gnome: return GnomeWindowActions.perform(request, bus: choice.target)
        case .kde: return KWinWindowActions.perform(request, bus: choice.target, environment: environment)
        }
    }
}
