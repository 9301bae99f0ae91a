import GestureCore
import GestureDesktop
import Testing

@Suite struct BackendChoiceTests {
    @Test func theEnvironmentChoosesInOrder() throws {
        #expect(try BackendChoice.choose(environment: ["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "DISPLAY": ":0"]).get()
                == BackendChoice(backend: .sway, target: "/run/user/1000/sway-ipc.sock"))
        #expect(try BackendChoice.choose(environment: ["I3SOCK": "/tmp/i3.sock"]).get().backend == .i3)
        #expect(try BackendChoice.choose(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "abc_1", "XDG_RUNTIME_DIR": "/run/user/1000"]).get()
                == BackendChoice(backend: .hyprland, target: "/run/user/1000/hypr/abc_1"))
        #expect(try BackendChoice.choose(environment: ["NIRI_SOCKET": "/run/user/1000/niri.sock", "DISPLAY": ":0"]).get().backend == .niri)
        #expect(try BackendChoice.choose(environment: ["DISPLAY": ":1"]).get() == BackendChoice(backend: .x11, target: ":1"))
        #expect(try BackendChoice.choose(environment: ["SWAYSOCK": "/s", "DISPLAY": ":1"], forced: .x11).get().backend == .x11)
    }

    @Test func nothingFoundSaysWhatWasLookedFor() {
        guard case .failure(let failure) = BackendChoice.choose(environment: ["SWAYSOCK": ""]) else {
            Issue.record("an empty SWAYSOCK was taken")
            return
        }
        for name in ["$SWAYSOCK", "$I3SOCK", "$HYPRLAND_INSTANCE_SIGNATURE", "$NIRI_SOCKET", "$DISPLAY"] {
            #expect(failure.message.contains(name))
        }
        guard case .failure(let forced) = BackendChoice.choose(environment: ["DISPLAY": ":0"], forced: .niri) else {
            Issue.record("--backend niri without NIRI_SOCKET was taken")
            return
        }
        #expect(forced.message == "--backend niri: $NIRI_SOCKET is not set")
    }

    @Test func gnomeAndKDEWaylandSessionsAreRefusedPlainly() throws {
        for desktop in ["GNOME", "ubuntu:GNOME", "KDE"] {
            let result = BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": desktop, "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"])
            guard case .failure(let failure) = result else {
                Issue.record("\(desktop): Xwayland's display was taken for the desktop")
                continue
            }
            #expect(failure.message.contains("Shell extension or a KWin script"))
        }
        // An X11 session of the same desktops has EWMH.
        #expect(try BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": "GNOME", "DISPLAY": ":0"]).get().backend == .x11)
    }
}
