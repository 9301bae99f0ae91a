/// What GNOME Shell says of the gestured extension (`org.gnome.Shell.Extensions.GetExtensionInfo`), and
/// what a user runs for each case. Pure: the reply, whether the extension's name has an owner on the bus
/// and the variant found at the extension's path are given by the caller (GnomeSource, DesktopCheck).
public enum GnomeExtensionState: Equatable, Sendable {
    /// GNOME Shell knows no extension of that UUID.
    case notInstalled
    /// Installed at `path`, not enabled (GNOME's INACTIVE / DISABLED, INITIALIZED, DEACTIVATING).
    case disabled(path: String)
    /// Enabled and serving its name on the bus.
    case running(path: String)
    /// Enabled, but nobody owns `org.gestured.Desktop`: the Shell has not loaded it yet (installed
    /// after the login) or it is loading.
    case enabledNotRunning(path: String)
    /// The copy at `path` is the variant for other Shell versions (GNOME says OUT_OF_DATE, or ERROR
    /// where the file is of the other kind).
    case wrongVariant(path: String, found: GnomeExtensionVariant?, needed: GnomeExtensionVariant)
    /// Enabled and failed to load: GNOME's error text.
    case failed(path: String, error: String)

    /// GNOME Shell's extension states (js/misc/extensionUtils.js; 46 renamed ENABLED / DISABLED to
    /// ACTIVE / INACTIVE and kept the numbers).
    enum ShellState: Int {
        case active = 1, inactive = 2, error = 3, outOfDate = 4, downloading = 5, initialized = 6
        case deactivating = 7, activating = 8, uninstalled = 99
    }

    /// `info`: the reply's one argument (`a{sv}`, as `DBusDecoding` renders it: each value an object
    /// with `type` and `data`); nil or empty when GNOME does not know the UUID.
    public static func classify(info: DesktopJSON?, ownerPresent: Bool, needed: GnomeExtensionVariant,
                                variantAt: (String) -> GnomeExtensionVariant?) -> GnomeExtensionState {
        func field(_ name: String) -> DesktopJSON? { info?[name]?["data"] ?? info?[name] }
        guard let stateNumber = field("state")?.number, let state = ShellState(rawValue: Int(stateNumber)) else {
            return .notInstalled
        }
        let path = field("path")?.string ?? ""
        let found = path.isEmpty ? nil : variantAt(path)
        switch state {
        case .uninstalled, .downloading:
            return .notInstalled
        case .outOfDate:
            return .wrongVariant(path: path, found: found, needed: needed)
        case .error:
            if let found, found != needed { return .wrongVariant(path: path, found: found, needed: needed) }
            return .failed(path: path, error: field("error")?.string ?? "no error text")
        case .inactive, .initialized, .deactivating:
            if let found, found != needed { return .wrongVariant(path: path, found: found, needed: needed) }
            return .disabled(path: path)
        case .active, .activating:
            return ownerPresent ? .running(path: path) : .enabledNotRunning(path: path)
        }
    }

    public var isRunning: Bool { if case .running = self { true } else { false } }

    /// What the user should know, and what to run; `install` is how to put the right variant where the
    /// Shell finds it (`GnomeExtensionState.installFix`).
    public func explanation(shell: String, install: String) -> (problem: String, fix: String?) {
        let uuid = GnomeSource.extensionUUID
        switch self {
        case .running(let path):
            return ("the gestured extension runs (\(path))", nil)
        case .notInstalled:
            return ("the gestured Shell extension is not installed where \(shell) looks for it", install)
        case .disabled:
            return ("the gestured Shell extension is installed but not enabled", "run: gnome-extensions enable \(uuid)")
        case .enabledNotRunning:
            return ("the gestured Shell extension is enabled but \(shell) has not loaded it (installed after you logged in?)",
                    "log out and in (GNOME Shell loads extensions at login)")
        case .wrongVariant(let path, let found, let needed):
            let what = found.map { "the variant for \($0.summary)" } ?? "a variant \(shell) cannot load"
            return ("\(path) holds \(what); \(shell) needs the one for \(needed.summary)", install)
        case .failed(let path, let error):
            return ("the gestured Shell extension (\(path)) failed to load: \(error)",
                    "gnome-extensions info \(uuid) shows the error; reinstall the gestured package")
        }
    }

    /// How to put the variant a Shell needs where it looks: the package's chooser when the package's
    /// copies are installed, else a link to the checkout's copy.
    public static func installFix(needed: GnomeExtensionVariant, packaged: Bool, copy: String?) -> String {
        let uuid = GnomeSource.extensionUUID
        if packaged {
            return "run: sudo \(GnomeExtensionChooser.path) (it links the package's variant for the installed GNOME Shell), log out and in, then gnome-extensions enable \(uuid)"
        }
        if let copy {
            return "run: mkdir -p ~/.local/share/gnome-shell/extensions && ln -sfn \(copy) ~/.local/share/gnome-shell/extensions/\(uuid), log out and in, then gnome-extensions enable \(uuid)"
        }
        return "install the gestured package (it installs the extension for \(needed.summary)), log out and in, then gnome-extensions enable \(uuid)"
    }
}

/// The package's program that links the right variant into `/usr/share/gnome-shell/extensions`
/// (run by the package's postinst and its trigger on GNOME Shell's files; debian/gestured.triggers).
public enum GnomeExtensionChooser {
    public static let path = "/usr/libexec/gestured/gnome-shell-extension"
}
