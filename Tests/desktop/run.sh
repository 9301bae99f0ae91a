#!/usr/bin/env bash
# The session bridge against real compositors: Debian's sway headless (run as an unprivileged user,
# which sway 1.7 requires) with real foot windows, then Xvfb with openbox and real xterm windows,
# then GNOME Shell 43 headless with the shipped extension (Tests/desktop/gnome.sh) and KWin 5.27
# headless with the shipped KWin script (Tests/desktop/kde.sh).
# `gesturectl desktop --print` must show each window at its rectangle and follow moves, resizes,
# floating, fullscreen, workspace switches and closes within one poll; a killed sway is tried again
# and a new one picked up. Then, when the daemon reads `desktop` snapshots (its `status` has a
# `desktop` key), a real touchscreen recording injected over a window must reach that window's
# gesture and not its neighbour's, and the daemon must keep serving when sway dies.
# Prints the figures (change-to-snapshot latency, the bridge's RSS and idle wake-ups), ends with
# "N passed, M failed" and exits non-zero on any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

log() { echo "desktop-test: $*" >&2; }
passed=0
failed=0
notrun=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }

scripts/install-deps sway foot xvfb openbox xterm xdotool wmctrl x11-utils x11-xserver-utils jq socat libxcb1-dev libxcb-randr0-dev || {
    echo "desktop-test: could not install the compositors"; echo "0 passed, 1 failed"; exit 1; }
swift build --product gesturectl > /tmp/gestured-desktop-build.log 2>&1 \
    && swift build --product gestured >> /tmp/gestured-desktop-build.log 2>&1 || {
    grep -v '^\[' /tmp/gestured-desktop-build.log | tail -30; echo "0 passed, 1 failed"; exit 1; }
bin=$(swift build --show-bin-path)
# GESTURECTL, GESTURED: other builds to use (e.g. the release build users install).
ctl=${GESTURECTL:-$bin/gesturectl}
gestured=${GESTURED:-$bin/gestured}

out=$(mktemp -d /tmp/gestured-desktop.XXXXXX)
chmod 755 "$out"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    sleep 1
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

now() { echo "$EPOCHREALTIME"; }
# Milliseconds between two $EPOCHREALTIME values.
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) * 1000 }'; }
percentiles() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "none"; exit }
    p50 = v[int((NR - 1) * 0.5) + 1]; p99 = v[int((NR - 1) * 0.99) + 1]; printf "p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d)", p50, p99, v[NR], NR }'; }

