#!/usr/bin/env python3
"""Prepends real pointer motion to a real two-finger scroll of the same touchpad.

usage: pointer-then-scroll.py DESC POINTER.events SCROLL.events SKIP MS OUT.evemu

MS ms of the one-finger motion in POINTER.events, from SKIP ms after its touch-down, (its slot-0 positions, frame by frame, at
their own times) are moved so that they end where the scroll's first finger lands, and played before
SCROLL.events: the first finger moves alone for MS ms (the pointer), then the second lands and both
scroll, as the scroll recorded them. The scroll's first finger keeps the pointer's tracking id, so it
is one finger from the start; BTN_TOOL_FINGER is released when BTN_TOOL_DOUBLETAP goes down. The
position axes' fuzz is 0 in the header: the events were already defuzzed when recorded, and played
through uinput with fuzz the kernel would smooth them again.
"""
import sys

desc, pointer, scroll = sys.argv[1], sys.argv[2], sys.argv[3]
skip, ms, out = float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]


def events(path):
    rows = []
    for line in open(path):
        if line.startswith("E: "):
            t, typ, code, value = line.split()[1:5]
            rows.append((float(t), int(typ, 16), int(code, 16), int(value)))
    return rows


def frames(rows):
    frame = []
    for row in rows:
        frame.append(row)
        if row[1] == 0 and row[2] == 0:
            yield frame
            frame = []


# The pointer: slot 0's position at each frame of its first MS ms.
track, x, y, start = [], None, None, None
for frame in frames(events(pointer)):
    for t, typ, code, value in frame:
        if typ == 3 and code == 0x35: x = value
        if typ == 3 and code == 0x36: y = value
    t = frame[-1][0]
    if start is None: start = t
    if t - start < skip / 1000: continue
    if t - start > (skip + ms) / 1000: break
    track.append((t - start - skip / 1000, x, y))

scroll_frames = list(frames(events(scroll)))
t0 = scroll_frames[0][0][0]
first = {code: value for _, typ, code, value in scroll_frames[0] if typ == 3}
# The scroll's first frame: slot 0 then slot 1; find slot 0's landing position.
slot, land = None, None
for _, typ, code, value in scroll_frames[0]:
    if typ == 3 and code == 0x2f: slot = value
    if typ == 3 and code == 0x35 and slot == 0: lx = value
    if typ == 3 and code == 0x36 and slot == 0: land = (lx, value)
tracking = next(v for _, typ, code, v in scroll_frames[0] if typ == 3 and code == 0x39)
end_t, end_x, end_y = track[-1]
lead = end_t + 0.012  # the scroll's first frame comes one report after the pointer's last

with open(out, "w") as f:
    f.write(f"# derived: {pointer.split('/')[-1]} ({ms:.0f} ms of one finger moving, from {skip:.0f} ms) then "
            f"{scroll.split('/')[-1]}; made by derived/pointer-then-scroll.py\n")
    for line in open(desc):
        if line.startswith("E: "): continue
        # The events were defuzzed by the kernel when they were recorded; played through uinput with
        # the axes' fuzz they would be smoothed a second time (a slow pointer then barely moves).
        parts = line.split()
        if parts[:1] == ["A:"] and parts[1] in ("00", "01", "35", "36") and len(parts) >= 5:
            parts[4] = "0"
            line = " ".join(parts) + "\n"
        f.write(line)
    for k, (t, x, y) in enumerate(track):
        when = t0 - lead + t
        px, py = x - end_x + land[0], y - end_y + land[1]
        lines = [(0x3, 0x2f, 0)]
        if k == 0: lines.append((0x3, 0x39, tracking))
        lines += [(0x3, 0x35, px), (0x3, 0x36, py), (0x3, 0x3a, 50)]
        if k == 0: lines += [(0x1, 0x14a, 1), (0x1, 0x145, 1)]
        lines += [(0x3, 0x00, px), (0x3, 0x01, py), (0x3, 0x18, 50), (0x0, 0x0, 0)]
        for typ, code, value in lines:
            f.write(f"E: {when:.6f} {typ:04x} {code:04x} {value}\n")
    for n, frame in enumerate(scroll_frames):
        slot = None
        for t, typ, code, value in frame:
            if typ == 3 and code == 0x2f: slot = value
            if n == 0 and typ == 3 and code == 0x39 and slot == 0: continue  # the pointer's own finger
            if n == 0 and typ == 1 and code == 0x14a: continue                 # BTN_TOUCH already down
            if n == 0 and typ == 1 and code == 0x14d:
                f.write(f"E: {t:.6f} 0001 0145 0\n")                           # BTN_TOOL_FINGER up
            f.write(f"E: {t:.6f} {typ:04x} {code:04x} {value}\n")
