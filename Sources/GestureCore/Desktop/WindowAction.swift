/// What a binding's `action` does to the window of its gesture (docs/desktop.md, "Actions on the
/// window under the fingers"): the daemon sends it to the session bridge as a `window-action` line
/// (docs/protocol.md), and the bridge has the compositor do it.
public enum WindowAction: Hashable, Sendable {
    case closeWindow
    case maximize
    case minimize
    case fullscreen
    /// Move the window to workspace N (1 is the first).
    case moveToWorkspace(Int)

    /// The names as the config and the protocol write them.
    public static let names = ["close-window", "maximize", "minimize", "fullscreen", "move-to-workspace N"]

    /// `close-window`, `maximize`, `minimize`, `fullscreen`, `move-to-workspace 3`; nil otherwise.
    public init?(text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        switch (words.first, words.count) {
        case ("close-window", 1): self = .closeWindow
        case ("maximize", 1): self = .maximize
        case ("minimize", 1): self = .minimize
        case ("fullscreen", 1): self = .fullscreen
        case ("move-to-workspace", 2):
            guard let n = Int(words[1]), (1...1000).contains(n) else { return nil }
            self = .moveToWorkspace(n)
        default: return nil
        }
    }

    /// The action's name, without its argument.
    public var name: String {
        switch self {
        case .closeWindow: "close-window"
        case .maximize: "maximize"
        case .minimize: "minimize"
        case .fullscreen: "fullscreen"
        case .moveToWorkspace: "move-to-workspace"
        }
    }

    /// As written in the config: `move-to-workspace 3`.
    public var text: String {
        if case .moveToWorkspace(let n) = self { return "\(name) \(n)" }
        return name
    }

    /// The line the daemon sends the bridge:
    /// `{"type":"window-action","window":"12","action":"move-to-workspace","workspace":3,"gesture":"g"}`.
    public func line(window: String, gesture: String) -> String {
        var j = JSONLine()
        j.add("type", "window-action")
        j.add("window", window)
        j.add("action", name)
        if case .moveToWorkspace(let n) = self { j.add("workspace", n) }
        j.add("gesture", gesture)
        return j.line
    }
}
