/// Which compositor to read, from the session's environment or a `--backend` flag.
public enum DesktopBackend: String, CaseIterable, Sendable {
    case sway, i3, hyprland, niri, x11
}

public struct BackendChoice: Equatable, Sendable {
    public var backend: DesktopBackend
    /// The socket path (sway, i3, niri), the Hyprland instance's directory, or the X display.
    public var target: String

    public init(backend: DesktopBackend, target: String) {
        self.backend = backend
        self.target = target
    }

    /// What the environment says, or why nothing can be read: the message names every variable
    /// looked at. `forced` picks the backend; its variable must still be there.
    public static func choose(environment: [String: String], forced: DesktopBackend? = nil) -> Result<BackendChoice, ChoiceFailure> {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func found(_ backend: DesktopBackend) -> BackendChoice? {
            switch backend {
            case .sway: return value("SWAYSOCK").map { BackendChoice(backend: .sway, target: $0) }
            case .i3: return value("I3SOCK").map { BackendChoice(backend: .i3, target: $0) }
            case .hyprland:
                guard let signature = value("HYPRLAND_INSTANCE_SIGNATURE") else { return nil }
                let runtime = value("XDG_RUNTIME_DIR") ?? "/run/user/\(environment["UID"] ?? "0")"
                return BackendChoice(backend: .hyprland, target: "\(runtime)/hypr/\(signature)")
            case .niri: return value("NIRI_SOCKET").map { BackendChoice(backend: .niri, target: $0) }
            case .x11: return value("DISPLAY").map { BackendChoice(backend: .x11, target: $0) }
            }
        }
        if let forced {
            if let choice = found(forced) { return .success(choice) }
            return .failure(ChoiceFailure(message: "--backend \(forced.rawValue): $\(variable(forced)) is not set"))
        }
        let desktop = value("XDG_CURRENT_DESKTOP") ?? ""
        let waylandGNOMEOrKDE = desktop.namesGNOMEOrKDE && value("WAYLAND_DISPLAY") != nil
        // GNOME and KDE Wayland sessions set $DISPLAY for Xwayland, whose windows are only some of them.
        if !waylandGNOMEOrKDE {
            for backend in DesktopBackend.allCases {
                if let choice = found(backend) { return .success(choice) }
            }
        }
        var message = "no compositor to read: looked for $SWAYSOCK (sway), $I3SOCK (i3), $HYPRLAND_INSTANCE_SIGNATURE (Hyprland), $NIRI_SOCKET (niri) and $DISPLAY (X11)"
        if waylandGNOMEOrKDE {
            message += "; this is a \(desktop) Wayland session (XDG_CURRENT_DESKTOP), and GNOME Shell and KWin give other programs no window list without a Shell extension or a KWin script, so gesturectl desktop cannot read them"
        } else {
            message += ", and none is set"
        }
        return .failure(ChoiceFailure(message: message))
    }

    static func variable(_ backend: DesktopBackend) -> String {
        switch backend {
        case .sway: "SWAYSOCK"
        case .i3: "I3SOCK"
        case .hyprland: "HYPRLAND_INSTANCE_SIGNATURE"
        case .niri: "NIRI_SOCKET"
        case .x11: "DISPLAY"
        }
    }
}

public struct ChoiceFailure: Error, Equatable, Sendable {
    public var message: String
}

extension String {
    /// Whether a desktop name (XDG_CURRENT_DESKTOP, colon-separated) names GNOME or KDE.
    var namesGNOMEOrKDE: Bool {
        split(separator: ":").contains { ["gnome", "kde", "plasma"].contains($0.lowercased()) }
    }
}
