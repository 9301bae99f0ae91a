#!/usr/bin/env python3
"""Writes DESC's description, then the events of EVENTS with every y position moved by OFFSET
device units, and with --mirror turned upside down first (y becomes the axis maximum minus y).

    move-y.py DESC EVENTS OFFSET [--mirror] OUT

Times, x positions, pressure and every other event are kept as they are: the same real stroke,
started nearer the top (or, mirrored, the bottom) edge. Used to make the touchscreen edge swipes
in this folder from a drag that starts 13.6 mm below the edge, outside an edge pan's 5 mm zone.
"""
import sys

args = [a for a in sys.argv[1:] if a != "--mirror"]
mirror = "--mirror" in sys.argv[1:]
desc, events, offset, out = args[0], args[1], int(args[2]), args[3]
described = [line for line in open(desc, encoding="utf-8") if line[:2] in ("N:", "I:", "P:", "B:", "A:")]
maximum = {}
for line in described:
    if line.startswith("A:"):
        fields = line.split()
        maximum[int(fields[1], 16)] = int(fields[3])
how = ("mirrored, then " if mirror else "") + f"y moved by {offset}"
lines = [f"# Derived from '{events.split('/')[-1]}': {how} (move-y.py); description from '{desc.split('/')[-1]}'\n"] + described
for line in open(events, encoding="utf-8"):
    if not line.startswith("E:"):
        continue
    fields = line.split("\t")[0].split()
    kind, code, value = int(fields[2], 16), int(fields[3], 16), int(fields[4])
    if kind == 3 and code in (0x01, 0x36):  # ABS_Y, ABS_MT_POSITION_Y
        y = maximum[code] - value if mirror else value
        y += offset
        assert 0 <= y <= maximum[code], f"y {y} out of range in {line}"
        line = f"E: {fields[1]} {fields[2]} {fields[3]} {y:04d}\n"
    lines.append(line)
open(out, "w", encoding="utf-8").writelines(lines)
