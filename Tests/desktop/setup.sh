# Sourced by Tests/desktop/run.sh (uses its sway_start, sm, pass, fail, await-free polling, $ctl,
# $gestured, $out, $root, $pids). `gesturectl setup` on a real headless sway, as a new user does it
# (docs/setup.md): the user's daemon is already running with no config file (the embedded default
# binds nothing); the user runs `gesturectl setup` and `gesturectl reload`; a real three-finger
# touchpad swipe left (Chromium OS's cyan touchpad), played into the daemon as a device, switches sway
# to the next workspace. The user is nobody, sway's own user (sway 1.7 refuses root), with a HOME of
# its own, so nothing is written outside $out.

# --- gesturectl setup: a new user's two commands -----------------------------------------------------
setup_home="$out/setup-home"
mkdir -p "$setup_home"
cp "$root/Tests/Fixtures/chromiumos-autotest/cros-cyan.3fg-swipe-left.evemu" "$setup_home/swipe-left.evemu"
chown -R 65534:65534 "$setup_home"
as_user() {  # runs a command as nobody in the user's session environment
    env -i PATH=/usr/bin:/bin HOME="$setup_home" XDG_RUNTIME_DIR="$setup_home" SWAYSOCK="$SWAYSOCK" \
        GESTURED_SOCKET="$setup_home/gestured.sock" setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
focused_workspace() { swaymsg -s "$SWAYSOCK" -t get_workspaces | jq -r '.[] | select(.focused) | .name'; }
sway_start 5
if [ -z "$SWAYSOCK" ]; then
    fail "setup: headless sway started (log: $(tail -3 "$out/sway-5.log"))"
else
    # Two workspaces with a window each; the first is focused.
    sm 'exec foot -a setup-one sleep 600'
    for _ in $(seq 60); do swaymsg -s "$SWAYSOCK" -t get_tree | grep -q '"setup-one"' && break; sleep 0.05; done
    sm 'workspace 2'
    sm 'exec foot -a setup-two sleep 600'
    for _ in $(seq 60); do swaymsg -s "$SWAYSOCK" -t get_tree | grep -q '"setup-two"' && break; sleep 0.05; done
    sm 'workspace 1'
    # The user's daemon, started before any config exists, with the session's $SWAYSOCK (as the
    # user unit gets it from sway's `exec systemctl --user import-environment`).
    # In a subshell that becomes the daemon (exec), so that the pid run.sh stops is the daemon's.
    ( exec env -i PATH=/usr/bin:/bin HOME="$setup_home" XDG_RUNTIME_DIR="$setup_home" SWAYSOCK="$SWAYSOCK" \
        GESTURED_SOCKET="$setup_home/gestured.sock" setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$gestured" run --no-devices > "$out/setup-daemon.log" 2>&1 ) &
    pids+=("$!")
    for _ in $(seq 100); do [ -S "$setup_home/gestured.sock" ] && break; sleep 0.05; done
    echo "setup: workspace before: $(focused_workspace); the daemon's config: $(as_user "$ctl" status --format json | jq -r .config)"
    echo "setup: \$ gesturectl setup"
    as_user "$ctl" setup > "$out/setup.out" 2> "$out/setup.err"
    setup_status=$?
    sed 's/^/setup:   /' "$out/setup.out" "$out/setup.err"
    echo "setup: \$ gesturectl reload"
    as_user "$ctl" reload > "$out/reload.out" 2>&1
    reload_status=$?
    sed 's/^/setup:   /' "$out/reload.out"
    written="$setup_home/.config/gestured/gestured.yaml"
    if [ "$setup_status" -eq 0 ] && grep -q '^  - { gesture: next-workspace, command: swaymsg workspace next_on_output }$' "$written" 2>/dev/null; then
        pass "setup: gesturectl setup found sway and wrote $written"
    else
        fail "setup: gesturectl setup wrote the sway config (status $setup_status: $(cat "$out/setup.err"))"
    fi
    [ "$reload_status" -eq 0 ] && as_user "$ctl" status --format json | jq -e --arg f "$written" '.config == $f' > /dev/null \
        && pass "setup: gesturectl reload: the daemon runs the file setup wrote" \
        || fail "setup: gesturectl reload ($(cat "$out/reload.out"); status $(as_user "$ctl" status --format json | jq -c .config))"
    as_user "$ctl" inject "$setup_home/swipe-left.evemu" > /dev/null
    for _ in $(seq 100); do [ "$(focused_workspace)" = 2 ] && break; sleep 0.05; done
    echo "setup: a real three-finger swipe left played into the daemon; workspace now: $(focused_workspace)"
    if [ "$(focused_workspace)" = 2 ]; then
        pass "setup: a real three-finger swipe left switched sway to the next workspace"
    else
        fail "setup: a real three-finger swipe left switched sway to the next workspace (focused: $(focused_workspace); daemon log: $(tail -5 "$out/setup-daemon.log"))"
    fi
fi