# --- the bridge's output -----------------------------------------------------------------------------
# Each printed line, prefixed with the time it arrived. The last complete snapshot is the last line
# with "part" = "parts" - 1 (a snapshot of at most 100 windows is one line).
# bridge_in: a command prefix that runs the bridge in another system (chroot ROOT); bridge_ctl: its gesturectl.
bridge_in=()
bridge_ctl=
start_bridge() {  # name, environment assignments..., [-- more arguments of gesturectl desktop]
    local name=$1; shift
    local assignments=() arguments=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do assignments+=("$1"); shift; done
    [ $# -gt 0 ] && shift && arguments=("$@")
    : > "$out/$name.lines"
    "${bridge_in[@]}" /usr/bin/env -i PATH=/usr/bin:/bin "${assignments[@]}" "${bridge_ctl:-$ctl}" desktop --print --poll-interval 500 "${arguments[@]}" \
        > >(while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >> "$out/$name.lines") \
        2> "$out/$name.err" &
    bridge=$!
    pids+=("$bridge")
}
latest() { tail -n 1 "$out/$1.lines" | cut -d' ' -f2-; }
# Waits until the latest snapshot satisfies a jq condition; prints the arrival time of that line.
await() {  # name, jq condition, seconds
    local name=$1 condition=$2 seconds=${3:-2} deadline line
    deadline=$(awk -v t="$EPOCHREALTIME" -v s="$seconds" 'BEGIN { printf "%.6f", t + s }')
    while :; do
        line=$(tail -n 1 "$out/$name.lines")
        if [ -n "$line" ] && echo "${line#* }" | jq -e "$condition" > /dev/null 2>&1; then
            echo "${line%% *}"
            return 0
        fi
        if awk -v t="$EPOCHREALTIME" -v d="$deadline" 'BEGIN { exit !(t > d) }'; then return 1; fi
        sleep 0.02
    done
}
check() {  # name, what, jq condition, [seconds]
    if await "$1" "$3" "${4:-1.5}" > /dev/null; then pass "$2"; else fail "$2 (latest: $(latest "$1" | cut -c1-600))"; fi
}
win() { echo ".windows[] | select(.app == \"$1\")"; }

# The recorded tap the daemon checks inject over a window.
recording="$root/Tests/GestureDaemonTests/Fixtures/Wacom ISDv4 E6 Finger.single-tap-center.events"
# GESTURED_DESKTOPS: which parts to run (default all): any of sway-x11 (headless sway, Xvfb + openbox, the
# daemon over sway), debian12 (GNOME Shell 43, KWin 5.27), debian13 (GNOME Shell 48, KWin 6 in a trixie root).
wants() { [ -z "${GESTURED_DESKTOPS:-}" ] || [[ " $GESTURED_DESKTOPS " == *" $1 "* ]]; }

# The recorded tap injected over the upper of two windows: listens on the daemon's socket until either
# window's gesture comes (then half a second more, for a wrong second one), and checks that only the
# upper one's did. Arguments: socket, file for the lines, the upper's gesture, the lower's, what
# passes, the label of a failure.
tap_reaches_upper() {
    local sock=$1 lines=$2 upper=$3 lower=$4 what=$5 label=$6
    timeout 10 "$ctl" listen --socket "$sock" --format json > "$lines" 2>&1 &
    local listener=$!
    for _ in $(seq 200); do grep -q "\"$upper\"\|\"$lower\"" "$lines" 2>/dev/null && break; sleep 0.05; done
    sleep 0.5
    kill "$listener" 2>/dev/null
    if grep -q "\"gesture\":\"$upper\"" "$lines" && ! grep -q "\"gesture\":\"$lower\"" "$lines"; then
        pass "$what"
    else
        fail "$label: the tap's gestures: $(grep -o '"gesture":"[a-z-]*"' "$lines" | sort | uniq -c | tr '\n' ' ')"
    fi
}

# --- the daemon over a GNOME or KDE session's two windows (gnome.sh, kde.sh) ----------------------------
# The GTK window org.gestured.Left lies over a terminal at the places the desktop's file set: hit-test
# names the window under each point, and the recorded tap over the GTK window reaches its rule, not the
# terminal's below. Arguments: label (G or K's name), socket, output, run name (the files), the
# terminal's app id and the terminal's gesture.
daemon_hits_over_windows() {
    local label=$1 sock=$2 output=$3 name=$4 lower=$5 lowertap=$6
    "$ctl" hit-test --socket "$sock" --output "$output" 640 400 > "$out/$name-hit.txt" 2>&1
    grep -q "org.gestured.Left" "$out/$name-hit.txt" && ! grep -q "$lower" "$out/$name-hit.txt" \
        && pass "$label daemon: hit-test --output $output 640 400 hits the GTK window" || fail "$label daemon: hit-test 640 400: $(cat "$out/$name-hit.txt")"
    "$ctl" hit-test --socket "$sock" --output "$output" 300 600 > "$out/$name-hit2.txt" 2>&1
    grep -q "$lower" "$out/$name-hit2.txt" && ! grep -q "org.gestured.Left" "$out/$name-hit2.txt" \
        && pass "$label daemon: hit-test --output $output 300 600 hits $lower" || fail "$label daemon: hit-test 300 600: $(cat "$out/$name-hit2.txt")"
    tap_reaches_upper "$sock" "$out/$name-listen.jsonl" gtk-tap "$lowertap" \
        "$label daemon: a recorded tap over the GTK window reaches its rule, not $lower's below" "$label daemon"
}

if wants sway-x11; then
# --- headless sway -----------------------------------------------------------------------------------
sway_start() {  # run number, [the run whose XDG_RUNTIME_DIR to reuse: the same login]; sets SWAYSOCK
    local rt="$out/sway-run-${2:-$1}"
    mkdir -p "$rt"; chown 65534:65534 "$rt"; chmod 700 "$rt"; rm -f "$rt/sway.env"
    printf 'exec env > $XDG_RUNTIME_DIR/sway.env\ndefault_border normal 2\n' > "$out/sway.conf"
    chmod 644 "$out/sway.conf"
    env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$rt" WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 \
        WLR_RENDERER=pixman WLR_HEADLESS_OUTPUTS=1 \
        setpriv --reuid=65534 --regid=65534 --clear-groups sway -c "$out/sway.conf" > "$out/sway-$1.log" 2>&1 &
    sway_pid=$!
    pids+=("$sway_pid")
    for _ in $(seq 100); do [ -s "$rt/sway.env" ] && break; sleep 0.05; done
    SWAYSOCK=$(sed -n 's/^SWAYSOCK=//p' "$rt/sway.env" 2>/dev/null)
    export SWAYSOCK
}
sm() { swaymsg -s "$SWAYSOCK" "$@" > /dev/null; }
open_foot() { sm "exec foot -a $1 sleep 600"; }

sway_start 1
if [ -z "$SWAYSOCK" ]; then
    fail "headless sway started (log: $(tail -3 "$out/sway-1.log"))"
else
    pass "headless sway started ($SWAYSOCK)"
    start_bridge sway SWAYSOCK="$SWAYSOCK"
    check sway "the output HEADLESS-1, 1280x720, transform normal" \
        '.outputs == [{"name":"HEADLESS-1","x":0,"y":0,"width":1280,"height":720,"scale":1,"transform":"normal","focused":true}]' 3
    open_foot left-app
    await sway "[$(win left-app)] | length == 1" 3 > /dev/null
    open_foot right-app
    check sway "two tiled windows side by side, title bars included" \
        "[$(win left-app) | [.x,.y,.width,.height]] == [[0,0,640,720]] and [$(win right-app) | [.x,.y,.width,.height]] == [[640,0,640,720]]" 3
    check sway "ids, pids, workspace and focus of real windows" \
        "[$(win right-app) | (.id|test(\"^[0-9]+$\")) and .pid > 1 and .workspace == \"1\" and .focused and (.floating|not)] == [true]"
    sm '[app_id=right-app] floating enable, resize set 400 300, move position 100 80'
    check sway "floating: the window at its new frame, above the tiled one" \
        "[$(win right-app) | [.x,.y,.width,.height,.floating]] == [[100,80,400,300,true]] and ([$(win right-app)][0].stack > [$(win left-app)][0].stack)"
    sm '[app_id=right-app] move position 300 200'
    check sway "a move (sway sends no event) within one poll" "[$(win right-app) | [.x,.y]] == [[300,200]]"
    sm '[app_id=right-app] resize set 500 350'
    check sway "a resize (no event) within one poll" "[$(win right-app) | [.width,.height]] == [[500,350]]"
    sm '[app_id=left-app] fullscreen enable'
    check sway "fullscreen: the one window, covering the output" \
        "[.windows[] | [.app,.x,.y,.width,.height,.fullscreen]] == [[\"left-app\",0,0,1280,720,true]]"
    sm '[app_id=left-app] fullscreen disable'
    check sway "fullscreen off: both windows again" ".windows | length == 2"
    sm 'workspace 2'
    check sway "a workspace switch: the other workspace's windows are gone" ".windows == []"
    open_foot other-app
    check sway "a window on workspace 2" "[.windows[] | [.app,.workspace,.x,.y,.width,.height]] == [[\"other-app\",\"2\",0,0,1280,720]]" 3
    sm 'workspace 1'
    check sway "back on workspace 1" "[.windows[].app] | sort == [\"left-app\",\"right-app\"]"
    sm 'output HEADLESS-1 transform 90'
    check sway "a turned output: 720x1280, transform 90" '.outputs[0] | [.width,.height,.transform] == [720,1280,"90"]'
    sm 'output HEADLESS-1 transform normal'
    check sway "the output back to normal" '.outputs[0] | [.width,.height,.transform] == [1280,720,"normal"]'
    sm '[app_id=right-app] kill'
    check sway "a close: the window is gone" "[.windows[].app] == [\"left-app\"]"

    # Figures: change to changed snapshot. A move sends no event (read at the next poll); a focus
    # change does (read at once).
    open_foot right-app
    await sway "[$(win right-app)] | length == 1" 3 > /dev/null
    sm '[app_id=right-app] floating enable, resize set 300 200'
    moves=()
    focuses=()
    moves_after=()
    focuses_after=()
    for i in $(seq 1 50); do
        x=$((100 + (i % 2) * 300 + i))
        # At a random moment of the poll interval, as a user's change comes.
        sleep "0.$(printf '%03d' $((RANDOM % 500)))"
        t0=$(now); sm "[app_id=right-app] move position $x 100"; ta=$(now)
        t1=$(await sway "[$(win right-app) | .x] == [$x]" 2) && moves+=("$(ms "$t0" "$t1")") && moves_after+=("$(ms "$ta" "$t1")")
        target=$([ $((i % 2)) -eq 0 ] && echo left-app || echo right-app)
        t0=$(now); sm "[app_id=$target] focus"; ta=$(now)
        t1=$(await sway "[$(win "$target") | .focused] == [true]" 2) && focuses+=("$(ms "$t0" "$t1")") && focuses_after+=("$(ms "$ta" "$t1")")
    done
    if [ ${#moves[@]} -eq 50 ] && [ ${#focuses[@]} -eq 50 ]; then pass "50 moves and 50 focus changes seen"; else
        fail "50 moves and 50 focus changes seen (moves ${#moves[@]}, focus ${#focuses[@]})"; fi
    echo "figure: from swaymsg's start to the changed snapshot (swaymsg's own run included):"
    echo "figure:   move (no event, poll 500 ms): $(percentiles "${moves[@]}")"
    echo "figure:   focus change (event): $(percentiles "${focuses[@]}")"
    echo "figure: from swaymsg's return (the change made) to the changed snapshot:"
    echo "figure:   move (no event, poll 500 ms): $(percentiles "${moves_after[@]}")"
    echo "figure:   focus change (event): $(percentiles "${focuses_after[@]}")"
    echo "figure: load average while measuring: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
    echo "figure: bridge RSS $(awk '/VmRSS/ { print $2, $3 }' /proc/$bridge/status), peak $(awk '/VmHWM/ { print $2, $3 }' /proc/$bridge/status)"
    c0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$bridge/status)
    cpu0=$(awk '{ print $14 + $15 }' /proc/$bridge/stat)
    sleep 10
    c1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$bridge/status)
    cpu1=$(awk '{ print $14 + $15 }' /proc/$bridge/stat)
    echo "figure: idle, 2 windows (poll 500 ms): CPU $(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) )) ms in 10 s"
    # Each poll is a wake-up and a wait for each of sway's two replies: about 3 switches a poll.
    echo "figure: idle, 2 windows (poll 500 ms): $((c1 - c0)) voluntary context switches in 10 s"
    if [ $((c1 - c0)) -le 100 ]; then pass "idle with windows: only the poll wakes the bridge ($((c1 - c0)) switches in 10 s)"; else
        fail "idle with windows: only the poll wakes the bridge ($((c1 - c0)) switches in 10 s, expected at most 100)"; fi
    sm 'workspace 3'
    await sway ".windows == []" 3 > /dev/null
    sleep 0.3
    c0=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$bridge/status)
    sleep 5
    c1=$(awk '/^voluntary_ctxt_switches/ { print $2 }' /proc/$bridge/status)
    echo "figure: idle, no windows: $((c1 - c0)) voluntary context switches in 5 s"
    if [ $((c1 - c0)) -le 1 ]; then pass "idle without windows: the bridge sleeps ($((c1 - c0)) switches in 5 s)"; else
        fail "idle without windows: the bridge sleeps ($((c1 - c0)) switches in 5 s, expected none)"; fi
    sm 'workspace 1'

    # A compositor that dies: the bridge stays and picks up the next one.
    lines_before=$(wc -l < "$out/sway.lines")
    kill "$sway_pid"; wait "$sway_pid" 2>/dev/null
    sleep 1.5
    if kill -0 "$bridge" 2>/dev/null; then pass "sway killed: the bridge keeps trying"; else fail "sway killed: the bridge exited"; fi
    grep -q "looking for the compositor again" "$out/sway.err" && pass "the bridge says it lost sway" \
        || fail "the bridge says it lost sway ($(cat "$out/sway.err"))"
    old=$SWAYSOCK
    # The same login: sway listens at a new path (its pid is in the name) in the same folder; the
    # bridge, started with the old $SWAYSOCK, finds it there (CompositorDiscovery).
    sway_start 2 1
    [ "$SWAYSOCK" != "$old" ] && pass "a restarted sway listens at a new path ($(basename "$SWAYSOCK"))" \
        || fail "a restarted sway listens at a new path (both $SWAYSOCK)"
    t0=$(now)
    open_foot reborn-app
    if t1=$(await sway "[.windows[].app] == [\"reborn-app\"]" 2); then
        pass "a restarted sway found at its new socket, its window within 2 s ($(ms "$t0" "$t1") ms)"
    else
        fail "a restarted sway found at its new socket, its window within 2 s (latest: $(latest sway | cut -c1-300); $(tail -2 "$out/sway.err"))"
    fi
    [ "$(wc -l < "$out/sway.lines")" -gt "$lines_before" ] || fail "no snapshot after the restart"
