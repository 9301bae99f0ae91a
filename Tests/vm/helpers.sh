# Sourced by the scripts that run inside the VM (Tests/vm/inside.sh, scripts/profiling/vm-begin-inside):
# waiting, and asking the daemon on $sock with the gesturectl in $bin.
now_ms() { date +%s%3N; }
wait_for() {  # wait_for SECONDS COMMAND... : retries every 0.1 s until the command succeeds
    local limit=$(( $(now_ms) + $1 * 1000 )); shift
    until "$@" >/dev/null 2>&1; do [ "$(now_ms)" -gt "$limit" ] && return 1; sleep 0.1; done
}
device_open() { "$bin/gesturectl" devices --socket "$sock" | grep -qF "$1"; }
device_gone() { ! "$bin/gesturectl" devices --socket "$sock" | grep -qF "$1"; }
# Clients connected, counting the asking gesturectl itself.
client_count() { "$bin/gesturectl" status --socket "$sock" | grep -o '"clients":[0-9]*' | grep -o '[0-9]*$'; }
header_name() { grep -m1 -E '^N:|^# Input device name' "$1" | sed -E 's/^N: //; s/^# Input device name: "(.*)"/\1/'; }
