#!/usr/bin/env python3
"""Prints when gestured's first continuous gesture begins on each recording (issue 50, "when, not
only what"): the ported libinput cases (Tests/Fixtures/litest-port) and the real touchpad swipes,
scrolls and pinches (Tests/Fixtures/chromiumos-autotest, chromiumos-touchmtb, and the evemu-devices
touchpad scrolls). Times are ms from the recording's first event, and from the first frame in which
a contact moved (the first motion); gestured's is its first `began` line of a pan, edge pan, swipe,
pinch or rotation, with the gesture's id and fingers.

With --libinput DIR, DIR holds `libinput debug-events` output for the same streams, one file per
recording named after it plus `.libinput.txt` (as the VM test writes them): libinput's first
GESTURE_*_BEGIN or finger scroll event is printed beside gestured's, with the difference, and the
median and worst difference at the end.

Usage: Tests/vm/begin_times.py [--gestured PATH] [--libinput DIR]"""
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


def libinput_begin(directory, path):
    """The first gesture begin or finger scroll in `libinput debug-events` output, seconds."""
    try:
        text = open(os.path.join(directory, os.path.basename(path) + ".libinput.txt")).read()
    except OSError:
        return None
    for line in text.splitlines():
        if re.search(r"GESTURE_(SWIPE|PINCH)_BEGIN|POINTER_SCROLL_FINGER|POINTER_AXIS", line):
            m = re.search(r"\+(\d+\.\d+)s", line)
            if m:
                return float(m.group(1))
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gestured", default=os.path.join(root, ".build/debug/gestured"))
    parser.add_argument("--libinput")
    args = parser.parse_args()
    diffs = []
    print("| recording | gestured began | ms from first event | ms from first motion |"
          + (" libinput | difference (ms) |" if args.libinput else ""))
    print("|---|---|---|---|" + ("---|---|" if args.libinput else ""))
    for folder, path in recordings():
        first, motion = stream_times(path)
        began, what = gestured_begin(args.gestured, path)
        since_first = f"{(began - first) * 1000:.0f}" if began is not None else "—"
        since_motion = f"{(began - motion) * 1000:.0f}" if began is not None and motion is not None else "—"
        row = f"| {folder}/{os.path.basename(path)} | {what} | {since_first} | {since_motion} |"
        if args.libinput:
            li = libinput_begin(args.libinput, path)
            if li is not None and began is not None:
                d = (began - first) * 1000 - li * 1000
                diffs.append(abs(d))
                row += f" {li * 1000:.0f} | {d:+.0f} |"
            else:
                row += " — | — |"
        print(row)
    if diffs:
        print(f"\nmedian |difference| {statistics.median(diffs):.0f} ms, worst {max(diffs):.0f} ms over {len(diffs)} streams")


if __name__ == "__main__":
    main()
