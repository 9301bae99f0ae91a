# KWin headless (sourced by Tests/desktop/run.sh after gnome.sh, whose helpers it uses; once for Debian
# 12's KWin 5.27 on this machine and once for Debian 13's KWin 6 in a trixie root): the bridge loads the
# KWin script (desktop/kwin/gestured.js) itself, found with no flag (the checkout's, as a user who built
# from source runs it); real windows (GTK4 through python3-gi, xterm through Xwayland; foot 1.13
# crashes on KWin's virtual output), moved, stacked, minimized and closed through one-shot KWin scripts of
# the test's own; the output rotated with kscreen-doctor; KWin restarted with two outputs; the script
# unloaded when the bridge stops; then the daemon: `hit-test --output` and a real recording over a
# window. Private buses as for GNOME. KWin 5.27 runs from a copy of kwin_wayland (the installed one
# carries a file capability, cap_sys_resource, these machines refuse); KWin 6's (cap_sys_nice) runs.
#
# Set by the caller: kname (the run's name), kin (the command prefix for that desktop's system: empty,
# or chroot ROOT), kctl / kgestured (the gesturectl and gestured to run there).
kde_t0=$(now)
krun="$out/$kname"
mkdir -p "$krun/empty" "$krun/home" "$krun/rt" "$krun/config" "$krun/data"
chmod 700 "$krun/rt"
for type in system session; do
    cat > "$krun/$type.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>$type</type><listen>unix:path=$krun/$type.bus</listen><servicedir>$krun/empty</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy>
</busconfig>
EOF
    dbus-daemon --nofork --config-file="$krun/$type.conf" 2> /dev/null &
    pids+=("$!")
done
kbus="unix:path=$krun/session.bus"
# From dpkg: Debian 12's installed kwin_wayland cannot even be run here to ask (its file capability).
kpackage=$("${kin[@]}" dpkg-query -W -f '${Version}' kwin-wayland 2> /dev/null)
kversion=$(sed 's/^[0-9]*://' <<< "$kpackage" | grep -oE '^[0-9]+\.[0-9]+')
[ -n "$kversion" ] || { fail "$kname: dpkg-query says kwin-wayland is '$kpackage'"; return 0; }
K="KWin $kversion"
pass "$K: kwin-wayland $kpackage"
if [ "${kversion%%.*}" -lt 6 ]; then
    cp /usr/bin/kwin_wayland "$krun/kwin_wayland"
    kwin_binary=$krun/kwin_wayland
    kwin_extra=(--no-kactivities)
    kxterm=xtermkde     # KWin 5.27 lower-cases an X11 window's class
else
    kwin_binary=/usr/bin/kwin_wayland
    kwin_extra=()
    kxterm=XTermKDE     # KWin 6 keeps it as the client set it
fi
for _ in $(seq 100); do [ -S "$krun/session.bus" ] && [ -S "$krun/system.bus" ] && break; sleep 0.05; done
kenv=("${kin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin HOME="$krun/home" XDG_RUNTIME_DIR="$krun/rt" XDG_CONFIG_HOME="$krun/config"
      XDG_DATA_HOME="$krun/data" NO_AT_BRIDGE=1
      DBUS_SYSTEM_BUS_ADDRESS="unix:path=$krun/system.bus" DBUS_SESSION_BUS_ADDRESS="$kbus")