fi

# --- --once and no compositor ------------------------------------------------------------------------
if env -i PATH=/usr/bin:/bin "$ctl" desktop --print > "$out/none.out" 2> "$out/none.err"; then
    fail "no compositor: exits non-zero"
else
    grep -q 'SWAYSOCK.*I3SOCK.*HYPRLAND_INSTANCE_SIGNATURE.*NIRI_SOCKET.*DISPLAY' "$out/none.err" \
        && pass "no compositor: exits non-zero and names what it looked for" || fail "no compositor: message ($(cat "$out/none.err"))"
fi
if env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=GNOME WAYLAND_DISPLAY=wayland-0 DISPLAY=:0 "$ctl" desktop --print 2> "$out/gnome-nobus.err"; then
    fail "GNOME with no session bus: exits non-zero"
else
    grep -q 'DBUS_SESSION_BUS_ADDRESS' "$out/gnome-nobus.err" && pass "GNOME with no session bus: says which variables it looked at" \
        || fail "GNOME with no session bus: message ($(cat "$out/gnome-nobus.err"))"
fi

# --- X11: Xvfb, openbox, xterm -----------------------------------------------------------------------
display=:87
Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp > "$out/xvfb.log" 2>&1 &
pids+=("$!")
for _ in $(seq 400); do DISPLAY=$display xdpyinfo > /dev/null 2>&1 && break; sleep 0.05; done
DISPLAY=$display xdpyinfo > /dev/null 2>&1 && pass "Xvfb started ($display)" || fail "Xvfb started ($display; log: $(tail -3 "$out/xvfb.log"))"
start_bridge x11 DISPLAY="$display"
x11_bridge=$bridge
# openbox now and then fails to open a display that is up ("Failed to open the display"): up to
# three tries, each given 20 s to publish EWMH.
for try in 1 2 3; do
    DISPLAY=$display openbox > "$out/openbox-$try.log" 2>&1 &
    openbox_pid=$!
    pids+=("$openbox_pid")
    for _ in $(seq 400); do DISPLAY=$display wmctrl -m > /dev/null 2>&1 && break; sleep 0.05; done
    DISPLAY=$display wmctrl -m > /dev/null 2>&1 && break
    echo "openbox try $try did not come up: $(tail -2 "$out/openbox-$try.log")" >&2
    kill "$openbox_pid" 2>/dev/null
