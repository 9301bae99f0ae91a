/// `gesturectl setup`: a commented config whose bindings work on one desktop (docs/setup.md).
/// Pure: the desktop and the device kinds in, the file's text out; `detect` reads the session's
/// environment as the bridge does (`BackendChoice`), the command does the file work.
///
/// Every desktop gets the same gestures (three-finger swipes left / right, four-finger swipes up /
/// down, a pinch, touchscreen swipes in from the top and bottom edges) bound to that desktop's own
/// command or shortcut; a gesture the desktop has nothing for is left out, and the header says so.
public enum DesktopSetup {
    /// What a binding does: a command (IPC where the desktop has it) or keys (its shortcut, sent
    /// through gestured's virtual keyboard).
    public enum Action: Equatable, Sendable {
        case command(String)
        case keys([String])
    }

    /// One desktop's answers.
    struct Plan {
        var title: String
        var nextWorkspace: Action
        var previousWorkspace: Action
        /// Four fingers up / down; nil with the reason the desktop has none.
        var overview: (open: Action, close: Action, does: String)?
        var noOverview: String = ""
        /// Swipe in from the top edge of a touchscreen.
        var panel: (action: Action, does: String)?
        var noPanel: String = ""
        /// Swipe in from the bottom edge.
        var keyboard: (action: Action, does: String)?
        var noKeyboard: String = ""
        /// Why the touchpad is forwarded (the desktop's own touchpad gestures), nil when it is not.
        var forwards: String?
        /// What the commands need, as comment lines.
        var needs: [String]
    }

    static func plan(_ desktop: DesktopBackend) -> Plan {
        let toggle = "show or hide the bar"
        switch desktop {
        case .sway, .i3:
            let msg = desktop == .sway ? "swaymsg" : "i3-msg"
            let name = desktop == .sway ? "sway" : "i3"
            let socket = desktop == .sway ? "SWAYSOCK" : "I3SOCK"
            return Plan(title: name,
                        nextWorkspace: .command("\(msg) workspace next_on_output"),
                        previousWorkspace: .command("\(msg) workspace prev_on_output"),
                        overview: nil, noOverview: "\(name) has no overview",
                        panel: (.command("\(msg) bar mode toggle"), toggle),
                        keyboard: nil, noKeyboard: "\(name) has no on-screen keyboard",
                        forwards: nil,
                        needs: ["\(msg) needs $\(socket) in the daemon's environment: in \(name)'s config,",
                                "  exec systemctl --user import-environment \(socket) WAYLAND_DISPLAY DISPLAY && systemctl --user restart gestured.service gestured-desktop.service",
                                "(recipes.md, \"Sway\")."])
        case .hyprland:
            return Plan(title: "Hyprland",
                        nextWorkspace: .command("hyprctl dispatch workspace e+1"),
                        previousWorkspace: .command("hyprctl dispatch workspace e-1"),
                        overview: nil, noOverview: "Hyprland has no overview without a plugin",
                        panel: nil, noPanel: "Hyprland has no panel of its own",
                        keyboard: nil, noKeyboard: "Hyprland has no on-screen keyboard",
                        forwards: nil,
                        needs: ["hyprctl needs $HYPRLAND_INSTANCE_SIGNATURE in the daemon's environment: in hyprland.conf,",
                                "  exec-once = systemctl --user import-environment HYPRLAND_INSTANCE_SIGNATURE WAYLAND_DISPLAY DISPLAY && systemctl --user restart gestured.service gestured-desktop.service",
                                "Hyprland's own workspace swipe (gestures:workspace_swipe) is off by default; keep it off."])
        case .niri:
            return Plan(title: "niri",
                        nextWorkspace: .command("niri msg action focus-workspace-down"),
                        previousWorkspace: .command("niri msg action focus-workspace-up"),
                        overview: (.command("niri msg action open-overview"), .command("niri msg action close-overview"),
                                   "open / close the overview"),
                        panel: nil, noPanel: "niri has no panel of its own",
                        keyboard: nil, noKeyboard: "niri has no on-screen keyboard",
                        forwards: "niri's own three- and four-finger touchpad swipes would act too",
                        needs: ["niri msg needs $NIRI_SOCKET in the daemon's environment: in niri's config,",
                                "  spawn-at-startup \"sh\" \"-c\" \"systemctl --user import-environment NIRI_SOCKET WAYLAND_DISPLAY && systemctl --user restart gestured.service gestured-desktop.service\"",
                                "(niri's own session, niri-session, imports it already). The overview needs niri 25.05 or later."])
        case .gnome:
            return Plan(title: "GNOME",
                        nextWorkspace: .keys(["leftmeta", "pagedown"]),
                        previousWorkspace: .keys(["leftmeta", "pageup"]),
                        overview: (.keys(["leftmeta"]), .keys(["leftmeta"]), "open / close the overview (Super)"),
                        panel: (.keys(["leftmeta", "v"]), "the notification list (Super+V)"),
                        keyboard: nil, noKeyboard: "GNOME shows its on-screen keyboard itself on that swipe",
                        forwards: "GNOME's own three-finger touchpad swipes would switch too",
                        needs: ["GNOME's D-Bus Eval is closed: these are GNOME's default shortcuts, through the keyboard",
                                "(Super+Page Down / Page Up switch workspaces)."])
        case .kde:
            func shortcut(_ name: String) -> Action {
                .command("dbus-send --session --type=method_call --dest=org.kde.kglobalaccel /component/kwin org.kde.kglobalaccel.Component.invokeShortcut string:'\(name)'")
            }
            return Plan(title: "KDE Plasma",
                        nextWorkspace: shortcut("Switch One Desktop to the Right"),
                        previousWorkspace: shortcut("Switch One Desktop to the Left"),
                        overview: (shortcut("Overview"), shortcut("Overview"), "open / close the overview"),
                        panel: nil, noPanel: "Plasma has no command to open its panel",
                        keyboard: (.command("dbus-send --session --type=method_call --dest=org.kde.KWin /VirtualKeyboard org.freedesktop.DBus.Properties.Set string:org.kde.kwin.VirtualKeyboard string:active variant:boolean:true"),
                                   "the on-screen keyboard"),
                        forwards: "Plasma's own touchpad swipes would act too",
                        needs: ["The commands call KWin's own shortcuts by name (System Settings, Shortcuts, KWin) over",
                                "the session bus, so they work whatever keys you gave them; dbus-send is in the dbus package."])
        case .x11:
            return Plan(title: "X11",
                        nextWorkspace: .command("xdotool set_desktop --relative 1"),
                        previousWorkspace: .command("xdotool set_desktop --relative -- -1"),
                        overview: nil, noOverview: "EWMH has no overview",
                        panel: nil, noPanel: "EWMH has no panel command",
                        keyboard: nil, noKeyboard: "EWMH has no on-screen keyboard",
                        forwards: nil,
                        needs: ["xdotool needs $DISPLAY in the daemon's environment (the user unit imports it from the",
                                "session; a gestured run from a terminal inherits it); Debian's package: xdotool."])
        }
    }

