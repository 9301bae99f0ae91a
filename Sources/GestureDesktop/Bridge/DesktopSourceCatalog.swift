/// The reader for a chosen backend.
public enum DesktopSourceCatalog {
    /// Where the package installs the KWin script.
    public static let installedKWinScript = "/usr/share/gestured/kwin/gestured.js"

    /// `kwinScript`: the script to load on KDE; nil for the one `DesktopAssets` finds (the package's,
    /// or the checkout's when this binary was built from one).
    public static func make(_ choice: BackendChoice, kwinScript: String? = nil,
                            environment: [String: String] = [:]) -> DesktopSource {
        switch choice.backend {
        case .sway: SwaySource(path: choice.target, dialect: .sway)
        case .i3: SwaySource(path: choice.target, dialect: .i3)
        case .hyprland: HyprlandSource(directory: choice.target)
        case .niri: NiriSource(path: choice.target)
        case .x11: X11Source(display: choice.target)
        case .gnome: GnomeSource(address: choice.target.isEmpty ? nil : choice.target, environment: environment)
        case .kde:
            if let kwinScript {
                KWinSource(address: choice.target.isEmpty ? nil : choice.target, scriptPath: kwinScript)
            } else {
                KWinSource(address: choice.target.isEmpty ? nil : choice.target,
                           script: DesktopAssets.locate(DesktopAssets.kwinScript, environment: environment))
            }
        }
    }
}
