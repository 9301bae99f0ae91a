#if canImport(Glibc)
import GestureCore
import Glibc
#endif
import CLibxcb

/// An X11 window manager through EWMH, with plain libxcb requests (pipelined: all of a snapshot's
/// requests go out before the first reply is read). Events: property changes and structure changes
/// (map, unmap, configure) on the root and on every client, and RandR's screen, output and CRTC
/// changes; the pointer is asked at each snapshot. Outputs are RandR's monitors (RandR 1.5), else
/// the whole screen as `screen0`.
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
    /// Whether the server has RandR 1.5 (monitors).
    private var randr = false

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
        randr = false
        if let data = xcb_get_extension_data(c, gestured_xcb_randr_id()), data.pointee.present != 0,
           let version = xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 5), nil) {
            randr = version.pointee.major_version > 1 || version.pointee.minor_version >= 5
            free(version)
            if randr {
                let mask = XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE.rawValue | XCB_RANDR_NOTIFY_MASK_OUTPUT_CHANGE.rawValue
                    | XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE.rawValue
                xcb_randr_select_input(c, root, UInt16(mask))
            }
        }
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
        let outputs = X11Reader.outputs(monitors: randr ? monitors(c) : [], screen: Int(screenNumber),
                                        width: screenSize.width, height: screenSize.height)
        return X11Reader.scene(outputs: outputs, clients: facts, currentDesktop: current, active: active, pointer: pointer)
    }

    /// RandR's active monitors, each with its name and its first output's CRTC rotation.
    private func monitors(_ c: OpaquePointer) -> [X11MonitorFacts] {
        guard let reply = xcb_randr_get_monitors_reply(c, xcb_randr_get_monitors(c, root, 1), nil) else { return [] }
        defer { free(reply) }
        struct Pending {
            var facts: X11MonitorFacts
            var name: xcb_get_atom_name_cookie_t
            var output: xcb_randr_get_output_info_cookie_t?
        }
        var pending: [Pending] = []
        var iterator = xcb_randr_get_monitors_monitors_iterator(reply)
        while iterator.rem > 0, pending.count < 64 {
            let info = iterator.data!
            let m = info.pointee
            let outputs = xcb_randr_monitor_info_outputs_length(info) > 0 ? xcb_randr_monitor_info_outputs(info) : nil
            pending.append(Pending(
                facts: X11MonitorFacts(name: "", x: Double(m.x), y: Double(m.y), width: Double(m.width), height: Double(m.height)),
                name: xcb_get_atom_name(c, m.name),
                output: outputs.map { xcb_randr_get_output_info(c, $0.pointee, xcb_timestamp_t(XCB_CURRENT_TIME)) }))
            xcb_randr_monitor_info_next(&iterator)
        }
        var crtcs: [xcb_randr_get_crtc_info_cookie_t?] = []
        for item in pending {
            var crtc: xcb_randr_get_crtc_info_cookie_t?
            if let cookie = item.output, let output = xcb_randr_get_output_info_reply(c, cookie, nil) {
                if output.pointee.crtc != 0 { crtc = xcb_randr_get_crtc_info(c, output.pointee.crtc, xcb_timestamp_t(XCB_CURRENT_TIME)) }
                free(output)
            }
            crtcs.append(crtc)
        }
        var result: [X11MonitorFacts] = []
        for (item, crtc) in zip(pending, crtcs) {
            var facts = item.facts
            if let name = xcb_get_atom_name_reply(c, item.name, nil) {
                let length = Int(xcb_get_atom_name_name_length(name))
                if let bytes = xcb_get_atom_name_name(name) {
                    facts.name = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
                }
                free(name)
            }
            if let crtc, let info = xcb_randr_get_crtc_info_reply(c, crtc, nil) {
                facts.rotation = info.pointee.rotation
                free(info)
            }
            result.append(facts)
        }
        return result
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