    /// Where the desktop and the device kinds were found, for the header.
    public struct Origin: Equatable, Sendable {
        public var desktop: String
        public var devices: String
        public init(desktop: String, devices: String) {
            self.desktop = desktop
            self.devices = devices
        }
    }

    /// The config for `desktop`. With no device found, both kinds are written.
    public static func configuration(for desktop: DesktopBackend, devices found: InputDeviceKinds, origin: Origin) -> String {
        let devices = found.isEmpty ? InputDeviceKinds.both : found
        let plan = plan(desktop)
        var out: [String] = []
        out.append("# gestured config for \(plan.title) with \(found.phrase), written by `gesturectl setup`")
        out.append("# (desktop: \(origin.desktop); devices: \(origin.devices)).")
        if found.isEmpty { out.append("# No touch device was found: the bindings for both kinds are written.") }
        out.append("#")
        func row(_ gesture: String, _ does: String) { out.append("#   " + gesture.setupPadded(34) + does) }
        row("three fingers left / right", "the next / previous workspace")
        row("four fingers up / down", plan.overview?.does ?? "(\(plan.noOverview): left free)")
        row("two fingers pinching", "zoom in the focused app (Ctrl and + / -)")
        if devices.touchscreen {
            row("touchscreen, in from the top", plan.panel?.does ?? "(\(plan.noPanel): left free)")
            row("touchscreen, in from the bottom", plan.keyboard?.does ?? "(\(plan.noKeyboard): left free)")
        }
        out.append("#")
        out.append("# Check it: gestured check-config. Apply it: gesturectl reload (or start gestured).")
        out.append("# Try a binding without doing it: gestured replay --config FILE --bindings RECORDING.")
        out.append("# Keys and values: configuration.md; more bindings: recipes.md (gestured's documentation).")
        out.append("# Keys go through gestured's virtual keyboard (/dev/uinput, udev/70-gestured.rules).")
        for line in plan.needs { out.append("# " + line) }
        out.append("version: 1")
        if let forwards = plan.forwards {
            out.append("")
            out.append("devices:")
            out.append("  # \(forwards): gestured takes the touch devices and gives the desktop")
            out.append("  # a copy with the touches no gesture here takes (forwarding.md). false: both act.")
            out.append("  forward: true")
        }
        let edges = devices.touchscreen ? [("top", "panel", plan.panel?.action), ("bottom", "keyboard", plan.keyboard?.action)]
            .compactMap { edge, id, action in action.map { (edge, id, $0) } } : []
        if !edges.isEmpty {
            out.append("")
            out.append("regions:")
            out.append("  id: screen")
            out.append("  children:")
            out.append("    # The touchscreen's edges; a touchpad's touches fall through these strips.")
            for (edge, _, _) in edges {
                let y = edge == "top" ? "0" : "\"95%\""
                out.append("    - { id: \(edge)-edge, frame: [0, \(y), \"100%\", \"5%\"], device-kinds: touchscreen }")
            }
        }
        out.append("")
        out.append("gestures:")
        out.append("  - { id: next-workspace, kind: swipe, fingers: 3, directions: left }")
        out.append("  - { id: previous-workspace, kind: swipe, fingers: 3, directions: right }")
        if plan.overview != nil {
            out.append("  - { id: overview, kind: swipe, fingers: 4, directions: up }")
            out.append("  - { id: overview-close, kind: swipe, fingers: 4, directions: down }")
        }
        out.append("  - { id: zoom, kind: pinch }")
        for (edge, id, _) in edges {
            out.append("  - { id: \(id), kind: edge-pan, edges: \(edge), region: \(edge)-edge }")
        }
        out.append("")
        out.append("bindings:")
        func bind(_ gesture: String, _ action: Action) {
            let value: (key: String, text: String)
            switch action {
            case .command(let command): value = ("command", yamlScalar(command))
            case .keys(let keys): value = ("keys", "[" + keys.joined(separator: ", ") + "]")
            }
            let flow = "  - { gesture: \(gesture), \(value.key): \(value.text) }"
            if flow.count <= 100 {
                out.append(flow)
            } else {
                out.append("  - gesture: \(gesture)")
                out.append("    \(value.key): \(value.text)")
            }
        }
        bind("next-workspace", plan.nextWorkspace)
        bind("previous-workspace", plan.previousWorkspace)
        if let overview = plan.overview {
            bind("overview", overview.open)
            bind("overview-close", overview.close)
        }
        out.append("  - gesture: zoom")
        out.append("    every: 10%")
        out.append("    keys-increase: [leftctrl, kpplus]")
        out.append("    keys-decrease: [leftctrl, kpminus]")
        for (_, id, action) in edges { bind(id, action) }
        return out.joined(separator: "\n") + "\n"
    }

