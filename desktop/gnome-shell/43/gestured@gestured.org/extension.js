// gestured's GNOME Shell extension, GNOME 43 and 44 (legacy imports). Written by scripts/generate-gnome-extension from
// desktop/gnome-shell/src (head-43.js, exporter.js, tail-43.js): edit those; docs/desktop.md, "GNOME".
'use strict';
const {Gio, GLib, Meta, Shell} = imports.gi;
const Main = imports.ui.main;

// BEGIN exporter
// The exporter, the same in both variants: collects the windows, serialises them to JSON, exports them
// read-only on the session bus.
// No logic the Swift side (GnomeReader) could do: which windows count, where they are, is decided there.
const FORMAT_VERSION = 1;
const BUS_NAME = 'org.gestured.Desktop';
const OBJECT_PATH = '/org/gestured/Desktop';
const INTERFACE = `<node>
  <interface name="org.gestured.Desktop1">
    <method name="GetWindows"><arg type="s" direction="out" name="json"/></method>
    <method name="Act">
      <arg type="s" direction="in" name="id"/><arg type="s" direction="in" name="action"/>
      <arg type="i" direction="in" name="workspace"/><arg type="b" direction="out" name="done"/>
    </method>
    <property name="Version" type="u" access="read"/>
    <signal name="WindowsChanged"/>
  </interface>
</node>`;
// Per window: what moves, resizes, hides or renames it.
const WINDOW_SIGNALS = ['position-changed', 'size-changed', 'workspace-changed', 'notify::minimized',
    'notify::fullscreen', 'notify::title', 'notify::wm-class', 'notify::above'];

class Exporter {
    enable() {
        this._idle = 0;
        this._windows = new Map();
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
        this._object.export(Gio.DBus.session, OBJECT_PATH);
        this._name = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME, Gio.BusNameOwnerFlags.NONE, null, null);
        const display = global.display;
        const workspaces = global.workspace_manager;
        this._signals = [
            [display, display.connect('window-created', (_, window) => { this._watch(window); this._changed(); })],
            [display, display.connect('restacked', () => this._changed())],
            [display, display.connect('notify::focus-window', () => this._changed())],
            [workspaces, workspaces.connect('active-workspace-changed', () => this._changed())],
            [Main.overview, Main.overview.connect('showing', () => this._changed())],
            [Main.overview, Main.overview.connect('hidden', () => this._changed())],
        ];
        for (const actor of global.get_window_actors())
            this._watch(actor.meta_window);
        this._changed();
    }

    disable() {
        for (const [object, id] of this._signals)
            object.disconnect(id);
        for (const [window, ids] of this._windows)
            ids.forEach(id => window.disconnect(id));
        this._windows.clear();
        if (this._idle)
            GLib.source_remove(this._idle);
        this._idle = 0;
        Gio.bus_unown_name(this._name);
        this._object.unexport();
        this._object = null;
    }

    _watch(window) {
        if (this._windows.has(window))
            return;
        const ids = WINDOW_SIGNALS.map(name => window.connect(name, () => this._changed()));
        ids.push(window.connect('unmanaged', () => {
            ids.forEach(id => window.disconnect(id));
            this._windows.delete(window);
            this._changed();
        }));
        this._windows.set(window, ids);
    }

    // Coalesced: one signal per main-loop turn, however many changes came in it.
    _changed() {
        if (this._idle)
            return;
        this._idle = GLib.idle_add(GLib.PRIORITY_DEFAULT_IDLE, () => {
            this._idle = 0;
            this._object?.emit_signal('WindowsChanged', null);
            return GLib.SOURCE_REMOVE;
        });
    }

    // A binding's action on one window (docs/desktop.md, "Actions on the window under the fingers"):
    // what the bridge asks, done as GNOME's own window menu does it. False: no such window or action.
    Act(id, action, workspace) {
        const window = global.get_window_actors().map(a => a.meta_window).find(w => String(w.get_id()) === id);
        if (!window)
            return false;
        const both = Meta.MaximizeFlags.BOTH;
        switch (action) {
        case 'close-window':
            window.delete(global.get_current_time());
            return true;
        case 'maximize':
            if (window.get_maximized() === both)
                window.unmaximize(both);
            else
                window.maximize(both);
            return true;
        case 'minimize':
            window.minimize();
            return true;
        case 'fullscreen':
            if (window.is_fullscreen())
                window.unmake_fullscreen();
            else
                window.make_fullscreen();
            return true;
        case 'move-to-workspace': {
            const manager = global.workspace_manager;
            if (workspace < 1)
                return false;
            // Dynamic workspaces: the one after the last exists (empty); beyond it, the last.
            window.change_workspace_by_index(Math.min(workspace, manager.get_n_workspaces()) - 1, false);
            return true;
        }
        }
        return false;
    }

    get Version() {
        return FORMAT_VERSION;
    }

    GetWindows() {
        const focus = global.display.get_focus_window();
        const tracker = Shell.WindowTracker.get_default();
        const stacked = global.display.sort_windows_by_stacking(global.get_window_actors().map(a => a.meta_window));
        const [px, py] = global.get_pointer();
        const windows = stacked.map((window, index) => {
            const frame = window.get_frame_rect();
            const workspace = window.get_workspace();
            return {
                id: String(window.get_id()),
                wmClass: window.get_wm_class() ?? '',
                gtkApplicationId: window.get_gtk_application_id() ?? '',
                sandboxedAppId: window.get_sandboxed_app_id() ?? '',
                desktopId: tracker.get_window_app(window)?.get_id() ?? '',
                title: window.get_title() ?? '',
                pid: window.get_pid(),
                x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                stack: index,
                focused: window === focus,
                workspace: window.is_on_all_workspaces() ? -1 : workspace ? workspace.index() : null,
                minimized: window.minimized,
                fullscreen: window.is_fullscreen(),
                type: window.get_window_type(),
                x11: window.get_client_type() === Meta.WindowClientType.X11,
            };
        });
        return JSON.stringify({
            version: FORMAT_VERSION,
            activeWorkspace: global.workspace_manager.get_active_workspace_index(),
            overview: Main.overview.visible,
            pointer: [px, py],
            windows,
        });
    }
}
// END exporter

// eslint-disable-next-line no-unused-vars
function init() {
    return new Exporter();
}
