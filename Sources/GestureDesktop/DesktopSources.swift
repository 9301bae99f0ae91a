/// The reader for a chosen backend.
public enum DesktopSources {
    public static func make(_ choice: BackendChoice) -> DesktopSource {
        switch choice.backend {
        case .sway: SwaySource(path: choice.target, dialect: .sway)
        case .i3: SwaySource(path: choice.target, dialect: .i3)
        case .hyprland: HyprlandSource(directory: choice.target)
        case .niri: NiriSource(path: choice.target)
        case .x11: X11Source(display: choice.target)
        case .gnome: GnomeSource(address: choice.target.isEmpty ? nil : choice.target)
        }
    }
}
