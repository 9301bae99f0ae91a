#!/usr/bin/env bash
# Runs inside the VM as root: udevd, gestured, then each case of cases.txt through uinput.
# Writes raw results into $3 (the VM's writable folder); evaluate.py judges them on the host.
# $4: the release build's binaries, for the CPU comparison with libinput at the end.
# $5: a part to run alone ("pens": Tests/vm/pens.sh), or nothing for everything.
root=$1 bin=$2 out=$3 relbin=$4 part=${5:-}
rec="$root/Tests/Fixtures/evemu-devices"
sock=/run/gestured-test.sock
exec 2>"$out/inside.log"
set -x

source "$root/Tests/vm/helpers.sh"   # wait_for, device_open, device_gone, client_count, header_name
listener_ready() { [ "$(client_count)" -ge 3 ]; }   # the latency client, the listener, and the asker

modprobe uinput || echo "no uinput" >> "$out/fatal"
/lib/systemd/systemd-udevd --daemon
udevadm trigger --action=add >/dev/null 2>&1; udevadm settle

"$bin/gestured" run --config "$out/vm-config.yaml" --socket "$sock" > "$out/daemon.log" 2>&1 &
daemon=$!
echo "$daemon" > "$out/daemon.pid"
wait_for 20 test -S "$sock" || echo "daemon socket never appeared" >> "$out/fatal"
python3 "$root/Tests/vm/latency_client.py" "$sock" "$out/latency.jsonl" &
latency_client=$!

source "$root/Tests/vm/pens.sh"   # pens_section: a real pen through uinput (Tests/vm/pens.sh)
if [ "$part" = pens ]; then
    pens_section
    kill -TERM "$daemon"; wait "$daemon" 2>/dev/null
    touch "$out/inside-done"
    exit 0
fi

# run_case NAME DESC EVENTS [KILL_AFTER_SECONDS]
run_case() {
    local name=$1 desc="$rec/$2" events="$rec/$3" kill_after=${4:-}
    local devname; devname=$(header_name "$desc")
    "$bin/gesturectl" listen --socket "$sock" > "$out/live-$name.jsonl" 2>"$out/listen-$name.err" &
    local listener=$!
    # Swift binaries start slowly on the emulated CPU: play nothing before the listener is connected.
    wait_for 30 listener_ready || echo "$name: the listener never connected" >> "$out/fatal"
    sleep 0.3
    evemu-device "$desc" > "$out/node-$name.txt" 2>&1 &
    local creator=$!
    wait_for 10 grep -q /dev/input "$out/node-$name.txt" || echo "$name: evemu-device made no node" >> "$out/fatal"
    local node; node=$(grep -o '/dev/input/event[0-9]*' "$out/node-$name.txt" | head -1)
    if wait_for 10 device_open "$devname"; then echo "$name" >> "$out/hotplug-seen"; fi
    local peer=""
    if [ -n "${COMPARE_LIBINPUT:-}" ]; then
        libinput debug-events --device "$node" --enable-tap > "$out/libinput-$name.txt" 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/libinput-$name.txt" || echo "$name: libinput never opened the device" >> "$out/fatal"
        sleep 0.3
    fi
    if [ -n "$kill_after" ]; then
        evemu-play "$node" < "$events" &
        local player=$!
        sleep "$kill_after"
        kill "$creator"; wait "$creator" 2>/dev/null
        kill "$player" 2>/dev/null; wait "$player" 2>/dev/null
        wait_for 10 device_gone "$devname" && echo "$name" >> "$out/removal-seen"
    else
        evemu-play "$node" < "$events"
        sleep 1.5   # let the daemon's timers (tap interval, long press) fire in real time
        kill "$creator"; wait "$creator" 2>/dev/null
        wait_for 10 device_gone "$devname" && echo "$name" >> "$out/removal-seen"
    fi
    [ -n "$peer" ] && { kill "$peer"; wait "$peer" 2>/dev/null; }
    sleep 0.3
    kill "$listener"; wait "$listener" 2>/dev/null
    kill -0 "$daemon" 2>/dev/null || echo "$name: daemon died" >> "$out/fatal"
}

