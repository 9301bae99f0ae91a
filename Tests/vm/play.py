#!/usr/bin/env python3
"""Plays an evemu recording into an evdev node (/dev/input/eventN) at the recorded pace, each frame
at its own deadline from the start: `Tests/vm/play.py NODE < RECORDING`; prints the CLOCK_MONOTONIC
time at which its first frame was written.

evemu-play sleeps the gap between one event and the next after writing, so every wake-up's lateness
adds to the next: in the VM (no KVM) a three-finger swipe recorded over 350 ms played over 465, and
both readers (gestured and libinput) judged a slower hand than the recording's. Here a late frame
is only late by its own wake-up, never by the ones before it, and a frame's events are written in one
write, so no reader sees half a frame. Events are written as the kernel's struct input_event
(timeval, type, code, value); the kernel stamps them when it passes them on."""
import os
import re
import struct
import sys
import time

EVENT = struct.Struct("llHHi")


def frames(stream):
    """(seconds, bytes of the frame's events), one per SYN_REPORT and its events before it."""
    pending, stamp = [], None
    for number, line in enumerate(stream, 1):
        if not line.startswith("E:"):
            continue
        m = re.match(r"E: (\d+)\.(\d+) ([0-9a-fA-F]+) ([0-9a-fA-F]+) (-?\d+)", line)
        if not m:
            sys.exit(f"play.py: line {number}: expected 'E: SECONDS TYPE CODE VALUE', got {line.strip()!r}")
        seconds = int(m.group(1)) + int(m.group(2)) / 10 ** len(m.group(2))
        stamp = seconds if stamp is None else stamp
        kind, code, value = int(m.group(3), 16), int(m.group(4), 16), int(m.group(5))
        pending.append(EVENT.pack(0, 0, kind, code, value))
        if kind == 0 and code == 0:
            yield stamp, b"".join(pending)
            pending, stamp = [], None
    if pending:
        yield stamp, b"".join(pending)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: play.py /dev/input/eventN < RECORDING")
    node = os.open(sys.argv[1], os.O_WRONLY)
    start = first = written = None
    for stamp, data in frames(sys.stdin):
        if start is None:
            start, first = time.monotonic(), stamp
        wait = start + (stamp - first) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if written is None:
            # Read before the write: the kernel stamps the frame as the write passes it on, and the
            # write returns late (up to 8 ms in the VM, while both readers wake to it).
            written = time.monotonic()
        os.write(node, data)
    os.close(node)
    # When the first frame went in (CLOCK_MONOTONIC, the clock the kernel stamps the events with):
    # libinput's times count from that frame, which need not be the first touch gestured sees (a
    # contact too light to be a finger yet is none).
    if written is not None:
        print(f"{written:.6f}")


if __name__ == "__main__":
    main()
