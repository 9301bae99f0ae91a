# Bindings' window actions on GNOME Shell (docs/desktop.md, "Actions on the window under the
# fingers"), to be sourced by a GNOME harness (43 and 48) once the Shell is up with the shipped
# extension enabled. It expects, from the harness and Tests/desktop/run.sh:
#   gbus        the session bus address the Shell and the extension are on
#   geval       a function running JS in the Shell (org.gnome.Shell.Eval, --unsafe-mode), printing its
#               result's text (gnome.sh's)
#   gopen_xterm a function opening an xterm of a class on the Shell's Xwayland (gnome.sh's)
#   pass, fail  run.sh's counters; $ctl, $gestured, $out, $root, $pids as in run.sh
# It checks the extension's Act method directly (close-window, maximize, minimize, fullscreen,
# move-to-workspace), then the whole path: a daemon whose window rule binds a tap to close-window,
# a real touchscreen tap injected over a maximized window, the bridge (gesturectl desktop) calling
# Act: the window is gone.
gact() {  # id, action, workspace: the extension's Act reply ("(true,)" or "(false,)")
    DBUS_SESSION_BUS_ADDRESS="$gbus" gdbus call --session --dest org.gestured.Desktop --object-path /org/gestured/Desktop \
        --method org.gestured.Desktop1.Act "$1" "$2" "$3" 2>&1
}
gwindow() {  # WM_CLASS -> the extension's window id (or nothing)
    DBUS_SESSION_BUS_ADDRESS="$gbus" gdbus call --session --dest org.gestured.Desktop --object-path /org/gestured/Desktop \
        --method org.gestured.Desktop1.GetWindows | sed "s/^('//; s/',)$//" \
        | jq -r --arg c "$1" '.windows[] | select(.wmClass == $c) | .id' 2>/dev/null | head -1
}
gwin_field() {  # WM_CLASS, jq field of the extension's window
    DBUS_SESSION_BUS_ADDRESS="$gbus" gdbus call --session --dest org.gestured.Desktop --object-path /org/gestured/Desktop \
        --method org.gestured.Desktop1.GetWindows | sed "s/^('//; s/',)$//" \
        | jq -r --arg c "$1" ".windows[] | select(.wmClass == \$c) | $2" 2>/dev/null | head -1
}
gxterm() {  # class: an xterm on the Shell's Xwayland, waited for
    gopen_xterm "$1"
    for _ in $(seq 100); do [ -n "$(gwindow "$1")" ] && break; sleep 0.05; done
}
gmaximized() { geval "global.get_window_actors().map(a => a.meta_window).find(w => String(w.get_id()) === '$1')?.get_maximized()"; }

gxterm ActMax
id=$(gwindow ActMax)
[ "$(gact "$id" maximize 0)" = "(true,)" ] || fail "$G actions: Act maximize answered $(gact "$id" maximize 0)"
for _ in $(seq 40); do [ "$(gmaximized "$id")" = 3 ] && break; sleep 0.05; done
[ "$(gmaximized "$id")" = 3 ] && pass "$G actions: Act maximize maximized a real xterm (Meta.MaximizeFlags.BOTH)" \
    || fail "$G actions: Act maximize (get_maximized: '$(gmaximized "$id")')"
[ "$(gact "$id" fullscreen 0)" = "(true,)" ]
for _ in $(seq 40); do [ "$(gwin_field ActMax .fullscreen)" = true ] && break; sleep 0.05; done
[ "$(gwin_field ActMax .fullscreen)" = true ] && pass "$G actions: Act fullscreen" || fail "$G actions: Act fullscreen ($(gwin_field ActMax .fullscreen))"
gact "$id" fullscreen 0 > /dev/null
[ "$(gact "$id" move-to-workspace 2)" = "(true,)" ]
for _ in $(seq 40); do [ "$(gwin_field ActMax .workspace)" = 1 ] && break; sleep 0.05; done
[ "$(gwin_field ActMax .workspace)" = 1 ] && pass "$G actions: Act move-to-workspace 2 (workspace index 1)" \
    || fail "$G actions: Act move-to-workspace 2 (workspace $(gwin_field ActMax .workspace))"
[ "$(gact "$id" minimize 0)" = "(true,)" ]
for _ in $(seq 40); do [ "$(gwin_field ActMax .minimized)" = true ] && break; sleep 0.05; done
[ "$(gwin_field ActMax .minimized)" = true ] && pass "$G actions: Act minimize" || fail "$G actions: Act minimize ($(gwin_field ActMax .minimized))"
[ "$(gact 999999 close-window 0)" = "(false,)" ] && pass "$G actions: Act on a window that is not there answers false" \
    || fail "$G actions: Act on a missing window ($(gact 999999 close-window 0))"

# The whole path: daemon -> window-action line -> bridge -> Act.
cat > "$out/$gname-actions.yaml" <<'EOF2'
version: 1
windows:
  - { id: closing, match: { app: ActClose }, gestures: [{ id: close-tap, kind: tap }] }
bindings:
  - { gesture: close-tap, action: close-window }
EOF2
gxterm ActClose
gact "$(gwindow ActClose)" maximize 0 > /dev/null
"$gestured" run --no-devices --config "$out/$gname-actions.yaml" --socket "$out/$gname-actions.sock" > "$out/$gname-actions-daemon.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do [ -S "$out/$gname-actions.sock" ] && break; sleep 0.05; done
env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=GNOME WAYLAND_DISPLAY=wayland-0 DBUS_SESSION_BUS_ADDRESS="$gbus" \
    "$ctl" desktop --socket "$out/$gname-actions.sock" > "$out/$gname-actions-bridge.out" 2> "$out/$gname-actions-bridge.err" &
pids+=("$!")
for _ in $(seq 100); do
    "$ctl" status --socket "$out/$gname-actions.sock" --format json 2>/dev/null | jq -e '.desktop.windows >= 1' > /dev/null && break; sleep 0.05
done
"$ctl" inject --socket "$out/$gname-actions.sock" "$root/Tests/GestureDaemonTests/Fixtures/Wacom ISDv4 E6 Finger.single-tap-center.events" > /dev/null
for _ in $(seq 100); do [ -z "$(gwindow ActClose)" ] && break; sleep 0.05; done
[ -z "$(gwindow ActClose)" ] && pass "$G actions: a real tap's close-window closed the real window under it, through the bridge" \
    || fail "$G actions: a tap's close-window through the bridge (bridge: $(tail -3 "$out/$gname-actions-bridge.err"); daemon: $(grep -i action "$out/$gname-actions-daemon.log" | tail -2))"