done
# Xvfb's RandR has one monitor, named as xrandr names it ("screen"); it can neither turn nor split it.
xrandr_name=$(DISPLAY=$display xrandr --listmonitors | awk 'NR == 2 { print $NF }')
check x11 "X11: RandR's monitor as the output, named as xrandr names it ($xrandr_name)" \
    ".outputs == [{\"name\":\"$xrandr_name\",\"x\":0,\"y\":0,\"width\":1024,\"height\":768,\"scale\":1,\"transform\":\"normal\"}] and \"$xrandr_name\" == \"screen\"" 5
DISPLAY=$display xterm -class XTermLeft -geometry 60x20+40+50 -e sleep 600 &
pids+=("$!")
DISPLAY=$display xterm -class XTermRight -geometry 60x20+500+300 -e sleep 600 &
pids+=("$!")
check x11 "X11: two xterms by WM_CLASS" "[.windows[].app] | sort == [\"XTermLeft\",\"XTermRight\"]" 5
# The frame the bridge reports is the client's position and size (xwininfo) grown by
# _NET_FRAME_EXTENTS (xprop).
frame_of() {  # class -> "x y w h" as X tools see it
    local id left right top bottom ax ay w h
    id=$(DISPLAY=$display wmctrl -lx | awk -v c="$1" '$3 ~ ("\\." c "$") { print $1; exit }')
    id=$((id))
    # No such window: xwininfo -id 0 would wait for a click.
    if [ "$id" = 0 ]; then echo "-1 -1 -1 -1 0"; return; fi
    read -r left right top bottom < <(DISPLAY=$display xprop -id "$id" _NET_FRAME_EXTENTS | sed 's/.*= //; s/,//g')
    ax=$(DISPLAY=$display xwininfo -id "$id" | awk '/Absolute upper-left X/ { print $4 }')
    ay=$(DISPLAY=$display xwininfo -id "$id" | awk '/Absolute upper-left Y/ { print $4 }')
    w=$(DISPLAY=$display xwininfo -id "$id" | awk '/Width/ { print $2 }')
    h=$(DISPLAY=$display xwininfo -id "$id" | awk '/Height/ { print $2 }')
    echo "$((ax - left)) $((ay - top)) $((w + left + right)) $((h + top + bottom)) $id"
}
x11_frame_check() {  # class, what
    local f
    read -r fx fy fw fh fid < <(frame_of "$1")
    check x11 "$2 ($fx,$fy ${fw}x$fh)" "[.windows[] | select(.app == \"$1\") | [.id,.x,.y,.width,.height]] == [[\"$fid\",$fx,$fy,$fw,$fh]]"
}
x11_frame_check XTermLeft "X11: a window at its frame (client + _NET_FRAME_EXTENTS)"
read -r _ _ _ _ leftid < <(frame_of XTermLeft)
DISPLAY=$display xdotool windowmove "$leftid" 300 250
x11_frame_check XTermLeft "X11: a move (xdotool)"
DISPLAY=$display xdotool windowsize "$leftid" 420 260
x11_frame_check XTermLeft "X11: a resize (xdotool)"
DISPLAY=$display wmctrl -x -a XTermLeft
check x11 "X11: the active window is focused and on top" \
    "([.windows[] | select(.focused) | .app] == [\"XTermLeft\"]) and (.windows | max_by(.stack) | .app) == \"XTermLeft\""
