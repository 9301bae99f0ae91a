#!/usr/bin/env python3
"""Judges the results inside.sh left in OUT; prints a report and 'N passed, M failed'.
With a second argument PART (run.sh's VM_PART, "pens"), only that part's checks."""
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def read_lines(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip().startswith("{")]
    except (OSError, ValueError) as e:
        print(f"  cannot read {path}: {e}")
        return []


def gestures(path):
    return [g for g in read_lines(path) if g.get("type") == "gesture"]


def text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def signature(events):
    """What must agree between replay and the kernel: kinds, states, fingers, directions;
    consecutive 'changed' lines collapsed (their count depends on scheduling)."""
    sig = []
    for g in events:
        item = (g["gesture"], g["kind"], g["state"], g.get("fingers"), g.get("direction"), g.get("taps"))
        if sig and item[2] == "changed" and sig[-1] == item:
            continue
        sig.append(item)
    return sig


fatal = text(os.path.join(out, "fatal")).strip()
check("vm: no fatal error inside the VM", not fatal, fatal)
hotplug = set(text(os.path.join(out, "hotplug-seen")).split())
removal = set(text(os.path.join(out, "removal-seen")).split())
part = sys.argv[2] if len(sys.argv) > 2 else ""
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "evaluate_pens.py")).read())
if part == "pens":
    check_pens()
    print(f"\n{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

cases = []
with open(os.path.join(root, "Tests/vm/cases.txt")) as f:
    for line in f:
        if line.strip():
            cases.append(line.strip().split("|")[0])


def expect_case(name, live):
    """Per-recording expectations: what its name says it shows."""
    def has(pred):
        return any(pred(g) for g in live)
    if name == "single-tap":
        return has(lambda g: g["kind"] == "tap" and g.get("taps") == 1 and g.get("fingers") == 1) and \
            not has(lambda g: g["kind"] == "tap" and g.get("taps") == 2)
    if name == "double-tap":
        return has(lambda g: g["kind"] == "tap" and g.get("taps") == 2) and \
            not has(lambda g: g["kind"] == "tap" and g.get("taps") == 1)
    if name == "two-finger-scroll":
        # "scroll down" on a touchscreen: the fingers push the content up, so y decreases.
        return has(lambda g: g["kind"] == "pan" and g.get("fingers") == 2 and g["state"] == "ended"
                   and g.get("translation", {}).get("y", 0) < -10)
    if name == "four-finger-drag":
        return has(lambda g: g.get("fingers") == 4 and (
            (g["kind"] == "swipe" and g.get("direction") == "down") or
            (g["kind"] == "pan" and g.get("translation", {}).get("y", 0) > 0)))
    if name == "cypress-three-finger-tap":
        return has(lambda g: g["kind"] == "tap" and g.get("fingers") == 3)
    if name == "cypress-two-finger-tap":
        return has(lambda g: g["kind"] == "tap" and g.get("fingers") == 2)
    if name == "long-press":
        presses = [g for g in live if g["kind"] == "long-press"]
        return bool(presses) and presses[0]["state"] == "began" and presses[-1]["state"] == "ended"
    if name == "alps-double-tap":
        return has(lambda g: g["kind"] == "tap" and g.get("taps") == 2) and \
            not has(lambda g: g["kind"] == "tap" and g.get("taps") == 1)
    if name.endswith("-swipe-left") or name.endswith("-swipe-right"):
        # A real three-finger touchpad swipe: one continuous swipe-3 in its direction, no pinch or rotation.
        direction = "left" if name.endswith("left") else "right"
        swipe = [g for g in live if g["kind"] == "swipe"]
        return bool(swipe) and swipe[0]["state"] == "began" and swipe[-1]["state"] == "ended" and \
            all(g.get("fingers") == 3 and g.get("direction") == direction for g in swipe) and \
            not has(lambda g: g["kind"] in ("pinch", "rotation"))
    if name == "synaptics-pointer-then-scroll":
        return has(lambda g: g["kind"] == "pan" and g.get("fingers") == 2 and g["state"] == "ended")
    if name == "synaptics-two-finger-scroll":
        return has(lambda g: g["kind"] == "pan" and g.get("fingers") == 2 and g["state"] == "ended")
    return bool(live)


latencies = []
for name in cases:
    live = gestures(os.path.join(out, f"live-{name}.jsonl"))
    replay = gestures(os.path.join(out, f"replay-{name}.jsonl"))
    check(f"{name}: hotplug seen through libudev", name in hotplug)
    check(f"{name}: gestures as the recording's name says", expect_case(name, live),
          f"live={[(g['kind'], g['state'], g.get('fingers'), g.get('taps'), g.get('direction')) for g in live]}")
    same = signature(live) == signature(replay)
    check(f"{name}: kernel path gives the same sequence as gestured replay", same,
          f"\n  live:   {signature(live)}\n  replay: {signature(replay)}")
    check(f"{name}: device removal seen", name in removal)

unplug = gestures(os.path.join(out, "live-unplug.jsonl"))
check("unplug mid-gesture: began then cancelled",
      any(g["state"] == "began" for g in unplug) and any(g["state"] == "cancelled" for g in unplug) and
      not any(g["state"] == "ended" for g in unplug),
      f"{[(g['gesture'], g['state']) for g in unplug]}")
check("unplug: removal seen", "unplug" in removal)
replug = gestures(os.path.join(out, "live-replug.jsonl"))
check("replug: the device works again (pan began and ended)",
      any(g["kind"] == "pan" and g["state"] == "began" for g in replug) and
      any(g["kind"] == "pan" and g["state"] == "ended" for g in replug),
      f"{[(g['gesture'], g['state']) for g in replug]}")
both = gestures(os.path.join(out, "live-two-devices.jsonl"))
check("two devices at once: both open, each device's gesture arrives under its own name",
      text(os.path.join(out, "two-devices-open")).strip() == "both" and
      any(g["kind"] == "tap" and g["device"] == "Wacom ISDv4 E6 Finger" for g in both) and
      any(g.get("fingers") == 4 and g["device"] == "Atmel maXTouch Touchscreen" for g in both),
      f"{[(g['gesture'], g['state'], g['device']) for g in both]}")
overflow = gestures(os.path.join(out, "live-overflow.jsonl"))
try:
    before = int(text(os.path.join(out, "overflow-lines-before")).strip() or 0)
except ValueError:
    before = 0
check("SYN_DROPPED: the daemon saw it and resynced",
      "SYN_DROPPED" in text(os.path.join(out, "daemon.log")))
after_drop = overflow[before:]
last_began = max((i for i, g in enumerate(after_drop) if g["state"] == "began"), default=-1)
check("SYN_DROPPED: the drag after the resync is a pan of its own (nothing carried across the drop)",
      last_began >= 0 and after_drop[last_began]["kind"] == "pan" and
      after_drop[-1]["kind"] == "pan" and after_drop[-1]["state"] == "ended" and
      after_drop[last_began]["gesture"] == after_drop[-1]["gesture"],
      f"{[(g['gesture'], g['state']) for g in overflow if g['state'] != 'changed']}")
check("ignored device: created through uinput, but the daemon neither opens it nor reports gestures",
      "/dev/input/event" in text(os.path.join(out, "node-ignored.txt")) and
      not gestures(os.path.join(out, "live-ignored.jsonl")) and "ignored" not in hotplug)
check("SIGHUP reload: daemon alive", text(os.path.join(out, "after-reload")).strip() == "alive")
check("after reload: a tap still arrives",
      any(g["kind"] == "tap" for g in gestures(os.path.join(out, "live-after-reload.jsonl"))))
check("graceful stop on SIGTERM (exit 0)", text(os.path.join(out, "daemon-exit")).strip() == "0",
      text(os.path.join(out, "daemon-exit")))

# ---- keys: and stepped bindings (issue 12): see actions_case in inside.sh ----------------------------
def key_codes(bitmap):
    """Codes set in a sysfs capabilities bitmap ("120 0 ..." : hex longs, most significant first)."""
    codes = set()
    words = bitmap.split()
    for i, word in enumerate(reversed(words)):
        value = int(word, 16)
        for bit in range(64):
            if value >> bit & 1:
                codes.add(i * 64 + bit)
    return codes


def evtest_frames(path):
    """[(code name, value)] of each frame evtest printed, frames split at SYN_REPORT."""
    frames, current = [], []
    for line in text(path).splitlines():
        m = re.match(r"Event: time [\d.]+, type 1 \(EV_KEY\), code \d+ \((\w+)\), value (\d+)", line)
        if m:
            current.append((m.group(1), int(m.group(2))))
        elif "SYN_REPORT" in line:
            if current:
                frames.append(current)
            current = []
    if current:
        frames.append(current)
    return frames


def check_actions():
    udev = text(os.path.join(out, "actions-udev.txt"))
    check("keys: the virtual keyboard exists and udev sees a keyboard (ID_INPUT_KEYBOARD=1)",
          "ID_INPUT_KEYBOARD=1" in udev and "ID_INPUT_KEY=1" in udev, udev)
    codes = {"KEY_LEFTCTRL": 29, "KEY_LEFTALT": 56, "KEY_RIGHT": 106, "KEY_ENTER": 28, "KEY_VOLUMEUP": 115,
             "KEY_VOLUMEDOWN": 114, "KEY_BRIGHTNESSUP": 225}
    caps = key_codes(text(os.path.join(out, "actions-caps.txt")))
    check("keys: the virtual keyboard has exactly the keys the config uses", caps == {29, 56, 106, 28, 115, 114},
          sorted(caps))
    frames = evtest_frames(os.path.join(out, "actions-evtest.txt"))
    keys = [k for frame in frames for k in frame]
    combo = [("KEY_LEFTCTRL", 1), ("KEY_LEFTALT", 1), ("KEY_RIGHT", 1), ("KEY_RIGHT", 0), ("KEY_LEFTALT", 0),
             ("KEY_LEFTCTRL", 0), ("KEY_ENTER", 1), ("KEY_ENTER", 0)]
    # The scroll's expected steps, from gestured replay of the same recording (run.sh): its final
    # translation over 8 mm, fingers moving up, so volumedown.
    ended = [g for g in gestures(os.path.join(out, "replay-two-finger-scroll.jsonl"))
             if g["gesture"] == "two-finger-pan" and g["state"] == "ended"]
    travel = ended[-1].get("translation", {}).get("y", 0) if ended else 0
    steps = int(abs(travel) // 8)
    expected = combo + [("KEY_VOLUMEDOWN", 1), ("KEY_VOLUMEDOWN", 0)] * steps
    check(f"keys: the double tap's keys, then {steps} volumedown steps, arrive on the node in order",
          steps == 3 and keys == expected, f"\n  got:      {keys}\n  expected: {expected}")
    check("keys: one key event per SYN_REPORT frame, every press released",
          bool(frames) and all(len(f) == 1 for f in frames) and
          all(sum(1 for k, v in keys if k == name and v == 1) == sum(1 for k, v in keys if k == name and v == 0)
              for name in codes), f"{frames}")
    # Each run: "$GESTURE_STEP $GESTURE_STEPS". Steps that came while the previous run was still
    # starting (seconds on this emulated CPU) are coalesced: the runs' GESTURE_STEPS add up to the steps.
    runs = [line.split() for line in text(os.path.join(out, "actions-steps.txt")).splitlines() if line.strip()]
    check(f"stepped binding: the command's runs stand for exactly {steps} steps of -1 through the live path",
          steps == 3 and 1 <= len(runs) <= steps and all(r[0] == "-1" for r in runs) and
          sum(int(r[1]) for r in runs) == steps, f"{runs}")
    reloaded = key_codes(text(os.path.join(out, "actions-caps-reloaded.txt")))
    check("keys: a reload that changes the key set re-creates the keyboard with the new keys",
          reloaded == {29, 56, 106, 28, 225, 114}, sorted(reloaded))
    check("keys: the daemon stops cleanly (exit 0)", text(os.path.join(out, "actions-daemon-exit")).strip() == "0")


check_actions()

# ---- Recording through the daemon (issue 13): inside.sh's record_through_daemon ----
def axis_lines(path):
    """The name and every axis (code, min, max, resolution; 0 when absent) of an evemu file. Fuzz and
    flat are left out: the kernel reports its own (the Wacom's ABS_X fuzz 4 reads back as 0)."""
    lines = []
    for line in text(path).splitlines():
        if line.startswith("N:"):
            lines.append(line.strip())
        elif line.startswith("A:"):
            fields = line.split() + ["0"] * 6
            lines.append(f"A: {fields[1]} {fields[2]} {fields[3]} resolution {fields[6]}")
    return sorted(lines)


def check_record_through_daemon():
    cases = [line.split("|", 1) for line in text(os.path.join(out, "record-cases")).splitlines() if "|" in line]
    check("record through the daemon: every case ran", len(cases) == 3, f"{cases}")
    for name, desc in cases:
        recorded = os.path.join(out, f"recorded-{name}.evemu")
        status = text(os.path.join(out, f"record-{name}.exit")).strip()
        check(f"record {name}: gesturectl record ended by the unplug, exit 0", status == "0" and
              "device removed" in text(os.path.join(out, f"record-{name}.err")),
              f"exit {status}: {text(os.path.join(out, f'record-{name}.err')).strip()}")
        check(f"record {name}: the file has the device's description (name, every axis with its resolution)",
              axis_lines(recorded) == axis_lines(os.path.join(root, "Tests/Fixtures/evemu-devices", desc)) and
              "\nI: " in text(recorded) and "\nB: 01 " in text(recorded) and "\nP: " in text(recorded),
              f"\n  recorded: {axis_lines(recorded)}")
        live = gestures(os.path.join(out, f"live-record-{name}.jsonl"))
        replayed = gestures(os.path.join(out, f"replay-recorded-{name}.jsonl"))
        untimed = lambda events: [{k: v for k, v in g.items() if k != "time"} for g in events]
        check(f"record {name}: gestured replay of the recorded file gives the live gesture sequence",
              bool(live) and untimed(replayed) == untimed(live),
              f"\n  live:     {signature(live)}\n  replayed: {signature(replayed)}")


check_record_through_daemon()

# ---- reported, not asserted ----
print("\n== Reported figures ==")
for g in read_lines(os.path.join(out, "latency.jsonl")):
    if "received" in g and "time" in g:
        latencies.append((g["received"] - g["time"]) * 1000)
if latencies:
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(f"event timestamp -> line at client: n={len(latencies)} p50={p(0.5):.2f} ms p99={p(0.99):.2f} ms "
          f"max={latencies[-1]:.2f} ms")
else:
    print("latency: no lines with 'received'")


def ctx(path):
    v = n = 0
    for line in text(path).splitlines():
        if line.startswith("voluntary_ctxt_switches"):
            v += int(line.split()[1])
        elif line.startswith("nonvoluntary_ctxt_switches"):
            n += int(line.split()[1])
    return v + n


def cpu(path):
    fields = text(path).rsplit(")", 1)[-1].split()
    return int(fields[11]) + int(fields[12]) if len(fields) > 12 else 0


try:
    tck = int(text(os.path.join(out, "clk_tck")).strip() or 100)
    wake = ctx(os.path.join(out, "idle-tasks-after")) - ctx(os.path.join(out, "idle-tasks-before"))
    cpu_ms = (cpu(os.path.join(out, "idle-stat-after")) - cpu(os.path.join(out, "idle-stat-before"))) * 1000 / tck
    hwm = re.search(r"VmHWM:\s+(\d+) kB", text(os.path.join(out, "idle-status-after")))
    print(f"idle 10 s with a device open: {wake} wake-ups (context switches, all threads), CPU {cpu_ms:.0f} ms")
    print(f"peak RSS: {int(hwm.group(1)) / 1024:.1f} MiB" if hwm else "peak RSS: n/a")
except Exception as e:  # a report, never a failure
    print(f"idle figures unavailable: {e}")

def libinput_class(log):
    """libinput's gesture class for a stream: swipe N / pinch / scroll / hold / tap / pointer / nothing
    (the first that applies, in that order)."""
    if "DEVICE_ADDED" not in log:
        return "no device"
    swipe = re.search(r"GESTURE_SWIPE_BEGIN\s+\S+\s+(\d+)", log)
    if swipe:
        return f"swipe {swipe.group(1)}"
    if "GESTURE_PINCH_BEGIN" in log:
        return "pinch"
    scrolls = len(re.findall(r"POINTER_SCROLL_FINGER|POINTER_AXIS", log))
    # A tap (tap-to-click's button) with at most a few scroll events while the fingers settled is a
    # tap; a scroll is a run of them.
    if re.search(r"POINTER_BUTTON.*pressed", log) and scrolls < 10:
        return "tap"
    if scrolls:
        return "scroll"
    if "GESTURE_HOLD_BEGIN" in log:
        return "hold"
    if "POINTER_MOTION" in log:
        return "pointer"
    return "nothing"


def gestured_class(live):
    """gestured's class in libinput's words: a swipe of N, a pinch or rotation, a pan of two or more
    fingers (scroll), a tap, a long press (hold), a one-finger pan (the pointer's motion)."""
    kinds = [(g["kind"], g.get("fingers", 1)) for g in live]
    for kind, fingers in kinds:
        if kind == "swipe":
            return f"swipe {fingers}"
    if any(k in ("pinch", "rotation") for k, _ in kinds):
        return "pinch"
    if any(k == "pan" and f >= 2 for k, f in kinds):
        return "scroll"
    if any(k == "tap" for k, _ in kinds):
        return "tap"
    if any(k == "long-press" for k, _ in kinds):
        return "hold"
    if any(k in ("pan", "edge-pan") for k, _ in kinds):
        return "pointer"
    return "nothing"


# Cases where libinput's class and gestured's differ by design; docs/recordings.md ("libinput's
# view") says why. Anything else that differs fails the check below.
KNOWN_DIFFERENCES = {
    "alps-double-tap": "the ALPS pad's first report jumps 3.5 mm: libinput moves the pointer and taps "
                       "nothing; gestured ignores a touchpad's landing jump and sees the double tap "
                       "(docs/recordings.md, \"libinput's view\")",
}
classes = []
print("\n== Touchpads: libinput debug-events (same VM, same stream) vs gestured ==")
for name in cases:
    path = os.path.join(out, f"libinput-{name}.txt")
    if not os.path.exists(path):
        continue
    peer = []
    for line in text(path).splitlines():
        m = re.search(r"(GESTURE_\w+|POINTER_BUTTON|POINTER_SCROLL_\w+)\s+\S+\s*(.*)", line)
        if not m:
            continue
        detail = m.group(2)
        if m.group(1) == "POINTER_BUTTON":
            b = re.search(r"(BTN_\w+).*?(pressed|released)", detail)
            item = f"{b.group(1)} {b.group(2)}" if b else "button"
        elif m.group(1).startswith("GESTURE_"):
            item = f"{m.group(1)} {detail.split()[0] if detail.split() else ''}".strip()
        else:
            item = m.group(1)
        if peer and peer[-1][0] == item:
            peer[-1][1] += 1
        else:
            peer.append([item, 1])
    ours = []
    for g in gestures(os.path.join(out, f"live-{name}.jsonl")):
        item = f'{g["kind"]} {g["state"]} {g.get("fingers")}f' + (f' taps={g["taps"]}' if g.get("taps") else "")
        if ours and ours[-1][0] == item:
            ours[-1][1] += 1
        else:
            ours.append([item, 1])
    show = lambda items: ", ".join(f"{i}×{n}" if n > 1 else i for i, n in items) or "nothing"
    theirs, mine = libinput_class(text(path)), gestured_class(gestures(os.path.join(out, f"live-{name}.jsonl")))
    verdict = "agree" if theirs == mine else \
        f"DIFFER ({KNOWN_DIFFERENCES.get(name, 'not explained: add it to docs/recordings.md')})"
    print(f"{name}: libinput {theirs} | gestured {mine} -> {verdict}")
    print(f"  libinput: {show(peer)}\n  gestured: {show(ours)}")
    classes.append((name, theirs, mine))
check("touchpads: every case has libinput's verdict beside gestured's", all(t != "no device" for _, t, _ in classes),
      f"{classes}")
check("touchpads: where libinput and gestured differ, docs/recordings.md says why",
      all(t == m or n in KNOWN_DIFFERENCES for n, t, m in classes), f"{classes}")

# ---- Begin times and verdicts beside libinput's (inside.sh: begin_section, Tests/vm/begin.sh) ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import begin_times  # noqa: E402

print("\n== Begin times and verdicts: gestured and libinput debug-events on the same stream (Tests/vm/begin.sh) ==")
begin_dir = os.path.join(out, "begin")
try:
    begin_rows = begin_times.vm_table(begin_dir)
except OSError as e:
    begin_rows = []
    print(f"  no begin section output: {e}")
begin_times.print_vm_table(begin_rows)
problems = text(os.path.join(begin_dir, "problems")).strip()
check("begin: every recording played through a uinput device, read by gestured and libinput",
      bool(begin_rows) and all(r[3] is not None for r in begin_rows) and not problems,
      problems + " " + str([r[0] for r in begin_rows if r[3] is None]))
ported = [r for r in begin_rows if r[2] is not None]
check(f"begin: gestured gives each ported case's verdict live, through the kernel ({len(ported)} cases)",
      len(ported) >= 40 and all(begin_times.same_verdict(r[4], r[2]) for r in ported),
      str([(r[0], r[2], r[4]) for r in ported if not begin_times.same_verdict(r[4], r[2])]))
# The port is faithful: libinput, through the same kernel path, asserts what its test asserts.
check(f"begin: libinput gives each ported case's verdict ({len(ported)} cases)",
      len(ported) >= 40 and all(r[3] == r[2] for r in ported),
      str([(r[0], r[2], r[3]) for r in ported if r[3] != r[2]]))

# ---- CPU per event: gestured vs libinput debug-events (inside.sh: cpu_section) ----
CPU_CASES = ["touchscreen-scroll", "touchpad-scroll", "touchpad-one-finger"]  # Tests/vm/cpu.sh
CPU_REPEATS = 4  # odd repeats gestured opens the device first, even ones libinput (cpu.sh)


def cpu_figures(name, repeat):
    """The numbers one repeat left in cpu-NAME-REPEAT.txt (and `first`, the process that opened the
    device first), or None."""
    fields = dict(kv.split("=", 1) for kv in text(os.path.join(out, f"cpu-{name}-{repeat}.txt")).split() if "=" in kv)
    first = fields.pop("first", "?")
    try:
        return {k: int(v) for k, v in fields.items()} | {"first": first}
    except ValueError:
        return None


def check_cpu_per_event():
    """Prints gestured's and libinput's CPU per 1,000 events on the same stream and their ratio
    (measured, not asserted); checks that both processes read the stream in every repeat."""
    print("\n== CPU per 1,000 events, same uinput stream, same time: gestured (release) vs libinput debug-events ==")
    for name in CPU_CASES:
        ratios = []
        by_first = {}
        complete = True
        for repeat in range(1, CPU_REPEATS + 1):
            f = cpu_figures(name, repeat)
            lines = gestures(os.path.join(out, f"cpu-{name}-{repeat}-listen.jsonl"))
            peer = text(os.path.join(out, f"cpu-{name}-{repeat}-libinput.txt"))
            peer_events = sum(1 for line in peer.splitlines() if re.search(r"\b(TOUCH|POINTER|GESTURE)_\w+", line))
            if not f or not f.get("events") or not lines or not peer_events or not f.get("libinput_ns"):
                complete = False
                print(f"  {name} #{repeat}: incomplete ({f}, {len(lines)} gesture lines, {peer_events} libinput events)")
                continue
            per = lambda ns: ns / 1e6 / f["events"] * 1000
            ratio = f["gestured_ns"] / f["libinput_ns"]
            ratios.append(ratio)
            by_first.setdefault(f["first"], []).append(ratio)
            tick = 1000 / f.get("clk_tck", 100)
            print(f"  {name} #{repeat}: {f['events']} events: gestured {per(f['gestured_ns']):.1f} ms "
                  f"(user {f.get('gestured_user', 0) * tick:.0f} ms, system {f.get('gestured_sys', 0) * tick:.0f} ms), "
                  f"libinput {per(f['libinput_ns']):.1f} ms (user {f.get('libinput_user', 0) * tick:.0f} ms, "
                  f"system {f.get('libinput_sys', 0) * tick:.0f} ms) per 1,000 events; ratio {ratio:.2f} "
                  f"({f['first']} opened the device first; preempted: gestured {f.get('gestured_preempted', '?')}, "
                  f"libinput {f.get('libinput_preempted', '?')} times; {len(lines)} gesture lines, {peer_events} libinput events)")
        if ratios:
            orders = "; ".join(f"{first} first {', '.join(f'{r:.2f}' for r in values)}"
                               for first, values in sorted(by_first.items()))
            print(f"  {name}: ratio gestured / libinput {min(ratios):.2f}–{max(ratios):.2f} "
                  f"(median {statistics.median(ratios):.2f}; {orders})")
        check(f"CPU comparison {name}: gestured and libinput both read the stream in all {CPU_REPEATS} repeats",
              complete and len(ratios) == CPU_REPEATS)


check_cpu_per_event()
check_pens()
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "evaluate_forwarding.py")).read())
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "evaluate_tune.py")).read())

print(f"\n{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
