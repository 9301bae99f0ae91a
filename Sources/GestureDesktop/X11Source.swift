#if canImport(Glibc)
import GestureCore
import Glibc
#endif
import CLibxcb

/// An X11 window manager through EWMH, with plain libxcb requests (pipelined: all of a snapshot's
/// requests go out before the first reply is read). Events: property changes and structure changes
/// (map, unmap, configure) on the root and on every client; the pointer is asked at each snapshot.
public final class X11Source: DesktopSource {
    public var backend: String { "x11" }
    public let target: String
    /// X11 reports moves and resizes (ConfigureNotify): no polling.
    public var missesChanges: Bool { false }
    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var screenSize = (width: 0.0, height: 0.0)
    private var screenNumber: Int32 = 0
    private var atoms: [String: xcb_atom_t] = [:]
    private var watched: Set<xcb_window_t> = []

    static let atomNames = ["_NET_CLIENT_LIST_STACKING", "_NET_CLIENT_LIST", "_NET_ACTIVE_WINDOW", "_NET_CURRENT_DESKTOP",
                            "_NET_WM_DESKTOP", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_HIDDEN",
                            "_NET_WM_NAME", "_NET_WM_PID", "_NET_FRAME_EXTENTS", "UTF8_STRING"]

    public init(display: String) {
        self.target = display
    }

    deinit { disconnect() }

    public var eventDescriptors: [Int32] { connection.map { [xcb_get_file_descriptor($0)] } ?? [] }

    public func connect() throws(DesktopSourceError) {
        disconnect()
        var screen: Int32 = 0
        guard let c = xcb_connect(target, &screen), xcb_connection_has_error(c) == 0 else {
            throw DesktopSourceError("cannot open the X display \(target)")
        }
        connection = c
        screenNumber = screen
        var iterator = xcb_setup_roots_iterator(xcb_get_setup(c))
        for _ in 0..<screen where iterator.rem > 0 { xcb_screen_next(&iterator) }
        guard iterator.rem > 0, let data = iterator.data else {
            disconnect()
            throw DesktopSourceError("\(target): no screen \(screen)")
        }
        root = data.pointee.root
        screenSize = (Double(data.pointee.width_in_pixels), Double(data.pointee.height_in_pixels))
        let cookies = Self.atomNames.map { name in xcb_intern_atom(c, 0, UInt16(name.utf8.count), name) }
        for (name, cookie) in zip(Self.atomNames, cookies) {
            if let reply = xcb_intern_atom_reply(c, cookie, nil) {
                atoms[name] = reply.pointee.atom
                free(reply)
            }
        }
        watch(root, mask: XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue)
        xcb_flush(c)
        guard xcb_connection_has_error(c) == 0 else {
            disconnect()
            throw DesktopSourceError("\(target): the X connection failed")
        }
    }

    public func disconnect() {
        if let connection { xcb_disconnect(connection) }
        connection = nil
        watched = []
    }

    private func watch(_ window: xcb_window_t, mask: UInt32) {
        guard let connection else { return }
        var value = mask
        xcb_change_window_attributes(connection, window, UInt32(XCB_CW_EVENT_MASK.rawValue), &value)
    }

    public func drainEvents() throws(DesktopSourceError) -> Bool {
        guard let connection else { throw DesktopSourceError("\(target): not connected") }
        var any = false
        while let event = xcb_poll_for_event(connection) {
            any = true
            free(event)
        }
        if xcb_connection_has_error(connection) != 0 { throw DesktopSourceError("\(target): the X server closed the connection") }
        return any
    }

    public func takeQueuedEvents() -> Bool {
        guard let connection else { return false }
        var any = false
        while let event = xcb_poll_for_queued_event(connection) {
            any = true
            free(event)
        }
        return any
    }

    public func read() throws(DesktopSourceError) -> Desktop {
        guard let c = connection else { throw DesktopSourceError("\(target): not connected") }
        let stackingAtom = atoms["_NET_CLIENT_LIST_STACKING"] ?? 0
        var list = property32(c, root, stackingAtom, maximum: 65_536)
        if list == nil { list = property32(c, root, atoms["_NET_CLIENT_LIST"] ?? 0, maximum: 65_536) }
        guard let clients = list else {
            if xcb_connection_has_error(c) != 0 { throw DesktopSourceError("\(target): the X server closed the connection") }
            throw DesktopSourceError("\(target): the window manager publishes no _NET_CLIENT_LIST_STACKING nor _NET_CLIENT_LIST (EWMH); is one running?")
        }
        let current = property32(c, root, atoms["_NET_CURRENT_DESKTOP"] ?? 0, maximum: 1)?.first
        let active = property32(c, root, atoms["_NET_ACTIVE_WINDOW"] ?? 0, maximum: 1)?.first
        let facts = describe(c, Array(clients.prefix(4096)))
        let pointerCookie = xcb_query_pointer(c, root)
        var pointer: (x: Double, y: Double)?
        if let reply = xcb_query_pointer_reply(c, pointerCookie, nil) {
            if reply.pointee.same_screen != 0 { pointer = (Double(reply.pointee.root_x), Double(reply.pointee.root_y)) }
            free(reply)
        }
        // New clients: their title, state and size changes are events too.
        let current_ = Set(clients)
        for window in current_ where !watched.contains(window) {
            watch(window, mask: XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue)
        }
        watched = current_
        xcb_flush(c)
        if xcb_connection_has_error(c) != 0 { throw DesktopSourceError("\(target): the X server closed the connection") }
        let screen = DesktopOutput(name: "screen\(screenNumber)", x: 0, y: 0, width: screenSize.width, height: screenSize.height)
        return X11Reader.scene(screen: screen, clients: facts, currentDesktop: current, active: active, pointer: pointer)
    }

