# The CPU comparison of the VM test (Tests/vm/inside.sh) and of scripts/vm-cpu-stages, sourced by both
# inside the VM. Uses from the caller: $rec (the recordings), $out (results), $relbin (the release
# gestured and gesturectl), wait_for, and $out/vm-config.yaml. Results: $out/TAG-NAME-REPEAT.*, TAG
# being $CPU_TAG (default cpu).
#
# The release daemon (the build users install) on its own socket with one subscribed
# `gesturectl listen` client, and `libinput debug-events` printing into a pipe, read the same uinput
# device at the same time while a recording is played CPU_PLAYS times. Each process's CPU time is read before and after:
# nanoseconds on CPU from /proc/PID/task/*/schedstat (every thread), and user / system clock ticks
# from /proc/PID/stat. Three repeats per recording. evaluate.py prints CPU per 1,000 events and the
# ratio (measured, not asserted) and checks that both processes saw the stream.
CPU_CASES=(
    "touchscreen-scroll|touchscreens/EP0430M09.desc|touchscreens/EP0430M09.2-finger-scroll-down.events"
    "touchpad-scroll|touchpads/SynPS2 Synaptics TouchPad.desc|touchpads/SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events"
)
CPU_REPEATS=3 CPU_PLAYS=5
# CPU_LAYOUT (diagnostic, scripts/vm-cpu-stages --layouts): empty or "default" (the VM test's) lets
# the scheduler place every process; "pairs" pins gestured and its client to CPU 0 and libinput
# and its reader to CPU 1, "pairs-swapped" the other way round, so both pairs share a CPU alike.
cpu_pin() {  # cpu_pin gestured|libinput: the taskset prefix of that pair under $CPU_LAYOUT
    case "${CPU_LAYOUT:-}/$1" in
        pairs/gestured|pairs-swapped/libinput) echo "taskset -c 0" ;;
        pairs/libinput|pairs-swapped/gestured) echo "taskset -c 1" ;;
    esac
}
cpu_ns() {  # nanoseconds on CPU of every thread of PID
    local total=0 t ns rest
    for t in /proc/"$1"/task/*/schedstat; do read -r ns rest < "$t" && total=$((total + ns)); done
    echo "$total"
}
cpu_ticks() {  # "user system" clock ticks of PID (all threads)
    local fields; fields=$(sed 's/.*) //' "/proc/$1/stat"); set -- $fields; echo "${12} ${13}"
}
cpu_settled() {  # true once neither PID used CPU during the last 0.3 s
    local a b; a="$(cpu_ns "$1") $(cpu_ns "$2")"; sleep 0.3; b="$(cpu_ns "$1") $(cpu_ns "$2")"; [ "$a" = "$b" ]
}
cpu_compare() {  # cpu_compare DAEMON_PID SOCKET NAME DESC EVENTS REPEAT
    local daemon=$1 csock=$2 name=$3 desc="$rec/$4" events="$rec/$5" i=$6
    local tag="${CPU_TAG:-cpu}-$name-$i" n play
    n=$(grep -c '^E:' "$events")
    $(cpu_pin gestured) "$relbin/gesturectl" listen --socket "$csock" > "$out/$tag-listen.jsonl" 2> "$out/$tag-listen.err" &
    local listener=$!
    wait_for 30 sh -c "'$relbin/gesturectl' status --socket '$csock' | grep -q '\"clients\":2'" \
        || echo "$tag: the listener never connected" >> "$out/fatal"
    evemu-device "$desc" > "$out/$tag-node.txt" 2>&1 &
    local creator=$!
    wait_for 10 grep -q /dev/input "$out/$tag-node.txt" || echo "$tag: evemu-device made no node" >> "$out/fatal"
    local node; node=$(grep -o '/dev/input/event[0-9]*' "$out/$tag-node.txt" | head -1)
    wait_for 10 sh -c "'$relbin/gesturectl' devices --socket '$csock' | grep -qF '\"$node\"'" \
        || echo "$tag: the daemon never opened $node" >> "$out/fatal"
    # Its lines go through a pipe to another process, as gestured's go through the socket to the
    # listener: neither pays for writing into the host-shared results folder.
    $(cpu_pin libinput) libinput debug-events --device "$node" > >($(cpu_pin libinput) cat > "$out/$tag-libinput.txt") 2>&1 &
    local peer=$!
    wait_for 30 grep -q DEVICE_ADDED "$out/$tag-libinput.txt" || echo "$tag: libinput never opened $node" >> "$out/fatal"
    # One unmeasured play first: both processes are past their first-use costs (lazy set-up,
    # page faults), so the figures are the steady per-event cost.
    evemu-play "$node" < "$events"
    wait_for 10 cpu_settled "$daemon" "$peer"
    local g0 l0 gt0 lt0 g1 l1 gt1 lt1
    g0=$(cpu_ns "$daemon"); l0=$(cpu_ns "$peer"); gt0=$(cpu_ticks "$daemon"); lt0=$(cpu_ticks "$peer")
    for play in $(seq 1 "$CPU_PLAYS"); do evemu-play "$node" < "$events"; done
    wait_for 10 cpu_settled "$daemon" "$peer"   # the tap and long-press timers have run out
    g1=$(cpu_ns "$daemon"); l1=$(cpu_ns "$peer"); gt1=$(cpu_ticks "$daemon"); lt1=$(cpu_ticks "$peer")
    set -- $gt0 $gt1 $lt0 $lt1
    echo "events=$((n * CPU_PLAYS)) gestured_ns=$((g1 - g0)) libinput_ns=$((l1 - l0))" \
         "gestured_user=$(($3 - $1)) gestured_sys=$(($4 - $2)) libinput_user=$(($7 - $5)) libinput_sys=$(($8 - $6))" \
         "clk_tck=$(getconf CLK_TCK)" > "$out/$tag.txt"
    kill "$peer" "$creator"; wait "$peer" "$creator" 2>/dev/null
    wait_for 10 sh -c "! '$relbin/gesturectl' devices --socket '$csock' | grep -qF '\"$node\"'"
    kill "$listener"; wait "$listener" 2>/dev/null
}
cpu_section() {
    local csock=/run/gestured-cpu.sock entry name desc events i
    $(cpu_pin gestured) "$relbin/gestured" run --config "$out/vm-config.yaml" --socket "$csock" > "$out/${CPU_TAG:-cpu}-daemon.log" 2>&1 &
    local cdaemon=$!
    wait_for 30 "$relbin/gesturectl" status --socket "$csock" || echo "cpu: the release daemon never answered" >> "$out/fatal"
    for entry in "${CPU_CASES[@]}"; do
        IFS='|' read -r name desc events <<< "$entry"
        for i in $(seq 1 "$CPU_REPEATS"); do cpu_compare "$cdaemon" "$csock" "$name" "$desc" "$events" "$i"; done
    done
    kill -TERM "$cdaemon"; wait "$cdaemon"
}
