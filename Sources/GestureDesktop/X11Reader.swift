import GestureCore

/// What the bridge reads of one X11 client window (EWMH / ICCCM properties and its geometry).
public struct X11WindowFacts: Equatable, Sendable {
    public var id: UInt32
    /// WM_CLASS: instance and class, each ending in a NUL byte.
    public var wmClass: [UInt8] = []
    /// _NET_WM_NAME (UTF-8), else WM_NAME.
    public var netName: [UInt8] = []
    public var name: [UInt8] = []
    public var pid: UInt32?
    /// _NET_WM_DESKTOP; 0xFFFFFFFF is every desktop.
    public var desktop: UInt32?
    public var fullscreen = false
    public var hidden = false
    public var viewable = true
    /// The client's origin in root coordinates and its size, without the frame.
    public var x: Double = 0
    public var y: Double = 0
    public var width: Double = 0
    public var height: Double = 0
    /// _NET_FRAME_EXTENTS: left, right, top, bottom.
    public var frame: [UInt32] = []

    public init(id: UInt32) { self.id = id }
}

/// Reads the X11 facts into a scene: one output (the screen), the clients of
/// `_NET_CLIENT_LIST_STACKING` (bottom first) that are mapped, not hidden and on the current
/// desktop or on all of them, each framed by its `_NET_FRAME_EXTENTS`. A stacking window manager
/// lets every window float: `floating` is true.
public enum X11Reader {
    public static func scene(screen: DesktopOutput, clients: [X11WindowFacts], currentDesktop: UInt32?,
                             active: UInt32?, pointer: (x: Double, y: Double)?) -> Desktop {
        var scene = Desktop(outputs: [screen])
        for client in clients {
            guard client.viewable, !client.hidden else { continue }
            if let desktop = client.desktop, let currentDesktop, desktop != 0xFFFF_FFFF, desktop != currentDesktop { continue }
            let extents = client.frame.count == 4 ? client.frame.map(Double.init) : [0, 0, 0, 0]
            scene.windows.append(DesktopWindow(
                id: String(client.id), app: className(client.wmClass),
                title: String(decoding: client.netName.isEmpty ? client.name : client.netName, as: UTF8.self),
                pid: client.pid.map(Int.init), output: screen.name,
                x: client.x - extents[0] - screen.x, y: client.y - extents[2] - screen.y,
                width: client.width + extents[0] + extents[1], height: client.height + extents[2] + extents[3],
                stack: scene.windows.count, focused: client.id == active, floating: true, fullscreen: client.fullscreen,
                workspace: client.desktop.map { $0 == 0xFFFF_FFFF ? "all" : String($0 + 1) }))
        }
        if let pointer { scene.pointer = scene.pointer(atGlobalX: pointer.x, y: pointer.y) }
        return scene
    }

    /// The class, WM_CLASS's second string (the first one when there is only one).
    public static func className(_ wmClass: [UInt8]) -> String {
        let parts = wmClass.split(separator: 0, omittingEmptySubsequences: false)
        let chosen = parts.count >= 2 && !parts[1].isEmpty ? parts[1] : parts.first ?? []
        return String(decoding: chosen, as: UTF8.self)
    }
}
