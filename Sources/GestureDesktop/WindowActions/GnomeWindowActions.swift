import GestureCore

/// Window actions on GNOME: the shipped extension's `Act(id, action, workspace)` on the session bus
/// (desktop/gnome-shell/*/extension.js; GNOME's own D-Bus API cannot act on a window), on a
/// connection of its own. The extension does them as the window menu does (Meta.Window `delete`,
/// `maximize` / `unmaximize`, `minimize`, `make_fullscreen` / `unmake_fullscreen`,
/// `change_workspace_by_index`).
public enum GnomeWindowActions {
    static func perform(_ request: WindowActionRequest, bus address: String) -> Result<Void, DesktopSourceError> {
        let workspace: Int32
        if case .moveToWorkspace(let n) = request.action { workspace = Int32(clamping: n) } else { workspace = 0 }
        do {
            let bus = try DBusConnection(address: address.isEmpty ? nil : address)
            defer { bus.close() }
            let reply = try bus.call(GnomeSource.extensionName, GnomeSource.extensionPath, GnomeSource.extensionInterface, "Act",
                                     [.string(request.window), .string(request.action.name), .int32(workspace)])
            guard reply.first?.bool == true else {
                return .failure(DesktopSourceError("GNOME Shell has no window \(request.window) to \(request.action.text)"))
            }
            return .success(())
        } catch let error as DesktopSourceError {
            return .failure(error)
        } catch {
            return .failure(DesktopSourceError("GNOME Shell's extension, Act: \(error) (is the extension enabled and up to date?)"))
        }
    }
}
