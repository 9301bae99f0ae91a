#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// `gesturectl desktop --check`: what works on this desktop and what is missing, each with its fix
/// (docs/desktop.md, "What works here: --check"). It reads once what the bridge would read, and asks
/// the desktop about the parts a bridge needs: GNOME's extension (installed, enabled, the variant for
/// the Shell's version, running), KDE's script (found, loaded and reporting) and kscreen-doctor, the
/// session bus. Whether the daemon answers is asked by the caller (gesturectl owns the socket client).
public enum DesktopCheck {
    public struct Item: Equatable, Sendable {
        public enum Status: String, Sendable {
            case ok
            /// Something a bridge needs is missing: window rules or the desktop do not work.
            case missing
            /// Works, with less than it could (an output's rotation unknown).
            case warning
        }
        public var status: Status
        public var what: String
        public var fix: String?

        public init(_ status: Status, _ what: String, fix: String? = nil) {
            self.status = status
            self.what = what
            self.fix = fix
        }
    }

    /// The desktop's part of the check, for the session this environment describes.
    public static func run(environment: [String: String], forced: DesktopBackend?, kwinScript: String?,
                           onPath: (String) -> Bool = Self.onPath) -> [Item] {
        let choice: BackendChoice
        switch BackendChoice.choose(environment: environment, forced: forced) {
        case .success(let found): choice = found
        case .failure(let failure):
            return [Item(.missing, "which desktop: \(failure.message)",
                         fix: "run gesturectl desktop in your graphical session (the user unit gestured-desktop.service gets its environment from systemd --user), or name it: --backend sway|i3|hyprland|niri|x11|gnome|kde")]
        }
        var items: [Item] = [Item(.ok, "the desktop: \(choice.backend.rawValue) at \(choice.target.isEmpty ? "the session bus" : choice.target)")]
        if choice.backend == .gnome || choice.backend == .kde {
            do {
                let bus = try DBusConnection(address: choice.target.isEmpty ? nil : choice.target)
                bus.close()
                items.append(Item(.ok, "the session bus answers (\(choice.target.isEmpty ? "as libdbus finds it" : choice.target))"))
            } catch {
                items.append(Item(.missing, "no session bus: \(error)",
                                  fix: "run inside the desktop session, where $DBUS_SESSION_BUS_ADDRESS (or $XDG_RUNTIME_DIR/bus) is set"))
                return items
            }
        }
        if choice.backend == .kde, let running = runningKDEBridge(choice: choice) {
            // Another bridge (gestured-desktop.service) owns the script's reply name: a second one
            // cannot load the script, and need not: what it loaded is what the user has.
            items.append(running)
            items.append(kscreenDoctor(onPath: onPath))
            return items
        }
        let source = DesktopSourceCatalog.make(choice, kwinScript: kwinScript, environment: environment)
        do {
            try source.connect()
            defer { source.disconnect() }
            let scene = try source.read()
            let outputs = scene.outputs.map { "\($0.name) \(Int($0.width))x\(Int($0.height))" }.joined(separator: ", ")
            items.append(Item(.ok, "\(name(choice.backend)) answers: \(scene.outputs.count) output\(scene.outputs.count == 1 ? "" : "s")\(outputs.isEmpty ? "" : " (\(outputs))"), \(scene.windows.count) visible window\(scene.windows.count == 1 ? "" : "s")"))
            if choice.backend == .kde {
                items.append(Item(.ok, "the KWin script \(kwinScript ?? (try? DesktopAssets.locate(DesktopAssets.kwinScript, environment: environment).get()) ?? "") loaded and reporting"))
            }
        } catch {
            items.append(Item(.missing, "\(name(choice.backend)) at \(source.target): \(error)", fix: fix(for: choice.backend, error: error)))
            if choice.backend != .gnome { return items }
        }
        switch choice.backend {
        case .gnome:
            items.append(gnomeExtension(choice: choice, environment: environment))
        case .kde:
            items.append(kscreenDoctor(onPath: onPath))
        case .sway, .i3, .hyprland, .niri, .x11:
            break
        }
        return items
    }

