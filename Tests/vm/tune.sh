#!/usr/bin/env bash
# `gesturectl tune` through a real kernel (docs/tune.md): a virtual touchpad made from a real
# recording's description; the user's tries are the other hand's swipes (Tests/Fixtures/tune/
# other-hand) played into it while `gesturectl tune swipe-3 --yes` records them through the daemon;
# the tuned config is written and reloaded, and a fresh try of the other hand's right swipe (under
# the begin distance, recognized on libinput's decision before and after) is then recognized. Each
# check is a line "ok|NAME|" or "fail|NAME|DETAIL" of $out/tune-checks.txt, counted by evaluate.py (evaluate_tune.py) in the VM test's "N passed, M failed".
#
#   Tests/vm/tune.sh                  boots a VM for this case alone and prints its checks (iterating)
#   Tests/vm/tune.sh ROOT BIN OUT     the same from run.sh (its results in OUT, judged by evaluate.py)
#   Tests/vm/tune.sh --inside ROOT BIN OUT   inside the VM
set -uo pipefail

if [ "${1:-}" = "--inside" ]; then
    root=$2 bin=$3 out=$4
    sock=/run/gestured-tune.sock
    fix="$root/Tests/Fixtures/tune/other-hand"
    left="$fix/cros-cyan.3fg-swipe-left.other-hand.evemu"
    right="$fix/cros-cyan.3fg-swipe-right.other-hand.evemu"
    checks="$out/tune-checks.txt"
    : > "$checks"
    exec 2>"$out/tune-inside.log"
    set -x
    now_ms() { date +%s%3N; }
    wait_for() {  # wait_for SECONDS COMMAND...: retries every 0.1 s until the command succeeds
        local limit=$(( $(now_ms) + $1 * 1000 )); shift
        until "$@" >/dev/null 2>&1; do [ "$(now_ms)" -gt "$limit" ] && return 1; sleep 0.1; done
    }
    check() {  # check NAME DETAIL COMMAND...
        local name=$1 detail=$2; shift 2
        if "$@" >/dev/null 2>&1; then echo "ok|$name|" >> "$checks"; else echo "fail|$name|$detail" >> "$checks"; fi
    }
    recording() { "$bin/gesturectl" status --socket "$sock" | grep -q '"recordings":1'; }
    device_open() { "$bin/gesturectl" devices --socket "$sock" | grep -qF "Elan Touchpad"; }
    play() { grep '^E:' "$1" | evemu-play "$node"; }

    modprobe uinput
    /lib/systemd/systemd-udevd --daemon
    udevadm trigger --action=add >/dev/null 2>&1; udevadm settle
    # The touchpad's three-finger gestures alone: under software emulation the played fingers land
    # late enough for a one-finger long press to take a swipe first.
    cat > "$out/tune-config.yaml" <<'YAML'
version: 1
gestures:
  # Three fingers tapping.
  - id: three-finger-tap
    kind: tap
    fingers: 3
  # Three fingers moving together, left or right.
  - id: swipe-3
    kind: swipe
    fingers: 3
    directions: [left, right]
