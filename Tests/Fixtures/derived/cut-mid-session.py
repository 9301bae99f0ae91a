#!/usr/bin/env python3
"""Writes DESC's description, then the events of EVENTS from FROM seconds on (after the first event).

    cut-mid-session.py DESC EVENTS FROM OUT

The cut falls before the first frame that starts at or after FROM: what a recording started then
would hold. The kernel sends only values that changed, so a slot's first frame after the cut may lack
a coordinate that did not change since the frames left out.
"""
import sys

desc, events, cut, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
lines = [line for line in open(desc, encoding="utf-8") if line[:2] in ("N:", "I:", "P:", "B:", "A:")]
lines.insert(0, f"# Derived from '{events.split('/')[-1]}' from {cut} s on (cut-mid-session.py); description from '{desc.split('/')[-1]}'\n")
first = None
keeping = False
frame_start = True
for line in open(events, encoding="utf-8"):
    if not line.startswith("E:"):
        continue
    fields = line.split()
    time = float(fields[1])
    first = time if first is None else first
    if frame_start and time - first >= cut:
        keeping = True
    if keeping:
        lines.append(line)
    frame_start = int(fields[2], 16) == 0 and int(fields[3], 16) == 0
open(out, "w", encoding="utf-8").writelines(lines)
