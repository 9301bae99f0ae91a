import GestureCore

/// Reads a sway or i3 layout tree (GET_TREE) and the outputs (GET_OUTPUTS) into a scene: the
/// windows of each output's visible workspace, tiled ones below floating ones (in the order sway
/// draws them: a floating window is raised when focused), a fullscreen one on top; frames with their
/// title bar, relative to their output.
public enum SwayTreeReader {
    /// Where the title bar is: sway's `rect` leaves it out (`deco_rect` is the bar, just above);
    /// i3's `rect` holds it (`deco_rect` is inside, relative to the container).
    public enum Dialect: Sendable {
        case sway, i3
    }

    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func scene(tree: DesktopJSON, outputs: DesktopJSON, dialect: Dialect = .sway) throws(Failure) -> Desktop {
        guard let outputList = outputs.array else { throw Failure(description: "GET_OUTPUTS: expected a list of outputs") }
        guard tree["nodes"]?.array != nil else { throw Failure(description: "GET_TREE: expected the root node with its \"nodes\"") }
        var scene = Desktop()
        var currentWorkspace: [String: String] = [:]
        for item in outputList {
            guard let name = item["name"]?.string, name != "__i3", item["active"]?.bool != false,
                  let rect = Rect(item["rect"]) else { continue }
            let transform = item["transform"]?.string.flatMap(OutputTransform.init(rawValue:)) ?? .normal
            scene.outputs.append(DesktopOutput(name: name, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                               scale: item["scale"]?.number ?? 1, transform: transform,
                                               focused: item["focused"]?.bool))
            if let workspace = item["current_workspace"]?.string { currentWorkspace[name] = workspace }
        }
        var stack = 0
        for outputNode in tree["nodes"]?.array ?? [] {
            guard let name = outputNode["name"]?.string, let output = scene.outputs.first(where: { $0.name == name }) else { continue }
            let workspaces = (outputNode["nodes"]?.array ?? []).filter { $0["type"]?.string == "workspace" }
            let visible = workspaces.first { $0["name"]?.string == currentWorkspace[name] }
                ?? workspaces.first { $0["id"]?.int == outputNode["focus"]?.array?.first?.int }
            guard let workspace = visible else { continue }
            var views: [View] = []
            collect(workspace, floating: false, fullscreenAncestor: false, into: &views)
            for floating in workspace["floating_nodes"]?.array ?? [] {
                collect(floating, floating: true, fullscreenAncestor: false, into: &views)
            }
            // i3 has no "visible": a fullscreen container hides the rest of its workspace.
            if views.contains(where: { $0.underFullscreen }) && !views.contains(where: { $0.node["visible"] != nil }) {
                views.removeAll { !$0.underFullscreen }
            }
            let ordered = views.filter { !$0.floating && !$0.fullscreen } + views.filter { $0.floating && !$0.fullscreen }
                + views.filter(\.fullscreen)
            for view in ordered {
                guard let window = window(view, output: output, workspace: workspace["name"]?.string, stack: stack, dialect: dialect) else { continue }
                scene.windows.append(window)
                stack += 1
            }
        }
        return scene
    }

    struct View {
        var node: DesktopJSON
        var floating: Bool
        var underFullscreen: Bool
        var fullscreen: Bool { (node["fullscreen_mode"]?.int ?? 0) != 0 }
    }

    /// The windows under `node`, skipping hidden tabs: sway says `visible`; for i3, a tabbed or
    /// stacked container shows only the child it focused last.
    static func collect(_ node: DesktopJSON, floating: Bool, fullscreenAncestor: Bool, into views: inout [View]) {
        let underFullscreen = fullscreenAncestor || (node["fullscreen_mode"]?.int ?? 0) != 0
        // A workspace's floating windows are read by `scene`, after its tiled ones.
        let children = node["nodes"]?.array ?? []
        if children.isEmpty {
            let isWindow = node["app_id"]?.string != nil || node["window_properties"] != nil || node["window"]?.int != nil
            guard node["type"]?.string != "workspace", isWindow, node["visible"]?.bool != false else { return }
            views.append(View(node: node, floating: floating, underFullscreen: underFullscreen))
            return
        }
        var shown = children
        if node["visible"] == nil, let layout = node["layout"]?.string, layout == "tabbed" || layout == "stacked",
           let focused = node["focus"]?.array?.first?.int {
            shown = children.filter { $0["id"]?.int == focused }
        }
        for child in shown { collect(child, floating: floating, fullscreenAncestor: underFullscreen, into: &views) }
    }

    static func window(_ view: View, output: DesktopOutput, workspace: String?, stack: Int, dialect: Dialect) -> DesktopWindow? {
        let node = view.node
        guard let id = node["id"]?.int, let rect = Rect(node["rect"]) else { return nil }
        let title = node["name"]?.string ?? ""
        let app = node["app_id"]?.string ?? node["window_properties"]?["class"]?.string ?? ""
        let titleBar = dialect == .sway ? Rect(node["deco_rect"])?.height ?? 0 : 0
        return DesktopWindow(id: String(id), app: app, title: title, pid: node["pid"]?.int, output: output.name,
                             x: rect.x - output.x, y: rect.y - titleBar - output.y,
                             width: rect.width, height: rect.height + titleBar, stack: stack,
                             focused: node["focused"]?.bool ?? false, floating: view.floating,
                             fullscreen: view.fullscreen, workspace: workspace)
    }

    struct Rect {
        var x, y, width, height: Double
        init?(_ json: DesktopJSON?) {
            guard let json, let x = json["x"]?.number, let y = json["y"]?.number,
                  let width = json["width"]?.number, let height = json["height"]?.number else { return nil }
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }
}
