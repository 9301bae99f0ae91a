#!/usr/bin/env bash
# End-to-end test through a real kernel: boots a Debian kernel in qemu (virtme-ng,
# no KVM) over this machine's filesystem, where udevd runs, virtual devices are created from recordings
# with evemu-device (a hotplug that gestured must see through libudev), events are replayed with
# evemu-play, and the gestures `gesturectl listen` receives are checked against `gestured replay`
# of the same files. Ends with "N passed, M failed"; exits non-zero on any failure or when the VM
# cannot start (never skips).
# VM_PART=pens runs only the pens' part (Tests/vm/pens.sh) with its checks: a few minutes, not twenty.
set -uo pipefail
part=${VM_PART:-}
case "$part" in ""|pens) ;; *) echo "vm-test: VM_PART is '' or pens, not '$part'"; echo "0 passed, 1 failed"; exit 1 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

log() { echo "vm-test: $*" >&2; }

# --- what the VM needs -------------------------------------------------------------------------------
scripts/install-deps qemu-system-x86 linux-image-amd64 kmod udev busybox-static evemu-tools libinput-tools evtest python3 python3-pip || {
    echo "vm-test: could not install the VM's packages"; echo "0 passed, 1 failed"; exit 1; }
if ! command -v vng >/dev/null 2>&1; then
    pip install -q virtme-ng 2>/dev/null || pip install -q --break-system-packages virtme-ng || {
        echo "vm-test: could not install virtme-ng"; echo "0 passed, 1 failed"; exit 1; }
    hash -r
fi
kernel=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || { echo "vm-test: no /boot/vmlinuz-*-amd64 kernel"; echo "0 passed, 1 failed"; exit 1; }

# --- the binaries ------------------------------------------------------------------------------------
swift build --product gestured >/dev/null && swift build --product gesturectl >/dev/null || {
    echo "vm-test: build failed"; echo "0 passed, 1 failed"; exit 1; }
bin=$(swift build --show-bin-path)
# The CPU comparison with libinput measures the build users install (release); the pens' part has none.
relbin=$bin
if [ -z "$part" ]; then
    swift build -c release --product gestured >/dev/null && swift build -c release --product gesturectl >/dev/null || {
        echo "vm-test: release build failed"; echo "0 passed, 1 failed"; exit 1; }
    relbin=$(swift build -c release --show-bin-path)
fi

out=$(mktemp -d /tmp/gestured-vm.XXXXXX)
chmod 777 "$out"
log "kernel $kernel, results in $out"

# The test config: the default config, plus a device the daemon must ignore.
grep -q '^  ignore: \[\]$' config/default.yaml || { echo "vm-test: config/default.yaml has no 'ignore: []' line"; echo "0 passed, 1 failed"; exit 1; }
sed 's/^  ignore: \[\]$/  ignore: [{ name: "*PCAP MultiTouch*" }]/' config/default.yaml > "$out/vm-config.yaml"
"$bin/gestured" check-config "$out/vm-config.yaml" >&2 || { echo "0 passed, 1 failed"; exit 1; }

# --- the same recordings through `gestured replay` (the reference) -----------------------------------
rec="$root/Tests/Fixtures/evemu-devices"
while IFS='|' read -r name desc events; do
    [ -z "$name" ] && continue
    descarg=(--desc "$rec/$desc"); [ "$desc" = "$events" ] && descarg=()
    "$bin/gestured" replay --config "$out/vm-config.yaml" "${descarg[@]}" "$rec/$events" \
        > "$out/replay-$name.jsonl" 2> "$out/replay-$name.err" || log "replay of $name failed"
done < "$root/Tests/vm/cases.txt"

# The pens' config (Tests/vm/pens.sh): a pen tap and a pen pan; the DTH2242's A: lines carry no
# resolution (its header's comments say 200 units/mm). And the pens' replays.
cat > "$out/pen-config.yaml" <<'YAML'
version: 1
gestures:
  - id: pen-tap
    kind: tap
    touch-types: [pen]
  - id: pen-stroke
    kind: pan
    touch-types: [pen]
surfaces:
  - match: { name: "Wacom DTH2242*" }
    physical-size: [479.2mm, 271.3mm]
YAML
"$bin/gestured" check-config "$out/pen-config.yaml" >&2 || { echo "0 passed, 1 failed"; exit 1; }
pens="$root/Tests/Fixtures/pens"
"$bin/gestured" replay --config "$out/vm-config.yaml" --touches "$pens/Wacom Cintiq 13HD touch Pen.events" \
    > "$out/replay-pen-default.jsonl" 2> "$out/replay-pen-default.err" || log "replay of the Cintiq pen failed"
"$bin/gestured" replay --config "$out/pen-config.yaml" "$pens/Wacom DTH2242 Pen.events" \
    > "$out/replay-pen-bound.jsonl" 2> "$out/replay-pen-bound.err" || log "replay of the DTH2242 pen failed"

# The recordings of the begin-time section (Tests/vm/begin.sh), named by begin_times.py: the ported
# libinput cases, whose verdicts evaluate.py checks (scripts/profiling/vm-begin adds the real
# touchpad recordings for the begin-time figures).
python3 "$root/Tests/vm/begin_times.py" --list --ported-only > "$out/begin-list.txt" || { echo "vm-test: begin_times.py --list failed"; echo "0 passed, 1 failed"; exit 1; }

# --- the VM ------------------------------------------------------------------------------------------
start=$(date +%s)
# The cases, begin, CPU, forwarding and tune parts take 14–22 min under emulation; a bound well above that.
timeout 2400 vng -r "$kernel" --disable-kvm --memory 2G --cpus 2 --rwdir "$out" \
    --exec "$root/Tests/vm/inside.sh $root $bin $out $relbin $part" > "$out/vm-console.log" 2>&1
vm_rc=$?
log "VM ran $(( $(date +%s) - start )) s, exit $vm_rc"
if [ ! -f "$out/inside-done" ]; then
    echo "vm-test: the VM did not start or did not finish (exit $vm_rc); console:"
    tail -40 "$out/vm-console.log"
    echo "0 passed, 1 failed"
    exit 1
fi

[ -z "$part" ] && "$root/Tests/vm/tune.sh" "$root" "$bin" "$out"   # gesturectl tune in a VM of its own (Tests/vm/tune.sh)
python3 "$root/Tests/vm/evaluate.py" "$out" $part