DISPLAY=$display wmctrl -x -r XTermLeft -b add,fullscreen
check x11 "X11: fullscreen covers the screen" \
    "[.windows[] | select(.app == \"XTermLeft\") | [.x,.y,.width,.height,.fullscreen]] == [[0,0,1024,768,true]]"
DISPLAY=$display wmctrl -x -r XTermLeft -b remove,fullscreen
DISPLAY=$display wmctrl -n 2
DISPLAY=$display wmctrl -s 1
check x11 "X11: another desktop: no windows" ".windows == []"
DISPLAY=$display wmctrl -s 0
check x11 "X11: back: both windows" ".windows | length == 2"
DISPLAY=$display xdotool windowminimize "$leftid"
check x11 "X11: a minimized window is gone" "[.windows[].app] == [\"XTermRight\"]"
DISPLAY=$display wmctrl -x -c XTermRight
check x11 "X11: a closed window is gone" "[.windows[].app] == []"
echo "figure: X11 bridge RSS $(awk '/VmRSS/ { print $2, $3 }' /proc/$x11_bridge/status)"
if grep -q "failed\|error" "$out/x11.err"; then log "x11 bridge said: $(cat "$out/x11.err")"; fi

# --- the daemon: windows as regions ------------------------------------------------------------------
# Needs the daemon side of the desktop request; runs when `status` reports `desktop`.
socket="$out/gestured.sock"
cat > "$out/windows.yaml" <<'EOF'
version: 1
windows:
  - id: left-rule
    match: { app: "left-app" }
    gestures:
      - id: left-tap
        kind: tap
  - id: right-rule
    match: { app: "right-app" }
    gestures:
      - id: right-tap
        kind: tap
