#!/usr/bin/env python3
"""Prints when gestured's first continuous gesture begins on each recording (issue 50, "when, not
only what"): the ported libinput cases (Tests/Fixtures/litest-port) and the real touchpad swipes,
scrolls and pinches (Tests/Fixtures/chromiumos-autotest, chromiumos-touchmtb, and the evemu-devices
touchpad scrolls). Times are ms from the recording's first event, and from the first frame in which
a contact moved (the first motion); gestured's is its first `began` line of a pan, edge pan, swipe,
pinch or rotation, with the gesture's id and fingers.

With --list, prints NAME|DESCRIPTION|EVENTS|DEVICE for each recording, grouped by the device it plays on (the VM's begin section plays them: Tests/vm/begin.sh).
With --vm DIR (that section's output), both begin times come from the VM, on the same stream at the
same time: gestured's from its live lines (its `began` less its first touch, both CLOCK_MONOTONIC
kernel stamps), libinput's from debug-events (whose times count from the first frame it read).

Usage: Tests/vm/begin_times.py [--gestured PATH] [--list [--ported-only]] [--vm DIR]"""
import argparse
import json
import os
import re
import statistics
import subprocess

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fixtures = os.path.join(root, "Tests/Fixtures")
CONTINUOUS = {"pan", "edge-pan", "swipe", "pinch", "rotation"}


def recordings():
    for name in sorted(os.listdir(os.path.join(fixtures, "litest-port"))):
        if name.endswith(".evemu"):
            yield "litest-port", os.path.join(fixtures, "litest-port", name)
    for folder in ("chromiumos-autotest", "chromiumos-touchmtb"):
        for name in sorted(os.listdir(os.path.join(fixtures, folder))):
            if name.endswith(".evemu"):
                yield folder, os.path.join(fixtures, folder, name)
    pads = os.path.join(fixtures, "evemu-devices/touchpads")
    for name in sorted(os.listdir(pads)):
        if name.endswith(".events") and "scroll" in name:
            yield "evemu-devices", os.path.join(pads, name)


def stream_times(path):
    """(first event, first frame with a position change of a contact already down), seconds."""
    first = None
    seen_slot, positions, slot = set(), {}, 0
    pending_motion = False
    with open(path) as f:
        for line in f:
            m = re.match(r"E: (\d+\.\d+) (\w+) (\w+) (-?\d+)", line)
            if not m:
                continue
            t, typ, code, value = float(m.group(1)), int(m.group(2), 16), int(m.group(3), 16), int(m.group(4))
            if first is None:
                first = t
            if typ == 3 and code == 0x2F:
                slot = value
            elif typ == 3 and code == 0x39:
                if value >= 0:
                    seen_slot.add(slot)
                    positions.pop(slot, None)
                else:
                    seen_slot.discard(slot)
            elif typ == 3 and code in (0x35, 0x36) and slot in seen_slot:
                key = (slot, code)
                if key in positions and positions[key] != value:
                    pending_motion = True
                positions[key] = value
            elif typ == 0 and code == 0 and pending_motion:
                return first, t
    return first, None


