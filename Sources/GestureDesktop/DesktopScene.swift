/// What a compositor shows now, as the bridge reads it: outputs, the visible windows and, where the
/// backend knows it, the pointer. Values only; the `desktop` request's lines are written from it
/// (`DesktopRequestLines`). Rectangles are logical pixels relative to their output's top-left.
public struct DesktopScene: Equatable, Sendable {
    public var outputs: [DesktopOutput]
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
}

public struct DesktopOutput: Equatable, Sendable {
    public var name: String
    /// Position in the compositor's global logical space (informational).
    public var x: Double
    public var y: Double
    /// Logical size, after scale and transform: what windows are laid out in.
    public var width: Double
    public var height: Double
    public var scale: Double
    public var transform: OutputTransform
    public var focused: Bool?

    public init(name: String, x: Double, y: Double, width: Double, height: Double, scale: Double = 1,
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

/// An output's transform with sway's names and meaning (`swaymsg output X transform 90`). Sway,
/// Hyprland and niri all report the one `wl_output` transform, each with its own spelling.
public enum OutputTransform: String, Equatable, Sendable, CaseIterable {
    case normal
    case rotated90 = "90"
    case rotated180 = "180"
    case rotated270 = "270"
    case flipped
    case flipped90 = "flipped-90"
    case flipped180 = "flipped-180"
    case flipped270 = "flipped-270"

    /// From the `wl_output.transform` enum's value (0...7), as Hyprland reports it.
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
}

public struct DesktopWindow: Equatable, Sendable {
    /// The compositor's id: sway con id, X11 window id in decimal, Hyprland address, niri id.
    public var id: String
    /// Wayland app id or the X11 WM_CLASS class; may be empty.
    public var app: String
    public var title: String
    public var pid: Int?
    public var output: String
    /// The frame as the user sees it (decorations included), relative to the output's top-left.
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

    public init(id: String, app: String, title: String, pid: Int? = nil, output: String,
                x: Double, y: Double, width: Double, height: Double, stack: Int,
                focused: Bool = false, floating: Bool = false, fullscreen: Bool = false, workspace: String? = nil) {
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
}

/// Where the pointer is, relative to an output's top-left.
public struct DesktopPointer: Equatable, Sendable {
    public var output: String
    public var x: Double
    public var y: Double

    public init(output: String, x: Double, y: Double) {
        self.output = output
        self.x = x
        self.y = y
    }
}

extension DesktopScene {
    /// The output whose global rectangle holds the global point (x, y), and the point relative to it.
    func pointer(atGlobalX x: Double, y: Double) -> DesktopPointer? {
        for output in outputs where x >= output.x && x < output.x + output.width && y >= output.y && y < output.y + output.height {
            return DesktopPointer(output: output.name, x: x - output.x, y: y - output.y)
        }
        return nil
    }
}