EOF
"$gestured" run --no-devices --inject "$recording" --inject-when-subscribed --config "$out/windows.yaml" \
    --socket "$socket" > "$out/daemon.log" 2>&1 &
daemon=$!
pids+=("$daemon")
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
daemon_checks=14
if ! "$ctl" status --socket "$socket" --format json > "$out/status.json" 2>&1 || ! jq -e 'has("desktop")' "$out/status.json" > /dev/null 2>&1; then
    notrun=$daemon_checks
    echo "NOT RUN: $daemon_checks daemon checks (a tap over a window reaches its gesture, not its neighbour's; the"
    echo "         daemon serves on when sway dies; a new sway's windows return): this daemon's status has no"
    echo "         \"desktop\" key (the daemon side of the desktop request is not in this build)"
else
    sway_start 3
    sm 'exec foot -a right-app sleep 600'
    sleep 0.5
    sm 'exec foot -a left-app sleep 600'
    sleep 0.5
    # left-app floats over the middle of the screen, where the recording taps; right-app lies below.
    sm '[app_id=left-app] floating enable, resize set 400 240, move position 440 240'
    "$ctl" desktop --socket "$socket" > "$out/daemon-bridge.out" 2> "$out/daemon-bridge.err" &
    daemon_bridge=$!
    pids+=("$daemon_bridge")
    for _ in $(seq 100); do
        "$ctl" status --socket "$socket" --format json 2>/dev/null | jq -e '.desktop.windows == 2' > /dev/null && break; sleep 0.05
    done
    "$ctl" status --socket "$socket" --format json | jq -e '.desktop.windows == 2 and .desktop.backend == "sway"' > /dev/null \
        && pass "daemon: the bridge's two windows are in its status" || fail "daemon: status $("$ctl" status --socket "$socket" --format json)"
    # Every edge as the left one: the right and bottom edges of HEADLESS-1 (and the 2 % beyond,
    # held to the edge) hit the tiled window that reaches them, not only the output.
    for point in "0 100" "1280 100" "1285 100" "640 720" "640 730"; do
        chain=$("$ctl" hit-test --output HEADLESS-1 $point --socket "$socket" --format json 2>&1)
        if echo "$chain" | jq -e '.chain[0] | startswith("window:")' > /dev/null 2>&1; then
            pass "daemon: hit-test --output HEADLESS-1 $point hits a window ($(echo "$chain" | jq -c .chain))"
        else
            fail "daemon: hit-test --output HEADLESS-1 $point hits a window (got $chain)"
        fi
    done
    tap_reaches_upper "$socket" "$out/listen.jsonl" left-tap right-tap \
        "daemon: a tap over the floating window reaches its gesture, not the window's below" daemon
    # The daemon restarted under a live bridge: the bridge connects again and sends the windows
    # within 2 s, and waits idle meanwhile (no spinning on the closed socket).
    kill "$daemon"; wait "$daemon" 2>/dev/null
    cpu0=$(awk '{ print $14 + $15 }' /proc/$daemon_bridge/stat)
    sleep 1
    cpu1=$(awk '{ print $14 + $15 }' /proc/$daemon_bridge/stat)
    idle_ms=$(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) ))
    [ "$idle_ms" -le 50 ] && pass "daemon gone: the bridge waits idle ($idle_ms ms CPU in 1 s)" \
        || fail "daemon gone: the bridge waits idle ($idle_ms ms CPU in 1 s, expected at most 50)"
    "$gestured" run --no-devices --config "$out/windows.yaml" --socket "$socket" > "$out/daemon-2.log" 2>&1 &
    daemon=$!
    pids+=("$daemon")
    t0=$(now)
    back=""
    for _ in $(seq 300); do
        if "$ctl" status --socket "$socket" --format json 2>/dev/null | jq -e '.desktop.windows == 2' > /dev/null; then back=$(now); break; fi
        sleep 0.02
    done
    if [ -n "$back" ] && [ "$(ms "$t0" "$back" | cut -d. -f1)" -le 2000 ]; then
        pass "daemon restarted: the bridge's windows are back within 2 s ($(ms "$t0" "$back") ms)"
    else
        fail "daemon restarted: the bridge's windows back within 2 s (status: $("$ctl" status --socket "$socket" --format json 2>&1 | head -c 300); bridge: $(tail -3 "$out/daemon-bridge.err"))"
    fi
    kill -0 "$daemon_bridge" 2>/dev/null && pass "daemon restarted: the same bridge process serves on" \
        || fail "daemon restarted: the bridge exited ($(tail -3 "$out/daemon-bridge.err"))"
    # An idle bridge that another one replaces sees desktop-replaced and exits 0.
    "$ctl" desktop --socket "$socket" > "$out/daemon-bridge-2.out" 2> "$out/daemon-bridge-2.err" &
    second_bridge=$!
    pids+=("$second_bridge")
    for _ in $(seq 100); do kill -0 "$daemon_bridge" 2>/dev/null || break; sleep 0.02; done
    if ! kill -0 "$daemon_bridge" 2>/dev/null; then
        wait "$daemon_bridge"; status=$?
        [ "$status" -eq 0 ] && pass "an idle bridge replaced by another exits 0 within 2 s" \
            || fail "an idle bridge replaced by another exits 0 (status $status: $(tail -2 "$out/daemon-bridge.err"))"
    else
        fail "an idle bridge replaced by another exits 0 within 2 s (still running: $(tail -2 "$out/daemon-bridge.err"))"
    fi
    daemon_bridge=$second_bridge
    kill "$sway_pid"; wait "$sway_pid" 2>/dev/null
    for _ in $(seq 100); do
        "$ctl" status --socket "$socket" --format json 2>/dev/null | jq -e '(.desktop.windows // 0) == 0' > /dev/null && break; sleep 0.05
    done
    "$ctl" status --socket "$socket" --format json | jq -e '(.desktop.windows // 0) == 0' > /dev/null \
        && kill -0 "$daemon" && pass "daemon: sway killed: the daemon serves on, the windows dropped" \
        || fail "daemon: after sway died: $("$ctl" status --socket "$socket" --format json 2>&1)"
    sway_start 4 3
    sm 'exec foot -a left-app sleep 600'
    for _ in $(seq 200); do
        "$ctl" status --socket "$socket" --format json 2>/dev/null | jq -e '.desktop.windows == 1' > /dev/null && break; sleep 0.05
    done
    "$ctl" status --socket "$socket" --format json | jq -e '.desktop.windows == 1' > /dev/null \
        && pass "daemon: a new sway's window returns through the same bridge" \
        || fail "daemon: after the new sway: $("$ctl" status --socket "$socket" --format json 2>&1)"

    # One gesture, one window (docs/desktop.md): the real four-finger drag of the Atmel maXTouch lands
    # at x = 52 %, 17 %, 32 % and 80 % of the screen, on three tiled windows; the fingers that land
    # within the settle time join the first finger's window, whose four-finger pan is the gesture.
    sm '[app_id=left-app] kill'
    cat > "$out/multi.yaml" <<'EOF2'
