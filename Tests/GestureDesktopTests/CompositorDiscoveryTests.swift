import GestureDesktop
import Testing

/// Where a compositor restarted in the same login listens now (CompositorDiscovery.swift): the
/// documented socket names of each compositor, live processes only, newest first.
@Suite struct CompositorDiscoveryTests {
    typealias Entry = CompositorDiscovery.Entry

    @Test func swaysNewSocketIsTheNewestLiveOneInTheSameFolder() {
        let entries = [Entry(name: "sway-ipc.1000.111.sock", modified: 10), Entry(name: "sway-ipc.1000.222.sock", modified: 30),
                       Entry(name: "sway-ipc.1000.333.sock", modified: 20), Entry(name: "wayland-1", modified: 40),
                       Entry(name: "sway-ipc.1000.x.sock", modified: 50), Entry(name: "sway.env", modified: 60)]
        let found = CompositorDiscovery.candidates(.sway, staleTarget: "/run/user/1000/sway-ipc.1000.111.sock",
                                                   folder: "/run/user/1000", entries: entries, isAlive: { $0 != 111 })
        #expect(found == ["/run/user/1000/sway-ipc.1000.222.sock", "/run/user/1000/sway-ipc.1000.333.sock"])
        let onlyDead = CompositorDiscovery.candidates(.sway, staleTarget: "/run/user/1000/sway-ipc.1000.111.sock",
                                                      folder: "/run/user/1000", entries: entries, isAlive: { _ in false })
        #expect(onlyDead.isEmpty)
    }

    @Test func i3NiriAndHyprlandByTheirOwnNames() {
        let i3 = CompositorDiscovery.candidates(.i3, staleTarget: "/run/user/1000/i3/ipc-socket.5", folder: "/run/user/1000/i3",
                                                entries: [Entry(name: "ipc-socket.5", modified: 1), Entry(name: "ipc-socket.9", modified: 2)],
                                                isAlive: { _ in true })
        #expect(i3 == ["/run/user/1000/i3/ipc-socket.9"])
        let niri = CompositorDiscovery.candidates(.niri, staleTarget: "/run/user/1000/niri.wayland-1.40.sock",
                                                  folder: "/run/user/1000",
                                                  entries: [Entry(name: "niri.wayland-1.41.sock", modified: 3),
                                                            Entry(name: "niri.wayland-1.40.sock", modified: 1),
                                                            Entry(name: "wayland-1.lock", modified: 9)], isAlive: { _ in true })
        #expect(niri == ["/run/user/1000/niri.wayland-1.41.sock"])
        let hypr = CompositorDiscovery.candidates(.hyprland, staleTarget: "/run/user/1000/hypr/old", folder: "/run/user/1000/hypr",
                                                  entries: [Entry(name: "old", modified: 1), Entry(name: "new", modified: 2),
                                                            Entry(name: ".lock", modified: 3)], isAlive: { _ in true })
        #expect(hypr == ["/run/user/1000/hypr/new"])
        #expect(CompositorDiscovery.folder(of: .x11, staleTarget: ":0") == nil)
    }
}