YAML
    "$bin/gestured" run --config "$out/tune-config.yaml" --socket "$sock" > "$out/tune-daemon.log" 2>&1 &
    daemon=$!
    wait_for 30 test -S "$sock"
    evemu-device "$left" > "$out/tune-node.txt" 2>&1 &
    creator=$!
    wait_for 10 grep -q /dev/input "$out/tune-node.txt"
    node=$(grep -o '/dev/input/event[0-9]*' "$out/tune-node.txt" | head -1)
    check "the virtual touchpad is open" "no device in gesturectl devices" wait_for 20 device_open

    # The user's three tries: a swipe the defaults take, then twice the one they miss.
    "$bin/gesturectl" tune swipe-3 --socket "$sock" --tries 3 --seconds 15 --folder "$out/tune-samples" --yes \
        > "$out/tune-ctl.txt" 2> "$out/tune-ctl.err" &
    ctl=$!
    for i in 1 2 3; do
        wait_for 120 grep -q "^try $i of 3" "$out/tune-ctl.txt" || break
        wait_for 60 recording || break
        sleep 0.3
        if [ "$i" = 1 ]; then play "$left"; else play "$right"; fi
    done
    wait_for 600 test ! -d "/proc/$ctl"
    wait "$ctl"; echo $? > "$out/tune-ctl-exit"
    check "gesturectl tune exits 0" "exit $(cat "$out/tune-ctl-exit"): $(tail -3 "$out/tune-ctl.err" | tr '\n' ' ')" \
        test "$(cat "$out/tune-ctl-exit")" = 0
    check "each try is kept as a labelled recording" "$(ls "$out/tune-samples" 2>&1 | tr '\n' ' ')" \
        test "$(ls "$out/tune-samples" | grep -c '^try-[123]\.swipe-3\.evemu$')" = 3
    check "try 1 is recognized" "$(grep -A1 '^try 1' "$out/tune-ctl.txt" | tr '\n' ' ')" \
        sh -c "grep -A1 '^try 1' '$out/tune-ctl.txt' | grep -q '✓ swipe-3 recognized'"
    # The other hand's right swipe moves its fingers 2.6 mm together, under the 3 mm begin distance,
    # but its highest and lowest fingers moved 2 mm the same way: libinput's swipe, on which the
    # defaults begin (docs/recognizers.md, "Begin with libinput"); the fit still measures it.
    check "try 2, under the begin distance, is recognized on libinput's decision" "$(grep -A1 '^try 2' "$out/tune-ctl.txt" | tr '\n' ' ')" \
        sh -c "grep -A1 '^try 2' '$out/tune-ctl.txt' | grep -q '✓ swipe-3 recognized'"
    check "the fit measures try 2's travel under the begin distance" "$(grep 'try-2.swipe-3 ' "$out/tune-ctl.txt")" \
        sh -c "grep 'try-2.swipe-3 ' '$out/tune-ctl.txt' | grep -q ' 2\.[0-9] mm '"
    check "the tuned config is written, saying what it changed" "$(grep 'gestured tune:' "$out/tune-config.yaml")" \
        grep -q 'begin-distance: .*# gestured tune: begin-distance was 3mm' "$out/tune-config.yaml"
    check "the config's comments are kept" "$(grep -c '^  # ' "$out/tune-config.yaml") comment lines" \
        test "$(grep -c '^  # ' "$out/tune-config.yaml")" = 2
    check "the tuned config passes check-config" "$("$bin/gestured" check-config "$out/tune-config.yaml" 2>&1 | tr '\n' ' ')" \
        "$bin/gestured" check-config "$out/tune-config.yaml"
    check "the daemon reloaded it" "$(tail -2 "$out/tune-ctl.txt" | tr '\n' ' ')" grep -q 'the daemon reloaded' "$out/tune-ctl.txt"

    # A fresh try of the other hand's right swipe, under the tuned config.
    "$bin/gesturectl" listen --socket "$sock" --gesture swipe-3 --format json > "$out/tune-fresh.jsonl" 2>&1 &
    listener=$!
    wait_for 30 sh -c "'$bin/gesturectl' status --socket '$sock' | grep -q '\"clients\":2'"
    sleep 0.3
    play "$right"
    wait_for 20 grep -q '"state":"ended"' "$out/tune-fresh.jsonl"
    kill "$listener"; wait "$listener" 2>/dev/null
    check "a fresh try is then recognized" "$(head -c 300 "$out/tune-fresh.jsonl")" grep -q '"gesture":"swipe-3".*"state":"began"' "$out/tune-fresh.jsonl"
    kill "$creator"; wait "$creator" 2>/dev/null
    kill -TERM "$daemon"; wait "$daemon" 2>/dev/null
    touch "$out/tune-done"
    exit 0
fi

root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
if [ $# -ge 3 ]; then
    bin=$2 out=$3 standalone=
else
    swift build --product gestured >/dev/null && swift build --product gesturectl >/dev/null || {
        echo "tune: build failed"; echo "0 passed, 1 failed"; exit 1; }
    bin=$(swift build --show-bin-path)
    out=$(mktemp -d /tmp/gestured-vm-tune.XXXXXX)
    chmod 777 "$out"
    standalone=1
fi
kernel=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
start=$(date +%s)
timeout 1200 vng -r "$kernel" --disable-kvm --memory 2G --cpus 2 --rwdir "$out" \
    --exec "$root/Tests/vm/tune.sh --inside $root $bin $out" > "$out/tune-console.log" 2>&1
vm_rc=$?
echo "vm-test: tune VM ran $(( $(date +%s) - start )) s, exit $vm_rc" >&2
[ -f "$out/tune-done" ] || echo "fail|the tune VM finished|no tune-done; console: $(tail -5 "$out/tune-console.log" | tr '\n' ' ')" >> "$out/tune-checks.txt"
if [ -n "$standalone" ]; then
    passed=$(grep -c '^ok|' "$out/tune-checks.txt"); failed=$(grep -c '^fail|' "$out/tune-checks.txt")
    sed 's/^/  /' "$out/tune-checks.txt"
    echo "results in $out"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
fi
