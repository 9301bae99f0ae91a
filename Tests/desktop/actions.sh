# Sourced by Tests/desktop/run.sh (uses its sway_start, sm, pass, fail, $ctl, $gestured, $out, $root,
# $pids). Bindings' window actions (docs/desktop.md, "Actions on the window under the fingers") on
# real desktops: a real touchscreen tap (the Wacom ISDv4's, at the middle of the screen) over a
# window whose rule binds an action; the daemon sends the action to the bridge, which has sway (IPC)
# or openbox (EWMH client messages) do it. Checked with the compositor's own tools.
actions_config="$out/actions.yaml"
cat > "$actions_config" <<'EOF2'
version: 1
windows:
  - { id: closing, match: { app: [act-close, XTermClose] }, gestures: [{ id: close-tap, kind: tap }] }
  - { id: moving, match: { app: [act-move, XTermMove] }, gestures: [{ id: move-tap, kind: tap }] }
  - { id: filling, match: { app: [act-full, XTermMax] }, gestures: [{ id: fill-tap, kind: tap }] }
bindings:
  - { gesture: close-tap, action: close-window }
  - { gesture: move-tap, action: move-to-workspace 2 }
  - { gesture: fill-tap, action: fullscreen }
EOF2
x11_fill_config="$out/actions-x11.yaml"
sed 's/action: fullscreen/action: maximize/' "$actions_config" > "$x11_fill_config"
actions_tap="$root/Tests/GestureDaemonTests/Fixtures/Wacom ISDv4 E6 Finger.single-tap-center.events"
actions_daemon() {  # name, config, bridge environment...; starts a daemon and a bridge for it
    local name=$1 config=$2; shift 2
    "$gestured" run --no-devices --config "$config" --socket "$out/$name.sock" > "$out/$name-daemon.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 100); do [ -S "$out/$name.sock" ] && break; sleep 0.05; done
    env -i PATH=/usr/bin:/bin "$@" "$ctl" desktop --socket "$out/$name.sock" > "$out/$name-bridge.out" 2> "$out/$name-bridge.err" &
    pids+=("$!")
}
actions_tap_on() {  # name, number of windows the daemon must see first
    for _ in $(seq 100); do
        "$ctl" status --socket "$out/$1.sock" --format json 2>/dev/null | jq -e ".desktop.windows == $2" > /dev/null && break; sleep 0.05
    done
    "$ctl" inject --socket "$out/$1.sock" "$actions_tap" > /dev/null
}
sway_tree() { swaymsg -s "$SWAYSOCK" -t get_tree; }

# --- sway ---
sway_start 6
if [ -z "$SWAYSOCK" ]; then
    fail "actions: headless sway started"
else
    actions_daemon sway-actions "$actions_config" SWAYSOCK="$SWAYSOCK"
    sm 'exec foot -a act-close sleep 600'
    for _ in $(seq 60); do sway_tree | grep -q '"act-close"' && break; sleep 0.05; done
    actions_tap_on sway-actions 1
    for _ in $(seq 60); do sway_tree | grep -q '"act-close"' || break; sleep 0.05; done
    sway_tree | grep -q '"act-close"' && fail "actions: sway: a tap closes the window under it ($(cat "$out/sway-actions-bridge.err"))" \
        || pass "actions: sway: a tap's close-window closed the real window under it"
    sm 'exec foot -a act-move sleep 600'
    for _ in $(seq 60); do sway_tree | grep -q '"act-move"' && break; sleep 0.05; done
    actions_tap_on sway-actions 1
    where() { sway_tree | jq -r '.. | objects | select(.type? == "workspace") | select([.. | objects | select(.app_id? == "act-move")] | length > 0) | .name'; }
    for _ in $(seq 60); do [ "$(where)" = 2 ] && break; sleep 0.05; done
    [ "$(where)" = 2 ] && pass "actions: sway: move-to-workspace 2 moved the real window to workspace 2" \
        || fail "actions: sway: move-to-workspace 2 (the window is on '$(where)'; $(cat "$out/sway-actions-bridge.err"))"
    sm 'exec foot -a act-full sleep 600'
    for _ in $(seq 60); do sway_tree | grep -q '"act-full"' && break; sleep 0.05; done
    actions_tap_on sway-actions 1
    full() { sway_tree | jq -r '.. | objects | select(.app_id? == "act-full") | .fullscreen_mode'; }
    for _ in $(seq 60); do [ "$(full)" = 1 ] && break; sleep 0.05; done
    [ "$(full)" = 1 ] && pass "actions: sway: fullscreen made the real window fullscreen" \
        || fail "actions: sway: fullscreen (fullscreen_mode '$(full)'; $(cat "$out/sway-actions-bridge.err"))"
    kill "$sway_pid"