    /// A 32-bit property's values (at most `maximum`); nil when the window has none.
    private func property32(_ c: OpaquePointer, _ window: xcb_window_t, _ atom: xcb_atom_t, maximum: UInt32) -> [UInt32]? {
        guard atom != 0 else { return nil }
        let cookie = xcb_get_property(c, 0, window, atom, 0, 0, maximum)
        guard let reply = xcb_get_property_reply(c, cookie, nil) else { return nil }
        defer { free(reply) }
        return Self.values32(reply)
    }

    static func values32(_ reply: UnsafeMutablePointer<xcb_get_property_reply_t>) -> [UInt32]? {
        guard reply.pointee.format == 32, reply.pointee.type != 0 else { return nil }
        let count = Int(xcb_get_property_value_length(reply)) / 4
        guard count > 0, let value = xcb_get_property_value(reply) else { return count == 0 ? [] : nil }
        let pointer = value.bindMemory(to: UInt32.self, capacity: count)
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    static func bytes(_ reply: UnsafeMutablePointer<xcb_get_property_reply_t>) -> [UInt8] {
        guard reply.pointee.format == 8, reply.pointee.type != 0 else { return [] }
        let count = Int(xcb_get_property_value_length(reply))
        guard count > 0, let value = xcb_get_property_value(reply) else { return [] }
        return Array(UnsafeRawBufferPointer(start: value, count: count))
    }

    /// Every client's facts, with all requests sent before the first reply is read.
    private func describe(_ c: OpaquePointer, _ clients: [xcb_window_t]) -> [X11WindowFacts] {
        struct Cookies {
            var wmClass, netName, name, pid, desktop, state, extents: xcb_get_property_cookie_t
            var geometry: xcb_get_geometry_cookie_t
            var translate: xcb_translate_coordinates_cookie_t
            var attributes: xcb_get_window_attributes_cookie_t
        }
        func get(_ w: xcb_window_t, _ atom: xcb_atom_t?, _ longs: UInt32) -> xcb_get_property_cookie_t {
            xcb_get_property(c, 0, w, atom ?? 0, 0, 0, longs)
        }
        let cookies = clients.map { w in
            Cookies(wmClass: get(w, XCB_ATOM_WM_CLASS.rawValue, 64), netName: get(w, atoms["_NET_WM_NAME"], 128),
                    name: get(w, XCB_ATOM_WM_NAME.rawValue, 128), pid: get(w, atoms["_NET_WM_PID"], 1),
                    desktop: get(w, atoms["_NET_WM_DESKTOP"], 1), state: get(w, atoms["_NET_WM_STATE"], 32),
                    extents: get(w, atoms["_NET_FRAME_EXTENTS"], 4), geometry: xcb_get_geometry(c, w),
                    translate: xcb_translate_coordinates(c, w, root, 0, 0), attributes: xcb_get_window_attributes(c, w))
        }
        let fullscreenAtom = atoms["_NET_WM_STATE_FULLSCREEN"] ?? 0
        let hiddenAtom = atoms["_NET_WM_STATE_HIDDEN"] ?? 0
        var result: [X11WindowFacts] = []
        for (window, cookie) in zip(clients, cookies) {
            var facts = X11WindowFacts(id: window)
            var alive = true
            func property(_ cookie: xcb_get_property_cookie_t, _ body: (UnsafeMutablePointer<xcb_get_property_reply_t>) -> Void) {
                if let reply = xcb_get_property_reply(c, cookie, nil) {
                    body(reply)
                    free(reply)
                }
            }
            property(cookie.wmClass) { facts.wmClass = Self.bytes($0) }
            property(cookie.netName) { facts.netName = Self.bytes($0) }
            property(cookie.name) { facts.name = Self.bytes($0) }
            property(cookie.pid) { facts.pid = Self.values32($0)?.first }
            property(cookie.desktop) { facts.desktop = Self.values32($0)?.first }
            property(cookie.state) { reply in
                let states = Self.values32(reply) ?? []
                facts.fullscreen = fullscreenAtom != 0 && states.contains(fullscreenAtom)
                facts.hidden = hiddenAtom != 0 && states.contains(hiddenAtom)
            }
            property(cookie.extents) { facts.frame = Self.values32($0) ?? [] }
            if let reply = xcb_get_geometry_reply(c, cookie.geometry, nil) {
                facts.width = Double(reply.pointee.width) + 2 * Double(reply.pointee.border_width)
                facts.height = Double(reply.pointee.height) + 2 * Double(reply.pointee.border_width)
                free(reply)
            } else {
                alive = false
            }
            if let reply = xcb_translate_coordinates_reply(c, cookie.translate, nil) {
                facts.x = Double(reply.pointee.dst_x)
                facts.y = Double(reply.pointee.dst_y)
                free(reply)
            } else {
                alive = false
            }
            if let reply = xcb_get_window_attributes_reply(c, cookie.attributes, nil) {
                facts.viewable = reply.pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue)
                free(reply)
            } else {
                alive = false
            }
            // A window destroyed since the list was read answers with errors: it is left out.
            if alive { result.append(facts) }
        }
        return result
    }
}