def gestured_begin(gestured, path):
    r = subprocess.run([gestured, "replay", path], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        try:
            g = json.loads(line)
        except ValueError:
            continue
        if g.get("type") == "gesture" and g.get("state") == "began" and g.get("kind") in CONTINUOUS:
            return g["time"], f"{g['gesture']} {g['fingers']}f"
    return None, "—"


def description(path):
    """The file evemu-device makes the device from: the recording itself when it carries the
    device's description, else the `.desc` beside it (the longest `<Device>.desc` prefix, as
    `gestured replay` finds it)."""
    with open(path) as f:
        if any(line.startswith("N: ") for line in f):
            return path
    directory, name = os.path.split(path)
    parts = name.rsplit(".", 1)[0].split(".")
    while parts:
        candidate = os.path.join(directory, ".".join(parts) + ".desc")
        if candidate != path and os.path.exists(candidate):
            return candidate
        parts.pop()
    raise SystemExit(f"{path}: no device description in it and no .desc beside it")


def device_header(path):
    """A description's device lines (name, ids, properties, bits, axes): equal for the same device."""
    with open(path) as f:
        return tuple(line.rstrip("\n") for line in f if line[:2] in ("N:", "I:", "P:", "B:", "A:", "L:", "S:"))


def device_key(desc, path):
    """Recordings with the same key play on one device in the VM. The ported cases start by
    selecting their slot and end with every contact lifted (litest-port.py writes them so): they
    share their pad's device. A real recording assumes a fresh device (its first contact in slot 0,
    nothing down, every key up), so each gets its own."""
    return device_header(desc) if os.path.basename(os.path.dirname(path)) == "litest-port" else path


def case_name(folder, path):
    """A recording's name in the VM's files: folder and file, spaces and slashes made safe."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", f"{folder}__{os.path.basename(path)}")


def expectation(path):
    """The `# expect:` words of a ported recording (Tests/Fixtures/litest-port), or None."""
    with open(path) as f:
        for line in f:
            if line.startswith("# expect: "):
                return line[len("# expect: "):].split()
            if not line.startswith("#"):
                return None
    return None


def in_window(lines, start, end):
    """The lines stamped within one recording's window."""
    return [g for g in lines if start <= g.get("time", -1) <= end]


def first_touch(lines):
    touches = [g["time"] for g in lines if g.get("type") == "touch" and g.get("phase") == "began"]
    return min(touches) if touches else None


def libinput_events(text):
    """(kind, seconds, fields) of each libinput event line that tells a verdict."""
    events = []
    for line in text.splitlines():
        m = re.search(r"(GESTURE_\w+|POINTER_\w+)\s+\+?(-?\d+\.\d+)s\s*(.*)", line)
        if m:
            events.append((m.group(1), float(m.group(2)), m.group(3)))
    return events


def libinput_begin_from(events, began):
    """libinput's begin of the same kind as gestured's first continuous `began` line: a one-finger
    pan (the pointer on a touchpad) its first pointer motion, a swipe its first swipe, a pinch or a
    rotation its first pinch, anything else its first swipe or pinch begin or finger scroll. Of the
    same kind: a Chromebook's three-finger swipe whose third finger rests on the buttons is first a
    two-finger scroll for libinput, then a swipe, and the swipe is what gestured's compares with."""
    kind = began["kind"] if began is not None else None
    if kind in ("pan", "edge-pan") and began.get("fingers", 1) == 1:
        kinds = ("POINTER_MOTION",)
    elif kind == "swipe":
        kinds = ("GESTURE_SWIPE_BEGIN",)
    elif kind in ("pinch", "rotation"):
        kinds = ("GESTURE_PINCH_BEGIN",)
    else:
        kinds = ("GESTURE_SWIPE_BEGIN", "GESTURE_PINCH_BEGIN", "POINTER_SCROLL_FINGER")
    return next((t for k, t, _ in events if k in kinds), None)


def direction(dx, dy):
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def libinput_verdict(events):
    """libinput's verdict in the `# expect:` words: swipe N DIR, pinch N in|out, scroll, tap N,
    double-tap, drag, pointer, nothing; `tap-then N` and the verdict of what follows when a tap's
    button is pressed and released before a gesture or a scroll begins."""
    kinds = [k for k, _, _ in events]
    buttons = {"BTN_LEFT": "1", "BTN_RIGHT": "2", "BTN_MIDDLE": "3"}
    gesture = next((i for i, k in enumerate(kinds)
                    if k in ("GESTURE_SWIPE_BEGIN", "GESTURE_PINCH_BEGIN", "POINTER_SCROLL_FINGER", "POINTER_AXIS")), None)
    if gesture is not None and kinds[:2] == ["POINTER_BUTTON", "POINTER_BUTTON"] and gesture == 2:
        first = next((n for b, n in buttons.items() if b in events[0][2]), "?")
        return ["tap-then", first] + libinput_verdict(events[2:])
    swipes = [f for k, _, f in events if k == "GESTURE_SWIPE_UPDATE"]
    if "GESTURE_SWIPE_BEGIN" in kinds:
        fingers = next(f.split()[0] for k, _, f in events if k == "GESTURE_SWIPE_BEGIN")
        dx = dy = 0.0
        for f in swipes:
            m = re.match(r"\s*\d+\s+(-?[\d.]+)/\s*(-?[\d.]+)", f)
            if m:
                dx, dy = dx + float(m.group(1)), dy + float(m.group(2))
        return ["swipe", fingers, direction(dx, dy)]
    if "GESTURE_PINCH_BEGIN" in kinds:
        fingers = next(f.split()[0] for k, _, f in events if k == "GESTURE_PINCH_BEGIN")
        scales = [float(m.group(1)) for k, _, f in events if k == "GESTURE_PINCH_UPDATE"
                  for m in [re.search(r"unaccelerated\)\s+(-?[\d.]+)\s+@", f)] if m]
        return ["pinch", fingers, "in" if scales and scales[-1] < 1 else "out"]
    if any(k in ("POINTER_SCROLL_FINGER", "POINTER_AXIS") for k in kinds):
        return ["scroll"]
    presses = [f for k, _, f in events if k == "POINTER_BUTTON" and "pressed" in f]
    if presses:
        buttons = {"BTN_LEFT": "1", "BTN_RIGHT": "2", "BTN_MIDDLE": "3"}
        first = next((n for b, n in buttons.items() if b in presses[0]), "?")
        if len(presses) >= 2:
            return ["double-tap"]
        pressed = next(i for i, (k, _, f) in enumerate(events) if k == "POINTER_BUTTON" and "pressed" in f)
        released = next((i for i, (k, _, f) in enumerate(events) if k == "POINTER_BUTTON" and "released" in f), len(events))
        if any(k == "POINTER_MOTION" for k, _, _ in events[pressed:released]):
            return ["drag"]
        return ["tap", first]
    if "POINTER_MOTION" in kinds:
        return ["pointer"]
    return ["nothing"]


def gestured_verdict(gestures):
    """gestured's verdict in the same words, as LibinputPortTests reads it."""
    done = [g for g in gestures if g.get("state") in ("recognized", "ended")]
    if len(gestures) > 1 and gestures[0]["kind"] == "tap" and gestures[0].get("state") == "recognized":
        rest = gestures[1:]
        if any(g["kind"] in ("swipe", "pinch") or (g["kind"] == "pan" and g.get("fingers", 1) >= 2) for g in rest):
            return ["tap-then", str(gestures[0].get("fingers"))] + gestured_verdict(rest)
    for g in done:
        if g["kind"] == "swipe":
            return ["swipe", str(g.get("fingers")), g.get("direction", "?")]
    pinches = [g for g in gestures if g["kind"] == "pinch"]
    if pinches:
        return ["pinch", str(pinches[0].get("fingers")), "in" if pinches[-1].get("scale", 1) < 1 else "out"]
    if any(g["kind"] == "pan" and g.get("fingers", 1) >= 2 for g in gestures):
        return ["scroll"]
    taps = [g for g in done if g["kind"] == "tap"]
    pans = [g for g in gestures if g["kind"] in ("pan", "edge-pan")]
    if pans and not taps and len({g.get("fingers") for g in pans}) == 1:
        return ["pointer"]
    if taps and any(g.get("taps") == 2 for g in taps):
        return ["double-tap"]
    if taps:
        return ["tap", str(taps[0].get("fingers"))]
    return ["nothing"] if not gestures else [gestures[0]["kind"]]


def same_verdict(verdict, expect):
    """A drag is a one-finger pan from the second touch in gestured's words: `pointer` meets `drag`
    when the recording expects a drag (LibinputPortTests checks the second touch exactly)."""
    if verdict == expect:
        return True
    return expect == ["drag"] and verdict == ["pointer"]


def vm_table(directory):
    """Rows (name, path, expect, libinput verdict, gestured verdict, gestured ms, libinput ms) from
    the VM's begin section, for the recordings it was given (list.txt). libinput's times count from its device's first frame, which is the
    first touch gestured saw in the group's first window: that puts them on the kernel's clock,
    where each recording's window picks its own."""
    windows = {}
    firsts = {}
    for line in open(os.path.join(directory, "windows.txt")):
        parts = line.split()
        if len(parts) in (4, 5):
            windows[parts[0]] = (parts[1], float(parts[2]), float(parts[3]))
        if len(parts) == 5:
            firsts[(parts[1], float(parts[2]))] = float(parts[4])
    lines = []
    for line in open(os.path.join(directory, "gestured.jsonl")):
        try:
            lines.append(json.loads(line))
        except ValueError:
            pass
    libinput = {}
    for group in sorted({g for g, _, _ in windows.values()}):
        first_window = min((w for w in windows.values() if w[0] == group), key=lambda w: w[1])
        # The group's first frame, as play.py wrote it; else (an older run) gestured's first touch,
        # which is that frame unless its contact was too light to count yet.
        origin = firsts.get((group, first_window[1])) or first_touch(in_window(lines, first_window[1], first_window[2]))
        try:
            events = libinput_events(open(os.path.join(directory, f"group-{group}.libinput.txt")).read())
        except OSError:
            events = []
        libinput[group] = [(k, origin + t, f) for k, t, f in events] if origin is not None else []
    rows = []
    played = [line.rstrip("\n").split("|") for line in open(os.path.join(directory, "list.txt")) if "|" in line]
    order = {path: i for i, (_, path) in enumerate(recordings())}
    for name, _, path, _ in sorted(played, key=lambda item: order.get(item[2], len(order))):
        if name not in windows:
            rows.append((name, path, None, None, None, None, None))
            continue
        group, start, end = windows[name]
        mine = in_window(lines, start, end)
        first = first_touch(mine)
        gestures = [g for g in mine if g.get("type") == "gesture"]
        began = next((g for g in gestures if g.get("state") == "began" and g.get("kind") in CONTINUOUS), None)
        ours = (began["time"] - first) * 1000 if began is not None and first is not None else None
        events = [e for e in libinput[group] if start <= e[1] <= end]
        theirs = libinput_begin_from(events, began)
        rows.append((name, path, expectation(path), libinput_verdict(events), gestured_verdict(gestures),
                     ours, (theirs - first) * 1000 if theirs is not None and first is not None else None))
    return rows


def print_vm_table(rows):
    diffs = []
    print("| recording | expect | libinput | gestured | gestured began (ms from first touch) | libinput's first gesture or scroll (ms) | difference (ms) |")
    print("|---|---|---|---|---|---|---|")
    for name, path, expect, li, ours_v, ours, theirs in rows:
        # Times compare only where both read the stream as the same gesture: a pointer moved by a
        # resting finger's wobble is not a pan that begins with the finger that moves.
        agree = li is not None and ours_v is not None and (same_verdict(ours_v, li) or same_verdict(li, ours_v))
        d = ours - theirs if ours is not None and theirs is not None and agree else None
        if d is not None:
            diffs.append((abs(d), name))
        fmt = lambda v: "—" if v is None else f"{v:.0f}"
        words = lambda v: "—" if v is None else " ".join(v)
        print(f"| {name} | {words(expect)} | {words(li)} | {words(ours_v)} | {fmt(ours)} | {fmt(theirs)} | {'—' if d is None else f'{d:+.0f}'} |")
    if diffs:
        values = [v for v, _ in diffs]
        print(f"\nmedian |difference| {statistics.median(values):.0f} ms, worst {max(values):.0f} ms "
              f"({max(diffs)[1]}) over {len(diffs)} streams where both read the same gesture; "
              f"within 20 ms: {sum(v <= 20 for v in values)}")
    return diffs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gestured", default=os.path.join(root, ".build/debug/gestured"))
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--ported-only", action="store_true",
                        help="with --list: only the ported libinput cases (what the VM test checks)")
    parser.add_argument("--vm")
    args = parser.parse_args()
    if args.list:
        # Grouped by description: the VM plays each group's recordings on one device.
        # Recordings that carry the same description share the first one's file.
        listed = [(case_name(folder, path), description(path), path) for folder, path in recordings()
                  if folder == "litest-port" or not args.ported_only]
        # A recording shares its pad's device only when it selects its slot before its first
        # contact: one that assumes a fresh device's slot 0 would write into whatever slot the
        # recording before it left selected.
        first_file, device = {}, {}
        for _, desc, path in listed:
            key = device_key(desc, path)
            first_file.setdefault(key, desc)
            device.setdefault(key, len(device) + 1)
        rows = [(name, first_file[device_key(desc, path)], path, device[device_key(desc, path)])
                for name, desc, path in listed]
        for name, desc, path, number in sorted(rows, key=lambda item: item[3]):
            print(f"{name}|{desc}|{path}|{number}")
        return
    if args.vm:
        print_vm_table(vm_table(args.vm))
        return
    print("| recording | gestured began | ms from first event | ms from first motion |")
    print("|---|---|---|---|")
    for folder, path in recordings():
        first, motion = stream_times(path)
        began, what = gestured_begin(args.gestured, path)
        since_first = f"{(began - first) * 1000:.0f}" if began is not None else "—"
        since_motion = f"{(began - motion) * 1000:.0f}" if began is not None and motion is not None else "—"
        print(f"| {folder}/{os.path.basename(path)} | {what} | {since_first} | {since_motion} |")

if __name__ == "__main__":
    main()
