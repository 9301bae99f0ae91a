/// The desktop as a session bridge describes it (docs/desktop.md): the outputs, then the windows
/// visible on them, in output logical pixels. Plain values, and the one model of the desktop: every
/// bridge reader (sway, Hyprland, niri, X11, GNOME, KWin) produces it, the protocol's
/// `DesktopSnapshot` encodes and decodes it, and the engine turns it into regions
/// (GestureEngine+Desktop.swift).
public struct Desktop: Hashable, Sendable {
    public var outputs: [DesktopOutput]
    /// In the order the bridge sent them; `DesktopWindow.stack` orders them bottom to top.
    public var windows: [DesktopWindow]
    public var pointer: DesktopPointer?

    public init(outputs: [DesktopOutput] = [], windows: [DesktopWindow] = [], pointer: DesktopPointer? = nil) {
        self.outputs = outputs
        self.windows = windows
        self.pointer = pointer
    }

    /// The windows bottom-most first: by `stack`, equal stacks in list order (later on top).
    public var windowsBottomToTop: [DesktopWindow] {
        windows.enumerated().sorted { ($0.element.stack, $0.offset) < ($1.element.stack, $1.offset) }.map(\.element)
    }

    /// The windows bottom-most first (as `windowsBottomToTop`), their `stack` numbered 0, 1, 2… from
    /// the bottom: for readers whose compositor gives a stacking order in its own numbers.
    public var windowsRestacked: [DesktopWindow] {
        windowsBottomToTop.enumerated().map { index, window in
            var window = window
            window.stack = index
            return window
        }
    }

    /// The output whose global rectangle holds the global point (x, y), and the point relative to it.
    public func pointer(atGlobalX x: Double, y: Double) -> DesktopPointer? {
        for output in outputs where x >= output.x && x < output.x + output.width && y >= output.y && y < output.y + output.height {
            return DesktopPointer(output: output.name, x: x - output.x, y: y - output.y)
        }
        return nil
    }

    /// The output with this name.
    public func output(named name: String) -> DesktopOutput? { outputs.first { $0.name == name } }

    /// The windows of output `name`, bottom-most first: by `stack`, equal stacks in list order.
    public func windows(on name: String) -> [DesktopWindow] {
        windows.enumerated().filter { $0.element.output == name }
            .sorted { $0.element.stack != $1.element.stack ? $0.element.stack < $1.element.stack : $0.offset < $1.offset }
            .map(\.element)
    }

    /// The output a touchscreen covers when the config names none: the only output; else the first
    /// built-in panel (a name starting with `eDP`, `LVDS` or `DSI`); else none.
    public var defaultTouchscreenOutput: String? {
        if outputs.count == 1 { return outputs[0].name }
        return outputs.first { o in ["eDP", "LVDS", "DSI"].contains { o.name.hasPrefix($0) } }?.name
    }

    /// The topmost window of output `name` containing `point` (output logical pixels), or nil.
    public func window(at point: Point, on name: String) -> DesktopWindow? {
        windows(on: name).last { w in
            point.x >= w.x && point.x < w.x + w.width && point.y >= w.y && point.y < w.y + w.height
        }
    }
}

extension SurfaceConfiguration {
    /// The surface of a touchscreen bound to output `o` while a bridge is connected: the output's
    /// logical size, and its transform's rotation (a flip is left to a calibration matrix).
    public func following(_ o: DesktopOutput) -> SurfaceConfiguration {
        var surface = self
        surface.size = Point(x: o.width, y: o.height)
        surface.rotation = o.transform.rotation
        return surface
    }
}

/// One output (monitor) of the desktop.
public struct DesktopOutput: Hashable, Sendable {
    public var name: String
    /// Position in the compositor's global logical space (informational).
    public var x: Double
    public var y: Double
    /// Logical size, after scale and transform: what windows are laid out in.
    public var width: Double
    public var height: Double
    public var scale: Double
    public var transform: OutputTransform
    /// Whether the output has the focus; nil when the backend does not say.
    public var focused: Bool?

