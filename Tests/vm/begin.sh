# Sourced by inside.sh (the ported libinput cases of Tests/Fixtures/litest-port, which the VM test
# checks) and by scripts/profiling/vm-begin (those and every real touchpad swipe, scroll and pinch
# of the fixtures, for the begin-time figures): when, not only what. Each recording is played
# through a uinput device (the ported cases of one pad share its device, a second apart; a real
# recording gets a fresh one) while both gestured (one `gesturectl listen` of every touch, for the whole section) and
# `libinput debug-events` (one for each device) read it. Writes into $out/begin:
#   groups.txt             GROUP DESCRIPTION: one device each
#   group-GROUP.libinput.txt   libinput's events (its times count from the device's first frame)
#   list.txt               the recordings played (NAME|DESCRIPTION|EVENTS|DEVICE)
#   windows.txt            NAME GROUP START END FIRST: the CLOCK_MONOTONIC window of NAME's play, and
#                          when its first frame was written (play.py)
#   gestured.jsonl         gestured's gesture and touch lines (CLOCK_MONOTONIC times)
# Tests/vm/begin_times.py --vm $out/begin puts the verdicts and begin times side by side; evaluate.py
# checks them. The list ($out/begin-list.txt, NAME|DESCRIPTION|EVENTS|DEVICE, grouped by device)
# comes from the host (begin_times.py --list), so the recordings are named in one place.
mono() { cut -d' ' -f1 /proc/uptime; }   # CLOCK_BOOTTIME: CLOCK_MONOTONIC in a VM that never suspends

begin_section() {
    local dir="$out/begin"
    mkdir -p "$dir"
    cp "$out/begin-list.txt" "$dir/list.txt"
    # Every touch: the root's stream ("screen", the default config's root) and every other region's ("*").
    "$bin/gesturectl" listen --socket "$sock" --format json --touches '*' --touches screen > "$dir/gestured.jsonl" 2>"$dir/listen.err" &
    local listener=$!
    wait_for 30 listener_ready || echo "begin: the listener never connected" >> "$out/fatal"
    local name desc path device start current="" group=0 devname="" node="" creator="" peer=""
    begin_close_device() {
        [ -n "$peer" ] && { kill "$peer"; wait "$peer" 2>/dev/null; }
        [ -n "$creator" ] && { kill "$creator"; wait "$creator" 2>/dev/null; wait_for 10 device_gone "$devname"; }
        peer="" creator=""
    }
    while IFS='|' read -r name desc path device; do
        [ -z "$name" ] && continue
        if [ "$device" != "$current" ]; then
            begin_close_device
            current=$device group=$((group + 1))
            echo "$group $desc" >> "$dir/groups.txt"
            devname=$(header_name "$desc")
            evemu-device "$desc" > "$dir/group-$group.node" 2>&1 &
            creator=$!
            wait_for 10 grep -q /dev/input "$dir/group-$group.node" || echo "begin group $group ($desc): evemu-device made no node" >> "$dir/problems"
            node=$(grep -o '/dev/input/event[0-9]*' "$dir/group-$group.node" | head -1)
            wait_for 10 device_open "$devname" || echo "begin group $group: the daemon never opened $devname" >> "$dir/problems"
            libinput debug-events --device "$node" --enable-tap > "$dir/group-$group.libinput.txt" 2>&1 &
            peer=$!
            wait_for 30 grep -q DEVICE_ADDED "$dir/group-$group.libinput.txt" || echo "begin group $group: libinput never opened $node" >> "$dir/problems"
            sleep 0.2
        fi
        start=$(mono)
        first=$(python3 "$root/Tests/vm/play.py" "$node" < "$path")   # each frame at its own deadline (play.py says why not evemu-play)
        sleep 0.8   # tap (300 ms) and hold (500 ms) timers fire in real time before the next recording
        echo "$name $group $start $(mono) $first" >> "$dir/windows.txt"
    done < "$out/begin-list.txt"
    begin_close_device
    sleep 0.3
    kill "$listener"; wait "$listener" 2>/dev/null
}
