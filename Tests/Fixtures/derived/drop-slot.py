#!/usr/bin/env python3
"""Writes DESC's description, then the events of EVENTS without one multitouch slot (protocol B).

    drop-slot.py DESC EVENTS SLOT OUT

Every other event is kept as it is, in order: the result is the same real hand with one finger
fewer. Used to make the three-finger drag in this folder from a four-finger one.
"""
import sys

desc, events, drop, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
lines = [line for line in open(desc, encoding="utf-8") if line[:2] in ("N:", "I:", "P:", "B:", "A:")]
lines.insert(0, f"# Derived from '{events.split('/')[-1]}' without slot {drop} (drop-slot.py); description from '{desc.split('/')[-1]}'\n")
slot = 0
for line in open(events, encoding="utf-8"):
    if not line.startswith("E:"):
        continue
    fields = line.split()
    kind, code, value = int(fields[2], 16), int(fields[3], 16), int(fields[4])
    if kind == 3 and code == 0x2F:  # ABS_MT_SLOT
        slot = value
        if slot == drop:
            continue
    elif kind == 3 and 0x30 <= code <= 0x3D and slot == drop:  # ABS_MT_* of the dropped slot
        continue
    lines.append(line)
open(out, "w", encoding="utf-8").writelines(lines)
