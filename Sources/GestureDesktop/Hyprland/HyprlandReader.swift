import GestureCore

/// Reads Hyprland's `j/monitors`, `j/clients`, `j/activewindow` and `j/cursorpos` replies into a
/// scene: the windows of each monitor's active workspace (and of its special workspace when one is
/// shown, above them), pinned floating windows; tiled below floating (the one focused last on top),
/// fullscreen on top. Hyprland's `at` / `size` are the window without its border.
public enum HyprlandReader {
    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func scene(monitors: DesktopJSON, clients: DesktopJSON, activeWindow: DesktopJSON?,
                             cursor: DesktopJSON?) throws(Failure) -> Desktop {
        guard let monitorList = monitors.array else { throw Failure(description: "j/monitors: expected a list of monitors") }
        guard let clientList = clients.array else { throw Failure(description: "j/clients: expected a list of clients") }
        var scene = Desktop()
        struct Monitor {
            var id: Int?
            var output: DesktopOutput
            var workspace: Int?
            var special: Int?
        }
        var shown: [Monitor] = []
        for item in monitorList {
            guard let name = item["name"]?.string, item["disabled"]?.bool != true,
                  let width = item["width"]?.number, let height = item["height"]?.number else { continue }
            let scale = item["scale"]?.number.flatMap { $0 > 0 ? $0 : nil } ?? 1
            let transform = item["transform"]?.int.flatMap(OutputTransform.init(waylandValue:)) ?? .normal
            let (w, h) = transform.swapsAxes ? (height / scale, width / scale) : (width / scale, height / scale)
            let output = DesktopOutput(name: name, x: item["x"]?.number ?? 0, y: item["y"]?.number ?? 0,
                                       width: w, height: h, scale: scale, transform: transform, focused: item["focused"]?.bool)
            let special = item["specialWorkspace"]?["id"]?.int
            shown.append(Monitor(id: item["id"]?.int, output: output, workspace: item["activeWorkspace"]?["id"]?.int,
                                 special: special == 0 ? nil : special))
            scene.outputs.append(output)
        }
        let active = activeWindow?["address"]?.string
        struct Placed {
            var window: DesktopWindow
            var layer: Int
            var recency: Int
        }
        var placed: [Placed] = []
        for client in clientList {
            guard client["mapped"]?.bool != false, client["hidden"]?.bool != true,
                  let address = client["address"]?.string,
                  let at = client["at"]?.array, at.count == 2, let x = at[0].number, let y = at[1].number,
                  let size = client["size"]?.array, size.count == 2, let w = size[0].number, let h = size[1].number
            else { continue }
            let workspace = client["workspace"]?["id"]?.int
            let floating = client["floating"]?.bool ?? false
            let pinned = client["pinned"]?.bool ?? false
            let monitorID = client["monitor"]?.int
            guard let monitor = shown.first(where: { $0.id != nil && $0.id == monitorID })
                    ?? shown.first(where: { workspace != nil && ($0.workspace == workspace || $0.special == workspace) }) else { continue }
            let onSpecial = workspace != nil && workspace == monitor.special
            guard onSpecial || (workspace != nil && workspace == monitor.workspace) || (pinned && floating) else { continue }
            let fullscreen: Bool
            switch client["fullscreen"] {
            case .bool(let b)?: fullscreen = b
            case .number(let mode)?: fullscreen = Int(mode) & 2 != 0  // 1 maximized, 2 fullscreen, 3 both
            default: fullscreen = false
            }
            let layer = (onSpecial ? 3 : 0) + (fullscreen ? 2 : floating ? 1 : 0)
            let window = DesktopWindow(id: address, app: client["class"]?.string ?? "", title: client["title"]?.string ?? "",
                                       pid: client["pid"]?.int.flatMap { $0 > 0 ? $0 : nil }, output: monitor.output.name,
                                       x: x - monitor.output.x, y: y - monitor.output.y, width: w, height: h, stack: 0,
                                       focused: address == active, floating: floating, fullscreen: fullscreen,
                                       workspace: client["workspace"]?["name"]?.string)
            placed.append(Placed(window: window, layer: layer, recency: -(client["focusHistoryID"]?.int ?? 0)))
        }
        let ordered = placed.enumerated().sorted {
            ($0.element.layer, $0.element.layer % 3 == 1 ? $0.element.recency : 0, $0.offset)
                < ($1.element.layer, $1.element.layer % 3 == 1 ? $1.element.recency : 0, $1.offset)
        }
        for (stack, item) in ordered.enumerated() {
            var window = item.element.window
            window.stack = stack
            scene.windows.append(window)
        }
        if let x = cursor?["x"]?.number, let y = cursor?["y"]?.number {
            scene.pointer = scene.pointer(atGlobalX: x, y: y)
        }
        return scene
    }
}
