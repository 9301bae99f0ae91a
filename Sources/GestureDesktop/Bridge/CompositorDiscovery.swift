#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// Where a compositor that restarted in the same login listens now. Its socket's name carries the
/// new process (sway, i3, niri) or instance (Hyprland), so the path the bridge started with goes
/// stale; each compositor documents where it puts the socket, and the newest live one there is the
/// compositor come back.
///
/// | backend | documented location |
/// |---|---|
/// | sway | `$XDG_RUNTIME_DIR/sway-ipc.UID.PID.sock` (sway's `ipc-server.c`) |
/// | i3 | `$XDG_RUNTIME_DIR/i3/ipc-socket.PID` |
/// | niri | `$XDG_RUNTIME_DIR/niri.WAYLAND_DISPLAY.PID.sock` |
/// | Hyprland | `$XDG_RUNTIME_DIR/hypr/SIGNATURE/.socket.sock` (a new signature each start) |
/// | X11 | the display stays (`:0`): nothing to find |
/// | GNOME, KDE | the session bus stays: nothing to find (the Shell or KWin comes back on it) |
public enum CompositorDiscovery {
    /// One entry of the folder the stale target lies in.
    public struct Entry: Equatable, Sendable {
        public var name: String
        /// Modification time, seconds (any monotonic measure of "newer").
        public var modified: Int64
        public init(name: String, modified: Int64) {
            self.name = name
            self.modified = modified
        }
    }

    /// The folder to look in for `backend`'s new instance, given the target it had.
    public static func folder(of backend: DesktopBackend, staleTarget: String) -> String? {
        switch backend {
        case .sway, .i3, .niri, .hyprland: parent(staleTarget)
        case .x11, .gnome, .kde: nil
        }
    }

    /// The candidates in `entries` of `folder`, newest first: the targets the compositor's
    /// documented naming gives, of a live process where the name carries one (`isAlive(pid)`),
    /// other than the stale target.
    public static func candidates(_ backend: DesktopBackend, staleTarget: String, folder: String, entries: [Entry],
                                  isAlive: (Int32) -> Bool) -> [String] {
        func pid(_ text: Substring) -> Int32? { Int32(text) }
        let matching: [Entry] = entries.filter { entry in
            let name = entry.name
            switch backend {
            case .sway:
                // sway-ipc.UID.PID.sock: the folder is the login's own, whatever uid the name says.
                let parts = name.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 4, parts[0] == "sway-ipc", parts[3] == "sock", UInt32(parts[1]) != nil,
                      let p = pid(parts[2]) else { return false }
                return isAlive(p)
            case .i3:
                let prefix = "ipc-socket."
                guard name.hasPrefix(prefix), let p = pid(name.dropFirst(prefix.count)) else { return false }
                return isAlive(p)
            case .niri:
                guard name.hasPrefix("niri."), name.hasSuffix(".sock"),
                      let p = pid(name.dropLast(".sock".count).split(separator: ".").last ?? "") else { return false }
                return isAlive(p)
            case .hyprland:
                return !name.hasPrefix(".")
            case .x11, .gnome, .kde:
                return false
            }
        }
        return matching.sorted { $0.modified > $1.modified }.map { folder + "/" + $0.name }.filter { $0 != staleTarget }
    }

    /// The newest live instance of `backend` near `staleTarget` that accepts a connection, or nil.
    public static func find(_ backend: DesktopBackend, staleTarget: String) -> String? {
        guard let folder = folder(of: backend, staleTarget: staleTarget) else { return nil }
        let found = candidates(backend, staleTarget: staleTarget, folder: folder, entries: entries(of: folder),
                               isAlive: { kill($0, 0) == 0 || errno == EPERM })
        return found.first { path in
            let socket = backend == .hyprland ? path + "/.socket2.sock" : path
            return (try? CompositorSocket(path: socket)) != nil
        }
    }

    static func parent(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The entries of `folder` with their modification times (none when it cannot be read).
    static func entries(of folder: String) -> [Entry] {
        var out: [Entry] = []
        for name in directoryNames(folder) {
            var info = stat()
            guard stat(folder + "/" + name, &info) == 0 else { continue }
            out.append(Entry(name: name, modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
        }
        return out
    }
}
