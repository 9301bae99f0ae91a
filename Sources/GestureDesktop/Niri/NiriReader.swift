import GestureCore

/// Reads niri's `Outputs`, `Workspaces` and `Windows` replies (`{"Ok":{"Windows":[...]}}`) into a
/// scene: the windows of each output's active workspace. niri gives a window's position in its
/// workspace view (`layout.tile_pos_in_workspace_view`) for floating windows only: tiled windows of
/// its scrolling layout have none over IPC, and are left out (counted in `leftOut`).
public enum NiriReader {
    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The response inside a reply: `{"Ok":{"<name>":value}}`; `{"Err":"..."}` is a failure.
    public static func response(_ reply: DesktopJSON, _ name: String) throws(Failure) -> DesktopJSON {
        if let error = reply["Err"] { throw Failure(description: "niri answered \(name) with an error: \(error.string ?? "?")") }
        guard let value = reply["Ok"]?[name] else { throw Failure(description: "\(name): expected {\"Ok\":{\"\(name)\":...}}") }
        return value
    }

    static let transforms: [String: OutputTransform] = [
        "Normal": .normal, "90": .rotated90, "180": .rotated180, "270": .rotated270,
        "Flipped": .flipped, "Flipped90": .flipped90, "Flipped180": .flipped180, "Flipped270": .flipped270,
    ]

    public static func scene(outputs: DesktopJSON, workspaces: DesktopJSON, windows: DesktopJSON,
                             focusedOutput: String? = nil) throws(Failure) -> (scene: Desktop, leftOut: Int) {
        guard let outputMap = outputs.fields else { throw Failure(description: "Outputs: expected a map of outputs by name") }
        guard let workspaceList = workspaces.array else { throw Failure(description: "Workspaces: expected a list") }
        guard let windowList = windows.array else { throw Failure(description: "Windows: expected a list") }
        var scene = Desktop()
        for (key, output) in outputMap {
            guard let logical = output["logical"], let width = logical["width"]?.number, let height = logical["height"]?.number
            else { continue }
            scene.outputs.append(DesktopOutput(
                name: output["name"]?.string ?? key, x: logical["x"]?.number ?? 0, y: logical["y"]?.number ?? 0,
                width: width, height: height, scale: logical["scale"]?.number ?? 1,
                transform: logical["transform"]?.string.flatMap { transforms[$0] } ?? .normal))
        }
        var activeOutput: [Int: (output: String, name: String, focused: Bool)] = [:]
        for workspace in workspaceList where workspace["is_active"]?.bool == true {
            guard let id = workspace["id"]?.int, let output = workspace["output"]?.string else { continue }
            let name = workspace["name"]?.string ?? workspace["idx"]?.int.map(String.init) ?? String(id)
            activeOutput[id] = (output, name, workspace["is_focused"]?.bool ?? false)
        }
        for index in scene.outputs.indices {
            let name = scene.outputs[index].name
            scene.outputs[index].focused = activeOutput.values.contains { $0.output == name && $0.focused }
        }
        var leftOut = 0
        struct Placed {
            var window: DesktopWindow
            var recency: Double
        }
        var placed: [Placed] = []
        for window in windowList {
            guard let id = window["id"]?.int, let workspaceID = window["workspace_id"]?.int,
                  let shown = activeOutput[workspaceID], scene.outputs.contains(where: { $0.name == shown.output }) else { continue }
            let layout = window["layout"]
            guard let position = layout?["tile_pos_in_workspace_view"]?.array, position.count == 2,
                  let x = position[0].number, let y = position[1].number,
                  let size = layout?["tile_size"]?.array, size.count == 2, let w = size[0].number, let h = size[1].number
            else {
                leftOut += 1
                continue
            }
            let floating = window["is_floating"]?.bool ?? false
            let stamp = window["focus_timestamp"]
            let recency = (stamp?["secs"]?.number ?? 0) + (stamp?["nanos"]?.number ?? 0) / 1e9
            placed.append(Placed(window: DesktopWindow(
                id: String(id), app: window["app_id"]?.string ?? "", title: window["title"]?.string ?? "",
                pid: window["pid"]?.int, output: shown.output, x: x, y: y, width: w, height: h, stack: 0,
                focused: window["is_focused"]?.bool ?? false, floating: floating, fullscreen: false,
                workspace: shown.name), recency: floating ? recency : -1))
        }
        // Tiled windows below floating ones; floating ones by when they were focused, the latest on top.
        let ordered = placed.enumerated().sorted {
            ($0.element.window.floating ? 1 : 0, $0.element.recency, $0.offset) < ($1.element.window.floating ? 1 : 0, $1.element.recency, $1.offset)
        }
        for (stack, item) in ordered.enumerated() {
            var window = item.element.window
            window.stack = stack
            scene.windows.append(window)
        }
        return (scene, leftOut)
    }
}
