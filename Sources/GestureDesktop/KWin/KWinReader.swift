import GestureCore
/// Reads KDE Plasma's desktop: the windows (and KWin 6's outputs) from the gestured KWin script's JSON
/// (desktop/kwin/gestured.js, pushed to the bridge's `org.gestured.KWin1.Windows`), KWin 5.27's output
/// names and scales from `org.kde.KWin.supportInformation`, and rotations from `kscreen-doctor -j`
/// (docs/desktop.md, "KDE Plasma").
///
/// - Outputs: KWin 5.27: the "Screen N:" blocks of the support information (`Name`, `Enabled`,
///   `Geometry: x,y,WxH` in logical pixels, `Scale`); KWin 6: the script's `outputs` (named, from
///   `workspace.screens`). The transform is kscreen-doctor's `rotation` of the output of that name
///   (KScreen's bits, RandR's: 1 none, 2 left = `wl_output` 1 = "90", 4 inverted, 8 right), else normal.
/// - Windows: normal windows, dialogs and utilities, not special (desktop, dock, panel), managed,
///   not minimized, on the current virtual desktop or on all; each on the output holding its centre,
///   relative to it. Every window floats (KWin stacks); the stack is KWin's stacking order.
/// - App id: `resourceClass` (the Wayland app id, or WM_CLASS's class lower-cased for X11, what
///   `kdotool getwindowclassname` prints), else `desktopFileName`.
public enum KWinReader {
    /// The script format this reader understands.
    public static let formatVersion = 1

    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// KWin 5.27's outputs from its support information text.
    public static func outputs(supportInformation text: String) -> [DesktopOutput] {
        var outputs: [DesktopOutput] = []
        var name: String?
        var enabled = true
        var geometry: (Double, Double, Double, Double)?
        var scale = 1.0
        func flush() {
            if let name, enabled, let (x, y, w, h) = geometry, w > 0, h > 0 {
                outputs.append(DesktopOutput(name: name, x: x, y: y, width: w, height: h, scale: scale))
            }
            name = nil
            enabled = true
            geometry = nil
            scale = 1
        }
        var inScreens = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingSpaces
            if line == "Screens" { inScreens = true; continue }
            guard inScreens else { continue }
            if line.hasPrefix("Screen ") && line.hasSuffix(":") { flush(); name = ""; continue }
            if line == "Compositing" { break }
            guard name != nil, let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon], value = line[line.index(after: colon)...].trimmingSpaces
            switch key {
            case "Name": name = value
            case "Enabled": enabled = value != "0"
            case "Scale": scale = Double(value).flatMap { $0 > 0 ? $0 : nil } ?? 1
            case "Geometry":
                // x,y,WxH
                let parts = value.split(separator: ",")
                if parts.count == 3, let x = Double(parts[0]), let y = Double(parts[1]) {
                    let size = parts[2].split(separator: "x")
                    if size.count == 2, let w = Double(size[0]), let h = Double(size[1]) { geometry = (x, y, w, h) }
                }
            default: break
            }
        }
        flush()
        return outputs
    }

    /// The rotation of each output kscreen-doctor names (`kscreen-doctor -j`'s `outputs[].name` / `rotation`).
    public static func rotations(kscreenDoctor json: DesktopJSON) -> [String: OutputTransform] {
        var result: [String: OutputTransform] = [:]
        for output in json["outputs"]?.array ?? [] {
            guard let name = output["name"]?.string, let rotation = output["rotation"]?.int else { continue }
            result[name] = X11Reader.transform(rotation: UInt16(clamping: rotation))
        }
        return result
    }

    /// The scene: the script's windows over these outputs (5.27), or over the script's own (KWin 6).
    public static func scene(windows json: DesktopJSON, outputs supportOutputs: [DesktopOutput],
                             rotations: [String: OutputTransform] = [:]) throws(Failure) -> Desktop {
        guard let version = json["version"]?.int else { throw Failure(description: "the KWin script's JSON: expected an object with a version") }
        guard version == formatVersion else {
            throw Failure(description: "the KWin script speaks format \(version), this gesturectl format \(formatVersion)")
        }
        guard let list = json["windows"]?.array else { throw Failure(description: "the KWin script's JSON: expected a list of windows") }
        var outputs = supportOutputs
        if json["kwin"]?.int == 6, let named = json["outputs"]?.array {
            outputs = named.compactMap { item in
                guard let name = item["name"]?.string, let x = item["x"]?.number, let y = item["y"]?.number,
                      let w = item["width"]?.number, let h = item["height"]?.number, w > 0, h > 0 else { return nil }
                return DesktopOutput(name: name, x: x, y: y, width: w, height: h,
                                     scale: item["scale"]?.number.flatMap { $0 > 0 ? $0 : nil } ?? 1)
            }
        }
        for index in outputs.indices { outputs[index].transform = rotations[outputs[index].name] ?? .normal }
        var scene = Desktop(outputs: outputs)
        let current = json["currentDesktop"]
        for (index, item) in list.enumerated() {
            guard let id = item["id"]?.string, let x = item["x"]?.number, let y = item["y"]?.number,
                  let width = item["width"]?.number, let height = item["height"]?.number, width > 0, height > 0,
                  item["normal"]?.bool == true || item["dialog"]?.bool == true || item["utility"]?.bool == true,
                  item["special"]?.bool != true, item["managed"]?.bool != false, item["deleted"]?.bool != true,
                  item["minimized"]?.bool != true else { continue }
            let onAll = item["onAllDesktops"]?.bool == true
            var workspace: String?
            if let desktops = item["desktops"]?.array {  // KWin 6: desktop ids
                let ids = desktops.compactMap(\.string)
                if !onAll, !ids.isEmpty, let current = current?.string, !ids.contains(current) { continue }
                workspace = onAll ? "all" : ids.first
            } else if let desktop = item["desktop"]?.int {  // 5.27: a number, -1 for all
                if !onAll, desktop >= 0, let current = current?.int, desktop != current { continue }
                workspace = onAll || desktop < 0 ? "all" : String(desktop)
            }
            guard let output = OutputPlacement.output(holding: (x, y, width, height), in: outputs) else { continue }
            var app = item["resourceClass"]?.string ?? ""
            if app.isEmpty { app = item["desktopFileName"]?.string ?? "" }
            let window = DesktopWindow(
                id: id, app: app, title: item["caption"]?.string ?? "",
                pid: item["pid"]?.int.flatMap { $0 > 0 ? $0 : nil }, output: output.name,
                x: x - output.x, y: y - output.y, width: width, height: height, stack: item["stack"]?.int ?? index,
                focused: item["active"]?.bool ?? false, floating: true, fullscreen: item["fullScreen"]?.bool ?? false,
                workspace: workspace)
            scene.windows.append(window)
        }
        scene.windows = scene.windowsRestacked
        return scene
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let first = s.first, first == " " || first == "\t" || first == "\r" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s.removeLast() }
        return String(s)
    }
}