version: 1
windows:
  - id: multi
    match: { app: "multi-*" }
    gestures:
      - { id: multi-drag-4, kind: pan, min-fingers: 4, max-fingers: 4 }
EOF2
    socket2="$out/gestured-multi.sock"
    "$gestured" run --no-devices --inject "$root/Tests/Fixtures/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events" \
        --inject-when-subscribed --config "$out/multi.yaml" --socket "$socket2" > "$out/daemon-multi.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 100); do [ -S "$socket2" ] && break; sleep 0.05; done
    for app in multi-a multi-b multi-c; do sm "exec foot -a $app sleep 600"; sleep 0.3; done
    "$ctl" desktop --socket "$socket2" > "$out/multi-bridge.out" 2> "$out/multi-bridge.err" &
    pids+=("$!")
    for _ in $(seq 100); do
        "$ctl" status --socket "$socket2" --format json 2>/dev/null | jq -e '.desktop.windows == 3' > /dev/null && break; sleep 0.05
    done
    timeout 10 "$ctl" listen --socket "$socket2" --format json > "$out/multi.jsonl" 2>&1 &
    listener=$!
    for _ in $(seq 200); do grep -q '"multi-drag-4"' "$out/multi.jsonl" 2>/dev/null && break; sleep 0.05; done
    kill "$listener" 2>/dev/null
    if grep -q '"gesture":"multi-drag-4","kind":"pan","state":"began"' "$out/multi.jsonl" \
        && grep '"multi-drag-4"' "$out/multi.jsonl" | head -1 | grep -q '"fingers":4'; then
        pass "daemon: four fingers landing on three sway windows are the first finger's window's four-finger pan"
    else
        fail "daemon: the four-finger drag over three windows: $(grep -o '"gesture":"[a-z0-9-]*","kind":"[a-z]*","state":"[a-z]*"' "$out/multi.jsonl" | head -3 | tr '\n' ' ') status $("$ctl" status --socket "$socket2" --format json | jq -c .desktop)"
    fi
