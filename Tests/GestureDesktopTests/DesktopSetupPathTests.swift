import Testing
import GestureDesktop

/// `gesturectl setup` writes the file `gestured run` loads first (docs/daemon.md, "Which config
/// file"), and finds the desktop as the bridge does, GNOME and Plasma on X11 included.
@Suite struct DesktopSetupPathTests {
    @Test func theFileIsTheOneTheDaemonLoadsFirst() {
        #expect(DesktopSetup.defaultPath(environment: ["GESTURED_CONFIG": "/x/g.yaml", "HOME": "/home/u"], isRoot: false) == "/x/g.yaml")
        #expect(DesktopSetup.defaultPath(environment: ["GESTURED_CONFIG": "/x/g.yaml"], isRoot: true) == "/x/g.yaml")
        #expect(DesktopSetup.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/home/u"], isRoot: false) == "/c/gestured/gestured.yaml")
        #expect(DesktopSetup.defaultPath(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": ""], isRoot: false) == "/home/u/.config/gestured/gestured.yaml")
        #expect(DesktopSetup.defaultPath(environment: ["HOME": "/root", "XDG_CONFIG_HOME": "/c"], isRoot: true) == "/etc/gestured/gestured.yaml")
        #expect(DesktopSetup.defaultPath(environment: [:], isRoot: false) == nil)
    }

    @Test func theDesktopIsTheBridgesExceptGNOMEAndPlasmaOnX11() throws {
        func found(_ environment: [String: String]) -> String? {
            guard case .success(let (desktop, origin)) = DesktopSetup.detect(environment: environment) else { return nil }
            return "\(desktop.rawValue) \(origin)"
        }
        #expect(found(["SWAYSOCK": "/run/s.sock", "DISPLAY": ":0"]) == "sway $SWAYSOCK")
        #expect(found(["NIRI_SOCKET": "/run/n.sock", "XDG_CURRENT_DESKTOP": "niri"]) == "niri $NIRI_SOCKET")
        #expect(found(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"]) == "x11 $DISPLAY")
        #expect(found(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == "gnome $XDG_CURRENT_DESKTOP=ubuntu:GNOME")
        #expect(found(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "KDE"]) == "kde $XDG_CURRENT_DESKTOP=KDE")
        guard case .failure(let failure) = DesktopSetup.detect(environment: [:]) else {
            Issue.record("an empty environment has no desktop")
            return
        }
        #expect(failure.message.hasSuffix("; name the desktop with --desktop (sway, i3, hyprland, niri, x11, gnome, kde)"))
    }
}