    /// A YAML scalar for `text`: plain when nothing in it means something to YAML, else
    /// double-quoted.
    static func yamlScalar(_ text: String) -> String {
        let special = Set(":{}[],&*#?|<>=!%@`'\"\\")
        if !text.contains(where: { special.contains($0) }), text.first != "-", text.first != " ", text.last != " " {
            return text
        }
        return "\"" + text.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"") + "\""
    }

    /// The desktop of this session: GNOME or KDE Plasma when `XDG_CURRENT_DESKTOP` names them (on
    /// X11 too: their shortcuts are theirs), else the compositor the bridge would read
    /// (`BackendChoice.choose`). The text says where it was found.
    public static func detect(environment: [String: String]) -> Result<(DesktopBackend, String), ChoiceFailure> {
        if let current = environment["XDG_CURRENT_DESKTOP"].flatMap({ $0.isEmpty ? nil : $0 }) {
            if current.namesGNOME { return .success((.gnome, "$XDG_CURRENT_DESKTOP=\(current)")) }
            if current.namesKDE { return .success((.kde, "$XDG_CURRENT_DESKTOP=\(current)")) }
        }
        switch BackendChoice.choose(environment: environment) {
        case .success(let choice):
            return .success((choice.backend, "$" + BackendChoice.variable(choice.backend)))
        case .failure(let failure):
            return .failure(ChoiceFailure(message: failure.message + "; name the desktop with --desktop ("
                                          + DesktopBackend.allCases.map(\.rawValue).joined(separator: ", ") + ")"))
        }
    }

    /// The file `gestured run` would load first (docs/daemon.md, "Which config file"): $GESTURED_CONFIG,
    /// else (not root) $XDG_CONFIG_HOME/gestured/gestured.yaml (default ~/.config), else
    /// /etc/gestured/gestured.yaml.
    public static func defaultPath(environment: [String: String], isRoot: Bool) -> String? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let explicit = value("GESTURED_CONFIG") { return explicit }
        if isRoot { return "/etc/gestured/gestured.yaml" }
        if let xdg = value("XDG_CONFIG_HOME") { return xdg + "/gestured/gestured.yaml" }
        if let home = value("HOME") { return home + "/.config/gestured/gestured.yaml" }
        return nil
    }
}

extension String {
    func setupPadded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    func replacingAll(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
