# Forwarding through the real kernel (docs/forwarding.md), sourced by Tests/vm/inside.sh, which
# calls forwarding_section once its own daemon has stopped. Uses from the caller: $root, $bin,
# $relbin, $out, $rec, wait_for, cpu_ns (Tests/vm/cpu.sh). Each check is a line "ok|NAME|DETAIL" or
# "fail|NAME|DETAIL" in $out/forwarding-checks.txt, counted by evaluate.py; figures go to
# $out/forwarding-figures.txt.
#
# 1. A touchscreen whose top-edge swipe is bound: libinput reading the clone sees the touches of a
#    two-finger scroll in the middle, none of the edge swipe's.
# 2. A touchpad with a bound three-finger swipe: libinput on the real device, before gestured takes
#    it, reports GESTURE_SWIPE for it (the control); on the clone it reports none. One finger moving
#    on a recorded touchpad moves the pointer through the clone.
# 3. kill -9 of gestured during a touch: the clone goes, libinput on the real device gets its events
#    again, and no touch is left down on the clone (every TOUCH_DOWN has its UP or CANCEL).
# 4. SIGTERM: the clone goes and the grab is released.
# 5. A daemon that cannot open /dev/uinput: the device is not grabbed, the log names it and the fix.
# 6. The four real three-finger swipes (Tests/Fixtures/chromiumos-autotest), a three-finger swipe
#    bound: libinput on the real device (before gestured takes it) scrolls until its own swipe
#    begins; libinput on the clone must report no more scroll events than that, and the clone's two
#    fingers stop moving soon after the third lands (evaluate_forwarding.py times it from the
#    clone's frames, `clone_frames.py`).
# Figures: forwarding latency (source write → clone read) against the kernel alone and against the
# least hop a forwarder can make (scripts/profiling/hop-floor.c), each split in two parts (to the
# kernel's stamp of the frame read, then the reader's wake-up: forward_latency.py), and CPU per
# 1,000 events of gestured forwarding against libinput debug-events reading the clone.

fwd_check() { echo "$1|$2|$3" >> "$out/forwarding-checks.txt"; }
fwd_sock=/run/gestured-forward.sock
fwd_node_of() { grep -o '/dev/input/event[0-9]*' "$1" | head -1; }
fwd_clone_of() {  # the clone of the device named $1 (its phys starts with gestured-clone:)
    local d name phys
    for d in /sys/class/input/event*; do
        read -r name < "$d/device/name" 2>/dev/null || continue
        [ "$name" = "$1" ] || continue
        phys=; read -r phys < "$d/device/phys" 2>/dev/null
        case "$phys" in gestured-clone:*) echo "/dev/input/${d##*/}"; return 0 ;; esac
    done
    return 1
}
fwd_no_clone_of() { ! fwd_clone_of "$1" >/dev/null; }
fwd_count() { local n; n=$(grep -c -E "$1" "$2" 2>/dev/null); echo "${n:-0}"; }

fwd_start_daemon() {  # fwd_start_daemon CONFIG LOG [BIN]
    "${3:-$bin}/gestured" run --config "$1" --socket "$fwd_sock" > "$2" 2>&1 &
    fwd_daemon=$!
    wait_for 30 test -S "$fwd_sock" || echo "forwarding: daemon socket never appeared" >> "$out/fatal"
}

