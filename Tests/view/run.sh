#!/usr/bin/env bash
# `gesturectl view` in a real browser (docs/view.md): Debian's chromium and chromium-driver, driven
# by selenium from PyPI (installed here into a venv of the run's own). A daemon plays a real
# touchscreen recording (a two-finger scroll) over a real window of a headless sway, whose bridge
# (`gesturectl desktop`) sends the daemon its windows; the page must show the window where sway put
# it, the fingers over it coloured by the window they hit, a gesture's states and a failed
# gesture's reason; a URL without the token must be refused; the settings section refuses a bad
# binding (file untouched) and saves a good one (comments kept, daemon reloaded); a replay over a
# laptop's desktop must show the output the daemon chose (check_outputs.py). Saves screenshots
# (view*.png) in the output directory it prints. Ends with "N passed, M failed"; exits non-zero on
# any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

missing=()
for tool in chromium:chromium chromedriver:chromium-driver sway:sway foot:foot swaymsg:sway jq:jq; do
    command -v "${tool%%:*}" > /dev/null || missing+=("${tool##*:}")
done
[ ${#missing[@]} -gt 0 ] && echo "view-test: installing ${missing[*]} (Debian packages)"
scripts/install-deps chromium chromium-driver sway foot jq python3-venv || {
    echo "view-test: could not install chromium chromium-driver sway foot jq python3-venv"; echo "0 passed, 1 failed"; exit 1; }

out=$(mktemp -d /tmp/gestured-view.XXXXXX)
chmod 755 "$out"
echo "view-test: output in $out"
python3 -m venv "$out/venv" > "$out/venv.log" 2>&1 && "$out/venv/bin/pip" install -q selenium >> "$out/venv.log" 2>&1 || {
    tail -5 "$out/venv.log"; echo "view-test: could not install selenium from PyPI"; echo "0 passed, 1 failed"; exit 1; }

{ swift build --product gestured && swift build --product gesturectl && swift build --product gesturectl-view; } \
    > "$out/build.log" 2>&1 || { grep -v '^\[' "$out/build.log" | tail -30; echo "0 passed, 1 failed"; exit 1; }
bin=$(swift build --show-bin-path)

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    sleep 0.5
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

# --- headless sway with one floating window (as Tests/desktop/run.sh starts it) ------------------
rt="$out/sway-run"
mkdir -p "$rt"; chown 65534:65534 "$rt"; chmod 700 "$rt"
printf 'exec env > $XDG_RUNTIME_DIR/sway.env\ndefault_border normal 2\n' > "$out/sway.conf"
chmod 644 "$out/sway.conf"
env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$rt" WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 \
    WLR_RENDERER=pixman WLR_HEADLESS_OUTPUTS=1 \
    setpriv --reuid=65534 --regid=65534 --clear-groups sway -c "$out/sway.conf" > "$out/sway.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$rt/sway.env" ] && break; sleep 0.05; done
SWAYSOCK=$(sed -n 's/^SWAYSOCK=//p' "$rt/sway.env" 2>/dev/null)
[ -n "$SWAYSOCK" ] || { tail -5 "$out/sway.log"; echo "view-test: headless sway did not start"; echo "0 passed, 1 failed"; exit 1; }
export SWAYSOCK
swaymsg -s "$SWAYSOCK" 'exec foot -a view-app sleep 600' > /dev/null
for _ in $(seq 100); do swaymsg -s "$SWAYSOCK" -t get_tree | grep -q '"app_id": "view-app"' && break; sleep 0.05; done
# The recording scrolls with two fingers near the top middle: (622, 133) of the 1280 × 720 output.
# Again until sway shows it there (a command sent while the window maps may be half applied).
for _ in $(seq 50); do
    swaymsg -s "$SWAYSOCK" '[app_id=view-app] floating enable, resize set 600 400, move position 300 40' > /dev/null
    swaymsg -s "$SWAYSOCK" -t get_tree | jq -e '.. | objects | select(.app_id? == "view-app") | .rect.width == 600' > /dev/null && break
    sleep 0.1
done

# --- the daemon: a window rule for that window; the recording starts at the second subscriber ------
cat > "$out/view.yaml" <<'YAML'
# The view test's config (check_settings.py edits it in the page: these comments must stay).
version: 1
gestures:
  - id: tap   # the screen's tap
    kind: tap
# the test window's own gestures
windows:
  - id: viewer
    match: { app: view-app }
    gestures:
      - id: viewer-pan
        kind: pan
        min-fingers: 2
        max-fingers: 2
      - id: viewer-tap
        kind: tap
bindings:
  - gesture: viewer-pan
    states: ended
    command: "exit 4"
YAML
socket="$out/gestured.sock"
recording="Tests/Fixtures/evemu-devices/tablets/Wacom ISDv4 E6 Finger.double-center-scroll.events"
"$bin/gestured" run --no-devices --inject "$recording" --inject-after 2 --config "$out/view.yaml" \
    --socket "$socket" > "$out/daemon.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
"$bin/gesturectl" desktop --socket "$socket" > "$out/bridge.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
    "$bin/gesturectl" status --socket "$socket" --format json 2>/dev/null | jq -e '.desktop.windows == 1' > /dev/null && break
    sleep 0.05
done

# --- the view: URL from its first line --------------------------------------------------------------
"$bin/gesturectl" view --socket "$socket" --no-open > "$out/view.out" 2> "$out/view.err" &
pids+=($!)
for _ in $(seq 100); do [ -s "$out/view.out" ] && break; sleep 0.05; done
url=$(head -n 1 "$out/view.out")
echo "view-test: $url"

"$out/venv/bin/python" "$root/Tests/view/check_page.py" --url "$url" --out "$out" \
    --trigger "$bin/gesturectl listen --socket $socket --format json" --socket "$socket" | tee "$out/live.txt"

# --- the settings section: a refused save, then a binding added, in the same page's server -------
cp "$out/view.yaml" "$out/view-replay.yaml"   # the replay below reads the config as it was
"$out/venv/bin/python" "$root/Tests/view/check_settings.py" --url "$url" --out "$out" \
    --config "$out/view.yaml" --socket "$socket" | tee "$out/settings.txt"

# --- the same recording replayed in the page, over the same desktop --------------------------------
# replay_check NAME DESKTOP: a replay view of the recording over DESKTOP, checked by check_NAME.py.
replay_check() {
    "$bin/gesturectl" view --no-open --replay "$recording" --desktop "$2" --config "$out/view-replay.yaml" \
        > "$out/$1.out" 2> "$out/$1.err" &
    pids+=($!)
    for _ in $(seq 200); do [ -s "$out/$1.out" ] && break; sleep 0.05; done
    local page_url
    page_url=$(head -n 1 "$out/$1.out")
    echo "view-test: $1 at $page_url $(cat "$out/$1.err")"
    "$out/venv/bin/python" "$root/Tests/view/check_$1.py" --url "$page_url" --out "$out" | tee "$out/$1.txt"
}
env -i PATH=/usr/bin:/bin SWAYSOCK="$SWAYSOCK" "$bin/gesturectl" desktop --print --once > "$out/desktop.jsonl" 2>> "$out/bridge.log"
replay_check replay "$out/desktop.jsonl"

# --- the daemon's output choice: a laptop whose built-in panel is neither first nor focused ---------
cat > "$out/laptop.jsonl" <<'JSON'
{"request":"desktop","version":1,"backend":"sway","snapshot":1,"part":0,"parts":1,"outputs":[{"name":"HDMI-A-1","x":0,"y":0,"width":1920,"height":1080,"scale":1,"transform":"normal","focused":true},{"name":"eDP-1","x":1920,"y":0,"width":1280,"height":800,"scale":1,"transform":"normal","focused":false}],"windows":[{"id":"10","app":"foot","title":"~","output":"HDMI-A-1","x":0,"y":0,"width":1920,"height":1080,"stack":1,"focused":true},{"id":"11","app":"editor","title":"notes","output":"eDP-1","x":0,"y":100,"width":1280,"height":700,"stack":1}]}
JSON
replay_check outputs "$out/laptop.jsonl"

echo "view-test: screenshots $out/view.png $out/view-settings.png $out/view-replay.png $out/view-outputs.png"
cat "$out/live.txt" "$out/settings.txt" "$out/replay.txt" "$out/outputs.txt" | awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { print p " passed, " f " failed"; exit f > 0 }'
