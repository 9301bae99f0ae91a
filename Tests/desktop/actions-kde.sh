# Bindings' window actions on KDE Plasma (docs/desktop.md, "Actions on the window under the fingers"),
# sourced by Tests/desktop/kde.sh (KWin 5.27 and KWin 6) while KWin runs: a daemon whose window rules
# bind a tap to each action, the session's bridge (gesturectl desktop) doing them through one-shot
# KWin scripts, and a real touchscreen tap injected over a real xterm of each rule's class. What KWin
# did is read back through the daemon's hit-test (the windows as the bridge reports them): a closed or
# minimized window no longer under the tap, a fullscreen or maximized one covering the output's corner.
# Uses kde.sh's kenv / kin / kctl / kgestured / kopen_xterm / kmove / kactivate, run.sh's pass / fail.
kasock="$out/$kname-actions.sock"
cat > "$out/$kname-actions.yaml" <<'EOF2'
version: 1
windows:
  - { id: closing, match: { app: [ActClose, actclose] }, gestures: [{ id: close-tap, kind: tap }] }
  - { id: minimizing, match: { app: [ActMin, actmin] }, gestures: [{ id: min-tap, kind: tap }] }
  - { id: filling, match: { app: [ActFull, actfull] }, gestures: [{ id: full-tap, kind: tap }] }
  - { id: maximizing, match: { app: [ActMax, actmax] }, gestures: [{ id: max-tap, kind: tap }] }
bindings:
  - { gesture: close-tap, action: close-window }
  - { gesture: min-tap, action: minimize }
  - { gesture: full-tap, action: fullscreen }
  - { gesture: max-tap, action: maximize }
EOF2
"${kin[@]}" "$kgestured" run --no-devices --config "$out/$kname-actions.yaml" --socket "$kasock" > "$out/$kname-actions-daemon.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do [ -S "$kasock" ] && break; sleep 0.05; done
"${kin[@]}" /usr/bin/env -i PATH=/usr/bin:/bin XDG_CURRENT_DESKTOP=KDE WAYLAND_DISPLAY=wayland-kw XDG_RUNTIME_DIR="$krun/rt" \
    DBUS_SESSION_BUS_ADDRESS="$kbus" "$kctl" desktop --socket "$kasock" > "$out/$kname-actions-bridge.out" 2> "$out/$kname-actions-bridge.err" &
kabridge=$!
pids+=("$kabridge")
kat() { "$ctl" hit-test --socket "$kasock" --output Virtual-0 "$1" "$2" 2> /dev/null; }
kaction() {  # class, action, what to see: gone (not under the tap) or covers (at the output's corner)
    local class=$1 action=$2 expect=$3 lower seen=
    lower=$(tr 'A-Z' 'a-z' <<< "$class")
    kopen_xterm "$class"
    for _ in $(seq 100); do kat 640 400 | grep -qi "$class" && break
        kmove "$class" 440 250 400 300; kmove "$lower" 440 250 400 300; kactivate "$class"; kactivate "$lower"; sleep 0.1; done
    if ! kat 640 400 | grep -qi "$class"; then
        fail "$K actions: the xterm $class under the tap before its $action ($(kat 640 400 | head -c 300))"; return
    fi
    "$ctl" inject --socket "$kasock" "$root/Tests/GestureDaemonTests/Fixtures/Wacom ISDv4 E6 Finger.single-tap-center.events" > /dev/null 2>&1
    for _ in $(seq 60); do
        case $expect in
            gone) kat 640 400 | grep -qi "$class" || { seen=1; break; } ;;
            covers) kat 10 10 | grep -qi "$class" && { seen=1; break; } ;;
        esac
        sleep 0.05
    done
    [ -n "$seen" ] && pass "$K actions: a real tap's $action on the real xterm under it, through the bridge's one-shot KWin script" \
        || fail "$K actions: $action on $class (hit at the tap: $(kat 640 400 | grep -o 'window:[^ ]* ([^)]*)' | head -2 | tr '\n' ' '); bridge: $(tail -2 "$out/$kname-actions-bridge.err" | tr '\n' ' '); daemon: $(grep -i action "$out/$kname-actions-daemon.log" | tail -1))"
    kill "${kclients[-1]}" 2> /dev/null
    for _ in $(seq 40); do kat 10 10 | grep -qi "$class" || break; sleep 0.05; done
}
for _ in $(seq 100); do "$ctl" status --socket "$kasock" --format json 2>/dev/null | jq -e '.desktop != null' > /dev/null && break; sleep 0.05; done
kaction ActClose close-window gone
kaction ActMin minimize gone
if [ "${kversion%%.*}" -ge 6 ]; then
    kaction ActFull fullscreen covers
else
    # KWin 5.27 took the script's `fullScreen = true` on a real xterm without effect (no error, the
    # window stayed): not claimed there (docs/desktop.md).
    echo "NOT RUN: $K actions: fullscreen (KWin 5.27 leaves an X11 xterm as it is when a script sets fullScreen)"
    notrun=$((notrun + 1))
fi
kaction ActMax maximize covers
[ -z "$(ls "$krun/rt"/gestured-action-* 2> /dev/null)" ] && pass "$K actions: no action script left behind in \$XDG_RUNTIME_DIR" \
    || fail "$K actions: action scripts left behind: $(ls "$krun/rt"/gestured-action-*)"
kill "$kabridge" 2> /dev/null
