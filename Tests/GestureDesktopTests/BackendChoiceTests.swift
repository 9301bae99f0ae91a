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

    @Test func aGNOMEWaylandSessionIsReadOverTheSessionBusWithNoFlag() throws {
        for desktop in ["GNOME", "ubuntu:GNOME", "GNOME-Classic:GNOME"] {
            #expect(try BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": desktop, "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0",
                                                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]).get()
                    == BackendChoice(backend: .gnome, target: "unix:path=/run/user/1000/bus"))
        }
        // No address: the bus libdbus would find; DESKTOP_SESSION when XDG_CURRENT_DESKTOP is not set.
        #expect(try BackendChoice.choose(environment: ["DESKTOP_SESSION": "gnome", "XDG_SESSION_TYPE": "wayland",
                                                       "XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":0"]).get()
                == BackendChoice(backend: .gnome, target: "unix:path=/run/user/1000/bus"))
        // An X11 session of GNOME has EWMH.
        #expect(try BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": "GNOME", "DISPLAY": ":0"]).get().backend == .x11)
        #expect(BackendChoice.choose(environment: ["DISPLAY": ":0"], forced: .gnome).isSuccess == false)
    }

    @Test func aKDEWaylandSessionIsReadOverTheSessionBusWithNoFlag() throws {
        for desktop in ["KDE", "plasma"] {
            #expect(try BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": desktop, "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0",
                                                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]).get()
                    == BackendChoice(backend: .kde, target: "unix:path=/run/user/1000/bus"))
        }
        // A KDE X11 session has EWMH.
        #expect(try BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"]).get().backend == .x11)
        guard case .failure(let failure) = BackendChoice.choose(environment: ["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]) else {
            Issue.record("KDE with no session bus: Xwayland's display was taken for the desktop")
            return
        }
        #expect(failure.message.contains("DBUS_SESSION_BUS_ADDRESS"))
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
