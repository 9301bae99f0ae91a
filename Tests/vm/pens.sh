# Pens through the real kernel (docs/input.md, "Pens"), sourced by Tests/vm/inside.sh, which calls
# pens_section while its own daemon (the default config, on $sock) runs. Uses from the caller: $root,
# $bin, $out, $sock, $daemon, wait_for, device_open, device_gone, header_name, listener_ready.
# evaluate_pens.py judges the files against `gestured replay` of the same recordings (run.sh).
#
# 1. The Cintiq 13HD's pen (a pen display: two strokes with pressure and tilt, hovering between them)
#    on a uinput device: the default-config daemon opens it and streams pen touch lines (kind pen,
#    pressure, altitude, azimuth) and hover lines, and no gesture (gestures take fingers by default).
# 2. The DTH2242's pen (six taps and one stroke) through a second daemon whose config binds a pen tap
#    and a pen pan (`touch-types: [pen]`, $out/pen-config.yaml): the same gestures as the replay.
pens=$root/Tests/Fixtures/pens

# pen_play NAME FILE SOCKET: a uinput device from FILE's header, FILE's events played through it while
# `gesturectl listen --touches '*'` on SOCKET writes live-NAME.jsonl.
pen_play() {
    local name=$1 file=$2 socket=$3
    local devname; devname=$(header_name "$file")
    "$bin/gesturectl" listen --socket "$socket" --touches '*' > "$out/live-$name.jsonl" 2>"$out/listen-$name.err" &
    local listener=$!
    sock=$socket wait_for 30 listener_ready || echo "$name: the listener never connected" >> "$out/fatal"
    sleep 0.3
    evemu-device "$file" > "$out/node-$name.txt" 2>&1 &
    local creator=$!
    wait_for 10 grep -q /dev/input "$out/node-$name.txt" || echo "$name: evemu-device made no node" >> "$out/fatal"
    local node; node=$(grep -o '/dev/input/event[0-9]*' "$out/node-$name.txt" | head -1)
    if sock=$socket wait_for 10 device_open "$devname"; then echo "$name" >> "$out/hotplug-seen"; fi
    evemu-play "$node" < "$file"
    sleep 1.5   # the daemon's timers (tap interval) fire in real time
    kill "$creator"; wait "$creator" 2>/dev/null
    sock=$socket wait_for 10 device_gone "$devname" && echo "$name" >> "$out/removal-seen"
    sleep 0.3
    kill "$listener"; wait "$listener" 2>/dev/null
}

pens_section() {
    pen_play pen-default "$pens/Wacom Cintiq 13HD touch Pen.events" "$sock"
    kill -0 "$daemon" 2>/dev/null || echo "pen-default: daemon died" >> "$out/fatal"

    local psock=/run/gestured-pens.sock
    "$bin/gestured" run --config "$out/pen-config.yaml" --socket "$psock" > "$out/pen-daemon.log" 2>&1 &
    local pdaemon=$!
    wait_for 20 test -S "$psock" || echo "pen daemon socket never appeared" >> "$out/fatal"
    # listener_ready counts the latency client too on the first daemon: here the listener and the asker.
    listener_ready() { [ "$(client_count)" -ge 2 ]; }
    pen_play pen-bound "$pens/Wacom DTH2242 Pen.events" "$psock"
    listener_ready() { [ "$(client_count)" -ge 3 ]; }
    kill -0 "$pdaemon" 2>/dev/null || echo "pen-bound: daemon died" >> "$out/fatal"
    kill -TERM "$pdaemon"; wait "$pdaemon" 2>/dev/null
}