kwin_start() {  # log name, extra arguments...; sets kwin_pid, kdisplay
    local name=$1; shift
    "${kenv[@]}" KWIN_COMPOSE=Q "$kwin_binary" --virtual --width 1280 --height 800 --socket wayland-kw --no-lockscreen \
        --no-global-shortcuts "${kwin_extra[@]}" --xwayland "$@" > "$krun/$name.log" 2>&1 &
    kwin_pid=$!
    pids+=("$kwin_pid")
    kdisplay=
    for _ in $(seq 200); do
        kill -0 "$kwin_pid" 2> /dev/null || return 1
        if [ -S "$krun/rt/wayland-kw" ] && DBUS_SESSION_BUS_ADDRESS="$kbus" gdbus call --session --dest org.freedesktop.DBus \
            --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner org.kde.KWin 2> /dev/null | grep -q true; then
            local xw lock
            xw=$(pgrep -P "$kwin_pid" Xwayland | head -1)
            [ -n "$xw" ] && kdisplay=$(tr '\0' '\n' < "/proc/$xw/cmdline" | grep -m1 '^:')
            # KWin 6 starts Xwayland when the first X client connects; it holds the display's lock itself.
            if [ -z "$kdisplay" ]; then
                for lock in "${kin[1]:-}"/tmp/.X*-lock; do
                    [ -f "$lock" ] && [ "$(tr -dc '0-9' < "$lock")" = "$kwin_pid" ] && kdisplay=":$(basename "$lock" | tr -dc '0-9')"
                done
            fi
            [ -n "$kdisplay" ] && return 0
        fi
        sleep 0.05
    done
    return 1
}
kwin_stop() {
    kill "$kwin_pid" 2> /dev/null
    for _ in $(seq 100); do kill -0 "$kwin_pid" 2> /dev/null || break; sleep 0.05; done
    kill -9 "$kwin_pid" 2> /dev/null
    wait "$kwin_pid" 2> /dev/null
}
kdbus() { DBUS_SESSION_BUS_ADDRESS="$kbus" gdbus call --session --dest org.kde.KWin "$@" 2> /dev/null; }
# Runs JavaScript in KWin once, as a script of the test's own (a fresh name each time; the script id
# race of 5.27 is avoided by waiting until the previous one is gone).
kjs_n=0
kjs() {
    local name file id
    kjs_n=$((kjs_n + 1)); name="test-$kjs_n"; file="$krun/$name.js"
    printf '%s\n' "$1" > "$file"
    id=$(kdbus --object-path /Scripting --method org.kde.kwin.Scripting.loadScript "$file" "$name" | tr -dc '0-9')
    # KWin 5.27: /N; KWin 6: /Scripting/ScriptN.
    kdbus --object-path "/$id" --method org.kde.kwin.Script.run > /dev/null \
        || kdbus --object-path "/Scripting/Script$id" --method org.kde.kwin.Script.run > /dev/null
    kdbus --object-path /Scripting --method org.kde.kwin.Scripting.unloadScript "$name" > /dev/null
    for _ in $(seq 100); do
        kdbus --object-path /Scripting --method org.kde.kwin.Scripting.isScriptLoaded "$name" | grep -q false && break; sleep 0.02
    done
}
# KWin 6 renamed clientList / activeClient to windowList / activeWindow.
kclient() { echo "(workspace.windowList ? workspace.windowList() : workspace.clientList()).filter(c => c.resourceClass == '$1')"; }
kactivate() { kjs "$(kclient "$1").forEach(c => { if ('activeWindow' in workspace) workspace.activeWindow = c; else workspace.activeClient = c; });"; }
kmove() { kjs "$(kclient "$1").forEach(c => { c.frameGeometry = {x: $2, y: $3, width: $4, height: $5}; });"; }
kclients=()
kopen_gtk() {
    "${kenv[@]}" WAYLAND_DISPLAY=wayland-kw GDK_BACKEND=wayland GTK_A11Y=none python3 "$root/Tests/desktop/gtk4-window.py" "$@" > "$krun/gtk-$1.log" 2>&1 &
    kclients+=("$!"); pids+=("$!")
}
kopen_xterm() {
    "${kenv[@]}" DISPLAY="$kdisplay" xterm -class "$1" -geometry 60x20+40+60 -e sleep 600 > "$krun/xterm-$1.log" 2>&1 &
    kclients+=("$!"); pids+=("$!")
}
kscreen() {
    "${kenv[@]}" WAYLAND_DISPLAY=wayland-kw QT_QPA_PLATFORM=wayland KSCREEN_BACKEND_INPROCESS=1 timeout 20 kscreen-doctor "$@" > /dev/null 2>&1
}

t_start=$(now)
if ! kwin_start kwin-1; then
    fail "$K: started headless (log: $(tail -3 "$krun/kwin-1.log"))"
    return 0
fi
pass "$K: started headless in $(ms "$t_start" "$(now)") ms (Xwayland $kdisplay)"
# No flag: the session's environment says KDE. The bridge needs WAYLAND_DISPLAY for kscreen-doctor.
start_bridge "$kname" XDG_CURRENT_DESKTOP=KDE XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-kw XDG_RUNTIME_DIR="$krun/rt" \
    DISPLAY="$kdisplay" DBUS_SESSION_BUS_ADDRESS="$kbus"
kde_bridge=$bridge
check "$kname" "$K: the output Virtual-0, 1280x800" \
    '.outputs == [{"name":"Virtual-0","x":0,"y":0,"width":1280,"height":800,"scale":1,"transform":"normal"}] and .backend == "kde"' 8
