/// Which compositor to read, from the session's environment or a `--backend` flag.
public enum DesktopBackend: String, CaseIterable, Sendable {
    case sway, i3, hyprland, niri, x11, gnome, kde
}

public struct BackendChoice: Equatable, Sendable {
    public var backend: DesktopBackend
    /// The socket path (sway, i3, niri), the Hyprland instance's directory, the X display, or the
    /// session bus's address (GNOME; empty: the one libdbus finds).
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
            case .gnome: return sessionBus().map { BackendChoice(backend: .gnome, target: $0) }
            case .kde: return sessionBus().map { BackendChoice(backend: .kde, target: $0) }
            }
        }
        /// The session bus as libdbus finds it: $DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
        func sessionBus() -> String? {
            value("DBUS_SESSION_BUS_ADDRESS") ?? value("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" }
        }
        if let forced {
            if let choice = found(forced) { return .success(choice) }
            return .failure(ChoiceFailure(message: "--backend \(forced.rawValue): $\(variable(forced)) is not set"))
        }
        let desktop = value("XDG_CURRENT_DESKTOP") ?? value("DESKTOP_SESSION") ?? ""
        let wayland = value("WAYLAND_DISPLAY") != nil || value("XDG_SESSION_TYPE") == "wayland"
        // GNOME and KDE Wayland sessions set $DISPLAY for Xwayland, whose windows are only some of
        // them: theirs are read over the session bus (their X11 sessions have EWMH, read as X11).
        for (names, backend) in [(desktop.namesGNOME, DesktopBackend.gnome), (desktop.namesKDE, .kde)] where wayland && names {
            if let choice = found(backend) { return .success(choice) }
            return .failure(ChoiceFailure(message: "this is a \(desktop) Wayland session (XDG_CURRENT_DESKTOP), read over the session bus, but neither $DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR is set"))
        }
        for backend in DesktopBackend.allCases where backend != .gnome && backend != .kde {
            if let choice = found(backend) { return .success(choice) }
        }
        return .failure(ChoiceFailure(message: "no compositor to read: looked for $SWAYSOCK (sway), $I3SOCK (i3), $HYPRLAND_INSTANCE_SIGNATURE (Hyprland), $NIRI_SOCKET (niri), $DISPLAY (X11) and a GNOME or KDE Wayland session (XDG_CURRENT_DESKTOP), and none is set"))
    }

    static func variable(_ backend: DesktopBackend) -> String {
        switch backend {
        case .sway: "SWAYSOCK"
        case .i3: "I3SOCK"
        case .hyprland: "HYPRLAND_INSTANCE_SIGNATURE"
        case .niri: "NIRI_SOCKET"
        case .x11: "DISPLAY"
        case .gnome, .kde: "DBUS_SESSION_BUS_ADDRESS"
        }
    }
}

public struct ChoiceFailure: Error, Equatable, Sendable {
    public var message: String
}

extension String {
    /// Whether a desktop name (XDG_CURRENT_DESKTOP, colon-separated; or DESKTOP_SESSION) names GNOME
    /// (`GNOME`, `ubuntu:GNOME`, `GNOME-Classic:GNOME`, `gnome-xorg`).
    var namesGNOME: Bool {
        split(separator: ":").contains { $0.lowercased() == "gnome" || $0.lowercased().hasPrefix("gnome-") }
    }

    /// Whether a desktop name names KDE Plasma.
    var namesKDE: Bool {
        split(separator: ":").contains { ["kde", "plasma", "plasmawayland"].contains($0.lowercased()) }
    }
}
