// gestured's KWin script (KWin 5.27 and KWin 6): loaded by `gesturectl desktop` over D-Bus
// (org.kde.kwin.Scripting.loadScript) and unloaded when it exits. It collects the windows, serialises
// them to JSON and calls the bridge's `org.gestured.KWin1.Windows(json)` on every change. Read-only: it
// changes no window. Which windows count and where they are is decided by the bridge (KWinReader).
// KWin 6 renamed parts of the API (windowList, workspace.stackingOrder, output, desktops): both are read.
const FORMAT_VERSION = 1;
const kwin6 = typeof workspace.windowList === "function";

function all() {
    return kwin6 ? workspace.windowList() : workspace.clientList();
}

function describe(w, index) {
    const g = w.frameGeometry;
    return {
        id: String(w.internalId),
        resourceClass: String(w.resourceClass || ""),
        resourceName: String(w.resourceName || ""),
        desktopFileName: String(w.desktopFileName || ""),
        caption: String(w.caption || ""),
        pid: w.pid,
        x: g.x, y: g.y, width: g.width, height: g.height,
        stack: kwin6 ? index : w.stackingOrder,
        active: w.active,
        minimized: w.minimized,
        fullScreen: w.fullScreen,
        onAllDesktops: w.onAllDesktops,
        desktop: kwin6 ? null : w.desktop,
        desktops: kwin6 ? w.desktops.map(d => String(d.id)) : null,
        output: kwin6 && w.output ? String(w.output.name) : null,
        normal: w.normalWindow, dialog: w.dialog, utility: w.utility,
        special: w.specialWindow, managed: w.managed, deleted: w.deleted,
    };
}

function push() {
    const list = kwin6 ? workspace.stackingOrder : all();
    const current = kwin6 ? String(workspace.currentDesktop.id) : workspace.currentDesktop;
    callDBus("org.gestured.KWin", "/org/gestured/KWin", "org.gestured.KWin1", "Windows", JSON.stringify({
        version: FORMAT_VERSION,
        kwin: kwin6 ? 6 : 5,
        currentDesktop: current,
        // KWin 6 names its outputs; 5.27 gives their geometry by index (names: supportInformation).
        outputs: kwin6 ? workspace.screens.map(o => ({name: String(o.name), x: o.geometry.x, y: o.geometry.y,
            width: o.geometry.width, height: o.geometry.height, scale: o.devicePixelRatio}))
            : Array.from({length: workspace.numScreens}, (_, i) => workspace.clientArea(KWin.ScreenArea, i, workspace.currentDesktop))
                .map(r => ({x: r.x, y: r.y, width: r.width, height: r.height})),
        windows: list.map(describe),
    }));
}

function watch(w) {
    w.frameGeometryChanged.connect(push);
    (kwin6 ? w.minimizedChanged : w.clientMinimized).connect(push);
    if (!kwin6)
        w.clientUnminimized.connect(push);
    w.fullScreenChanged.connect(push);
    (kwin6 ? w.desktopsChanged : w.desktopChanged).connect(push);
    w.captionChanged.connect(push);
}

all().forEach(watch);
if (kwin6) {
    workspace.windowAdded.connect(w => { watch(w); push(); });
    workspace.windowRemoved.connect(push);
    workspace.windowActivated.connect(push);
    workspace.screensChanged.connect(push);
    workspace.currentDesktopChanged.connect(push);
} else {
    workspace.clientAdded.connect(w => { watch(w); push(); });
    workspace.clientRemoved.connect(push);
    workspace.clientActivated.connect(push);
    workspace.numberScreensChanged.connect(push);
    workspace.screenResized.connect(push);
    workspace.currentDesktopChanged.connect(push);
}
push();
