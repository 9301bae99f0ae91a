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
        scene(outputs: [screen], clients: clients, currentDesktop: currentDesktop, active: active, pointer: pointer)
    }

    /// With RandR's monitors as the outputs: each window belongs to the output holding its centre
    /// (else the one it overlaps most; a window on none is left out), relative to it.
    public static func scene(outputs: [DesktopOutput], clients: [X11WindowFacts], currentDesktop: UInt32?,
                             active: UInt32?, pointer: (x: Double, y: Double)?) -> Desktop {
        var scene = Desktop(outputs: outputs)
        for client in clients {
            guard client.viewable, !client.hidden else { continue }
            if let desktop = client.desktop, let currentDesktop, desktop != 0xFFFF_FFFF, desktop != currentDesktop { continue }
            let extents = client.frame.count == 4 ? client.frame.map(Double.init) : [0, 0, 0, 0]
            let frame = (x: client.x - extents[0], y: client.y - extents[2],
                         width: client.width + extents[0] + extents[1], height: client.height + extents[2] + extents[3])
            guard let screen = outputs.count == 1 ? outputs[0] : OutputPlacement.output(holding: frame, in: outputs) else { continue }
            scene.windows.append(DesktopWindow(
                id: String(client.id), app: className(client.wmClass),
                title: String(decoding: client.netName.isEmpty ? client.name : client.netName, as: UTF8.self),
                pid: client.pid.map(Int.init), output: screen.name,
                x: frame.x - screen.x, y: frame.y - screen.y, width: frame.width, height: frame.height,
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

/// One RandR monitor as the X server describes it (`RRGetMonitors`, RandR 1.5): what `xrandr
/// --listmonitors` prints, with the rotation of its first output's CRTC.
public struct X11MonitorFacts: Equatable, Sendable {
    /// The monitor's name: the output's name (`eDP-1`, `HDMI-1`; Xvfb's `screen`) for the monitors
    /// the server makes, or the name given to `xrandr --setmonitor`.
    public var name: String
    public var x: Double
    public var y: Double
    /// In screen pixels, after rotation.
    public var width: Double
    public var height: Double
    /// RandR's rotation bits of the CRTC (1: 0°, 2: 90°, 4: 180°, 8: 270° counter-clockwise;
    /// 16: reflect X, 32: reflect Y); nil when the monitor has no output with a CRTC.
    public var rotation: UInt16?

    public init(name: String, x: Double, y: Double, width: Double, height: Double, rotation: UInt16? = nil) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.rotation = rotation
    }
}

extension X11Reader {
    /// RandR's monitors as outputs (scale 1: X11 has one pixel space), each with its transform.
    public static func outputs(monitors: [X11MonitorFacts]) -> [DesktopOutput] {
        monitors.compactMap { monitor in
            guard !monitor.name.isEmpty, monitor.width > 0, monitor.height > 0 else { return nil }
            return DesktopOutput(name: monitor.name, x: monitor.x, y: monitor.y, width: monitor.width, height: monitor.height,
                                 transform: monitor.rotation.map(transform(rotation:)) ?? .normal)
        }
    }

    /// RandR's monitors as outputs; with none (no RandR, or it names none), the whole screen as one
    /// output named `screenN`.
    public static func outputs(monitors: [X11MonitorFacts], screen: Int, width: Double, height: Double) -> [DesktopOutput] {
        let outputs = outputs(monitors: monitors)
        return outputs.isEmpty ? [DesktopOutput(name: "screen\(screen)", x: 0, y: 0, width: width, height: height)] : outputs
    }

    /// RandR's rotation bits as the `wl_output` transform: RR_Rotate_90 (`xrandr --rotate left`,
    /// a quarter turn counter-clockwise) is "90", as `wl_output` 1 is. A reflection in X is
    /// `flipped`; one in Y is a reflection in X turned by 180°.
    public static func transform(rotation: UInt16) -> OutputTransform {
        let quarterTurns: Int = rotation & 2 != 0 ? 1 : rotation & 4 != 0 ? 2 : rotation & 8 != 0 ? 3 : 0
        let reflectX = rotation & 16 != 0, reflectY = rotation & 32 != 0
        let turns = reflectY ? (quarterTurns + 2) % 4 : quarterTurns
        return OutputTransform(waylandValue: (reflectX != reflectY ? 4 : 0) + turns) ?? .normal
    }
}