    static func kscreenDoctor(onPath: (String) -> Bool) -> Item {
        onPath("kscreen-doctor")
            ? Item(.ok, "kscreen-doctor is installed (outputs' rotations)")
            : Item(.warning, "kscreen-doctor is not installed: outputs are taken as not rotated",
                   fix: "install it: apt install libkscreen-bin (Debian 13) or libkf5screen-bin (Debian 12), dnf install kscreen")
    }

    /// When a bridge already runs in this KDE session: whether its script is loaded in KWin.
    static func runningKDEBridge(choice: BackendChoice) -> Item? {
        guard let bus = try? DBusConnection(address: choice.target.isEmpty ? nil : choice.target) else { return nil }
        defer { bus.close() }
        guard bus.hasOwner(KWinSource.busName) else { return nil }
        let loaded = (try? bus.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "isScriptLoaded",
                                    [.string(KWinSource.scriptName)]))?.first?.bool == true
        return loaded
            ? Item(.ok, "a gesturectl desktop already runs in this session (it owns \(KWinSource.busName)) and its KWin script \(KWinSource.scriptName) is loaded")
            : Item(.missing, "a gesturectl desktop runs in this session (it owns \(KWinSource.busName)) but KWin has no script \(KWinSource.scriptName) loaded",
                   fix: "restart it: systemctl --user restart gestured-desktop (its log says why the script did not load)")
    }

    static func gnomeExtension(choice: BackendChoice, environment: [String: String]) -> Item {
        let bus: DBusConnection
        do { bus = try DBusConnection(address: choice.target.isEmpty ? nil : choice.target) } catch {
            return Item(.missing, "the gestured extension: \(error)")
        }
        defer { bus.close() }
        let version = GnomeSource.shellVersion(bus)
        let shell = version.map { "GNOME Shell \($0)" } ?? "GNOME Shell"
        let needed = version.flatMap(GnomeExtensionVariant.init(shellVersion:)) ?? .modules
        let state = GnomeSource.extensionState(bus, shellVersion: version)
        let explained = state.explanation(shell: shell, install: GnomeSource.installFix(needed: needed, environment: environment))
        return Item(state.isRunning ? .ok : .missing, explained.problem + (state.isRunning ? " for \(shell)" : ""), fix: explained.fix)
    }

    static func name(_ backend: DesktopBackend) -> String {
        switch backend {
        case .sway: "sway"
        case .i3: "i3"
        case .hyprland: "Hyprland"
        case .niri: "niri"
        case .x11: "the X server"
        case .gnome: "GNOME Shell"
        case .kde: "KWin"
        }
    }

    static func fix(for backend: DesktopBackend, error: DesktopSourceError) -> String {
        switch backend {
        case .kde where error.description.contains("KWin script"):
            return "install the gestured package (it puts the script in \(DesktopSourceCatalog.installedKWinScript)), or pass --kwin-script PATH"
        case .kde:
            return "run it inside a KDE Plasma session (KWin must own org.kde.KWin on the session bus)"
        case .gnome:
            return "run it inside a GNOME session (GNOME Shell must own org.gnome.Mutter.DisplayConfig on the session bus)"
        case .sway, .i3, .hyprland, .niri:
            return "run it inside that compositor's session (its socket variable names a live socket)"
        case .x11:
            return "run it inside the X session ($DISPLAY names a live display you may open)"
        }
    }

    /// The report as people read it: one line a check, the fix indented under it.
    public static func text(_ items: [Item]) -> String {
        var lines: [String] = []
        for item in items {
            let tag = switch item.status { case .ok: "ok     "; case .missing: "MISSING"; case .warning: "warning" }
            lines.append("\(tag)  \(item.what)")
            if let fix = item.fix { lines.append("         fix: \(fix)") }
        }
        let missing = items.filter { $0.status == .missing }.count
        lines.append(missing == 0 ? "everything gesturectl desktop needs is here" : "\(missing) thing\(missing == 1 ? "" : "s") missing")
        return lines.joined(separator: "\n") + "\n"
    }

    public static func onPath(_ program: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}