fwd_three_finger_swipe() {  # FILE: a scripted three-finger swipe (ASUS Elantech clickpad units), then a one-finger move
    python3 -c '
import sys
lines, t = [], 1_000_000
def e(ty, code, value): lines.append(f"E: {t // 1_000_000}.{t % 1_000_000:06d} {ty:04x} {code:04x} {value}")
tools = [0x145, 0x14d, 0x14e]
for f in range(3):
    # ABS_MT_PRESSURE too: libinput takes a contact without pressure on such a pad for no touch.
    e(3, 0x2f, f); e(3, 0x39, 100 + f); e(3, 0x35, 600 + f * 400); e(3, 0x36, 1000); e(3, 0x3a, 70)
    if f == 0: e(1, 0x14a, 1)
    else: e(1, tools[f - 1], 0)
    e(1, tools[f], 1); e(0, 0, 0); t += 12_000
for k in range(1, 31):
    for f in range(3): e(3, 0x2f, f); e(3, 0x35, 600 + f * 400 + k * 30)
    e(0, 0, 0); t += 10_000
for f in range(3): e(3, 0x2f, f); e(3, 0x39, -1)
e(1, 0x14a, 0); e(1, 0x14e, 0); e(0, 0, 0)
t += 1_000_000
e(3, 0x2f, 0); e(3, 0x39, 200); e(3, 0x35, 1500); e(3, 0x36, 1000); e(3, 0x3a, 70); e(1, 0x14a, 1); e(1, 0x145, 1); e(0, 0, 0); t += 10_000
for k in range(1, 41):
    e(3, 0x35, 1500 + k * 15); e(3, 0x36, 1000 + k * 10); e(0, 0, 0); t += 10_000
e(3, 0x39, -1); e(1, 0x14a, 0); e(1, 0x145, 0); e(0, 0, 0)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
' "$1"
}

fwd_real_swipes="cros-cyan.3fg-swipe-left cros-cyan.3fg-swipe-right cros-gandof.3fg-swipe-left cros-gandof.3fg-swipe-right"
fwd_scrolls() { fwd_count 'POINTER_SCROLL_FINGER|POINTER_AXIS' "$1"; }

fwd_real_swipe_controls() {  # 6, the control: libinput on each real swipe's device, nothing forwarded
    local name node dev peer
    for name in $fwd_real_swipes; do
        evemu-device "$rec/../chromiumos-autotest/$name.evemu" > "$out/fwd-node-raw-$name.txt" 2>&1 &
        dev=$!
        wait_for 10 grep -q /dev/input "$out/fwd-node-raw-$name.txt"
        node=$(fwd_node_of "$out/fwd-node-raw-$name.txt")
        libinput debug-events --device "$node" > "$out/fwd-libinput-raw-$name.txt" 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-raw-$name.txt"
        sleep 0.3
        evemu-play "$node" < "$rec/../chromiumos-autotest/$name.evemu"
        sleep 2
        kill "$peer"; wait "$peer" 2>/dev/null; kill "$dev"; wait "$dev" 2>/dev/null
    done
}

fwd_real_swipes_forwarded() {  # 6: the same through the clone, gestured's swipe-3 bound
    local name node dev peer reader clone raw fwd before
    for name in $fwd_real_swipes; do
        evemu-device "$rec/../chromiumos-autotest/$name.evemu" > "$out/fwd-node-fwd-$name.txt" 2>&1 &
        dev=$!
        wait_for 10 grep -q /dev/input "$out/fwd-node-fwd-$name.txt"
        node=$(fwd_node_of "$out/fwd-node-fwd-$name.txt")
        clone=""
        wait_for 20 fwd_clone_of "Elan Touchpad" && clone=$(fwd_clone_of "Elan Touchpad")
        if [ -z "$clone" ]; then
            fwd_check fail "real swipe $name: the daemon makes a clone" "none"
            kill "$dev"; wait "$dev" 2>/dev/null
            continue
        fi
        libinput debug-events --device "$clone" > "$out/fwd-libinput-fwd-$name.txt" 2>&1 &
        peer=$!
        python3 "$root/Tests/vm/clone_frames.py" "$clone" "$out/fwd-clone-frames-$name.txt" &
        reader=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-fwd-$name.txt"
        wait_for 30 test -e "$out/fwd-clone-frames-$name.txt.ready"
        sleep 0.3
        evemu-play "$node" < "$rec/../chromiumos-autotest/$name.evemu"
        sleep 2
        kill "$peer" "$reader"; wait "$peer" "$reader" 2>/dev/null; kill "$dev"; wait "$dev" 2>/dev/null
        wait_for 20 fwd_no_clone_of "Elan Touchpad"
        # libinput on the raw device: its scroll events before its own swipe began.
        before=$(sed '/GESTURE_SWIPE_BEGIN/,$d' "$out/fwd-libinput-raw-$name.txt")
        raw=$(printf '%s\n' "$before" | grep -c -E 'POINTER_SCROLL_FINGER|POINTER_AXIS')
        fwd=$(fwd_scrolls "$out/fwd-libinput-fwd-$name.txt")
        echo "real-swipe $name $raw $fwd $(fwd_count GESTURE_SWIPE_BEGIN "$out/fwd-libinput-raw-$name.txt") $(fwd_count GESTURE_SWIPE "$out/fwd-libinput-fwd-$name.txt")" >> "$out/forwarding-figures.txt"
        if [ "$(fwd_count GESTURE_SWIPE_BEGIN "$out/fwd-libinput-raw-$name.txt")" -ge 1 ] && [ "$fwd" -le "$raw" ] \
            && [ "$(fwd_count GESTURE_SWIPE "$out/fwd-libinput-fwd-$name.txt")" = 0 ]; then
            fwd_check ok "real swipe $name: libinput on the clone scrolls no more than libinput on the device before its swipe, and sees no swipe" "$fwd scroll events against $raw"
        else
            fwd_check fail "real swipe $name: libinput on the clone scrolls no more than libinput on the device before its swipe, and sees no swipe" \
                "$fwd scroll events against $raw; raw swipes $(fwd_count GESTURE_SWIPE_BEGIN "$out/fwd-libinput-raw-$name.txt"), clone swipe lines $(fwd_count GESTURE_SWIPE "$out/fwd-libinput-fwd-$name.txt")"
        fi
    done
}