kdbus --object-path /Scripting --method org.kde.kwin.Scripting.isScriptLoaded gestured-desktop | grep -q true \
    && pass "$K: the bridge loaded its KWin script" || fail "$K: the bridge loaded its KWin script"
kopen_gtk org.gestured.Left 400 300
kopen_xterm XTermKDE
check "$kname" "$K: two real windows (GTK4, xterm through Xwayland: its class $kxterm)" \
    "[.windows[].app] | sort == ([\"org.gestured.Left\",\"$kxterm\"] | sort)" 8
kmove org.gestured.Left 440 250 400 337
kmove "$kxterm" 40 60 364 301
check "$kname" "$K: windows at the frames the test set" \
    "[$(win org.gestured.Left) | [.x,.y,.width,.height]] == [[440,250,400,337]] and [$(win "$kxterm") | [.x,.y,.width,.height]] == [[40,60,364,301]]" 3
kactivate org.gestured.Left
check "$kname" "$K: the activated window is focused and on top" \
    "([.windows[] | select(.focused) | .app] == [\"org.gestured.Left\"]) and (.windows | max_by(.stack) | .app) == \"org.gestured.Left\""
kmove org.gestured.Left 100 120 400 337
check "$kname" "$K: a move is pushed by the script (no polling)" "[$(win org.gestured.Left) | [.x,.y]] == [[100,120]]"
kjs "$(kclient "$kxterm").forEach(c => { c.minimized = true; });"
check "$kname" "$K: a minimized window is gone" '[.windows[].app] == ["org.gestured.Left"]'
kjs "$(kclient "$kxterm").forEach(c => { c.minimized = false; });"
check "$kname" "$K: unminimized, it is back" '.windows | length == 2'
kscreen output.Virtual-0.rotation.left
check "$kname" "$K: the output turned (kscreen-doctor left): 800x1280, \"90\"" '.outputs[0] | [.width,.height,.transform] == [800,1280,"90"]' 5
kscreen output.Virtual-0.rotation.none
check "$kname" "$K: the output back to normal" '.outputs[0] | [.width,.height,.transform] == [1280,800,"normal"]' 5
kill "${kclients[1]}" 2> /dev/null
check "$kname" "$K: a closed window (xterm killed) is gone" '[.windows[].app] == ["org.gestured.Left"]' 3

kmoves=()
for i in $(seq 1 20); do
    x=$((100 + (i % 2) * 300 + i))
    sleep "0.$(printf '%03d' $((RANDOM % 300)))"
    t0=$(now)
    kmove org.gestured.Left "$x" 120 400 337
    t1=$(await "$kname" "[$(win org.gestured.Left) | .x] == [$x]" 2) && kmoves+=("$(ms "$t0" "$t1")")
done
[ ${#kmoves[@]} -eq 20 ] && pass "$K: 20 moves seen" || fail "$K: 20 moves seen (${#kmoves[@]})"
# The snapshot comes before the test's one-shot script has been unloaded: measured from the start of
# loading it, an upper bound (gdbus's start, KWin's loading and running of the script included).
echo "figure: $K, from the start of the test's one-shot move script (gdbus, load, run included) to the changed snapshot:"
echo "figure:   move (pushed by the script): $(percentiles "${kmoves[@]}")"
echo "figure: $K bridge RSS $(awk '/VmRSS/ { print $2, $3 }' /proc/$kde_bridge/status), peak $(awk '/VmHWM/ { print $2, $3 }' /proc/$kde_bridge/status)"
sleep 0.5
c0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$kde_bridge/status)
sleep 5
c1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$kde_bridge/status)
echo "figure: $K idle, 1 window: $((c1 - c0)) voluntary context switches in 5 s"
[ $((c1 - c0)) -le 2 ] && pass "$K: idle, the bridge sleeps ($((c1 - c0)) switches in 5 s)" \
    || fail "$K: idle, the bridge sleeps ($((c1 - c0)) switches in 5 s, expected at most 2)"

# KWin restarted with two outputs: the bridge loads its script into the new one.
kwin_stop
kill "${kclients[@]}" 2> /dev/null
kclients=()
sleep 0.3
kill -0 "$kde_bridge" 2> /dev/null && pass "$K: KWin stopped: the bridge keeps trying" || fail "$K: KWin stopped: the bridge exited"
if kwin_start kwin-2 --output-count 2; then
    check "$kname" "$K: a restarted KWin with two outputs: Virtual-0 and Virtual-1" '[.outputs[].name] | sort == ["Virtual-0","Virtual-1"]' 10
    kopen_gtk org.gestured.Left 400 300
    check "$kname" "$K: a window of the new KWin" '[.windows[].app] == ["org.gestured.Left"]' 8