    public init(name: String, x: Double = 0, y: Double = 0, width: Double, height: Double, scale: Double = 1,
                transform: OutputTransform = .normal, focused: Bool? = nil) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.scale = scale
        self.transform = transform
        self.focused = focused
    }
}

/// An output's transform with sway's names and meaning (clockwise, as `swaymsg output X transform 90`).
/// Every desktop reports the one `wl_output` transform (X11's RandR rotation maps onto it), each
/// with its own spelling; the readers turn theirs into this.
public enum OutputTransform: String, Hashable, Sendable, CaseIterable {
    case normal, rotated90 = "90", rotated180 = "180", rotated270 = "270"
    case flipped, flipped90 = "flipped-90", flipped180 = "flipped-180", flipped270 = "flipped-270"

    /// From the `wl_output.transform` enum's value (0...7: normal, 90, 180, 270, flipped,
    /// flipped-90, flipped-180, flipped-270), as Hyprland, Mutter and KWin report it.
    public init?(waylandValue: Int) {
        let all: [OutputTransform] = [.normal, .rotated90, .rotated180, .rotated270,
                                      .flipped, .flipped90, .flipped180, .flipped270]
        guard all.indices.contains(waylandValue) else { return nil }
        self = all[waylandValue]
    }

    /// Whether the output's width and height trade places (a quarter turn).
    public var swapsAxes: Bool {
        switch self {
        case .rotated90, .rotated270, .flipped90, .flipped270: true
        case .normal, .rotated180, .flipped, .flipped180: false
        }
    }

    /// The rotation a touchscreen on this output takes (the flip is not applied: a touch surface is
    /// mirrored only by a calibration matrix).
    public var rotation: SurfaceRotation {
        switch self {
        case .normal, .flipped: .none
        case .rotated90, .flipped90: .clockwise90
        case .rotated180, .flipped180: .upsideDown
        case .rotated270, .flipped270: .clockwise270
        }
    }

    public var isFlipped: Bool {
        switch self {
        case .normal, .rotated90, .rotated180, .rotated270: false
        case .flipped, .flipped90, .flipped180, .flipped270: true
        }
    }
}

/// One visible window: its frame as the user sees it (decorations included), relative to its
/// output's top-left.
public struct DesktopWindow: Hashable, Sendable {
    /// The compositor's id (sway con id, X11 window id in decimal, Hyprland address, niri id, Mutter
    /// window id, KWin internal id).
    public var id: String
    /// Wayland app_id or X11 WM_CLASS class; may be empty.
    public var app: String
    public var title: String
    public var pid: Int?
    public var output: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// Larger is nearer the top.
    public var stack: Int
    public var focused: Bool
    public var floating: Bool
    public var fullscreen: Bool
    public var workspace: String?

    public init(id: String, app: String = "", title: String = "", pid: Int? = nil, output: String,
                x: Double, y: Double, width: Double, height: Double, stack: Int = 0, focused: Bool = false,
                floating: Bool = false, fullscreen: Bool = false, workspace: String? = nil) {
        self.id = id
        self.app = app
        self.title = title
        self.pid = pid
        self.output = output
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.stack = stack
        self.focused = focused
        self.floating = floating
        self.fullscreen = fullscreen
        self.workspace = workspace
    }

    /// The id of the region that follows this window.
    public var regionID: String { DesktopRegions.windowPrefix + id }

    /// How people read it: `window:12 (foot "~")`.
    public var label: String { "\(regionID) (\(app) \"\(title)\")" }
}

/// Where the pointer is, when the bridge's backend knows it.
public struct DesktopPointer: Hashable, Sendable {
    public var output: String
    public var x: Double
    public var y: Double
    public init(output: String, x: Double, y: Double) {
        self.output = output
        self.x = x
        self.y = y
    }
}

/// The ids of the regions that follow the desktop.
public enum DesktopRegions {
    public static let outputPrefix = "output:"
    public static let windowPrefix = "window:"

    /// Whether `id` names an output or window region (reserved: no config region nor attached one).
    public static func isDesktopRegion(_ id: String) -> Bool {
        id.hasPrefix(outputPrefix) || id.hasPrefix(windowPrefix)
    }
}
