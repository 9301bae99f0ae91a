#if canImport(Glibc)
import Glibc
#endif
import CLibxcb
import GestureCore

/// Window actions on X11, as EWMH asks a window manager for them: client messages to the root
/// window (`_NET_CLOSE_WINDOW`, `_NET_WM_STATE` toggling `_NET_WM_STATE_MAXIMIZED_VERT` and `_HORZ` or
/// `_NET_WM_STATE_FULLSCREEN`, `_NET_WM_DESKTOP` with the workspace from 0) and ICCCM's
/// `WM_CHANGE_STATE` to IconicState for minimizing. Source indication 2: a pager acting for the user.
public enum X11WindowActions {
    static func perform(_ request: WindowActionRequest, display: String) -> Result<Void, DesktopSourceError> {
        guard let window = UInt32(request.window) else {
            return .failure(DesktopSourceError("'\(request.window)' is not an X11 window id"))
        }
        var screenNumber: Int32 = 0
        guard let c = xcb_connect(display, &screenNumber), xcb_connection_has_error(c) == 0 else {
            return .failure(DesktopSourceError("\(display): cannot connect to the X server"))
        }
        defer { xcb_disconnect(c) }
        var iterator = xcb_setup_roots_iterator(xcb_get_setup(c))
        for _ in 0..<max(0, Int(screenNumber)) { xcb_screen_next(&iterator) }
        guard let screen = iterator.data else { return .failure(DesktopSourceError("\(display): no screen")) }
        let root = screen.pointee.root
        func atom(_ name: String) -> xcb_atom_t {
            let cookie = xcb_intern_atom(c, 0, UInt16(name.utf8.count), name)
            guard let reply = xcb_intern_atom_reply(c, cookie, nil) else { return 0 }
            defer { free(reply) }
            return reply.pointee.atom
        }
        let toggle: UInt32 = 2, pager: UInt32 = 2, iconic: UInt32 = 3
        let (type, data): (String, [UInt32])
        switch request.action {
        case .closeWindow: (type, data) = ("_NET_CLOSE_WINDOW", [0, pager])
        case .maximize:
            (type, data) = ("_NET_WM_STATE", [toggle, atom("_NET_WM_STATE_MAXIMIZED_VERT"), atom("_NET_WM_STATE_MAXIMIZED_HORZ"), pager])
        case .fullscreen: (type, data) = ("_NET_WM_STATE", [toggle, atom("_NET_WM_STATE_FULLSCREEN"), 0, pager])
        case .minimize: (type, data) = ("WM_CHANGE_STATE", [iconic])
        case .moveToWorkspace(let n): (type, data) = ("_NET_WM_DESKTOP", [UInt32(n - 1), pager])
        }
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = window
        event.type = atom(type)
        withUnsafeMutableBytes(of: &event.data) { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for (i, value) in data.prefix(5).enumerated() { words[i] = value }
        }
        let mask = XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue
        let sent = withUnsafeBytes(of: &event) { raw in
            xcb_send_event_checked(c, 0, root, mask, raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        if let error = xcb_request_check(c, sent) {
            free(error)
            return .failure(DesktopSourceError("\(display): the X server refused the \(type) message for window \(window)"))
        }
        return .success(())
    }
}