else
    fail "$K: restarted (log: $(tail -3 "$krun/kwin-2.log"))"
fi
kill "$kde_bridge"
for _ in $(seq 100); do kill -0 "$kde_bridge" 2> /dev/null || break; sleep 0.05; done
kdbus --object-path /Scripting --method org.kde.kwin.Scripting.isScriptLoaded gestured-desktop | grep -q false \
    && pass "$K: the bridge stopped (SIGTERM): its script is unloaded" || fail "$K: the bridge stopped (SIGTERM): its script is still loaded"

# --- the daemon over KDE -----------------------------------------------------------------------------
ksock="$out/gestured-$kname.sock"
cat > "$out/$kname-windows.yaml" <<EOF
version: 1
windows:
  - id: gtk-rule
    match: { app: "org.gestured.Left" }
    gestures:
      - id: gtk-tap
        kind: tap
  - id: xterm-rule
    match: { app: "$kxterm" }
    gestures:
      - id: xterm-tap
        kind: tap
EOF
kwin_stop
kill "${kclients[@]}" 2> /dev/null
kclients=()
if kwin_start kwin-3; then
    "${kin[@]}" "$kgestured" run --no-devices --inject "$recording" --inject-when-subscribed --config "$out/$kname-windows.yaml" \
        --socket "$ksock" > "$out/$kname-daemon.log" 2>&1 &
    kdaemon=$!
    pids+=("$kdaemon")
    for _ in $(seq 100); do [ -S "$ksock" ] && break; sleep 0.05; done
    "${kin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=KDE WAYLAND_DISPLAY=wayland-kw XDG_RUNTIME_DIR="$krun/rt" DBUS_SESSION_BUS_ADDRESS="$kbus" \
        "$kctl" desktop --socket "$ksock" > "$out/$kname-daemon-bridge.out" 2> "$out/$kname-daemon-bridge.err" &
    kdbridge=$!
    pids+=("$kdbridge")
    kopen_xterm XTermKDE
    kopen_gtk org.gestured.Left 400 300
    for _ in $(seq 200); do
        "$ctl" status --socket "$ksock" --format json 2>/dev/null | jq -e '.desktop.windows == 2' > /dev/null && break; sleep 0.05
    done
    kmove "$kxterm" 200 100 900 600
    kmove org.gestured.Left 440 250 400 300
    kactivate org.gestured.Left
    for _ in $(seq 100); do
        "$ctl" hit-test --socket "$ksock" --output Virtual-0 640 400 2>/dev/null | grep -q org.gestured.Left && break; sleep 0.05
    done
    "$ctl" status --socket "$ksock" --format json | jq -e '.desktop.windows == 2 and .desktop.backend == "kde"' > /dev/null \
        && pass "$K daemon: the bridge's two windows are in its status" || fail "$K daemon: status $("$ctl" status --socket "$ksock" --format json)"
    # What a user runs to see what works, while the session's bridge runs: all there.
    "${kin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=KDE WAYLAND_DISPLAY=wayland-kw XDG_RUNTIME_DIR="$krun/rt" DBUS_SESSION_BUS_ADDRESS="$kbus" \
        "$kctl" desktop --check --socket "$ksock" > "$out/$kname-check.txt" 2>&1 && kcheck=0 || kcheck=$?
    [ "$kcheck" -eq 0 ] && grep -q "its KWin script gestured-desktop is loaded" "$out/$kname-check.txt" && grep -q "the daemon answers" "$out/$kname-check.txt" \
        && pass "$K daemon: gesturectl desktop --check beside the running bridge: everything there" \
        || fail "$K daemon: gesturectl desktop --check (exit $kcheck): $(cat "$out/$kname-check.txt")"
    daemon_hits_over_windows "$K" "$ksock" Virtual-0 "$kname" "$kxterm" xterm-tap
    # Bindings' window actions through one-shot KWin scripts (Tests/desktop/actions-kde.sh), with a
    # bridge of their own: one bridge a session (it owns org.gestured.KWin).
    kill "$kdbridge" 2> /dev/null; wait "$kdbridge" 2> /dev/null
    . "$root/Tests/desktop/actions-kde.sh"
    kwin_stop
else
    fail "$K: started for the daemon checks (log: $(tail -3 "$krun/kwin-3.log"))"
fi
kill "${kclients[@]}" 2> /dev/null
echo "figure: the $K part took $(ms "$kde_t0" "$(now)") ms (package install included)"
