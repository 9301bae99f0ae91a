import FoundationEssentials
import GestureCore

// The JSON form of the core's desktop types, as the `desktop` request carries them
// (docs/protocol.md, "The desktop bridge"). Optional keys decode to their defaults; the encoder
// writes every key that has a value. A transform no one knows is an error at its JSON path.

/// A field whose value the type cannot hold, at its JSON path (`outputs[0].transform`).
struct DesktopFieldError: Error {
    var codingPath: [any CodingKey]
    var message: String
}

extension DesktopOutput: Codable {
    enum CodingKeys: String, CodingKey { case name, x, y, width, height, scale, transform, focused }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let spelled = try c.decodeIfPresent(String.self, forKey: .transform) ?? OutputTransform.normal.rawValue
        guard let transform = OutputTransform(rawValue: spelled) else {
            throw DesktopFieldError(codingPath: c.codingPath + [CodingKeys.transform], message: "expected one of "
                + OutputTransform.allCases.map(\.rawValue).joined(separator: ", ") + ", got '\(spelled)'")
        }
        self.init(name: try c.decode(String.self, forKey: .name),
                  x: try c.decodeIfPresent(Double.self, forKey: .x) ?? 0,
                  y: try c.decodeIfPresent(Double.self, forKey: .y) ?? 0,
                  width: try c.decode(Double.self, forKey: .width),
                  height: try c.decode(Double.self, forKey: .height),
                  scale: try c.decodeIfPresent(Double.self, forKey: .scale) ?? 1,
                  transform: transform,
                  focused: try c.decodeIfPresent(Bool.self, forKey: .focused))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(scale, forKey: .scale)
        try c.encode(transform.rawValue, forKey: .transform)
        try c.encodeIfPresent(focused, forKey: .focused)
    }
}

extension DesktopWindow: Codable {
    enum CodingKeys: String, CodingKey {
        case id, app, title, pid, output, x, y, width, height, stack, focused, floating, fullscreen, workspace
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id),
                  app: try c.decodeIfPresent(String.self, forKey: .app) ?? "",
                  title: try c.decodeIfPresent(String.self, forKey: .title) ?? "",
                  pid: try c.decodeIfPresent(Int.self, forKey: .pid),
                  output: try c.decode(String.self, forKey: .output),
                  x: try c.decode(Double.self, forKey: .x),
                  y: try c.decode(Double.self, forKey: .y),
                  width: try c.decode(Double.self, forKey: .width),
                  height: try c.decode(Double.self, forKey: .height),
                  stack: try c.decodeIfPresent(Int.self, forKey: .stack) ?? 0,
                  focused: try c.decodeIfPresent(Bool.self, forKey: .focused) ?? false,
                  floating: try c.decodeIfPresent(Bool.self, forKey: .floating) ?? false,
                  fullscreen: try c.decodeIfPresent(Bool.self, forKey: .fullscreen) ?? false,
                  workspace: try c.decodeIfPresent(String.self, forKey: .workspace))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(app, forKey: .app)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(pid, forKey: .pid)
        try c.encode(output, forKey: .output)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(stack, forKey: .stack)
        try c.encode(focused, forKey: .focused)
        try c.encode(floating, forKey: .floating)
        try c.encode(fullscreen, forKey: .fullscreen)
        try c.encodeIfPresent(workspace, forKey: .workspace)
    }
}

extension DesktopPointer: Codable {
    enum CodingKeys: String, CodingKey { case output, x, y }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(output: try c.decode(String.self, forKey: .output), x: try c.decode(Double.self, forKey: .x),
                  y: try c.decode(Double.self, forKey: .y))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(output, forKey: .output)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
    }
}

extension Desktop {
    /// The desktop as one JSON object in the `desktop` request's form (`backend`, `outputs`,
    /// `windows`, `pointer`), each window with the `rule` it matched when `rule` names one: what the
    /// `scene` request answers (docs/protocol.md, "The scene").
    public func sceneJSON(backend: String, rule: (DesktopWindow) -> String?) -> String {
        struct RuledWindow: Encodable {
            var window: DesktopWindow
            var rule: String?
            enum Key: String, CodingKey { case rule }
            func encode(to encoder: any Encoder) throws {
                try window.encode(to: encoder)
                var c = encoder.container(keyedBy: Key.self)
                try c.encodeIfPresent(rule, forKey: .rule)
            }
        }
        struct Scene: Encodable {
            var backend: String
            var outputs: [DesktopOutput]
            var windows: [RuledWindow]
            var pointer: DesktopPointer?
        }
        let scene = Scene(backend: backend, outputs: outputs,
                          windows: windows.map { RuledWindow(window: $0, rule: rule($0)) }, pointer: pointer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(scene) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