fi

# --- X11: Xvfb and openbox ---
adisplay=:88
Xvfb "$adisplay" -screen 0 1024x768x24 -nolisten tcp > "$out/xvfb-actions.log" 2>&1 &
pids+=("$!")
for _ in $(seq 400); do DISPLAY=$adisplay xdpyinfo > /dev/null 2>&1 && break; sleep 0.05; done
for try in 1 2 3; do
    DISPLAY=$adisplay openbox > "$out/openbox-actions-$try.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 400); do DISPLAY=$adisplay wmctrl -m > /dev/null 2>&1 && break; sleep 0.05; done
    DISPLAY=$adisplay wmctrl -m > /dev/null 2>&1 && break
done
DISPLAY=$adisplay wmctrl -n 3
actions_daemon x11-actions "$x11_fill_config" DISPLAY="$adisplay"
xterm_over_middle() {  # class: an xterm covering the middle of the screen, alone
    DISPLAY=$adisplay xterm -class "$1" -geometry 100x40+100+100 -e sleep 600 &
    pids+=("$!")
    for _ in $(seq 100); do DISPLAY=$adisplay wmctrl -lx | grep -q "\.$1 " && break; sleep 0.05; done
}
xid() { printf '%d' "$(DISPLAY=$adisplay wmctrl -lx | awk -v c="$1" '$3 ~ ("\\." c "$") { print $1; exit }')"; }
xterm_over_middle XTermClose
actions_tap_on x11-actions 1
for _ in $(seq 60); do DISPLAY=$adisplay wmctrl -lx | grep -q "\.XTermClose " || break; sleep 0.05; done
DISPLAY=$adisplay wmctrl -lx | grep -q "\.XTermClose " && fail "actions: X11: close-window ($(cat "$out/x11-actions-bridge.err"))" \
    || pass "actions: X11: a tap's close-window closed the real xterm under it (_NET_CLOSE_WINDOW)"
xterm_over_middle XTermMax
actions_tap_on x11-actions 1
maxed() { DISPLAY=$adisplay xprop -id "$(xid XTermMax)" _NET_WM_STATE; }
for _ in $(seq 60); do maxed | grep -q MAXIMIZED_HORZ && break; sleep 0.05; done
maxed | grep -q "_NET_WM_STATE_MAXIMIZED_VERT" && maxed | grep -q "_NET_WM_STATE_MAXIMIZED_HORZ" \
    && pass "actions: X11: maximize maximized the real xterm ($(maxed))" \
    || fail "actions: X11: maximize ($(maxed); $(cat "$out/x11-actions-bridge.err"))"
DISPLAY=$adisplay wmctrl -x -c XTermMax
xterm_over_middle XTermMove
actions_tap_on x11-actions 1
desk() { DISPLAY=$adisplay xprop -id "$(xid XTermMove)" _NET_WM_DESKTOP | sed 's/.*= //'; }
for _ in $(seq 60); do [ "$(desk)" = 1 ] && break; sleep 0.05; done
[ "$(desk)" = 1 ] && pass "actions: X11: move-to-workspace 2 put the real xterm on the second desktop (_NET_WM_DESKTOP 1)" \
    || fail "actions: X11: move-to-workspace 2 (_NET_WM_DESKTOP '$(desk)'; $(cat "$out/x11-actions-bridge.err"))"
