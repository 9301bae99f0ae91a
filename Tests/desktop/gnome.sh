# GNOME Shell headless (sourced by Tests/desktop/run.sh, once for Debian 12's GNOME Shell 43 on this
# machine and once for Debian 13's GNOME Shell 48 in a trixie root; it uses run.sh's pass / fail / check /
# start_bridge / await / win / now / ms / percentiles): the shipped extension for that Shell's version
# (desktop/gnome-shell/43 for 43 / 44, desktop/gnome-shell/45 for 45 and later) installed and enabled,
# real windows (GTK4 through python3-gi, xterm through Xwayland, foot), moved, stacked, minimized, closed;
# the output rotated; the extension disabled and enabled; the Shell restarted with two outputs; then the
# daemon: `hit-test --output` and a real recording over a window.
# The shell runs with private system and session buses (../shared/DESKTOP-TESTING.md: this image's
# stale /run/systemd/seats) and `--unsafe-mode`, for the test's own control through
# org.gnome.Shell.Eval only: the bridge reads nothing but the extension and DisplayConfig.
#
# Set by the caller: gname (the run's name: the bridge's lines file and run folder), gin (the command
# prefix that runs a program of that desktop's system: empty here, chroot ROOT for the trixie root),
# gctl / ggestured (the gesturectl and gestured to run there). The Shell's version is read from the Shell.
gnome_t0=$(now)
grun="$out/$gname"
mkdir -p "$grun/empty" "$grun/home" "$grun/rt" "$grun/config/glib-2.0/settings" "$grun/data/gnome-shell/extensions"
chmod 700 "$grun/rt"
# Mutter refuses to start Xwayland unless /tmp/.X11-unix has its usual mode (1777).
[ ${#gin[@]} -eq 0 ] && mkdir -p /tmp/.X11-unix && chmod 1777 /tmp/.X11-unix
for type in system session; do
    cat > "$grun/$type.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>$type</type><listen>unix:path=$grun/$type.bus</listen><servicedir>$grun/empty</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy>
</busconfig>
EOF
    dbus-daemon --nofork --config-file="$grun/$type.conf" 2> /dev/null &
    pids+=("$!")
done
gbus="unix:path=$grun/session.bus"
gversion=$("${gin[@]}" gnome-shell --version 2> /dev/null | grep -oE '[0-9]+' | head -1)
[ -n "$gversion" ] || { fail "$gname: gnome-shell --version answered ($("${gin[@]}" gnome-shell --version 2>&1 | head -1))"; return 0; }
gvariant=$([ "$gversion" -ge 45 ] && echo 45 || echo 43)
G="GNOME $gversion"
pass "$G: gnome-shell --version says $("${gin[@]}" gnome-shell --version 2>&1 | head -1); the extension variant for it is desktop/gnome-shell/$gvariant"
cp -r "desktop/gnome-shell/$gvariant/gestured@gestured.org" "$grun/data/gnome-shell/extensions/"
cat > "$grun/config/glib-2.0/settings/keyfile" <<'EOF'
[org/gnome/shell]
enabled-extensions=['gestured@gestured.org']
disable-user-extensions=false
EOF
for _ in $(seq 100); do [ -S "$grun/session.bus" ] && [ -S "$grun/system.bus" ] && break; sleep 0.05; done
genv=("${gin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin HOME="$grun/home" XDG_RUNTIME_DIR="$grun/rt" XDG_CONFIG_HOME="$grun/config"
      XDG_DATA_HOME="$grun/data" NO_AT_BRIDGE=1 GSETTINGS_BACKEND=keyfile
      DBUS_SYSTEM_BUS_ADDRESS="unix:path=$grun/system.bus" DBUS_SESSION_BUS_ADDRESS="$gbus")
gnome_start() {  # log name, --virtual-monitor arguments...; sets gnome_pid, gdisplay; true when up
    local name=$1; shift
    "${genv[@]}" gnome-shell --headless --wayland --unsafe-mode "$@" > "$grun/$name.log" 2>&1 &
    gnome_pid=$!
    pids+=("$gnome_pid")
    for _ in $(seq 600); do
        grep -q "GNOME Shell started" "$grun/$name.log" && break
        kill -0 "$gnome_pid" 2> /dev/null || return 1
        sleep 0.05
    done
    gdisplay=$(sed -n 's/.*Using public X11 display \(:[0-9]*\).*/\1/p' "$grun/$name.log" | tail -1)
    grep -q "GNOME Shell started" "$grun/$name.log"
}
gnome_stop() {
    kill "$gnome_pid" 2> /dev/null
    for _ in $(seq 100); do kill -0 "$gnome_pid" 2> /dev/null || break; sleep 0.05; done
    kill -9 "$gnome_pid" 2> /dev/null
    wait "$gnome_pid" 2> /dev/null
}
# The test's own hand on the Shell (unsafe mode): prints the result's text.
geval() {
    DBUS_SESSION_BUS_ADDRESS="$gbus" gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
        --method org.gnome.Shell.Eval "$1" 2> /dev/null | sed -n "s/^(true, '\(.*\)')$/\1/p"
}
gwin() { echo "global.get_window_actors().map(a => a.meta_window).find(w => w.get_wm_class() === '$1')"; }
# Moves a window until it reads back where it was put (Mutter may place a new window after the first move).
gmove() {  # app, x, y, width, height
    local i
    for i in $(seq 40); do
        geval "$(gwin "$1").move_resize_frame(false, $2, $3, $4, $5); 1" > /dev/null
        [ "$(geval "(r => r.x === $2 && r.y === $3 && r.width === $4 && r.height === $5)($(gwin "$1").get_frame_rect())")" = true ] && return 0
        sleep 0.05
    done
    return 1
}
gactivate() { geval "$(gwin "$1").activate(global.get_current_time()); 1" > /dev/null; }
gapply() {  # the logical monitors, as ApplyMonitorsConfig takes them (method 1: temporary)
    local serial
    serial=$(DBUS_SESSION_BUS_ADDRESS="$gbus" gdbus call --session --dest org.gnome.Mutter.DisplayConfig \
        --object-path /org/gnome/Mutter/DisplayConfig --method org.gnome.Mutter.DisplayConfig.GetCurrentState | sed 's/^(uint32 \([0-9]*\),.*/\1/')
    DBUS_SESSION_BUS_ADDRESS="$gbus" gdbus call --session --dest org.gnome.Mutter.DisplayConfig \
        --object-path /org/gnome/Mutter/DisplayConfig --method org.gnome.Mutter.DisplayConfig.ApplyMonitorsConfig \
        "$serial" 1 "$1" "@a{sv} {}" > /dev/null
}
gclients=()
gopen_gtk() {  # app id, width, height
    "${genv[@]}" WAYLAND_DISPLAY=wayland-0 GDK_BACKEND=wayland GTK_A11Y=none python3 "$root/Tests/desktop/gtk4-window.py" "$@" > "$grun/gtk-$1.log" 2>&1 &
    gclients+=("$!"); pids+=("$!")
}
gopen_xterm() {  # class
    "${genv[@]}" DISPLAY="$gdisplay" XAUTHORITY="$(ls "$grun"/rt/.mutter-Xwaylandauth.* | head -1)" \
        xterm -class "$1" -geometry 60x20 -e sleep 600 > "$grun/xterm-$1.log" 2>&1 &
    gclients+=("$!"); pids+=("$!")
}
gopen_foot() {  # app id
    "${genv[@]}" WAYLAND_DISPLAY=wayland-0 foot -a "$1" sleep 600 > "$grun/foot-$1.log" 2>&1 &
    gclients+=("$!"); pids+=("$!")
}
gawait_window() {  # app: waits until the Shell has it mapped with a frame
    for _ in $(seq 200); do
        [ "$(geval "(w => w ? w.get_frame_rect().width > 0 : false)($(gwin "$1"))")" = true ] && return 0
        sleep 0.05
    done
    return 1
}

# The two variants of the extension hold the same exporter (only the module glue differs).
exporter() { sed -n '/^\/\/ BEGIN exporter$/,/^\/\/ END exporter$/p' "desktop/gnome-shell/$1/gestured@gestured.org/extension.js"; }
[ -n "$(exporter 43)" ] && [ "$(exporter 43)" = "$(exporter 45)" ] \
    && pass "$G: the 43 / 44 and 45+ extensions hold the same exporter" || fail "$G: the 43 / 44 and 45+ extensions differ in their exporter"

t_start=$(now)
if ! gnome_start shell-1 --virtual-monitor 1280x800; then
    fail "$G: GNOME Shell started headless (log: $(grep -v '^$' "$grun/shell-1.log" | tail -3))"
    return 0
fi
pass "$G: started headless in $(ms "$t_start" "$(now)") ms (Xwayland $gdisplay)"
geval "Main.overview.hide(); 1" > /dev/null
[ "$(geval "Main.extensionManager.lookup('gestured@gestured.org')?.state")" = 1 ] \
    && pass "$G: the shipped extension is enabled" || fail "$G: the shipped extension is enabled (state $(geval "Main.extensionManager.lookup('gestured@gestured.org')?.state"))"

# No flag: the session's environment says GNOME.
start_bridge "$gname" XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-0 DISPLAY="$gdisplay" \
    DBUS_SESSION_BUS_ADDRESS="$gbus"
gnome_bridge=$bridge
check "$gname" "$G: the output Meta-0 from DisplayConfig, 1280x800" \
    '.outputs == [{"name":"Meta-0","x":0,"y":0,"width":1280,"height":800,"scale":1,"transform":"normal"}] and .backend == "gnome"' 5
gopen_gtk org.gestured.Left 400 300
gopen_xterm XTermGnome
gopen_foot foot-app
gawait_window org.gestured.Left && gawait_window XTermGnome && gawait_window foot-app \
    || log "$G: not every window mapped: $(geval "global.get_window_actors().map(a => a.meta_window.get_wm_class()).join(',')")"
check "$gname" "$G: three real windows (GTK4, xterm through Xwayland, foot)" \
    '[.windows[].app] | sort == ["XTermGnome","foot-app","org.gestured.Left"]' 5
gmove org.gestured.Left 440 250 400 300 || log "$G: the GTK window did not stay at 440,250"
gmove XTermGnome 40 60 364 301 || log "$G: the xterm did not stay at 40,60"
gmove foot-app 700 400 500 300 || log "$G: foot did not stay at 700,400"
# The terminals keep to their character cells (GNOME 48 rounds 364x301 and 500x300 to their grid): the
# bridge must report each frame as the Shell has it, at the place the test put it.
gframe() { geval "(r => [r.x, r.y, r.width, r.height])($(gwin "$1").get_frame_rect())"; }
gframes="[$(gframe org.gestured.Left),$(gframe XTermGnome),$(gframe foot-app)]"
echo "$G: the Shell's frames (GTK, xterm, foot): $gframes"
check "$gname" "$G: windows at the frames the Shell reports (get_frame_rect), at the places the test put them" \
    "[[$(win org.gestured.Left) | [.x,.y,.width,.height]][0], [$(win XTermGnome) | [.x,.y,.width,.height]][0], [$(win foot-app) | [.x,.y,.width,.height]][0]] == $gframes and ($gframes | map(.[0:2])) == [[440,250],[40,60],[700,400]]" 3
check "$gname" "$G: ids, pids, workspace 1, all floating" \
    "[.windows[] | (.id|test(\"^[0-9]+$\")) and .pid > 1 and .workspace == \"1\" and .floating] == [true,true,true]"
gactivate org.gestured.Left
check "$gname" "$G: the activated window is focused and on top" \
    "([.windows[] | select(.focused) | .app] == [\"org.gestured.Left\"]) and (.windows | max_by(.stack) | .app) == \"org.gestured.Left\""
gactivate foot-app
check "$gname" "$G: restacked: foot on top, focused" \
    "(.windows | max_by(.stack) | .app) == \"foot-app\" and [$(win foot-app) | .focused] == [true]"
gmove org.gestured.Left 100 120 400 300
check "$gname" "$G: a move is signalled (no polling)" "[$(win org.gestured.Left) | [.x,.y]] == [[100,120]]"
geval "$(gwin XTermGnome).minimize(); 1" > /dev/null
check "$gname" "$G: a minimized window is gone" "[.windows[].app] | sort == [\"foot-app\",\"org.gestured.Left\"]"
geval "$(gwin XTermGnome).unminimize(); 1" > /dev/null
check "$gname" "$G: unminimized, it is back" '.windows | length == 3'
geval "$(gwin foot-app).make_fullscreen(); 1" > /dev/null
check "$gname" "$G: fullscreen covers the output" \
    "[$(win foot-app) | [.x,.y,.width,.height,.fullscreen]] == [[0,0,1280,800,true]]"
geval "$(gwin foot-app).unmake_fullscreen(); 1" > /dev/null
geval "global.workspace_manager.append_new_workspace(false, global.get_current_time()); global.workspace_manager.get_workspace_by_index(1).activate(global.get_current_time()); 1" > /dev/null
check "$gname" "$G: another workspace: no windows" '.windows == []'
geval "global.workspace_manager.get_workspace_by_index(0).activate(global.get_current_time()); 1" > /dev/null
check "$gname" "$G: back on the first workspace: three windows" '.windows | length == 3'
# The overview may refuse to open while a workspace switch still animates: asked until it shows.
for _ in $(seq 40); do geval "Main.overview.show(); 1" > /dev/null; [ "$(geval "Main.overview.visible")" = true ] && break; sleep 0.05; done
check "$gname" "$G: the Activities overview hides the windows" '.windows == []'
geval "Main.overview.hide(); 1" > /dev/null
check "$gname" "$G: the overview closed: the windows are back" '.windows | length == 3' 3
gapply "[(0, 0, 1.0, uint32 1, true, [('Meta-0', '1280x800@60.000', @a{sv} {})])]"
check "$gname" "$G: the output turned (transform 1): 800x1280, \"90\"" '.outputs[0] | [.width,.height,.transform] == [800,1280,"90"]'
gapply "[(0, 0, 1.0, uint32 0, true, [('Meta-0', '1280x800@60.000', @a{sv} {})])]"
check "$gname" "$G: the output back to normal" '.outputs[0] | [.width,.height,.transform] == [1280,800,"normal"]'
kill "${gclients[1]}" 2> /dev/null
check "$gname" "$G: a closed window (xterm killed) is gone" '[.windows[].app] | sort == ["foot-app","org.gestured.Left"]'

# Figures: from the test's change (through Eval) to the changed snapshot.
gmoves=()
gfocus=()
for i in $(seq 1 30); do
    sleep "0.$(printf '%03d' $((RANDOM % 300)))"
    x=$((100 + (i % 2) * 300 + i))
    t0=$(now); geval "$(gwin org.gestured.Left).move_frame(false, $x, 120); 1" > /dev/null; ta=$(now)
    t1=$(await "$gname" "[$(win org.gestured.Left) | .x] == [$x]" 2) && gmoves+=("$(ms "$ta" "$t1")") \
        || log "$G move $i to $x not seen: the Shell has $(geval "$(gwin org.gestured.Left).get_frame_rect().x"), the bridge $(latest "$gname" | jq -c "[$(win org.gestured.Left) | .x]")"
    target=$([ $((i % 2)) -eq 0 ] && echo foot-app || echo org.gestured.Left)
    t0=$(now); gactivate "$target"; ta=$(now)
    t1=$(await "$gname" "[$(win "$target") | .focused] == [true]" 2) && gfocus+=("$(ms "$ta" "$t1")") \
        || log "$G focus $i on $target not seen: the Shell focuses $(geval "global.display.focus_window?.get_wm_class()")"
done
[ ${#gmoves[@]} -eq 30 ] && [ ${#gfocus[@]} -eq 30 ] && pass "$G: 30 moves and 30 focus changes seen" \
    || fail "$G: 30 moves and 30 focus changes seen (moves ${#gmoves[@]}, focus ${#gfocus[@]})"
echo "figure: $G, from the Eval's return (the change made) to the changed snapshot:"
echo "figure:   move (signalled): $(percentiles "${gmoves[@]}")"
echo "figure:   focus change (signalled): $(percentiles "${gfocus[@]}")"
echo "figure: $G bridge RSS $(awk '/VmRSS/ { print $2, $3 }' /proc/$gnome_bridge/status), peak $(awk '/VmHWM/ { print $2, $3 }' /proc/$gnome_bridge/status)"
sleep 0.5
c0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$gnome_bridge/status)
sleep 5
c1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$gnome_bridge/status)
echo "figure: $G idle, 2 windows: $((c1 - c0)) voluntary context switches in 5 s"
[ $((c1 - c0)) -le 2 ] && pass "$G: idle with windows, the bridge sleeps ($((c1 - c0)) switches in 5 s)" \
    || fail "$G: idle with windows, the bridge sleeps ($((c1 - c0)) switches in 5 s, expected at most 2)"

# The extension disabled: the bridge says what to run; outputs stay, windows go. Enabled: back.
"${genv[@]}" gnome-extensions disable gestured@gestured.org
check "$gname" "$G: extension disabled: the outputs stay, the windows go" '(.outputs | length == 1) and .windows == []' 3
grep -q "run: gnome-extensions enable gestured@gestured.org" "$out/$gname.err" \
    && pass "$G: the bridge says to run gnome-extensions enable gestured@gestured.org" \
    || fail "$G: the bridge's message ($(cat "$out/$gname.err"))"
# An impostor on the extension's name answering garbage: it costs the windows only.
"${genv[@]}" /usr/bin/python3 -c '
import gi, sys
from gi.repository import Gio, GLib
node = Gio.DBusNodeInfo.new_for_xml("""<node><interface name="org.gestured.Desktop1">
<method name="GetWindows"><arg type="s" direction="out"/></method><signal name="WindowsChanged"/></interface></node>""")
def call(conn, sender, path, iface, method, params, invocation):
    invocation.return_value(GLib.Variant("(s)", ("{\"version\":1,\"windows\":[{\"id\": [[[garbage",)))
def acquired(conn, name):
    conn.register_object("/org/gestured/Desktop", node.interfaces[0], call, None, None)
    conn.emit_signal(None, "/org/gestured/Desktop", "org.gestured.Desktop1", "WindowsChanged", None)
Gio.bus_own_name(Gio.BusType.SESSION, "org.gestured.Desktop", 0, None, acquired, None)
GLib.timeout_add(3000, lambda: sys.exit(0))
GLib.MainLoop().run()
' > "$grun/impostor.log" 2>&1 &
impostor=$!
pids+=("$impostor")
for _ in $(seq 60); do grep -q "answered what gesturectl cannot read" "$out/$gname.err" && break; sleep 0.05; done
grep -q "answered what gesturectl cannot read" "$out/$gname.err" && [ "$(latest "$gname" | jq -c '[(.outputs | length), (.windows | length)]')" = "[1,0]" ] \
    && kill -0 "$gnome_bridge" 2> /dev/null \
    && pass "$G: garbage on the extension's name costs the windows only (outputs kept, the bridge says so)" \
    || fail "$G: garbage on the extension's name ($(tail -2 "$out/$gname.err"); $(latest "$gname" | cut -c1-200))"
kill "$impostor" 2> /dev/null
wait "$impostor" 2> /dev/null
"${genv[@]}" gnome-extensions enable gestured@gestured.org
check "$gname" "$G: extension enabled again: the windows return" '.windows | length == 2' 3

# The Shell restarted with a second output: the bridge stays and reads the new one.
gnome_stop
kill "${gclients[@]}" 2> /dev/null
sleep 0.3
kill -0 "$gnome_bridge" 2> /dev/null && pass "$G: Shell stopped: the bridge keeps trying" || fail "$G: Shell stopped: the bridge exited"
gclients=()
t_start=$(now)
if gnome_start shell-2 --virtual-monitor 1280x800 --virtual-monitor 1024x768; then
    geval "Main.overview.hide(); 1" > /dev/null
    check "$gname" "$G: a restarted Shell with two outputs: Meta-0 and Meta-1" '[.outputs[].name] | sort == ["Meta-0","Meta-1"]' 10
    gopen_gtk org.gestured.Left 400 300
    gawait_window org.gestured.Left
    check "$gname" "$G: a window of the new Shell" '[.windows[].app] == ["org.gestured.Left"]' 5
else
    fail "$G: GNOME Shell restarted (log: $(tail -3 "$grun/shell-2.log"))"
fi

# --- the daemon over GNOME: hit-test and a recorded tap over a window ---------------------------------
gsock="$out/gestured-$gname.sock"
cat > "$out/$gname-windows.yaml" <<'EOF'
version: 1
windows:
  - id: gtk-rule
    match: { app: "org.gestured.Left" }
    gestures:
      - id: gtk-tap
        kind: tap
  - id: foot-rule
    match: { app: "foot-app" }
    gestures:
      - id: foot-tap
        kind: tap
EOF
gnome_stop
kill "${gclients[@]}" 2> /dev/null
gclients=()
if gnome_start shell-3 --virtual-monitor 1280x800; then
    geval "Main.overview.hide(); 1" > /dev/null
    "${gin[@]}" "$ggestured" run --no-devices --inject "$recording" --inject-when-subscribed --config "$out/$gname-windows.yaml" \
        --socket "$gsock" > "$out/$gname-daemon.log" 2>&1 &
    gdaemon=$!
    pids+=("$gdaemon")
    for _ in $(seq 100); do [ -S "$gsock" ] && break; sleep 0.05; done
    gopen_foot foot-app
    gopen_gtk org.gestured.Left 400 300
    gawait_window foot-app && gawait_window org.gestured.Left
    # The GTK window over the middle of the screen, where the recording taps; foot below it, larger.
    gmove foot-app 200 100 900 600
    gmove org.gestured.Left 440 250 400 300
    gactivate org.gestured.Left
    "${gin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=GNOME WAYLAND_DISPLAY=wayland-0 DBUS_SESSION_BUS_ADDRESS="$gbus" \
        "$gctl" desktop --socket "$gsock" > "$out/$gname-daemon-bridge.out" 2> "$out/$gname-daemon-bridge.err" &
    pids+=("$!")
    for _ in $(seq 100); do
        "$ctl" status --socket "$gsock" --format json 2>/dev/null | jq -e '.desktop.windows == 2' > /dev/null && break; sleep 0.05
    done
    "$ctl" status --socket "$gsock" --format json | jq -e '.desktop.windows == 2 and .desktop.backend == "gnome"' > /dev/null \
        && pass "$G daemon: the bridge's two windows are in its status" || fail "$G daemon: status $("$ctl" status --socket "$gsock" --format json)"
    "${gin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=GNOME WAYLAND_DISPLAY=wayland-0 DBUS_SESSION_BUS_ADDRESS="$gbus" \
        "$gctl" desktop --check --socket "$gsock" > "$out/$gname-check.txt" 2>&1 && gcheck=0 || gcheck=$?
    [ "$gcheck" -eq 0 ] && grep -q "the gestured extension runs" "$out/$gname-check.txt" && grep -q "the daemon answers" "$out/$gname-check.txt" \
        && pass "$G daemon: gesturectl desktop --check: everything there" \
        || fail "$G daemon: gesturectl desktop --check (exit $gcheck): $(cat "$out/$gname-check.txt")"
    daemon_hits_over_windows "$G" "$gsock" Meta-0 "$gname" foot-app foot-tap
    # Bindings' window actions through the extension's Act (Tests/desktop/actions-gnome.sh).
    . "$root/Tests/desktop/actions-gnome.sh"
    gnome_stop
else
    fail "$G: GNOME Shell started for the daemon checks (log: $(tail -3 "$grun/shell-3.log"))"
fi
kill "${gclients[@]}" 2> /dev/null
echo "figure: the $G part took $(ms "$gnome_t0" "$(now)") ms (package install included)"
