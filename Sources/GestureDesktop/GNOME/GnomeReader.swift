import GestureCore
/// Reads GNOME Shell's desktop: the outputs from Mutter's `org.gnome.Mutter.DisplayConfig.GetCurrentState`
/// reply (its arguments as `DBusDecoding` renders them, which is `busctl --json`'s form), the windows
/// from the gestured Shell extension's `GetWindows` JSON (desktop/gnome-shell; docs/desktop.md, "GNOME").
///
/// - Outputs: one per logical monitor, named by its first monitor's connector (`eDP-1`, `Meta-0`),
///   at its position; its size is the current mode's, turned by the transform and, in the logical
///   layout mode (`scale-monitor-framebuffer`), divided by the scale. The transform is the
///   `wl_output` enum's value (Mutter's `MetaMonitorTransform`: 1 is "90").
/// - Windows: the ordinary kinds (normal, dialog, modal dialog, toolbar, utility) that are not
///   minimized, are on the active workspace or on all of them, and have a frame; none while the
///   Activities overview shows (a touch then lands on the overview). Each belongs to the output
///   holding its centre (else the one it overlaps most) and is placed relative to it. GNOME is a
///   stacking window manager: every window floats; the stack is Mutter's stacking order.
/// - App id: the Wayland app id / X11 WM_CLASS class (`get_wm_class()`, what Looking Glass shows),
///   else the GTK application id, else the Flatpak id, else the `.desktop` id without `.desktop`.
public enum GnomeReader {
    /// The extension format this reader understands (the extension's `version`).
    public static let formatVersion = 1

    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Mutter's window types kept (`Meta.WindowType`): normal 0, dialog 3, modal dialog 4, toolbar 5, utility 7.
    static let keptWindowTypes: Set<Int> = [0, 3, 4, 5, 7]

    /// The outputs of a `GetCurrentState` reply: `(serial, monitors, logical_monitors, properties)`.
    public static func outputs(currentState arguments: [DesktopJSON]) throws(Failure) -> [DesktopOutput] {
        guard arguments.count >= 4, let monitors = arguments[1].array, let logical = arguments[2].array else {
            throw Failure(description: "GetCurrentState: expected (serial, monitors, logical monitors, properties)")
        }
        // 1 logical, 2 physical (Mutter's MetaLogicalMonitorLayoutMode); physical when not said.
        let layoutMode = variantData(arguments[3]["layout-mode"])?.int ?? 2
        var modeSizes: [String: (Double, Double)] = [:]
        for monitor in monitors {
            guard let parts = monitor.array, parts.count >= 2, let connector = parts[0].array?.first?.string,
                  let modes = parts[1].array else { continue }
            for mode in modes {
                guard let fields = mode.array, fields.count >= 7, let width = fields[1].number, let height = fields[2].number,
                      variantData(fields[6]["is-current"])?.bool == true else { continue }
                modeSizes[connector] = (width, height)
            }
        }
        var outputs: [DesktopOutput] = []
        for item in logical {
            guard let fields = item.array, fields.count >= 6, let x = fields[0].number, let y = fields[1].number,
                  let connectors = fields[5].array, let name = connectors.first?.array?.first?.string,
                  let (modeWidth, modeHeight) = modeSizes[name] else { continue }
            let scale = fields[2].number.flatMap { $0 > 0 ? $0 : nil } ?? 1
            let transform = fields[3].int.flatMap(OutputTransform.init(waylandValue:)) ?? .normal
            var (width, height) = transform.swapsAxes ? (modeHeight, modeWidth) : (modeWidth, modeHeight)
            if layoutMode == 1 {
                width = (width / scale).rounded()
                height = (height / scale).rounded()
            }
            outputs.append(DesktopOutput(name: name, x: x, y: y, width: width, height: height, scale: scale,
                                         transform: transform, focused: nil))
        }
        return outputs
    }

    /// The scene: these outputs and the extension's windows (its `GetWindows` JSON).
    public static func scene(outputs: [DesktopOutput], windows json: DesktopJSON) throws(Failure) -> Desktop {
        var scene = Desktop(outputs: outputs)
        guard let version = json["version"]?.int else { throw Failure(description: "GetWindows: expected an object with a version") }
        guard version == formatVersion else {
            throw Failure(description: "the Shell extension speaks format \(version), this gesturectl format \(formatVersion): install the extension of this gestured package")
        }
        guard let list = json["windows"]?.array else { throw Failure(description: "GetWindows: expected a list of windows") }
        if let pointer = json["pointer"]?.array, pointer.count == 2, let x = pointer[0].number, let y = pointer[1].number {
            scene.pointer = scene.pointer(atGlobalX: x, y: y)
        }
        if json["overview"]?.bool == true { return scene }
        let activeWorkspace = json["activeWorkspace"]?.int
        for (index, item) in list.enumerated() {
            guard let id = item["id"]?.string, let x = item["x"]?.number, let y = item["y"]?.number,
                  let width = item["width"]?.number, let height = item["height"]?.number, width > 0, height > 0,
                  keptWindowTypes.contains(item["type"]?.int ?? 0), item["minimized"]?.bool != true else { continue }
            let workspace = item["workspace"]?.int
            if let workspace, workspace >= 0, let activeWorkspace, workspace != activeWorkspace { continue }
            guard let output = OutputPlacement.output(holding: (x, y, width, height), in: outputs) else { continue }
            let window = DesktopWindow(
                id: id, app: appID(item), title: item["title"]?.string ?? "",
                pid: item["pid"]?.int.flatMap { $0 > 0 ? $0 : nil }, output: output.name,
                x: x - output.x, y: y - output.y, width: width, height: height, stack: item["stack"]?.int ?? index,
                focused: item["focused"]?.bool ?? false, floating: true, fullscreen: item["fullscreen"]?.bool ?? false,
                workspace: workspace.map { $0 < 0 ? "all" : String($0 + 1) })
            scene.windows.append(window)
        }
        scene.windows = scene.windowsRestacked
        return scene
    }

    static func appID(_ item: DesktopJSON) -> String {
        for key in ["wmClass", "gtkApplicationId", "sandboxedAppId"] {
            if let value = item[key]?.string, !value.isEmpty { return value }
        }
        if let desktop = item["desktopId"]?.string, desktop.hasSuffix(".desktop") { return String(desktop.dropLast(8)) }
        return ""
    }

    /// A variant's value (`{"type": …, "data": …}`), or the value itself.
    static func variantData(_ value: DesktopJSON?) -> DesktopJSON? {
        guard let value else { return nil }
        if value["type"]?.string != nil, let data = value["data"] { return data }
        return value
    }
}
