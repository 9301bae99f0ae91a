#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GesturePosix

/// Window actions on KDE Plasma: KWin acts on windows only from its scripts, and a script cannot be
/// called over D-Bus, so each action is a one-shot script of its own: written to a private file,
/// loaded (`org.kde.kwin.Scripting.loadScript`), run (KWin 5.27: `/N`; KWin 6: `/Scripting/ScriptN`)
/// and unloaded, on a connection apart from the bridge's. The script finds the window by the
/// `internalId` the gestured script reported and does what KWin's window menu does: `closeWindow()`,
/// `setMaximize` (a toggle: maximized when its frame is the output's maximize area), `minimized`,
/// `fullScreen` (a toggle), the virtual desktop (KWin 6: `desktops`; 5.27: `desktop`).
public enum KWinWindowActions {
    /// The script for `request`; nil when the window id is not one KWin gives (`{uuid}` in KWin 6, a
    /// number or uuid in 5.27): nothing but hex digits, braces and dashes reaches the script.
    /// The script ends by unloading itself (`name`), so that the bridge knows it ran.
    public static func script(_ request: WindowActionRequest, name: String) -> String? {
        let id = request.window
        guard !id.isEmpty, id.count <= 64,
              id.allSatisfy({ $0.isHexDigit || $0 == "{" || $0 == "}" || $0 == "-" }) else { return nil }
        let body: String
        switch request.action {
        case .closeWindow:
            body = "w.closeWindow();"
        case .minimize:
            body = "w.minimized = true;"
        case .fullscreen:
            body = "w.fullScreen = !w.fullScreen;"
        case .maximize:
            body = """
                const area = workspace.clientArea(KWin.MaximizeArea, w);
                    const g = w.frameGeometry;
                    const full = g.x === area.x && g.y === area.y && g.width === area.width && g.height === area.height;
                    w.setMaximize(!full, !full);
                """
        case .moveToWorkspace(let n):
            body = """
                if (kwin6) { const d = workspace.desktops[\(n - 1)]; if (d) w.desktops = [d]; }
                    else if (\(n) <= workspace.desktops) w.desktop = \(n);
                """
        }
        return """
            // gestured: \(request.action.text) on window \(id) (a one-shot script of gesturectl desktop).
            (function () {
                const kwin6 = typeof workspace.windowList === "function";
                const w = (kwin6 ? workspace.windowList() : workspace.clientList()).find(c => String(c.internalId) === "\(id)");
                if (!w) return;
                \(body)
            })();
            callDBus("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", "\(name)");

            """
    }

    /// Distinct names, so that a script of a previous action still being deleted (KWin 5.27 deletes
    /// later) never shares a name with the next.
    nonisolated(unsafe) static var count = 0

    static func perform(_ request: WindowActionRequest, bus address: String, environment: [String: String]) -> Result<Void, DesktopSourceError> {
        count += 1
        let name = "gestured-action-\(getpid())-\(count)"
        guard let text = script(request, name: name) else {
            return .failure(DesktopSourceError("KWin: '\(request.window)' is not a KWin window id"))
        }
        let folder = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/\(name)-XXXXXX.js".utf8CString)
        let fd = mkstemps(&template, 3)
        guard fd >= 0 else {
            return .failure(DesktopSourceError("KWin: cannot write the action's script in \(folder): \(Errno(rawValue: errno))"))
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let written = Array(text.utf8).withUnsafeBytes { writeFully(fd, $0) }
        close(fd)
        if case .failure(let error) = written {
            return .failure(DesktopSourceError("KWin: cannot write \(path): \(error)"))
        }
        do {
            let bus = try DBusConnection(address: address.isEmpty ? nil : address)
            defer { bus.close() }
            let loaded = try bus.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "loadScript", [.string(path), .string(name)])
            guard let id = loaded.first?.int, id >= 0 else {
                return .failure(DesktopSourceError("KWin refused the action's script \(path)"))
            }
            var ran = false
            for object in ["/Scripting/Script\(id)", "/\(id)"] where !ran {
                ran = (try? bus.call("org.kde.KWin", object, "org.kde.kwin.Script", "run")) != nil
            }
            // KWin reads the file and runs it after run() returned; the script unloads itself at its end.
            let deadline = monotonicMicroseconds() + 2_000_000
            while ran, monotonicMicroseconds() < deadline,
                  (try? bus.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "isScriptLoaded", [.string(name)]))?.first?.bool == true {
                Poll.sleep(microseconds: 10_000)
            }
            _ = try? bus.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(name)])
            return ran ? .success(()) : .failure(DesktopSourceError("KWin loaded the action's script but would not run it"))
        } catch let error as DesktopSourceError {
            return .failure(error)
        } catch {
            return .failure(DesktopSourceError("KWin: \(error)"))
        }
    }
}