while IFS='|' read -r name desc events; do
    [ -z "$name" ] && continue
    # Touchpad cases: libinput reads the same stream (its gesture class beside ours: evaluate.py).
    case "$desc" in touchpads/*|../chromiumos-autotest/*|../derived/SynPS2*) COMPARE_LIBINPUT=1 ;; *) COMPARE_LIBINPUT= ;; esac
    run_case "$name" "$desc" "$events"
done < "$root/Tests/vm/cases.txt"
COMPARE_LIBINPUT=

pens_section   # a pen with the default config, and a second daemon with a pen tap and pan bound

# Begin times and verdicts beside libinput's: every ported case and real touchpad gesture (Tests/vm/begin.sh).
source "$root/Tests/vm/begin.sh"; begin_section

# Removed mid-gesture (1-finger drag, 2.2 s long, unplugged after 1 s), then the same device again.
run_case unplug "touchscreens/Atmel maXTouch Touchscreen.desc" "touchscreens/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events" 1.0
run_case replug "touchscreens/Atmel maXTouch Touchscreen.desc" "touchscreens/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events"

# Two devices at once: a tap on one while four fingers drag on the other.
"$bin/gesturectl" listen --socket "$sock" > "$out/live-two-devices.jsonl" 2>"$out/listen-two-devices.err" &
listener=$!
wait_for 30 listener_ready || echo "two-devices: the listener never connected" >> "$out/fatal"
evemu-device "$rec/tablets/Wacom ISDv4 E6 Finger.desc" > "$out/node-two-a.txt" 2>&1 &
creator_a=$!
evemu-device "$rec/touchscreens/Atmel maXTouch Touchscreen.desc" > "$out/node-two-b.txt" 2>&1 &
creator_b=$!
wait_for 10 grep -q /dev/input "$out/node-two-a.txt"; wait_for 10 grep -q /dev/input "$out/node-two-b.txt"
node_a=$(grep -o '/dev/input/event[0-9]*' "$out/node-two-a.txt" | head -1)
node_b=$(grep -o '/dev/input/event[0-9]*' "$out/node-two-b.txt" | head -1)
wait_for 10 device_open "Wacom ISDv4 E6 Finger" && wait_for 10 device_open "Atmel maXTouch Touchscreen" \
    && echo both > "$out/two-devices-open"
evemu-play "$node_b" < "$rec/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events" &
player_b=$!
evemu-play "$node_a" < "$rec/tablets/Wacom ISDv4 E6 Finger.single-tap-center.events"
wait "$player_b"
sleep 1.5
kill "$creator_a" "$creator_b"; wait "$creator_a" "$creator_b" 2>/dev/null
kill "$listener"; wait "$listener" 2>/dev/null

# SYN_DROPPED: the kernel's per-client buffer overflows while the daemon is stopped; it must read
# SYN_DROPPED, read the device's state afresh through libevdev, and carry on (the next drag is a pan again).
drag="$rec/touchscreens/EP0430M09.1-finger-drag-up-down.events"
"$bin/gesturectl" listen --socket "$sock" > "$out/live-overflow.jsonl" 2>"$out/listen-overflow.err" &
listener=$!
wait_for 30 listener_ready || echo "overflow: the listener never connected" >> "$out/fatal"
evemu-device "$rec/touchscreens/EP0430M09.desc" > "$out/node-overflow.txt" 2>&1 &
creator=$!
wait_for 10 grep -q /dev/input "$out/node-overflow.txt"
node=$(grep -o '/dev/input/event[0-9]*' "$out/node-overflow.txt" | head -1)
wait_for 10 device_open EP0430M09
kill -STOP "$daemon"
evemu-play "$node" < "$drag"
kill -CONT "$daemon"
sleep 1
grep -c '"type":"gesture"' "$out/live-overflow.jsonl" > "$out/overflow-lines-before"
evemu-play "$node" < "$drag"
sleep 1.5
kill "$creator"; wait "$creator" 2>/dev/null
wait_for 10 device_gone EP0430M09
kill "$listener"; wait "$listener" 2>/dev/null
kill -0 "$daemon" 2>/dev/null || echo "overflow: daemon died" >> "$out/fatal"

# --- Recording through the daemon (issue 13) ---------------------------------------------------------
# record_through_daemon NAME DESC EVENTS: while EVENTS play through the kernel on a uinput device,
# `gesturectl record` asks the running daemon for that device's raw events; unplugging the device ends
# the recording. The recorded file is then replayed; evaluate.py's check_record_through_daemon compares
# it with what `gesturectl listen` received live.
record_through_daemon() {
    local name=$1 desc="$rec/$2" events="$rec/$3"
    local devname; devname=$(header_name "$desc")
    "$bin/gesturectl" listen --socket "$sock" --format json > "$out/live-record-$name.jsonl" 2>"$out/listen-record-$name.err" &
    local listener=$!
    wait_for 30 listener_ready || echo "record-$name: the listener never connected" >> "$out/fatal"
    evemu-device "$desc" > "$out/node-record-$name.txt" 2>&1 &
    local creator=$!
    wait_for 10 grep -q /dev/input "$out/node-record-$name.txt" || echo "record-$name: evemu-device made no node" >> "$out/fatal"
    local node; node=$(grep -o '/dev/input/event[0-9]*' "$out/node-record-$name.txt" | head -1)
    wait_for 10 device_open "$devname" || echo "record-$name: the daemon never opened the device" >> "$out/fatal"
    "$bin/gesturectl" record --socket "$sock" --device "$devname" -o "$out/recorded-$name.evemu" 2>"$out/record-$name.err" &
    local recorder=$!
    wait_for 30 grep -q '^recording ' "$out/record-$name.err" || echo "record-$name: the recording never started" >> "$out/fatal"
    evemu-play "$node" < "$events"
    sleep 1.5   # the daemon's timers (tap interval) fire in real time
    kill "$creator"; wait "$creator" 2>/dev/null   # the unplug ends the recording
    wait_for 20 eval "! kill -0 $recorder" || { echo "record-$name: gesturectl record did not end" >> "$out/fatal"; kill "$recorder"; }
    wait "$recorder"; echo $? > "$out/record-$name.exit"
    wait_for 10 device_gone "$devname"
    kill "$listener"; wait "$listener" 2>/dev/null
    "$bin/gestured" replay --config "$out/vm-config.yaml" --format json "$out/recorded-$name.evemu" \
        > "$out/replay-recorded-$name.jsonl" 2>"$out/replay-recorded-$name.err"
    echo "$name|$2" >> "$out/record-cases"
}
record_through_daemon double-tap "tablets/Wacom ISDv4 E6 Finger.desc" "tablets/Wacom ISDv4 E6 Finger.double-tap-center.events"
record_through_daemon two-finger-scroll "touchscreens/EP0430M09.desc" "touchscreens/EP0430M09.2-finger-scroll-down.events"
record_through_daemon cypress-three-finger-tap "touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events" "touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events"

# A device the config ignores produces nothing.
run_case ignored "tablets/eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.desc" "tablets/eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap.events"

# SIGHUP reload mid-run: the daemon stays up and the next gesture still arrives.
kill -HUP "$daemon"
sleep 1
kill -0 "$daemon" 2>/dev/null && echo alive > "$out/after-reload"
run_case after-reload "tablets/Wacom ISDv4 E6 Finger.desc" "tablets/Wacom ISDv4 E6 Finger.single-tap-center.events"

# Idle cost with a device open: wake-ups (context switches) and CPU time over 10 s.
evemu-device "$rec/touchscreens/Atmel maXTouch Touchscreen.desc" > "$out/node-idle.txt" 2>&1 &
idle_dev=$!
wait_for 10 device_open "Atmel maXTouch Touchscreen"
sleep 1
cat "/proc/$daemon/status" > "$out/idle-status-before"; cat "/proc/$daemon/stat" > "$out/idle-stat-before"
for t in /proc/$daemon/task/*; do cat "$t/status"; done > "$out/idle-tasks-before"
sleep 10
cat "/proc/$daemon/status" > "$out/idle-status-after"; cat "/proc/$daemon/stat" > "$out/idle-stat-after"
for t in /proc/$daemon/task/*; do cat "$t/status"; done > "$out/idle-tasks-after"
getconf CLK_TCK > "$out/clk_tck"
kill "$idle_dev"; wait "$idle_dev" 2>/dev/null

kill "$latency_client" 2>/dev/null
kill -TERM "$daemon"
wait "$daemon"; echo $? > "$out/daemon-exit"

# ---- CPU per event: gestured vs `libinput debug-events` (Tests/vm/cpu.sh) -------------------------
source "$root/Tests/vm/cpu.sh"
cpu_section

# ---- keys: and stepped bindings (issue 12) --------------------------------------------------------
# A second daemon, after the first has stopped, with a config of its own and the shipped udev rule:
# a double tap sends [[leftctrl, leftalt, right], [enter]] through the daemon's virtual keyboard
# (uinput); a two-finger scroll steps every 8 mm, once through a command appending $GESTURE_STEP and
# $GESTURE_STEPS (on the emulated CPU a shell takes seconds to start, so steps that come meanwhile
# are coalesced into one run), once through keys-increase / keys-decrease (volumeup / volumedown). evtest reads the virtual
# keyboard's own node; udev's view of it and its key capabilities are saved; a reload that changes
# the key set must re-create it. evaluate.py's check_actions judges the files.
actions_case() {
    local asock=/run/gestured-actions.sock cfg="$out/actions.yaml"
    actions_device_open() { "$bin/gesturectl" devices --socket "$asock" | grep -qF "$1"; }
    actions_keyboard() { grep -o '"device":"/dev/input/event[0-9]*"' "$1" | grep -o '/dev/input/event[0-9]*'; }
    # --ping returns once udevd has answered, so after the reload request it has been handled.
    mkdir -p /run/udev/rules.d && cp "$root/udev/70-gestured.rules" /run/udev/rules.d/ \
        && udevadm control --reload && udevadm control --ping
    cat > "$cfg" <<EOF
version: 1
gestures:
  - { id: double-tap, kind: tap, taps: 2 }
  - { id: two-finger-pan, kind: pan, min-fingers: 2, max-fingers: 2 }
bindings:
  - gesture: double-tap
    keys: [[leftctrl, leftalt, right], [enter]]
  - gesture: two-finger-pan
    every: 8mm
    command: 'echo "\$GESTURE_STEP \$GESTURE_STEPS" >> $out/actions-steps.txt'
  - gesture: two-finger-pan
    every: 8mm
    keys-increase: [volumeup]
    keys-decrease: [volumedown]
EOF
    "$bin/gestured" run --config "$cfg" --socket "$asock" > "$out/actions-daemon.log" 2>&1 &
    local adaemon=$!
    wait_for 30 test -S "$asock" || echo "actions: daemon socket never appeared" >> "$out/fatal"
    "$bin/gesturectl" status --socket "$asock" > "$out/actions-status.json"
    local node; node=$(actions_keyboard "$out/actions-status.json")
    udevadm settle
    # The rule was installed moments ago (`udevadm control --reload` is asynchronous): on a fast
    # run the keyboard's add event can be processed before udevd has read it. A change event
    # applies the installed rules to the existing node, as a package's post-install trigger would.
    # --settle waits for that event itself: a plain `udevadm settle` can return before udevd has
    # even received it, and the properties read next would be the add event's.
    # Even so it failed twice in 10 runs (ID_INPUT_KEY without the rule's ID_INPUT_KEYBOARD): the
    # change event is re-sent, for at most 20 s, until the property shows; the tries are logged.
    actions_keyboard_marked() {
        echo try >> "$out/actions-udev-tries.txt"
        udevadm trigger --settle --action=change "$node" >/dev/null 2>&1
        udevadm info --query=property --name="$node" | grep -q '^ID_INPUT_KEYBOARD=1$'
    }
    wait_for 20 actions_keyboard_marked
    udevadm info --query=property --name="$node" > "$out/actions-udev.txt" 2>&1
    cat "/sys/class/input/$(basename "$node")/device/capabilities/key" > "$out/actions-caps.txt"
    evtest "$node" > "$out/actions-evtest.txt" 2>&1 &
    local reader=$!
    wait_for 30 grep -q "^Testing" "$out/actions-evtest.txt" || echo "actions: evtest never started" >> "$out/fatal"
    "$bin/gesturectl" listen --socket "$asock" > "$out/actions-live.jsonl" 2>&1 &
    local listener=$!
    evemu-device "$rec/tablets/Wacom ISDv4 E6 Finger.desc" > "$out/actions-node-tap.txt" 2>&1 &
    local tap_dev=$!
    evemu-device "$rec/touchscreens/EP0430M09.desc" > "$out/actions-node-scroll.txt" 2>&1 &
    local scroll_dev=$!
    wait_for 10 grep -q /dev/input "$out/actions-node-tap.txt"; wait_for 10 grep -q /dev/input "$out/actions-node-scroll.txt"
    local tap_node scroll_node
    tap_node=$(grep -o '/dev/input/event[0-9]*' "$out/actions-node-tap.txt" | head -1)
    scroll_node=$(grep -o '/dev/input/event[0-9]*' "$out/actions-node-scroll.txt" | head -1)
    wait_for 20 actions_device_open "Wacom ISDv4 E6 Finger" && wait_for 20 actions_device_open EP0430M09 \
        || echo "actions: the daemon did not open the devices" >> "$out/fatal"
    evemu-play "$tap_node" < "$rec/tablets/Wacom ISDv4 E6 Finger.double-tap-center.events"
    sleep 1
    evemu-play "$scroll_node" < "$rec/touchscreens/EP0430M09.2-finger-scroll-down.events"
    sleep 2   # the step commands finish; evtest prints what arrived
    kill "$reader" "$listener"; wait "$reader" "$listener" 2>/dev/null
    kill "$tap_dev" "$scroll_dev"; wait "$tap_dev" "$scroll_dev" 2>/dev/null
    "$bin/gesturectl" status --socket "$asock" > "$out/actions-status-after.json"
    # A reload that changes the key set re-creates the keyboard with exactly the new keys.
    sed 's/volumeup/brightnessup/' "$cfg" > "$cfg.new" && mv "$cfg.new" "$cfg"
    "$bin/gesturectl" reload --socket "$asock" > "$out/actions-reload.json" 2>&1
    "$bin/gesturectl" status --socket "$asock" > "$out/actions-status-reloaded.json"
    node=$(actions_keyboard "$out/actions-status-reloaded.json")
    cat "/sys/class/input/$(basename "$node")/device/capabilities/key" > "$out/actions-caps-reloaded.txt"
    kill -TERM "$adaemon"
    wait "$adaemon"; echo $? > "$out/actions-daemon-exit"
}
actions_case

source "$root/Tests/vm/forwarding.sh"; forwarding_section   # forwarding through the kernel (Tests/vm/forwarding.sh)

touch "$out/inside-done"
