# The CPU comparison of the VM test (Tests/vm/inside.sh) and of scripts/profiling/vm-cpu-stages, sourced by both
# inside the VM. Uses from the caller: $rec (the recordings), $out (results), $relbin (the release
# gestured and gesturectl), wait_for, and $out/vm-config.yaml. Results: $out/TAG-NAME-REPEAT.*, TAG
# being $CPU_TAG (default cpu).
#
# The release daemon (the build users install) on its own socket with one subscribed
# `gesturectl listen` client, and `libinput debug-events` printing into a pipe, read the same uinput
# device at the same time while a recording is played CPU_PLAYS times. Each process's CPU time is
# read before and after: nanoseconds on CPU from /proc/PID/task/*/schedstat (every thread), user /
# system clock ticks from /proc/PID/stat, and context switches (waits and preemptions) from
# /proc/PID/task/*/status. Four repeats per recording, taking turns at which process opens the
# device first: the kernel's evdev wakes its readers in the order they opened it, and on this
# emulated CPU that order moves the touchpad ratio (docs/performance.md, "Which process the kernel
# wakes first"). evaluate.py prints CPU per 1,000 events and the ratio (measured, not asserted) and
# checks that both processes saw the stream.
# The third case is one finger moving on another touchpad, the most common thing a touchpad sees (the
# file is named a two-finger scroll but holds one finger: docs/recordings.md).
CPU_CASES=(
    "touchscreen-scroll|touchscreens/EP0430M09.desc|touchscreens/EP0430M09.2-finger-scroll-down.events"
    "touchpad-scroll|touchpads/SynPS2 Synaptics TouchPad.desc|touchpads/SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events"
    "touchpad-one-finger|touchpads/SynPS2 Synaptics TouchPad.hp8470p.desc|touchpads/SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events"
)
CPU_REPEATS=4 CPU_PLAYS=5
# CPU_LAYOUT (diagnostic, scripts/profiling/vm-cpu-stages --layouts): empty or "default" (the VM test's) lets
# the scheduler place every process; "pairs" pins gestured and its client to CPU 0 and libinput
# and its reader to CPU 1, "pairs-swapped" the other way round, so both pairs share a CPU alike;
# "gestured-first" and "libinput-first" place nothing but have that process open the device first
# in every repeat (the others take turns: odd repeats gestured first, even ones libinput).
cpu_first() {  # cpu_first REPEAT: which process opens the device first in that repeat
    case "${CPU_LAYOUT:-}" in
        gestured-first) echo gestured ;;
        libinput-first) echo libinput ;;
        *) if [ $(($1 % 2)) = 1 ]; then echo gestured; else echo libinput; fi ;;
    esac
}
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
cpu_switches() {  # "voluntary involuntary" context switches of PID (all threads)
    local t v=0 i=0 key value
    for t in /proc/"$1"/task/*/status; do
        while read -r key value; do
            case $key in voluntary_ctxt_switches:) v=$((v + value)) ;; nonvoluntary_ctxt_switches:) i=$((i + value)) ;; esac
        done < "$t"
    done
    echo "$v $i"
}
cpu_settled() {  # true once neither PID used CPU during the last 0.3 s
    local a b; a="$(cpu_ns "$1") $(cpu_ns "$2")"; sleep 0.3; b="$(cpu_ns "$1") $(cpu_ns "$2")"; [ "$a" = "$b" ]
}
cpu_compare() {  # cpu_compare SOCKET NAME DESC EVENTS REPEAT
    local csock=$1 name=$2 desc="$rec/$3" events="$rec/$4" i=$5
    local tag="${CPU_TAG:-cpu}-$name-$i" first n play node daemon peer listener creator
    first=$(cpu_first "$i")
    n=$(grep -c '^E:' "$events")
    cpu_start_daemon() {  # opens every input device there is, and those that appear later
        $(cpu_pin gestured) "$relbin/gestured" run --config "$out/vm-config.yaml" --socket "$csock" > "$out/$tag-daemon.log" 2>&1 &
        daemon=$!
        wait_for 30 "$relbin/gesturectl" status --socket "$csock" || echo "$tag: the release daemon never answered" >> "$out/fatal"
        $(cpu_pin gestured) "$relbin/gesturectl" listen --socket "$csock" > "$out/$tag-listen.jsonl" 2> "$out/$tag-listen.err" &
        listener=$!
        wait_for 30 sh -c "'$relbin/gesturectl' status --socket '$csock' | grep -q '\"clients\":2'" \
            || echo "$tag: the listener never connected" >> "$out/fatal"
    }
    cpu_start_peer() {
        # Its lines go through a pipe to another process, as gestured's go through the stream pipe to
        # the listener: neither pays for writing into the host-shared results folder.
        $(cpu_pin libinput) libinput debug-events --device "$node" > >($(cpu_pin libinput) cat > "$out/$tag-libinput.txt") 2>&1 &
        peer=$!
        wait_for 30 grep -q DEVICE_ADDED "$out/$tag-libinput.txt" || echo "$tag: libinput never opened $node" >> "$out/fatal"
    }
    [ "$first" = libinput ] || cpu_start_daemon
    evemu-device "$desc" > "$out/$tag-node.txt" 2>&1 &
    creator=$!
    wait_for 10 grep -q /dev/input "$out/$tag-node.txt" || echo "$tag: evemu-device made no node" >> "$out/fatal"
    node=$(grep -o '/dev/input/event[0-9]*' "$out/$tag-node.txt" | head -1)
    if [ "$first" = libinput ]; then cpu_start_peer; cpu_start_daemon; fi
    wait_for 10 sh -c "'$relbin/gesturectl' devices --socket '$csock' | grep -qF '\"$node\"'" \
        || echo "$tag: the daemon never opened $node" >> "$out/fatal"
    [ "$first" = libinput ] || cpu_start_peer
    # One unmeasured play first: both processes are past their first-use costs (lazy set-up,
    # page faults), so the figures are the steady per-event cost.
    evemu-play "$node" < "$events"
    wait_for 10 cpu_settled "$daemon" "$peer"
    local g0 l0 gt0 lt0 g1 l1 gt1 lt1 gs0 ls0 gs1 ls1
    g0=$(cpu_ns "$daemon"); l0=$(cpu_ns "$peer"); gt0=$(cpu_ticks "$daemon"); lt0=$(cpu_ticks "$peer")
    gs0=$(cpu_switches "$daemon"); ls0=$(cpu_switches "$peer")
    for play in $(seq 1 "$CPU_PLAYS"); do evemu-play "$node" < "$events"; done
    wait_for 10 cpu_settled "$daemon" "$peer"   # the tap and long-press timers have run out
    g1=$(cpu_ns "$daemon"); l1=$(cpu_ns "$peer"); gt1=$(cpu_ticks "$daemon"); lt1=$(cpu_ticks "$peer")
    gs1=$(cpu_switches "$daemon"); ls1=$(cpu_switches "$peer")
    set -- $gs0 $gs1 $ls0 $ls1
    local switches="gestured_waits=$(($3 - $1)) gestured_preempted=$(($4 - $2)) libinput_waits=$(($7 - $5)) libinput_preempted=$(($8 - $6))"
    set -- $gt0 $gt1 $lt0 $lt1
    echo "events=$((n * CPU_PLAYS)) gestured_ns=$((g1 - g0)) libinput_ns=$((l1 - l0))" \
         "gestured_user=$(($3 - $1)) gestured_sys=$(($4 - $2)) libinput_user=$(($7 - $5)) libinput_sys=$(($8 - $6))" \
         "$switches clk_tck=$(getconf CLK_TCK) first=$first" > "$out/$tag.txt"
    kill "$peer" "$creator"; wait "$peer" "$creator" 2>/dev/null
    wait_for 10 sh -c "! '$relbin/gesturectl' devices --socket '$csock' | grep -qF '\"$node\"'"
    kill "$listener"; wait "$listener" 2>/dev/null
    kill -TERM "$daemon"; wait "$daemon"
}
cpu_section() {
    local entry name desc events i
    for entry in "${CPU_CASES[@]}"; do
        IFS='|' read -r name desc events <<< "$entry"
        for i in $(seq 1 "$CPU_REPEATS"); do cpu_compare /run/gestured-cpu.sock "$name" "$desc" "$events" "$i"; done
    done
}
