import GestureCore
import GesturePosix

/// Window actions on niri: `Action` requests on its IPC socket, by window id. `maximize` is niri's
/// `MaximizeColumn` of the focused column, sent after `FocusWindow`; niri has no minimizing.
public enum NiriWindowActions {
    /// The request lines for `request`, in order; nil when niri has no equivalent.
    public static func requests(_ request: WindowActionRequest) -> [String]? {
        guard let id = UInt64(request.window) else { return nil }
        switch request.action {
        case .closeWindow: return [#"{"Action":{"CloseWindow":{"id":\#(id)}}}"#]
        case .fullscreen: return [#"{"Action":{"FullscreenWindow":{"id":\#(id)}}}"#]
        case .maximize: return [#"{"Action":{"FocusWindow":{"id":\#(id)}}}"#, #"{"Action":{"MaximizeColumn":{}}}"#]
        case .moveToWorkspace(let n):
            return [#"{"Action":{"MoveWindowToWorkspace":{"window_id":\#(id),"reference":{"Index":\#(n)},"focus":false}}}"#]
        case .minimize: return nil
        }
    }

    static func perform(_ request: WindowActionRequest, socket path: String) -> Result<Void, DesktopSourceError> {
        guard let lines = requests(request) else {
            return .failure(DesktopSourceError("\(request.action.text) has no equivalent on niri (or '\(request.window)' is not a niri window id)"))
        }
        for line in lines {
            do {
                // One request a connection, as niri's own `niri msg` does.
                let socket = try CompositorSocket(path: path)
                let deadline = monotonicMicroseconds() + requestTimeoutMicroseconds
                try socket.write(Array((line + "\n").utf8), deadline: deadline)
                let reply = try socket.read(limit: 65_536, deadline: deadline) { $0.contains(10) }
                let json = try DesktopJSON(parsing: reply.prefix { $0 != 10 })
                if json["Ok"] == nil {
                    return .failure(DesktopSourceError("\(path): \(line): \(json["Err"]?.string ?? "refused")"))
                }
            } catch {
                return .failure(DesktopSourceError("\(path): \(line): \(error)"))
            }
        }
        return .success(())
    }
}