forwarding_section() {
    local cfg="$out/forward.yaml"
    : > "$out/forwarding-checks.txt"; : > "$out/forwarding-figures.txt"
    printf '%s\n' 'version: 1' \
        'devices: { forward: true, ignore: [{ name: "*PCAP MultiTouch*" }] }' \
        'gestures:' \
        '  - { id: edge-top, kind: edge-pan, edges: [top], edge-zone: 20mm }' \
        '  - { id: swipe-3, kind: swipe, fingers: 3, directions: [left, right] }' \
        'bindings:' \
        '  - { gesture: edge-top, command: "true" }' \
        '  - { gesture: swipe-3, command: "true" }' > "$cfg"

    # --- 2, the control: libinput on the touchpad before anything takes it ---------------------------
    local pad="ETPS/2 Elantech Touchpad" paddesc="$rec/touchpads/ETPS2 Elantech Touchpad-ASUS-N500JK.desc"
    fwd_three_finger_swipe "$out/fwd-swipe.events"
    evemu-device "$paddesc" > "$out/fwd-node-pad0.txt" 2>&1 &
    local pad0=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-pad0.txt"
    local node; node=$(fwd_node_of "$out/fwd-node-pad0.txt")
    libinput debug-events --device "$node" > "$out/fwd-libinput-pad-control.txt" 2>&1 &
    local peer=$!
    wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-pad-control.txt"
    sleep 0.3
    evemu-play "$node" < "$out/fwd-swipe.events"
    sleep 2   # libinput on the emulated CPU catches up
    kill "$peer"; wait "$peer" 2>/dev/null; kill "$pad0"; wait "$pad0" 2>/dev/null
    for d in /sys/class/input/event*; do echo "$d $(cat "$d/device/name") phys=$(cat "$d/device/phys")"; done > "$out/fwd-sysfs-before.txt" 2>&1
    fwd_real_swipe_controls
    local n; n=$(fwd_count GESTURE_SWIPE_BEGIN "$out/fwd-libinput-pad-control.txt")
    if [ "$n" -ge 1 ]; then fwd_check ok "control: libinput on the touchpad itself reports the three-finger swipe" "$n GESTURE_SWIPE_BEGIN"
    else fwd_check fail "control: libinput on the touchpad itself reports the three-finger swipe" "none"; fi

    fwd_start_daemon "$cfg" "$out/fwd-daemon.log"

    # --- 1, a touchscreen: the edge swipe is taken, the scroll in the middle is not ------------------
    local screen=EP0430M09
    evemu-device "$rec/touchscreens/$screen.desc" > "$out/fwd-node-screen.txt" 2>&1 &
    local screen_dev=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-screen.txt"
    local snode; snode=$(fwd_node_of "$out/fwd-node-screen.txt")
    local clone=""
    wait_for 20 fwd_clone_of "$screen" && clone=$(fwd_clone_of "$screen")
    if [ -z "$clone" ]; then
        fwd_check fail "touchscreen: the daemon makes a clone" "no clone of $screen"
    else
        fwd_check ok "touchscreen: the daemon makes a clone" "$clone"
        udevadm settle
        udevadm info --query=property --name="$clone" > "$out/fwd-clone-udev.txt" 2>&1
        if grep -q '^ID_INPUT_TOUCHSCREEN=1$' "$out/fwd-clone-udev.txt"; then fwd_check ok "touchscreen: udev calls the clone a touchscreen" ""
        else fwd_check fail "touchscreen: udev calls the clone a touchscreen" "$(tr '\n' ' ' < "$out/fwd-clone-udev.txt")"; fi
        libinput debug-events --device "$clone" > "$out/fwd-libinput-screen.txt" 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-screen.txt"
        sleep 0.3
        evemu-play "$snode" < "$rec/touchscreens/$screen.1-finger-drag-up-down.events"
        sleep 1
        local edge_downs; edge_downs=$(fwd_count TOUCH_DOWN "$out/fwd-libinput-screen.txt")
        evemu-play "$snode" < "$rec/touchscreens/$screen.2-finger-scroll-down.events"
        sleep 1
        kill "$peer"; wait "$peer" 2>/dev/null
        local all_downs motions
        all_downs=$(fwd_count TOUCH_DOWN "$out/fwd-libinput-screen.txt")
        motions=$(fwd_count TOUCH_MOTION "$out/fwd-libinput-screen.txt")
        if [ "$edge_downs" = 0 ]; then fwd_check ok "touchscreen: no touch of the bound edge swipe reaches the clone" ""
        else fwd_check fail "touchscreen: no touch of the bound edge swipe reaches the clone" "$edge_downs TOUCH_DOWN"; fi
        if [ "$((all_downs - edge_downs))" = 2 ] && [ "$motions" -gt 10 ]; then
            fwd_check ok "touchscreen: the two-finger scroll reaches the clone" "2 TOUCH_DOWN, $motions TOUCH_MOTION"
        else
            fwd_check fail "touchscreen: the two-finger scroll reaches the clone" "$((all_downs - edge_downs)) TOUCH_DOWN, $motions TOUCH_MOTION"
        fi
        "$bin/gesturectl" devices --socket "$fwd_sock" > "$out/fwd-devices.json" 2>&1
        if grep -q '"grabbed":true' "$out/fwd-devices.json" && grep -q '"clone":"/dev/input/' "$out/fwd-devices.json"; then
            fwd_check ok "touchscreen: 'devices' shows it grabbed, with its clone" ""
        else
            fwd_check fail "touchscreen: 'devices' shows it grabbed, with its clone" "$(cat "$out/fwd-devices.json")"
        fi
        # The daemon never opened its own clone as an input device.
        if [ "$(grep -c 'device added' "$out/fwd-daemon.log")" = 1 ]; then fwd_check ok "the daemon does not open its own clone" ""
        else fwd_check fail "the daemon does not open its own clone" "$(grep 'device added' "$out/fwd-daemon.log" | tr '\n' ' ')"; fi
    fi

    # --- 2, the touchpad forwarded: no three-finger swipe, pointer motion --------------------------
    evemu-device "$paddesc" > "$out/fwd-node-pad.txt" 2>&1 &
    local pad_dev=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-pad.txt"
    local pnode; pnode=$(fwd_node_of "$out/fwd-node-pad.txt")
    local pclone=""
    wait_for 20 fwd_clone_of "$pad" && pclone=$(fwd_clone_of "$pad")
    if [ -z "$pclone" ]; then
        fwd_check fail "touchpad: the daemon makes a clone" "no clone of $pad"
    else
        libinput debug-events --device "$pclone" > "$out/fwd-libinput-pad.txt" 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-pad.txt"
        sleep 0.3
        evemu-play "$pnode" < "$out/fwd-swipe.events"
        sleep 2
        kill "$peer"; wait "$peer" 2>/dev/null
        local swipes
        swipes=$(fwd_count GESTURE_SWIPE "$out/fwd-libinput-pad.txt")
        if [ "$swipes" = 0 ]; then fwd_check ok "touchpad: no GESTURE_SWIPE on the clone for the bound three-finger swipe" ""
        else fwd_check fail "touchpad: no GESTURE_SWIPE on the clone for the bound three-finger swipe" "$swipes lines"; fi
    fi
    kill "$pad_dev"; wait "$pad_dev" 2>/dev/null
    # One finger moving on a recorded touchpad (the file is named a two-finger scroll but holds one
    # finger: docs/recordings.md): the pointer moves through the clone.
    local syn="SynPS/2 Synaptics TouchPad"
    evemu-device "$rec/touchpads/SynPS2 Synaptics TouchPad.hp8470p.desc" > "$out/fwd-node-syn.txt" 2>&1 &
    local syn_dev=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-syn.txt"
    local ynode; ynode=$(fwd_node_of "$out/fwd-node-syn.txt")
    local yclone=""
    wait_for 20 fwd_clone_of "$syn" && yclone=$(fwd_clone_of "$syn")
    if [ -n "$yclone" ]; then
        libinput debug-events --device "$yclone" > "$out/fwd-libinput-syn.txt" 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-syn.txt"
        sleep 0.3
        evemu-play "$ynode" < "$rec/touchpads/SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events"
        sleep 2
        kill "$peer"; wait "$peer" 2>/dev/null
    fi
    local ymotion; ymotion=$(fwd_count POINTER_MOTION "$out/fwd-libinput-syn.txt")
    if [ "$ymotion" -gt 5 ]; then fwd_check ok "touchpad: one finger moving on a recorded touchpad moves the pointer through the clone" "$ymotion POINTER_MOTION"
    else fwd_check fail "touchpad: one finger moving on a recorded touchpad moves the pointer through the clone" "$ymotion POINTER_MOTION, clone '$yclone'"; fi
    kill "$syn_dev"; wait "$syn_dev" 2>/dev/null
    if wait_for 10 fwd_no_clone_of "$pad"; then fwd_check ok "touchpad: unplugging the device removes its clone" ""
    else fwd_check fail "touchpad: unplugging the device removes its clone" "$(fwd_clone_of "$pad")"; fi

    # --- 6, the real three-finger swipes through the clone --------------------------------------------
    fwd_real_swipes_forwarded

    # --- 3, kill -9 during a touch ------------------------------------------------------------------
    if [ -n "$clone" ]; then
        libinput debug-events --device "$snode" > "$out/fwd-libinput-source.txt" 2>&1 &
        local src_peer=$!
        libinput debug-events --device "$clone" > "$out/fwd-libinput-killed.txt" 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-source.txt"; wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-killed.txt"
        sleep 0.3
        evemu-play "$snode" < "$rec/touchscreens/$screen.2-finger-scroll-down.events" &
        local player=$!
        wait_for 10 grep -q TOUCH_DOWN "$out/fwd-libinput-killed.txt"
        local before; before=$(fwd_count TOUCH_ "$out/fwd-libinput-source.txt")
        kill -9 "$fwd_daemon"; wait "$fwd_daemon" 2>/dev/null
        wait "$player"
        # The real device is libinput's again: a drag played now reaches it.
        evemu-play "$snode" < "$rec/touchscreens/$screen.1-finger-drag-up-down.events"
        sleep 2
        kill "$peer" "$src_peer"; wait "$peer" "$src_peer" 2>/dev/null
        local after downs ups
        after=$(fwd_count TOUCH_ "$out/fwd-libinput-source.txt")
        downs=$(fwd_count TOUCH_DOWN "$out/fwd-libinput-killed.txt")
        ups=$(fwd_count 'TOUCH_UP|TOUCH_CANCEL' "$out/fwd-libinput-killed.txt")
        if [ "$before" = 0 ]; then fwd_check ok "kill -9: while forwarded, the real device is grabbed (libinput on it sees nothing)" ""
        else fwd_check fail "kill -9: while forwarded, the real device is grabbed (libinput on it sees nothing)" "$before touch lines"; fi
        if [ "$after" -gt 5 ]; then fwd_check ok "kill -9: the real device's events reach libinput again" "$after touch lines"
        else fwd_check fail "kill -9: the real device's events reach libinput again" "$after touch lines"; fi
        if fwd_no_clone_of "$screen"; then fwd_check ok "kill -9: the clone is gone" ""
        else fwd_check fail "kill -9: the clone is gone" "$(fwd_clone_of "$screen")"; fi
        if grep -q DEVICE_REMOVED "$out/fwd-libinput-killed.txt" && [ "$downs" -ge 1 ] && [ "$ups" -ge "$downs" ]; then
            fwd_check ok "kill -9: no touch left down on the clone" "$downs down, $ups up or cancelled, then removed"
        else
            fwd_check fail "kill -9: no touch left down on the clone" "$downs down, $ups up or cancelled"
        fi
    else
        kill -9 "$fwd_daemon"; wait "$fwd_daemon" 2>/dev/null
        for d in /sys/class/input/event*; do echo "$d $(cat "$d/device/name") phys=$(cat "$d/device/phys")"; done > "$out/fwd-sysfs-noclone.txt" 2>&1
    fi
    kill "$screen_dev"; wait "$screen_dev" 2>/dev/null

    # --- 4, SIGTERM ---------------------------------------------------------------------------------
    fwd_start_daemon "$cfg" "$out/fwd-daemon-2.log"
    evemu-device "$rec/touchscreens/$screen.desc" > "$out/fwd-node-term.txt" 2>&1 &
    screen_dev=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-term.txt"
    snode=$(fwd_node_of "$out/fwd-node-term.txt")
    wait_for 20 fwd_clone_of "$screen"
    kill -TERM "$fwd_daemon"; wait "$fwd_daemon"; local rc=$?
    libinput debug-events --device "$snode" > "$out/fwd-libinput-term.txt" 2>&1 &
    peer=$!
    wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-term.txt"
    sleep 0.3
    evemu-play "$snode" < "$rec/touchscreens/$screen.2-finger-scroll-down.events"
    sleep 2
    kill "$peer"; wait "$peer" 2>/dev/null
    local term_downs; term_downs=$(fwd_count TOUCH_DOWN "$out/fwd-libinput-term.txt")
    if [ "$rc" = 0 ] && fwd_no_clone_of "$screen" && [ "$term_downs" -ge 1 ]; then
        fwd_check ok "SIGTERM: the clone is gone and the real device is released" "exit $rc"
    else
        fwd_check fail "SIGTERM: the clone is gone and the real device is released" "exit $rc, clone '$(fwd_clone_of "$screen")', $term_downs TOUCH_DOWN"
    fi
    kill "$screen_dev"; wait "$screen_dev" 2>/dev/null

    # --- 5, no uinput it can open: not grabbed, said why ---------------------------------------------
    local nobody_dir; nobody_dir=$(mktemp -d /run/fwd-nobody.XXXXXX); chmod 777 "$nobody_dir"
    evemu-device "$rec/touchscreens/$screen.desc" > "$out/fwd-node-nouinput.txt" 2>&1 &
    screen_dev=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-nouinput.txt"
    snode=$(fwd_node_of "$out/fwd-node-nouinput.txt")
    chmod 644 "$snode"   # readable by anyone, /dev/uinput (0600 root) not writable by nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups "$bin/gestured" run --config "$cfg" --socket "$nobody_dir/s.sock" \
        > "$out/fwd-daemon-nouinput.log" 2>&1 &
    local nobody=$!
    wait_for 30 grep -q "device added" "$out/fwd-daemon-nouinput.log"
    sleep 0.5
    kill -TERM "$nobody"; wait "$nobody" 2>/dev/null
    if grep -q "cannot forward '$screen'" "$out/fwd-daemon-nouinput.log" && grep -q "not grabbed" "$out/fwd-daemon-nouinput.log" \
        && grep -q 'udev/70-gestured.rules' "$out/fwd-daemon-nouinput.log" && grep -q 'grabbed=false' "$out/fwd-daemon-nouinput.log"; then
        fwd_check ok "no uinput: the device is not grabbed; the log names it and the fix" ""
    else
        fwd_check fail "no uinput: the device is not grabbed; the log names it and the fix" \
            "$(grep -i -E 'forward|grabbed' "$out/fwd-daemon-nouinput.log" | head -3 | tr '\n' ' ')"
    fi
    kill "$screen_dev"; wait "$screen_dev" 2>/dev/null

    # --- figures: latency and CPU -------------------------------------------------------------------
    local lcfg="$out/forward-latency.yaml"
    printf '%s\n' 'version: 1' 'devices: { forward: true, include: [{ name: "fwd-latency*" }] }' > "$lcfg"
    python3 "$root/Tests/vm/forward_latency.py" direct "fwd-latency direct" "$out/fwd-latency-direct.txt" 200
    # The least hop (poll, read, write: scripts/profiling/hop-floor.c), the floor of any forwarder.
    if cc -O2 -o "$out/hop-floor" "$root/scripts/profiling/hop-floor.c" 2>"$out/hop-floor.err"; then
        "$out/hop-floor" "fwd-latency floor" &
        local hop=$!
        python3 "$root/Tests/vm/forward_latency.py" clone "fwd-latency floor" "$out/fwd-latency-floor.txt" 200 "$hop"
        kill "$hop"; wait "$hop" 2>/dev/null
        echo "latency-floor $(cat "$out/fwd-latency-floor.txt")" >> "$out/forwarding-figures.txt"
    fi
    fwd_start_daemon "$lcfg" "$out/fwd-daemon-latency.log" "$relbin"
    python3 "$root/Tests/vm/forward_latency.py" clone "fwd-latency clone" "$out/fwd-latency-clone.txt" 200 "$fwd_daemon"
    kill -TERM "$fwd_daemon"; wait "$fwd_daemon" 2>/dev/null
    echo "latency-direct $(cat "$out/fwd-latency-direct.txt")" >> "$out/forwarding-figures.txt"
    echo "latency-clone $(cat "$out/fwd-latency-clone.txt")" >> "$out/forwarding-figures.txt"
    if grep -q '^[0-9]' "$out/fwd-latency-clone.txt"; then
        fwd_check ok "latency: frames written to the real device arrive on the clone" "$(cat "$out/fwd-latency-clone.txt")"
    else
        fwd_check fail "latency: frames written to the real device arrive on the clone" "$(cat "$out/fwd-latency-clone.txt" 2>/dev/null)"
    fi

    # CPU: the release daemon forwarding, libinput debug-events reading the clone, the same stream.
    local ccfg="$out/forward-cpu.yaml" events="$rec/touchscreens/$screen.2-finger-scroll-down.events" plays=5
    printf '%s\n' 'version: 1' "devices: { forward: true, include: [{ name: \"$screen\" }] }" > "$ccfg"
    fwd_start_daemon "$ccfg" "$out/fwd-daemon-cpu.log" "$relbin"
    evemu-device "$rec/touchscreens/$screen.desc" > "$out/fwd-node-cpu.txt" 2>&1 &
    screen_dev=$!
    wait_for 10 grep -q /dev/input "$out/fwd-node-cpu.txt"
    snode=$(fwd_node_of "$out/fwd-node-cpu.txt")
    wait_for 20 fwd_clone_of "$screen"; clone=$(fwd_clone_of "$screen")
    libinput debug-events --device "$clone" > >(cat > "$out/fwd-libinput-cpu.txt") 2>&1 &
    peer=$!
    wait_for 30 grep -q DEVICE_ADDED "$out/fwd-libinput-cpu.txt"
    sleep 1
    local g0 l0 g1 l1 i
    g0=$(cpu_ns "$fwd_daemon"); l0=$(cpu_ns "$peer")
    for i in $(seq "$plays"); do evemu-play "$snode" < "$events"; done
    sleep 1
    g1=$(cpu_ns "$fwd_daemon"); l1=$(cpu_ns "$peer")
    kill "$peer"; wait "$peer" 2>/dev/null
    kill -TERM "$fwd_daemon"; wait "$fwd_daemon" 2>/dev/null
    kill "$screen_dev"; wait "$screen_dev" 2>/dev/null
    echo "cpu $(( $(grep -c '^E:' "$events") * plays )) $((g1 - g0)) $((l1 - l0))" >> "$out/forwarding-figures.txt"
    if [ "$((l1 - l0))" -gt 0 ] && [ "$((g1 - g0))" -gt 0 ]; then fwd_check ok "CPU: gestured forwarded and libinput read the clone" ""
    else fwd_check fail "CPU: gestured forwarded and libinput read the clone" "gestured $((g1 - g0)) ns, libinput $((l1 - l0)) ns"; fi
}