fi

# --- gesturectl setup on sway: a new user's two commands (Tests/desktop/setup.sh) ---------------------
. "$root/Tests/desktop/setup.sh"
# --- bindings' window actions on sway and X11 (Tests/desktop/actions.sh) ---------------------------
. "$root/Tests/desktop/actions.sh"

fi  # sway-x11

# --- GNOME Shell 43 and KWin 5.27 (Debian 12, this machine's), headless, with the shipped extension / script
if wants debian12 && scripts/install-deps gnome-shell xwayland gir1.2-gtk-4.0 python3-gi foot xterm dbus-daemon libglib2.0-bin; then
    gname=gnome gin=() gctl=$ctl ggestured=$gestured bridge_in=() bridge_ctl=$ctl
    . "$root/Tests/desktop/gnome.sh"
else
    wants debian12 && fail "GNOME: install gnome-shell xwayland gir1.2-gtk-4.0 python3-gi foot xterm dbus-daemon libglib2.0-bin"
fi
if wants debian12 && scripts/install-deps kwin-wayland xwayland kwin-style-breeze libkf5screen-bin qtwayland5 gir1.2-gtk-4.0 python3-gi xterm dbus-daemon libglib2.0-bin; then
    kname=kde kin=() kctl=$ctl kgestured=$gestured bridge_in=() bridge_ctl=$ctl
    . "$root/Tests/desktop/kde.sh"
else
    wants debian12 && fail "KDE: install kwin-wayland xwayland kwin-style-breeze libkf5screen-bin qtwayland5"
fi

# --- GNOME Shell 48 and KWin 6 (Debian 13), headless, in a trixie root --------------------------------
# The root comes from Debian's registry (scripts/debian-root, made once a run and reused); the checkout
# and this run's folder are bound into it at their own paths, so the root's programs and the host's
# tools see the same sockets and files. The bridge and the daemon running there are this checkout's
# release builds (built on Debian 12, as a user of Debian 13 would install them); the debug builds
# above need this machine's Swift runtime.
. "$root/scripts/lib/debian-root.sh"
trixie_t0=$(now)
if ! wants debian13; then
    :
elif ! trixie_tar=$(scripts/debian-root trixie "${TRIXIE_DESKTOP_PACKAGES[@]}"); then
    fail "Debian 13: the trixie root could not be made from Debian's registry (scripts/debian-root above says why): GNOME 48 and KWin 6 not run"
elif ! { swift build -c release --product gesturectl > "$out/release-build.log" 2>&1 \
         && swift build -c release --product gestured >> "$out/release-build.log" 2>&1; }; then
    grep -v '^\[' "$out/release-build.log" | tail -30
    fail "Debian 13: the release build of gesturectl and gestured failed"
else
    release=$(swift build -c release --show-bin-path)
    troot=$(mktemp -d /var/tmp/gestured-trixie.XXXXXX)
    root_unpack "$trixie_tar" "$troot" && root_enter "$troot" "$root" "$out" \
        || fail "Debian 13: the trixie root could not be entered"
    trap 'cleanup; root_leave "$troot"' EXIT
    echo "figure: the trixie root ready in $(ms "$trixie_t0" "$(now)") ms (made or reused, unpacked, entered)"
    echo "Debian 13 root: $(root_run "$troot" dpkg-query -W -f '${Package} ${Version}\n' gnome-shell mutter kwin-wayland xwayland libgtk-4-1 | tr '\n' ' ')"
    root_run "$troot" apt-get update -qq > "$out/trixie-apt.log" 2>&1 || log "apt-get update in the trixie root failed: $(tail -2 "$out/trixie-apt.log")"
    for candidate in hyprland niri labwc; do
        if root_run "$troot" apt-cache show "$candidate" > /dev/null 2>&1; then echo "Debian 13 has $candidate"; else echo "Debian 13 has no $candidate package"; fi
    done
    gname=gnome48 gin=(chroot "$troot") gctl=$release/gesturectl ggestured=$release/gestured bridge_in=(chroot "$troot") bridge_ctl=$release/gesturectl
    . "$root/Tests/desktop/gnome.sh"
    kname=kde6 kin=(chroot "$troot") kctl=$release/gesturectl kgestured=$release/gestured bridge_in=(chroot "$troot") bridge_ctl=$release/gesturectl
    . "$root/Tests/desktop/kde.sh"
    bridge_in=() bridge_ctl=
    cleanup
    root_leave "$troot"
    rm -rf "$troot"
    echo "figure: the Debian 13 part took $(ms "$trixie_t0" "$(now)") ms"
fi

[ "$notrun" -gt 0 ] && echo "($notrun checks not run: see NOT RUN above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
